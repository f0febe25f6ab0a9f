"""Automatic schedules of several outputs (`hl.Pipeline([a, b]).apply_autoscheduler(...)`): planned as the elements
of one Tuple Func, `hw_outputs` (frontend/fuse_outputs.py; an output another Func reads, or a reduction, first moves
its value into a Func `<output>_value`, frontend/output_reads.py). Those Funcs exist only after that rewrite, so the
schedule's source begins with the rewrite itself, `hl.Pipeline([a, b]).fuse_outputs()`, takes the Funcs and Vars it
makes from there, and ends by bounding each output as the autoscheduler bounds it: pasted into the user's file and
called on a fresh copy of the algorithm, it gives the same design byte for byte. The plan's refusals, which name the
Tuple Func, name the user's outputs too; a GLB level, which would copy the accelerated Func's tiles, is refused
before planning (the Tuple Func copies no Func: seed 002's three levels need an output that copies one)."""

from __future__ import annotations

import dataclasses

from .autoschedule import AutoschedulerParams, AutoSchedulerResults, apply_autoscheduler
from .autoschedule import _options as options
from .autoschedule_tiles import where
from .frontend.errors import HalideError
from .frontend.func import Function
from .frontend.fuse_outputs import bound_like, fuse_several_outputs
from .frontend.pipeline import Pipeline
from .target import CGRA

IMPORT = "    import mainspring as hl"


def apply_to_outputs(pipe: Pipeline, target: CGRA, params: AutoschedulerParams) -> AutoSchedulerResults:
    """Schedule pipe's several outputs (or a Tuple output's elements) as one Tuple Func; the source as above."""
    names = [pipe.name(f) for f in pipe.given]  # as a fresh copy's `funcs` names them
    if len(names) > 1 and options(params, target).use_glb == "true":
        _refuse_glb(names)
    fused, outputs = fuse_several_outputs(pipe, "apply_autoscheduler")
    try:
        result = apply_autoscheduler(fused, target, params)
    except HalideError as e:  # the plan's refusals name the Tuple Func, which the user never wrote
        quoted = f"'{fused.output.name}'"
        if len(names) < 2 or quoted not in str(e):
            raise
        listed = " and ".join(f"'{n}'" for n in names)
        raise type(e)(str(e).replace(quoted, f"{quoted} (the Tuple Func computing the outputs {listed})", 1)) \
            from None
    bound_like(outputs, fused.output)
    if not outputs:  # a Tuple output is scheduled whole: the source names the user's Func
        return result
    return dataclasses.replace(result, schedule_source=pasteable(result.schedule_source, names, outputs))


def _refuse_glb(names: list[str]) -> None:
    """The GLB level holds copies of the accelerated Func's tiles, and several outputs' Tuple Func copies no Func
    (its value is the outputs' values): refused here in the user's terms (the plan would name hw_outputs)."""
    listed = ", ".join(repr(n) for n in names)
    raise HalideError(
        f'{where()}: use_glb="true" (or glb_tile) with {len(names)} outputs ({listed}): the GLB level holds copies '
        "of the accelerator's output tile, and several outputs are computed by the accelerator itself, as the "
        "elements of one Tuple Func, which copies no Func; leave use_glb at \"auto\" (host tiles where the frame "
        "does not fit the memory tiles), or apply it to each output's pipeline of its own, each output a copy of "
        f"its last stage as seed 002 writes it (hw_output[x, y] = ...; {names[0]}[x, y] = hw_output[x, y])")


def pasteable(source: str, names: list[str], outputs: list[Function]) -> str:
    """`source` (which names the Funcs of the rewrite) after the rewrite's call, with the outputs' bounds."""
    lines = source.rstrip("\n").split("\n")
    at = lines.index(IMPORT) + 1
    given = ", ".join(f'funcs["{n}"]' for n in names)
    rewrite = [
        "",
        f"    # the {len(names)} outputs computed as the elements of one Tuple Func, hw_outputs, as planned",
        f"    fused = hl.Pipeline([{given}]).fuse_outputs()",
        "    funcs, vars = funcs | fused.funcs(), vars | fused.vars()",
    ]
    bounds = ["    # each output bounded as hw_outputs is"]
    for n, f in zip(names, outputs, strict=True):
        b = f.placement.bounds
        bounds.append(f'    funcs["{n}"]' + "".join(f'.bound(vars["{v}"], {b[v][0]}, {b[v][1]})'
                                                    for v in f.args if v in b))
    return "\n".join(lines[:at] + rewrite + lines[at:] + bounds) + "\n"
