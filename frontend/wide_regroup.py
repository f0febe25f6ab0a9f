"""A Tuple over 32 bits laid out again when an update reads across its words (frontend/wide_tuples.py): the
elements that an update computes from each other (Halide's argmin: the minimum and its index) are put in one word,
each in the bits its values need where their types are too wide together.

An element's values: an interval that holds for its pure definition and that every update keeps, given that all
elements lie in theirs before it (an inductive invariant, grown from the pure definition's intervals until no
update leaves them, or the type's range). An element narrowed so is packed in a field of that many bits, as
argmax's coordinates are (frontend/tuples.py). The words are rebuilt, every stage packing its elements anew, and
every read made so far is made again in the new layout: allowed only where every read lies in the Func's own
definitions (a Func that read it before would keep the old layout), else the update is refused as before.
"""

from __future__ import annotations

import dataclasses
import functools

from . import ir
from .bounds import Bounder
from .func import Function
from .tuples import MAX_BITS, Field, TupleLayout, extract, pack
from .types import I32
from .wide_tuples import WideLayout, _reads


class _Unbounded(dict):
    def __missing__(self, name):
        return (I32.min(), I32.max())


def regroup(fn: Function, layout: WideLayout, elems: list[ir.Expr],
            args: tuple[ir.Expr, ...]) -> tuple[WideLayout, list[ir.Expr]] | None:
    """fn laid out again with the update `elems` to come (its elements read in their words), and the update's
    elements read in the new layout; None where it cannot be (a read outside fn's definitions, or elements that
    read each other needing more than 32 bits)."""
    stages = [*layout.stages, elems]
    inside = {id(n) for e in (x for st in stages for x in st) for n in ir.walk(e)}
    if any(i not in inside for i in layout.reads) or any(_reads(layout, a) for a in args):
        return None
    n = len(layout.fields)
    coupled = _coupled(layout, stages, n)
    widths = _widths(layout, stages, coupled)
    if widths is None:
        return None
    groups = _words(coupled, [w for w, _s in widths])
    layouts = [TupleLayout(*_packing([layout.fields[i].type for i in g], [widths[i] for i in g])) for g in groups]
    funcs = [fn] + [layout.funcs[g] if g < len(layout.funcs) else Function(f"{fn.name}_word{g}", fn.loc)
                    for g in range(1, len(groups))]
    at = {i: (g, k) for g, idx in enumerate(groups) for k, i in enumerate(idx)}
    new = WideLayout(tuple(layouts[at[i][0]].fields[at[i][1]] for i in range(n)), tuple(map(tuple, groups)),
                     tuple(layouts), tuple(funcs))
    memo: dict = {}
    for node, i, at_args in layout.reads.values():
        g, k = at[i]
        again = extract(layouts[g], ir.Call(layouts[g].word, funcs[g], at_args), k)
        new.reads[id(again)] = (again, i, at_args)
        memo[id(node)] = again
    moved = [[ir.transform(e, ir.rebuild, memo) for e in st] for st in stages]
    new.stages.extend(moved[:-1])
    _rebuild(fn, new)
    fn.tuple_layout = new
    return new, moved[-1]


