"""A GLB input level with no GLB output level: the host loads an input's copy into the GLB, the array streams from
it, and the output streams back to the host (Halide-to-Hardware accepts it; refused before session 36):

    hw_output.compute_root().split(b, bo, bi, 8).hw_accelerate(bi, bo)     # no hw_output.in_() in the GLB
    hw_input.in_().compute_at(hw_output, bo).store_in(GLB)                 # the GLB input tile
    hw_input.compute_root().accelerator_input()

On the CGRA every word to or from the host passes through the GLB, so the output's tiles pass through it too: the
pipeline is rewritten as if the schedule had copied the output into the GLB, the converse of an accelerator input
with no GLB copy being its own GLB input tile (hierarchy.py):

    hw_output.in_().compute_root().split(b, bo, bi, 8).hw_accelerate(bi, bo).store_in(GLB)   # the output's schedule
    hw_output.compute_at(hw_output.in_(), bo).split(b, bo, bi, 8)                          # one memory tile
    hw_input.in_().compute_at(hw_output.in_(), bo).store_in(GLB)

The copy (for an accelerated pipeline output, the output itself, its value moved into `<output>_value`) takes
the accelerated Func's loops and hw_accelerate call; the accelerated Func keeps its own loops inside
the GLB tile, where its outer loops (the GLB tile loop's copies) run once, so the Funcs computed at them make one
memory tile per GLB tile, as they made one accelerator tile. The values are the same (the copy is the identity).
The rewrite works on copies of the user's Funcs, so the program stays as written.
"""

from __future__ import annotations

import copy
import dataclasses

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Func, Function, handle_of
from mainspring.frontend.fuse_outputs import copy_funcs
from mainspring.frontend.output_reads import read_from
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import LoopLevel, MemoryType, Placement
from mainspring.frontend.types import I32
from mainspring.frontend.vars import Var
from mainspring.frontend.wrappers import make_wrapper

from .glb_input_at import inputs_at_host_loops
from .hierarchy import copy_source, glb_output, in_glb
from .placement import accelerate_call


def copy_output_through_glb(pipe: Pipeline) -> Pipeline | None:
    """The pipeline with the accelerated Func copied into a GLB output tile when the schedule stores copies of
    accelerator inputs in the GLB at its GLB tile loop but has no GLB output level; None otherwise."""
    accel = [f for f in pipe.order if f.placement.hw_accelerate is not None]
    if len(accel) != 1 or glb_output(pipe, accel[0]) or accel[0].tuple_layout is not None:
        return None
    out = accel[0]
    store_var = accelerate_call(out)[1]
    loaded = [f for f in pipe.order if _glb_input_copy(pipe, f, out, store_var)]
    if not loaded:
        return None
    made = copy_funcs(pipe)
    o = made[id(out)]
    glb, array = _value_inside(made, o) if pipe.is_output(out) else (_wrapper(o), o)
    _, _, loc = accelerate_call(o)
    glb.placement = dataclasses.replace(o.placement, memory_type=(MemoryType.GLB, loc),
                                        bounds=dict(o.placement.bounds), aligns=dict(o.placement.aligns),
                                        resolved=list(o.placement.resolved))
    array.placement = Placement(compute=LoopLevel("at", glb, store_var, loc), bounds=dict(o.placement.bounds),
                                aligns=dict(o.placement.aligns))
    for f in loaded:
        g = made[id(f)]
        g.placement = dataclasses.replace(g.placement, compute=LoopLevel("at", glb, store_var,
                                                                         g.placement.compute.loc), store=None)
    inputs_at_host_loops(made.values(), array, glb, store_var)
    return Pipeline([handle_of(made[id(f)]) for f in pipe.given], pipe.tuples_whole)


def _wrapper(o: Function) -> Function:
    """`o.in_()` with o's pure loops: the GLB output tile, o the array output."""
    w = make_wrapper(handle_of(o), None).function()
    w.definitions[0] = dataclasses.replace(w.definitions[0], schedule=copy.deepcopy(o.definitions[0].schedule))
    return w


def _value_inside(made: dict[int, Function], o: Function) -> tuple[Function, Function]:
    """For an accelerated pipeline output o (whose copy would rename it): its definitions moved into a Func
    `<o>_value`, the array output, and o a copy of it with its pure loops, the GLB output tile; the Funcs computed
    or stored at o's loops are at the value's, which keeps o's loops (frontend/output_copy.py moves the value so)."""
    value = Func(f"{o.name}_value").function()
    value.definitions = [dataclasses.replace(d, schedule=copy.deepcopy(d.schedule)) for d in o.definitions]
    moved = {id(o): value}
    for fn in [*(fn for fn in made.values() if fn is not o), value]:
        read_from(fn, moved)
    args = tuple(ir.Var(I32, n) for n in o.args)
    read = handle_of(value)[tuple(Var(n) for n in o.args)]._ir()
    d = o.definitions[0]
    o.definitions[:] = [Definition(args, read, None, d.loc, copy.deepcopy(d.schedule))]
    for fn in made.values():
        for attr in ("compute", "store"):
            level = getattr(fn.placement, attr)
            if level is not None and level.kind == "at" and level.func is o:
                setattr(fn.placement, attr, LoopLevel("at", value, level.var, level.loc))
    return o, value


def _glb_input_copy(pipe: Pipeline, f: Function, out: Function, store_var: str) -> bool:
    """Whether f copies an accelerator input into the GLB at the accelerated Func's GLB tile loop."""
    c, src = f.placement.compute, copy_source(pipe, f)
    return in_glb(f) and src is not None and src.placement.accelerator_input is not None and c.kind == "at" \
        and c.func is out and c.var == store_var
