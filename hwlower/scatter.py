"""Pass `scatter_writes`: updates that write at a computed coordinate (a histogram's `hist(bin(r)) += 1`).

A Func of at most LANE_ELEMENTS elements (or MAX_ELEMENTS, where it cannot be a RAM) becomes, at each step of its
reduction, an update of every element of its box, each element a lane that changes only when the coordinate
names it:

    hist(b) = select(bin(r) == b, hist(b) + 1, hist(b))      with b unrolled over hist's box

so each lane accumulates in its own register, one step per cycle, the result Halide's bit for bit. Where the
reduction is unrolled, an accumulation is spread as one (`hist(b) + select(bin(r) == b, 1, 0)`), so the steps
add into each bin as one tree (trees.py); another update runs its unrolls serially, with a note.

A larger Func is a RAM (`hwlower.ir.Buffer.init`): the whole box in memory tiles, every element starting at the
pure definition's value (one constant, or a table the reference computes when it reads only coordinates and
constant Funcs), or where it reads the accelerator's values at affine coordinates zero, its pure definition then
run as a first update), and the update one read-modify-write per step at the computed address (`Op.scatter`,
built by the `ops` pass), forwarded when consecutive steps update the same element. Its readers load it after
the last update. The pass checks here what a RAM needs (an initial value known at compile time, one update, a
serial reduction, a read of only the element written) and records the RAM Funcs; the definitions stay as written,
but for a start read from the accelerator (a first update) and unrolls of a RAM's updates (run serially). A Func
another reads at computed coordinates is a RAM whatever its size (lanes of registers cannot serve that read), a
pure one too (its definition the first update); pass `ram_copies` has read those that cannot be one (a scan)
through a copy. The
accelerator's output may be a RAM too: build_ops gives it an internal buffer and a copy out (output_copy.py), as if
the user had written `out(b) = hist(b)`, unless it streams out in more lanes than a memory tile reads per cycle."""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import replace

import numpy as np

from mainspring.frontend import ir
from mainspring.frontend.define import predicated_value
from mainspring.frontend.errors import HalideError
from mainspring.frontend.evaluate import realize_arrays
from mainspring.frontend.func import Definition, Func, Function, user_handle
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Dim, ForType, Split, StageSchedule, TailStrategy
from mainspring.frontend.types import BOOL, I32
from mainspring.target import CGRA

from .fold import map_calls
from .loops import replay
from .simplify import simplify
from .state import Lowering
from .tile_coordinates import array_invocations
from .trees import accumulation

# Up to LANE_ELEMENTS elements a Func is lanes (registers: a compare, an update and a select each: about 70 PE ops
# for 16 bins, a fifth of the default array); past it a RAM (one of the array's 128 memory tiles and a few PE ops),
# or lanes up to MAX_ELEMENTS where it cannot be a RAM.
LANE_ELEMENTS = 4
MAX_ELEMENTS = 64
# The accelerator's output held in a RAM streams out through the RAM's read ports (its copy out, output_copy.py):
# the default array's memory tile serves 2 reads per cycle, so an output of more lanes stays lanes of registers
# up to MAX_ELEMENTS (past it the memory mapping refuses the lanes with a fix).
READ_PORTS = CGRA().mem_tile_read_ports
# A RAM's words are addressed by 32-bit PE values; past this many the address overflows (and no array holds them)
MAX_RAM_WORDS = 1 << 30


