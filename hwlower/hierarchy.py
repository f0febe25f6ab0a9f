"""The global-buffer (GLB) level of seed 002's three-level memory hierarchy: host, GLB, memory tiles.

The schedule builds it from copies (`in_()` wrappers):

    hw_output.in_().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo).store_in(GLB)   # GLB output tile
    hw_output.tile(x, y, xio, yio, xii, yii, w, h).compute_at(hw_output.in_(), xo)         # the CGRA's output
    hw_input.in_().compute_at(hw_output.in_(), xo).store_in(GLB)                           # GLB input tile
    hw_input.in_().in_().compute_at(hw_output, xio)                                        # memory-tile copy
    hw_input.compute_root().accelerator_input()                                            # host side

An accelerator input with no GLB copy (no hw_input.in_() stored in the GLB) is loaded into the GLB as it is: it is
its own GLB input tile.

The host loops over GLB tiles (the hw_accelerate Func's loops at and outside its store var). In each, the
host loads every GLB input tile, the array runs once per memory tile (the CGRA output's loops at and outside
the var its producers are computed at), streaming its inputs from the GLB and its output into the GLB output
tile, and the host reads that tile back. The array is built exactly as for a single-level design whose
output is the CGRA output and whose inputs are the GLB input buffers.
"""

from __future__ import annotations

from dataclasses import dataclass

from mainspring.frontend import ir
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function, user_handle
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import MemoryType

from .glb_input_at import check_copy_level, on_host, own_glb_tile
from .placement import accelerate_call, store_in_call


@dataclass(frozen=True, slots=True)
class GlbLevel:
    output: Function  # the GLB output buffer: the hw_accelerate Func, a copy of the array output
    store_var: str | None  # its loop that steps over GLB tiles (hw_accelerate's store var; None: at the root)
    inputs: tuple[Function, ...]  # the GLB input buffers (copies of accelerator inputs), by unique name
    sources: tuple[Function, ...]  # the accelerator input each GLB input copies (what the host streams)


def in_glb(f: Function) -> bool:
    return f.placement.memory_type is not None and f.placement.memory_type[0] is MemoryType.GLB


def glb_output(pipe: Pipeline, accelerated: Function) -> bool:
    """Whether the hw_accelerate Func heads a GLB level: it is stored in the GLB (seed 002 and cascade:
    hw_output.in_().store_in(GLB)), or the array output it copies is (unsharp: hw_output.store_in(GLB) with
    hw_accelerate on hw_output.in_()); either way the GLB holds the array output's GLB tile."""
    if in_glb(accelerated):
        return True
    src = copy_source(pipe, accelerated)
    return src is not None and (in_glb(src) or bool(_implicit_inputs(pipe, accelerated, src)))


def _implicit_inputs(pipe: Pipeline, out: Function, array_out: Function) -> list[Function]:
    """The GLB inputs of a three-level schedule that names no memory type (the reference system's
    three_level_memory): `out` copies an array output computed once per accelerator tile, inside which Funcs are
    computed at a loop of the array output (memory tiles), and copies of accelerator inputs are computed once per
    accelerator tile. Clockwork maps those per-tile copies to the global buffer; so do we. Empty otherwise."""
    store_var = accelerate_call(out)[1]
    w = array_out.placement.compute
    if w.kind != "at" or w.func is not out or w.var != store_var:
        return []
    if not any(f.placement.compute.kind == "at" and f.placement.compute.func is array_out for f in pipe.order):
        return []
    return [f for f in pipe.order if f is not array_out and input_copy_at(pipe, f, out, store_var)]


def input_copy_at(pipe: Pipeline, f: Function, out: Function, store_var: str) -> bool:
    """Whether f copies an accelerator input and is computed at `out`'s loop `store_var`."""
    c, src = f.placement.compute, copy_source(pipe, f)
    return c.kind == "at" and c.func is out and c.var == store_var and src is not None and on_host(src)


def copy_source(pipe: Pipeline, f: Function) -> Function | None:
    """The Func f copies point for point (f(x, y) = g(x, y), as `g.in_()` defines it), or None."""
    defs = pipe.definitions(f)
    if len(defs) != 1:
        return None
    d = defs[0]
    v = d.value
    if not isinstance(v, ir.Call) or not isinstance(v.callee, Function) or v.type != f.type:
        return None
    if len(v.args) != len(f.args) or any(not (isinstance(a, ir.Var) and a.name == n)
                                         for a, n in zip(v.args, f.args)):
        return None
    return v.callee


