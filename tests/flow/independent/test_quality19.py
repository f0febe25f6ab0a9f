"""Quality19 (session 34): ideal cycles that add up the phases a RAM makes (a histogram's readout after its last
update, a bilateral grid's slice after its scatter: mainspring/ideal.py), and an integral image as one 2-D scan at
2 lanes comparing its rounded-up x once a lane (hwlower/scans.py). Bit-exact on both simulators, references equal
to Halide 21's. Figures: BENCHMARKS.md "Helper quality19, session 34"."""

import functools

import autoprobe16_programs as p16
import numpy as np
import pytest
import quality19_programs as progs
from oracle import autoscheduled, halide_outputs
from porting import BUILD, SIMULATORS

import mainspring as hl
from mainspring.apps import histogram


@functools.cache
def _histogram():
    out, inputs = histogram.build(20, 20, auto=True)
    return hl.compile(out, name="quality19_histogram"), inputs


# each test's simulators on one xdist worker, which compiles its design once (functools.cache is per worker)
@pytest.mark.xdist_group("quality19_histogram")
@pytest.mark.parametrize("simulator", SIMULATORS)
def test_a_histograms_readout_counts_in_its_ideal_cycles(simulator):
    """400 pixels, then the 256 bins read out after the last update: 655 ideal cycles (the readout's first read in
    the cycle of the last update), 400 before; 658 run."""
    design, inputs = _histogram()
    rep = design.report
    assert rep["ideal_cycles"] == 400 + 256 - 1 and rep["predicted_cycles"] == 658, rep
    assert design.check(inputs, simulator=simulator, build_dir=BUILD).cycles == 658


@functools.cache
def _grid(name):
    return autoscheduled(getattr(progs, name), (16, 8), {}, name=f"quality19_{name}")[0]


@pytest.mark.parametrize(("name", "ideal", "cycles", "words"), [
    # the scatter's pass over the input, then the slice's: 2 x 128 (two_pass_transfers)
    pytest.param("bilateral_grid_sum", 256, 262, 134, marks=pytest.mark.xdist_group("quality19_grid_sum")),
    # the sums' update, then the counts' (an update of a RAM waits for the one before it), then the slice: 3 x 128 - 2
    pytest.param("bilateral_grid", 382, 398, 396, marks=pytest.mark.xdist_group("quality19_grid"))])
@pytest.mark.parametrize("simulator", SIMULATORS)
def test_a_bilateral_grids_slice_waits_for_its_scatter(name, ideal, cycles, words, simulator, halide):
    design = _grid(name)
    rep = design.report
    assert (rep["ideal_cycles"], rep["predicted_cycles"], sum(b["words"] for b in rep["buffers"])) == \
        (ideal, cycles, words), rep
    (grid,) = [b for b in rep["buffers"] if b["name"] == "grid"]
    assert grid["min_words"] == 16 // 4 * 8 // 4 * 16 * (2 if name == "bilateral_grid" else 1)
    inputs = design.example_inputs(1)
    assert design.check(inputs, simulator=simulator, build_dir=BUILD).cycles == cycles
    out, images = getattr(progs, name)(halide, 16, 8)
    (want,) = halide_outputs(halide, out, images, inputs, (16, 8))
    assert np.array_equal(design.reference_outputs(inputs)[0], want)


def test_an_integral_images_rounded_up_lanes_compare_x_once_a_lane():
    """2 lanes over 9 columns: x from 1 to 8 in a buffer 0..9, `u16(x - 1) <= 7` (one compare a lane, 2 before): 14
    PEs, 18 before (1 lane: 7). Its cycles and storage are unchanged (test_autoscan17.py; bit-exact in
    test_autoprobes.py)."""
    design, result = autoscheduled(p16.integral2d, (9, 5), {"lanes": "2"}, name="quality19_integral")
    assert result.lanes == 2 and design.report["pes"] == 14
    (op,) = [op for _, op in design.program.nest.ops() if op.name == "s_s0"]
    assert sorted(c.value.const for c in op.coords) == [-1, 0]  # x less its span's start; y


@pytest.mark.parametrize(("seed", "ideal"), [(172222, 100 + 3 * 2 + 100 - 2), (172277, 4 * 2 + 4 + 100 - 2)])
def test_fuzz_autos_ideal_for_a_table_adds_its_passes_as_the_report_does(seed, ideal):
    """172222: a RAM of 100 bins started from the image (`divided`: a pass over the bins), 3x2 updates, the readout;
    172277: 4x2 updates, a second scatter over a row, the readout (each pass after the last step of the one before).
    The algorithm's ideal counted the busiest pass alone (105 and 100): 'the schedule's ideal is 204 cycles'."""
    import mainspring
    from mainspring import fuzz_auto

    case = fuzz_auto.resolve_budget(fuzz_auto.generate(seed))
    env: dict = {}
    exec(compile(fuzz_auto.source(case), f"<fuzz --auto case {seed}>", "exec"), env)
    algorithm = env["algorithm"](mainspring)
    env["schedule"](mainspring, algorithm)
    rep = hl.compile(algorithm["output"], name=f"quality19_fuzz_{seed}", prove=False).report
    assert rep["ideal_cycles"] == fuzz_auto.expected_ideal(case, {}, 1) == ideal, rep
