"""An RDom over an image's size (`RDom([(0, inp.width()), (0, inp.height())])`) whose image has its bounds given
(`inp.dim(i).set_bounds(lo, extent)`, as the autoscheduler binds them): the domain with constant bounds, as the
pipeline's definitions read it. An accelerator's loops are fixed at compile time, so bounds that stay Params are
refused where loops are built; bound ones are known values there, as `_rewrite_calls` makes a definition's reads of
the image's size constants."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import ir
from .params import Parameter
from .types import I32

if TYPE_CHECKING:
    from .func import Definition

# A pipeline's bound domains: (id of the user's domain, its bounds) -> (that domain, kept alive so that its id is
# not reused while the pipeline lives; the bound one). Every definition of the pipeline over one RDom reads one
# bound domain (structural keys compare RVars by their domain); each pipeline keeps its own, so that they go with it.
BoundDomains = dict[tuple[int, tuple[int | None, ...]], tuple[ir.ReductionDomain, ir.ReductionDomain]]


def bound_domain(d: Definition, cache: BoundDomains) -> Definition:
    """d over its RDom with the bounds that read bound image sizes made constants (d itself if none does); `cache`
    is the pipeline's bound domains."""
    dom = d.rdom
    if dom is None or all(isinstance(e, ir.Const) for _, lo, ext in dom.dims for e in (lo, ext)):
        return d
    values = tuple(known_value(e) for _, lo, ext in dom.dims for e in (lo, ext))
    if all(v is None for v in values):
        return d
    key = (id(dom), values)
    if key not in cache:
        dims = tuple((name, _const(lo, values[2 * k]), _const(ext, values[2 * k + 1]))
                     for k, (name, lo, ext) in enumerate(dom.dims))
        bound = ir.ReductionDomain(dom.name, dims, [], dom.used)
        bound.predicates.extend(_over(p, dom, bound) for p in dom.predicates)
        cache[key] = (dom, bound)
    bound = cache[key][1]
    return replace(d, args=tuple(_over(a, dom, bound) for a in d.args), value=_over(d.value, dom, bound),
                   rdom=bound)


def bounded_shape(n: ir.Expr) -> ir.Const | None:
    """The constant a read of an image's min or extent is, if `dim(i).set_bounds` gave it."""
    value = n.callee.bound() if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) else None
    return None if value is None else ir.Const(n.type, value)


def known_value(e: ir.Expr) -> int | None:
    """e's value where it reads only constants and image sizes that `dim(i).set_bounds` or a held buffer gives,
    else None."""
    from .bounds import Bounder

    reads = [n for n in ir.walk(e) if isinstance(n, ir.Call)]
    if not reads or any(not (isinstance(n.callee, Parameter) and _size(n.callee) is not None) for n in reads):
        return None
    lo, hi = Bounder({}, _size)(e)
    return lo if lo == hi else None


def _size(p: Parameter) -> int | None:
    """An image's min or extent as `dim(i).set_bounds` gives it, else as the buffer the ImageParam holds has it."""
    bound = p.bound()
    return p.held() if bound is None else bound


def _const(e: ir.Expr, value: int | None) -> ir.Expr:
    return e if value is None else ir.Const(I32, value)


def _over(e: ir.Expr, dom: ir.ReductionDomain, bound: ir.ReductionDomain) -> ir.Expr:
    """e with the RVars of `dom` those of `bound`."""
    def go(n: ir.Expr, kids: tuple[ir.Expr, ...]) -> ir.Expr:
        if isinstance(n, ir.RVar) and n.domain is dom:
            return ir.RVar(n.type, n.name, bound, n.index)
        return ir.rebuild(n, kids)

    return ir.transform(e, go)
