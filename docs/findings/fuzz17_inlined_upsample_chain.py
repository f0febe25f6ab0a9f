"""fuzz17 (session 17): a chain of upsamples with the first one inlined into the second: f1's loop reads hw_input
at (x / 4) / 2 (= x / 8), refused as "not an affine function of its loops" (undocumented refusal in the fuzzer).
The same program with f0 buffered (f0.compute_at(hw_output, xo)) compiles and is bit-exact. Found by the fuzzer's
new chain draw (seeds 9146012, 9146072, 9146126, 9146532, 9146749, ... before the generator kept chains buffered);
x / 3 / 2 and x / 2 / 3 alike. Run: .venv/bin/python /work/briefs/cases/fuzz17_inlined_upsample_chain.py"""
import mainspring as hl

x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
input_ = hl.ImageParam(hl.UInt(8), 2, "input")
hw_input, f0, f1, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "f1", "hw_output", "output"))
hw_input[x, y] = hl.i32(input_[x, y])
f0[x, y] = hl.i32((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)  # inlined
f1[x, y] = hl.i32((f0[x / 4, y] + f0[x / 4 + 1, y]) >> 1)
hw_output[x, y] = f1[x, y]
output[x, y] = hw_output[x, y]
output.bound(x, 0, 8).bound(y, 0, 6)
hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).hw_accelerate(xi, xo)
f1.compute_at(hw_output, xo)
hw_input.compute_root().stream_to_accelerator()
design = hl.compile(output, name="inlined_upsample_chain")
design.check(design.example_inputs(1), simulator="icarus")
print("bit-exact")
