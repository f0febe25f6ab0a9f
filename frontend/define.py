"""Check and record a definition `f[args] = value` (pure or update)."""

from __future__ import annotations

import functools

from . import ir
from .errors import HalideError, SourceLoc
from .expr import to_ir, type_name
from .func import Definition, FuncRef, Function, PendingUpdate, arg_ir, new_stage_schedule
from .types import BOOL, I32
from .vars import RVar, Var

_INIT = {"add": 0, "sub": 0, "mul": 1, "div": 1}


# Halide's Func of no dimensions (`total[()] = ...`, an inline reduction with no free Var) is held as one element
# over SCALAR_VAR and read at 0, so every stage after the frontend sees a Func with a dimension
SCALAR_VAR = "_scalar"


def key_args(fn: Function, key, defining: bool) -> tuple:
    """The arguments of `f[key]`; those of `f[()]` on a Func of no dimensions are SCALAR_VAR where it defines f (its
    pure definition, and `f[()] op= e` before any), its element 0 otherwise. A Func defined with dimensions keeps
    its error for a call with none."""
    args = tuple(key) if isinstance(key, (tuple, list)) else (key,)
    if args or (fn.defined() and not fn.scalar):
        return args
    fn.scalar = True
    return (Var(SCALAR_VAR),) if defining else (0,)


def realize_scalar(pipe):
    """Halide's realize([]) of a Func of no dimensions: a 0-D Buffer of its one element."""
    import numpy as np

    from .params import Buffer

    return Buffer(np.asarray(pipe.realize([1])).reshape(()))


def define(fn: Function, key: tuple, value, loc: SourceLoc) -> None:
    if isinstance(value, FuncRef) and value._func._fn.tuple_layout is not None:
        value = value.elements()  # a copy of a Tuple Func is a Tuple Func
    if isinstance(value, (tuple, list)) and len(value) == 1 and fn.tuple_layout is None:
        value = value[0]  # a Tuple of one element is that element, as in Halide
    if isinstance(value, (tuple, list)) and value:
        from .tuples import define_tuple

        define_tuple(fn, key, value, loc)
        return
    if fn.tuple_layout is not None and not isinstance(value, PendingUpdate):
        from .tuples import define_tuple

        define_tuple(fn, key, (value,), loc)  # refused: one value for a Tuple of several
        return
    if isinstance(value, PendingUpdate):
        _define_update_op(fn, key, value, loc)
        return
    if not fn.defined():
        _define_pure(fn, key, value, loc)
    else:  # a Python int is an Int(32) Expr here, as in Halide (`f[0] = 5` on a uint8 Func is an error)
        _define_update(fn, key, to_ir(value, f"the definition of {fn.name}"), loc)


def _where(fn: Function, loc: SourceLoc, kind: str) -> str:
    return f"{loc}: In {kind} of Func \"{fn.name}\""


def _define_pure(fn: Function, key: tuple, value, loc: SourceLoc) -> None:
    if not all(isinstance(a, Var) for a in key):
        i, bad = next((i, a) for i, a in enumerate(key) if not isinstance(a, Var))
        raise HalideError(
            f"{loc}: Argument {i + 1} in initial definition of \"{fn.name}\" is not a Var: {_show(bad)}. The "
            f"left-hand side of a pure definition must be distinct Vars: give '{fn.name}' a pure definition over "
            f"Vars first (e.g. {fn.name}[x] = 0), then update it at computed locations."
        )
    names = [a.name() for a in key]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise HalideError(
                f"{_where(fn, loc, 'pure definition')}:\nIn left-hand-side of definition, arguments {i} and "
                f"{names.index(n)} both have the name \"{n}\"; use a different Var for each dimension"
            )
    v = to_ir(value, f"the definition of {fn.name}")
    for node in ir.walk(v):
        if isinstance(node, ir.Var) and node.name not in names:
            raise HalideError(
                f"{loc}: Undefined variable \"{node.name}\" in definition of Func \"{fn.name}\": it is used on the "
                f"right side but is not one of the left side's Vars ({', '.join(names)}); add it to the left side or "
                "replace it"
            )
        if isinstance(node, ir.RVar):
            raise HalideError(
                f"{_where(fn, loc, 'pure definition')}:\nReduction domain referenced in pure function definition "
                f"(the reduction variable {ir.user_name(node.name)}); reductions belong in an update "
                f"(e.g. {fn.name}[{', '.join(names)}] = 0, then "
                f"{fn.name}[{', '.join(names)}] += ...) or in hl.sum(...)"
            )
    args = tuple(ir.Var(I32, n) for n in names)
    fn.definitions.append(Definition(args, v, None, loc, new_stage_schedule(args, None)))


def _define_update_op(fn: Function, key: tuple, upd: PendingUpdate, loc: SourceLoc) -> None:
    """`f[key] op= rhs` (or `f[key] = f[key] op rhs`) on a Func with no definition: Halide's func_ref_update."""
    if upd.ref._func._fn is not fn or not _same_args(upd.ref._args, key):
        raise HalideError(
            f"{loc}: Cannot use an unevaluated reference to '{upd.ref._func._fn.name}' to define an update at a "
            f"different location. '{upd.ref._func._fn.name}' has no definition yet: define it first."
        )
    if fn.defined():
        raise HalideError(
            f"{loc}: Cannot use an unevaluated reference to '{fn.name}' to define an update when a pure "
            "definition already exists."
        )
    rhs = to_ir(upd.rhs, f"the update of {fn.name}")
    # The pure definition reuses the names of the left side's variables (an RVar's too: Halide then treats
    # that RVar as the pure variable of the same name, so the update is pure there and loops no RDom).
    names = [a.name() if isinstance(a, (Var, RVar)) else f"v{i}" for i, a in enumerate(key)]
    if len(set(names)) != len(names):
        names = [f"v{i}" for i in range(len(key))]
    args = tuple(ir.Var(I32, n) for n in names)
    init = ir.Const(rhs.type, _INIT[upd.op])
    fn.definitions.append(Definition(args, init, None, loc, new_stage_schedule(args, None)))
    as_pure = {a.name(): ir.Var(I32, a.name()) for a in key if isinstance(a, RVar) and a.name() in names}
    key = tuple(Var(a.name()) if isinstance(a, RVar) and a.name() in as_pure else a for a in key)
    rhs = ir.substitute(rhs, as_pure) if as_pure else rhs
    self_call = FuncRef(upd.ref._func, key)._ir()
    _define_update(fn, key, ir.BinOp(rhs.type, upd.op, self_call, rhs), loc)


