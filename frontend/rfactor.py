"""Halide's `f.update(k).rfactor(r.y, v)`: an associative reduction split into an intermediate Func of partial
results over the preserved RVars (made pure Vars) and the update reducing those partial results.

`f(x) += e(x, r.x, r.y)` with `rfactor(r.y, v)` becomes
    f_intm(x, v) = 0;  f_intm(x, v) += e(x, r.x, v)     (over r.x: the RVars not preserved)
    f(x) += f_intm(x, r.y)                               (over r.y)
An algorithm rewrite: the reference and the hardware both see the two Funcs. On the accelerator the partial
results are parallel lanes when the intermediate's v is unrolled, summed by the update's unrolled r.y. The stage's
schedule calls before rfactor go to both stages as Halide 21 carries them (splits of its RVars become dimensions
of the RDom)."""

from __future__ import annotations

from . import ir
from .errors import HalideError, user_location
from .func import Definition, Func, Function
from .schedule import Dim, Directive, ForType, Fuse, Reorder, Split, StageSchedule
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
    _check_fuses(d, stage, pairs[0][1])
    d, term = _split_rvars(d, term, op, fn.type, stage)
    rdom = d.rdom
    names = [n for n, _, _ in rdom.dims]
    for rv, v in pairs:
        if rv not in names:
            raise HalideError(f"{loc}: {stage}.rfactor({rv}, {v}): {rv} is not a dimension of the update's RDom "
                              f"{rdom.name} ({', '.join(names)}); name one of them")
        if v in fn.args or v in d.schedule.dim_names() or [p[1] for p in pairs].count(v) > 1:
            raise HalideError(f"{loc}: {stage}.rfactor({rv}, {v}): the new Var {v} is already a dimension of "
                              f"'{fn.name}' or named twice; use a fresh Var for each preserved RVar")
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
        intm.definitions = [Definition(pure, partial, None, loc, _intm_stage(d.schedule, to_var))]
    else:
        t = fn.type
        intm.definitions = [
            Definition(pure, ir.Const(t, _IDENTITY[op](t)), None, loc,
                       StageSchedule([Dim(a.name, False) for a in pure])),
            Definition(pure, ir.BinOp(t, op, ir.Call(t, intm, pure), partial), rest, loc,
                       _intm_stage(d.schedule, to_var)),
        ]
    outer = _subdomain(rdom, [names.index(rv) for rv, _ in pairs], rdom.name)
    assert outer is not None
    reads = tuple(d.args) + tuple(ir.RVar(I32, rv, outer, j) for j, (rv, _) in enumerate(pairs))
    value = ir.BinOp(fn.type, op, ir.Call(fn.type, fn, d.args), ir.Call(fn.type, intm, reads))
    fn.definitions[index] = Definition(d.args, value, outer, d.loc, _merged_stage(d.schedule, to_var, set(names)))
    assert intm.handle is not None
    return intm.handle


def _check_fuses(d: Definition, stage: str, v: str) -> None:
    """A fuse of an RVar before rfactor is refused: the fused loop is no dimension of the RDom rfactor splits."""
    assert d.rdom is not None
    rvars = {n.name for n in d.schedule.dims if n.is_rvar} | {n for n, _, _ in d.rdom.dims}
    for s in d.schedule.directives:
        if isinstance(s, Fuse) and (s.inner in rvars or s.outer in rvars):
            inner, outer, fused = (n.replace("$", ".") for n in (s.inner, s.outer, s.fused))
            raise HalideError(
                f"{s.loc}: {stage}.rfactor: the stage fuses RVar loops ({inner} and {outer} into {fused}) before "
                f"rfactor, which takes the RDom's RVars apart; rfactor one of them instead (e.g. rfactor({outer}, "
                f"{v})) and schedule the intermediate after it (splits, reorders, unrolls and fuses of pure Vars "
                f"may come before rfactor)")


