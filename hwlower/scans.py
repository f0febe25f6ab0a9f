"""Pass `merge_scans`: a scan's pure definition and its update, one op where the update overwrites the pure values
before anything reads them.

`down(x, y) = u16(im(x, y)); down(x, r) = down(x, r - 1) + u16(im(x, r))` (r over 1..H-1) defines every row of
`down`, then overwrites rows 1..H-1 one after the other, each reading the row before it: only row 0 of the pure
definition is ever read. Two ops would write every element twice, and the memories would keep a delay line for each
(a row each, of which the pure one is never read). One op over the pure loops computes the pure value where the
update does not write and the update's value where it does (`select(r in range, update, pure)`), so each element is
written once, into one delay line. The update's loads are guarded to its range and the pure definition's to the rest
(memories constrain a guarded load to where its value is used).

The same values result when: the two ops are adjacent (nothing reads between them), each stores every point of its
loops once at its loop variables plus constants (the pure one the whole buffer, the update a slab of it), and the
update reads its own Func only at a constant offset from the element it stores that comes earlier in both ops' loop
orders (so it reads what the merged op already wrote, the value it read before). A dimension split into k lanes
(`2*x + x.ui`, x.ui unrolled: the autoscheduler's lanes) counts as one loop when both ops split it alike and the
update reads its own lane's column: a column scan at k lanes then stores its row of sums once (col_prefix at 64x16,
2 lanes: 66 words, 132 as two ops). Under host tiles (or a GLB level's memory tiles) every run of the array uses the
hardware built for the first, so the scan's rows must be the same in each (tiles along x only: col_prefix at
1920x1080 in tiles 2 columns wide holds 6 words, 8 as two ops). The update may read the element it stores (`down(x,
r) += down(x, r - 1)`): that is its pure value yet, which the one op computes in place of the load. It may scan
several dimensions (an integral image as one update, `s(r.x, r.y) += s(r.x - 1, r.y) + s(r.x, r.y - 1) - s(r.x - 1,
r.y - 1)` over 1..W-1 x 1..H-1): the select takes the update's value where every scanned coordinate is in its range
(at 9x5, 12 words for 24 and 46 cycles for 137, each step of the two ops waiting for the memory; at 1920x1080 1,923
words for 3,846), also with x split into k lanes (the autoscheduler's 2 lanes: the update's x from 1, the pure one's
from 0, k * outer + inner renamed as a whole; a lane reads the lane before it chained, as the update's lanes did: 15
words for 29 and 26 cycles for 28 at 9x5, 1,925 words for 3,849 at 1920x1080). The update's span may stop short of
the buffer at both ends (a scan over rows 1..H-2; lanes rounded up past the update's last column): the select then
compares the coordinate less the span's start as a u16, once (2 lanes at 9x5: 14 PEs, 18 with a compare each end);
lanes the update's GuardWithIf tail runs past the buffer store nothing the one op needs. Anything else (tiles
cutting the scan) is left as it was, and so is a scan along the innermost loop alone (a row scan,
integral_image's `along`): its pure values waste a register, not a line, which the select's 2 PEs a lane would cost
more than. The select lengthens the loop-carried path where one firing follows the previous row's (a tile one firing
wide) or the previous column's (a 2-D scan): the kernel reads that load in its last stage (compiler.py's
`_carried`), so a step still takes a cycle.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.types import BOOL, I32, UInt

from .fold import map_calls
from .ir import Access, Affine, CoordPort, LoadPort, Loop, LoopNest, Op
from .program import Tile
from .reorder import exclusive_chain, rebuild_chain
from .simplify import simplify
from .state import Lowering
from .tile_coordinates import array_invocations

# Per buffer dimension, x first: the loops that walk it and the store's constant. One loop at coefficient 1, or
# a dimension split into lanes: (outer, inner) at (k, 1), the inner one unrolled over 0..k-1.
_Dims = list[tuple[tuple[Loop, ...], int]]
_WHERE = "coord_scan"  # the merged op's coordinate along the scan, which its select compares


def merge_scans(s: Lowering) -> Lowering:
    nest = s.built_nest
    writers: dict[str, int] = {}
    for _, op in nest.ops():
        writers[op.store.buffer] = writers.get(op.store.buffer, 0) + 1
    runs = array_invocations(list(s.tiles), list(s.glb.mem_tiles)) if s.glb is not None else list(s.tiles)
    return replace(s, nest=replace(nest, body=_merge_in(nest, nest.body, writers, runs)))


def _merge_in(nest: LoopNest, nodes: tuple[Loop | Op, ...], writers: dict[str, int],
              runs: list[Tile]) -> tuple[Loop | Op, ...]:
    out: list[Loop | Op] = []
    for given in nodes:
        node = replace(given, body=_merge_in(nest, given.body, writers, runs)) \
            if isinstance(given, Loop) and not _is_chain(given) else given
        merged = _merged(nest, out[-1], node, writers, runs) if out else None
        if merged is not None:
            out[-1] = merged
        else:
            out.append(node)
    return tuple(out)


def _is_chain(node: Loop) -> bool:
    return isinstance(exclusive_chain(node)[1], Op)


def _merged(nest: LoopNest, first: Loop | Op, second: Loop | Op, writers: dict[str, int],
            runs: list[Tile]) -> Loop | None:
    """The one op's loops replacing `first` (a pure definition) and `second` (its scan), or None; `runs`: the
    array's invocations (host tiles, a GLB level's memory tiles), each running the hardware built for the first."""
    if not (isinstance(first, Loop) and isinstance(second, Loop) and _is_chain(first) and _is_chain(second)):
        return None
    (ploops, pure), (uloops, upd) = exclusive_chain(first), exclusive_chain(second)
    assert isinstance(pure, Op) and isinstance(upd, Op)
    buf = pure.store.buffer
    if not (pure.stage == 0 and upd.stage == 1 and pure.func == upd.func and upd.store.buffer == buf
            and writers.get(buf) == 2 and _plain(ploops, pure) and _plain(uloops, upd)
            and all(p.access.buffer != buf for p in pure.loads)):
        return None
    pdims, udims = _unit_dims(ploops, pure.store.index), _unit_dims(uloops, upd.store.index)
    box = nest.buffer(buf).box
    if pdims is None or udims is None or any(_span(dim) != (lo, lo + ext - 1) for dim, (lo, ext) in zip(pdims, box)):
        return None
    # lanes rounded up past the box (GuardWithIf) store where nothing reads: the one op runs over the box alone
    ranges = [(lo, min(hi, b + ext - 1)) if len(dim[0]) == 2 and hi - (b + ext - 1) < dim[0][1].extent else (lo, hi)
              for dim, (lo, hi), (b, ext) in zip(udims, map(_span, udims), box)]
    scan = [d for d, ((lo, ext), r) in enumerate(zip(box, ranges)) if r != (lo, lo + ext - 1)]
    if not scan or any(len(pdims[d][0]) != len(udims[d][0]) for d in scan):
        return None
    steps: list[tuple[Affine, tuple[int, int], tuple[int, int]]] = []
    for d in scan:
        if len({tuple(t.boxes[buf][d]) for t in runs if buf in t.boxes}) > 1:
            return None  # the scan's rows move from one invocation to the next: the select would need tile offsets
        (lo, hi), (bmin, bext) = ranges[d], box[d]
        if lo < bmin or hi > bmin + bext - 1:
            return None
        loops, c = pdims[d]
        # the coordinate along the scan (a dimension split into lanes: k * outer + inner)
        at = Affine.make({lp.var: (loops[-1].extent if lp is loops[0] and len(loops) == 2 else 1) for lp in loops}, c)
        steps.append((at, (lo, hi), (bmin, bmin + bext - 1)))
    to_pure = _renaming(udims, pdims)
    if to_pure is None or any(to_pure(a) is None for a in _affines(upd)) \
            or not _reads_earlier(upd, buf, to_pure, pdims, udims, ploops, uloops, set(scan)):
        return None
    op = _one_op(pure, upd, to_pure, steps, ploops)
    return None if op is None else rebuild_chain(ploops, op)


def _span(dim: tuple[tuple[Loop, ...], int]) -> tuple[int, int]:
    """The first and last index the loops of one dimension store (contiguous: see `_unit_dims`)."""
    loops, c = dim
    k = loops[-1].extent if len(loops) == 2 else 1
    return k * loops[0].min + c, k * (loops[0].min + loops[0].extent) - 1 + c


class _ToPure:
    """The update's loop variables as the pure loops storing the same element. A dimension split into k lanes at
    an offset of the pure one's that is not a whole number of transfers (the update's x from 1, the pure one's
    from 0, at 2 lanes: an integral image's 2-D scan) renames k * outer + inner as a whole: an index reading it
    otherwise (a lane's own coordinate) has no pure form (None)."""

    def __init__(self, single: dict[str, Affine], split: list[tuple[str, str, int, Affine]]):
        self.single, self.split = single, split  # split: (outer, inner, k, k * outer + inner as the pure loops)

    def __call__(self, a: Affine) -> Affine | None:
        coef = dict(a.terms)
        joint: dict[str, Affine] = {}
        for outer, inner, k, whole in self.split:
            c = coef.pop(inner, 0)
            if coef.pop(outer, 0) != k * c:
                return None
            joint[f"{outer} {inner}"] = whole
            coef[f"{outer} {inner}"] = c
        return _sub(Affine.make(coef, a.const), {**self.single, **joint})


def _renaming(udims: _Dims, pdims: _Dims) -> _ToPure | None:
    """The update's loop variables as the pure loops storing the same element, or None if a dimension is split
    into lanes differently (its lanes would not line up)."""
    single: dict[str, Affine] = {}
    split: list[tuple[str, str, int, Affine]] = []
    for (uls, uc), (pls, pc) in zip(udims, pdims):
        if len(uls) != len(pls):
            return None
        if len(uls) == 1:
            single[uls[0].var] = Affine.make({pls[0].var: 1}, pc - uc)
            continue
        k = uls[1].extent
        if pls[1].extent != k:
            return None
        if (pc - uc) % k:
            split.append((uls[0].var, uls[1].var, k, Affine.make({pls[0].var: k, pls[1].var: 1}, pc - uc)))
            continue
        single[uls[0].var] = Affine.make({pls[0].var: 1}, (pc - uc) // k)
        single[uls[1].var] = Affine.make({pls[1].var: 1}, 0)
    return _ToPure(single, split)


def _affines(op: Op) -> list[Affine]:
    """Every index op computes: its store's, its loads' and their guards', its coordinates'."""
    out = list(op.store.index) + [c.value for c in op.coords]
    for p in op.loads:
        out += list(p.access.index) + [e for e, _, _ in p.access.guard]
    return out


def _plain(loops: list[Loop], op: Op) -> bool:
    return not (op.scatter or op.lookup or op.store.guard or any(lp.strip for lp in loops))


def _unit_dims(loops: list[Loop], index: tuple[Affine, ...]) -> _Dims | None:
    """Per dimension, the loops the store index walks and its constant: one serial loop at coefficient 1, or an
    outer serial loop at k and an unrolled inner one of 0..k-1 at 1 (x split into k lanes); None unless every
    loop walks exactly one dimension."""
    by_var = {lp.var: lp for lp in loops}
    out: _Dims = []
    for a in index:
        if not a.terms or any(v not in by_var for v, _ in a.terms):
            return None
        walk = sorted((by_var[v] for v, _ in a.terms), key=loops.index)
        coef = dict(a.terms)
        if len(walk) == 1 and coef[walk[0].var] == 1 and not walk[0].unrolled:
            out.append(((walk[0],), a.const))
        elif len(walk) == 2 and not walk[0].unrolled and walk[1].unrolled and walk[1].min == 0 \
                and coef[walk[1].var] == 1 and coef[walk[0].var] == walk[1].extent:
            out.append(((walk[0], walk[1]), a.const))
        else:
            return None
    walked = [lp.var for dim, _ in out for lp in dim]
    return out if len(set(walked)) == len(walked) == len(loops) else None


def _reads_earlier(upd: Op, buf: str, to_pure: _ToPure, pdims: _Dims, udims: _Dims, ploops: list[Loop],
                   uloops: list[Loop], scan: set[int]) -> bool:
    """Whether every load the update makes of its own buffer is at a constant offset from the element it stores
    that is lexicographically negative in both loop orders (an element already written, by either op), or zero
    (the element itself, holding its pure value), and zero along a dimension split into lanes that it does not
    scan (each lane reads its own column). Along a scanned dimension split into k lanes, the offset is each lane's
    along the outer loop and the lanes: an earlier lane of the same firing is read chained (verilog/top.py), as
    the update's lanes read each other."""
    across = False  # whether a load reads another row (an outer serial loop's earlier step)
    for p in upd.loads:
        if p.access.buffer != buf:
            continue
        if len(p.access.index) != len(pdims):
            return False
        # A guard (a lane past the image's last column) only narrows where the load is read: it reads no later
        delta = []
        for d, (a, (loops, c)) in enumerate(zip((to_pure(e) for e in p.access.index), pdims)):
            k = loops[-1].extent if len(loops) == 2 else 1
            if a is None or a.terms != tuple(sorted((lp.var, k if lp is loops[0] else 1) for lp in loops)) \
                    or (len(loops) == 2 and a.const != c and d not in scan):
                return False
            delta.append(a.const - c)
        if not any(delta):
            continue  # the element it stores, which holds its pure value yet (`_one_op` reads that value instead)
        for porder in _loop_offsets(delta, pdims, ploops):
            if not _negative(porder):
                return False
            serial = [o for o, lp in zip(porder, ploops) if not lp.unrolled]
            across = across or any(serial[:-1])
        if not all(_negative(uorder) for uorder in _loop_offsets(delta, udims, uloops)):
            return False
    # a row scan, along the innermost loop only: see the module's notes (a 2-D scan reads the row before too)
    return across


def _loop_offsets(delta: list[int], dims: _Dims, loops: list[Loop]) -> list[list[int]]:
    """The offset along each of `loops` of an element `delta` away, at each lane of the dimensions split into
    lanes: along the outer loop of k lanes, lane i reads (i + d) // k steps away at lane (i + d) % k."""
    by_var: list[dict[str, int]] = [{}]
    for d, (dl, _) in zip(delta, dims):
        if len(dl) == 1:
            by_var = [{**m, dl[0].var: d} for m in by_var]
            continue
        k = dl[1].extent
        by_var = [{**m, dl[0].var: (i + d) // k, dl[1].var: (i + d) % k - i} for m in by_var for i in range(k)]
    return [[m[lp.var] for lp in loops] for m in by_var]


def _negative(offsets: list[int]) -> bool:
    return next((o for o in offsets if o), 0) < 0


def _sub(a: Affine, to: dict[str, Affine]) -> Affine:
    terms: dict[str, int] = {}
    const = a.const
    for v, c in a.terms:
        e = to.get(v, Affine.make({v: 1}, 0))
        const += c * e.const
        for w, k in e.terms:
            terms[w] = terms.get(w, 0) + c * k
    return Affine.make(terms, const)


def _one_op(pure: Op, upd: Op, to_pure: _ToPure, steps: list[tuple[Affine, tuple[int, int], tuple[int, int]]],
            ploops: list[Loop]) -> Op | None:
    """The pure op computing the update's value where each coordinate `at` of `steps` (at, span, its buffer's
    range) is in its span, and its own elsewhere: along one coordinate its rest (where the span reaches one end of
    the range); along several (a 2-D scan, an integral image's `s(r.x, r.y)`) or within the range (its lanes
    rounded up past the span), the rest is no box, so the pure definition's loads stay unguarded."""

    def pure_index(a: Affine) -> Affine:
        got = to_pure(a)
        assert got is not None  # `_merged` checked every index of the update
        return got

    names = {p.name for p in pure.loads} | {c.name for c in pure.coords}
    shared = {(p.access.buffer, p.access.index, p.access.guard): p for p in pure.loads}
    spans = tuple((at, *span) for at, span, _ in steps)
    new: dict[int, LoadPort | CoordPort] = {}
    itself: set[int] = set()  # the update's loads of the element it stores: its pure value, computed in the op
    for p in upd.loads:
        access = Access(p.access.buffer, tuple(pure_index(a) for a in p.access.index),
                        tuple((pure_index(e), lo, hi) for e, lo, hi in p.access.guard))
        if access.buffer == pure.store.buffer and access.index == pure.store.index:
            itself.add(id(p))
            continue
        same = shared.get((access.buffer, access.index, access.guard))
        # A load both ops make (the scan's input) stays one port, read wherever either uses it.
        new[id(p)] = same if same is not None else \
            LoadPort(f"{p.name}_scan", replace(access, guard=access.guard + spans))
    for c in upd.coords:
        new[id(c)] = replace(c, name=f"{c.name}_scan", value=pure_index(c.value), reduction=False)
    fresh = [n for n in dict.fromkeys(new.values()) if n not in pure.loads]
    wheres = [CoordPort(_WHERE if not k else f"{_WHERE}{k}", _from(at, span, whole))
              for k, (at, span, whole) in enumerate(steps)]
    if names & {n.name for n in fresh + wheres}:
        return None
    (at, (lo, hi), (bmin, bmax)), = steps[:1]
    rest = (hi + 1, bmax) if lo == bmin else (bmin, lo - 1) if hi == bmax else None
    # the pure definition's loads are guarded to the rest, unless the update reads its pure value too
    kept = {id(p) for p in new.values()} | \
        ({id(p) for p in pure.loads} if itself or len(steps) > 1 or rest is None else set())
    own = {id(p): p if id(p) in kept or rest is None else
           LoadPort(p.name, replace(p.access, guard=p.access.guard + ((at, *rest),))) for p in pure.loads}
    pvalue = _with(pure.value, own)
    uvalue = _settled(_with(upd.value, new), ploops)
    if itself:
        uvalue = map_calls(uvalue, lambda call: pvalue if id(call.callee) in itself else None, {})
    conds = [c for where, (_, span, whole) in zip(wheres, steps) for c in _within(where, span, whole)]
    cond = functools.reduce(lambda a, b: ir.BinOp(BOOL, "and", a, b), conds)
    loads = tuple(own.values()) + tuple(n for n in fresh if isinstance(n, LoadPort))
    read = {id(n.callee) for n in ir.walk(uvalue) if isinstance(n, ir.Call)}
    coords = pure.coords + tuple(n for n in fresh if isinstance(n, CoordPort) and id(n) in read) + tuple(wheres)
    return replace(pure, loads=loads, value=ir.Select(pure.value.type, cond, uvalue, pvalue), coords=coords)


_HOLDS = {"le": lambda lo, hi, c: (hi <= c, lo > c), "lt": lambda lo, hi, c: (hi < c, lo >= c),
          "ge": lambda lo, hi, c: (lo >= c, hi < c), "gt": lambda lo, hi, c: (lo > c, hi <= c)}


def _settled(value: ir.Expr, loops: list[Loop]) -> ir.Expr:
    """value with each compare of a coordinate and a constant that holds, or fails, at every point of `loops`
    made that constant, and folded: the update's GuardWithIf tail past the buffer (`x <= 9`, 2 lanes over 1..9),
    always true where the one op runs over the buffer's 0..9 (a compare and a select a lane fewer)."""
    span = {lp.var: (lp.min, lp.min + lp.extent - 1) for lp in loops}

    def go(n: ir.Expr, kids: tuple[ir.Expr, ...]) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if not (isinstance(n, ir.BinOp) and n.op in _HOLDS and isinstance(n.b, ir.Const) and isinstance(n.a, ir.Call)
                and isinstance(n.a.callee, CoordPort) and all(v in span for v, _ in n.a.callee.value.terms)):
            return n
        a = n.a.callee.value
        lo = a.const + sum(c * span[v][0 if c > 0 else 1] for v, c in a.terms)
        hi = a.const + sum(c * span[v][1 if c > 0 else 0] for v, c in a.terms)
        holds, fails = _HOLDS[n.op](lo, hi, n.b.value)
        return ir.const(BOOL, 1) if holds else ir.const(BOOL, 0) if fails else n

    return simplify(ir.transform(value, go))


def _from(at: Affine, span: tuple[int, int], whole: tuple[int, int]) -> Affine:
    """The coordinate `_within` compares: `at` itself, or where the range runs past the span at both ends, `at`
    less the span's start (one unsigned compare then tells both ends)."""
    return replace(at, const=at.const - span[0]) if _both_ends(span, whole) else at


def _both_ends(span: tuple[int, int], whole: tuple[int, int]) -> bool:
    # below the span, at - span[0] wraps in 16 bits past the span's length: one compare of the u16 says both
    return whole[0] < span[0] and span[1] < whole[1] and whole[1] - span[0] < 1 << 16 \
        and span[0] - whole[0] + span[1] - span[0] < 1 << 16


def _within(where: CoordPort, span: tuple[int, int], whole: tuple[int, int]) -> list[ir.Expr]:
    """The compares that `where` is in `span` of its buffer's range `whole`: one where the span reaches an end of
    the range, or where it reaches neither (a scan over 1..8 of 2 lanes rounded up to 0..9), `where` less the span's
    start as a u16 at most the span's length less one (a lane's kernel computes its compares, each a PE: 2 lanes at
    9x5, 14 PEs for 18 with a compare each end)."""
    coord: ir.Expr = ir.Call(I32, where, ())
    if _both_ends(span, whole):
        return [ir.BinOp(BOOL, "le", ir.Cast(UInt(16), coord), ir.const(UInt(16), span[1] - span[0]))]
    if whole[0] >= 0 and whole[1] < 1 << 16:
        coord = ir.Cast(UInt(16), coord)  # a 32-bit compare would take two PE ops on the path to the select
    out: list[ir.Expr] = []
    if whole[0] < span[0]:
        out.append(ir.BinOp(BOOL, "ge", coord, ir.const(coord.type, span[0])))
    if span[1] < whole[1]:
        out.append(ir.BinOp(BOOL, "le", coord, ir.const(coord.type, span[1])))
    return out


def _with(value: ir.Expr, ports: dict[int, LoadPort | CoordPort] | dict[int, LoadPort]) -> ir.Expr:
    """value reading the ports in `ports` (id(old port) -> new port) in place of the old ones."""
    return map_calls(value, lambda call: ir.Call(call.type, ports[id(call.callee)], call.args)
                     if id(call.callee) in ports else None, {})
