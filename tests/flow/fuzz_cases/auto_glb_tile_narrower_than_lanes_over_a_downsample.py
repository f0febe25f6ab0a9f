# Found by mainspring fuzz --auto (seed 140258): refused before ("some lanes of its op stream no value"): a
# glb_tile of 2 columns at 3 lanes over a 2x downsample (2 * x); GLB tiles over a resampling now round up to
# whole lanes and whole steps (mainspring/autoschedule_tiles.py glb_tile), here 3 columns.
"""mainspring fuzz --auto case 140258: 9x6, copy style, lanes 3."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u8((hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y + 1]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 9), (0, 6)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "3", "use_glb": "true", "glb_tile": "2x3"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(target(hl), params)


def target(hl):
    return hl.CGRA()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_140258", target=target(mainspring))
    design.check(design.example_inputs(140258), simulator="icarus", bubbles=0.2, backpressure=0.2, seed=140258)
    print("bit-exact")
