"""Halide's `specialize(condition)` and `specialize_fail(message)`.

A specialization is a second version of a stage's loops for when a condition holds as the pipeline runs. Values do
not depend on loops, so every version computes the same image. The accelerator is one circuit: it is built with
the stage's generic schedule, which is right whatever the condition; a specialization's schedule calls are checked
on a copy of the stage's loops as Halide checks them, and kept for the host's versions. `specialize_fail` says the
generic version must never run: its message becomes a requirement, checked by the reference and every simulation
of the design as Halide checks it when the pipeline runs."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .errors import ScheduleError, SourceLoc, user_location
from .expr import Expr, to_ir
from .host_directives import HostDirectives
from .requirements import Requirement
from .schedule import StageSchedule


@dataclass
class SpecializeState:
    """A stage's specializations so far (their conditions), and whether specialize_fail closed them."""

    conditions: list[Expr] = field(default_factory=list)
    failed: bool = False
    loc: SourceLoc | None = None  # the first specialize call


def stage_state(fn, index: int) -> SpecializeState:
    """The specializations of definition `index` of Function fn (kept on fn: a Stage handle is made anew each
    `f.update(i)`)."""
    return fn.specializations.setdefault(index, SpecializeState())


class Specialization(HostDirectives):
    """The Stage `specialize` returns: schedule calls apply to its own copy of the stage's loops."""

    def __init__(self, owner, condition: Expr, schedule: StageSchedule):
        self._owner, self._condition, self._schedule = owner, condition, schedule
        self._state = SpecializeState()

    def _specialize_state(self) -> SpecializeState:
        return self._state

    def _stage(self) -> StageSchedule:
        return self._schedule

    def _owner_name(self) -> str:
        return self._owner._owner_name()

    def _function(self):
        return self._owner._function()

    def specialize(self, condition):
        return _specialize(self, condition, self._condition)

    def specialize_fail(self, message):
        _specialize_fail(self, message, self._condition)


def _specialize(owner, condition, within: Expr | None) -> Specialization:
    loc = user_location()
    cond = Expr(to_ir(condition, "specialize's condition"))
    if not cond.type().is_bool():
        raise ScheduleError(f"{loc}: In schedule for {owner._owner_name()}: specialize({cond}): the condition is "
                            f"{cond.type()}, not a boolean; compare it, e.g. specialize(width >= 64)")
    state = owner._specialize_state()
    if state.failed:
        raise ScheduleError(f"{loc}: In schedule for {owner._owner_name()}: specialize after specialize_fail: "
                            "specialize_fail must be the last specialization of a stage; move it after this one")
    state.conditions.append(cond)
    state.loc = state.loc or loc
    return Specialization(owner, cond if within is None else within & cond, copy.deepcopy(owner._stage()))


def _specialize_fail(owner, message, within: Expr | None) -> None:
    loc = user_location()
    state = owner._specialize_state()
    if not state.conditions:
        raise ScheduleError(f"{loc}: In schedule for {owner._owner_name()}: specialize_fail({message!r}) with no "
                            "specialization before it; add the specialize(condition) calls it closes, or remove it")
    holds = state.conditions[0]
    for cond in state.conditions[1:]:
        holds = holds | cond
    if within is not None:  # inside a specialization: only when its own condition holds
        holds = ~within | holds
    state.failed = True
    owner._function().requirements.append(Requirement(
        to_ir(holds), (str(message),), loc, "A schedule specialized with specialize_fail() was chosen:"))


def specialize(owner, condition) -> Specialization:
    """`specialize` on a Func or an update Stage (`owner`)."""
    return _specialize(owner, condition, None)


def specialize_fail(owner, message) -> None:
    _specialize_fail(owner, message, None)



def check_not_inline(fn, name: str) -> None:
    """Halide refuses specializations of a Func scheduled inline: it has no loops of its own to version."""
    state = next((st for st in fn.specializations.values() if st.conditions), None)
    if state is not None:
        raise ScheduleError(f"{state.loc}: In schedule for {name}: Function {name} is scheduled inline, so it must "
                            "not have any specializations (Halide's rule: an inlined Func has no loops of its own "
                            f"to version); schedule it, e.g. {name}.compute_root(), or specialize the Func it is "
                            "inlined into")
