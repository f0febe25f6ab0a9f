"""Automatic schedules of several outputs (`hl.Pipeline([a, b]).apply_autoscheduler(...)`): planned as the elements
of one Tuple Func, `hw_outputs` (frontend/fuse_outputs.py; an output another Func reads, or a reduction, first moves
its value into a Func `<output>_value`, frontend/output_reads.py). The schedule's source must apply to a fresh copy
of the algorithm, which has neither Func:
- outputs no Func reads, none a reduction: the Tuple Func's calls are made on each output alike, and the Funcs
  computed at it are computed at the first output; compile fuses outputs scheduled alike into the same Tuple Func
  itself, so the source names only the user's Funcs (`alike`);
- otherwise the source begins with the rewrite, as a call a user writes, `hl.Pipeline([a, b]).fuse_outputs()`,
  takes the Funcs and Vars it makes from there, and ends by bounding each output as the autoscheduler bounds it
  (`pasteable`): no schedule call of the user's own outputs makes a value Func.
Either way, pasted into the user's file and called on a fresh copy, it gives the same design byte for byte. The
plan's refusals, which name the Tuple Func, name the user's outputs too; a GLB level, which would copy the
accelerated Func's tiles, is refused before planning (the Tuple Func copies no Func: seed 002's three levels need
an output that copies one)."""

from __future__ import annotations

import dataclasses

from .autoschedule import AutoschedulerParams, AutoSchedulerResults, apply_autoscheduler, parsed_options
from .autoschedule_tiles import where
from .frontend.errors import HalideError
from .frontend.func import Function
from .frontend.fuse_outputs import bound_like, fuse_several_outputs
from .frontend.output_reads import read_outputs
from .frontend.output_words import WORD
from .frontend.pipeline import Pipeline
from .target import CGRA

IMPORT = "    import mainspring as hl"


def apply_to_outputs(pipe: Pipeline, target: CGRA, params: AutoschedulerParams) -> AutoSchedulerResults:
    """Schedule pipe's several outputs (or a Tuple output's elements) as one Tuple Func; the source as above."""
    names = [pipe.name(f) for f in pipe.given]  # as a fresh copy's `funcs` names them
    if len(names) > 1 and parsed_options(params, target).use_glb == "true":
        _refuse_glb(names)
    moved = bool(read_outputs(pipe))  # values moved into Funcs of their own, which only fuse_outputs makes
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
    source = (alike(result.schedule_source, names, outputs, fused.output.name) if not moved
              else pasteable(result.schedule_source, names, outputs))
    return dataclasses.replace(result, schedule_source=source)


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


def alike(source: str, names: list[str], outputs: list[Function], fused: str) -> str:
    """`source` with the Tuple Func's schedule calls made on each output alike, and the Funcs computed at it
    computed at the first output: compile fuses outputs scheduled alike into the same Tuple Func itself
    (frontend/fuse_outputs.py), and unrolls the words' dimension of outputs over 32 bits."""
    handle, first = f'funcs["{fused}"]', f'funcs["{names[0]}"]'
    lines = []
    for line in source.rstrip("\n").split("\n"):
        if line.startswith(f"    {handle}.bound("):
            lines += _bounds(names, outputs)
        elif handle not in line:
            lines.append(line.replace(f"for '{fused}'", "for " + " and ".join(f"'{n}'" for n in names)))
        elif f'vars["{WORD}"]' in line:  # the words' unroll: compile's fusion makes it
            continue
        elif line.startswith(f"    {handle}."):
            lines += [line.replace(handle, f'funcs["{n}"]', 1) for n in names]
        else:
            lines.append(line.replace(handle, first))
    return "\n".join(lines) + "\n"


def _bounds(names: list[str], outputs: list[Function]) -> list[str]:
    """The outputs' bound calls, as `bound_like` bounded them."""
    lines = []
    for n, f in zip(names, outputs, strict=True):
        b = f.placement.bounds
        lines.append(f'    funcs["{n}"]' + "".join(f'.bound(vars["{v}"], {b[v][0]}, {b[v][1]})'
                                                  for v in f.args if v in b))
    return lines


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
    bounds = ["    # each output bounded as hw_outputs is"] + _bounds(names, outputs)
    return "\n".join(lines[:at] + rewrite + lines[at:] + bounds) + "\n"
