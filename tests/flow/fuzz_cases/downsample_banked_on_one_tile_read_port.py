# Found by mainspring fuzz (seed 101725): f0's addressed reads banked by column parity (memories/banks.py), each bank
# one tile read port and a read sharing it; the top gave the sharer ms_mem_tile's second tile read port (R1), which
# the pyverilog check refused (sharers are R2 and R3, NS of them).
"""mainspring fuzz case 101725: 3x1, tile None, 1 lane(s)."""
import mainspring


def algorithm(hl):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u8(input_[x, y])
    f0 = hl.Func("f0")
    r_f0 = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r_f0")
    f0[x, y] = hl.u8(0)
    f0[x, y] += hw_input[x + r_f0.x, y + r_f0.y] * hl.u8(2)
    f0_e = hl.BoundaryConditions.constant_exterior(f0, hl.u8(3), [(0, 3), (0, 1)])
    f1 = hl.Func("f1")
    f1_table = hl.Func("f1_table")
    f1_table[x] = hl.u8(x * 4 % 11)
    f1[x, y] = f0_e[x - 1, y - 1] + f1_table[hl.i32(hl.clamp(f0_e[x - 1, y - 1], 0, 15))]
    f1_e = hl.BoundaryConditions.constant_exterior(f1, hl.u8(3), [(0, 3), (0, 1)])
    f2 = hl.Func("f2")
    f2[x, y] = hl.u8((f0[2 * x, 2 * y] + f0[2 * x + 1, 2 * y + 1]) >> 1)
    f2_e = hl.BoundaryConditions.constant_exterior(f2, hl.u8(3), [(0, 3), (0, 1)])
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 1)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.u8(0)
    hist[hl.clamp(hl.i32(f2[r.x, r.y]), 0, 99)] += hl.u8(1)
    hw_output = hl.Func("hw_output")
    hw_output[b] = hist[b]
    output = hl.Func("output")
    output[b] = hw_output[b]
    return locals()


def schedule(hl, a):
    xo, xi = hl.Var("xo"), hl.Var("xi")
    a["output"].bound(a["b"], 0, 100)
    a["hw_output"].compute_root().split(a["b"], xo, xi, 100).hw_accelerate(xi, xo)
    a["f0"].compute_at(a["hw_output"], xo)
    a["f1"].compute_at(a["hw_output"], xo)
    a["f2"].compute_at(a["hw_output"], xo)
    a["hw_input"].compute_root().stream_to_accelerator()


def build():
    a = algorithm(mainspring)
    schedule(mainspring, a)
    return a["output"]


if __name__ == "__main__":
    design = mainspring.compile(build(), name="fuzz_101725")
    design.check(design.example_inputs(101725), simulator="icarus", bubbles=0.0, backpressure=0.0, seed=101725)
    print("bit-exact")
