"""GLB output entries of blocks of lanes: an array output that writes lanes along y (rows: `hw_output.unroll(yii,
2)`), alone or with lanes along x narrower than the tile (`unroll(xii, 2).unroll(yii, 2)` in a tile 8 wide), or
along another dimension, writes words that are not consecutive in a tile stored x fastest. The GLB then stores one
transfer per entry as it comes: entry e holds the block of words the array writes in one cycle, lane 0 in the low
bits, and the entries are the tile's blocks, x fastest (block (bx, by) at entry bx + (W / kx) * by for lanes kx of x
and ky of y over a tile W wide). The array and the host each walk whole entries, affine over entries as they walk
words, and the host keeps the words it reads in the same entry layout (`block_coords`).

The layout is the array's: `entry_block` gives its lanes innermost first as (dimension, extent, step) (lane j of a
transfer has index j % extent on its innermost lane loop, and so on outwards), which is the `entry_block` of the
memory JSON. Memory tiles start at whole blocks (hwlower/region.py rounds their splits up to whole lanes), so each
memory tile's walk is the first one's shifted by whole entries.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mainspring.hwlower.ir import Affine, Loop
from mainspring.hwlower.program import Tile

from .glb import GlbController, tiled

Lane = tuple[int, int, int]  # (box dimension, extent, step in words along it)
Blocks = tuple[GlbController, GlbController, tuple[Lane, ...]]  # host, array, the lanes of an entry


def entry_block(loops: Sequence[Loop], index: Sequence[Affine]) -> tuple[Lane, ...] | None:
    """The lanes of an op over `loops` storing at `index` (its unrolled loops), innermost first, when they write
    a whole block: each along one dimension, those of a dimension covering consecutive words (steps 1, e1, e1*e2,
    ...); None otherwise."""
    lanes: list[Lane] = []
    for lp in reversed([lp for lp in loops if lp.unrolled and lp.extent > 1]):
        dims = [(d, c) for d, a in enumerate(index) if (c := dict(a.terms).get(lp.var, 0))]
        if len(dims) != 1 or dims[0][1] <= 0:
            return None
        lanes.append((dims[0][0], lp.extent, dims[0][1]))
    for d in {d for d, _, _ in lanes}:
        run = 1
        for _, e, s in sorted((lane for lane in lanes if lane[0] == d), key=lambda lane: lane[2]):
            if s != run:
                return None
            run *= e
    return tuple(lanes)


def block_sizes(block: Sequence[Lane], dims: int) -> tuple[int, ...]:
    """Words per block along each of `dims` dimensions."""
    return tuple(math.prod(e for d2, e, _ in block if d2 == d) for d in range(dims))


def _entry_strides(box: Sequence[tuple[int, int]], sizes: Sequence[int]) -> tuple[int, ...]:
    """Entries between neighbouring blocks along each dimension of an inclusive box (blocks x fastest)."""
    out, run = [], 1
    for (lo, hi), b in zip(box, sizes):
        out.append(run)
        run *= (hi - lo + 1) // b
    return tuple(out)


def _entry(coord: Sequence[int], box: Sequence[tuple[int, int]], sizes: Sequence[int]) -> int:
    """The entry of the block that starts at `coord`."""
    strides = _entry_strides(box, sizes)
    assert all((c - lo) % b == 0 for c, (lo, _), b in zip(coord, box, sizes)), \
        f"a block of {list(sizes)} words at {list(coord)} does not start at a whole block of box {list(box)}"
    return sum((c - lo) // b * s for c, (lo, _), b, s in zip(coord, box, sizes, strides))


def block_output(loops: Sequence[Loop], index: Sequence[Affine], box: Sequence[tuple[int, int]],
                 mems: Sequence[Tile], grid: Sequence[int]) -> Blocks | None:
    """The host and array controllers (over entries) of a GLB output whose array output, over `loops` storing at
    `index` in memory tiles `mems` (a grid `grid`, innermost first) of the inclusive `box`, writes a block of lanes
    per transfer, and the block; None when its lanes are not a block or its other loops step inside one."""
    block = entry_block(loops, index)
    if not block:
        return None
    sizes = block_sizes(block, len(box))
    if any((hi - lo + 1) % b for (lo, hi), b in zip(box, sizes)):
        return None
    strides = _entry_strides(box, sizes)
    extent, stride = [], []
    for lp in reversed([lp for lp in loops if not lp.unrolled]):
        steps = [dict(a.terms).get(lp.var, 0) for a in index]
        if any(c % b for c, b in zip(steps, sizes)):
            return None
        extent.append(lp.extent)
        stride.append(sum(c // b * s for c, b, s in zip(steps, sizes, strides)) if lp.extent > 1 else 0)
    start = [a.evaluate({lp.var: lp.min for lp in loops}) for a in index]
    first = _entry([lo for lo, _ in mems[0].output_box], box, sizes)
    shifts = [_entry([lo for lo, _ in m.output_box], box, sizes) - first for m in mems]
    inner = GlbController(tuple(extent) or (1,), _entry(start, box, sizes), tuple(stride) or (0,))
    array = tiled(inner, shifts, list(grid))
    # The host reads back as the array writes (the host's DMA puts each word at its address), so each read waits
    # only for the array's step that writes it: in box order a channel-innermost array would make the host wait
    # for the whole tile. Over several memory tiles glb.plan_glb does the same for entries of consecutive words.
    return array, array, block


def block_coords(entries: np.ndarray, block: Sequence[Lane], box: Sequence[tuple[int, int]]) -> np.ndarray:
    """The coordinates of the words of `entries` (in order, each entry's lanes in lane order: lane j's index on
    its innermost lane loop j % extent, and so on), one row per word; `box` as (min, extent) per dimension."""
    sizes = block_sizes(block, len(box))
    blocks = [e // b for (_, e), b in zip(box, sizes)]
    k = math.prod(sizes)
    origin = np.zeros((len(entries), len(box)), dtype=np.int64)
    rest = entries.astype(np.int64)
    for d, n in enumerate(blocks):
        origin[:, d] = box[d][0] + rest % n * sizes[d]
        rest = rest // n
    offset = np.zeros((k, len(box)), dtype=np.int64)
    lane = np.arange(k, dtype=np.int64)
    for d, e, s in block:
        offset[:, d] += lane % e * s
        lane = lane // e
    return (origin[:, None, :] + offset[None, :, :]).reshape(-1, len(box))
