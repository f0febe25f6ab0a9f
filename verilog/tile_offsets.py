"""Coordinates under host tiles: the accelerator counts its invocations and a coordinate read as a value adds its
tile's offset (hwlower/tile_coordinates.py; `memories.ir.CoordGen.tile_offsets`).

The schedule's cycle counter restarts after each invocation's last cycle, so a tile counter steps at `restart`
and wraps after the last tile (the next frame starts again at the first). Each coordinate's offsets are a small
table indexed by the counter: a case over the tiles whose offset is not 0.
"""

from __future__ import annotations

from typing import Protocol

from mainspring.memories.ir import CoordGen

TILE_COUNT = "tile_count"


class _Top(Protocol):
    decls: list[str]
    body: list[str]


def tile_offset(top: _Top, s: str, c: CoordGen, width: int) -> str:
    """A `width`-bit signal named after coordinate signal `s` holding c's offset in the current tile (the tile
    counter is declared on first use)."""
    tiles = len(c.tile_offsets)
    tw = max(1, (tiles - 1).bit_length())
    if f"reg [{tw - 1}:0] {TILE_COUNT};" not in top.decls:
        top.decls.append(f"reg [{tw - 1}:0] {TILE_COUNT};")
        top.body += [
            "always @(posedge clk) begin  // the host's invocations, one per tile",
            f"    if (!rst_n) {TILE_COUNT} <= {tw}'d0;",
            (f"    else if (restart) {TILE_COUNT} <= {TILE_COUNT} == {tw}'d{tiles - 1} ? {tw}'d0 : "
             f"{TILE_COUNT} + {tw}'d1;"),
            "end",
        ]
    mask = (1 << width) - 1
    top.decls.append(f"reg [{width - 1}:0] {s}_tile;")
    cases = [f"        {tw}'d{t}: {s}_tile = {width}'h{o & mask:x};" for t, o in enumerate(c.tile_offsets) if o]
    top.body += ["always @(*) begin", f"    case ({TILE_COUNT})", *cases,
                 f"        default: {s}_tile = {width}'h0;", "    endcase", "end"]
    return f"{s}_tile"
