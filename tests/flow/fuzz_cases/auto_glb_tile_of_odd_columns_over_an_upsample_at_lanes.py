# Found by mainspring fuzz --auto (seed 149118, session 18): refused ("GLB output 'hw_output_global_wrapper':
# transfers of 2 lanes move 2 consecutive words of x, but this transfer's innermost loop runs over 7 words"): 2
# pixels per cycle over a GLB tile of 7 columns, a 2x upsample. The GLB moves whole lanes a transfer; the
# autoscheduler now runs a GLB tile at lanes that divide its columns (autoschedule_tiles.py `glb_lanes`: 1 here).
"""mainspring fuzz --auto case 149118: 7x1, copy style, lanes 2."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u32(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u32((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 7), (0, 1)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2", "use_glb": "true"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(target(hl), params)


def target(hl):
    return hl.CGRA()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_149118", target=target(mainspring))
    design.check(design.example_inputs(149118), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=149118)
    print("bit-exact")
