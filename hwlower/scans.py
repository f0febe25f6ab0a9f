"""Pass `merge_scans`: a scan's pure definition and its update, one op where the update overwrites the pure values
before anything reads them.

`down(x, y) = u16(im(x, y)); down(x, r) = down(x, r - 1) + u16(im(x, r))` (r over 1..H-1) defines every row of
`down`, then overwrites rows 1..H-1 one after the other, each reading the row before it: only row 0 of the pure
definition is ever read. Two ops would write every element twice, and the memories would keep a delay line for
each (a row each, of which the pure one is never read). One op over the pure loops computes the pure value where
the update does not write and the update's value where it does (`select(r in range, update, pure)`), so each
element is written once, into one delay line. The update's loads are guarded to its range and the pure
definition's to the rest (memories constrain a guarded load to where its value is used).

The same values result when: the two ops are adjacent (nothing reads between them), each stores every point of
its loops once at its loop variables plus constants (the pure one the whole buffer, the update a slab along one
dimension that reaches one end of it), and the update reads its own Func only at a constant offset from the
element it stores that comes earlier in both ops' loop orders (so it reads what the merged op already wrote,
the value it read before). Anything else (the update reading the element it stores, unrolled loops, host tiles)
is left as it was, and so is a scan along the innermost loop (a row scan, integral_image's `along`): its pure
values waste a register, not a line, and the select would lengthen its loop-carried path, which keeps a step a
cycle only as one PE op (integral_image at 24x12: 290 cycles, 868 merged).
"""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.types import BOOL, I32, UInt

from .fold import map_calls
from .ir import Access, Affine, CoordPort, LoadPort, Loop, LoopNest, Op
from .reorder import exclusive_chain, rebuild_chain
from .state import Lowering

_Dims = list[tuple[Loop, int]]  # per buffer dimension, x first: the loop that walks it and the store's constant


def merge_scans(s: Lowering) -> Lowering:
    nest = s.built_nest
    if len(s.tiles) > 1 or s.glb is not None:
        return s  # a merged update's coordinates would need per-tile offsets (tile_coordinates.py)
    writers: dict[str, int] = {}
    for _, op in nest.ops():
        writers[op.store.buffer] = writers.get(op.store.buffer, 0) + 1
    return replace(s, nest=replace(nest, body=_merge_in(nest, nest.body, writers)))


def _merge_in(nest: LoopNest, nodes: tuple[Loop | Op, ...], writers: dict[str, int]) -> tuple[Loop | Op, ...]:
    out: list[Loop | Op] = []
    for given in nodes:
        node = replace(given, body=_merge_in(nest, given.body, writers)) \
            if isinstance(given, Loop) and not _is_chain(given) else given
        merged = _merged(nest, out[-1], node, writers) if out else None
        if merged is not None:
            out[-1] = merged
        else:
            out.append(node)
    return tuple(out)


def _is_chain(node: Loop) -> bool:
    return isinstance(exclusive_chain(node)[1], Op)


def _merged(nest: LoopNest, first: Loop | Op, second: Loop | Op, writers: dict[str, int]) -> Loop | None:
    """The one op's loops replacing `first` (a pure definition) and `second` (its scan), or None."""
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
    if pdims is None or udims is None or any(lp.min + c != lo or lp.extent != ext
                                             for (lp, c), (lo, ext) in zip(pdims, box)):
        return None
    ranges = [(lp.min + c, lp.min + c + lp.extent - 1) for lp, c in udims]
    scan = [d for d, ((lo, ext), r) in enumerate(zip(box, ranges)) if r != (lo, lo + ext - 1)]
    if len(scan) != 1:
        return None
    d = scan[0]
    (lo, hi), (bmin, bext) = ranges[d], box[d]
    if lo < bmin or hi > bmin + bext - 1 or (lo != bmin and hi != bmin + bext - 1):
        return None
    to_pure = {lp.var: Affine.make({pv.var: 1}, pc - c) for (lp, c), (pv, pc) in zip(udims, pdims)}
    if not _reads_earlier(upd, buf, to_pure, pdims, ploops, uloops):
        return None
    at = Affine.make({pdims[d][0].var: 1}, pdims[d][1])  # the coordinate along the scan
    rest = (hi + 1, bmin + bext - 1) if lo == bmin else (bmin, lo - 1)
    op = _one_op(pure, upd, to_pure, at, (lo, hi), rest)
    return None if op is None else rebuild_chain(ploops, op)


def _plain(loops: list[Loop], op: Op) -> bool:
    return not (op.scatter or op.lookup or op.store.guard or any(lp.unrolled or lp.strip for lp in loops))


