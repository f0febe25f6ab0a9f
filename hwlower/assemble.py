"""Pass `make_program`: the self-contained hardware program, every Func resolved to its unique name."""

from __future__ import annotations

from dataclasses import replace

from .program import GlbProgram, HostStream, HwProgram
from .state import Lowering


def make_program(s: Lowering) -> Lowering:
    pipe, region, nest = s.pipe, s.region, s.nest
    if region.glb is not None:
        carried = list(zip(region.glb.inputs, region.glb.sources))
    else:
        carried = [(f, f) for f in region.inputs]
    inputs = tuple(HostStream(pipe.name(f), pipe.name(src), src.type, nest.stream_lanes(pipe.name(f)),
                              s.boxes[pipe.name(f)]) for f, src in carried)
    where = {"": f"{region.accelerated.placement.hw_accelerate[2]}: Func '{region.accelerated.name}'"}
    for _, op in nest.ops():
        f = pipe.functions[op.func]
        where[op.name] = f"{pipe.definitions(f)[op.stage].loc}: Func '{f.name}'"
    acc = region.accelerated
    program = HwProgram(
        nest=nest, tiles=s.tiles, output_box=s.output_box, inputs=inputs, output=pipe.name(acc),
        output_type=acc.type, array_output=nest.output, host_after=tuple(pipe.name(f) for f in region.host_after),
        host_boxes={pipe.name(f): s.boxes[pipe.name(f)] for f in region.host_after}, where=where,
        glb=_glb(s) if region.glb is not None else None,
    )
    return replace(s, program=program)


def _glb(s: Lowering) -> GlbProgram:
    level, pipe = s.region.glb, s.pipe
    loops, readback = s.readback
    return GlbProgram(
        output=pipe.name(level.output), output_type=level.output.type, who=f"Func '{level.output.name}'",
        inputs=tuple(pipe.name(f) for f in level.inputs), sources=tuple(pipe.name(f) for f in level.sources),
        mem_tiles=s.glb.mem_tiles, readback=readback, readback_loops=loops, host_loops=s.glb.host_loops,
        mem_loops=s.glb.mem_loops,
    )
