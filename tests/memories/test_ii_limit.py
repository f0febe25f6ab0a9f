"""The report names what keeps a design from firing its ops once per cycle (memories/ii_limit.py)."""

from __future__ import annotations

from mainspring import CGRA
from mainspring.frontend import ir
from mainspring.hwlower.ir import Loop, LoopNest
from mainspring.memories import analyze

import memories_nests as N
from memories_nests import aff, at, buffers, load, op


def _ping_pong(width: int = 12, height: int = 3) -> LoopNest:
    """a(x) = b(x - 1) + in(x) and b(x) = 2 * a(x) for x >= 1 along each row: two ops feeding each other."""
    x, y = "p1.x", "p1.y"
    b0 = N.copy_op("b_s0", "b", "hw_input", "p0")
    pb, cb = load("b_0", "b", (aff(-1, **{x: 1}), aff(0, **{y: 1})))
    pi, ci = load("hw_input_1", "hw_input", (aff(0, **{x: 1}), aff(0, **{y: 1})))
    a = op("a_s0", "a", at(x, y), [pb, pi], ir.BinOp(N.U16, "add", cb, ci))
    pa, ca = load("a_0", "a", (aff(0, **{x: 1}), aff(0, **{y: 1})))
    b = op("b_s1", "b", at(x, y), [pa], ir.BinOp(N.U16, "add", ca, ca), stage=1)
    return LoopNest("ping_pong", buffers(("hw_input", width, height), ("a", width, height), ("b", width, height)),
                    ("hw_input",), "b", (Loop("p0.y", 0, height, (Loop("p0.x", 0, 1, (b0,)),)),
                                         Loop(y, 0, height, (Loop(x, 1, width - 1, (a, b)),))))


def test_a_design_at_one_firing_per_cycle_has_no_limit():
    assert analyze(N.gaussian()).ii_limits == ()
    assert analyze(N.scan()).ii_limits == ()


def test_a_slow_scan_names_its_update_and_the_cycles_it_lacks():
    plan = analyze(N.scan(), latencies={"prefix_s1": 3})
    assert plan.strategy == "fused_ii3"
    (why,) = plan.ii_limits
    assert why.startswith("at ii 2, Func 'prefix' (update definition 0) reads 'prefix' from its own earlier "
                          "iterations as soon as 2 cycle(s) after they fire, but its kernel takes 3 cycle(s): "), why
    assert "hl.CGRA(pe_ops_per_stage=...)" in why


def test_two_ops_feeding_each_other_are_named_in_order():
    plan = analyze(_ping_pong())
    assert plan.strategy == "fused_ii2", plan.strategy
    (why,) = plan.ii_limits
    assert why.startswith("at ii 1, Func "), why
    assert "'a' (pure definition)" in why and "'b' (update definition 0)" in why and "through 'a', 'b'" in why


def test_no_interval_up_to_the_targets_limit_names_the_limit_it_stopped_at():
    plan = analyze(N.scan(), CGRA(max_ii=2), latencies={"prefix_s1": 3})
    assert plan.strategy != "fused" and not plan.strategy.startswith("fused_ii")
    (why,) = plan.ii_limits
    assert why.startswith("at ii 2, Func 'prefix' (update definition 0)"), why
