"""The memory-tile model of an automatic schedule: the memory tiles one accelerator tile of w x h output pixels
needs, without compiling it (autoschedule_tiles.py splits the frame by it, autoschedule_inline.py inlines by it).

Each buffered Func and stream holds the rows its computed readers span (more where a reader waits for another
producer's later rows: the compiler computes each Func as early as it can), in delay lines of about the tile's width
(divided by its lanes), packed into memory tiles as memories/delay_lines.py packs them (at most two lines, and the
tile's words, per tile; a line longer than a tile chains over whole tiles), plus the tables updated at computed
coordinates (RAMs) and the ROMs of each constant table read at computed coordinates (one hwlower makes a ROM:
computed, updated or in floating point), a tile per read port pair of its lanes' reads. Calibrated against the
compiler's figures (BENCHMARKS.md: the apps' one-tile designs at several widths and tile sizes). A resampling
pipeline's buffers are counted by a replay of its schedule instead (autoschedule_addressed.py: addressed banks where
reads are no constant delay after the write).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .autoschedule_addressed import ROWS, addressed_tiles
from .autoschedule_buffers import scanned_apart
from .autoschedule_steps import axis_rates, out_of_order, reread_rows, x_rates
from .autoschedule_sweeps import sweeps
from .frontend import ir
from .frontend.bounds import Bounder, calls_in, definition_env, func_value_bounds, infer_boxes, union
from .frontend.func import Function
from .frontend.params import Parameter
from .target import CGRA

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from collections.abc import Callable

    from .autoschedule import _Plan
    from .frontend.pipeline import Pipeline


def xy(plan: _Plan) -> tuple[int, int] | None:
    """Positions of x and y among the output's arguments (the accelerated Func's first two non-channel ones), or
    None for an output of fewer than two such dimensions."""
    dims = [a for a in plan.accelerated.args if a != plan.channel]
    if len(dims) < 2 or not all(d in plan.output.args for d in dims[:2]):
        return None
    return plan.output.args.index(dims[0]), plan.output.args.index(dims[1])


STEADY_ROW = 8  # a row below the edges' reflections (a multiple of 2 and 4: resampled rows step alike)


def tile_boxes(pipe: Pipeline, plan: _Plan, at: tuple[int, int], tile: tuple[int, int],
               row: int = 0) -> dict[str, list]:
    """Each Func's box (inclusive (min, max) per dimension) for an output tile of tile = (w, h) pixels, its rows
    from `row` rows below the frame's first."""
    ix, iy = at
    box = [(lo, lo + e - 1) for lo, e in plan.extents]
    box[ix] = (box[ix][0], box[ix][0] + tile[0] - 1)
    box[iy] = (box[iy][0] + row, box[iy][0] + row + tile[1] - 1)
    boxes, _ = infer_boxes(pipe, box, scalars(plan), output_bounds=False)
    return boxes


def scalars(plan: _Plan) -> Callable[[Parameter], int | None]:
    """The images' sizes a boundary condition reads, as the schedule binds them (`input.dim(i).set_bounds`), for
    bounds inference; other scalars are unknown."""
    shapes = {(name, i): (lo, e) for name, i, lo, e in plan.shapes}

    def value(p: Parameter) -> int | None:
        if p.kind != "shape":
            return None
        image, what, i = p.owner
        got = shapes.get((image.name(), i)) or image.given_bounds().get(i)
        return None if got is None else got[0] if what == "min" else got[1]

    return value


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def extent_of(box: list, j: int) -> int:
    return box[j][1] - box[j][0] + 1 if j < len(box) else 1


def _computed_readers(pipe: Pipeline, plan: _Plan, f: Function) -> list[Function]:
    """The Funcs computed inside (buffered, or the accelerated one) that read f, directly or through inlined ones."""
    held = {id(g) for g in plan.buffered} | {id(plan.accelerated)}
    region = {id(g) for g in plan.region}
    out, todo, seen = [], list(pipe.consumers(f)), set()
    while todo:
        g = todo.pop()
        if id(g) in seen or id(g) not in region:
            continue
        seen.add(id(g))
        if id(g) in held:
            out.append(g)
        else:
            todo += pipe.consumers(g)
    return out