def scatter_writes(s: Lowering) -> Lowering:
    defs = dict(s.definitions)
    rams = {}
    notes: list[str] = []
    looked_up = _looked_up(s)
    for f in s.found_region.buffered:
        ds = s.defs(f)
        size = math.prod(hi - lo + 1 for lo, hi in s.tile.boxes[s.pipe.name(f)])
        if id(f) in looked_up:
            # a table read at computed coordinates is a RAM (lanes of registers cannot serve that read: an unrolled
            # update of it runs serially too); ram_copies.py has read those that cannot be one through a copy
            # (cdf_ram(b) = cdf(b): its pure definition the RAM's first update, each word written at its address)
            if any(_computed(d) for d in ds[1:]):
                _check_one_box(s, f, next(d for d in ds[1:] if _computed(d)))
            ds = _streamed_start(s, f, ds)
            rams[id(f)] = _ram_init(s, f, ds)
            defs[id(f)] = _serial_updates(f, ds, notes)
            continue
        if size > MAX_ELEMENTS and any(_computed(d) for d in ds[1:]):
            ds = _streamed_start(s, f, ds)
        if any(_computed(d) for d in ds[1:]):
            _check_one_box(s, f, next(d for d in ds[1:] if _computed(d)))
            wide = f is s.found_region.output and _output_lanes(s, f) > READ_PORTS and size <= MAX_ELEMENTS
            # (up to MAX_ELEMENTS an update whose reduction is unrolled stays lanes: a RAM would run it serially)
            if size > LANE_ELEMENTS and not wide and (size > MAX_ELEMENTS or not any(map(_unrolls_rvars, ds[1:]))):
                try:
                    rams[id(f)] = _ram_init(s, f, ds)
                    defs[id(f)] = _serial_updates(f, ds, notes)
                    continue
                except HalideError:
                    if size > MAX_ELEMENTS:
                        raise
            defs[id(f)] = [ds[0]] + [_spread(f, _chained(f, d, k - 1, notes), k) if _computed(d) else d
                                     for k, d in enumerate(ds[1:], 1)]
    return replace(s, definitions=defs, rams=rams, notes=s.notes + tuple(notes))


def ram_shaped(f: Function, ds: list[Definition]) -> bool:
    """Whether f, read at coordinates computed from loaded values, can be the RAM that serves the read: a pure Func
    (its definition run as a first update), or updates that each write one element (at a computed coordinate, over
    an RDom alone, or at its pure coordinates) reading only that element, one of them at a computed coordinate or
    the one update over an RDom (a scan reading its neighbour cannot: ram_copies.py reads it through a copy)."""
    if len(ds) == 1:
        return True
    try:
        for k, d in enumerate(ds[1:]):
            _check_ram_update(f, d, k, "")
    except HalideError:
        return False
    return any(_computed(d) for d in ds[1:]) or (len(ds) == 2 and _over_rvars(ds[1]))


def _output_lanes(s: Lowering, f: Function) -> int:
    """The lanes of the accelerator output's pure definition (its unrolled loops over its tile): how many
    elements its copy out reads per cycle."""
    box = s.tile.loop_box or s.tile.output_box
    extents = {a: (lo, hi - lo + 1) for a, (lo, hi) in zip(f.args, box)}
    try:
        loops = replay(s.defs(f)[0].schedule, extents, set(), f"Func '{f.name}'").loops
    except HalideError:  # (build_ops refuses the schedule, with its fix)
        return 1
    return math.prod(lp.extent for lp in loops if lp.unrolled)


def _streamed_start(s: Lowering, f: Function, ds: list[Definition]) -> list[Definition]:
    """A RAM whose pure definition reads what the accelerator streams or computes (`hist(b) = hw_input(b, 1)`, not a
    compile-time table) starts at zero, and its pure definition runs as its first update, at its pure coordinates,
    writing every word through the update port before the scatters: the same values, as Halide runs them."""
    d = ds[0]
    reads = [n for n in ir.walk(d.value)
             if isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) not in s.tables]
    if not reads:
        return ds
    first = _strip_mined(s, f, d, reads)
    if first is None:  # (an index divided where the box is not whole steps: _init_table refuses it with a fix)
        return ds
    zero = ir.Const(d.value.type, 0)
    return [replace(d, value=zero), first, *ds[1:]]


def _strip_mined(s: Lowering, f: Function, d: Definition, reads: list[ir.Call]) -> Definition | None:
    """The first pass `d` with each of its loops that an index divides (or takes modulo) by a constant k split
    into steps of k (`hist(b) = hw_input(b % 8, 0)`: b = 8 * b_o + b_i, so b % 8 = b_i and b / 8 = b_o, affine),
    as the user could split the pure definition; None where the box along such a loop is not whole steps in
    every invocation of the array."""
    steps: dict[str, int] = {}
    for c in reads:
        for n in (m for a in c.args for m in ir.walk(a)):
            if not (isinstance(n, ir.BinOp) and n.op in ("div", "mod")):
                continue
            if not (isinstance(n.b, ir.Const) and isinstance(n.b.value, int) and n.b.value > 0
                    and isinstance(n.a, ir.Var)):
                return None  # ((b + 1) % 8: not one loop's steps)
            steps[n.a.name] = math.lcm(steps.get(n.a.name, 1), n.b.value)
    # the output's pure schedule is its host loops' and copy-out's (output_copy.py); the first pass over its
    # box is an update of the RAM, with loops of its own
    sched = StageSchedule([Dim(a, False) for a in f.args]) if f is s.found_region.output else d.schedule
    d = replace(d, schedule=sched)
    steps = {v: k for v, k in steps.items() if k > 1 and v in sched.dim_names()}  # (the user's split stays)
    if not steps:
        return d
    name = s.pipe.name(f)
    tiles = list(s.tiles) + (list(s.glb.mem_tiles) if s.glb is not None else [])
    for v, k in steps.items():
        i = f.args.index(v)
        if any((t.boxes[name][i][0] % k or (t.boxes[name][i][1] + 1) % k) for t in tiles):
            return None
    dims, directives = list(sched.dims), list(sched.directives)
    for v, k in sorted(steps.items()):
        outer, inner = _unused(f"{v}_o", dims), _unused(f"{v}_i", dims)
        i = [x.name for x in dims].index(v)
        dims[i:i + 1] = [Dim(inner, False), Dim(outer, False)]
        directives.append(Split(v, outer, inner, k, TailStrategy.RoundUp, d.loc))
    return replace(d, schedule=StageSchedule(dims, directives, dict(sched.aliases)))


