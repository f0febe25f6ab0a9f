"""`in_()` wrappers and `clone_in()` copies: Funcs that some consumers read in place of a Func (or an ImageParam).

Both register under the consumers' names in the wrapped record's `wrappers` ("" for every consumer); Pipeline
redirects each consumer's calls through them (frontend/pipeline.py `_resolve`)."""

from __future__ import annotations

import dataclasses

from . import ir
from .errors import HalideError, user_location
from .func import Definition, Func, Function, new_stage_schedule, user_handle
from .schedule import Dim, Placement, StageSchedule
from .types import I32


def _consumers(call: str, owner: str, consumer) -> tuple[Function, ...]:
    """The consumers named by `call(consumer)`: none (every one), a Func, or a list of Funcs, as in Halide."""
    if consumer is None:
        return ()
    items = list(consumer) if isinstance(consumer, (list, tuple)) else [consumer]
    if not items or not all(isinstance(c, Func) for c in items):
        what = "wrapper" if call == "in_" else "copy"
        raise HalideError(f"{user_location()}: {owner}.{call}({consumer!r}): {call} takes the Func that should "
                          f"read the {what}, a list of such Funcs, or nothing (every Func reads it)")
    return tuple(dict.fromkeys(c._fn for c in items))


def _registered(wrappers: dict, consumers: tuple[Function, ...], call: str, owner: str) -> Function | None:
    """The wrapper these consumers already read (the same call made twice), or None; an error if only some of
    them read one, or they share it with others: Halide refuses to redefine a shared wrapper."""
    keys = [c.name for c in consumers] or [""]
    found = {id(wrappers[k]): wrappers[k] for k in keys if k in wrappers}
    if not found:
        return None
    w = next(iter(found.values()))
    if len(found) == 1 and len(keys) == sum(k in wrappers for k in keys) and \
            sorted(c.name for c in w.wrapper_for) == sorted(c.name for c in consumers):
        return w
    taken = [k or "every consumer" for k in keys if k in wrappers]
    shown = _shown(consumers)
    raise HalideError(f"{user_location()}: {owner}.{call}({shown}): {', '.join(taken)} already read(s) "
                      f"{user_handle(w)} ('{w.name}'), made by an earlier in_ or clone_in call; a consumer reads one "
                      f"wrapper of '{owner}': name all the consumers that share it in that one call "
                      f"({owner}.{call}({_shown(tuple(dict.fromkeys((*w.wrapper_for, *consumers))))}))")


def _shown(consumers: tuple[Function, ...]) -> str:
    names = [c.name for c in consumers]
    return names[0] if len(names) == 1 else f"[{', '.join(names)}]"


def _name(base: str, kind: str, consumers: tuple[Function, ...]) -> str:
    if not consumers:
        return f"{base}_global_wrapper"
    return f"{base}_{kind}_{'_'.join(c.name for c in consumers)}"


def make_wrapper(f: Func, consumer) -> Func:
    """`f.in_()` (every consumer reads the wrapper), `f.in_(g)` (only g does) or `f.in_([g, h])`: an identity
    Func."""
    fn = f._fn
    if not fn.defined():
        raise HalideError(f"{user_location()}: {fn.name}.in_(): '{fn.name}' has no definition yet; define it "
                          f"first ({fn.name}[x, y] = ...), then call in_()")
    consumers = _consumers("in_", fn.name, consumer)
    old = _registered(fn.wrappers, consumers, "in_", fn.name)
    if old is not None:
        return old.handle
    w = Func(_name(fn.name, "in", consumers))
    args = tuple(ir.Var(I32, n) for n in fn.args)
    w._fn.definitions.append(Definition(args, ir.Call(fn.type, fn, args), None, user_location(),
                                        new_stage_schedule(args, None)))
    w._fn.wrapped = fn
    w._fn.tuple_layout = fn.tuple_layout  # a Tuple Func's wrapper holds the same packed word
    _register(fn.wrappers, w._fn, consumers)
    return w


