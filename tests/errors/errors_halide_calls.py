"""Catalogue cases: Halide schedule calls for other targets or for a CPU's parallelism (GPU and device copies,
specialize, rfactor), accepted where they mean something on the accelerator and refused otherwise."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerate, accelerated, case, pipeline, scheduled, stream


@case("schedule", "A GPU schedule on a Func", (
    "{at}: In schedule for mid: gpu_threads is for a GPU or Hexagon device, which the target (a CGRA) "
    "does not have (Halide refuses it for a target without one too); remove the call, or schedule the "
    "Func for the accelerator (compute_at inside its hw_accelerate loop)"), func="mid", simulate=True)
def gpu_schedule():
    p = scheduled()
    p.mid.gpu_threads(p.x)  # <-
    return hl.compile(p.output, name="demo")


@gpu_schedule.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo")


@case("schedule", "copy_to_host on a Func that is not a copy", (
    "{at}: In schedule for mid: copy_to_host marks a Func that copies another (Halide: 'Expected a single call to "
    "another Func with matching dimensionality and argument order'), but its value is not a single call to another "
    "Func at (x, y); call it on a copy, e.g. mid.in_().copy_to_host(), or remove it (on this target every Func's "
    "values are where its schedule puts them)"), func="mid", simulate=True)
def copy_to_host_of_a_computation():
    p = scheduled()
    p.mid.copy_to_host()  # <-
    return hl.compile(p.output, name="demo")


@copy_to_host_of_a_computation.fix
def _():
    p = scheduled()
    p.mid.in_().compute_at(p.hw_output, p.xo).copy_to_host()
    return hl.compile(p.output, name="demo")


@case("schedule", "compute_at given both a loop variable and loop_level=", (
    "{at}: Func 'mid': compute_at takes a Func and one of its loop variables (var= or rvar=), or loop_level= alone, "
    "e.g. mid.compute_at(consumer, xo)"), func="mid", simulate=True)
def compute_at_twice_over():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, var=p.xo, loop_level=hl.LoopLevel(p.hw_output, p.xo))  # <-
    return hl.compile(p.output, name="demo")


@compute_at_twice_over.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(loop_level=hl.LoopLevel(p.hw_output, p.xo))  # Halide 21's keyword
    return hl.compile(p.output, name="demo")


def _specialized(*conditions, fail: bool = True):
    """mid specialized for each of `conditions` (functions of Param `wide`), closed by specialize_fail."""
    p = scheduled()
    wide = hl.Param(hl.Int(32), "wide")
    for cond in conditions:
        p.mid.specialize(cond(wide)).unroll(p.x, 2)  # <-specialize
    if fail:
        p.mid.specialize_fail("wide must be 0 or more")  # <-fail
    return hl.compile(p.output, name="demo"), wide


@case("simulation", "specialize_fail chosen: no specialization's condition holds as the design runs", (
    "{fail}: A schedule specialized with specialize_fail() was chosen: wide must be 0 or more"))
def specialize_fail_chosen():
    design, wide = _specialized(lambda w: w >= 0)
    return design.reference_output({**design.example_inputs(), "wide": -1})


@specialize_fail_chosen.fix
def _():
    design, wide = _specialized(lambda w: w >= 0)
    return design.reference_output({**design.example_inputs(), "wide": 1})


@case("schedule", "specialize on a condition that is not a boolean", (
    "{specialize}: In schedule for mid: specialize(wide): the condition is int32, not a boolean; compare it, e.g. "
    "specialize(width >= 64)"), func="mid")
def specialize_of_an_integer():
    return _specialized(lambda w: w, fail=False)


@specialize_of_an_integer.fix
def _():
    return _specialized(lambda w: w != 0, fail=False)


@case("schedule", "specialize_fail with no specialization before it", (
    "{fail}: In schedule for mid: specialize_fail('wide must be 0 or more') with no specialization before it; add "
    "the specialize(condition) calls it closes, or remove it"), func="mid")
def specialize_fail_alone():
    return _specialized()


@specialize_fail_alone.fix
def _():
    return _specialized(lambda w: w >= 0)


@case("schedule", "specialize after specialize_fail", (
    "{at}: In schedule for mid: specialize after specialize_fail: specialize_fail must be the last specialization "
    "of a stage; move it after this one"), func="mid")
def specialize_after_fail():
    p = scheduled()
    wide = hl.Param(hl.Int(32), "wide")
    p.mid.specialize(wide > 0)
    p.mid.specialize_fail("never")
    p.mid.specialize(wide < 0)  # <-


@specialize_after_fail.fix
def _():
    p = scheduled()
    wide = hl.Param(hl.Int(32), "wide")
    p.mid.specialize(wide > 0)
    p.mid.specialize(wide < 0)
    p.mid.specialize_fail("never")


def _sum_of_taps(kind: str):
    x, y, u = hl.Var("x"), hl.Var("y"), hl.Var("u")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, acc, hw_output = hl.Func("hw_input"), hl.Func("acc"), hl.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    r = hl.RDom([hl.Range(0, 4)], "r")
    acc[x, y] = hl.u16(0)
    if kind == "scaled":
        acc[x, y] = acc[x, y] * 2 + hw_input[x + r.x, y]
    else:
        acc[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = acc[x, y]
    if kind == "scaled":
        acc.update().rfactor(r.x, u)  # <-scaled
    else:
        acc.update().unroll(r.x)
    return accelerated(hw_output, hw_input, inner=(acc,))


@case("schedule", "rfactor of an update that is not an associative reduction", (
    "{scaled}: acc.update(0).rfactor: this update of 'acc' is not an associative reduction rfactor can split: it "
    "must fold a term into the element it updates (acc(x, y) = acc(x, y) op term, op one of +, *, min, max, over "
    "an RDom, the term not reading 'acc'); unroll the RDom's RVars instead (their steps then run in parallel, "
    "combined in a tree of PEs)"), func="acc", simulate=True)
def rfactor_not_associative():
    return _sum_of_taps("scaled")


@rfactor_not_associative.fix
def _():
    return _sum_of_taps("plain")


def _fused_taps(fused: bool):
    """A 2x2 window summed, its RVars fused before rfactor or one of them preserved."""
    x, y, u = hl.Var("x"), hl.Var("y"), hl.Var("u")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, acc, hw_output = hl.Func("hw_input"), hl.Func("acc"), hl.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    hw_output[x, y] = acc[x, y]
    if fused:
        rf = hl.RVar("rf")
        acc.update().fuse(r.x, r.y, rf).rfactor(rf, u)  # <-fused
    else:
        intm = acc.update().unroll(r.y).rfactor(r.y, u)
        intm.compute_at(acc, x).unroll(u).update().unroll(r.x).unroll(u)
    return accelerated(hw_output, hw_input, inner=(acc,))


@case("schedule", "rfactor after a fuse of the stage's RVars", (
    "{fused}: acc.update(0).rfactor: the stage fuses RVar loops (r.x and r.y into rf) before rfactor, which takes "
    "the RDom's RVars apart; rfactor one of them instead (e.g. rfactor(r.y, u)) and schedule the intermediate after "
    "it (splits, reorders, unrolls and fuses of pure Vars may come before rfactor)"), func="acc", simulate=True,
    note="Halide accepts rfactor of a fused RVar; rfactor after splits, reorders and unrolls compiles")
def rfactor_after_scheduling():
    return _fused_taps(True)


@rfactor_after_scheduling.fix
def _():
    return _fused_taps(False)




@case("schedule", "specialize on a Func scheduled inline (Halide refuses it too)", (
    "{at}: In schedule for mid: Function mid is scheduled inline, so it must not have any specializations "
    "(Halide's rule: an inlined Func has no loops of its own to version); schedule it, e.g. mid.compute_root(), "
    "or specialize the Func it is inlined into"), func="mid")
def specialize_an_inlined_func():
    p = scheduled()
    p.mid.compute_inline()
    p.mid.specialize(hl.Param(hl.Int(32), "wide") > 0)  # <-
    return hl.compile(p.output, name="demo")


@specialize_an_inlined_func.fix
def _():
    p = scheduled()
    p.mid.specialize(hl.Param(hl.Int(32), "wide") > 0)
    return hl.compile(p.output, name="demo")


# ---- the reference system's declarative schedule (gaussian_generator.cpp's schedules 9 to 12) -------------------

_DECLARATIVE = (
    "{{at}}: Func 'hw_output': {call} is the reference system's experimental declarative schedule (IterLevel, "
    "iteration_order, get_looplevel, get_memory_level, create_memories, output_rate), which Halide does not have "
    "and mainspring does not support; spell its levels with Halide's calls, as gaussian_generator.cpp's schedule 3 "
    "does (its names: hw_output, hw_input): the host tiles output.bound(x, 0, ...).bound(y, 0, ...) over all of "
    "them; the GLB level hw_output.in_().compute_root().tile(x, y, xo, yo, xi, yi, {w}, {h}).hw_accelerate(xi, xo)"
    ".store_in(hl.MemoryType.GLB); the CGRA level hw_output.compute_at(hw_output.in_(), xo), and each buffered "
    "Func (create_memories) .compute_at(hw_output.in_(), xo); the input's levels "
    "hw_input.in_().compute_at(hw_output.in_(), xo).store_in(hl.MemoryType.GLB) and "
    "hw_input.compute_root().accelerator_input(); an output_rate of n: unroll(xi, n, hl.TailStrategy.RoundUp) on "
    "hw_output.in_() (and unroll(x, n, ...) on the Funcs inside)")


def _levels():
    """A two-tap blur between the copies hw_input and hw_output (gaussian's shape, smaller)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1]
    hw_output[x, y] = blur[x, y]
    output[x, y] = hw_output[x, y]
    return x, y, hw_input, blur, hw_output, output


@case("schedule", "The reference system's iteration_order (gaussian's schedule 9)",
      _DECLARATIVE.format(call="iteration_order", w=8, h=8), func="hw_output")
def declarative_iteration_order():
    x, y, hw_input, blur, hw_output, output = _levels()
    levels = [hl.IterLevel("CGRA", [(x, 8), (y, 8)]), hl.IterLevel("GLB", [(x, 1), (y, 1)]),
              hl.IterLevel("host", [(x, 2), (y, 2)])]
    hw_output.iteration_order(levels)  # <-


@declarative_iteration_order.fix
def _():
    return _halide_levels(frame=16, rate=2)


def _halide_levels(frame: int, rate: int = 1):
    """The message's spelling of the three levels (host, GLB, CGRA) in Halide's calls: an 8x8 GLB tile over a
    frame x frame output, `rate` pixels a cycle (output_rate as unrolls)."""
    x, y, hw_input, blur, hw_output, output = _levels()
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    rs = hl.TailStrategy.RoundUp
    output.bound(x, 0, frame).bound(y, 0, frame)
    hw_output.in_().compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    hw_output.compute_at(hw_output.in_(), xo)
    blur.compute_at(hw_output.in_(), xo)
    if rate > 1:
        hw_output.in_().unroll(xi, rate, rs)
        hw_output.unroll(x, rate, rs)
        blur.unroll(x, rate, rs)
    hw_input.in_().compute_at(hw_output.in_(), xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return hl.compile(output, name="levels")


@case("schedule", "The reference system's output_rate (gaussian's schedule 11)",
      _DECLARATIVE.format(call="output_rate", w="W", h="H"), func="hw_output")
def declarative_output_rate():
    x, y, hw_input, blur, hw_output, output = _levels()
    hw_output.output_rate(2)  # <-


@declarative_output_rate.fix
def _():
    return _halide_levels(frame=8, rate=2)


@case("schedule", "The reference system's stream_to_accelerator over named levels",
      _DECLARATIVE.format(call="stream_to_accelerator(levels, loop_levels)", w="W", h="H").replace(
          "Func 'hw_output': stream", "Func 'hw_input': stream"), func="hw_input")
def declarative_stream_levels():
    x, y, hw_input, blur, hw_output, output = _levels()
    root = hl.LoopLevel.root()
    hw_input.stream_to_accelerator(["CGRA", "GLB", "host"], [root, root, root])  # <-


@declarative_stream_levels.fix
def _():
    return _halide_levels(frame=8)
