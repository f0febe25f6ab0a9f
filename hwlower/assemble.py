"""Pass `make_program`: the self-contained hardware program, every Func resolved to its unique name."""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function

from .ir import LoopNest
from .placement import accelerate_call
from .program import GlbProgram, HostStream, HwProgram
from .state import Lowering


def make_program(s: Lowering) -> Lowering:
    pipe, region, nest = s.pipe, s.found_region, s.built_nest
    if region.glb is not None:
        carried = list(zip(region.glb.inputs, region.glb.sources))
    else:
        carried = [(f, f) for f in region.inputs]
    inputs = tuple(HostStream(pipe.name(f), _source(s, f, src), src.type, nest.stream_lanes(pipe.name(f)),
                              s.boxes[pipe.name(f)], s.edge_maps.get(pipe.name(f), {}), port=_port(s, f, src),
                              order=s.stream_orders.get(pipe.name(f), ()), lane_dim=nest.lane_dim(pipe.name(f)),
                              x_words=nest.x_words(pipe.name(f)))
                   for f, src in carried)
    acc = region.accelerated
    where = {"": f"{accelerate_call(acc)[2]}: Func '{acc.name}'"}
    if not inputs and len(s.tiles) > 1:
        _refuse_tiles_of_no_input(s, acc)
    for _, op in nest.ops():
        f = pipe.functions[op.func]
        where[op.name] = f"{s.definitions.get(id(f), pipe.definitions(f))[op.stage].loc}: Func '{f.name}'"
    program = HwProgram(
        nest=nest, tiles=s.tiles, output_box=s.bounded_output, inputs=inputs, output=pipe.name(acc),
        output_type=acc.type, array_output=nest.output, host_after=tuple(pipe.name(f) for f in region.host_after),
        host_boxes={pipe.name(f): s.boxes[pipe.name(f)] for f in region.host_after}, where=where,
        glb=_glb(s) if region.glb is not None else None, scalars=_scalars(nest), notes=s.notes,
    )
    return replace(s, program=program)


def _refuse_tiles_of_no_input(s: Lowering, acc: Function) -> None:
    """A design that streams nothing in starts once, when reset ends: no input arrives to start another tile."""
    sizes = ", ".join(str(hi - lo + 1) for lo, hi in s.bounded_output)
    names = list(acc.args)
    inner = ", ".join(f"{n}i" for n in names[:2])
    example = (f"e.g. {acc.name}.tile({', '.join(names[:2])}, {', '.join(n + 'o' for n in names[:2])}, {inner}, "
               f"{sizes}).hw_accelerate({names[0]}i, {names[0]}o)" if len(names) == 2 else
               "hw_accelerate at its outermost loop")
    raise ScheduleError(
        f"{accelerate_call(acc)[2]}: Func '{acc.name}' reads no input image, so its accelerator runs once after "
        f"reset, but its hw_accelerate loops are run {len(s.tiles)} times by the host (one per tile). Make one "
        f"accelerator tile cover the output: {example}"
    )


def _scalars(nest: LoopNest) -> tuple[str, ...]:
    names = {n.callee.name for _, op in nest.ops() for e in (op.value,) + op.scatter + op.lookup for n in ir.walk(e)
             if isinstance(n, ir.Call) and not n.args and getattr(n.callee, "kind", None) in ("scalar", "shape")}
    return tuple(sorted(names))


def _glb(s: Lowering) -> GlbProgram:
    level, tiles, pipe = s.found_region.glb, s.glb, s.pipe
    # A GLB level (the region's) has its tiles (the `tiles` pass) and its read-back copy (the `ops` pass).
    assert level is not None and tiles is not None and s.readback is not None, "no GLB level"
    loops, readback = s.readback
    return GlbProgram(
        output=pipe.name(level.output), output_type=level.output.type, who=f"Func '{level.output.name}'",
        inputs=tuple(pipe.name(f) for f in level.inputs), sources=tuple(pipe.name(f) for f in level.sources),
        mem_tiles=tiles.mem_tiles, readback=readback, readback_loops=loops, host_loops=tiles.host_loops,
        mem_loops=tiles.mem_loops,
    )


def _source(s: Lowering, f: Function, src: Function) -> str:
    """The Func whose values the host streams into `f`: an input (or, with a GLB, its accelerator input)."""
    if s.found_region.glb is not None:
        return s.pipe.name(src)
    return s.stream_sources.get(s.pipe.name(f), s.pipe.name(src))


def _port(s: Lowering, f: Function, src: Function) -> str:
    """The top's port of the stream: with a GLB, the accelerator input's name, and a second GLB input tile of it
    (extended otherwise: `edges`) the same suffix as its buffer (hw_input_ext1)."""
    name = s.pipe.name(f)
    if s.found_region.glb is None:
        return name
    base = s.stream_sources.get(name)
    return s.pipe.name(src) + (name[len(base):] if base is not None else "")
