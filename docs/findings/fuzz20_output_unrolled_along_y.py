# Refused: "Func 'hw_output': the accelerator output unrolls its loop hw_output.s0.yi.ui but not the loop
# hw_output.s0.xi inside it: the output streams the pixels of one firing as consecutive words, so only its innermost
# loops may be unrolled (unroll x, the innermost)" (hwlower/lanes.py `output_lanes`; fuzz 155121, kind unroll_y,
# session 20). Halide 21 accepts `hw_output.unroll(yi, 2)`. The refusal is on purpose but it is not in the
# catalogue (tests/errors/) and does not meet its standard: no file:line, no call (`hw_output.unroll(yi, 2)`), and
# its fix ("unroll x") changes the schedule's meaning. What compiles instead, two rows per transfer, bit-exact:
#     yio, yii = hl.Var("yio"), hl.Var("yii")
#     hw_output.split(yi, yio, yii, 2).reorder(yii, xi, yio).unroll(yii)
# (`mainspring fuzz` draws that form: mainspring/fuzz_wide.py `with_output_loops`.)
import mainspring as hl

x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
input_ = hl.ImageParam(hl.UInt(16), 2, "input")
hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
hw_input[x, y] = input_[x, y]
blur[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1]
hw_output[x, y] = blur[x, y]
output[x, y] = hw_output[x, y]

output.bound(x, 0, 8).bound(y, 0, 4)
hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
hw_output.unroll(yi, 2)
blur.compute_at(hw_output, xo)
hw_input.compute_root().stream_to_accelerator()

design = hl.compile(output, name="output_unrolled_along_y")
design.check(design.example_inputs(1), simulator="icarus")
print("bit-exact")
