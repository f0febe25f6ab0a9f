# Found by mainspring fuzz --auto (seed 140108): refused before ("accelerator tiles differ in shape"): GLB tiles
# of 8 columns (glb_tile 7 rounded up to whole steps) over an 11-wide upsample inlined into the array output: the
# last tile shifts inward to x = 3, and hwlower does not move it back outward once the GLB tile is padded to
# whole memory tiles. hwlower now moves that tile back outward (session 17), and the upsample stays inlined
# (the autoscheduler's buffering of it there, its workaround since session 16, was dropped in session 18).
"""mainspring fuzz --auto case 140108: 11x4, copy style, lanes 3."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u16((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 11), (0, 4)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "3", "use_glb": "true", "glb_tile": "7x3"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(target(hl), params)


def target(hl):
    return hl.CGRA()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_140108", target=target(mainspring))
    design.check(design.example_inputs(140108), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=140108)
    print("bit-exact")
