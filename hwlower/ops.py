"""Pass `build_ops`: each buffered Func of the accelerated region as loop nests of ops over its box in the
first tile.

Updates whose reduction loops are all unrolled are folded into the Func's one op (compute duplication: the
unrolled iterations become one expression, each reading the previous one's value), so a fully unrolled 3x3
convolution is one op reading nine taps. Other updates stay separate ops with sequential reduction loops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Box, rounded_up
from mainspring.frontend.errors import HalideError, ScheduleError
from mainspring.frontend.func import Definition, Function, user_handle
from mainspring.frontend.identifiers import verilog_identifier
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Split, StageSchedule, TailStrategy

from .affine import affine_of, int_value
from .clamped_index import affine_of_clamped
from .coordinate_ports import coordinate_ports
from .edge_taps import Guarded
from .fold import fold_update, map_calls
from .guarded_clamps import unclamp_guarded_reads
from .index_hints import inline_lookup_error, not_affine_hint
from .ir import Access, Affine, Buffer, LoadPort, Loop, LoopNest, Op, lookup_load_name
from .lane_quotients import guard_selected, quotient_selects
from .lanes import Lanes, check_folded_update, check_independent_lanes, stage_lanes
from .loops import StageLoop, StageLoops, lanes_innermost, replay
from .output_copy import copies_out, copy_from
from .program import Tile
from .ram_copies import ram_source
from .region import Region
from .row_lanes import rows_kept
from .rvar_names import hardware_name, unnamed_rdoms
from .rvar_tails import guard_reduction_tail
from .rvar_turns import turned_rvars
from .scan_rows import chained_lanes, row_update_loops, scan_rows
from .shift_tails import asked_loops, guard_shifted
from .simplify import simplify
from .state import Lowering
from .steps import dimension_chains
from .strip_mine import other_divisors, strip_mine, uneven_lanes
from .tables import Table, table_constant
from .tile_coordinates import array_invocations, tile_coordinates
from .tiling import host_loops
from .trees import accumulation, coordinates, tree_loops, tree_points, tree_value
from .update_lanes import MadeTogether, honoured_lanes, input_together, op_together, serial_scan, serial_split_lanes


def build_ops(s: Lowering) -> Lowering:
    pipe, region, tile = s.pipe, s.found_region, s.tile
    buffers = [Buffer(pipe.name(f), f.type, _box_tuple(tile.boxes[pipe.name(f)])) for f in region.inputs]
    op_lanes: dict[str, Lanes] = {}
    body: list[Loop | Op] = []
    notes: list[str] = []
    steps = dimension_chains(region, s.definitions)
    made = {id(f): input_together(f, tile.boxes[pipe.name(f)]) for f in region.inputs}
    rows = rows_kept(pipe, region, tile.boxes, tile.loop_box or tile.output_box)
    for f in region.buffered:
        fname = pipe.name(f)
        source = ram_source(pipe, f)
        buffers.append(Buffer(fname, f.type, _box_tuple(tile.boxes[fname]), s.rams.get(id(f)),
                              None if source is None else source.name))
        if f is region.output and s.glb is not None and len(s.glb.mem_tiles) > 1:
            _check_memory_tile_splits(f, _tile_wide(f, s.defs(f)[0].schedule, region, tile.output_box),
                                      tile.output_box)
        nodes = _lower_func(pipe, region, f, s.defs(f), tile.boxes[fname], s.tables, op_lanes,
                            (tile.loop_box or tile.output_box) if f is region.output else None, steps.get(id(f), {}),
                            id(f) in s.rams, frozenset(s.rams), _rounds_tails(region, f, tile, fname),
                            lambda g, j: j in made.get(id(g), frozenset()), notes, id(f) in rows)
        made[id(f)] = op_together(nodes, fname)
        if f is region.output and tile.asked_box is not None and tile.loop_box is not None:
            nodes = asked_loops(nodes, tile.loop_box, tile.asked_box)
        if tile.demands.get(fname) not in (None, tile.boxes[fname]):  # (a tail rounded up past the box)
            nodes = guard_selected(guard_shifted(nodes, tile.boxes[fname], tile.demands.get(fname)), tile.boxes)
        apart = copies_out(nodes, buffers[-1], set(pipe.functions)) if f is region.output else None
        if apart is not None:  # a serial reduction or a RAM in the output itself: inside, then streamed out
            nodes, acc = apart
            nodes.append(copy_from(_copy_op(pipe, region, f, s.defs(f), tile, s.tables, steps.get(id(f), {}),
                                            op_lanes, notes), fname, acc.name))
            buffers[-1] = replace(buffers[-1], init=None)
            buffers.append(acc)
            if id(f) in s.rams:  # (a RAM's pure op gave only the copy's loops: it is gone)
                del op_lanes[f"{fname}_s0"]
            s = _with_box_of(s, acc.name, fname)
        body.extend(nodes)
    nest = LoopNest(s.name, tuple(buffers), tuple(pipe.name(f) for f in region.inputs), pipe.name(region.output),
                    tuple(body))
    tiles = array_invocations(list(s.tiles), list(s.glb.mem_tiles)) if s.glb is not None else list(s.tiles)
    if len(tiles) > 1:
        nest = tile_coordinates(pipe, nest, tiles)
    return replace(s, nest=nest, op_lanes=op_lanes, readback=_glb_readback(s) if s.glb is not None else None,
                   notes=s.notes + tuple(notes))


def _with_box_of(s: Lowering, new: str, old: str) -> Lowering:
    """`s` with buffer `new` given buffer `old`'s box in every invocation."""
    def boxed(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        return tuple(replace(t, boxes={**t.boxes, new: t.boxes[old]}) for t in tiles)

    glb = replace(s.glb, mem_tiles=boxed(s.glb.mem_tiles)) if s.glb is not None else None
    return replace(s, tiles=boxed(s.tiles), glb=glb)


def _glb_readback(s: Lowering) -> tuple[tuple[Loop, ...], Op]:
    """The GLB output's copy over one GLB tile, whose loops are the order the host reads the tile back."""
    level, pipe = s.found_region.glb, s.pipe
    assert level is not None, "GLB tiles come from the region's GLB level"
    w = level.output
    own = Region(w, level.store_var, level.store_var, (), (), (), (), ())
    # over the tile, not its RoundUp padding; over the box every GLB tile computes where they grew to the first
    # tile's phase (the host reads it back from the tile's start and keeps its own part)
    (node,) = _lower_func(pipe, own, w, pipe.definitions(w), s.tiles[0].boxes[pipe.name(w)], {}, {},
                          s.tiles[0].loop_box or s.tiles[0].output_box)
    loops: list[Loop] = []
    while isinstance(node, Loop):
        loops.append(node)
        (node,) = node.body
    return tuple(loops), node


def _box_tuple(box: Box) -> tuple[tuple[int, int], ...]:
    return tuple((lo, hi - lo + 1) for lo, hi in box)


# ---- one Func -----------------------------------------------------------------------------------------

def _folds_whole(f: Function, defs: list[Definition]) -> bool:
    """Whether every update folds into the pure definition's op (`fold_update`): its loops are then all pure."""
    value: ir.Expr | None = defs[0].value
    for d in defs[1:]:
        value = fold_update(f, d, value) if value is not None else None
    return value is not None


def _lanes_moved_note(f: Function, s: StageLoops) -> str:
    """The report's note where the output's unrolled loops run inside loops they enclose as written."""
    inner = [lp.dim.split(".")[0] for lp in s.loops if lp.unrolled]
    return (f"{user_handle(f)}: the unrolled loop{'s' if len(inner) > 1 else ''} over {', '.join(inner)} "
            f"run{'' if len(inner) > 1 else 's'} innermost (each transfer of the output stream holds their points side "
            "by side); the same values")


def _lower_func(pipe: Pipeline, region: Region, f: Function, defs: list[Definition], box: Box,
                tables: dict[int, Table], op_lanes: dict[str, Lanes], loop_box: Box | None = None,
                steps: dict[int, tuple[int, ...]] | None = None, ram: bool = False,
                rams: frozenset[int] = frozenset(), shifts: bool = False, together: MadeTogether | None = None,
                notes: list[str] | None = None, rows: bool = False) -> list[Loop | Op]:
    """The ops of one Func over its box; the pure loops run over `loop_box` when given (the accelerator
    output's tile, whose host loops have one iteration; RoundUp tails cover the rest of `box`, and with
    `shifts` the other tails too, shift_tails.py). A RAM Func's update (scatter.py) is an op of its own, storing
    at computed coordinates. `together` tells which dimensions a producer makes in one firing, for the lanes of
    an update folded into a constant (update_lanes.py, which appends to `notes` the unrolls it runs serially)."""
    fname, rows = pipe.name(f), rows and (_folds_whole(f, defs) or scan_rows(f, defs))  # (a scan's: independent rows)
    # (the notes of the pure op's serial lanes, untrue where it runs in an update's loops that keep them)
    scheduled, pure_notes = _pure_loops(region, f, defs, box, loop_box, shifts), list[str]()
    s0 = own = _pure_stage_loops(region, f, defs, scheduled, pure_notes, rows)
    lanes0 = stage_lanes(f"Func '{f.name}'", user_handle(f), f.args[0], s0, defs[0].schedule)
    value = defs[0].value
    out: list[Loop | Op] = []
    pending: list[tuple[int, Definition]] = []
    for k, d in enumerate(defs[1:], start=1):
        folded = None if pending or ram else fold_update(f, d, value)
        if folded is None:
            pending.append((k, d))
        else:
            upd = _update_lanes(f, d, box, k)
            adopted = None if upd.k in (1, lanes0.k) or f is region.output else _pure_part(f, d, box, k)
            if adopted is None and upd.k == lanes0.k and not _reads_anything(defs[0].value):
                adopted = _lanes_kept(f, d, box, k, folded, set(tables), together, f is region.output, notes)
            if adopted is not None:  # Halide runs each stage in its own loops; the one op runs in the update's
                s0, lanes0 = adopted, upd
            check_folded_update(f"Func '{f.name}'", upd, lanes0)
            value = folded
    first = pending[0] if pending and not ram else None
    if first is not None and (lanes0.k != _update_lanes(f, first[1], box, first[0]).k if f is region.output
                              else not _reads_anything(value)):
        # The pure definition only initialises (a constant): its loops, unrolled or not, cost nothing and its
        # rate is the first update's, which reads it back (harris's lgxx.unroll(x, 3) with a serial update).
        # The output's only initialises the buffer it accumulates in (the copy out streams its lanes): where its
        # lanes are not the update's, it takes the update's (`hw_output.unroll(xi, 2)` with a serial update).
        k, d = first
        adopted = _pure_part(f, d, box, k)
        if adopted is not None and _steps_along(adopted, f.args[0]):  # not a scatter's lanes (b unrolled whole)
            s0 = adopted
            lanes0 = stage_lanes(f"Func '{f.name}'", user_handle(f), f.args[0], s0, d.schedule)
    if notes is not None and (s0 is own or not _lanes_restored(f.args, scheduled, own, s0)):
        notes.extend(pure_notes)
    if not ram or f is region.output:  # a RAM starts at its pure definition's values (Buffer.init); an output
        # RAM's pure op is dropped with its copy out (output_copy.py)
        out.append(_make_op(pipe, fname, f, 0, defs[0], value, s0, tables, steps, rams=rams,
                            output=f is region.output and f is region.accelerated))
        op_lanes[f"{fname}_s0"] = lanes0
    for k, d in pending:
        sk = row_update_loops(f, d, k, _update_loops(f, d, box, k), rows, notes)
        run = guard_reduction_tail(f, d, sk.guards, frozenset(tables) | rams, tuple((lo, hi) for lo, hi in box)) \
            if sk.guards else d
        out.append(_make_op(pipe, fname, f, k, run, run.value, sk, tables, steps, ram, rams))
        # a scan's lanes chain where its pure definition makes as many (its readers take them one to one); else
        # the lanes that would chain run serially, with a note
        if chained_lanes(sk, f.args, rows) not in (1, lanes0.k) and _lanes_chain(f, k, run, out[-1]):
            sk, note = serial_scan(f, d, k, sk, lanes0.k)
            out[-1] = _make_op(pipe, fname, f, k, run, run.value, sk, tables, steps, ram, rams)
            notes.append(note) if notes is not None else None
        op_lanes[f"{fname}_s{k}"] = _update_lanes(f, d, box, k, sk)
        _check_lanes_independent(f, k, run, out[-1], chained_lanes(sk, f.args, rows) == lanes0.k)
    return out


def _pure_stage_loops(region: Region, f: Function, defs: list[Definition], s0: StageLoops,
                      notes: list[str] | None, rows: bool = False) -> StageLoops:
    """The loops f's pure op runs in (`s0` as scheduled): a pure output's with its unrolled loops innermost, the
    lanes of others that a serial reader would read at a stride run serially (`notes` says so), but lanes along
    rows whose readers take them (`rows`, row_lanes.py), which run innermost too."""
    if rows and f is not region.output:
        return lanes_innermost(s0) or s0
    if f is region.output and not _folds_whole(f, defs):
        # its pure op only initialises the internal buffer that its serial updates accumulate in; the copy out
        # streams the lanes (build_ops)
        return serial_split_lanes(f, defs[0], s0)[0]
    if f is region.output:
        moved = lanes_innermost(s0)
        if moved is not None and notes is not None:
            notes.append(_lanes_moved_note(f, moved))
        return moved or s0
    if notes is not None:
        s0, dropped = serial_split_lanes(f, defs[0], s0)
        notes.extend(dropped)
    return s0


def _lanes_restored(args: Sequence[str], scheduled: StageLoops, own: StageLoops, adopted: StageLoops) -> bool:
    """Whether the loops the pure op adopted from an update keep lanes along every Var whose lanes its own loops
    (`own`, from `scheduled`) ran serially: the notes saying they run serially are then untrue (fuzz 179594's f0,
    `unroll(y, 2)` on both definitions: the op makes 2 x 2 lanes in the update's loops)."""
    def lanes_along(s: StageLoops, only: set[str] | None = None) -> set[str]:
        return {v for lp in s.loops if lp.unrolled and lp.extent > 1 and (only is None or lp.dim in only)
                for v in args if v in s.var_exprs and lp.dim in dict(s.var_exprs[v].terms)}
    serial = {lp.dim for lp in own.loops if not lp.unrolled}
    return lanes_along(scheduled, serial) <= lanes_along(adopted)


def _pure_loops(region: Region, f: Function, defs: list[Definition], box: Box, loop_box: Box | None,
                shifts: bool) -> StageLoops:
    """The loops of f's pure definition over its box (the accelerator output's: over `loop_box`, inside the
    accelerator)."""
    pure_extents = {a: (loop_box or box)[i] for i, a in enumerate(f.args)}
    extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in pure_extents.items()}
    sched0 = _tile_wide(f, defs[0].schedule, region, loop_box) if f is region.output and loop_box else \
        defs[0].schedule
    s0 = replay(sched0, extents, set(), f"Func '{f.name}'", shifts=shifts)
    return _drop_host_loops(f, s0, region) if f is region.output else s0


