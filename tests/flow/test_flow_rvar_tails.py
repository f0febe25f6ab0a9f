"""A reduction variable split by a factor that does not divide its steps (Halide's guarded tail, the default on an
RVar; hwlower/rvar_tails.py): the loops round up, the steps past the domain keep the element's value, and their
reads are guarded, so producers are asked for nothing more. Bit for bit on both simulators."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from compile_once import grouped

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
T = hl.TailStrategy


def _conv(kind: str, width=10, height=6):
    """A 3x3 weighted sum (weights from the reduction's coordinates) of a buffered producer, its update
    scheduled by `kind`; "max", "scan": a 3-tap maximum / a step that is no accumulation (r.x split by 2)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, pre, acc, hw_output, output = (hl.Func(n) for n in ("hw_input", "pre", "acc", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    pre[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    acc[x, y] = hl.u16(7)
    if kind == "max":
        acc[x, y] = hl.max(acc[x, y], pre[x + r.x, y + r.y])
    elif kind == "scan":
        acc[x, y] = pre[x + r.x, y + r.y] + acc[x, y] // 2
    else:
        acc[x, y] += pre[x + r.x, y + r.y] * hl.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    acc.compute_at(hw_output, xo)
    pre.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    u, ro, ri = acc.update(), hl.RVar("ro"), hl.RVar("ri")
    if kind in ("serial", "scan"):  # a scan's steps read each other: its loops stay serial
        u.split(r.x, ro, ri, 2, T.GuardWithIf)
    elif kind == "inner":  # unroll(r.x, 2): a serial loop of two-point trees
        u.unroll(r.x, 2).unroll(r.y)
    elif kind == "outer":
        u.split(r.y, ro, ri, 2).unroll(ro).unroll(r.x)
    elif kind == "whole":  # both halves unrolled: the update folds over the domain's 9 points
        u.split(r.x, ro, ri, 2, T.PredicateLoads).unroll(ri).unroll(ro).unroll(r.y)
    elif kind == "lanes":
        hw_output.unroll(xi, 2)
        acc.unroll(x, 2)
        u.unroll(x, 2).unroll(r.x, 2).unroll(r.y)
    else:
        u.split(r.x, ro, ri, 2).unroll(r.y)
    rng = np.random.default_rng(11)
    return output, {"input": rng.integers(0, 3000, (height + 2, width + 3)).astype(np.uint16)}


# schedule -> the update's firings: pixels / lanes x its serial steps, rounded up (r.x split by 2 runs 2 x 2)
CASES = {"serial": 60 * 4 * 3, "inner": 60 * 2, "outer": 60 * 2, "whole": 60, "lanes": 30 * 2,
         "max": 60 * 4, "scan": 60 * 4 * 3}


@functools.cache  # a kind's design for its two simulators (one xdist group), the divisible one for every kind
def _design(kind: str):
    out, inputs = _conv(kind)
    return hl.compile(out, name="divisible" if kind == "plain_divisible" else f"rvar_tail_{kind}"), inputs


@pytest.mark.parametrize("kind", grouped("rvar_tail", sorted(CASES)))
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_reduction_tail_is_guarded(kind, simulator, build_dir):
    design, inputs = _design(kind)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert design.report["ideal_cycles"] == max(CASES[kind], inputs["input"].size)  # the busiest kernel
    assert res.cycles == res.predicted_cycles
    # the guarded steps read nothing past the producer's box: the input is the divisible schedule's
    divisible, _ = _design("plain_divisible")
    assert [i.image_box for i in design.program.inputs] == [i.image_box for i in divisible.program.inputs]
    assert design.program.tiles == divisible.program.tiles


@pytest.mark.parametrize("tail", [T.RoundUp, T.ShiftInwards])
def test_rounding_tails_are_refused_on_a_reduction(tail):
    with pytest.raises(hl.ScheduleError, match=f"a {tail.name} tail would add steps or repeat them"):
        _rounding(tail)


def _rounding(tail):
    """The 3-tap sum split with an explicit rounding tail, compiled."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, acc, hw_output, output = (hl.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    r = hl.RDom([hl.Range(0, 3)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 4)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    acc.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    acc.update().split(r.x, hl.RVar("ro"), hl.RVar("ri"), 2, tail)
    return hl.compile(output, name="rounding")
