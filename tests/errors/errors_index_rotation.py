"""Catalogue cases: an index that wraps inside each period of a loop, (c + 1) % 3 (hwlower/index_hints.py): no affine
address follows it even over whole periods, so the fix is reads at constant coordinates chosen by hl.mux."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


@case("hardware", "A channel read at a rotated coordinate, (c + 1) % 3", (
    "{rotated_read}: Func 'hw_output' accesses 'hw_input' at ((c + 1) % 3), which is not an affine function of "
    "its loops; memories need affine addresses: ((c + 1) % 3) wraps inside each period of c (an offset of 1 "
    "before the modulo by 3), which no affine address follows even over whole periods of c; read 'hw_input' at "
    "each of the 3 coordinates and choose among the reads by c: hl.mux(c % 3, [the reads at 1, 2, 0 in this "
    "coordinate])."),
    func="hw_output", simulate=True)
def channel_rotated_by_modulo():
    return _rotate(lambda hw_input, x, y, c: hw_input[x, y, (c + 1) % 3])


@channel_rotated_by_modulo.fix
def _():
    return _rotate(lambda hw_input, x, y, c: hl.mux(c % 3, [hw_input[x, y, 1], hw_input[x, y, 2], hw_input[x, y, 0]]))


def _rotate(read):
    """Each colour of a 4x3 RGB input plus the next colour's value, colours a cycle."""
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in "x y c xo yo xi yi".split())
    inp = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y, c] = hl.u16(inp[x, y, c])
    hw_output[x, y, c] = hl.u8((hw_input[x, y, c] + read(hw_input, x, y, c)) >> 1)  # <-rotated_read
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, 4).bound(y, 0, 3).bound(c, 0, 3)
    hw_output.bound(c, 0, 3)
    hw_input.bound(c, 0, 3)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 3).reorder(c, xi, yi, xo, yo).unroll(c)
    hw_output.hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")
