"""Funcs the language builds for the user: boundary conditions and inline reductions (`hl.sum`, ...)."""

from __future__ import annotations

import weakref

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, cast_ir, to_ir
from .func import Func
from .operators import select_expr
from .params import Buffer, ImageParam
from .types import BOOL, I32, UInt
from .vars import Range, RDom, Var

U32 = UInt(32)


def _source(source, bounds, what: str):
    """(load: args -> the source's IR there, dims, one (min, extent) IR pair or None per dim, type)."""
    if isinstance(source, Buffer):
        source = source.image_param()
        default = [(ir.i32(source.get().dim(i).min()), ir.i32(source.get().dim(i).extent()))
                   for i in range(source.dimensions())]
    elif isinstance(source, ImageParam):
        default = [(source.dim(i).min()._ir(), source.dim(i).extent()._ir()) for i in range(source.dimensions())]
    elif isinstance(source, Func):
        if not source.defined():
            raise HalideError(f"{user_location()}: {what}: Func '{source.name()}' has no definition")
        default = None
    else:
        raise HalideError(f"{what}: the source must be a Buffer, an ImageParam or a Func, got {type(source).__name__}")
    dims = source.dimensions()
    load = lambda args: source[tuple(Expr(a) for a in args)]._ir()  # noqa: E731
    t = source.type()
    if bounds is None:
        if default is None:
            raise HalideError(
                f"{user_location()}: {what}({source.name()}) needs explicit bounds for a Func, e.g. "
                f"{what}({source.name()}, [(0, 64), (0, 64)])"
            )
        return load, dims, default, t
    if len(bounds) > dims:
        raise HalideError(
            f"{user_location()}: {what} called with more bounds ({len(bounds)}) than dimensions ({dims}) "
            f"Func {source.name()} has."
        )
    out = [_bound_pair(b, what) for b in bounds]
    return load, dims, out + [None] * (dims - len(out)), t  # missing trailing bounds: unbounded, as in Halide


def _bound_pair(b, what: str):
    if b is None:
        return None
    lo, ext = (b.min, b.extent) if isinstance(b, Range) else b
    return cast_ir(I32, to_ir(lo, what)), cast_ir(I32, to_ir(ext, what))


def _each_bounded(args, bounds, fn):
    """Each index a as fn(a, lo, extent) in the dimensions that have bounds, as it is in the others."""
    return [a if b is None else fn(a, *b) for a, b in zip(args, bounds)]


def _clamped(args, bounds):
    def clamp(a, lo, ext):
        hi = ir.BinOp(I32, "sub", ir.BinOp(I32, "add", lo, ext), ir.i32(1))
        return ir.BinOp(I32, "max", ir.BinOp(I32, "min", a, hi), lo)

    return _each_bounded(args, bounds, clamp)


def _make(name: str, dims: int, body) -> Func:
    f = Func(name)
    vs = [Var.implicit(i) for i in range(dims)]
    f[tuple(vs)] = Expr(body([v._ir() for v in vs]))
    return f


def repeat_edge(source, bounds=None) -> Func:
    load, dims, bs, _ = _source(source, bounds, "repeat_edge")
    return _make("repeat_edge", dims, lambda args: load(_clamped(args, bs)))


def constant_exterior(source, value, bounds=None) -> Func:
    load, dims, bs, _t = _source(source, bounds, "constant_exterior")
    v = to_ir(value, "constant_exterior")

    def body(args):
        outside = ir.Const(BOOL, 0)
        for a, b in zip(args, bs):
            if b is None:
                continue
            lo, ext = b
            o = ir.BinOp(BOOL, "or", ir.BinOp(BOOL, "lt", a, lo),
                         ir.BinOp(BOOL, "ge", a, ir.BinOp(I32, "add", lo, ext)))
            outside = ir.BinOp(BOOL, "or", outside, o)
        # Halide: select(out_of_bounds, value, repeat_edge(source)(args)), with select's coercion of an integer
        # constant value to the image's type (300 for a uint8 image is (uint8)44).
        return select_expr(Expr(outside), v, load(_clamped(args, bs)))

    return _make("constant_exterior", dims, body)