def _coupled(layout: WideLayout, stages: list[list[ir.Expr]], n: int) -> list[list[int]]:
    """The elements in sets that updates compute from each other (connected), each in element order."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for st in stages[1:]:
        for i, e in enumerate(st):
            for node in ir.walk(e):
                if id(node) in layout.reads:
                    parent[root(layout.reads[id(node)][1])] = root(i)
    sets: dict[int, list[int]] = {}
    for i in range(n):
        sets.setdefault(root(i), []).append(i)
    return sorted(sets.values())


def _widths(layout: WideLayout, stages: list[list[ir.Expr]], coupled: list[list[int]]) -> list | None:
    """(bits, signed) of each element: its type's, or its values' where a coupled set is too wide at its types;
    None if a set does not fit one word even so."""
    types = [f.type for f in layout.fields]
    full = [(1 if t.is_bool() else t.bits(), t.is_int()) for t in types]
    ranges = _ranges(layout, stages, types)
    out = list(full)
    for c in coupled:
        if sum(full[i][0] for i in c) <= MAX_BITS:
            continue
        for i in c:
            out[i] = min(full[i], _bits_of(ranges[i]), key=lambda w: w[0])
        if sum(out[i][0] for i in c) > MAX_BITS:
            return None
    return out


def _bits_of(r: tuple[int, int]) -> tuple[int, bool]:
    lo, hi = r
    if lo >= 0:
        return max(1, hi.bit_length()), False
    return max(hi.bit_length(), (-lo - 1).bit_length()) + 1, True


def _ranges(layout: WideLayout, stages: list[list[ir.Expr]], types: list) -> list[tuple[int, int]]:
    """Each element's interval: the pure definition's, grown until every update keeps all of them in theirs; an
    element still growing after a few rounds takes its type's range (then the others grow again from it)."""
    env = _Unbounded()
    for st in stages:
        for e in st:
            for node in ir.walk(e):
                if isinstance(node, ir.RVar):
                    _name, lo, ext = node.domain.dims[node.index]
                    if isinstance(lo, ir.Const) and isinstance(ext, ir.Const):
                        env[node.name] = (lo.value, lo.value + ext.value - 1)
    ranges = [Bounder(env, lambda p: None)(e) for e in stages[0]]
    while True:
        for _round in range(8):
            grown = _grown(layout, stages, env, ranges)
            if grown == ranges:
                return ranges
            ranges = grown
        grown = _grown(layout, stages, env, ranges)
        ranges = [(t.min(), t.max()) if g != r else r for t, g, r in zip(types, grown, ranges)]


def _grown(layout: WideLayout, stages: list[list[ir.Expr]], env, ranges: list) -> list[tuple[int, int]]:
    """`ranges` joined with the values every update gives where all elements lie in `ranges` before it."""
    grown = list(ranges)
    for st in stages[1:]:
        b = Bounder(env, lambda p: None)
        b.memo.update({id(node): ranges[i] for node, i, _args in layout.reads.values()})
        grown = [(min(r[0], v[0]), max(r[1], v[1])) for r, v in zip(grown, map(b, st))]
    return grown


def _words(coupled: list[list[int]], widths: list[int]) -> list[list[int]]:
    """The coupled sets in words of at most 32 bits, each set in the first word with room (in element order)."""
    words: list[list[int]] = []
    for c in coupled:
        w = sum(widths[i] for i in c)
        home = next((g for g in words if sum(widths[i] for i in g) + w <= MAX_BITS), None)
        if home is None:
            words.append(list(c))
        else:
            home.extend(c)
    return [sorted(g) for g in words]


def _packing(types: list, widths: list[tuple[int, bool]]) -> tuple[tuple[Field, ...], object]:
    from .types import UInt

    fields, offset = [], 0
    for t, (w, signed) in zip(types, widths):
        fields.append(Field(t, offset, w, signed))
        offset += w
    return tuple(fields), UInt(next(b for b in (8, 16, 32) if offset <= b))


def _rebuild(fn: Function, layout: WideLayout) -> None:
    """Every word's stages so far packed from `layout.stages` (fn's stages give the arguments, domains and
    schedules); the words after the last are left unread."""
    from .define import predicated_value

    template = list(fn.definitions)
    for g, (f, lay, idx) in enumerate(zip(layout.funcs, layout.layouts, layout.groups)):
        defs = []
        for d, st in zip(template, layout.stages):
            value = pack(lay, [st[i] for i in idx])
            if d.rdom is not None and d.rdom.predicates:
                cond = functools.reduce(lambda a, b: ir.BinOp(a.type, "and", a, b), d.rdom.predicates)
                value = predicated_value(f, d.args, value, cond)
            defs.append(dataclasses.replace(d, value=value))
        f.definitions = defs
        f.tuple_layout = lay
        if g:
            f.placement, f.scalar = fn.placement, fn.scalar
            for k in range(len(defs)):
                _share_stage_at(f, fn, k)


def _share_stage_at(f: Function, fn: Function, k: int) -> None:
    f.definitions[k] = dataclasses.replace(f.definitions[k], schedule=fn.definitions[k].schedule)

