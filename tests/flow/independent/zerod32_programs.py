"""Algorithms whose output is a Func of no dimensions (`total[()]`), written with no schedule (lead, session 32):
a frame sum, a frame maximum of a 3x3 blur, and a copy-Func pair as seed 002 writes them (the host's output reads
the accelerator's hw_output). Each module m is `mainspring` or `halide`; `set_estimates([])` as Halide takes it.

The finding fixed: apply_autoscheduler asked for an estimate of the hidden dimension of a Func of no dimensions
(`tot.set_estimates([(0, 64)])`, which set_estimates then refused), and given one, scheduled a split of it with
hw_accelerate(xi, xo), which compile refuses: it now accelerates such a Func whole at Halide's root level
(`hw_accelerate(hl.Var.outermost(), hl.Var.outermost())`), its buffered Funcs computed there."""


def frame_sum(m, w, h):
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    r = m.RDom([(0, w), (0, h)], "r")
    tot = m.Func("tot")
    tot[()] = m.u32(0)
    tot[()] += m.u32(inp[r.x, r.y])
    tot.set_estimates([])
    return tot, {"inp": inp}


def blurred_max(m, w, h):
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = m.Var("x"), m.Var("y")
    blur, top = m.Func("blur"), m.Func("top")
    blur[x, y] = m.u16(inp[x, y]) + m.u16(inp[x + 1, y]) + m.u16(inp[x, y + 1]) + m.u16(inp[x + 1, y + 1])
    r = m.RDom([(0, w), (0, h)], "r")
    top[()] = m.u16(0)
    top[()] = m.max(top[()], blur[r.x, r.y])
    top.set_estimates([])
    return top, {"inp": inp}


def copied_mean(m, w, h):
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = m.Var("x"), m.Var("y")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.u16(inp[x, y])
    r = m.RDom([(0, w), (0, h)], "r")
    hw_output[()] = m.u16(0)
    hw_output[()] += hw_input[r.x, r.y]
    output[()] = m.u8(hw_output[()] / (w * h))
    output.set_estimates([])
    return output, {"inp": inp}


AUTO = {
    "frame_sum_8x4": (frame_sum, (8, 4), {}),
    "frame_sum_9x5_l2": (frame_sum, (9, 5), {"lanes": "2"}),
    "blurred_max_7x5": (blurred_max, (7, 5), {}),
    "copied_mean_8x6": (copied_mean, (8, 6), {}),
}