def glb_level(pipe: Pipeline, out: Function) -> tuple[GlbLevel, Function, str | None]:
    """For a hw_accelerate Func stored in the GLB: the GLB level, the array output, and the loop of the array
    output that steps over memory tiles (None when the array runs once per GLB tile)."""
    _compute_var, store_var, loc = accelerate_call(out)
    array_out = copy_source(pipe, out)
    if array_out is None:
        raise ScheduleError(
            f"{store_in_call(out)[1]}: Func '{out.name}': store_in(MemoryType.GLB) on the hw_accelerate "
            f"Func makes it the GLB output buffer, which must copy the array's output point for point; make it a "
            f"wrapper: hw_output.in_().store_in(MemoryType.GLB) with hw_accelerate on hw_output.in_()"
        )
    where = array_out.placement.compute
    if where.kind != "at" or where.func is not out or where.var != store_var:
        raise ScheduleError(
            f"{where.loc or loc}: Func '{array_out.name}' is the array's output (the GLB buffer {user_handle(out)} "
            f"copies it) but is {where}; compute it once per GLB tile: "
            f"{user_handle(array_out)}.compute_at({user_handle(out)}, {store_var})"
        )
    explicit = in_glb(out) or in_glb(array_out)
    # where the level is declared: the store_in(GLB) call, or hw_accelerate for an implicit level
    mark = store_in_call(out if out.placement.memory_type else array_out)[1] if explicit else loc
    # a copy of an accelerator input computed at the GLB tile loop is a GLB input tile, stored in the GLB or not
    # (as in an implicit level: what else it could be, a memory tile, belongs inside the array)
    members = {id(f) for f in (pipe.order if explicit else _implicit_inputs(pipe, out, array_out))
               if not explicit or in_glb(f) or input_copy_at(pipe, f, out, store_var)}
    inputs, sources = [], []
    for f in pipe.order:
        if f is out or f is array_out or id(f) not in members or own_glb_tile(f):
            continue
        src = copy_source(pipe, f)
        if src is None or src.placement.accelerator_input is None:
            raise ScheduleError(
                f"{store_in_call(f)[1]}: Func '{f.name}': store_in(MemoryType.GLB): a GLB input buffer must "
                "copy an accelerator input point for point, e.g. hw_input.in_().store_in(MemoryType.GLB) with "
                "hw_input.compute_root().accelerator_input()"
            )
        check_copy_level(f, out, store_var)
        inputs.append(f)
        sources.append(src)
    if not inputs and not any(f.placement.accelerator_input is not None for f in pipe.order):
        raise ScheduleError(
            f"{mark}: Func '{out.name}' is a GLB output buffer, but the accelerator streams no input image (it "
            f"computes from coordinates alone), and a GLB level stages input tiles; leave out {user_handle(out)} "
            f"(its store_in(MemoryType.GLB) and hw_accelerate) and hw_accelerate {_copied_name(pipe, out)} in its "
            "place"
        )
    # An accelerator input with no GLB copy of its own (Halide-to-Hardware accepts a GLB output whatever its inputs'
    # memory types): the host loads it into the GLB all the same, every word from the host passing through the GLB,
    # so it is its own GLB input tile, as if `hw_input.in_().compute_at(out, xo).store_in(GLB)` copied it.
    copied = {id(g) for g in sources}
    for f in pipe.order:
        if f.placement.accelerator_input is not None and id(f) not in copied:
            inputs.append(f)
            sources.append(f)
    # hw_accelerate(..., Var.outermost()) (a Func of no dimensions): one GLB tile, stepped over by no loop
    level = GlbLevel(out, None if store_var == "__outermost" else store_var, tuple(inputs), tuple(sources))
    return level, array_out, _tile_var(pipe, out, array_out, store_var, members)


def _copied_name(pipe: Pipeline, f: Function) -> str:
    src = copy_source(pipe, f)
    return user_handle(src) if src is not None else "the Func it copies"


def _tile_var(pipe: Pipeline, glb_out: Function, array_out: Function, store_var: str,
              members: set[int]) -> str | None:
    """The loop of the array output at which the Funcs inside the array are stored (one memory tile), or None
    when they are computed at the GLB tile loop itself: then the array runs once per GLB tile. Funcs stored or
    computed at loops inside the outermost such loop (a sliding window: blur_x.store_at(hw_output, xio)
    .compute_at(hw_output, yii), its reader at yii, the input copy at xio) are inside the memory tile, as Funcs
    computed inside a one-level accelerator's tile are (Halide accepts it; refused before session 36)."""
    at: dict[str, list[Function]] = {}
    at_glb: list[Function] = []
    for f in pipe.order:
        c = f.placement.compute
        if on_host(f):  # wherever the schedule computes it (glb_input_at.py)
            continue
        if c.kind == "at" and c.func is glb_out and f is not array_out and id(f) not in members:
            at_glb.append(f)
        if c.kind == "at" and c.func is array_out:
            st = f.placement.store
            at.setdefault(st.var if st is not None and st.kind == "at" and st.func is array_out else c.var,
                          []).append(f)
    # the loop most of them are computed at (the first on a tie) is the one a fix moves the others to
    tile_var = max(at, key=lambda v: len(at[v]), default=None)
    loops = array_out.definitions[0].schedule.dim_names()  # innermost first
    if len(at) > 1 and all(v in loops for v in at):
        return max(at, key=loops.index)
    for f in at_glb:
        c = f.placement.compute
        if at or c.var != store_var:
            raise ScheduleError(
                f"{c.loc}: Func '{f.name}' is computed at the GLB tile loop ({c}) but is not stored in the GLB: "
                f"a memory-tile buffer belongs inside the array; compute it at the array output's memory-tile "
                f"loop, e.g. {user_handle(f)}.compute_at({user_handle(array_out)}, {tile_var or '<its tile var>'}), "
                f"or add {user_handle(f)}.store_in(MemoryType.GLB) to make it a GLB input"
            )
    if len(at) > 1:
        assert tile_var is not None
        odd = next(f for v, fs in at.items() if v != tile_var for f in fs)
        names = "; ".join(f"{', '.join(user_handle(f) for f in fs)} at {v}" for v, fs in at.items())
        raise ScheduleError(
            f"{odd.placement.compute.loc}: Func '{odd.name}' is inside the array but computed at another loop of "
            f"'{array_out.name}' than the others ({names}): the Funcs inside the array make one memory tile, "
            f"computed at one loop; compute them all at {tile_var}, e.g. "
            f"{user_handle(odd)}.compute_at({user_handle(array_out)}, {tile_var})"
        )
    return next(iter(at), None)