def _rounds_tails(region: Region, f: Function, tile: Tile, fname: str) -> bool:
    """Whether f's tails round up (shift_tails.py): where its consumers' demand is narrower than its box, and for
    the accelerator output also where its box grew past the loops' box by whole upsample steps (`in(x / 2)` over 11
    columns is realised over 12, so that x / 2 stays affine; two lanes with a GuardWithIf tail run 6 transfers over
    them, and the host keeps the 11 it reads back), as long as the rounded loops stay inside that box."""
    if fname in tile.demands:
        return True
    if f is not region.output:
        return False
    box = tile.boxes[fname]
    loop_box = [(lo, hi) for lo, hi in tile.loop_box or tile.output_box]
    rounded = rounded_up(f, list(loop_box), shifts=True)
    return rounded != loop_box and all(lo <= r_lo and r_hi <= hi for (lo, hi), (r_lo, r_hi) in zip(box, rounded))


def _copy_op(pipe: Pipeline, region: Region, f: Function, defs: list[Definition], tile: Tile,
             tables: dict[int, Table], steps: dict[int, tuple[int, ...]], op_lanes: dict[str, Lanes],
             notes: list[str]) -> Loop | Op:
    """The accelerator output's pure op with its unrolled loops innermost, whose loops its copy out runs in
    (output_copy.py): a pure copy's points are independent, and each transfer of the stream holds one firing's
    lanes (`hw_output.unroll(yi, 2)` outside xi, with a serial update: two rows side by side)."""
    fname = pipe.name(f)
    s0 = _pure_loops(region, f, defs, tile.boxes[fname], tile.loop_box or tile.output_box,
                     _rounds_tails(region, f, tile, fname))
    moved = lanes_innermost(s0)
    if moved is not None:
        s0 = moved
        notes.append(_lanes_moved_note(f, moved))
    op_lanes[f"{fname}_out"] = stage_lanes(f"Func '{f.name}'", user_handle(f), f.args[0], s0, defs[0].schedule)
    (op,) = guard_shifted([_make_op(pipe, fname, f, 0, defs[0], defs[0].value, s0, tables, steps,
                                    output=f is region.accelerated)], tile.boxes[fname], tile.demands.get(fname))
    if tile.asked_box is not None and tile.loop_box is not None:
        (op,) = asked_loops([op], tile.loop_box, tile.asked_box)
    return op


