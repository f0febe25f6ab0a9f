"""Halide's `f.update(k).rfactor(r.y, v)`: an associative reduction split into an intermediate Func of partial
results over the preserved RVars (made pure Vars) and the update reducing those partial results.

`f(x) += e(x, r.x, r.y)` with `rfactor(r.y, v)` becomes
    f_intm(x, v) = 0;  f_intm(x, v) += e(x, r.x, v)     (over r.x: the RVars not preserved)
    f(x) += f_intm(x, r.y)                               (over r.y)
An algorithm rewrite: the reference and the hardware both see the two Funcs. On the accelerator the partial
results are parallel lanes when the intermediate's v is unrolled, summed by the update's unrolled r.y."""

from __future__ import annotations

from . import ir
from .errors import HalideError, user_location
from .func import Definition, Func, Function
from .schedule import Dim, Split, StageSchedule
from .types import BOOL, I32, Type
from .vars import RVar, Var

# The reductions rfactor accepts: f = f op e, e not reading f; the identity starts each partial result.
_IDENTITY = {"add": lambda t: 0, "mul": lambda t: 1, "min": lambda t: t.max(), "max": lambda t: t.min()}


def rfactor(fn: Function, index: int, args: tuple) -> Func:
    loc = user_location()
    stage = f"{fn.name}.update({index - 1})"
    pairs = _pairs(args, stage)
    d = fn.definitions[index]
    op, term = _reduction(fn, d, stage)
    if d.schedule.directives and not any(len(p.schedule.directives) for p in fn.definitions[index + 1:]):
        d, term = _split_rvars(d, term, op, fn.type)
    rdom = d.rdom
    names = [n for n, _, _ in rdom.dims]
    for rv, v in pairs:
        if rv not in names:
            raise HalideError(f"{loc}: {stage}.rfactor({rv}, {v}): {rv} is not a dimension of the update's RDom "
                              f"{rdom.name} ({', '.join(names)}); name one of them")
        if v in fn.args or [p[1] for p in pairs].count(v) > 1:
            raise HalideError(f"{loc}: {stage}.rfactor({rv}, {v}): the new Var {v} is already a dimension of "
                              f"'{fn.name}' or named twice; use a fresh Var for each preserved RVar")
    if d.schedule.directives or any(len(p.schedule.directives) for p in fn.definitions[index + 1:]):
        raise HalideError(f"{loc}: {stage}.rfactor: call rfactor before the stage's other schedule calls (it "
                          f"rebuilds the stage's loops; splits of its RVars alone may come first); move it before "
                          f"{stage}'s reorders, unrolls and splits of pure Vars")
    to_var = dict(pairs)
    kept = [k for k, n in enumerate(names) if n not in to_var]
    intm = Func(f"{fn.name}_intm")._fn
    intm.loc = loc
    pure = tuple(ir.Var(I32, n) for n in (*fn.args, *(v for _, v in pairs)))
    rest = _subdomain(rdom, kept, f"{rdom.name}_intm")
    moved = {n: ir.Var(I32, to_var[n]) for n in to_var}
    moved |= {names[k]: ir.RVar(I32, names[k], rest, j) for j, k in enumerate(kept)} if rest else {}
    partial = ir.substitute(term, moved)
    if rest is None:  # every RVar preserved: each partial result is one term
        intm.definitions = [Definition(pure, partial, None, loc, _stage(d.schedule, pure, to_var, None))]
    else:
        t = fn.type
        intm.definitions = [
            Definition(pure, ir.Const(t, _IDENTITY[op](t)), None, loc, _stage(None, pure, {}, None)),
            Definition(pure, ir.BinOp(t, op, ir.Call(t, intm, pure), partial), rest, loc,
                       _stage(d.schedule, pure, to_var, rest)),
        ]
    outer = _subdomain(rdom, [names.index(rv) for rv, _ in pairs], rdom.name)
    assert outer is not None
    reads = tuple(d.args) + tuple(ir.RVar(I32, rv, outer, j) for j, (rv, _) in enumerate(pairs))
    value = ir.BinOp(fn.type, op, ir.Call(fn.type, fn, d.args), ir.Call(fn.type, intm, reads))
    fn.definitions[index] = Definition(d.args, value, outer, d.loc, _stage(d.schedule, d.args, {}, outer))
    assert intm.handle is not None
    return intm.handle