def _unit_dims(loops: list[Loop], index: tuple[Affine, ...]) -> _Dims | None:
    """Per dimension, the loop the store index walks (at coefficient 1) and its constant; None unless the
    index is one distinct loop per dimension, covering every loop."""
    by_var = {lp.var: lp for lp in loops}
    out: _Dims = []
    for a in index:
        if len(a.terms) != 1 or a.terms[0][1] != 1 or a.terms[0][0] not in by_var:
            return None
        out.append((by_var[a.terms[0][0]], a.const))
    return out if len({lp.var for lp, _ in out}) == len(loops) == len(out) else None


def _reads_earlier(upd: Op, buf: str, to_pure: dict[str, Affine], pdims: _Dims, ploops: list[Loop],
                   uloops: list[Loop]) -> bool:
    """Whether every load the update makes of its own buffer is at a constant offset from the element it stores
    that is lexicographically negative in both loop orders (an element already written, by either op)."""
    pvar_dim = {lp.var: k for k, (lp, _) in enumerate(pdims)}
    for p in upd.loads:
        if p.access.buffer != buf:
            continue
        if p.access.guard or len(p.access.index) != len(pdims):
            return False
        delta = []
        for a, (lp, c) in zip((_sub(e, to_pure) for e in p.access.index), pdims):
            if a.terms != ((lp.var, 1),):
                return False
            delta.append(a.const - c)
        porder = [delta[pvar_dim[lp.var]] for lp in ploops]
        uorder = [delta[pvar_dim[to_pure[lp.var].terms[0][0]]] for lp in uloops]
        if not (_negative(porder) and _negative(uorder)):
            return False
        live = [o for o, lp in zip(porder, ploops) if lp.extent > 1]
        if live and live[-1] and not any(live[:-1]):
            return False  # carried by the innermost loop: see the module's notes
    return True


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


def _one_op(pure: Op, upd: Op, to_pure: dict[str, Affine], at: Affine, span: tuple[int, int],
            rest: tuple[int, int]) -> Op | None:
    """The pure op computing the update's value over `span` of the coordinate `at` and its own over `rest`."""
    names = {p.name for p in pure.loads} | {c.name for c in pure.coords}
    shared = {(p.access.buffer, p.access.index, p.access.guard): p for p in pure.loads}
    new: dict[int, LoadPort | CoordPort] = {}
    for p in upd.loads:
        access = Access(p.access.buffer, tuple(_sub(a, to_pure) for a in p.access.index),
                        tuple((_sub(e, to_pure), lo, hi) for e, lo, hi in p.access.guard))
        same = shared.get((access.buffer, access.index, access.guard))
        # A load both ops make (the scan's input) stays one port, read wherever either uses it.
        new[id(p)] = same if same is not None else \
            LoadPort(f"{p.name}_scan", replace(access, guard=access.guard + ((at, *span),)))
    for c in upd.coords:
        new[id(c)] = CoordPort(f"{c.name}_scan", _sub(c.value, to_pure), False, c.var, (), c.fn)
    fresh = [n for n in dict.fromkeys(new.values()) if n not in pure.loads]
    if names & {n.name for n in fresh} or "coord_scan" in names:
        return None
    kept = {id(p) for p in new.values()}
    own = {id(p): p if id(p) in kept else LoadPort(p.name, replace(p.access, guard=p.access.guard + ((at, *rest),)))
           for p in pure.loads}
    uvalue = _with(upd.value, new)
    pvalue = _with(pure.value, own)
    where = CoordPort("coord_scan", at)
    coord: ir.Expr = ir.Call(I32, where, ())
    if min(span[0], rest[0]) >= 0 and max(span[1], rest[1]) < 1 << 16:
        coord = ir.Cast(UInt(16), coord)  # a 32-bit compare would take two PE ops on the path to the select
    cond = ir.BinOp(BOOL, "ge", coord, ir.const(coord.type, span[0])) if rest[0] < span[0] else \
        ir.BinOp(BOOL, "le", coord, ir.const(coord.type, span[1]))
    loads = tuple(own.values()) + tuple(n for n in fresh if isinstance(n, LoadPort))
    coords = pure.coords + tuple(n for n in fresh if isinstance(n, CoordPort)) + (where,)
    return replace(pure, loads=loads, value=ir.Select(pure.value.type, cond, uvalue, pvalue), coords=coords)


def _with(value: ir.Expr, ports: dict[int, LoadPort | CoordPort] | dict[int, LoadPort]) -> ir.Expr:
    """value reading the ports in `ports` (id(old port) -> new port) in place of the old ones."""
    return map_calls(value, lambda call: ir.Call(call.type, ports[id(call.callee)], call.args)
                     if id(call.callee) in ports else None, {})
