"""An update stored at a reduction variable (`f(r.x, y) = ...`, not a scan) with r.x unrolled runs in its own
loops and writes its lanes as they are: f's readers must read whole lanes of it. Until session 32 its lanes were
counted as 1 (its first argument is no Var), and a reader at fewer lanes ended in memories' internal "not a union
of boxes"; in session 32 it was refused with the unroll that fixes it, and since session 33 (gaps17) the stage runs at
the lanes its reader takes, as narrow.py narrows any producer faster than its readers."""

from __future__ import annotations

import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")


def _program(update_lanes: int, pure_lanes: int, reader_lanes: int, accumulate: bool = False) -> hl.Func:
    """f(x, y) = hw_input(x, y), then f(r.x, y) = 2 * hw_input(r.x, y) + f(r.x, y) (or += 2 * hw_input(r.x + 1, y)
    with `accumulate`) with r.x unrolled by `update_lanes`; hw_output reads f at `reader_lanes`, over 8x4."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f, hw_output, output = (hl.Func(n) for n in ("hw_input", "f", "hw_output", "output"))
    r = hl.RDom([hl.Range(0, 8)], "r")
    hw_input[x, y] = input_[x, y]
    f[x, y] = hw_input[x, y]
    if accumulate:
        f[r.x, y] += hw_input[r.x + 1, y] * 2
    else:
        f[r.x, y] = hw_input[r.x, y] * 2 + f[r.x, y]
    hw_output[x, y] = f[x, y] + 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    if update_lanes > 1:
        f.update(0).unroll(r.x, update_lanes)
    if pure_lanes > 1:
        f.unroll(x, pure_lanes)
    if reader_lanes > 1:
        hw_output.unroll(xi, reader_lanes)
    return output


def _params(all_lanes, verilator):
    """(lanes, simulator): every lanes on Icarus, `verilator`'s on Verilator too (the serial loop around fewer
    lanes, set and add, is the same hardware at the other lanes)."""
    return [pytest.param(lanes, sim, id=f"{sim}-{'-'.join(map(str, lanes))}")
            for sim in SIMULATORS for lanes in all_lanes if sim == "icarus" or lanes == verilator]


@pytest.mark.parametrize("accumulate", [False, True], ids=["set", "add"])
@pytest.mark.parametrize(("lanes", "simulator"), _params([(2, 1, 1), (4, 1, 2), (1, 2, 1)], (4, 1, 2)),
                         indirect=["simulator"])
def test_a_stage_faster_than_its_reader_runs_at_the_readers_lanes(lanes, accumulate, simulator, compile_shared):
    """Halide accepts these unrolls (they change no value): the update (or the pure definition its update reads)
    runs at the lanes its reader takes, its unrolled loop a serial loop around fewer lanes (narrow.py), in the
    cycles its static schedule predicts."""
    design = compile_shared(_program(*lanes, accumulate=accumulate), name="update_lanes_serial")
    result = design.check(design.example_inputs(), simulator=simulator)
    assert result.cycles == result.predicted_cycles <= 40, result.cycles


@pytest.mark.parametrize("accumulate", [False, True], ids=["set", "add"])
@pytest.mark.parametrize(("lanes", "simulator"), _params([(2, 1, 2), (4, 2, 4), (2, 2, 2)], (4, 2, 4)),
                         indirect=["simulator"])
def test_agreeing_lanes_are_bit_exact(lanes, accumulate, simulator, compile_shared):
    design = compile_shared(_program(*lanes, accumulate=accumulate), name="update_lanes_serial")
    result = design.check(design.example_inputs(), simulator=simulator)
    assert result.cycles <= 40, result.cycles