def _box_text(box: list[tuple[int, int]]) -> str:
    return " x ".join(f"[{lo}, {hi}]" for lo, hi in box)


def _unused(name: str, dims: list[Dim]) -> str:
    while name in {x.name for x in dims}:
        name += "_"
    return name


def _serial_updates(f: Function, ds: list[Definition], notes: list[str]) -> list[Definition]:
    """A RAM's updates with the unrolls of their reductions run serially (a note for each): the RAM takes one
    read-modify-write per cycle, and the lanes of one cycle could update one element."""
    why = f"'{f.name}' is a RAM, one read-modify-write per cycle (the lanes of one cycle could update one element)"
    return [ds[0]] + [_serial(f, d, k, why, notes) for k, d in enumerate(ds[1:])]


def _serial(f: Function, d: Definition, k: int, why: str, notes: list[str]) -> Definition:
    """Update k of f (d) with the unrolls of its schedule dropped, a note for each saying `why`."""
    unrolled = [t for t in d.schedule.directives if isinstance(t, ForType) and t.kind in ("unroll", "vectorize")]
    for t in unrolled:
        split = next((sp for sp in d.schedule.directives if isinstance(sp, Split) and sp.inner == t.var
                      and sp.outer == sp.old and sp.inner == f"{sp.old}.{t.kind[0]}i"), None)  # unroll(r.x, 3)'s
        shown = f"{split.old}, {split.factor}" if split else t.var
        notes.append(f"{user_handle(f)}.update({k}).{t.kind}({shown.replace('$', '.')}) at {t.loc} runs serially: "
                     f"{why}")
    kept = [t for t in d.schedule.directives if not any(t is u for u in unrolled)]
    return replace(d, schedule=_unsplit(replace(d.schedule, directives=kept))) if unrolled else d


def _unsplit(sched: StageSchedule) -> StageSchedule:
    """sched without the splits of RVars that only an unroll used (`unroll(r.x, 3)`, its unroll dropped): the RVar
    runs as one loop over its steps, with no step past them where 3 does not divide them (rvar_tails.py)."""
    for sp in [dv for dv in sched.directives if isinstance(dv, Split)]:
        names = [x.name for x in sched.dims]
        used = [dv for dv in sched.directives if dv is not sp and {sp.inner, sp.outer} & _names(dv)]
        if (used or sp.inner not in names or names.index(sp.inner) + 1 >= len(names)
                or names[names.index(sp.inner) + 1] != sp.outer or not sched.dims[names.index(sp.inner)].is_rvar
                or {sp.inner, sp.outer} & set(sched.aliases.values())):
            continue
        i = names.index(sp.inner)
        dims = sched.dims[:i] + [Dim(sp.old, True)] + sched.dims[i + 2:]
        sched = StageSchedule(dims, [dv for dv in sched.directives if dv is not sp], dict(sched.aliases))
    return sched


def _names(dv: object) -> set[str]:
    """The loop names a schedule directive mentions (its string fields, and a reorder's order)."""
    out: set[str] = set()
    for fd in dataclasses.fields(dv):  # type: ignore[arg-type]
        v = getattr(dv, fd.name)
        out |= {v} if isinstance(v, str) else {n for n in v if isinstance(n, str)} if isinstance(v, tuple) else set()
    return out


