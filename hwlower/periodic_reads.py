"""Pass `select_periodic_reads`: a read at an index with a periodic offset, a remainder of a quotient of the loops
(`in(x, y + (x / 4) % 2)`: the columns in groups of 4, every other group a row down), as a choice between the reads
at each value the offset takes.

A quotient by d strip-mines its loop in steps of d, and a remainder by m in steps of m (steps.py), so that each is
affine in the split loops; one loop steps by one divisor, and the remainder of a quotient (x / 4, then % 2) would
need two. The offset takes few values (0 .. m - 1: Halide's remainder by a positive constant is never negative), so

    hw_output(x, y) = in(x, y + (x / 4) % 2)

is, value for value, the same as

    hw_output(x, y) = select((x / 4) % 2 == 0, in(x, y), in(x, y + 1))

whose reads are affine, and whose condition the op computes from its coordinates. The reads are the ones Halide's
bounds include (the offset's values over the reader's box; a value it never takes there is no branch), one
memory read port each, so the pass serves offsets of at most MAX_BRANCHES values in all; a longer period stays as
written, for `ops` to refuse with its fix. The frontend's pipeline and its reference are unchanged: the pass
returns a copy of the pipeline for the passes after it.

An index that wraps inside each period of a loop spanning at most one period, `(c + 1) % 3` over a pixel's 3
planes (a rotation: an offset that is no multiple of the modulus), is read the same way, choosing by the loop's
own remainder, which steps.py serves (its loop strip-mined by 3), at the constant index each remainder gives:

    hw_output(x, y, c) = in(x, y, (c + 1) % 3)   ->   select(c % 3 == 0, in(x, y, 1), c % 3 == 1, in(x, y, 2),
                                                             in(x, y, 0))

as the refusal's fix (hwlower/index_hints.py) had the user write it with hl.mux; an RGB-to-GBR rotation
autoscheduled at 11x5 was refused, and streams its planes together at 59 cycles (its planes unrolled)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder, Box, infer_boxes
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.types import BOOL

from .affine import int_value
from .bounds import output_box
from .lane_quotients import MAX_CHOICES
from .region import find_region
from .simplify import simplify
from .state import Lowering

# reads of one Func per read written (a read port each), as many as a lane may choose among (lane_quotients.py)
MAX_BRANCHES = MAX_CHOICES


def select_periodic_reads(s: Lowering) -> Lowering:
    """Read each buffered Func's periodic offsets as a select between the reads at the offset's values."""
    return select_reads_at_offsets(s, _periods, _values, rotations=True)


# (the reader Func, its definition, a read in it) -> the read's offsets; (an offset, the reader's box) -> its values
Offsets = Callable[[Function, Definition, ir.Call], list[ir.Expr]]
Values = Callable[[ir.Expr, dict[str, tuple[int, int]]], list[int]]


def select_reads_at_offsets(s: Lowering, offsets: Offsets, values: Values, rotations: bool = False) -> Lowering:
    """Read each buffered Func's reads at `offsets` as a select between the reads at each of their `values`, where
    those number at most MAX_BRANCHES in all (bounded_gathers.py serves loaded offsets likewise); with `rotations`,
    a read with no such offset but a rotated index likewise (the module's notes)."""
    pipe = s.pipe
    boxes: dict[str, Box] | None = None
    for f in s.found_region.buffered:
        defs = pipe.definitions(f)
        if not any(offsets(f, d, c) or (rotations and _rotates(f, d, c)) for d in defs for c in _reads(d)):
            continue
        if boxes is None:  # only a pipeline with such a read pays for the bounds
            boxes, _ = infer_boxes(s.pipe, output_box(s.pipe), lambda _p: None)
        box = boxes.get(pipe.name(f))
        if box is None:
            continue
        spans = {v: box[i] for i, v in enumerate(f.args)}
        new_defs = [_selected(f, d, spans, offsets, values, rotations) for d in defs]
        pipe = pipe.with_producers([], f, new_defs)
    if pipe is s.pipe:
        return s
    return replace(s, pipe=pipe, region=find_region(pipe))


def _reads(d: Definition) -> list[ir.Call]:
    return [n for n in ir.walk(d.value) if isinstance(n, ir.Call) and isinstance(n.callee, Function)]


def _periodic(n: ir.Expr, pure: set[str]) -> bool:
    """Whether n is e % m (1 < m <= MAX_BRANCHES constant) of a quotient of the variables `pure`."""
    if not (isinstance(n, ir.BinOp) and n.op == "mod" and isinstance(n.b, ir.Const) and isinstance(n.b.value, int)
            and 1 < n.b.value <= MAX_BRANCHES):
        return False
    inside = list(ir.walk(n.a))
    quotient = any(isinstance(q, ir.BinOp) and q.op == "div" and isinstance(q.b, ir.Const) and
                   isinstance(q.b.value, int) and q.b.value > 1 for q in inside)
    return quotient and all(not isinstance(v, (ir.RVar, ir.Call)) and (not isinstance(v, ir.Var) or v.name in pure)
                            for v in inside)


def periodic_offsets(c: ir.Call, pure: set[str]) -> list[ir.Expr]:
    """The periodic offsets in c's coordinates (of the variables `pure`), one a structure; none where a coordinate
    picks between values (a boundary condition's select or clamp, which edges.py and steps.py serve as written)."""
    if any(isinstance(n, (ir.Select, ir.Call)) or (isinstance(n, ir.BinOp) and n.op in ("min", "max"))
           for a in c.args for n in ir.walk(a)):
        return []
    found: dict = {}
    for a in c.args:
        for n in ir.walk(a):
            if _periodic(n, pure):
                found.setdefault(ir.structural_key(n), n)
    return list(found.values())


def _periods(f: Function, d: Definition, c: ir.Call) -> list[ir.Expr]:
    return periodic_offsets(c, set(d.pure_vars()) & set(f.args))


def _rotates(f: Function, d: Definition, c: ir.Call) -> bool:
    pure = set(d.pure_vars()) & set(f.args)
    return any(_rotation(n, pure) is not None for a in c.args for n in ir.walk(a))


def _selected(f: Function, d: Definition, spans: dict[str, tuple[int, int]], offsets: Offsets,
              values: Values, rotations: bool) -> Definition:
    """d with each read at offsets (of at most MAX_BRANCHES values in all) a select of reads."""
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        n = ir.rebuild(n, kids)
        if not (isinstance(n, ir.Call) and isinstance(n.callee, Function)):
            return n
        found = offsets(f, d, n)
        if not found:
            return _rotated(n, set(d.pure_vars()) & set(f.args), spans) if rotations else n
        taken = [values(q, spans) for q in found]
        count = 1
        for v in taken:
            count *= len(v)
        if count == 0 or count > MAX_BRANCHES:
            return n
        return _choice(n, list(zip(found, taken, strict=True)))

    return replace(d, value=ir.transform(d.value, go))


def _values(q: ir.Expr, spans: dict[str, tuple[int, int]]) -> list[int]:
    """The values offset q takes over the reader's box (its remainder's 0 .. m - 1 at most)."""
    assert isinstance(q, ir.BinOp) and isinstance(q.b, ir.Const)
    lo, hi = Bounder(spans, lambda _p: None)(q)
    return list(range(max(int(lo), 0), min(int(hi), int_value(q.b) - 1) + 1))


def _choice(c: ir.Call, periods: list[tuple[ir.Expr, list[int]]]) -> ir.Expr:
    """c read at each of the first offset's values (the others chosen inside each branch), the last value the
    default: select(q == v0, c[q := v0], select(q == v1, c[q := v1], ... c[q := vn]))."""
    if not periods:
        return c
    (q, values), rest = periods[0], periods[1:]
    key = ir.structural_key(q)

    def at(v: int) -> ir.Expr:
        def put(n: ir.Expr, kids: tuple) -> ir.Expr:
            return ir.Const(q.type, v) if ir.structural_key(n) == key else ir.rebuild(n, kids)

        args = tuple(simplify(ir.transform(a, put)) for a in c.args)  # (y + 0 as y: one tap with the plain read)
        return _choice(ir.Call(c.type, c.callee, args), rest)

    out = at(values[-1])
    for v in reversed(values[:-1]):
        out = ir.Select(c.type, ir.BinOp(BOOL, "eq", q, ir.Const(q.type, v)), at(v), out)
    return out


def _rotation(n: ir.Expr, pure: set[str]) -> tuple[ir.Var, int, int] | None:
    """(v, k, m) where n is (v + k) % m or (v - k) % m of a variable of `pure`, k no multiple of m, 1 < m <=
    MAX_BRANCHES; else None."""
    if not (isinstance(n, ir.BinOp) and n.op == "mod" and isinstance(n.b, ir.Const) and isinstance(n.b.value, int)
            and 1 < n.b.value <= MAX_BRANCHES and isinstance(n.a, ir.BinOp) and n.a.op in ("add", "sub")):
        return None
    v, k = n.a.a, n.a.b
    if n.a.op == "add" and isinstance(v, ir.Const):
        v, k = k, v
    if not (isinstance(v, ir.Var) and v.name in pure and isinstance(k, ir.Const) and isinstance(k.value, int)):
        return None
    shift = k.value if n.a.op == "add" else -k.value
    return (v, shift, n.b.value) if shift % n.b.value else None


def _rotated(c: ir.Call, pure: set[str], spans: dict[str, tuple[int, int]]) -> ir.Expr:
    """c with its first rotated index (`_rotation`) read at the constant each remainder of its variable gives,
    chosen by that remainder (the module's notes), where the variable spans at most one period (a pixel's planes);
    c as written where it has none, or picks between values."""
    if any(isinstance(n, (ir.Select, ir.Call)) or (isinstance(n, ir.BinOp) and n.op in ("min", "max"))
           for a in c.args for n in ir.walk(a)):
        return c
    found = next(((n, rot) for a in c.args for n in ir.walk(a) if (rot := _rotation(n, pure)) is not None), None)
    if found is None or found[1][0].name not in spans:
        return c
    q, (v, shift, m) = found
    lo, hi = spans[v.name]
    if hi - lo + 1 > m:  # over more than a period (a RAM's bins started at `in((b + 1) % 8)`): as written
        return c
    remainders = sorted({u % m for u in range(lo, hi + 1)})
    key = ir.structural_key(q)

    def at(r: int) -> ir.Expr:
        def put(n: ir.Expr, kids: tuple) -> ir.Expr:
            return ir.Const(q.type, (r + shift) % m) if ir.structural_key(n) == key else ir.rebuild(n, kids)

        return ir.Call(c.type, c.callee, tuple(simplify(ir.transform(a, put)) for a in c.args))

    rem = ir.BinOp(v.type, "mod", v, ir.Const(v.type, m))
    out = at(remainders[-1])
    for r in reversed(remainders[:-1]):
        out = ir.Select(c.type, ir.BinOp(BOOL, "eq", rem, ir.Const(v.type, r)), at(r), out)
    return out
