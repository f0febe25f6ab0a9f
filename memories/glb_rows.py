"""GLB entries of rows per transfer: a GLB input whose stream carries k consecutive values of y side by side
(`hw_input.in_().unroll(y, 2)`, hwlower `LoopNest.lane_dims`) stores one transfer per entry, as for lanes along x,
but an entry then holds words (x, k * q + l) for l < k: entry x + W * q of a box W words wide (higher dimensions
above, as words). The host loads the tile's transfers in box order (x, then q), the array's memory tiles theirs,
each an affine walk over entries as over words.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mainspring.frontend.errors import ScheduleError

from .glb import GlbController


def row_entries(c: GlbController, k: int, box: Sequence[tuple[int, int]], who: str) -> GlbController:
    """`c` (a walk over the words of `box`, x fastest) as a walk over entries of k rows: its loop along y (stride
    one row) takes k rows a step, and its other strides along y or above (memory tiles below one another) count
    entries, k rows each."""
    width = box[0][1] - box[0][0] + 1
    ext, stride = list(c.extent), list(c.data_stride)
    row = next((i for i, (e, s) in enumerate(zip(ext, stride)) if s == width and e > 1), None)
    start_row, x0 = divmod(c.data_start, width)
    others = [s for i, (e, s) in enumerate(zip(ext, stride)) if i != row and e > 1 and s >= width]
    if row is None or ext[row] % k or start_row % k or any(s % width or (s // width) % k for s in others):
        steps = sorted({s // width for s in others})
        raise ScheduleError(
            f"{who} holds {k} rows per GLB entry (its stream's lanes along y), so each memory tile must read it over "
            f"whole entries, but the array's memory tiles read "
            f"{ext[row] if row is not None else 1} rows of it from row {start_row} of the GLB tile"
            + (f", {' or '.join(map(str, steps))} rows apart" if steps else "")
            + f"; tile the array's output by a multiple of {k} rows (with a RoundUp tail), so that its memory tiles "
            f"start at whole entries")
    ext[row] //= k
    stride = [s if i == row or s < width else s // k for i, s in enumerate(stride)]
    return GlbController(tuple(ext), x0 + width * (start_row // k), tuple(stride), c.skip)


def row_coords(entries: np.ndarray, k: int, box: Sequence[tuple[int, int]]) -> np.ndarray:
    """The coordinates of the words of `entries` (in order, k rows each), one row per word."""
    ext = [e for _, e in box]
    x, q = entries % ext[0], entries // ext[0]
    rows_per = ext[1] // k
    y_entry, above = q % rows_per, q // rows_per
    words = (x[:, None] + ext[0] * (y_entry[:, None] * k + np.arange(k)[None, :]) + ext[0] * ext[1] * above[:, None])
    words = words.ravel()
    out = []
    for e in ext:
        out.append(words % e)
        words = words // e
    return np.stack(out, axis=1) + np.array([m for m, _ in box])


def row_box_coords(box: Sequence[tuple[int, int]], k: int) -> np.ndarray:
    """The coordinates of an inclusive box in the order of its transfers of k rows: x, then y by k, then the
    dimensions above, the k rows of each transfer side by side."""
    from .glb_verify import box_coords

    coords = box_coords(box)
    ext = [hi - lo + 1 for lo, hi in box]
    shaped = coords.reshape(-1, ext[1] // k, k, ext[0], len(box))
    return shaped.transpose(0, 1, 3, 2, 4).reshape(-1, len(box))
