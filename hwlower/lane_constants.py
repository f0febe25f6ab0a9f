"""Pass `hold_lane_constants`: each largest part of an op's value computed from one coordinate that is constant in
each lane (it moves only with unrolled loops: a plane `k` of `scaled(k, x, y) = in(x, y) * w(k) + k` unrolled over
k) and constants becomes a coordinate read through that part (`CoordPort.fn`).

The kernel is one module duplicated per lane, so it computed `w(k) = k * 2 + 1` from the lane's counter in every
lane, in PEs; read through `fn`, the counter holds each lane's value (memories/coordinates.py evaluates `fn` at the
lane's coordinate), a constant of the lane that costs no PE. It runs after the loops are final (narrow.py may
turn an unrolled loop of x into a serial one) and after host tiles gave coordinates their offsets (a coordinate
that moves from tile to tile is not a constant). A select on a lane's constant condition between a product with a
lane's constant factor and 0 (a tap a `where` or a guard skips in some lanes) becomes the product with the factor
or 0 as the lane's constant: the select costs no PE. A select on a lane's constant condition between values alike
but for constants (a colour matrix's rows, one a plane) becomes one value with the lane's constants where they
differ, and where they differ in reads, one select of the reads (`_selects_into_constants`).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.types import Int

from .ir import CoordPort, Loop, Op
from .simplify import simplify
from .state import Lowering


def hold_lane_constants(s: Lowering) -> Lowering:
    """Read each op's parts computed from a lane's constant coordinate alone through that coordinate's counter."""
    nest = s.built_nest
    return replace(s, nest=replace(nest, body=tuple(_nodes(nest.body, ()))))


def _nodes(nodes: tuple[Loop | Op, ...], loops: tuple[Loop, ...]) -> list[Loop | Op]:
    out: list[Loop | Op] = []
    for n in nodes:
        if isinstance(n, Loop):
            out.append(replace(n, body=tuple(_nodes(n.body, loops + (n,)))))
            continue
        unrolled = {lp.var: (lp.min, lp.extent) for lp in loops if lp.unrolled}
        value, coords = fold_lane_constants(n.value, n.coords, n.scatter + n.lookup, unrolled)
        out.append(n if value is n.value else replace(n, value=value, coords=coords))
    return out


def fold_lane_constants(value: ir.Expr, coords: tuple[CoordPort, ...], others: tuple[ir.Expr, ...],
                        unrolled: dict[str, tuple[int, int]]) -> tuple[ir.Expr, tuple[CoordPort, ...]]:
    """`value` with its per-lane constant parts read through coordinates of their own, and the coordinates the
    value and `others` (the op's computed addresses, left as they are) read. `unrolled`: the op's unrolled loops,
    each's (min, extent)."""
    lanes = {id(c): c for c in coords if _lane_values(c, unrolled) is not None}
    if not lanes:
        return value, coords
    source = _sources(value, lanes)
    for rewrite in (_selects_into_constants, _selects_into_factors):
        rewritten = rewrite(value, lanes)
        if rewritten is not value:
            value, source = rewritten, _sources(rewritten, lanes)
    made: dict[tuple, CoordPort] = {}

    def visit(n: ir.Expr, kids: tuple) -> ir.Expr:
        src = source[id(n)]
        if src is None or src == -1 or isinstance(n, ir.Call):
            return ir.rebuild(n, kids)
        c = lanes[src]
        fn = _over_var(n, c)
        if not all(isinstance(simplify(ir.substitute(fn, {c.var: ir.i32(v)})), ir.Const)
                   for v in _lane_values(c, unrolled) or ()):
            return ir.rebuild(n, kids)
        key = (src, ir.structural_key(fn))
        if key not in made:
            made[key] = CoordPort(f"{c.name}_f{len(made)}", c.value, c.reduction, c.var, (), fn)
        return ir.Call(n.type, made[key], ())

    out = ir.transform(value, visit)
    used = {id(n.callee) for e in (out,) + others for n in ir.walk(e) if isinstance(n, ir.Call)}
    kept = tuple(c for c in coords if id(c) in used) + tuple(c for c in made.values() if id(c) in used)
    return out, kept


def _sources(value: ir.Expr, lanes: dict[int, CoordPort]) -> dict[int, int | None]:
    """Each node -> the one lane-constant coordinate it reads (-1: none, a constant), None: not a lane constant."""
    source: dict[int, int | None] = {}
    for n in ir.walk(value):
        source[id(n)] = _source(n, source, lanes)
    return source