def _pure_part(f: Function, d: Definition, box: Box, k: int, s: StageLoops | None = None) -> StageLoops | None:
    """The loops of update k (`s`, else as scheduled) over the pure Vars alone (its reduction loops dropped), for
    the pure op to run in; None when the update is not over the pure Vars in order, or a loop mixes pure and
    reduction variables."""
    if [a.name if isinstance(a, ir.Var) else None for a in d.args] != list(f.args):
        return None
    s = s if s is not None else _update_loops(f, d, box, k)
    pure = tuple(lp for lp in s.loops if not lp.is_rvar)
    dims = {lp.dim for lp in pure}
    exprs = {v: s.var_exprs[v] for v in f.args}
    if any(dim not in dims for a in exprs.values() for dim, _ in a.terms):
        return None
    return StageLoops(pure, exprs)


def _lanes_kept(f: Function, d: Definition, box: Box, k: int, value: ir.Expr, tables: set[int],
                together: MadeTogether | None, output: bool, notes: list[str] | None) -> StageLoops | None:
    """The loops of update k (folded into a constant) with the unrolls of pure Vars that can be lanes of the op
    (update_lanes.py), or None when none can; `notes` gets one for each unroll run serially."""
    loops, made = _update_loops(f, d, box, k), together or (lambda g, j: False)
    refused = ("the accelerator's output keeps its pure definition's loops, whose lanes are the words of its "
               "stream; unroll the pure definition's loops instead") if output else None
    kept, dropped = honoured_lanes(f, d, k, loops, value, tables, made, refused)
    adopted = _pure_part(f, d, box, k, kept) if kept is not None else None
    if kept is not None and adopted is None:
        _, dropped = honoured_lanes(f, d, k, loops, value, tables, made, "its loops are not over the Func's pure "
                                    "Vars in their order, or a loop mixes them with reduction variables")
    if notes is not None:
        notes.extend(dropped)
    return adopted


