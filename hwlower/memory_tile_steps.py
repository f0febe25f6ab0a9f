"""Memory tiles of a GLB level's array output rounded up to whole steps of the serial splits inside them.

`hw_output.tile(x, y, xio, yio, xii, yii, 8, 8).split(xii, xii, xv, 3, RoundUp)` runs 9 columns a memory tile:
Halide's memory tiles then overlap (the second, at column 8, computes column 8 again), and with Halide's default
tail its last step shifts back inward. Neither fits the GLB: its memory tiles lie side by side in the GLB tile,
written by affine address controllers, so a tile's extra column would land on the next tile's first, and a loop
cannot move its last step. The array output is pure at the memory tiles' level, so memory tiles of 9 compute the
same values: the split's factor rounds up to whole steps (as `region.memory_tiles_in_whole_lanes` does for lanes),
the GLB tile rounds up to whole memory tiles (tiling.py) and the host reads back its own box.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from mainspring.frontend.func import Function
from mainspring.frontend.schedule import Split, StageSchedule
from mainspring.frontend.stream_turns import transfer_lanes


def memory_tiles_in_whole_steps(f: Function, glb_output: Function, glb_inputs: Sequence[Function]) -> None:
    """Round each memory-tile split of the array output `f` (x into xio, xii) up to the smallest factor its serial
    splits inside divide and that is whole entries of the GLB inputs that hold several words of that dimension per
    entry (`hw_input.in_().unroll(x, 2)`: a memory tile must start at a whole entry, memories/glb_input_lanes.py;
    an input's dimension of f's name), where the GLB output's tile (`glb_output`'s split of x) holds more than one
    memory tile (a lone memory tile is the GLB tile, whose loops round up inside it) and the rounded one fits in it
    (else the refusals stay: ops.py's of the split, with its fixes, for a memory tile of 15 in a GLB tile of 16
    split by 7)."""
    sched = f.definitions[0].schedule
    glb = {d.old: d.factor for d in glb_output.definitions[0].schedule.directives
           if isinstance(d, Split) and d.old in glb_output.args}
    entries = {a: math.lcm(*(transfer_lanes(g).get(a, 1) for g in glb_inputs if a in g.args)) for a in f.args}
    for i, d in enumerate(sched.directives):
        if not isinstance(d, Split) or d.old not in f.args or glb.get(d.old, 0) <= d.factor:
            continue
        k = entries[d.old]

        def whole(factor: int, i: int = i, k: int = k) -> bool:
            return factor % k == 0 and _divided(sched, i, factor)

        factor = d.factor
        while not whole(factor) and factor < glb[d.old]:
            factor += 1
        if factor != d.factor and whole(factor):
            sched.directives[i] = dataclasses.replace(d, factor=factor)


def _divided(sched: StageSchedule, at: int, extent: int) -> bool:
    """Whether the serial splits of the loops split `at` makes of `extent` values inside each divide them (lanes
    pad whole GLB entries instead: memories/glb.py)."""
    lanes = sched.lane_dims()
    ext = {sched.directives[at].inner: extent}  # type: ignore[union-attr]
    for d in sched.directives[at + 1:]:
        if isinstance(d, Split) and d.old in ext:
            e = ext.pop(d.old)
            if e % d.factor and e > d.factor and d.inner not in lanes:
                return False
            ext[d.inner], ext[d.outer] = min(d.factor, e), -(-e // d.factor)
    return True
