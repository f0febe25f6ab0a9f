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


def _split_pairs(factor: int):
    """5 taps along x, split by `factor` and the outer part rfactored into lanes of partial sums."""
    x, y, u = hl.Var("x"), hl.Var("y"), hl.Var("u")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, acc, hw_output = hl.Func("hw_input"), hl.Func("acc"), hl.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    r = hl.RDom([hl.Range(0, 5)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    rxo, rxi = hl.RVar("rxo"), hl.RVar("rxi")
    intm = acc.update().split(r.x, rxo, rxi, factor).rfactor(rxo, u)  # <-split
    acc.update().unroll(rxo)
    intm.compute_at(acc, x).unroll(u).update().unroll(rxi).unroll(u)
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, inner=(acc,))


@case("hardware", "rfactor of a split RVar in three parts whose factor does not divide its extent, in hardware", (
    "{split}: Func 'acc_intm' accesses 'hw_input' at (x + min(((u * 2) + 1), 4)), which is not an affine "
    "function of its loops; memories need affine addresses: an index clamped with min or max is affine only where "
    "its values at the iterations of the loops it moves with lie on a line (clamps of a read at constant bounds "
    "become edge taps; this one is not such a read): rfactor of a split RVar clamps the last part's taps where the "
    "split's factor does not divide the RVar's extent, a line over the lanes of the outer part only when there are "
    "two parts; split it by a factor that divides the extent or leaves two parts (at least half of it) and rfactor "
    "the outer part; else compute the clamped index on the host side."), func="acc_intm",
    simulate=True, note="Halide accepts the guarded split (the reference computes it exactly); in two parts "
    "(the fix, a factor that does not divide either) hardware compiles it")
def rfactor_of_a_split_that_does_not_divide():
    return _split_pairs(2)


@rfactor_of_a_split_that_does_not_divide.fix
def _():
    return _split_pairs(3)