def _steps_along(s: StageLoops, var: str) -> bool:
    """Some serial loop of s moves along `var`."""
    serial = {lp.dim for lp in s.loops if not lp.unrolled}
    return any(dim in serial for dim, _ in s.var_exprs[var].terms)


def _reads_anything(e: ir.Expr) -> bool:
    return any(isinstance(n, ir.Call) for n in ir.walk(e))


def _lanes_chain(f: Function, k: int, d: Definition, node: Loop | Op) -> bool:
    """Whether the update's lanes depend on each other, but only as a chain would take them."""
    def refused(chains: bool) -> bool:
        try:
            _check_lanes_independent(f, k, d, node, chains)
        except ScheduleError:
            return True
        return False
    return refused(False) and not refused(True)


def _check_lanes_independent(f: Function, k: int, d: Definition, node: Loop | Op, chains: bool) -> None:
    loops: list[Loop] = []
    while isinstance(node, Loop):
        loops.append(node)
        (node,) = node.body
    check_independent_lanes(f"{d.loc}: Func '{f.name}'.update({k - 1})", f"{f.name}.update({k - 1})", tuple(loops),
                            node, d.schedule, chains)


def _update_lanes(f: Function, d: Definition, box: Box, k: int, s: StageLoops | None = None) -> Lanes:
    s = s if s is not None else _update_loops(f, d, box, k)
    # an update stored at a reduction variable (f(r.x, y) = ...) makes its lanes along x through that variable
    x = d.args[0].name if isinstance(d.args[0], (ir.Var, ir.RVar)) else ""
    return stage_lanes(f"Func '{f.name}'.update({k - 1})", f"{user_handle(f)}.update({k - 1})", x, s, d.schedule)


