"""An ImageParam's min and extent once `dim(i).set_bounds` fixes them: constants in the definitions and in the
bounds of RDoms over the image (`RDom(input)`, `RDom(0, input.width())`), as Halide substitutes an image's
constraints when it lowers, whether they were given before or after the RDom was made."""

from __future__ import annotations

from . import ir
from .bounds import Bounder
from .params import Parameter


def bounded_shape(n: ir.Expr) -> ir.Const | None:
    """The constant a read of an image's min or extent is, if `dim(i).set_bounds` gave it."""
    if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and n.callee.kind == "shape":
        image, what, i = n.callee.owner
        if i in image._bounds:
            return ir.Const(n.type, image._bounds[i][0 if what == "min" else 1])
    return None


def _constant(e: ir.Expr) -> ir.Expr:
    """e with its bounded image sizes as constants, folded to one constant where nothing else is unknown."""
    e = ir.transform(e, lambda n, kids: bounded_shape(n) or ir.rebuild(n, kids))
    if isinstance(e, ir.Const) or any(isinstance(n, ir.Call) for n in ir.walk(e)):
        return e
    lo, hi = Bounder({}, lambda p: None)(e)
    return ir.Const(e.type, lo) if lo == hi else e


def bounded_rdom(rdom: ir.ReductionDomain, memo: dict[int, ir.ReductionDomain]) -> ir.ReductionDomain:
    """rdom with the image sizes its bounds read made constant (itself if none is bounded), once per domain."""
    got = memo.get(id(rdom))
    if got is None:
        dims = tuple((name, _constant(lo), _constant(ext)) for name, lo, ext in rdom.dims)
        same = all(a is b for dim, new in zip(rdom.dims, dims) for a, b in zip(dim[1:], new[1:]))
        got = memo[id(rdom)] = rdom if same else ir.ReductionDomain(rdom.name, dims, rdom.predicates, rdom.used)
    return got


def rebind_rvars(e: ir.Expr, memo: dict[int, ir.ReductionDomain]) -> ir.Expr:
    """e with each RVar of a domain that `bounded_rdom` made again pointing at the new domain (e itself if none)."""
    if all(bounded_rdom(n.domain, memo) is n.domain for n in ir.walk(e) if isinstance(n, ir.RVar)):
        return e

    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.RVar):
            return ir.RVar(n.type, n.name, bounded_rdom(n.domain, memo), n.index)
        return ir.rebuild(n, kids)

    return ir.transform(e, go)
