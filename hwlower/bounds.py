"""Pass `infer_bounds`: every Func's box over the whole output, as Halide's bounds inference gives it."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.bounds import Box, infer_boxes
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function
from mainspring.frontend.output_bounds import bound_from_reads, output_bounds
from mainspring.frontend.pipeline import Pipeline

from .inline import inlined_definitions
from .ram_copies import ram_source
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
    _check_bounded(s.pipe, boxes, obox)
    return replace(s, output_box=obox, boxes=boxes, required=required, multiples=multiples,
                   phases=phase_periods(s.pipe, s.found_region, defs))


def format_bounds(s: Lowering) -> str:
    lines = [f"output {s.pipe.name(s.pipe.output)}: {s.output_box}"]
    lines += [f"{name}: {box}" for name, box in sorted(s.boxes.items())]
    return "\n".join(lines) + "\n"


def output_box(pipe: Pipeline) -> Box:
    out = pipe.output
    if out.scalar:  # a Func of no dimensions (frontend/define.py): its one element, at 0, needs no bound
        return [(0, 0)]
    box = []
    bounds = output_bounds(pipe)  # the output's own, or a bound of what it reads at its variable (frontend)
    for i, name in enumerate(out.args):
        b = bounds.get(name)
        if b is not None and b[0] is None:
            # bound_extent alone: Halide forces the extent and takes the min from the realize, which for a
            # realize (or compile) of the output's size is 0
            b = (0, b[1], b[2])
        if b is None:
            _refuse_unbounded(pipe, i)
        assert b is not None and b[0] is not None
        box.append((b[0], b[0] + b[1] - 1))
    return box


def _refuse_unbounded(pipe: Pipeline, i: int) -> None:
    out, name = pipe.output, pipe.output.args[i]
    at = pipe.definitions(out)[0].loc
    found = bound_from_reads(pipe, i)
    if found:  # bounds whose regions of the output do not overlap (output_bounds.py takes any overlap)
        given = "; ".join(f"[{lo}, {lo + ext}) by {f}.bound({v}, {b[0]}, {b[1]}) at {b[2]}"
                          for (lo, ext), (f, v, b) in found.items())
        (lo0, _), (lo1, _) = list(found)[:2]
        f, v, b = list(found.values())[1]
        assert b[0] is not None  # bound_from_reads keeps bounds with a min only
        raise ScheduleError(
            f"{at}: Func '{out.name}' is the pipeline's output but its dimension {name} has no bound, and the bounds "
            f"of the Funcs it reads at {name} each allow another region of it ({given}), with no region inside all "
            f"of them: Halide's realize of any size fails its bounds check. Bound them to overlap, e.g. "
            f"{f}.bound({v}, {b[0] + lo0 - lo1}, {b[1]})."
        )
    raise ScheduleError(
        f"{at}: Func '{out.name}' is the pipeline's output but its dimension {name} has no bound: hardware sizes "
        f"are fixed at compile time. Add {out.name}.bound({name}, 0, <extent>) for each dimension "
        f"({', '.join(out.args)})."
    )


def _check_bounded(pipe: Pipeline, boxes: dict[str, Box], obox: Box) -> None:
    """Refuse a Func whose box spans the whole int32 range because a read of it is at a coordinate computed from
    a scalar Param or an image's size (known only when the pipeline runs): no buffer holds that."""
    unbounded = {name for name, box in boxes.items() if any(hi - lo >= 1 << 30 for lo, hi in box)}
    if not unbounded:
        return
    for f in pipe.order:
        for d in pipe.definitions(f):
            for node in ir.walk(d.value):
                # by unique name: two Funcs may share a user name, and only one of them be unbounded
                if not (isinstance(node, ir.Call) and node.args and isinstance(node.callee, Function)
                        and pipe.name(node.callee) in unbounded):
                    continue
                for i, a in enumerate(node.args):
                    params = [n.callee.name for n in ir.walk(a) if isinstance(n, ir.Call) and not n.args
                              and getattr(n.callee, "kind", None) in ("scalar", "shape")]
                    if params:
                        _refuse_param_coordinate(pipe, f.name, d.loc, node, (i, params[0]), obox)


def _refuse_param_coordinate(pipe: Pipeline, consumer: str, loc: object, node: ir.Call, at: tuple[int, str],
                             obox: Box) -> None:
    i, param = at
    lo, hi = obox[i] if i < len(obox) else obox[-1]
    args = [ir.user_text(a) for a in node.args]
    fixed = list(args)
    fixed[i] = f"hl.clamp({args[i]}, {lo}, {hi})"
    source = ram_source(pipe, node.callee)  # a copy lowering made (hwlower/ram_copies.py) names its source
    name = node.callee.name if source is None else source.name
    raise ScheduleError(
        f"{loc}: Func '{consumer}' reads '{name}' at ({', '.join(args)}): coordinate {i} depends on '{param}', "
        f"known only when the pipeline runs, so '{name}' would span every int32 coordinate; the accelerator's "
        f"buffers are sized at compile time. Clamp the coordinate to the range it may read, e.g. "
        f"{name}[{', '.join(fixed)}]."
    )
