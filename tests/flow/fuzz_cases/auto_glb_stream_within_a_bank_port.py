# Found by mainspring fuzz --auto (seed 267): refused before: through the GLB, a downsample's producer at twice the
# output's 3 lanes streamed 6 words per cycle, more than a GLB bank port's 4; the stream's lanes were capped at
# CGRA.glb_lanes (the output at 2 lanes). GLB buffers now take banks side by side, so the cap is gone: the output
# runs at the 3 lanes asked for, the stream at 6 words per transfer over 2 banks.
"""mainspring fuzz --auto case 267: 3x5, copy style, lanes 3."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hw_input[x, y] >> hl.u16(3)
    f1 = hl.Func("f1")
    f1[x, y] = hl.u16((hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y + 1]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f1[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 3), (0, 5)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "3", "use_glb": "true"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(hl.CGRA(), params)


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_267")
    design.check(design.example_inputs(267), simulator="icarus", bubbles=0.2, backpressure=0.2, seed=267)
    print("bit-exact")