def _chained(f: Function, d: Definition, k: int, notes: list[str]) -> Definition:
    """Update k of f, held in lanes of registers (one per element), with its unrolls run serially where its value
    is not an accumulation: the unrolled steps of one cycle may all update one element, and only add, min and max
    combine them into one tree (trees.py); `hist(b) = hist(b) * 3 + e` chains them."""
    if accumulation(f, d.args, d.value) is not None and not f.type.is_float():
        return d
    why = (f"'{f.name}' is held in registers, one per element, and its update {ir.user_text(d.value)} is not an "
           "accumulation (+, min or max), so the steps of one cycle, which may update one element, do not combine")
    return _serial(f, d, k, why, notes)


def _looked_up(s: Lowering) -> set[int]:
    """The Funcs another buffered Func reads at data-dependent coordinates (a histogram's counts at a pixel's
    bin): a RAM serves those reads (`Op.lookup`), lanes of registers do not."""
    out: set[int] = set()
    for g in s.found_region.buffered:
        for d in s.defs(g):
            for e in (d.value, *d.args):
                for n in ir.walk(e):
                    if (isinstance(n, ir.Call) and isinstance(n.callee, Function) and n.callee is not g
                            and any(isinstance(m, ir.Call) for a in n.args for m in ir.walk(a))):
                        out.add(id(n.callee))
    return out


def _ram_init(s: Lowering, f: Function, ds: list[Definition]) -> int | tuple[int, ...]:
    """The initial value of a Func held in a RAM (one constant, or every word's, x fastest), after checking it can
    be one."""
    elements = math.prod(hi - lo + 1 for lo, hi in s.tile.boxes[s.pipe.name(f)])
    size = (f"'{f.name}' has more than {MAX_ELEMENTS} elements, so it is held in a RAM (a memory tile updated "
            "at the computed address, one step per cycle)" if elements > MAX_ELEMENTS else
            f"'{f.name}' is read at coordinates computed from loaded values, so it is held in a RAM (a memory tile "
            "that answers the computed address)")
    _check_ram_box(s, f, ds[0], size)
    for k, d in enumerate(ds[1:]):
        _check_ram_update(f, d, k, size)
    init = simplify(ds[0].value)
    if isinstance(init, ir.Const) and not init.type.is_float():
        return int(init.value)
    return _init_table(s, f, ds[0], size)


def _check_ram_box(s: Lowering, f: Function, d: Definition, size: str) -> None:
    """Every invocation of the array runs the hardware built for the first, whose RAM holds the first one's box:
    a RAM whose box moves with the tile (read at x plus a computed offset) would be written, read and initialised
    at the first one's elements."""
    name = s.pipe.name(f)
    box = s.tile.boxes[name]
    if math.prod(hi - lo + 1 for lo, hi in box) > MAX_RAM_WORDS:
        # (a coordinate loaded from a Func ranges over the Func's values at all coordinates, as Halide bounds it:
        # `idx(x, y) = x * y` spans int32, so the RAM would span it too)
        from .ram_copies import ram_source  # (ram_copies imports this module)

        user = ram_source(s.pipe, f) or f
        raise HalideError(
            f"{d.loc}: Func '{user.name}' is held in a RAM (a memory tile that answers a computed address), but its "
            f"box is {_box_text(box)}, more words than any RAM holds: "
            "the coordinates it is read at are loaded values whose range is their Func's values over all its "
            "coordinates (their type's range here, as Halide bounds them); clamp the values of the Func that "
            "computes them to the coordinates read (its definition's value v as hl.clamp(v, lo, hi))")
    tiles = array_invocations(list(s.tiles), list(s.glb.mem_tiles)) if s.glb is not None else list(s.tiles)
    boxes = list(dict.fromkeys(tuple(t.boxes[name]) for t in tiles if name in t.boxes))
    if len(boxes) > 1:
        raise HalideError(
            f"{d.loc}: Func '{f.name}': {size}, but its box differs between the accelerator's invocations "
            f"({_box_text(list(boxes[0]))} in the first, {_box_text(list(boxes[1]))} in another), and every "
            "invocation runs the hardware built for the first, whose RAM holds the first one's elements; "
            "accelerate the whole output in one invocation (the host loop's split as wide as the output)")


