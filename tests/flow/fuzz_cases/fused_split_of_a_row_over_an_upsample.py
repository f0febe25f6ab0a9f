# Found by mainspring fuzz (seeds 176150 and 175996, session 38, fuzz_blocks.py's fused splits; shrunk, and the dead
# stage f0 kept): crashed with an internal assert (`AssertionError: [('xo', 2)]` in hwlower/ops.py
# `_drop_host_loops`). `fuse(x, y, xy).split(xy, xo, xi, 3)` over an upsample read at y / 2: its tiles of a row grow
# to the first tile's phase, 2 rows (tiling.py `_at_first_phase`), but the rewrite (hwlower/fused_splits.py) fused y
# whole into the host loop, leaving no loop inside the accelerator to run the second row. y is now split by 1 as
# well, its inner part fused into the accelerator's loop, as tile(x, y, ..., 3, 1) runs it.
"""mainspring fuzz case 176150: 3x2, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i32(hw_input[x + 1, y] + hl.i32(1))
    f1 = hl.Func("f1")
    f1[x, y] = hl.i32((hw_input[x / 3, y / 2] + hw_input[x / 3 + 1, y / 2]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, xi = (hl.Var(n) for n in ("x", "y", "xo", "xi"))
    a["output"].bound(x, 0, 3).bound(y, 0, 2)
    a["hw_output"].compute_root().fuse(x, y, hl.Var("xy"))
    a["hw_output"].split(hl.Var("xy"), xo, xi, 3).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_176150")
    design.check(design.example_inputs(176150), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=176150)
    print("bit-exact")
