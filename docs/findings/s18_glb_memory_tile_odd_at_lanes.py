"""Session 18 (lead): a hand schedule through the GLB whose memory tile has an odd number of columns at 2 lanes
(`hw_output.tile(x, y, xio, yio, xii, yii, 3, 1)` then `unroll(xii, 2, RoundUp)`), with the stage inlined into
hw_output so that it reads the memory tile's input copy directly: the lanes compute a 4th column, reading the copy
past the box bounds inference gave it; memories/ then stops on an internal assertion ("hwlower contract: op
'hw_output_s0' load ... reads element(s) of buffer 'hw_input_global_wrapper_global_wrapper' that no op writes").
Tiles of 3, 5 or 7 columns fail alike; even tiles compile, as does gaussian_glb's 62 columns at 4 lanes (its
stages are buffered and unrolled by the lanes with RoundUp themselves, which grows their boxes). Rounding the
memory tiles up to whole lanes in hwlower/tiling.py (tried) broke gaussian_glb at 62 columns and 4 lanes (the GLB
output's transfers of 62 words); what is missing is the producers' boxes of the memory tile's RoundUp lanes.
The autoscheduler avoids it (autoschedule_tiles.py `glb_lanes`: lanes that divide the GLB tile; fuzz --auto
140256). Run: .venv/bin/python docs/findings/s18_glb_memory_tile_odd_at_lanes.py"""
import mainspring as hl

x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
input_ = hl.ImageParam(hl.UInt(16), 2, "input")
hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
hw_input[x, y] = input_[x, y]
hw_output[x, y] = (hw_input[x + 2, y + 1] + hw_input[x + 1, y]) >> 1
output[x, y] = hw_output[x, y]

output.bound(x, 0, 6).bound(y, 0, 1)
glb = hw_output.in_()
glb.compute_root().tile(x, y, xo, yo, xi, yi, 3, 1).hw_accelerate(xi, xo)
glb.store_in(hl.MemoryType.GLB)
hw_output.tile(x, y, xio, yio, xii, yii, 3, 1).compute_at(glb, xo)
hw_input.in_().in_().compute_at(hw_output, xio)
hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
hw_input.compute_root().accelerator_input()
up = hl.TailStrategy.RoundUp
hw_output.unroll(xii, 2, up)
hw_input.in_().in_().unroll(x, 2, up)
hw_input.in_().unroll(x, 2, up)

design = hl.compile(output, name="glb_odd_lanes")
design.check(design.example_inputs(3), simulator="icarus")
print("bit-exact")