def _mirror(args, bs, interior: bool):
    out = []
    for a, b in zip(args, bs):
        if b is None:
            out.append(a)
            continue
        lo, ext = b
        add = lambda p, q: ir.BinOp(I32, "add", p, q)  # noqa: E731
        sub = lambda p, q: ir.BinOp(I32, "sub", p, q)  # noqa: E731
        rel = sub(a, lo)
        if interior:
            # period 2*(extent-1): 0 1 .. e-1 e-2 .. 1, then again
            limit = sub(ext, ir.i32(1))
            c = ir.BinOp(I32, "mod", rel, ir.BinOp(I32, "mul", limit, ir.i32(2)))
            c = sub(limit, ir.Cast(I32, ir.UnOp(U32, "abs", sub(c, limit))))
        else:
            # period 2*extent: 0 1 .. e-1 e-1 .. 0, then again
            c = ir.BinOp(I32, "mod", rel, ir.BinOp(I32, "mul", ext, ir.i32(2)))
            c = ir.Select(I32, ir.BinOp(BOOL, "lt", c, ext), c,
                          sub(sub(ir.BinOp(I32, "mul", ext, ir.i32(2)), ir.i32(1)), c))
        c = add(c, lo)
        out.append(_clamped([c], [b])[0])
    return out


def mirror_image(source, bounds=None) -> Func:
    load, dims, bs, _ = _source(source, bounds, "mirror_image")
    return _make("mirror_image", dims, lambda args: load(_mirror(args, bs, False)))


def mirror_interior(source, bounds=None) -> Func:
    load, dims, bs, _ = _source(source, bounds, "mirror_interior")
    return _make("mirror_interior", dims, lambda args: load(_mirror(args, bs, True)))


def repeat_image(source, bounds=None) -> Func:
    """Halide's repeat_image: the image tiled over the plane, each coordinate taken modulo its extent (Halide's
    Euclidean mod: -1 is the last column)."""
    load, dims, bs, _ = _source(source, bounds, "repeat_image")

    def wrap(a, lo, ext):
        c = ir.BinOp(I32, "mod", ir.BinOp(I32, "sub", a, lo), ext)
        return _clamped([ir.BinOp(I32, "add", c, lo)], [(lo, ext)])[0]  # (the clamp: for bounds inference)

    def wrapped(args):
        return _each_bounded(args, bs, wrap)

    return _make("repeat_image", dims, lambda args: load(wrapped(args)))


class BoundaryConditions:
    repeat_edge = staticmethod(repeat_edge)
    repeat_image = staticmethod(repeat_image)
    constant_exterior = staticmethod(constant_exterior)
    mirror_image = staticmethod(mirror_image)
    mirror_interior = staticmethod(mirror_interior)


# ---- inline reductions ----------------------------------------------------------------------------------

# each inline reduction's Function -> (hl.sum, hl.argmax, ..., its RDom's name), for update()'s refusal
_INLINE_REDUCTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _register(kind: str, domain: ir.ReductionDomain, result):
    """Record the inline reduction's Function that `result` (an Expr or a Tuple of them) reads; return result."""
    for e in ir.walk((result[0] if isinstance(result, tuple) else result)._ir()):
        if isinstance(e, ir.Call) and hasattr(e.callee, "definitions"):
            _INLINE_REDUCTIONS[e.callee] = (kind, domain.name)
    return result


def no_update_hint(fn) -> str:
    """The fix for update() on a Func `fn` that has no update, told apart when its RDom is an inline reduction's."""
    for e in ir.walk(fn.definitions[0].value):
        if isinstance(e, ir.Call) and e.callee in _INLINE_REDUCTIONS:
            kind, rdom = _INLINE_REDUCTIONS[e.callee]
            return (f"; its RDom {rdom} belongs to the inline reduction hl.{kind}(...), which has no Func to schedule "
                    f"(as in Halide) and which the accelerator computes whole, all of {rdom} at once: remove the "
                    f"update() call (or, to schedule the reduction, define {fn.name} with an update over {rdom})")
    return f"; schedule the pure definition on the Func itself (e.g. {fn.name}.unroll(...))"