def _check_one_box(s: Lowering, f: Function, d: Definition) -> None:
    """Every invocation of the array runs the hardware built for the first, a read's address counted from the
    first one's boxes (tile_coordinates.py). A table updated at computed coordinates (a RAM, or lanes of
    registers) holds its whole box in every invocation, so a read of it at affine coordinates is right only where
    the reader's box does not move along the dimensions it reads the table at (the table itself, or its copy, in
    host tiles of its bins)."""
    tiles = array_invocations(list(s.tiles), list(s.glb.mem_tiles)) if s.glb is not None else list(s.tiles)
    readers: list[tuple[Function, tuple[ir.Expr, ...]]] = \
        [(f, tuple(ir.Var(I32, a) for a in f.args))] if f is s.found_region.output else []
    readers += [(g, n.args) for g in s.found_region.buffered if g is not f for e in (x.value for x in s.defs(g))
                for n in ir.walk(e) if isinstance(n, ir.Call) and n.callee is f]
    for g, args in readers:
        if any(isinstance(m, ir.Call) for a in args for m in ir.walk(a)):
            continue  # (at computed coordinates: the address is the word's own)
        used = {m.name for a in args for m in ir.walk(a) if isinstance(m, ir.Var)}
        dims = [i for i, a in enumerate(g.args) if a in used]
        starts = {tuple((t.output_box if g is s.found_region.output else t.boxes[s.pipe.name(g)])[i][0]
                        for i in dims) for t in tiles}
        if len(starts) > 1:
            who = "it streams out" if g is f else f"'{g.name}' reads it"
            raise HalideError(
                f"{d.loc}: Func '{f.name}'.update(0) writes at computed coordinates, so the accelerator holds the "
                f"whole table in every invocation, but {who} in host tiles along {', '.join(g.args[i] for i in dims)}"
                " (each invocation would read the first one's elements); accelerate the whole table in one "
                "invocation (the host loop's split as wide as the table)")


def _init_table(s: Lowering, f: Function, d: Definition, size: str) -> tuple[int, ...]:
    """Every word's initial value, x fastest, as the reference computes the pure definition: it must be known at
    compile time (coordinates, constants and constant Funcs); the box is the same in every invocation of the array
    (`_check_ram_box`)."""
    inputs = sorted({n.callee.name for n in ir.walk(d.value) if isinstance(n, ir.Call)
                     and not (isinstance(n.callee, Function) and id(n.callee) in s.tables)})
    if inputs:
        raise HalideError(
            f"{d.loc}: Func '{f.name}': {size}, whose elements start at values known at compile time (of the "
            f"coordinates and constant Funcs) or read at affine coordinates (written in a first pass, whose loop over "
            f"a coordinate c runs in steps of k where it reads at c / k or c % k), but its pure definition "
            f"{ir.user_text(d.value)} reads {inputs[0]} at an index divided by a constant that is not one coordinate "
            f"over whole steps (its box is {_box_text(s.tile.boxes[s.pipe.name(f)])}); "
            f"initialise it without {inputs[0]} ({f.name}(...) = 0) and combine {inputs[0]} with it in a Func that "
            "reads it")
    name = s.pipe.name(f)
    g = Function(f.name, f.loc)
    g.definitions = [d]
    store = realize_arrays(Pipeline(Func(g)), s.tile.boxes[name])[id(g)]
    return tuple(int(v) for v in np.asarray(store.arr).transpose().ravel())


def _check_ram_update(f: Function, d: Definition, k: int, size: str) -> None:
    """Update k of a RAM is one read-modify-write per step, in sequence with the others: at a computed coordinate
    or over an RDom alone, or at its pure coordinates (`hist(b) = hist(b) * 2`, each element in turn)."""
    who = f"{d.loc}: Func '{f.name}'.update({k})"
    _own_reads(f, d, who)
    if _at_pure(f, d):
        if d.rdom is not None:
            raise HalideError(
                f"{who}: {size}, and this update at its pure coordinates also reduces over "
                f"{', '.join(ir.user_name(n) for n, _, _ in d.rdom.dims)}; compute the reduction in a Func of its own "
                "and read it")
        return
    shown = ", ".join(ir.user_text(a) for a in d.args)
    if not (_computed(d) or _over_rvars(d)):
        consts = [ir.user_text(a) for a in d.args if isinstance(a, ir.Const)]
        fix = (f"write the constant coordinate as a one-step RDom (one = hl.RDom([hl.Range({consts[0]}, 1)]), "
               f"then {f.name}[one.x] in place of {f.name}[{consts[0]}])"
               if len(consts) == len(d.args) == 1 else "write it over an RDom alone (one element per step)")
        raise HalideError(f"{who} writes '{f.name}' at ({shown}): {size}, whose updates must write at a computed "
                          f"coordinate, over an RDom alone, or at its pure coordinates ({f.name}({', '.join(f.args)}));"
                          f" {fix}")
    used = {n.name for e in d.args + (d.value,) for n in ir.walk(e) if isinstance(n, ir.Var)}
    if used & set(f.args):
        v = min(used & set(f.args))
        raise HalideError(
            f"{who} writes '{f.name}' at ({shown}): {size}, which an update changes one element per step, but this "
            f"one also runs over all of the pure variable {v}; add a dimension over {v}'s extent to the update's "
            f"RDom and write it in {v}'s place")