def _first_row(pipe: Pipeline, g: Function, box: list, plan: _Plan, f: Function, values: dict) -> int:
    """The first row of f that reader g reads, directly or through inlined Funcs, when it computes its last row of
    `box`: f's line buffer holds the rows from it to f's last (each Func computes a row as early as its readers
    need it). `values`: func_value_bounds of the pipeline (the same for every tile and reader)."""
    got = _rows_read(pipe, g, box, plan, f, values)
    return 1 << 30 if got is None else got[0]


def _rows_read(pipe: Pipeline, g: Function, box: list, plan: _Plan, f: Function,
               values: dict) -> tuple[int, int] | None:
    """The first and last rows of f that reader g reads, directly or through inlined Funcs, when it computes its
    last row of `box`; None where f or g has no rows."""
    j = plan.lanes.x_dim.get(id(g), 0)
    if j + 1 >= len(box):
        return None
    row = list(box)
    row[j + 1] = (box[j + 1][1], box[j + 1][1])
    inlined = {id(h) for h in plan.region} - {id(h) for h in plan.buffered} - {id(plan.accelerated)}
    needs: dict[int, list] = {id(g): row}
    for fn in reversed(pipe.order):  # consumers first, as bounds inference goes; only g and what it inlines
        need = needs.get(id(fn))
        if need is None or fn is f or (fn is not g and id(fn) not in inlined):
            continue
        for d in pipe.definitions(fn):
            bnd = Bounder(definition_env(need, d, scalars(plan)), scalars(plan), values)
            for call in calls_in(d):
                if isinstance(call.callee, Function) and call.callee is not fn:
                    needs[id(call.callee)] = union(needs.get(id(call.callee)), [bnd(a) for a in call.args])
    got = needs.get(id(f))
    jf = plan.lanes.x_dim.get(id(f), 0)
    return (got[jf + 1][0], got[jf + 1][1]) if got is not None and jf + 1 < len(got) else None


def _early_lines(pipe: Pipeline, plan: _Plan, boxes: dict[str, list], values: dict) -> dict[int, int]:
    """The rows each buffered Func and stream (by id) holds where every Func computes each row as early as its
    producers allow, as the compiler schedules them: a Func read by two readers, one of which waits for another
    producer's later rows (Shi-Tomasi's gx, read by pxx at once and by pxy with gy, a row later), holds the rows
    between. Each Func's row r is ready at r + its offset in rows: a stream's first row at 0, a computed Func's at
    the latest of its producers' rows it reads. Empty where a Func is read at another rate along y (its rows are
    not one a row: the addressed replay and the readers' span count those)."""
    if any(by.get("y", 1) != 1 for by in axis_rates(pipe, plan).values()):
        return {}
    held = plan.streams + plan.buffered + [plan.accelerated]
    ids = {id(h) for h in held}
    readers = {id(f): _computed_readers(pipe, plan, f) for f in held}
    last = {}
    for h in held:
        box, j = boxes[pipe.name(h)], plan.lanes.x_dim.get(id(h), 0)
        if j + 1 >= len(box):
            return {}
        last[id(h)] = box[j + 1]
    read = {(id(f), id(g)): _rows_read(pipe, g, boxes[pipe.name(g)], plan, f, values)
            for f in held for g in readers[id(f)]}
    if any(r is None for r in read.values()):
        return {}
    offset: dict[int, int] = {}
    for g in (h for h in pipe.order if id(h) in ids):
        ends = [offset[fid] + r[1] - last[id(g)][1] for (fid, gid), r in read.items()
                if gid == id(g) and fid in offset and r is not None]
        offset[id(g)] = max(ends) if ends else -last[id(g)][0]
    return {id(f): max((offset[id(g)] + last[id(g)][1] - offset[id(f)] - r[0]
                        for g in readers[id(f)] if (r := read[id(f), id(g)]) is not None), default=0) for f in held}


