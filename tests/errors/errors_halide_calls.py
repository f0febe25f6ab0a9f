"""Catalogue cases: Halide schedule calls for other targets or for a CPU's parallelism (GPU and device copies,
specialize, rfactor), accepted where they mean something on the accelerator and refused otherwise."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerated, case, scheduled


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


@case("schedule", "specialize (a second version of the loops for a runtime condition)", (
    "{at}: In schedule for mid: specialize builds a second version of the loops for when a runtime condition "
    "holds, but the accelerator is one fixed circuit built for the bounds known at compile time; remove "
    "specialize (and any specialize_fail), and give the schedule of the case the hardware should run"),
    func="mid", simulate=True, note="Halide accepts specialize; a design per condition, chosen by the host, "
    "would be the hardware equivalent")
def specialize():
    p = scheduled()
    fast = hl.Param(hl.Bool(), "fast")
    p.mid.specialize(fast)  # <-
    return hl.compile(p.output, name="demo")


@specialize.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo")


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