def _same_args(a: tuple, b: tuple) -> bool:
    if len(a) != len(b):
        return False
    try:
        return all(ir.structural_key(to_ir(p)) == ir.structural_key(to_ir(q)) for p, q in zip(a, b))
    except HalideError:
        return False


def _type_error(fn: Function, loc: SourceLoc, value: ir.Expr, index: int = 0, expected=None):
    k = len(fn.definitions) - 1
    t = fn.type if expected is None else expected
    raise HalideError(
        f"{_where(fn, loc, f'update definition {k}')}:\nTuple element {index} of update definition has type "
        f"{type_name(value.type)}, but pure definition has type {type_name(t)}. Use an explicit cast, e.g. "
        f"hl.cast(hl.{_ctor(t)}, ...)."
    )


def _ctor(t) -> str:
    return "Bool()" if t.is_bool() else repr(t)


def _define_update(fn: Function, key: tuple, value, loc: SourceLoc) -> None:
    t = fn.type
    if value.type != t:
        _type_error(fn, loc, value)
    if len(key) != len(fn.args):
        raise HalideError(
            f"{loc}: Func \"{fn.name}\" was called with {len(key)} arguments, but was defined with "
            f"{len(fn.args)} ({', '.join(fn.args)}), in an update definition"
        )
    args = tuple(arg_ir(a, fn.name, i) for i, a in enumerate(key))
    # a pure Var of an update stands where the pure definition has it (Halide: else it is undefined there)
    pure = [a.name for a, name in zip(args, fn.args) if isinstance(a, ir.Var) and a.name == name]
    rdoms = _check_update_vars(fn, loc, args, value, pure)
    if len(rdoms) > 1:
        raise HalideError(
            f"{_where(fn, loc, 'update definition')}: it uses reduction variables of several RDoms "
            f"({', '.join(sorted(d.name for d in rdoms))}); use one multi-dimensional RDom"
        )
    rdom = next(iter(rdoms)) if rdoms else None
    if rdom is not None and rdom.predicates:
        value = _predicated(fn, args, value, rdom)
        _check_update_vars(fn, loc, args, value, pure)  # a predicate may use the update's pure Vars alone
    elif rdom is not None and not rdom.used:
        rdom.used.append(f'Func "{fn.name}"')
    _check_self_references(fn, loc, args, value)
    fn.definitions.append(Definition(args, value, rdom, loc, new_stage_schedule(args, rdom)))


def _predicated(fn: Function, args: tuple, value: ir.Expr, rdom: ir.ReductionDomain) -> ir.Expr:
    """The update's value where its RDom's predicates hold, the element's own value elsewhere (RDom.where)."""
    if not rdom.used:
        rdom.used.append(f'Func "{fn.name}"')
    return predicated_value(fn, args, value, functools.reduce(lambda a, b: ir.BinOp(BOOL, "and", a, b),
                                                              rdom.predicates))


def predicated_value(fn: Function, args: tuple, value: ir.Expr, cond: ir.Expr) -> ir.Expr:
    """An update's value `value` (of element `args` of fn) where `cond` holds, the element's own value
    elsewhere."""
    own = ir.Call(fn.type, fn, args)
    t = value.type
    if isinstance(value, ir.BinOp) and value.op in _IDENTITY and not t.is_float():
        # an accumulation stays one (its serial loop keeps the sum in a register, its unrolled points a tree):
        # f + select(p, e, 0) is select(p, f + e, f) for wrapping integers, and likewise min and max
        key = ir.structural_key(own)
        for mine, other in ((value.a, value.b), (value.b, value.a)):
            if ir.structural_key(mine) == key:
                neutral = ir.Const(t, _IDENTITY[value.op](t))
                return ir.BinOp(t, value.op, mine, ir.Select(t, cond, other, neutral))
    return ir.Select(t, cond, value, own)


_IDENTITY = {"add": lambda t: 0, "min": lambda t: t.max(), "max": lambda t: t.min()}


def _check_update_vars(fn, loc, args, value, pure) -> set:
    rdoms = {}
    for e in args + (value,):
        for node in ir.walk(e):
            if isinstance(node, ir.Var) and node.name not in pure:
                raise HalideError(
                    f"{loc}: Undefined variable \"{node.name}\" in definition of Func \"{fn.name}\": a Var in an "
                    "update definition must appear by itself as an argument on the left side; use an RDom to range "
                    "over other locations"
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
                        f"argument {i} is {ir.to_string(a)} where the left side has {lhs.name}; read the value "
                        f"at {ir.to_string(a)} from another Func, or update over an RDom in place of {lhs.name}"
                    )


def _show(a) -> str:
    try:
        return ir.to_string(to_ir(a))
    except HalideError:
        return repr(a)
