"""Funcs the language builds for the user: boundary conditions and inline reductions (`hl.sum`, ...)."""

from __future__ import annotations

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, _lossless_to, cast_ir, to_ir
from .func import Func
from .params import Buffer, ImageParam
from .types import BOOL, I32, UInt
from .vars import Var

U32 = UInt(32)


def _source(source, bounds, what: str):
    """(callable giving the source's IR at args, dims, list of (min, extent) IR or None per dim)."""
    if isinstance(source, ImageParam):
        dims = source.dimensions()
        default = [(source.dim(i).min()._ir(), source.dim(i).extent()._ir()) for i in range(dims)]
        load = lambda args: source[tuple(Expr(a) for a in args)]._ir()  # noqa: E731
        t = source.type()
    elif isinstance(source, Func):
        if not source.defined():
            raise HalideError(f"{user_location()}: {what}: Func '{source.name()}' has no definition")
        dims = source.dimensions()
        default = None
        load = lambda args: source[tuple(Expr(a) for a in args)]._ir()  # noqa: E731
        t = source.type()
    elif isinstance(source, Buffer):
        raise HalideError(f"{what}: wrap the Buffer in an ImageParam (hl.ImageParam(...).set(buffer)) first")
    else:
        raise HalideError(f"{what}: the source must be an ImageParam or a Func, got {type(source).__name__}")
    if bounds is None:
        if default is None:
            raise HalideError(
                f"{user_location()}: {what}({source.name()}) needs explicit bounds for a Func, e.g. "
                f"{what}({source.name()}, [(0, 64), (0, 64)])"
            )
        return load, dims, default, t
    if len(bounds) != dims:
        raise HalideError(f"{what}: {len(bounds)} bounds given for a source of {dims} dimensions")
    out = []
    for b in bounds:
        if b is None:
            out.append(None)
            continue
        lo, ext = (b.min, b.extent) if hasattr(b, "extent") and not isinstance(b, tuple) else b
        out.append((cast_ir(I32, to_ir(lo, what)), cast_ir(I32, to_ir(ext, what))))
    return load, dims, out, t


def _clamped(args, bounds):
    out = []
    for a, b in zip(args, bounds):
        if b is None:
            out.append(a)
            continue
        lo, ext = b
        hi = ir.BinOp(I32, "sub", ir.BinOp(I32, "add", lo, ext), ir.i32(1))
        out.append(ir.BinOp(I32, "max", ir.BinOp(I32, "min", a, hi), lo))
    return out


def _make(name: str, dims: int, body) -> Func:
    f = Func(name)
    vs = [Var.implicit(i) for i in range(dims)]
    f[tuple(vs)] = Expr(body([v._ir() for v in vs]))
    return f


def repeat_edge(source, bounds=None) -> Func:
    load, dims, bs, _ = _source(source, bounds, "repeat_edge")
    return _make("repeat_edge", dims, lambda args: load(_clamped(args, bs)))


def constant_exterior(source, value, bounds=None) -> Func:
    load, dims, bs, t = _source(source, bounds, "constant_exterior")
    v = to_ir(value, "constant_exterior")
    if v.type != t:
        if isinstance(v, ir.Const) and v.type.is_int():
            v = ir.Const(t, t.wrap(v.value) if not t.is_bool() else int(v.value != 0))
        else:
            v = _lossless_to(t, v, "constant_exterior", "second", load([ir.i32(0)] * dims))

    def body(args):
        outside = None
        for a, b in zip(args, bs):
            if b is None:
                continue
            lo, ext = b
            o = ir.BinOp(BOOL, "or", ir.BinOp(BOOL, "lt", a, lo), ir.BinOp(BOOL, "ge", a, ir.BinOp(I32, "add", lo, ext)))
            outside = o if outside is None else ir.BinOp(BOOL, "or", outside, o)
        inside = load(_clamped(args, bs))
        return inside if outside is None else ir.Select(t, outside, v, inside)

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
            c = ir.Select(I32, ir.BinOp(BOOL, "lt", c, ext), c, sub(sub(ir.BinOp(I32, "mul", ext, ir.i32(2)), ir.i32(1)), c))
        c = add(c, lo)
        out.append(_clamped([c], [b])[0])
    return out


def mirror_image(source, bounds=None) -> Func:
    load, dims, bs, _ = _source(source, bounds, "mirror_image")
    return _make("mirror_image", dims, lambda args: load(_mirror(args, bs, False)))


def mirror_interior(source, bounds=None) -> Func:
    load, dims, bs, _ = _source(source, bounds, "mirror_interior")
    return _make("mirror_interior", dims, lambda args: load(_mirror(args, bs, True)))


class BoundaryConditions:
    repeat_edge = staticmethod(repeat_edge)
    constant_exterior = staticmethod(constant_exterior)
    mirror_image = staticmethod(mirror_image)
    mirror_interior = staticmethod(mirror_interior)


# ---- inline reductions ----------------------------------------------------------------------------------

def _inline(kind: str, e, name: str | None):
    v = to_ir(e, f"hl.{kind}")
    rvars = [n for n in ir.walk(v) if isinstance(n, ir.RVar)]
    if not rvars:
        raise HalideError(
            f"{user_location()}: Expression passed to {kind} must reference a reduction domain (an RDom); "
            f"got {ir.to_string(v)}"
        )
    free: list[str] = []
    for n in ir.walk(v):
        if isinstance(n, ir.Var) and n.name not in free:
            free.append(n.name)
    t = v.type
    init = {"sum": 0, "product": 1, "maximum": t.min(), "minimum": t.max()}[kind]
    f = Func(name if name is not None else kind)
    vs = tuple(Var(n) for n in free)
    f[vs] = Expr(ir.Const(t, init))
    self_call = f[vs]._ir()
    op = {"sum": "add", "product": "mul", "maximum": "max", "minimum": "min"}[kind]
    f[vs] = Expr(ir.BinOp(t, op, self_call, v))
    return f[vs] if vs else f[()]


def sum_(e, name: str | None = None):
    return Expr(_inline("sum", e, name)._ir())


def product(e, name: str | None = None):
    return Expr(_inline("product", e, name)._ir())


def maximum(e, name: str | None = None):
    return Expr(_inline("maximum", e, name)._ir())


def minimum(e, name: str | None = None):
    return Expr(_inline("minimum", e, name)._ir())