def _split_rvars(d: Definition, term: ir.Expr, op: str, t: Type, stage: str) -> tuple[Definition, ir.Expr]:
    """The update with each split of an RVar made two dimensions of its RDom, inner first (its other schedule calls
    kept): r.x = min + outer * factor + inner, a point past the extent (a factor that does not divide it: Halide
    guards an RVar's split) folding in the identity."""
    assert d.rdom is not None
    dims = list(d.rdom.dims)
    made: dict[str, tuple[str, str, int, ir.Expr]] = {}  # a split RVar: its outer and inner, factor, min
    guards: list[tuple[str, int]] = []  # a split RVar whose factor does not divide its extent n
    others: list[Directive] = []
    for s in d.schedule.directives:
        at = next((i for i, (n, _, _) in enumerate(dims) if n == s.old), None) if isinstance(s, Split) else None
        if at is None:
            others.append(s)
            continue
        name, lo, extent = dims[at]
        if not isinstance(extent, ir.Const):
            raise HalideError(f"{s.loc}: {stage}.rfactor: the split RVar {name} has an extent known only at run time "
                              f"({ir.to_string(extent)}); rfactor needs the split's parts as RDom dimensions: give "
                              f"the RDom a constant extent, or call rfactor before splitting {name}")
        n = extent.value
        dims[at:at + 1] = [(s.inner, ir.Const(I32, 0), ir.Const(I32, s.factor)),
                           (s.outer, ir.Const(I32, 0), ir.Const(I32, -(-n // s.factor)))]
        made[name] = (s.outer, s.inner, s.factor, lo)
        if n % s.factor:
            guards.append((name, n))
    if not made:
        return d, term
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
    end = {name: ir.BinOp(I32, "add", made[name][3], ir.Const(I32, n)) for name, n in guards}
    last = {name: ir.BinOp(I32, "min", value_of(name), ir.BinOp(I32, "sub", end[name], ir.Const(I32, 1)))
            for name in end}
    moved = ir.substitute(term, {n: last.get(n, value_of(n)) for n, _, _ in d.rdom.dims})
    for name, past in end.items():
        moved = ir.Select(t, ir.BinOp(BOOL, "lt", value_of(name), past), moved, ir.Const(t, _IDENTITY[op](t)))
    stage_ = StageSchedule(list(d.schedule.dims), others, dict(d.schedule.aliases), dict(d.schedule.shadows),
                           dict(d.schedule.renamed))
    return Definition(d.args, d.value, rdom, d.loc, stage_), moved


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


def _intm_stage(old: StageSchedule, to_var: dict[str, str]) -> StageSchedule:
    """The intermediate's update scheduled as the stage was, as Halide carries it over: each preserved RVar now
    its pure Var in the RVar's place (serial: an unroll of the RVar stays with the merged stage), the other
    loops and their splits, fuses, reorders and unrolls as they were."""
    dims = [Dim(to_var[d.name], False) if d.name in to_var else Dim(d.name, d.is_rvar) for d in old.dims]
    directives: list[Directive] = []
    for s in old.directives:
        if isinstance(s, Reorder):
            directives.append(Reorder(tuple(to_var.get(n, n) for n in s.order), s.loc))
        elif not (isinstance(s, ForType) and s.var in to_var):
            directives.append(s)
    return StageSchedule(dims, directives, dict(old.aliases), dict(old.shadows), dict(old.renamed))


def _merged_stage(old: StageSchedule, to_var: dict[str, str], rvars: set[str]) -> StageSchedule:
    """The update reducing the partial results scheduled as the stage was, as Halide keeps it: its pure loops and
    preserved RVars with their schedule calls, the RVars the intermediate reduces over dropped."""
    gone = rvars - set(to_var)
    dims = [Dim(d.name, d.is_rvar) for d in old.dims if d.name not in gone]
    directives: list[Directive] = []
    for s in old.directives:
        if isinstance(s, Reorder):
            order = tuple(n for n in s.order if n not in gone)
            directives += [Reorder(order, s.loc)] if len(order) > 1 else []
        elif not (isinstance(s, ForType) and s.var in gone):
            directives.append(s)
    return StageSchedule(dims, directives, dict(old.aliases), dict(old.shadows), dict(old.renamed))
