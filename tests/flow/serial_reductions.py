"""Designs the pipelining and retiming tests share: serial reductions whose operand takes several PE ops."""

from __future__ import annotations

import mainspring as hl

UNPIPELINED = 1000  # more PE ops than any kernel of the tested apps has on a path


def serial_reduction(kind: str):
    """A 5x5 reduction that is not unrolled, its operand computed by several PE ops (a weight from the reduction's
    coordinates, a polynomial of the pixel, or a predicated window)."""
    from mainspring.apps.common import accelerate

    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 5), hl.Range(0, 5)], "r")
    if kind == "disk":
        r.where((r.x - 2) * (r.x - 2) + (r.y - 2) * (r.y - 2) <= 4)
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    v = hw_input[x + r.x, y + r.y]
    acc[x, y] += {"weights": v * hl.u16(r.x + 2 * r.y + 1), "polynomial": (v * 3 + 1) * (v + 7) + v * 5,
                  "disk": v}[kind]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = acc[x, y]
    accelerate(hw_output, hw_output, 8, 6, [acc], hw_input)
    return hw_output