def _drop_host_loops(f: Function, s: StageLoops, region: Region) -> StageLoops:
    """The loops inside the accelerator (the box is one tile, so the host loops have one iteration)."""
    names = [lp.dim for lp in s.loops]
    cut = names.index(region.store_var) + 1 if region.store_var is not None else 0
    host = s.loops[:cut]
    # a host loop split again (`unroll(yo, 2)`) keeps its factor as extent: its parts step over tiles together
    resplit = {p for d in f.definitions[0].schedule.directives if isinstance(d, Split) and d.old not in f.args
               for p in (d.outer, d.inner)}
    assert all(lp.extent == 1 or lp.dim in resplit for lp in host), [(lp.dim, lp.extent) for lp in host]
    zero = {lp.dim for lp in host}
    exprs = {v: Affine.make({d: c for d, c in a.terms if d not in zero}, a.const) for v, a in s.var_exprs.items()}
    return StageLoops(s.loops[cut:], exprs)


def _tile_wide(f: Function, sched: StageSchedule, region: Region, loop_box: Box) -> StageSchedule:
    """f's schedule with each split that makes a host loop (outside the accelerator) as wide as `loop_box`
    where it is wider than the split's factor: a tile grown to the first tile's phase (tiling.py,
    `_at_first_phase`) computes more than its factor, in one iteration of the host loops."""
    host = set(host_loops(f, region.store_var))
    ext = {a: hi - lo + 1 for a, (lo, hi) in zip(f.args, loop_box)}
    directives = [replace(d, factor=ext[d.old]) if isinstance(d, Split) and d.outer in host and d.old in ext and
                  ext[d.old] > d.factor else d for d in sched.directives]
    return replace(sched, directives=directives)


