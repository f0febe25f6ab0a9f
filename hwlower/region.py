"""Find the accelerated region of a pipeline and check that the schedule places every Func the flow can build.

The region runs from the accelerator inputs (`stream_to_accelerator()` / `accelerator_input()`) to the
`hw_accelerate` output. Inside it every Func is either inlined (pure Funcs only) or a buffer of its own
(`compute_at` the output's store loop, as seed 002 does; Clockwork picks the real compute level itself).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace

import networkx as nx

from mainspring.frontend import ir
from mainspring.frontend.errors import ScheduleError, user_location
from mainspring.frontend.func import Function, user_handle
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.schedule import Fuse, LoopLevel, MemoryType, Split

from .accelerated_outputs import refuse_accelerated_outputs, refuse_host_compute_with
from .fold import fold_update
from .hierarchy import GlbLevel, copy_source, glb_level, glb_output, in_glb
from .memory_tile_steps import memory_tiles_in_whole_steps
from .placement import accelerate_call, store_in_call
from .state import Lowering


@dataclass(frozen=True, slots=True)
class Region:
    output: Function  # the hw_accelerate Func
    compute_var: str | None  # None with store_var (a GLB level's array that runs once per GLB tile)
    store_var: str | None  # None: the array runs once per GLB tile (no memory-tile loop)
    inputs: tuple[Function, ...]  # accelerator inputs (streamed from the host), by unique name
    buffered: tuple[Function, ...]  # Funcs with a buffer inside the accelerator, producers first (output last)
    inlined: tuple[Function, ...]
    tables: tuple[Function, ...]  # Funcs that read no input or Param, not inlined: constants read at fixed coordinates
    host_after: tuple[Function, ...]  # host Funcs that consume the accelerator output, producers first
    glb: GlbLevel | None = None  # the GLB level when the hw_accelerate Func is stored in the GLB

    @property
    def accelerated(self) -> Function:
        """The hw_accelerate Func: the GLB output buffer, or the array output itself."""
        return self.glb.output if self.glb is not None else self.output


def locate_region(s: Lowering) -> Lowering:
    from .buffer_tables import read_buffers_through_tables  # (they build on this module's region)
    from .cast_tables import cast_reads_through_tables

    pipe = cast_reads_through_tables(s.pipe, find_region(s.pipe, constant_reads=True))
    pipe = read_buffers_through_tables(pipe, find_region(pipe, constant_reads=True))
    region = find_region(pipe)
    if region.glb is not None:
        memory_tiles_in_whole_lanes(region.output)
        memory_tiles_in_whole_steps(region.output, region.glb.output, region.glb.inputs)
    return replace(s, pipe=pipe, region=region)


def memory_tiles_in_whole_lanes(f: Function) -> None:
    """Make the array output's memory tiles whole lanes: `tile(x, y, xio, yio, xii, yii, 5, 4)` with
    `unroll(xii, 2, RoundUp)` computes 6 columns a memory tile, and a GLB that holds 2 lanes per entry feeds and
    takes only tiles that start at even words. f is pure at the array's level, so memory tiles of 6 compute the
    same values (the GLB tile rounds up to whole memory tiles, and the host reads back its own box); the split's
    factor is rounded up in f's schedule, as the loops would round it."""
    sched = f.definitions[0].schedule
    for i, d in enumerate(sched.directives):
        lanes = sched.rounded_lanes(d.inner) if isinstance(d, Split) else 1
        if isinstance(d, Split) and d.factor % lanes:
            sched.directives[i] = dataclasses.replace(d, factor=-(-d.factor // lanes) * lanes)


def format_region(s: Lowering) -> str:
    r, name = s.found_region, s.pipe.name
    lines = [f"accelerator output: {name(r.output)} (hw_accelerate({r.compute_var}, {r.store_var}))"]
    if r.glb is not None:
        lines.append(f"GLB output: {name(r.glb.output)}; GLB inputs: "
                     + ", ".join(f"{name(f)} (copies {name(g)})" for f, g in zip(r.glb.inputs, r.glb.sources)))
    for what, fs in (("inputs", r.inputs), ("buffered", r.buffered), ("inlined", r.inlined), ("tables", r.tables),
                     ("host after", r.host_after)):
        lines.append(f"{what}: {', '.join(name(f) for f in fs) or '-'}")
    return "\n".join(lines) + "\n"


def _split_or_fused(f: Function, var: str) -> bool:
    """Whether a split or fuse of f's loops consumed `var`: hw_accelerate's compute var names no loop the design
    needs (seed 002: "the first argument is unused"), so `tile(...).hw_accelerate(xi, xo).fuse(xi, yi, t)` keeps
    compiling, as Halide accepts it."""
    return any((isinstance(d, Split) and d.old == var) or (isinstance(d, Fuse) and var in (d.inner, d.outer))
               for d in f.definitions[0].schedule.directives)


def _check_accelerate_loops(pipe: Pipeline, out: Function) -> None:
    """Refuse a hw_accelerate call whose loops `out` does not have, or whose store loop leaves no loop inside."""
    compute_var, store_var, loc = accelerate_call(out)
    loops = pipe.loop_names(out)
    call = f"hw_accelerate({compute_var}, {store_var})"
    if out.scalar and {compute_var, store_var} != {"__outermost"}:
        # A Func of no dimensions has one loop level, Halide's root (its element is held over SCALAR_VAR, which is
        # no loop a user can name)
        raise ScheduleError(
            f"{loc}: Func '{out.name}': {call}: '{out.name}' has no dimensions (it is defined as "
            f"{out.name}[()] = ...), so it has no loop '{compute_var if compute_var != '__outermost' else store_var}'"
            f" and the accelerator computes its one element whole; accelerate it at its only loop level: "
            f"{out.name}.hw_accelerate(hl.Var.outermost(), hl.Var.outermost())"
        )
    for v in (compute_var, store_var):
        if v not in loops and not (v == store_var == "__outermost") \
                and not (v == compute_var and store_var in loops and _split_or_fused(out, v)):
            raise ScheduleError(
                f"{loc}: Func '{out.name}': {call}: '{out.name}' has no loop '{v}' (its loops are "
                f"{', '.join(loops)}); tile it first, e.g. "
                f"{out.name}.tile(x, y, xo, yo, xi, yi, 64, 64).hw_accelerate(xi, xo)"
            )
    if loops and store_var == loops[0]:
        # The store loop is the first loop outside the accelerator: at the innermost loop, the accelerator would
        # run no loop at all (the arguments swapped, seed 002's hw_accelerate(xi, xo) written (xo, xi)).
        outer = next((d.outer for d in out.definitions[0].schedule.directives
                      if isinstance(d, Split) and d.inner == store_var and d.outer in loops), None)
        outer = outer or (loops[1] if len(loops) > 1 else "hl.Var.outermost()")
        raise ScheduleError(
            f"{loc}: Func '{out.name}': {call}: the store loop '{store_var}' is the innermost loop of "
            f"'{out.name}' (its loops are {', '.join(loops)}), so no loop would run inside the accelerator. "
            "The second argument is the first loop outside the accelerator (the host's), the first the "
            f"innermost loop inside it: {out.name}.hw_accelerate({store_var}, {outer})"
        )


def find_region(pipe: Pipeline, constant_reads: bool = False) -> Region:
    """The accelerated region. `constant_reads`: a Func inside may read a constant hl.Buffer directly (the caller
    reads it through a table next, buffer_tables.py)."""
    accel = [f for f in pipe.order if f.placement.hw_accelerate is not None]
    if not accel:
        raise ScheduleError(
            f"{user_location()}: No Func of the pipeline of '{pipe.output.name}' is scheduled hw_accelerate: "
            "mark the accelerator's "
            "output, e.g. hw_output.tile(x, y, xo, yo, xi, yi, 64, 64).hw_accelerate(xi, xo)"
        )
    if len(accel) > 1:
        refuse_accelerated_outputs(pipe, accel)
        locs = "; ".join(f"'{f.name}' at {accelerate_call(f)[2]}" for f in accel)
        raise ScheduleError(
            f"Several Funcs are scheduled hw_accelerate ({locs}): one accelerated region per pipeline is "
            "supported for now; keep hw_accelerate on the last Func computed in hardware"
        )
    out = accel[0]
    refuse_host_compute_with(pipe, out)
    compute_var: str | None  # with a GLB level (below), the array's: then None with store_var
    store_var: str | None
    compute_var, store_var, _ = accelerate_call(out)
    _check_accelerate_loops(pipe, out)
    # hw_accelerate(x, Var.outermost()): no host loop, the whole Func is one accelerator tile.
    at_var = store_var
    store_var = None if store_var == "__outermost" else store_var
    inputs = [f for f in pipe.order if f.placement.accelerator_input is not None]
    _check_streamed(pipe, out, inputs)
    for f in pipe.order:  # Halide-HLS's linebuffer(): the Func is computed at the accelerator's store loop
        if f.placement.linebuffer is not None and f.placement.compute.kind == "inline" and f is not out:
            f.placement.compute = LoopLevel("at", out, at_var, f.placement.linebuffer)
    tainted = reads_inputs(pipe, inputs)
    _check_roms(pipe, tainted)
    # Constant Funcs (no input, no Param: known at compile time), wherever they are scheduled, are tables folded
    # where they are read; a pure one left inline is simply inlined.
    # A pure inline one that computes in floating point is a table too: the reference evaluates it exactly as
    # Halide does (the PEs have no floats, and folding here could round differently).
    # So is one a serial reduction reads at its reduction variables alone that buffering would compute on PEs
    # (`_divided_under_serial_steps`: conv_cin3_const's weights `(i * 3 + j * 5 + c * 7) % 9 - 4` with r.z serial
    # took 36 PEs for 27 words known at compile time): a ROM.
    tables = [f for f in pipe.order if f is not out and id(f) not in tainted and f.placement.accelerator_input is None
              and (f.placement.compute.kind != "inline" or len(pipe.definitions(f)) > 1 or _floats(pipe, f)
                   or (_divided_under_serial_steps(pipe, f) and _read_at_rvars_alone(pipe, f)))]
    glb, accelerated = None, out
    if glb_output(pipe, out):
        glb, out, store_var = glb_level(pipe, out)
        if store_var == "__outermost":  # a memory tile of a Func of no dimensions is all of it, as a GLB tile is
            store_var = None
        compute_var = store_var
        inputs = list(glb.inputs)
    inside = funcs_between(pipe, out, inputs + tables)
    buffered, inlined = [], []
    for f in pipe.order:
        if id(f) not in inside:
            continue
        if f is out or f.placement.compute.kind == "at" or _unfoldable_updates(pipe, f) \
                or _divided_under_serial_steps(pipe, f) or _upsample_read_at_a_quotient(pipe, f) \
                or _downsample_read_at_a_quotient(pipe, f) or _upsample_read_off_its_steps(pipe, f):
            # Halide computes a Func whose updates cannot be inlined (a histogram's scatter) at its consumer's
            # innermost loop; its values are the same at the accelerator's loop, where hardware buffers it.
            buffered.append(f)
        elif f.placement.compute.kind == "inline":
            inlined.append(f)
        else:
            # A Func that reads an image cannot move inside (the accelerator reads images only as streams).
            inside_fix = "" if _reads_image(pipe, f) else (f"Place it inside: {f.name}.compute_at("
                                                           f"{user_handle(out)}, {store_var or 'hl.Var.outermost()'}"
                                                           "), or make")
            raise ScheduleError(
                f"{f.placement.compute.loc}: Func '{f.name}' lies between the accelerator's inputs and its output "
                f"'{user_handle(out)}' but is scheduled compute_root, outside the accelerator. "
                + (f"{inside_fix} it an accelerator input" if inside_fix else "Make it an accelerator input")
                + f" ({f.name}.stream_to_accelerator())."
            )
    _check_no_host_reads(pipe, out, inside, inputs, constant_reads)
    _check_inputs_read(pipe, out, inside, glb)
    _check_glb_placement(pipe, accelerated, out, inside, glb)
    after = [f for f in pipe.order if id(f) not in inside and id(f) not in {id(i) for i in inputs}
             and f is not accelerated and _depends_on(pipe, f, accelerated)]
    used_tables = tuple(t for t in tables if any(id(c) in inside for c in pipe.consumers(t)))
    return Region(out, compute_var, store_var, tuple(inputs), tuple(buffered), tuple(inlined), used_tables,
                  tuple(after), glb)


def _unfoldable_updates(pipe: Pipeline, f: Function) -> bool:
    """An inline Func with an update that is not an inline reduction over its own pure variables."""
    if f.placement.compute.kind != "inline":
        return False
    defs = pipe.definitions(f)
    value = defs[0].value
    for d in defs[1:]:
        folded = fold_update(f, d, value, force=True)
        if folded is None:
            return True
        value = folded
    return False


def _divided_under_serial_steps(pipe: Pipeline, f: Function) -> bool:
    """An inline pure Func that divides its coordinates by a constant (an upsample, `in(x / 2, y)`), read by an
    update at an index moving with a reduction variable it does not unroll (`f2(x, y) += f(x + r.x, y)`): inlined,
    the read is `in((x + r.x) / 2, y)`, affine in no loop order; buffered at the accelerator's loop (the same
    values, as Halide computes an inline Func's values wherever it is read) the reduction reads it at x + r.x."""
    if f.placement.compute.kind != "inline" or len(pipe.definitions(f)) > 1:
        return False
    own = set(f.args)
    if not any(isinstance(n, ir.BinOp) and n.op in ("div", "mod") and isinstance(n.b, ir.Const)
               and any(isinstance(v, ir.Var) and v.name in own for v in ir.walk(n.a))
               for n in ir.walk(pipe.definitions(f)[0].value)):
        return False
    for g in pipe.consumers(f):
        for d in pipe.definitions(g)[1:]:
            lanes = d.schedule.lane_dims()
            for n in ir.walk(d.value):
                if isinstance(n, ir.Call) and n.callee is f and any(
                        isinstance(v, ir.RVar) and v.name not in lanes for a in n.args for v in ir.walk(a)):
                    return True
    return False


def _read_at_rvars_alone(pipe: Pipeline, f: Function) -> bool:
    """Whether every read of f indexes it at reduction variables and constants alone (a reduction's weights: its
    values over the RDom, however large the frame)."""
    calls = [n for g in pipe.consumers(f) for d in pipe.definitions(g) for n in ir.walk(d.value)
             if isinstance(n, ir.Call) and n.callee is f]
    return bool(calls) and not any(isinstance(v, ir.Var) for n in calls for a in n.args for v in ir.walk(a))


def _upsample_read_at_a_quotient(pipe: Pipeline, f: Function) -> bool:
    """An inline pure Func that divides a coordinate by a constant (an upsample, `in(x / 2, y)`, or reads one
    inline at that coordinate), read in that dimension at an index that divides by a constant too (a chain of
    upsamples, `f(x / 4 + 1, y)`) or sums two pure variables (an rfactor's intermediate, `f(x, y + v)`): inlined,
    the read is `in((x / 4 + 1) / 2, y)` (steps by 4 and by 8 in one loop) or `in(x, (y + v) / 2)` (affine in no
    split of y and v); buffered at the accelerator's loop (the same values, as Halide computes an inline Func's
    values wherever it is read) each Func reads its producer at one quotient, as when written with compute_at."""
    if not _inline_pure(pipe, f):
        return False
    memo: dict = {}
    divided = [i for i, v in enumerate(f.args) if _divides(pipe, f, v, memo)]
    return any(isinstance(n, ir.Call) and n.callee is f and any(_nested(n.args[i]) for i in divided)
               for g in pipe.consumers(f) for d in pipe.definitions(g) for n in ir.walk(d.value))


def _upsample_read_off_its_steps(pipe: Pipeline, f: Function) -> bool:
    """An inline pure Func that divides a coordinate by d > 2 (an upsample by 3, `in(x / 3, y)`), read in that
    dimension at an offset that is not a multiple of d (`f(x + 1, y)`, or `f(x + r.x, y)` unrolled): inlined, the
    read is `in((x + 1) / 3, y)`, whose quotient changes partway through each d-long step of x, affine in no split
    (by 2 it happens to be: (xi + 1) / 2 = xi); buffered at the accelerator's loop (the same values, as Halide
    computes an inline Func's values wherever it is read), f reads at x / 3 in its own steps and its reader at
    x + 1 (fuzz 156060)."""
    if not _inline_pure(pipe, f):
        return False
    steps = {i: ks for i, v in enumerate(f.args) if (ks := _direct_divisors(pipe, f, v)) and max(ks) > 2}
    for g in pipe.consumers(f):
        for d in pipe.definitions(g):
            for n in ir.walk(d.value):
                if not (isinstance(n, ir.Call) and n.callee is f):
                    continue
                for i, ks in steps.items():
                    off = _constant_offset(n.args[i])
                    taps = any(isinstance(m, ir.RVar) for m in ir.walk(n.args[i]))
                    if (taps and off is None) or (off is not None and any(off % k for k in ks if k > 2)):
                        return True
    return False


def _direct_divisors(pipe: Pipeline, f: Function, var: str) -> set[int]:
    """The constants by which f's value divides (or takes modulo) its variable `var` in the indices of its calls."""
    return {n.b.value for c in ir.walk(pipe.definitions(f)[0].value) if isinstance(c, ir.Call)
            for a in c.args for n in ir.walk(a)
            if _by_constant(n) and isinstance(n.a, ir.Var) and n.a.name == var and isinstance(n.b.value, int)}


def _constant_offset(a: ir.Expr) -> int | None:
    """c for an index `v + c` or `v - c` of one pure Var v (0 for `v`); None for any other (`x + r.x`: taps at
    several offsets)."""
    if isinstance(a, ir.Var):
        return 0
    if isinstance(a, ir.BinOp) and a.op in ("add", "sub") and isinstance(a.a, ir.Var) \
            and isinstance(a.b, ir.Const) and isinstance(a.b.value, int):
        return a.b.value if a.op == "add" else -a.b.value
    return None


def _downsample_read_at_a_quotient(pipe: Pipeline, f: Function) -> bool:
    """An inline pure Func that scales a coordinate by a constant (a downsample, `dn(x, y) = bl(2 * x, 2 * y)`),
    read in that dimension at a quotient (`dn(x / 2, y / 2)`): inlined, the reader reads bl at 2 * (x / 2), affine
    in a loop stepped by 2 only, beside its other reads at x (an image minus its blurred, downsampled, upsampled
    self); buffered at the accelerator's loop, dn reads at 2 * x on its own loops and its reader at x / 2."""
    if not _inline_pure(pipe, f):
        return False
    scaled = [i for i, v in enumerate(f.args) if _scales(pipe, f, v)]
    return any(isinstance(n, ir.Call) and n.callee is f and any(
        _by_constant(m) for i in scaled for m in ir.walk(n.args[i]))
        for g in pipe.consumers(f) for d in pipe.definitions(g) for n in ir.walk(d.value))


def _scales(pipe: Pipeline, f: Function, var: str) -> bool:
    """f's value reads something at a multiple of its variable `var` by a constant (2 * x)."""
    return any(isinstance(m, ir.BinOp) and m.op == "mul" and any(isinstance(k, ir.Const) for k in (m.a, m.b))
               and any(isinstance(v, ir.Var) and v.name == var for v in ir.walk(m))
               for c in ir.walk(pipe.definitions(f)[0].value) if isinstance(c, ir.Call)
               for a in c.args for m in ir.walk(a))


def _inline_pure(pipe: Pipeline, f: Function) -> bool:
    return f.placement.compute.kind == "inline" and len(pipe.definitions(f)) == 1


def _divides(pipe: Pipeline, f: Function, var: str, memo: dict | None = None) -> bool:
    """f's value reads a Func at a quotient (or modulo) by a constant of its variable `var`, or an inline Func at
    an index of `var` where that one divides (not a table's own arithmetic, `x * 5 % 11`). `memo` ((id(f), var) ->
    answer) keeps a chain of inline stencils from asking about each Func once per path through it."""
    memo = {} if memo is None else memo
    key = (id(f), var)
    if key not in memo:
        memo[key] = _divides_once(pipe, f, var, memo)
    return memo[key]


def _divides_once(pipe: Pipeline, f: Function, var: str, memo: dict) -> bool:
    for c in ir.walk(pipe.definitions(f)[0].value):
        if not isinstance(c, ir.Call):
            continue
        for j, a in enumerate(c.args):
            if not any(isinstance(v, ir.Var) and v.name == var for v in ir.walk(a)):
                continue
            if any(_by_constant(n) and any(isinstance(v, ir.Var) and v.name == var for v in ir.walk(n.a))
                   for n in ir.walk(a)):
                return True
            g = c.callee
            if isinstance(g, Function) and g is not f and _inline_pure(pipe, g) and j < len(g.args) \
                    and _divides(pipe, g, g.args[j], memo):
                return True
    return False


def _nested(a: ir.Expr) -> bool:
    """An index that, divided again, is not one loop's quotient: it divides, or sums two pure variables (not a
    coordinate computed from loaded values, a table's)."""
    if any(isinstance(m, ir.Call) for m in ir.walk(a)):
        return False
    return any(_by_constant(m) for m in ir.walk(a)) or len({v.name for v in ir.walk(a) if isinstance(v, ir.Var)}) > 1


def _by_constant(n: ir.Expr) -> bool:
    return isinstance(n, ir.BinOp) and n.op in ("div", "mod") and isinstance(n.b, ir.Const) \
        and not n.b.type.is_float()


def _reads_image(pipe: Pipeline, f: Function) -> bool:
    return any(isinstance(n, ir.Call) and n.args and not isinstance(n.callee, Function)
               for d in pipe.definitions(f) for e in d.args + (d.value,) for n in ir.walk(e))


def _floats(pipe: Pipeline, f: Function) -> bool:
    return f.type.is_float() or any(n.type.is_float() for d in pipe.definitions(f) for n in ir.walk(d.value))


def reads_inputs(pipe: Pipeline, inputs: list[Function]) -> set[int]:
    """Funcs whose values depend on an input image, a scalar Param (set at run time) or an accelerator input."""
    out = {id(f) for f in inputs}
    for f in pipe.order:  # producers first
        reads_image = any(isinstance(n, ir.Call) and not isinstance(n.callee, Function)
                          and not constant_buffer(n.callee)
                          for d in pipe.definitions(f) for e in d.args + (d.value,) for n in ir.walk(e))
        if reads_image or any(id(p) in out for p in pipe.producers(f)):
            out.add(id(f))
    return out


def constant_buffer(callee: object) -> bool:
    """Whether `callee` is an hl.Buffer the algorithm reads directly (`weights[r.x, r.y]`): its data are part of
    the algorithm, known at compile time (a table's, folded or a ROM), not an image streamed in."""
    owner = getattr(callee, "owner", None)
    get = getattr(owner, "get", None)
    if getattr(callee, "kind", None) != "image" or get is None:
        return False
    buf = get()
    return buf is not None and getattr(buf, "_param", None) is owner


def funcs_between(pipe: Pipeline, out: Function, inputs: list[Function]) -> set[int]:
    """Funcs the output reads, not reading past an accelerator input."""
    stop = {id(f) for f in inputs}
    inside: set[int] = set()
    stack = [out]
    while stack:
        f = stack.pop()
        if id(f) in inside or id(f) in stop:
            continue
        inside.add(id(f))
        stack.extend(pipe.producers(f))
    return inside


def _depends_on(pipe: Pipeline, f: Function, out: Function) -> bool:

    return f is not out and nx.has_path(pipe.graph, pipe.name(out), pipe.name(f))


def _check_no_host_reads(pipe: Pipeline, out: Function, inside: set[int], inputs: list[Function],
                         constant_reads: bool) -> None:
    for f in pipe.order:
        if id(f) not in inside:
            continue
        for d in pipe.definitions(f):
            for e in d.args + (d.value,):
                for node in ir.walk(e):
                    if isinstance(node, ir.Call) and node.args and not isinstance(node.callee, Function):
                        if constant_buffer(node.callee):
                            assert constant_reads, "read through a table (buffer_tables.py)"
                            continue
                        raise ScheduleError(
                            f"{d.loc}: Func '{f.name}' is inside the accelerator (it feeds '{out.name}') but reads "
                            f"the image {node.callee.name} directly. Read it through an accelerator input: "
                            f"hw_input[x, y] = {node.callee.name}[x, y]; hw_input.compute_root(); "
                            "hw_input.stream_to_accelerator()"
                        )
    if not inputs and reads_an_image(pipe):
        raise ScheduleError(
            f"The accelerator output '{out.name}' has no accelerator input: mark the Func the accelerator streams "
            "in with stream_to_accelerator() (e.g. hw_input.stream_to_accelerator())"
        )


def _check_roms(pipe: Pipeline, tainted: set[int]) -> None:
    for f in pipe.order:
        mt = f.placement.memory_type
        if mt is not None and mt[0] is MemoryType.ROM and id(f) in tainted:
            raise ScheduleError(
                f"{mt[1]}: Func '{f.name}': store_in(MemoryType.ROM) holds a table known at compile time, but "
                f"'{f.name}' depends on an input or a Param; remove the call (a buffer inside the accelerator is a "
                f"memory tile already: {f.name}.compute_at(<accelerator output>, <store var>))"
            )


def _check_streamed(pipe: Pipeline, out: Function, inputs: list[Function]) -> None:
    """A streamed Func is computed on the host before the accelerator and streamed in whole. A compute_at or
    store_at of it changes nothing (memories buffer it where its readers need it): the reference system's schedules
    write store_at(out, xo).compute_at(out, xi) (its CoreIR branch) or compute_at(out, xo) (conv_layer_mobile)."""
    for f in inputs:
        loc = f.placement.accelerator_input
        if f is out or _depends_on(pipe, f, out):
            raise ScheduleError(
                f"{loc}: Func '{f.name}': stream_to_accelerator() marks a Func the host computes and streams into "
                f"the accelerator, but '{f.name}' is computed from the accelerator's output '{out.name}'; remove "
                f"the call (the accelerator's output is streamed back by hw_accelerate), and stream the Func the "
                f"accelerator reads instead (e.g. hw_input.compute_root().stream_to_accelerator())"
            )


def _check_inputs_read(pipe: Pipeline, out: Function, inside: set[int], glb: GlbLevel | None) -> None:
    readers = set(inside) | ({id(g) for g in glb.inputs} if glb is not None else set())
    for f in pipe.order:
        if f.placement.accelerator_input is None:
            continue
        if not any(id(c) in readers for c in pipe.consumers(f)):
            streamed = [c for c in pipe.consumers(f) if c.placement.accelerator_input is not None]
            if streamed:  # two streams in a row: the reader, streamed too, is computed on the host
                c = streamed[0]
                raise ScheduleError(
                    f"{c.placement.accelerator_input}: Func '{c.name}' is streamed to the accelerator "
                    f"(stream_to_accelerator()), so the host computes it, and '{f.name}', streamed too "
                    f"({f.placement.accelerator_input}), is read by no Func inside the accelerator (output "
                    f"'{out.name}'), only on the host; remove {c.name}.stream_to_accelerator() to compute "
                    f"'{c.name}' inside from the stream of '{f.name}', or remove {f.name}.stream_to_accelerator() "
                    f"to stream '{c.name}'"
                )
            raise ScheduleError(
                f"{f.placement.accelerator_input}: Func '{f.name}' is streamed to the accelerator "
                f"(stream_to_accelerator()) but no Func inside the accelerator (output '{out.name}') reads it; "
                f"remove the call, or read '{f.name}' inside the accelerator"
            )


def _check_glb_placement(pipe: Pipeline, accelerated: Function, out: Function, inside: set[int],
                         glb: GlbLevel | None) -> None:
    """store_in(GLB) places only the GLB level's tile copies; anywhere else it would be silently ignored."""
    allowed = {id(accelerated)} | ({id(g) for g in glb.inputs} | {id(out)} if glb is not None else set())
    for f in pipe.order:
        if not in_glb(f) or id(f) in allowed:
            continue
        loc = store_in_call(f)[1]
        if id(f) in inside:
            where = (f"inside the accelerator ({f.placement.compute}), where buffers are memory tiles and "
                     "registers")
        else:
            where = "on the host, outside the accelerator"
        raise ScheduleError(
            f"{loc}: Func '{f.name}': store_in(MemoryType.GLB): '{f.name}' is computed {where}; the GLB holds "
            f"only the accelerator's tile copies (the hw_accelerate Func, e.g. {out.name}.in_(), and copies of its "
            f"inputs computed at its GLB tile loop, e.g. hw_input.in_()); remove the call"
            + _load_hint(pipe, f, accelerated)
        )


def _load_hint(pipe: Pipeline, f: Function, accelerated: Function) -> str:
    """For a copy of an accelerator input computed inside the accelerator at another loop: the call that makes it a
    GLB input tile, loaded once per GLB tile (hwlower/glb_input_level.py gives it a GLB output level if need be)."""
    src, store_var = copy_source(pipe, f), accelerate_call(accelerated)[1]
    if src is None or src.placement.accelerator_input is None or store_var == "__outermost" \
            or f.placement.compute.kind != "at":
        return ""
    return (f", or load it into the GLB once per GLB tile: {user_handle(f)}.compute_at({user_handle(accelerated)}, "
            f"{store_var})")


def reads_an_image(pipe: Pipeline) -> bool:
    """Whether any Func reads an input image (else the pipeline computes from coordinates alone)."""
    return any(isinstance(node, ir.Call) and node.args and not isinstance(node.callee, Function)
               for f in pipe.order for d in pipe.definitions(f) for e in d.args + (d.value,) for node in ir.walk(e))
