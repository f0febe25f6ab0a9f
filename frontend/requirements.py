"""Halide's `add_requirement(condition, error_args...)`: a condition on the pipeline's inputs (Params and image
sizes), checked when the pipeline runs. A CGRA design has no host code of its own, so its reference and every
simulation check the requirement on the inputs they are given and fail as Halide's pipeline would."""

from __future__ import annotations

from dataclasses import dataclass

from . import ir
from .errors import HalideError, SourceLoc, user_location
from .expr import to_ir


@dataclass(frozen=True)
class Requirement:
    condition: ir.Expr
    message: tuple[ir.Expr | str, ...]  # Halide prints these, separated by spaces, after the condition
    loc: SourceLoc
    headline: str = ""  # what the error says before the message ("Requirement Failed: (condition)" if empty)

    def exprs(self) -> list[ir.Expr]:
        """The condition and the Exprs among the error args: what is evaluated when the requirement is checked."""
        return [self.condition, *(a for a in self.message if not isinstance(a, str))]


def make_requirement(condition, error_args: tuple) -> Requirement:
    loc = user_location()
    cond = to_ir(condition, "add_requirement's condition")
    if not cond.type.is_bool():
        raise HalideError(f"{loc}: add_requirement({ir.to_string(cond)}): the condition is {cond.type}, not a "
                          "boolean; compare it, e.g. add_requirement(input.dim(0).extent() >= 8)")
    req = Requirement(cond, tuple(a if isinstance(a, str) else to_ir(a, "add_requirement's error argument")
                                  for a in error_args), loc)
    for e in req.exprs():
        for n in ir.walk(e):
            if isinstance(n, ir.Call) and n.args:
                raise HalideError(
                    f"{loc}: add_requirement({ir.to_string(cond)}): a requirement reads Params and image sizes "
                    f"(e.g. input.dim(0).extent()), not the values of {n.callee.name}; check pixel values in the "
                    "algorithm instead (e.g. with hl.clamp or hl.select)")
    return req


def check_requirements(pipe, buffers: dict, inputs: dict | None) -> None:
    """Raise Halide's "Requirement Failed" error for the first requirement of `pipe` that `inputs` break."""
    from .evaluate import Evaluator, parameter_value

    for req in (r for fn in pipe.order for r in fn.requirements):
        params = {n.callee.name: parameter_value(n.callee, buffers, inputs or {})
                  for e in req.exprs() for n in ir.walk(e) if isinstance(n, ir.Call)}
        ev = Evaluator(pipe, params, {})
        if bool(ev.eval(req.condition, {}, {})):
            continue
        words = [a if isinstance(a, str) else _show(ev.eval(a, {}, {})) for a in req.message]
        cond = ir.to_string(req.condition)
        headline = req.headline or f"Requirement Failed: {cond if cond.startswith('(') else f'({cond})'}"
        raise HalideError(" ".join([f"{req.loc}: {headline}", *words]))


def _show(value) -> str:
    v = value.item() if hasattr(value, "item") else value
    return str(v)