def _check_memory_tile_splits(f: Function, sched: StageSchedule, tile: Box) -> None:
    """With a GLB level of several memory tiles, they lie side by side in the GLB tile: the array output's serial
    loops inside one (`tile`) must cover it exactly, with no tail (a rounded-up tail would write the next tile's
    words; a tail of lanes pads whole GLB entries, which memories/glb.py aligns). `sched`: the array output's
    schedule with its memory-tile splits as wide as the tile (`_tile_wide`: rounded up to whole upsample steps)."""
    ext = {a: hi - lo + 1 for a, (lo, hi) in zip(f.args, tile)}
    lanes = sched.lane_dims()
    for dv in sched.directives:
        if isinstance(dv, Split) and dv.old in ext:
            e = ext.pop(dv.old)
            if e % dv.factor and e > dv.factor and dv.inner not in lanes:  # (padded lanes: glb.py's alignment)
                tail = "" if dv.tail is TailStrategy.Auto else f", hl.TailStrategy.{dv.tail.name}"
                raise ScheduleError(
                    f"{dv.loc}: Func '{f.name}': split({dv.old}, {dv.outer}, {dv.inner}, {dv.factor}{tail}): the "
                    f"extent of {dv.old} in a memory tile is {e}, which {dv.factor} does not divide; with a GLB "
                    "level the array output's memory tiles are written side by side into the GLB tile, so its "
                    f"loops must cover one exactly. Choose a factor that divides {e}, or a memory tile whose "
                    f"extent is a multiple of {dv.factor}"
                )
            ext[dv.inner], ext[dv.outer] = min(dv.factor, e), -(-e // dv.factor)


def _update_loops(f: Function, d: Definition, box: Box, k: int) -> StageLoops:
    extents = {a.name: (box[i][0], box[i][1] - box[i][0] + 1) for i, a in enumerate(d.args) if isinstance(a, ir.Var)}
    rvars = set()
    if d.rdom is not None:
        for name, lo, ext in d.rdom.dims:
            if not isinstance(lo, ir.Const) or not isinstance(ext, ir.Const):
                raise ScheduleError(
                    f"{d.loc}: Func '{f.name}': update {k - 1} ranges over RDom {d.rdom.name}, whose bounds are not "
                    "constants; hardware loops need constant bounds"
                )
            extents[name] = (int_value(lo), int_value(ext))
            rvars.add(name)
    return turned_rvars(d, replay(d.schedule, extents, rvars, f"Func '{f.name}'.update({k - 1})", update=True))


def _make_op(pipe: Pipeline, fname: str, f: Function, k: int, d: Definition, value: ir.Expr, s: StageLoops,
             tables: dict[int, Table], chains: dict[int, tuple[int, ...]] | None = None, ram: bool = False,
             rams: frozenset[int] = frozenset(), output: bool = False) -> Loop | Op:
    """The op of stage k of f (definition d, whose value is `value` after folding unrolled updates); `ram`: an
    update of a RAM Func at computed coordinates (`Op.scatter`); `rams`: the RAM Funcs (by id), which f may read
    at computed coordinates (`Op.lookup`)."""
    args = d.args
    handle = user_handle(f) + ("" if k == 0 else f".update({k - 1})")
    steps = {i: c[-1] for i, c in (chains or {}).items()}
    lanes = {a.name: stage_lanes(handle, handle, a.name, s, d.schedule).k for a in args if isinstance(a, ir.Var)}
    uneven = uneven_lanes(s, args, steps, d.schedule, handle, output) or \
        other_divisors(value, args, chains or {}, f.name, lanes)
    s = strip_mine(s, args, chains or {}, f, str(d.loc), output, d.schedule, handle)
    renames = unnamed_rdoms(pipe)  # (loops and coordinates of unnamed RDoms named by place, not by a counter)
    full = {lp.dim: f"{fname}.s{k}.{hardware_name(lp.dim, renames)}" for lp in s.loops}
    env = {v: Affine.make({full[d]: c for d, c in a.terms}, a.const) for v, a in s.var_exprs.items()}
    ranges = {full[lp.dim]: lp.extent for lp in s.loops}
    who = f"{d.loc}: Func '{f.name}'" + ("" if k == 0 else f".update({k - 1})")
    ram = ram and k > 0
    store = Access(fname, () if ram else tuple(_affine(a, env, who, fname, ranges, handle=handle) for a in args))
    ports: dict[tuple, LoadPort] = {}
    lookups: list[tuple[ir.Expr, ...]] = []  # the coordinates of a read of a RAM at computed coordinates

    def to_port(c: ir.Call, env: dict[str, Affine]) -> ir.Expr | None:
        guard: tuple[tuple[Affine, int, int], ...] = ()
        if isinstance(c.callee, Guarded):  # an edge tap: its index, then its guards' expressions
            g, n = c.callee, len(c.callee.func.args)
            guard = tuple((_affine(e, env, who, pipe.name(g.func), ranges, handle=handle), lo, hi)
                          for e, (lo, hi) in zip(c.args[n:], g.bounds))
            c = ir.Call(c.type, g.func, c.args[:n])
        if not isinstance(c.callee, Function):
            return None
        src = pipe.name(c.callee)
        stem = verilog_identifier(src)
        if ram and c.callee is f:  # the element the update writes, before it (read-modify-write)
            ports.setdefault((src, ()), LoadPort(f"{stem}_old", Access(src, ())))
            return ir.Call(c.type, ports[(src, ())], ())
        if id(c.callee) in rams and c.callee is not f and not guard and not _is_affine(c.args, env, ranges):
            return _lookup_port(c, src, lookups, ports, _reader(pipe, f, k, c.callee, who))
        if any(isinstance(n, ir.Call) for a in c.args for n in ir.walk(a)):
            raise inline_lookup_error(pipe.definitions(f)[k], f, src, who, pipe.name)
        idx = tuple(_affine(a, env, who, src, ranges, uneven, handle, f) for a in c.args)
        key = (src, idx, guard)
        if key not in ports:
            ports[key] = LoadPort(f"{stem}_{len([p for p in ports if p[0] == src])}", Access(src, idx, guard))
        return ir.Call(c.type, ports[key], ())

    def lower(e: ir.Expr, env: dict[str, Affine]) -> ir.Expr:
        e = simplify(map_calls(simplify(e), lambda c: table_constant(c, tables, who, pipe), {}))
        e = unclamp_guarded_reads(e, lambda args: all(_affine_or_none(a, env, ranges) is not None for a in args))
        return simplify(map_calls(e, lambda c: to_port(c, env), {}))

    loops = list(s.loops)
    tree = _tree(f, args, value, s, store, full, env) if k > 0 and not ram else None
    if tree is None:
        runs = {full[lp.dim] for lp in s.loops if lp.unrolled or lp.dim.endswith(".strip_i") or lp.is_rvar}
        value, chosen = quotient_selects(value, env, ranges, runs)  # lanes that take a quotient unevenly
        env = env | chosen
        body = lower(value, env)
    else:
        (op, own, e), points, dropped = tree
        body = tree_value(op, lower(own, env), e, points, lower)
        loops = [lp for lp in loops if lp not in dropped]
        env = env | {v: a for fixed, _ in points for v, a in fixed.items() if "@" in v}  # points' own coordinates
    computed = tuple(lower(a, env) for a in args) if ram else ()
    looked = tuple(lower(a, env) for a in lookups[0]) if lookups else ()
    for e in (body,) + computed + looked:
        _check_integer(e, who)
    (body, *at), coords = coordinate_ports((body,) + computed + looked, env, who, renames)
    scatter, lookup = tuple(at[:len(computed)]), tuple(at[len(computed):])
    node: Loop | Op = Op(f"{fname}_s{k}", fname, k, store, tuple(ports.values()), body, coords, scatter, lookup)
    for lp in reversed(loops):
        node = Loop(full[lp.dim], 0, lp.extent, (node,), lp.unrolled, lp.strip, lp.asked)
    return node


def _affine_or_none(e: ir.Expr, env: dict[str, Affine], ranges: dict[str, int]) -> Affine | None:
    """Index e as an affine function of the op's loops, its clamps decided per iteration (`_affine`), or None."""
    a = affine_of(e, env, ranges)
    return a if a is not None else affine_of_clamped(e, env, ranges)


def _is_affine(args: tuple[ir.Expr, ...], env: dict[str, Affine], ranges: dict[str, int]) -> bool:
    return all(affine_of(a, env, ranges) is not None for a in args)


def _lookup_port(c: ir.Call, src: str, lookups: list, ports: dict, who: str) -> ir.Expr:
    """The read of RAM `src` at computed coordinates: a load with no index, its coordinates kept for the op
    (one such read per op: a RAM answers one computed address per port and cycle)."""
    key = ("lookup", src)
    same = key in ports and [ir.structural_key(a, {}) for a in lookups[0]] == [ir.structural_key(a, {}) for a in c.args]
    if lookups and not same:
        what = f"RAM '{src}'{_copied(c.callee)} at two computed coordinates" if key in ports else \
            f"RAMs at computed coordinates twice ('{src}'{_copied(c.callee)} and another)"
        raise HalideError(f"{who} reads {what} per firing; a RAM is read at a computed address once per op: compute "
                          "one of the reads in a Func of its own")
    if not same:
        lookups.append(c.args)
        ports[key] = LoadPort(lookup_load_name(src), Access(src, ()))
    return ir.Call(c.type, ports[key], ())


def _reader(pipe: Pipeline, f: Function, k: int, callee: Function, who: str) -> str:
    """Where a message about stage k's read of `callee` points: for the pure stage with unrolled updates folded
    in, the last update that reads it (the read the user wrote there), else the stage's own definition."""
    defs = pipe.definitions(f)
    for j in range(len(defs) - 1, 0, -1) if k == 0 else ():
        d = defs[j]
        if any(isinstance(n, ir.Call) and n.callee is callee for e in d.args + (d.value,) for n in ir.walk(e)):
            return f"{d.loc}: Func '{f.name}'.update({j - 1})"
    return who


def _copied(g: object) -> str:
    """How a message says that RAM g is a copy of another Func (ram_copies.py adds them), or ""."""
    assert isinstance(g, Function)
    (d, *rest) = g.definitions
    v = d.value
    if rest or not (isinstance(v, ir.Call) and isinstance(v.callee, Function)
                    and [ir.structural_key(a) for a in v.args] == [ir.structural_key(a) for a in d.args]):
        return ""
    return f" (the copy of '{v.callee.name}' that serves its reads at computed coordinates)"


_Tree = tuple[tuple[str, ir.Call, ir.Expr], list[tuple[dict[str, Affine], dict[str, ir.Expr]]], list[StageLoop]]


def _tree(f: Function, args: tuple[ir.Expr, ...], value: ir.Expr, s: StageLoops, store: Access,
          full: dict[str, str], env: dict[str, Affine]) -> _Tree | None:
    """An accumulating update's unrolled loops its store does not move along, as one reduction tree (see
    trees.py): (the accumulation, each tree point's variables, the loops it replaces), or None."""
    tree = tree_loops(s, store, full)
    acc = accumulation(f, args, value) if tree else None
    if acc is None:
        return None
    return acc, tree_points(s, tree, full, env, coordinates(acc[2])), tree


def _check_integer(value: ir.Expr, who: str) -> None:
    floats = [n for n in ir.walk(value) if n.type.is_float()]  # children first: the last is the widest
    if floats:
        n = floats[-1]
        raise HalideError(
            f"{who} computes in floating point inside the accelerator ({ir.user_text(n)} is {n.type}); the "
            "PEs are integer units. Compute the floating-point part in a Func of its own that reads no input "
            "(a table known at compile time, folded where it is read at constant coordinates), or on the "
            "host before the accelerator input, or use fixed point (multiply, then shift)."
        )


def _affine(e: ir.Expr, env: dict[str, Affine], who: str, buf: str, ranges: dict[str, int] | None = None,
            uneven: str = "", handle: str = "", reader: Function | None = None) -> Affine:
    """Index e as an affine function of the op's loops (its clamps decided per iteration where they move with
    loops: clamped_index.py), else a user error naming why (`handle`: the stage as the user's schedule calls name
    it, `up.update(0)`)."""
    a = affine_of(e, env, ranges)
    if a is None and ranges is not None:
        a = affine_of_clamped(e, env, ranges)
    if a is None:
        hint = not_affine_hint(e, reader, buf, uneven, handle, env, ranges)
        shown = ir.user_text(e)
        raise HalideError(
            f"{who} accesses '{buf}' at {shown}, which is not an affine function of its loops; memories "
            f"need affine addresses: {hint}."
        )
    return a
