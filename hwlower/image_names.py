"""Hardware names for the Funcs made from images without a name: an unnamed constant `hl.Buffer(table)` or
`hl.ImageParam(t, 2)`, whose wrappers (`b7_im_global_wrapper`) and tables (`b7_table`) carry its name.

The frontend names such an image from a counter over the process (`b0`, `b1`, `p2`, ..., as Halide does), so the
same program built again (a fresh copy with a pasted `schedule_source`, a test run after others) would name its
ports, memories and wires otherwise, and its Verilog and memory JSON would differ by those names. In the hardware
each is named by its place instead (as hwlower/rvar_names.py names unnamed RDoms): the pipeline's images so named,
in the order the counter made them (the order mainspring/autoschedule_names.py numbers them, `buffer(0)`), are
`b0`/`p0`, then `b1`/`p1`, ...: the letter the counter gave, the number its place. The Funcs whose names start
with such a name and `_` take the new one. The images keep their own names (the host reads them by those), and so
do messages that name the Func the user made (`Function.name`).
"""

from __future__ import annotations

import copy

import networkx as nx

from mainspring.frontend.params import Parameter, made_by_buffer_counter
from mainspring.frontend.pipeline import Pipeline


def image_places(inputs: dict[str, Parameter]) -> dict[str, str]:
    """Each counter-named image of `inputs` (`b7`) -> its name by place (`b0`)."""
    named = sorted((n for n in inputs if made_by_buffer_counter(n)), key=lambda n: int(n[1:]))
    return {n: f"{n[0]}{k}" for k, n in enumerate(named)}


def by_place(name: str, places: dict[str, str]) -> str:
    """`name` (`b7_im_global_wrapper`, `b7_table`) with its counter-made image name by place (`b0_...`)."""
    stem, sep, rest = name.partition("_")
    return f"{places[stem]}{sep}{rest}" if sep and stem in places else name


def named_by_place(pipe: Pipeline) -> Pipeline:
    """A copy of `pipe` (same Funcs, definitions and images) whose Funcs made from counter-named images are named
    by place; `pipe` itself if none is, or if a new name would be one another Func has (a user's own `b0_x`)."""
    places = image_places(pipe.inputs)
    names = {n: by_place(n, places) for n in pipe.functions}
    renamed = {old: new for old, new in names.items() if old != new}
    if not renamed or len(set(names.values())) != len(names):
        return pipe
    new = copy.copy(pipe)
    new._names = {i: names[n] for i, n in pipe._names.items()}
    new.functions = {names[n]: f for n, f in pipe.functions.items()}
    new.graph = nx.relabel_nodes(pipe.graph, renamed, copy=True)
    return new