def _selects_into_constants(value: ir.Expr, lanes: dict[int, CoordPort]) -> ir.Expr:
    """Each select on a lane's constant condition between two values alike in part as the one value with a select
    where they differ, when that takes fewer ops: a select between constants of the lane (of the condition's
    coordinate) is a constant of the lane, which costs no PE. Per-plane rows of a colour matrix, `select(c == 0,
    (218 * r + 33 * g + 5 * b) >> 8, c == 1, (20 * r + ...) >> 8, ...)` unrolled over c, computed every row in each
    lane: 20 PEs a lane, where a row's 6 do (the coefficients each lane's own); `select(c == 1, 128 + (b >> 1), 128
    + (r >> 1))` is `128 + (select(c == 1, b, r) >> 1)`, 3 ops for 5 (sides that differ in more than constants and
    reads stay apart). Exact: the parts alike compute the same value
    whichever side the select takes. (The kernel is one module for every lane: a lane cannot drop another's plane.)"""
    source: dict[int, int | None] = {}
    alive: list[ir.Expr] = []  # the rewritten nodes stay alive while their ids key `source`

    def port(n: ir.Expr) -> int | None:
        if id(n) not in source:
            for k in ir.children(n):
                port(k)
            source[id(n)] = _source(n, source, lanes)
            alive.append(n)
        return source[id(n)]

    def merged(a: ir.Expr, b: ir.Expr, cond: ir.Expr) -> ir.Expr | None:
        kids_a, kids_b = ir.children(a), ir.children(b)
        if a.type != b.type:
            return None
        if ir.structural_key(a) == ir.structural_key(b):
            return a
        if port(a) is not None and port(b) is not None:
            return ir.Select(a.type, cond, a, b) if len({port(a), port(b), port(cond)} - {-1}) <= 1 else None
        if isinstance(a, ir.Call) and isinstance(b, ir.Call):
            return ir.Select(a.type, cond, a, b)  # one op, where each side's ops were
        if (type(a) is not type(b) or len(kids_a) != len(kids_b) or not kids_a or isinstance(a, ir.Call)
                or ir.structural_key(ir.rebuild(a, kids_b)) != ir.structural_key(b)):
            # computed sides stay apart: a select of two sums is wider than either (32-bit ops of 2 PEs, a stage
            # more: RGB to planar YUV at 2 lanes took 30 ops a lane for 29, 48 cycles for 40)
            return None
        kids = [merged(ka, kb, cond) for ka, kb in zip(kids_a, kids_b)]
        return None if any(k is None for k in kids) else ir.rebuild(a, tuple(k for k in kids if k is not None))

    def ops(e: ir.Expr) -> int:
        """The PEs e takes: its distinct nodes that compute, lane constants and reads aside."""
        return len({ir.structural_key(n) for n in ir.walk(e)
                    if not isinstance(n, (ir.Const, ir.Var, ir.RVar, ir.Call)) and port(n) is None})

    def visit(n: ir.Expr, kids: tuple) -> ir.Expr:
        m = ir.rebuild(n, kids)
        if not isinstance(m, ir.Select) or port(m.cond) is None:
            return m
        one = merged(m.true_value, m.false_value, m.cond)
        return m if one is None or ops(one) >= ops(m) else one

    return ir.transform(value, visit, {})


def _selects_into_factors(value: ir.Expr, lanes: dict[int, CoordPort]) -> ir.Expr:
    """Each select(c, a * k, 0) whose c and k are constants of the lane (of one coordinate) as a * select(c, k, 0):
    the select goes into the lane's constant factor, which costs no PE (a guarded tap of rfactor with `where`
    lanes, `select(v + 1 != 2, in * 3, 0)`: lane v's factor is 3 or 0). Exact: a * 0 is 0 in wrapping arithmetic."""
    source = _sources(value, lanes)

    def visit(n: ir.Expr, kids: tuple) -> ir.Expr:
        m = ir.rebuild(n, kids)
        if not isinstance(n, ir.Select) or source[id(n.cond)] is None:
            return m
        assert isinstance(m, ir.Select)
        for keep, other, new_other in ((n.true_value, n.false_value, m.false_value),
                                       (n.false_value, n.true_value, m.true_value)):
            if not (isinstance(keep, ir.Const) and keep.value == 0 and isinstance(other, ir.BinOp)
                    and other.op == "mul" and isinstance(new_other, ir.BinOp)):
                continue
            for k, a, new_a in ((other.b, other.a, new_other.a), (other.a, other.b, new_other.b)):
                ports = {source[id(n.cond)], source[id(k)]} - {-1}
                if source[id(k)] is not None and source[id(a)] is None and len(ports) <= 1:
                    first, second = (k, keep) if keep is n.false_value else (keep, k)
                    return ir.BinOp(m.type, "mul", new_a, ir.Select(m.type, n.cond, first, second))
        return m

    return ir.transform(value, visit, {})


def lane_value(c: CoordPort, coordinate: int) -> int:
    """What a lane reads through coordinate port `c` where the coordinate is `coordinate`."""
    if c.fn is None:
        return coordinate
    v = simplify(ir.substitute(c.fn, {c.var: ir.i32(coordinate)}))
    assert isinstance(v, ir.Const), f"{c.name}: {ir.to_string(c.fn)} does not fold at {c.var} = {coordinate}"
    return int(v.value)


def _lane_values(c: CoordPort, unrolled: dict[str, tuple[int, int]]) -> list[int] | None:
    """The coordinate's value in each lane, or None if it moves with a loop that is not unrolled (or with host
    tiles, or is read through a function already)."""
    terms = dict(c.value.terms)
    if c.fn is not None or c.tile_offsets or not set(terms) <= set(unrolled):
        return None
    names = sorted(terms)
    return [c.value.const + sum(terms[v] * i for v, i in zip(names, at))
            for at in itertools.product(*(range(unrolled[v][0], sum(unrolled[v])) for v in names))]


def _source(n: ir.Expr, source: dict[int, int | None], lanes: dict[int, CoordPort]) -> int | None:
    if isinstance(n, ir.Const):
        return -1
    if isinstance(n, ir.Call):
        return id(n.callee) if id(n.callee) in lanes and not n.args else None
    if isinstance(n, (ir.Var, ir.RVar, ir.MathCall)):
        return None
    kids = {source[id(k)] for k in ir.children(n)}
    if None in kids:
        return None
    ports = kids - {-1}
    return ports.pop() if len(ports) == 1 else -1 if not ports else None


def _over_var(n: ir.Expr, c: CoordPort) -> ir.Expr:
    """n with its reads of coordinate c written as the Var c.var."""
    var = ir.Var(Int(32), c.var)

    def visit(m: ir.Expr, kids: tuple) -> ir.Expr:
        return var if isinstance(m, ir.Call) and m.callee is c else ir.rebuild(m, kids)

    return ir.transform(n, visit)