def _domain_of(kind: str, args, name: str | None) -> tuple[ir.Expr, ir.ReductionDomain, list[str]]:
    """An inline reduction's value, its RDom (the given one or the one it uses) and its free Vars, in order."""
    rdom = None
    if args and isinstance(args[0], RDom):
        rdom, args = args[0], args[1:]
    if len(args) != 1:
        raise HalideError(f"hl.{kind} takes (expr[, name]) or (rdom, expr[, name])")
    v = to_ir(args[0], f"hl.{kind}")
    domains = {}
    for n in ir.walk(v):
        if isinstance(n, ir.RVar):
            domains.setdefault(id(n.domain), (n.domain, n.name))
    if rdom is not None and any(d is not rdom._domain for d, _ in domains.values()):
        raise HalideError(
            f"{user_location()}: Inline reduction \"{name or kind}\" over RDom {rdom.name()} also uses reduction "
            "variables of another RDom; mainspring does not turn those into pure variables as Halide does"
        )
    if not domains:
        raise HalideError(
            f"{user_location()}: Expression passed to {kind} must reference a reduction domain (an RDom); "
            f"got {ir.to_string(v)}"
        )
    if len(domains) > 1:
        names = ", ".join(rv for _d, rv in reversed(list(domains.values())))
        raise HalideError(
            f"{user_location()}: Inline reduction \"{name or kind}\" refers to reduction variables from multiple "
            f"reduction domains: {names}"
        )
    free: list[str] = []
    for n in ir.walk(v):
        if isinstance(n, ir.Var) and n.name not in free:
            free.append(n.name)
    domain = next(iter(domains.values()))[0]
    return v, domain, free


def _inline(kind: str, args, name: str | None):
    """Halide's inline reduction: a Func over the free Vars of e, updated over e's RDom (or the given one)."""
    v, domain, free = _domain_of(kind, args, name)
    t = v.type
    init = {"sum": 0, "product": 1, "maximum": t.min(), "minimum": t.max()}[kind]
    f = Func(name if name is not None else kind)
    vs = tuple(Var(n) for n in free)
    f[vs] = Expr(ir.Const(t, init))
    op = {"sum": "add", "product": "mul", "maximum": "max", "minimum": "min"}[kind]
    f[vs] = Expr(ir.BinOp(t, op, f[vs]._ir(), v))
    return _register(kind, domain, Expr(f[vs]._ir()))


def sum_(*args, name: str | None = None):
    """hl.sum(expr[, name]) or hl.sum(rdom, expr[, name])."""
    return _inline("sum", *_split_name(args, name))


def product(*args, name: str | None = None):
    return _inline("product", *_split_name(args, name))


def maximum(*args, name: str | None = None):
    return _inline("maximum", *_split_name(args, name))


def minimum(*args, name: str | None = None):
    return _inline("minimum", *_split_name(args, name))


def _split_name(args, name):
    if args and isinstance(args[-1], str):
        return args[:-1], args[-1]
    return args, name


def argmax(*args, name: str | None = None):
    """hl.argmax([rdom, ]expr[, name]): a Tuple of the RDom's coordinates where expr is largest (the first such
    point in the domain's order) and that value."""
    from .tuples import arg_reduction

    value, domain, free = _domain_of("argmax", *_split_name(args, name))
    return _register("argmax", domain, arg_reduction("argmax", value, domain, free, _split_name(args, name)[1]))


def argmin(*args, name: str | None = None):
    """hl.argmin([rdom, ]expr[, name]): as argmax, for the first smallest value."""
    from .tuples import arg_reduction

    value, domain, free = _domain_of("argmin", *_split_name(args, name))
    return _register("argmin", domain, arg_reduction("argmin", value, domain, free, _split_name(args, name)[1]))
