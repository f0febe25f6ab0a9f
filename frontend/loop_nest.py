"""`Func.print_loop_nest()`: the loops the schedule makes, as Halide prints them (the reference's order; the
hardware's own nest is `mainspring compile --dump-after ops`)."""

from __future__ import annotations

from . import ir
from .func import Function
from .schedule import ForType


def loop_nest(output) -> str:
    """The loop nest of the pipeline that computes Func `output`."""
    from .pipeline import Pipeline

    pipe = Pipeline(output)
    inner: dict[tuple[int, str], list[Function]] = {}
    roots: list[Function] = []
    for fn in reversed(pipe.order):  # consumers first: a Func computed at a loop goes inside it
        where = fn.placement.compute
        if pipe.is_output(fn) or where.kind == "root":
            roots.append(fn)
        elif where.kind == "at":
            inner.setdefault((id(where.func), where.var), []).append(fn)
    lines: list[str] = []
    for fn in reversed(roots):  # producers first
        _produce(pipe, fn, inner, 0, lines)
    return "\n".join(lines) + "\n"


def _produce(pipe, fn: Function, inner: dict, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    lines.append(f"{pad}produce {pipe.name(fn)}:")
    defs = pipe.definitions(fn)
    for k, d in enumerate(defs):
        kinds = {dv.var: dv.kind for dv in d.schedule.directives if isinstance(dv, ForType)}
        level = depth + 1
        for v in reversed(d.schedule.dim_names()):  # outermost first
            lines.append(f"{'  ' * level}{kinds.get(v, 'for')} {v.replace('$', '.')}:")
            level += 1
            if k == len(defs) - 1:
                for g in reversed(inner.get((id(fn), v), [])):
                    _produce(pipe, g, inner, level, lines)
        args = ", ".join(ir.to_string(a) for a in d.args)
        lines.append(f"{'  ' * level}{pipe.name(fn)}({args}) = {ir.to_string(d.value)}".replace("$", "."))
