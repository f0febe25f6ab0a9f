# Found by mainspring fuzz (seed 131124, session 14): f2 reads the inlined f1 at x / 2, f1 reads repeat_edge(f0)
# inside, so the index reaches hwlower as max(min(x / 2, 2), 0) and, as an edge tap, a Guarded callee: steps.py
# linked neither, f2 was not strip-mined and x / 2 was refused as "not an affine function of its loops".
"""mainspring fuzz case 131124: 3x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input = hl.Func("hw_input")
    c = hl.Var("c")
    hw_input[c, x, y] = hl.u32(input_[x, y, c])
    f0 = hl.Func("f0")
    f0[x, y] = hw_input[0, x, y] + hl.u32(2)
    f0_e = hl.BoundaryConditions.repeat_edge(f0, [(0, 3), (0, 1)])
    f1 = hl.Func("f1")
    f1[x, y] = hl.u32(f0_e[x, y - 1] + hl.u32(1))
    f1_e = hl.BoundaryConditions.repeat_edge(f1, [(0, 3), (0, 1)])
    f2 = hl.Func("f2")
    f2[x, y] = hl.u32((f1[x / 2, y / 2] + f1[x / 2 + 1, y / 2]) >> 1)
    f2_e = hl.BoundaryConditions.repeat_edge(f2, [(0, 3), (0, 1)])
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f2[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    a["output"].bound(x, 0, 3).bound(y, 0, 1)
    a["hw_output"].compute_root()
    a["hw_output"].tile(x, y, xo, yo, xi, yi, 3, 1).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()
    a["hw_input"].unroll(a["c"])


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_131124")
    design.check(design.example_inputs(131124), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=131124)
    print("bit-exact")