def _unrolls_rvars(d: Definition) -> bool:
    """Whether the schedule of update d unrolls (or vectorizes) one of its RDom's variables."""
    rvars = {name for name, _, _ in d.rdom.dims} if d.rdom is not None else set()
    return any(isinstance(t, ForType) and t.kind in ("unroll", "vectorize") and t.var in rvars
               for t in d.schedule.directives)


def _at_pure(f: Function, d: Definition) -> bool:
    """Whether the update writes at its pure coordinates, in order (`hist(b) = hist(b) * 2`)."""
    return [a.name if isinstance(a, ir.Var) else None for a in d.args] == list(f.args)


def _over_rvars(d: Definition) -> bool:
    """Whether the update writes at coordinates of its RDom alone (no pure variable)."""
    names = [n for a in d.args for n in ir.walk(a) if isinstance(n, (ir.Var, ir.RVar))]
    return bool(names) and all(isinstance(n, ir.RVar) for n in names)


def _computed(d: Definition) -> bool:
    """Whether the update stores at a coordinate computed from loaded values."""
    return any(isinstance(n, ir.Call) for a in d.args for n in ir.walk(a))


def _spread(f: Function, d: Definition, k: int) -> Definition:
    who = f"{d.loc}: Func '{f.name}'.update({k - 1})"
    shown = ", ".join(ir.user_text(a) for a in d.args)
    args, conds, added = [], [], []
    for a, name in zip(d.args, f.args):
        v = ir.Var(I32, name)
        if isinstance(a, ir.Var) and a.name == name:
            args.append(a)
            continue
        # (the frontend refuses a pure Var of an update anywhere but by itself in its own position)
        assert not any(isinstance(n, ir.Var) and n.name == name for e in d.args + (d.value,) for n in ir.walk(e)), \
            f"{who} writes '{f.name}' at ({shown}) and also uses its pure variable {name} elsewhere"
        args.append(v)
        conds.append(ir.BinOp(BOOL, "eq", a, v))
        added.append(name)
    own = ir.Call(f.type, f, tuple(args))
    _own_reads(f, d, who)
    schedule = StageSchedule([Dim(n, False) for n in added] + list(d.schedule.dims),
                             list(d.schedule.directives) + [ForType("unroll", n, d.loc, made=True) for n in added])
    value = map_calls(d.value, lambda c: own if c.callee is f else None, {})
    cond = functools.reduce(lambda p, q: ir.BinOp(BOOL, "and", p, q), conds)
    if d.schedule.lane_dims() and accumulation(f, tuple(args), value) is not None and not f.type.is_float():
        # hist(b) + select(bin == b, e, 0): an accumulation still, so the steps of an unrolled reduction add into
        # each bin as one tree (trees.py) rather than lanes that read each other's bin in one cycle (a serial one
        # keeps the select around the add: the retimer pipelines the bin's compare ahead of this form's add, 6
        # cycles more latency for the same PEs)
        value = predicated_value(f, tuple(args), value, cond)
        return Definition(tuple(args), value, d.rdom, d.loc, schedule)
    return Definition(tuple(args), ir.Select(f.type, cond, value, own), d.rdom, d.loc, schedule)


def _own_reads(f: Function, d: Definition, who: str) -> None:
    """An update at a computed coordinate reads only the element it writes (the one step's read-modify-write)."""
    keys = [ir.structural_key(a) for a in d.args]
    shown = ", ".join(ir.user_text(a) for a in d.args)
    for c in ir.walk(d.value):
        if isinstance(c, ir.Call) and c.callee is f and [ir.structural_key(a) for a in c.args] != keys:
            raise HalideError(
                f"{who} writes '{f.name}' at ({shown}) but reads it at "
                f"({', '.join(ir.user_text(a) for a in c.args)}); inside the accelerator an update at a computed "
                "coordinate may read only the element it writes"
            )