def _split_rvars(d: Definition, term: ir.Expr, op: str, t: Type) -> tuple[Definition, ir.Expr]:
    """The update with each split of an RVar (its only schedule calls) made two dimensions of its RDom, inner
    first: r.x = min + outer * factor + inner, a point past the extent (a factor that does not divide it: Halide
    guards an RVar's split) folding in the identity. Unchanged if the stage has other calls (refused above)."""
    dims = list(d.rdom.dims)
    made: dict[str, tuple[str, str, int, ir.Expr]] = {}  # a split RVar: its outer and inner, factor, min
    guards: list[tuple[str, int]] = []  # a split RVar whose factor does not divide its extent n
    for s in d.schedule.directives:
        at = next((i for i, (n, _, _) in enumerate(dims) if n == s.old), None) if isinstance(s, Split) else None
        if not isinstance(s, Split) or at is None or not isinstance(dims[at][2], ir.Const):
            return d, term
        name, lo, extent = dims[at]
        n = extent.value
        dims[at:at + 1] = [(s.inner, ir.Const(I32, 0), ir.Const(I32, s.factor)),
                           (s.outer, ir.Const(I32, 0), ir.Const(I32, -(-n // s.factor)))]
        made[name] = (s.outer, s.inner, s.factor, lo)
        if n % s.factor:
            guards.append((name, n))
    rdom = ir.ReductionDomain(d.rdom.name, tuple(dims))
    rdom.used.append("rfactor")
    rv = {n: ir.RVar(I32, n, rdom, k) for k, (n, _, _) in enumerate(dims)}

    def value_of(name: str) -> ir.Expr:  # a split RVar in terms of the new domain's, splits of splits too
        if name in rv:
            return rv[name]
        outer, inner, f, lo = made[name]
        return ir.BinOp(I32, "add", ir.BinOp(I32, "add", lo, ir.BinOp(I32, "mul", value_of(outer),
                                                                        ir.Const(I32, f))), value_of(inner))

    # Past the extent the term reads at the last point (bounds stay the RDom's, as Halide's guard keeps them),
    # and folds in the identity.
    last = {name: ir.BinOp(I32, "min", value_of(name), ir.BinOp(I32, "add", made[name][3], ir.Const(I32, n - 1)))
            for name, n in guards}
    moved = ir.substitute(term, {n: last.get(n, value_of(n)) for n, _, _ in d.rdom.dims})
    for name, n in guards:
        outer, inner, f, _ = made[name]
        inside = ir.BinOp(BOOL, "lt", ir.BinOp(I32, "add", ir.BinOp(I32, "mul", value_of(outer), ir.Const(I32, f)),
                                                 value_of(inner)), ir.Const(I32, n))
        moved = ir.Select(t, inside, moved, ir.Const(t, _IDENTITY[op](t)))
    stage = StageSchedule(list(d.schedule.dims), [], dict(d.schedule.aliases))
    return Definition(d.args, d.value, rdom, d.loc, stage), moved


def _pairs(args: tuple, stage: str) -> list[tuple[str, str]]:
    """rfactor(r, v) or rfactor([(r, v), ...]) as (RVar name, Var name) pairs."""
    items = [tuple(args)] if len(args) == 2 else list(args[0]) if len(args) == 1 and isinstance(
        args[0], (list, tuple)) else None
    if not items or not all(len(p) == 2 and isinstance(p[0], RVar) and isinstance(p[1], Var) for p in items):
        raise HalideError(f"{user_location()}: {stage}.rfactor takes an RVar and the Var that replaces it, or a "
                          f"list of such pairs: e.g. rfactor(r.y, v) or rfactor([(r.y, v)])")
    return [(rv.name(), v.name()) for rv, v in items]


def _reduction(fn: Function, d: Definition, stage: str) -> tuple[str, ir.Expr]:
    """The update's operator and the term it folds in: `f(args) op term`, in either order."""
    v = d.value
    own = ir.structural_key(ir.Call(fn.type, fn, d.args))
    pure = all(isinstance(a, ir.Var) and a.name == n for a, n in zip(d.args, fn.args))
    if d.rdom is not None and pure and isinstance(v, ir.BinOp) and v.op in _IDENTITY:
        for mine, other in ((v.a, v.b), (v.b, v.a)):
            if ir.structural_key(mine) == own and not any(
                    isinstance(n, ir.Call) and n.callee is fn for n in ir.walk(other)):
                return v.op, other
    at = f"{fn.name}({', '.join(fn.args)})"
    raise HalideError(
        f"{user_location()}: {stage}.rfactor: this update of '{fn.name}' is not an associative reduction rfactor "
        f"can split: it must fold a term into the element it updates ({at} = {at} op term, op one of +, *, min, "
        f"max, over an RDom, the term not reading '{fn.name}'); unroll the RDom's RVars instead (their steps then "
        f"run in parallel, combined in a tree of PEs)")


def _subdomain(rdom: ir.ReductionDomain, dims: list[int], name: str) -> ir.ReductionDomain | None:
    if not dims:
        return None
    sub = ir.ReductionDomain(name, tuple(rdom.dims[k] for k in dims))
    sub.used.append("rfactor")
    return sub


def _stage(old: StageSchedule | None, args: tuple, to_var: dict[str, str],
           rdom: ir.ReductionDomain | None) -> StageSchedule:
    """The stage's loops, innermost first: the old stage's with each preserved RVar now its pure Var (where
    Halide puts it), RVars of no domain dropped, and pure Vars not looped yet outermost."""
    keep = {n for n, _, _ in rdom.dims} if rdom is not None else set()
    pure = [a.name for a in args if isinstance(a, ir.Var)]
    dims: list[Dim] = []
    for dim in old.dims if old is not None else []:
        name = to_var.get(dim.name, dim.name)
        if name in to_var.values() or name in pure:
            dims.append(Dim(name, False))
        elif dim.is_rvar and name in keep:
            dims.append(Dim(name, True))
    dims += [Dim(n, False) for n in pure if n not in {x.name for x in dims}]
    return StageSchedule(dims)