def _pack(words: int, count: int, target: CGRA) -> int:
    """Memory tiles for `count` delay lines of `words` each, packed as memories/delay_lines.py packs them: a line
    longer than a tile is whole tiles then the rest (which shares no tile: the next line starts with a whole
    one); shorter lines share a tile within its words and ports."""
    per_tile = min(target.mem_tile_write_ports, target.mem_tile_read_ports)
    full, rest = divmod(max(words, 0), target.mem_tile_words + 1)
    if full:
        return count * (full + (1 if rest else 0))
    if not rest:
        return 0
    return ceil_div(count, min(per_tile, target.mem_tile_words // rest))


def mem_tiles(pipe: Pipeline, plan: _Plan, target: CGRA, tile: tuple[int, int]) -> int:
    """The model's memory tiles for one accelerator tile of tile = (w, h) output pixels (see the module's notes)."""
    return sum(func_tiles(pipe, plan, target, tile).values()) + rom_tiles(pipe, plan, target)


def func_tiles(pipe: Pipeline, plan: _Plan, target: CGRA, tile: tuple[int, int]) -> dict[str, int]:
    """The model's memory tiles of each buffered Func and stream (by name), ROMs aside."""
    at = xy(plan)
    if at is None:
        return {}
    boxes = tile_boxes(pipe, plan, at, (tile[0], 1))  # one output row: the rows each buffer holds to make it
    values = func_value_bounds(pipe, scalars(plan))
    reread, rate = reread_rows(pipe, plan), x_rates(pipe, plan)
    rows = tile_boxes(pipe, plan, at, (tile[0], min(tile[1], ROWS)))  # the rows the replay of the schedule takes
    addressed = addressed_tiles(pipe, plan, target, rows, lambda f: _computed_readers(pipe, plan, f))
    swept = sweeps(pipe, plan)
    # a stream (or buffer) scanned whole by a reduction and read by others too (that wait for the reduction's
    # result) holds the frame, as compile finds (where it has no stream apart: a host-computed `g` both read)
    whole = out_of_order(pipe, plan, plan.lanes.x_dim) | swept.held | {
        id(f) for f in plan.buffered + plan.streams if scanned_apart(pipe, f)}
    tiled = tile_boxes(pipe, plan, at, tile) if whole else {}
    steady: dict[str, list] = {}
    got: dict[str, int] = {}
    early = _early_lines(pipe, plan, boxes, values)
    for f in plan.buffered + plan.streams:
        box = boxes[pipe.name(f)]
        if id(f) in addressed:
            got[pipe.name(f)] = addressed[id(f)]
            continue
        slices = -(-f.type.bits() // target.word_bits)
        if _scatters(pipe, f) or id(f) in whole:  # a RAM, or a Func read out of its order: its whole box
            full = tiled.get(pipe.name(f), box)
            words = math.prod(extent_of(full, j) for j in range(len(full)))
            got[pipe.name(f)] = slices * -(-words // target.mem_tile_words) if words > 4 else 0
            continue
        j = plan.lanes.x_dim.get(id(f), 0)
        readers = _computed_readers(pipe, plan, f)
        inner = [boxes[pipe.name(g)] for g in readers]
        lines = _lines(pipe, plan, f, boxes, readers, values)
        late = early.get(id(f), 0)  # the rows it holds where every Func computes as early as it can
        if lines > STEADY_ROW and tile[1] > STEADY_ROW:
            # a reflection (mirror_image, mirror_interior) at the frame's first row spans every row its modulo
            # wraps to by bounds inference: a row further down, where none wraps, holds what the compiler holds
            steady = steady or tile_boxes(pipe, plan, at, (tile[0], 1), STEADY_ROW)
            lines, late = min(lines, _lines(pipe, plan, f, steady, readers, values)), 0
        if lines <= 0 and id(f) in reread and j + 1 < len(box):  # a row read again by the next output row
            lines = 1
        if lines <= 0 and late <= 0:
            got[pipe.name(f)] = 0
            continue  # taps along x: registers, or a short line
        # the readers' extents in f's pixels (a 2x upsample reads half its extent of f, a downsample twice)
        halo = extent_of(box, j) - min((math.ceil(extent_of(b, plan.lanes.x_dim.get(id(g), 0)) * rate.get(id(f), 1)
                                                / rate.get(id(g), 1)) for g, b in zip(readers, inner)),
                                     default=extent_of(box, j))
        lanes = plan.lanes.of(f)
        # channels; a sweep makes one plane at a time
        planes = math.prod(extent_of(box, i) for i in range(len(box)) if i not in (j, j + 1, *swept.one_plane(f)))
        # A row's line runs from its last tap to the next row's first: the lane's row less the taps' span.
        words = -(-extent_of(box, j) // lanes) - -(-halo // lanes) - 1
        if j > 0:  # the channels before x are unrolled whole: a line holds every channel of its pixels
            words, planes = words * planes, 1
        # A reader that waits for another producer's later rows holds those rows of f too (Shi-Tomasi's gx, read by
        # pxx at once and by pxy a row later, with gy), in memory where a row is longer than a register chain.
        if late > lines and words + 1 > target.register_delay_limit:
            lines = late
        got[pipe.name(f)] = lanes * slices * _pack(words, lines * planes, target) if lines > 0 else 0
    return got


def _lines(pipe: Pipeline, plan: _Plan, f: Function, boxes: dict[str, list], readers: list[Function],
           values: dict) -> int:
    """The rows of f its readers span (`boxes`: every Func's box for one output row)."""
    box, j = boxes[pipe.name(f)], plan.lanes.x_dim.get(id(f), 0)
    if j + 1 >= len(box):
        return 0
    behind = _scan_rows(pipe, f, j + 1)
    if behind is None:
        return box[j + 1][1] - min((_first_row(pipe, g, boxes[pipe.name(g)], plan, f, values) for g in readers),
                                   default=box[j + 1][1])
    # a scan down f's rows (`col(x, r) += col(x, r - 1)`) spans every row by bounds inference, but computes a row
    # as its readers read it, holding the rows they read and those it reads behind (a row of an integral image's
    # column sums at 1920x1080, not the frame's 1,080)
    reads = [r for g in readers if (r := _rows_read(pipe, g, boxes[pipe.name(g)], plan, f, values)) is not None]
    last = min(box[j + 1][1], max((hi for _, hi in reads), default=box[j + 1][1]))
    return max(last - min((lo for lo, _ in reads), default=last), behind)


def _scan_rows(pipe: Pipeline, f: Function, k: int) -> int | None:
    """The rows behind it that an update storing f's dimension k at an RVar (a scan down it) reads of f (0 for
    none), or None where no update of f stores dimension k at an RVar."""
    behind = None
    for d in pipe.definitions(f)[1:]:
        if k >= len(d.args) or not isinstance(d.args[k], ir.RVar):
            continue
        r, behind = d.args[k].name, behind or 0
        for n in ir.walk(d.value):
            if isinstance(n, ir.Call) and n.callee is f and k < len(n.args):
                a = n.args[k]
                if isinstance(a, ir.BinOp) and a.op == "sub" and isinstance(a.a, ir.RVar) and a.a.name == r \
                        and isinstance(a.b, ir.Const):
                    behind = max(behind, int(a.b.value))
    return behind


def _scatters(pipe: Pipeline, f: Function) -> bool:
    return any(isinstance(n, ir.Call) for d in pipe.definitions(f)[1:] for a in d.args for n in ir.walk(a))


def rom_tiles(pipe: Pipeline, plan: _Plan, target: CGRA) -> int:
    """The memory tiles of the constant tables read at computed coordinates (ROMs): each lane of a reader reads
    the table at each of its computed reads in the same cycle, and a tile serves as many as it has read ports, so
    a table takes a tile per read-port count of its reads (mainspring/compiler.py counts the compiled design
    alike). As hwlower/region.py decides, a table is a ROM where it is computed, has updates or computes in
    floating point; a pure integer one left inline (the autoscheduler's default) is inlined arithmetic, which
    takes no memory tile."""
    region = {id(f) for f in plan.region}
    reads: dict[int, int] = {}
    for g in plan.region:
        lanes = plan.lanes.of(g) * (plan.size.get(plan.channel, (0, 1))[1] if g is plan.accelerated and plan.channel
                                    else 1)
        for d in pipe.definitions(g):
            for n in ir.walk(d.value):
                if (isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) not in region
                        and n.callee not in plan.streams and _rom(pipe, n.callee)
                        and any(isinstance(m, ir.Call) for a in n.args for m in ir.walk(a))):
                    reads[id(n.callee)] = reads.get(id(n.callee), 0) + lanes
    return sum(-(-r // target.mem_tile_read_ports) for r in reads.values())


def _rom(pipe: Pipeline, table: Function) -> bool:
    defs = pipe.definitions(table)
    return table.placement.compute.kind != "inline" or len(defs) > 1 or table.type.is_float() or any(
        n.type.is_float() for d in defs for n in ir.walk(d.value))
