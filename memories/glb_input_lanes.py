"""A GLB input of k lanes along x stores k consecutive words of x per entry, so each memory tile must read it from a
whole entry: the array's memory tiles must start a multiple of k columns into the GLB tile. The memory tiles are
rounded to whole lanes of the array output (hwlower/region.py memory_tiles_in_whole_lanes), not of its inputs: an
input copy of 2 lanes under memory tiles 3 wide of a 1-lane output reached an internal assert (helper glby38's
sweep, session 38). Refused with the tile that works, as glb_rows.py refuses rows per entry."""

from __future__ import annotations

from collections.abc import Sequence

from mainspring.frontend.errors import ScheduleError
from mainspring.hwlower.program import Tile


def check_entry_starts(mems: Sequence[Tile], name: str, box: Sequence[tuple[int, int]], k: int, at: str) -> None:
    """Refuse memory tiles `mems` that read GLB input `name` (its GLB tile the inclusive `box`, k words of x per
    entry) from inside an entry."""
    starts = sorted({m.boxes[name][0][0] - box[0][0] for m in mems})
    if k == 1 or not any(s % k for s in starts):
        return
    raise ScheduleError(
        f"{at} holds {k} words of x per GLB entry (its stream's lanes), so each memory tile must read it from whole "
        f"entries, but the array's memory tiles read it from columns {', '.join(map(str, starts))} of the GLB tile; "
        f"tile the array's output by a multiple of {k} columns, so that its memory tiles start at whole entries")
