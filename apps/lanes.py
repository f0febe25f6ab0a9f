"""Several pixels per cycle: the unrolls that give every stage of an app's accelerator the same lanes.

Seed 002's "Duplicating Compute": unroll x of every Func inside the accelerator (the pure definition and the
unrolled update), of the output's inner loop and of the accelerator input by the same factor, with RoundUp
tails, so producers and consumers keep the same rate at any width. Call it after `common.accelerate` (the
output's inner loop xi exists then). With RoundUp each stage computes its box rounded up to a multiple of the
lanes, so the input is read a little further than the halo: `input_width` says how far.
"""

from __future__ import annotations

import mainspring as hl


def unroll_lanes(lanes: int, hw_output: hl.Func, inner: list[hl.Func], hw_input: hl.Func,
                 tail: hl.TailStrategy = hl.TailStrategy.RoundUp) -> None:
    """Unroll x by `lanes` in every stage of the accelerator (nothing for one lane)."""
    if lanes == 1:
        return
    x, xi = hl.Var("x"), hl.Var("xi")
    for f in inner:
        f.unroll(x, lanes, tail)
        for k in range(f.num_update_definitions()):
            f.update(k).unroll(x, lanes, tail)
    hw_output.unroll(xi, lanes, tail)
    hw_input.unroll(x, lanes, tail)


def input_width(width: int, lanes: int, halos: tuple[int, ...]) -> int:
    """The input width a chain of stencils reads for `width` output pixels when every stage rounds its box up
    to a multiple of `lanes`: `halos` are the extra columns each stage reads, from the output back."""
    def up(n: int) -> int:
        return -(-n // lanes) * lanes

    w = up(width)
    for h in halos:
        w = up(w + h)
    return w
