"""Pass `infer_bounds`: every Func's box over the whole output, as Halide's bounds inference gives it."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend.bounds import Box, infer_boxes
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.pipeline import Pipeline

from .inline import inlined_definitions
from .shift_tails import shifted_funcs
from .state import Lowering
from .steps import box_multiples, phase_periods


def infer_bounds(s: Lowering) -> Lowering:
    obox = output_box(s.pipe)
    required: dict[str, Box] = {}
    defs = inlined_definitions(s.pipe, s.found_region)
    multiples = box_multiples(s.pipe, s.found_region, defs)
    boxes, _ = infer_boxes(s.pipe, obox, lambda p: None, required=required, multiples=multiples,
                           shifted=shifted_funcs(s.found_region))
    return replace(s, output_box=obox, boxes=boxes, required=required, multiples=multiples,
                   phases=phase_periods(s.pipe, s.found_region, defs))


def format_bounds(s: Lowering) -> str:
    lines = [f"output {s.pipe.name(s.pipe.output)}: {s.output_box}"]
    lines += [f"{name}: {box}" for name, box in sorted(s.boxes.items())]
    return "\n".join(lines) + "\n"


def output_box(pipe: Pipeline) -> Box:
    out = pipe.output
    box = []
    for name in out.args:
        b = out.placement.bounds.get(name)
        if b is None or b[0] is None:
            raise ScheduleError(
                f"{pipe.definitions(out)[0].loc}: Func '{out.name}' is the pipeline's output but its dimension {name} "
                "has no bound: hardware sizes "
                f"are fixed at compile time. Add {out.name}.bound({name}, 0, <extent>) for each dimension "
                f"({', '.join(out.args)})."
            )
        box.append((b[0], b[0] + b[1] - 1))
    return box

