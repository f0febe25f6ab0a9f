# Found by mainspring fuzz --auto (seed 140256): crashed in memories ("hwlower contract: ... reads element(s) of
# buffer 'hw_input_global_wrapper_global_wrapper' that no op writes"): 2 pixels per cycle over a GLB tile of 3
# columns (a frame 3 wide); the memory tile's RoundUp lanes compute 4 columns, and its producers' boxes covered 3.
# Bounds inference now rounds a split wider than its loop (the memory tile of whole lanes, 4, over 3 columns) up
# to the lanes over the loop's own extent (frontend/bounds.py `_covered`); the autoscheduler runs a GLB tile at
# lanes that divide its columns (autoschedule_tiles.py `glb_lanes`: 1 here, after fuzz --auto 149118).
"""mainspring fuzz --auto case 140256: 3x1, copy style, lanes 2."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    f0[x, y] = hl.u8(((hw_input[x + 2, y + 1]) + hw_input[x + 1, y]) >> 1)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return locals()


def schedule(hl, a):
    a["output"].set_estimates([(0, 3), (0, 1)])
    params = hl.AutoschedulerParams("Mainspring", {"lanes": "2", "use_glb": "true", "glb_tile": "3x1"})
    return hl.Pipeline(a["output"]).apply_autoscheduler(target(hl), params)


def target(hl):
    return hl.CGRA()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_auto_140256", target=target(mainspring))
    design.check(design.example_inputs(140256), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=140256)
    print("bit-exact")
