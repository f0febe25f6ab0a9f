"""Check and record a definition `f[args] = value` (pure or update), and make `in_()` wrappers."""

from __future__ import annotations

from . import ir
from .errors import HalideError, SourceLoc, user_location
from .expr import _literal_for, to_ir
from .func import Definition, Func, FuncRef, Function, _arg_ir, _Update, new_stage_schedule
from .types import I32
from .vars import Var

_INIT = {"add": 0, "sub": 0, "mul": 1, "div": 1}


def define(fn: Function, key: tuple, value, loc: SourceLoc) -> None:
    if isinstance(value, _Update):
        _define_update_op(fn, key, value, loc)
        return
    if not fn.defined():
        _define_pure(fn, key, value, loc)
    else:
        _define_update(fn, key, to_ir(value, f"the definition of {fn.name}") if not isinstance(value, int) or isinstance(value, bool) else value, loc)


def _where(fn: Function, loc: SourceLoc, kind: str) -> str:
    return f"{loc}: In {kind} of Func '{fn.name}'"


def _define_pure(fn: Function, key: tuple, value, loc: SourceLoc) -> None:
    if not all(isinstance(a, Var) for a in key):
        bad = next(a for a in key if not isinstance(a, Var))
        raise HalideError(
            f"{_where(fn, loc, 'pure definition')}: the left-hand side must be distinct Vars, but "
            f"{_show(bad)} is not a Var. Give '{fn.name}' a pure definition over Vars first "
            f"(e.g. {fn.name}[x] = 0), then update it at computed locations."
        )
    names = [a.name() for a in key]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise HalideError(
                f"{_where(fn, loc, 'pure definition')}: in left-hand-side of definition, arguments {names.index(n)} "
                f"and {i} both have the name \"{n}\"; use a different Var for each dimension"
            )
    v = to_ir(value, f"the definition of {fn.name}")
    for node in ir.walk(v):
        if isinstance(node, ir.Var) and node.name not in names:
            raise HalideError(
                f"{_where(fn, loc, 'pure definition')}: undefined variable \"{node.name}\": it is used on the right "
                f"side but is not one of the left side's Vars ({', '.join(names)}); add it to the left side or "
                "replace it"
            )
        if isinstance(node, ir.RVar):
            raise HalideError(
                f"{_where(fn, loc, 'pure definition')}: the pure definition uses the reduction variable "
                f"{node.name}; reductions belong in an update (e.g. {fn.name}[{', '.join(names)}] = 0, then "
                f"{fn.name}[{', '.join(names)}] += ...) or in hl.sum(...)"
            )
    args = tuple(ir.Var(I32, n) for n in names)
    fn.definitions.append(Definition(args, v, None, loc, new_stage_schedule(args, None)))


def _define_update_op(fn: Function, key: tuple, upd: _Update, loc: SourceLoc) -> None:
    rhs = upd.rhs
    if not fn.defined():
        init_t = to_ir(rhs, f"the update of {fn.name}").type if not _py_int(rhs) else I32
        pure = [a if isinstance(a, Var) else Var.implicit(i) for i, a in enumerate(key)]
        pure_names = [p.name() for p in pure]
        if len(set(pure_names)) != len(pure_names):
            pure = [Var.implicit(i) for i in range(len(key))]
        args = tuple(ir.Var(I32, p.name()) for p in pure)
        fn.definitions.append(
            Definition(args, ir.Const(init_t, _INIT[upd.op]), None, loc, new_stage_schedule(args, None))
        )
    t = fn.type
    r = _literal_for(t, rhs, _OP_SYMBOL[upd.op]) if _py_int(rhs) else to_ir(rhs, f"the update of {fn.name}")
    self_call = FuncRef(upd.ref._func, key)._ir()
    if r.type != t:
        _type_error(fn, loc, r)
    _define_update(fn, key, ir.BinOp(t, upd.op, self_call, r), loc)


_OP_SYMBOL = {"add": "+=", "sub": "-=", "mul": "*=", "div": "/="}


