"""Checks of a GLB plan against the loop nest (memories/glb.py plans it): the words each controller moves,
decoded back to coordinates, are the ones the array and the host stream, in order, and no read outruns its
writer."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mainspring.hwlower.program import HwProgram
from mainspring.memories.glb import GlbBuffer, GlbPlan, addresses, check_pacing, transfer_coords


def box_coords(box: Sequence[tuple[int, int]], order: Sequence[int] = ()) -> np.ndarray:
    """The coordinates of an inclusive box in storage order (innermost first; (): x fastest; numpy, one row per
    element)."""
    dims = list(order or range(len(box)))
    grids = np.meshgrid(*[np.arange(box[d][0], box[d][1] + 1) for d in reversed(dims)], indexing="ij")
    out = np.stack([gr.ravel() for gr in reversed(grids)], axis=1)
    return out[:, np.argsort(dims)]


def verify_glb(plan: GlbPlan, program: HwProgram) -> None:
    """Check the GLB's controllers against the loop nest, independently of how they were derived: the words
    each controller moves, decoded back to coordinates, are the ones the array and the host stream, in order;
    and each reader's waits never let it read an entry before it is written (`check_pacing`)."""
    from mainspring.hwlower.ir import output_order, store_order

    g, nest = program.glb, program.nest
    assert g is not None, "the program has no GLB level"
    first = program.tiles[0].boxes

    coords = transfer_coords

    for name in g.inputs:
        b = plan.buffer(name)
        want = np.concatenate([_box_coords(m.boxes[b.name], b) for m in g.mem_tiles])
        assert np.array_equal(coords(b.array, b), want), f"GLB {b.name}: the array reads the wrong words"
        loads = coords(b.host, b)
        if not np.array_equal(loads, _box_coords(first[b.name], b)):  # else in the array's order, each word once
            _, first_read = np.unique(addresses(b.array), return_index=True)
            want = want.reshape(-1, b.lanes, len(b.box))[np.sort(first_read)].reshape(-1, len(b.box))
            assert np.array_equal(loads, want) and _each_once(loads, box_coords(first[b.name])), \
                f"GLB {b.name}: host load order"
    out = plan.buffer(g.output)
    order = output_order(nest)
    shift = [np.array([lo for lo, _ in m.output_box]) - order.min(axis=0) for m in g.mem_tiles]
    want = np.concatenate([order + s for s in shift])
    assert np.array_equal(coords(out.array, out), want), f"GLB {out.name}: the array writes the wrong words"
    whole = [(lo, lo + e - 1) for lo, e in out.box]
    if len(g.mem_tiles) > 1:  # in the array's order, memory tile by memory tile: each word of the buffer once
        # (memory tiles that do not divide the GLB tile write past it, hwlower.tiling: the host drops those words)
        assert np.array_equal(coords(out.host, out), want) and _each_once(want, box_coords(whole)), \
            f"GLB {out.name}: host read-back order"
    else:
        back = store_order(g.readback_loops, g.readback)
        if whole != first[g.output] or len(coords(out.host, out)) != len(back):  # a padded tile, or rows that
            back = box_coords(whole, out.order)  # end inside a transfer: the whole box, in its order
        got = coords(out.host, out)
        # an entry per block of lanes (glb_blocks.py): the host reads back the whole box in entries
        assert np.array_equal(got, back) or _in_entry_order(got, back, out.lanes) or \
            (bool(out.block) and _each_once(got, box_coords(whole))), f"GLB {out.name}: host read-back order"
    for b in plan.buffers:
        check_pacing(b)


def _box_coords(box: list[tuple[int, int]], b: GlbBuffer) -> np.ndarray:
    """The coordinates of an inclusive box in the order a stream of GLB buffer b moves them."""
    if b.lane_dim:
        from .glb_rows import row_box_coords
        return row_box_coords(box, b.lanes)
    return box_coords(box)


def _in_entry_order(got: np.ndarray, back: np.ndarray, k: int) -> bool:
    """Whether the host's words `got` are the read-back loops' words `back` (one row each, x first), each once,
    read as whole entries of k consecutive words of x in the order the loops first reach each entry (a read-back
    along y first over lanes of x: `glb.lane_words`)."""
    if k == 1 or not _each_once(got, back):
        return False
    lo, per = back.min(axis=0), [k] + [1] * (back.shape[1] - 1)
    entry, wanted = np.floor_divide(got - lo, per), np.floor_divide(back - lo, per)
    _, first = np.unique(wanted, axis=0, return_index=True)
    whole = bool((entry.reshape(-1, k, got.shape[1]) == entry[::k, None]).all())
    return whole and bool(np.array_equal(entry[::k], wanted[np.sort(first)]))


def _each_once(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether coordinate lists a and b (one row per word) hold the same words, each once."""
    if a.shape != b.shape:
        return False
    sa, sb = a[np.lexsort(a.T[::-1])], b[np.lexsort(b.T[::-1])]
    return bool(np.array_equal(sa, sb)) and not (np.diff(sa, axis=0) == 0).all(axis=1).any()
