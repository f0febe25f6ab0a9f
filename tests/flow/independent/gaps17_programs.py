"""Helper gaps17's hand schedules (session 33): schedules Halide accepts that mainspring used to refuse. An hl.Buffer
of constant data read directly inside the accelerator (Halide reads it from memory) is read through a table Func
the compiler adds (hwlower/buffer_tables.py): folded where read at fixed coordinates, a ROM at computed ones. In
module m (`mainspring`, or `halide`), returning (output, {name: ImageParam}, size)."""

import numpy as np
from probe16_programs import _funcs, _input
from probe16b_programs import _tiled


def weights_read_directly(m, table=False):
    """A 3x3 conv reading its hl.Buffer of weights directly in its unrolled update (with `table`, through the
    table Func the refusal used to ask for: the compiler's design is the same)."""
    inp, x, y, hw_input = _input(m)
    w = m.Buffer(np.array([[1, 2, 1], [0, 3, 0], [2, 1, 2]], dtype=np.uint16), "weights")
    conv, hw_output, output = _funcs(m, "conv hw_output output")
    r = m.RDom([m.Range(0, 3), m.Range(0, 3)], "r")
    read = w
    if table:
        (read,) = _funcs(m, "weights_table")
        read[x, y] = w[x, y]
    conv[x, y] = m.u16(0)
    conv[x, y] += read[r.x, r.y] * hw_input[x + r.x, y + r.y]
    hw_output[x, y] = m.u8(conv[x, y] >> 4)
    output[x, y] = hw_output[x, y]
    if m.__name__ == "mainspring":
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(conv, read) if table else (conv,))
        conv.update().unroll(r.x).unroll(r.y)
    return output, {"input": inp}, [6, 4]


def lut_read_directly(m):
    """A 256-entry hl.Buffer read by an inline Func at each pixel's value (a ROM) and at a loop coordinate."""
    inp, x, y, hw_input = _input(m)
    lut = m.Buffer((np.arange(256) * 37 % 251).astype(np.uint8), "lut")
    mapped, hw_output, output = _funcs(m, "mapped hw_output output")
    mapped[x, y] = m.u16(lut[m.clamp(hw_input[x, y], 0, 255)]) + lut[(x + 2 * y) % 5]
    hw_output[x, y] = m.u8((mapped[x, y] + hw_input[x + 1, y]) >> 1)
    output[x, y] = hw_output[x, y]
    if m.__name__ == "mainspring":
        _tiled(m, output, hw_output, hw_input, (6, 4))
    return output, {"input": inp}, [6, 4]


def glb_readback_inside_a_transfer(m):
    """A 2x upsample 7 columns wide at 2 lanes through seed 002's GLB level: the memory tile computes 8 columns
    (whole lanes) and the read-back's rows end inside a transfer, so the host reads the GLB tile's whole rows and
    drops the last word of each (memories/glb.py; refused until session 33 as 'this transfer's innermost loop runs
    over 7 words')."""
    x, y = m.Var("x"), m.Var("y")
    inp = m.ImageParam(m.Int(16), 2, "input")
    hw_input, up, hw_output, output = _funcs(m, "hw_input up hw_output output")
    hw_input[x, y] = m.u32(inp[x, y])
    up[x, y] = m.u32((hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1)
    hw_output[x, y] = up[x, y]
    output[x, y] = hw_output[x, y]
    if m.__name__ == "mainspring":
        round_up = m.TailStrategy.RoundUp
        xo, yo, xi, yi, xio, yio, xii, yii = (m.Var(n) for n in ("xo", "yo", "xi", "yi", "xio", "yio", "xii", "yii"))
        output.bound(x, 0, 7).bound(y, 0, 4)
        glb = hw_output.in_()
        glb.compute_root().tile(x, y, xo, yo, xi, yi, 7, 4).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(glb, xo).tile(x, y, xio, yio, xii, yii, 7, 4)
        up.compute_at(hw_output, xio)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(glb, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
        hw_input.in_().in_().unroll(x, 2, round_up)
        up.unroll(x, 2, round_up)
        hw_output.unroll(xii, 2, round_up)
    return output, {"input": inp}, [7, 4]


CASES = {f.__name__: f for f in (weights_read_directly, lut_read_directly, glb_readback_inside_a_transfer)}