def make_image_wrapper(image, consumer) -> Func:
    """`image.in_()` (every Func reads the wrapper instead of the ImageParam), `image.in_(g)` (only g does) or
    `image.in_([g, h])`: a Func `w(_0, _1, ...) = image(_0, _1, ...)`, named as Halide names it."""
    p = image.parameter()
    consumers = _consumers("in_", p.name, consumer)
    old = _registered(p.wrappers, consumers, "in_", p.name)
    if old is not None:
        return old.handle
    w = Func(_name(f"{p.name}_im", "in", consumers))
    args = tuple(ir.Var(I32, f"_{k}") for k in range(p.dims))
    w._fn.definitions.append(Definition(args, ir.Call(p.type, p, args), None, user_location(),
                                        new_stage_schedule(args, None)))
    w._fn.wrapped_image = p
    _register(p.wrappers, w._fn, consumers)
    return w


def _register(wrappers: dict, w: Function, consumers: tuple[Function, ...]) -> None:
    w.wrapper_for = consumers
    for c in consumers or (None,):
        wrappers["" if c is None else c.name] = w


def make_clone(f: Func, consumer) -> Func:
    """`f.clone_in(g)` or `f.clone_in([g, h])`: those consumers read a copy of f, with f's definitions and its
    schedule so far, scheduled apart from then on (as in Halide: later calls on f do not reach the copy)."""
    fn = f._fn
    loc = user_location()
    consumers = _consumers("clone_in", fn.name, consumer)
    if not consumers or not fn.defined():
        raise HalideError(f"{loc}: {fn.name}.clone_in({consumer!r}): clone_in copies a defined Func for the "
                          f"consumers it names; define '{fn.name}' first and name its consumers (e.g. "
                          f"{fn.name}.clone_in(g))")
    for c in consumers:
        if c.defined() and not any(_calls(d, fn) for d in c.definitions):
            raise HalideError(f"{loc}: {fn.name}.clone_in({c.name}): '{c.name}' does not call '{fn.name}', so "
                              f"there is nothing to clone for it; name a Func that reads '{fn.name}'")
    old = _registered(fn.wrappers, consumers, "clone_in", fn.name)
    if old is not None:
        return old.handle
    name = f"{fn.name}_clone_in_{consumers[0].name}" if len(consumers) == 1 else f"{fn.name}_clone"
    clone = Func(name)._fn
    memo: dict = {}

    def own(e: ir.Expr) -> ir.Expr:  # the copy's updates read the copy
        return ir.transform(e, lambda n, kids: ir.Call(n.type, clone, kids)
                            if isinstance(n, ir.Call) and n.callee is fn else ir.rebuild(n, kids), memo)

    clone.definitions = [Definition(tuple(own(a) for a in d.args), own(d.value), d.rdom, d.loc,
                                    _copy_stage(d.schedule)) for d in fn.definitions]
    clone.placement = _copy_placement(fn.placement)
    clone.tuple_layout = fn.tuple_layout
    clone.loc = loc
    clone.cloned = (fn, tuple(consumers))
    _register(fn.wrappers, clone, consumers)
    assert clone.handle is not None
    return clone.handle


def _calls(d: Definition, fn: Function) -> bool:
    return any(isinstance(n, ir.Call) and n.callee is fn for e in (*d.args, d.value) for n in ir.walk(e))


def _copy_stage(s: StageSchedule) -> StageSchedule:
    return StageSchedule([Dim(d.name, d.is_rvar) for d in s.dims], list(s.directives), dict(s.aliases),
                         dict(s.shadows), dict(s.renamed))


def _copy_placement(p: Placement) -> Placement:
    return dataclasses.replace(p, bounds=dict(p.bounds), aligns=dict(p.aligns),
                               estimates=None if p.estimates is None else dict(p.estimates))

