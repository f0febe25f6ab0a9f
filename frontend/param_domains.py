"""An RDom whose bounds read scalar Params that have a range (`p.set_range(1, 4)`, Halide's promise that the
value lies there): `RDom(0, p)` runs, in hardware, over the widest domain the ranges allow, each point guarded by
its place inside the Param's domain,

    f(x) += g(x + r.x)        over RDom(0, p), p in [1, 4]
    f(x) = select(r.x < p, f(x) + g(x + r.x), f(x))        over RDom(0, 4)

as RDom.where folds a predicate (define.py). The Param stays a configuration input, so the design computes what
Halide computes for any value in the range; a value outside it is refused when the design runs
(`check_param_ranges`, with the message Halide's generated code gives). The rewrite works on copies of the
user's Funcs (fuse_outputs.copy_funcs), so the program, and its realize, stay as written. A Param without a
range, or a bound that no range bounds, is left as written, and bounds inference refuses it."""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING

from . import ir
from .bounds import Bounder
from .define import predicated_value
from .errors import HalideError
from .func import Definition, Function, handle_of
from .fuse_outputs import copy_funcs
from .params import Parameter
from .types import BOOL, I32

if TYPE_CHECKING:
    from .pipeline import Pipeline


def bound_param_domains(pipe: Pipeline) -> Pipeline | None:
    """The pipeline (on copies of its Funcs) with each RDom whose bounds read ranged Params over its widest
    domain, its updates guarded; None if there is none."""
    from .pipeline import Pipeline

    if not any(_widened(d.rdom) for f in pipe.order for d in pipe.definitions(f)):
        return None
    made = copy_funcs(pipe)
    domains: dict[int, tuple[ir.ReductionDomain, ir.Expr]] = {}
    for f in pipe.order:
        g = made[id(f)]
        g.definitions = [_guarded(g, d, domains) for d in g.definitions]
    return Pipeline([handle_of(made[id(f)]) for f in pipe.given], pipe.tuples_whole)


def check_param_ranges(pipe: Pipeline, params: dict) -> None:
    """Refuse a value of a Param outside its range, as Halide's generated code does (its loops over the Param's
    domain are sized by the range)."""
    for name, p in sorted(pipe.scalars.items()):
        owner, v = p.owner, params.get(name)
        if p.kind != "scalar" or v is None or not hasattr(owner, "min_value"):
            continue
        lo, hi = owner.min_value(), owner.max_value()
        if lo is not None and v < lo:
            raise HalideError(f"Parameter {name} of value {v} is less than the minimum {lo}: its set_range promises "
                              f"[{lo}, {_shown(hi)}], which the design's loops are sized by; give a value in it")
        if hi is not None and v > hi:
            raise HalideError(f"Parameter {name} of value {v} is greater than the maximum {hi}: its set_range "
                              f"promises [{_shown(lo)}, {hi}], which the design's loops are sized by; give a value "
                              "in it")


def range_hint(dom: ir.ReductionDomain) -> str:
    """How a refusal of `dom`'s Param bounds ends: the range the first Param without one could be given."""
    names = [p.name for _, lo, ext in dom.dims for e in (lo, ext) for p in _reads(e)
             if p.kind == "scalar" and _ranged(p) is None]
    if not names:
        return ""
    return (f", or give {names[0]} the range its value stays in ({names[0]}.set_range(0, 8)): the loops then run "
            f"over the widest domain it allows, each step guarded by {names[0]}")


def _shown(v: int | None) -> str:
    return "..." if v is None else str(v)


def _ranged(p: Parameter) -> tuple[int, int] | None:
    owner = p.owner
    if p.kind != "scalar" or not hasattr(owner, "min_value"):
        return None
    lo, hi = owner.min_value(), owner.max_value()
    return None if lo is None or hi is None else (lo, hi)


def _reads(e: ir.Expr) -> list[Parameter]:
    return [n.callee for n in ir.walk(e) if isinstance(n, ir.Call) and isinstance(n.callee, Parameter)]


def _widened(dom: ir.ReductionDomain | None) -> list[tuple[str, int, int, ir.Expr, ir.Expr]] | None:
    """For a domain whose bounds read Params, all ranged (and nothing else that is not constant): per dimension
    (rvar name, widest min, widest extent, min, extent as written); else None."""
    if dom is None:
        return None
    reads = [p for _, lo, ext in dom.dims for e in (lo, ext) for p in _reads(e)]
    if not reads or any(_ranged(p) is None for p in reads):
        return None
    env = {f"$param.{p.name}": r for p in reads if (r := _ranged(p)) is not None}
    b = Bounder(env, lambda _p: None)
    out = []
    for name, lo, ext in dom.dims:
        first = b(_as_vars(lo))[0]
        end = b(_as_vars(ir.BinOp(I32, "add", lo, ext)))[1]
        out.append((name, first, max(end - first, 0), lo, ext))
    return out


def _as_vars(e: ir.Expr) -> ir.Expr:
    """e with its Param reads variables of the Bounder's environment (their ranges)."""
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and not n.args:
            return ir.Var(n.type, f"$param.{n.callee.name}")
        return ir.rebuild(n, kids)

    return ir.transform(e, go)


def _guarded(fn: Function, d: Definition, domains: dict[int, tuple[ir.ReductionDomain, ir.Expr]]) -> Definition:
    dom = d.rdom
    wide = _widened(dom)
    if dom is None or wide is None:
        return d
    if id(dom) not in domains:
        dims = tuple((n, ir.Const(I32, lo), ir.Const(I32, ext)) for n, lo, ext, _, _ in wide)
        new = ir.ReductionDomain(dom.name, dims, [], dom.used)
        conds = []
        for i, (name, lo, _ext, min_, extent) in enumerate(wide):
            rv = ir.RVar(I32, name, new, i)
            if not isinstance(min_, ir.Const) or min_.value != lo:
                conds.append(ir.BinOp(BOOL, "ge", rv, min_))
            conds.append(ir.BinOp(BOOL, "lt", rv, ir.BinOp(I32, "add", min_, extent)))
        domains[id(dom)] = (new, functools.reduce(lambda a, b: ir.BinOp(BOOL, "and", a, b), conds))
    new, cond = domains[id(dom)]
    args = tuple(_over(a, dom, new) for a in d.args)
    value = predicated_value(fn, args, _over(d.value, dom, new), cond)
    return dataclasses.replace(d, args=args, value=value, rdom=new)


def _over(e: ir.Expr, dom: ir.ReductionDomain, new: ir.ReductionDomain) -> ir.Expr:
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.RVar) and n.domain is dom:
            return ir.RVar(n.type, n.name, new, n.index)
        return ir.rebuild(n, kids)

    return ir.transform(e, go)
