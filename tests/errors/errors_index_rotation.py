"""Catalogue cases: an index that wraps inside each period of a loop, (c + 1) % 9 (hwlower/index_hints.py): no affine
address follows it even over whole periods, so the fix is reads at constant coordinates chosen by hl.mux. A period
of at most 8 values (`(c + 1) % 3`) is read that way by the compiler (hwlower/periodic_reads.py, autoprobe22)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


@case("hardware", "A channel read at a rotated coordinate of a period over 8 values, (c + 1) % 9", (
    "{rotated_read}: Func 'hw_output' accesses 'hw_input' at ((c + 1) % 9), which is not an affine function of "
    "its loops; memories need affine addresses: ((c + 1) % 9) wraps inside each period of c (an offset of 1 "
    "before the modulo by 9), which no affine address follows even over whole periods of c; read 'hw_input' at "
    "each of the 9 coordinates and choose among the reads by c: hl.mux(c % 9, [the reads at 1, 2, 3, 4, 5, 6, 7, "
    "8, 0 in this coordinate])."),
    func="hw_output", simulate=True)
def channel_rotated_by_modulo():
    return _rotate(lambda hw_input, x, y, c: hw_input[x, y, (c + 1) % 9])


@channel_rotated_by_modulo.fix
def _():
    return _rotate(lambda hw_input, x, y, c: hl.mux(c % 9, [hw_input[x, y, (k + 1) % 9] for k in range(9)]))


def _rotate(read):
    """Each of 9 planes of a 4x3 input plus the next plane's value, planes a cycle."""
    x, y, c, xo, yo, xi, yi = (hl.Var(n) for n in "x y c xo yo xi yi".split())
    inp = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y, c] = hl.u16(inp[x, y, c])
    hw_output[x, y, c] = hl.u8((hw_input[x, y, c] + read(hw_input, x, y, c)) >> 1)  # <-rotated_read
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, 4).bound(y, 0, 3).bound(c, 0, 9)
    hw_output.bound(c, 0, 9)
    hw_input.bound(c, 0, 9)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 3).reorder(c, xi, yi, xo, yo).unroll(c)
    hw_output.hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")