def _py_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _type_error(fn: Function, loc: SourceLoc, value: ir.Expr):
    k = len(fn.definitions) - 1
    raise HalideError(
        f"{_where(fn, loc, f'update definition {k}')}: the value has type {value.type}, but the pure definition "
        f"has type {fn.type}. Use an explicit cast, e.g. hl.cast(hl.{_ctor(fn.type)}, ...)."
    )


def _ctor(t) -> str:
    return "Bool()" if t.is_bool() else repr(t)


def _define_update(fn: Function, key: tuple, value, loc: SourceLoc) -> None:
    t = fn.type
    if _py_int(value):
        value = _literal_for(t, value, "=")
    if value.type != t:
        _type_error(fn, loc, value)
    if len(key) != len(fn.args):
        raise HalideError(
            f"{_where(fn, loc, 'update definition')}: the left side has {len(key)} arguments but '{fn.name}' has "
            f"{len(fn.args)} dimensions ({', '.join(fn.args)})"
        )
    args = tuple(_arg_ir(a, fn.name) for a in key)
    pure = [a.name for a in args if isinstance(a, ir.Var)]
    rdoms = _check_update_vars(fn, loc, args, value, pure)
    if len(rdoms) > 1:
        raise HalideError(
            f"{_where(fn, loc, 'update definition')}: it uses reduction variables of several RDoms "
            f"({', '.join(sorted(d.name for d in rdoms))}); use one multi-dimensional RDom"
        )
    _check_self_references(fn, loc, args, value)
    rdom = next(iter(rdoms)) if rdoms else None
    fn.definitions.append(Definition(args, value, rdom, loc, new_stage_schedule(args, rdom)))


def _check_update_vars(fn, loc, args, value, pure) -> set:
    rdoms = {}
    for e in args + (value,):
        for node in ir.walk(e):
            if isinstance(node, ir.Var) and node.name not in pure:
                raise HalideError(
                    f"{_where(fn, loc, 'update definition')}: undefined variable \"{node.name}\": a Var in an "
                    "update must appear by itself as an argument on the left side; use an RDom to range over "
                    "other locations"
                )
            if isinstance(node, ir.RVar):
                rdoms[id(node.domain)] = node.domain
    return set(rdoms.values())


def _check_self_references(fn, loc, args, value) -> None:
    for node in ir.walk(value):
        if isinstance(node, ir.Call) and node.callee is fn:
            for i, (lhs, a) in enumerate(zip(args, node.args)):
                if isinstance(lhs, ir.Var) and not (isinstance(a, ir.Var) and a.name == lhs.name):
                    raise HalideError(
                        f"{_where(fn, loc, 'update definition')}: all of a function's recursive references to "
                        "itself must contain the same pure variables in the same places as on the left-hand-side; "
                        f"argument {i} is {ir.to_string(a)} where the left side has {lhs.name}"
                    )


def _show(a) -> str:
    try:
        return ir.to_string(to_ir(a))
    except HalideError:
        return repr(a)


def make_wrapper(f: Func, consumer: Func | None) -> Func:
    """`f.in_()` (every consumer reads the wrapper) or `f.in_(g)` (only g does): an identity Func."""
    fn = f._fn
    if not fn.defined():
        raise HalideError(f"{user_location()}: {fn.name}.in_(): '{fn.name}' has no definition yet")
    key = "" if consumer is None else consumer._fn.name
    if key in fn.wrappers:
        return fn.wrappers[key].handle
    name = f"{fn.name}_global_wrapper" if consumer is None else f"{fn.name}_in_{consumer._fn.name}"
    w = Func(name)
    vs = [Var(n) for n in fn.args]
    loc = user_location()
    args = tuple(ir.Var(I32, v.name()) for v in vs)
    call = ir.Call(fn.type, fn, args)
    w._fn.definitions.append(Definition(args, call, None, loc, new_stage_schedule(args, None)))
    w._fn.wrapped = fn
    w._fn.wrapper_for = None if consumer is None else consumer._fn
    fn.wrappers[key] = w._fn
    return w

