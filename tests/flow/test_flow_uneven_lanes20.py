"""Lanes over divisors that were refused until session 35 (helper lanes20).

10 lanes over x / 3: each lane selects among the few words its own quotient takes in a run (the quotient's whole
multiples move the words affinely with the run's cycles, hwlower/lane_quotients.py), 4 words a lane and not the
run's 10 (refused as "more than 8 words"). A chain of divisors (x / 2 and x / 4) read by lanes
that neither divide 2 nor are whole steps of 4 (3, 6) runs in runs of the greatest divisor's uneven split, each
lane selecting at every divisor, the coarser levels in one loop each (hwlower/uneven_chains.py), and so do two
divisors that are no chain (x / 2 and x / 3: runs of 6, hwlower/steps.py `_runs_of_the_lcm`). Bit-exact on both
simulators at the predicted cycles, with storage that does not grow with the frame."""

import functools

import pytest
from test_flow_divisor_chains import _two_levels
from test_flow_upsample_lanes import _checked
from test_flow_upsample_uneven_lanes import _upsample

import mainspring as hl

from conftest import SIMULATORS


def _words(design) -> dict[str, tuple[int, int]]:
    return {b.name: (b.words, b.min_words) for b in design.plan.buffers}


@pytest.mark.xdist_group("lanes20_ten")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_ten_lanes_over_x_over_3(simulator, build_dir):
    # f with a stencil at one lane bounds the rate (61 words a row of 60 pixels): 84 cycles ideal at 60 x 4. Each
    # lane is a 4-way select (2 compares, 3 selects... in PEs): 132 PEs, where the 10-way select took 312.
    design, inputs = _upsample(10, 3, True, width=60, stencil=True)
    _checked(design, inputs, simulator, build_dir, 8)
    rep = design.report
    assert rep["ideal_cycles"] == 84 and rep["pes"] <= 132, rep
    f = _words(design)["f"]
    assert f[0] <= f[1] + 3 <= 7, f


@functools.cache
def _chain(lanes: int, width: int, height: int):
    design = hl.compile(_two_levels(2, 4, width, height, lanes=lanes), name=f"lanes20_chain_{lanes}_{height}")
    return design, design.example_inputs(1)


@pytest.mark.xdist_group("lanes20_chain3")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_three_lanes_over_x_over_2_and_x_over_4(simulator, build_dir):
    # Runs of 4 cycles of 3 lanes (12 pixels: 6 of f, 3 of g); f at one lane bounds the rate (12 a row).
    design, inputs = _chain(3, 24, 4)
    _checked(design, inputs, simulator, build_dir, 6)
    assert design.report["ideal_cycles"] == 48
    words = _words(design)
    assert words["f"][0] <= 6 and words["g"][0] <= 8, words


@pytest.mark.parametrize(("lanes", "most"), [(3, 8)])
def test_chain_lanes_storage_does_not_grow_with_the_frame(lanes, most, build_dir):
    # 24 x 8 and 24 x 16 hold the same: stepped by 2, g (quarter resolution) held its plane whole (31 words at
    # 24 x 8, the dense schedule's). 6 lanes still do (g a copy of its stream, whose rows are longer than the
    # consumer's: README, a gap).
    small, _ = _chain(lanes, 24, 8)
    big, inputs = _chain(lanes, 24, 16)
    assert _words(small) == _words(big) and _words(big)["g"][0] <= most, _words(big)
    res = big.check(inputs, simulator="icarus", build_dir=build_dir)
    assert res.cycles == big.report["predicted_cycles"] <= 1.1 * big.report["ideal_cycles"]


def test_more_lanes_than_a_lane_selects_for_are_refused_with_the_count():
    with pytest.raises(hl.HalideError, match=r"its 17 lanes along x .*select among up to 10 words per run of 2 "
                                             r"cycles .*at most 8 \(so at most 13 lanes that are neither\)"):
        _upsample(17, 2, True, width=34)


@functools.cache
def _two(d1: int, d2: int, width: int, height: int, lanes: int = 1):
    design = hl.compile(_two_levels(d1, d2, width, height, lanes=lanes), name=f"lanes20_two_{d1}_{d2}_{lanes}")
    return design, design.example_inputs(1)


@pytest.mark.xdist_group("lanes20_two")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_x_over_2_and_x_over_3_run_in_runs_of_6(simulator, build_dir):
    # Refused before session 35 ("x / 3 is affine in no split of it"): x = 6 * a + b, x / 2 = 3 * a + b / 2 and
    # x / 3 = 2 * a + b / 3, each a select among the few words of the run; f and g keep one loop each.
    design, inputs = _two(2, 3, 24, 4)
    _checked(design, inputs, simulator, build_dir, 8)
    assert design.report["ideal_cycles"] == 96
    words = _words(design)
    assert words["f"][0] <= 9 and words["g"][0] <= 7, words


def _one_stream(d2: int, width: int):
    """hw_output = f(x / 2) + g(x / d2), f and g both of hw_input (the catalogue's read_at_two_divisors)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f, g, hw_output, output = (hl.Func(n) for n in ("hw_input", "f", "g", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    f[x, y] = hw_input[x, y] + 1
    g[x, y] = hw_input[x, y] * 2
    hw_output[x, y] = f[x / 2, y] + g[x / d2, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 2)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, 2).hw_accelerate(xi, xo)
    f.compute_at(hw_output, xo)
    g.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name=f"lanes20_one_stream_{d2}")


def test_two_divisors_of_one_stream_and_at_lanes(build_dir):
    # f at x / 2 and g at x / 3 both of hw_input (refused before: the class had no consistent resolutions), and 4
    # lanes over x / 2 and x / 3 of two streams (runs of 3 cycles of 4 lanes).
    for design in (_one_stream(3, 12), _two(2, 3, 24, 2, lanes=4)[0]):
        res = design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)
        assert res.cycles == design.report["predicted_cycles"] <= design.report["ideal_cycles"] + 12


@pytest.mark.parametrize(("d2", "lanes"), [(3, 1), (4, 3)])
def test_runs_in_host_tiles(d2, lanes, build_dir):
    # Two 12 x 4 host tiles of x / 2 and x / 3 (runs of 6) or of 3 lanes over x / 2 and x / 4 (runs of 12): each
    # tile starts whole runs from the first, so a remainder within the run is the same in every tile (it was an
    # internal assert in tile_coordinates: the coordinate x.rest0 is no dimension of the Func).
    design = hl.compile(_two_levels(2, d2, 24, 4, tile=(12, 4), lanes=lanes), name=f"lanes20_tiles_{d2}_{lanes}")
    assert design.report["tiles"] == 2
    res = design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]


def test_a_tail_rounded_past_the_box_reads_only_selected_words(build_dir):
    # 3 lanes over x / 2 in 34 columns: up's loop rounds up to 36 (ShiftInwards, shift_tails.py), whose last run
    # reads word 17 of f, past f's box, for columns 34 and 35 that no lane selects for a column of the box; the
    # reads are guarded to f's box (an internal contract failure before, on main too).
    design, inputs = _upsample(3, 2, True, width=34)
    res = design.check(inputs, simulator="icarus", build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]


def test_lanes_over_two_divisors_selecting_among_too_many_are_refused_with_the_count():
    # 13 lanes over x / 2 and x / 3: runs of 6 iterations, in which x / 2 would select among up to 10 words (it was
    # the generic "not affine" refusal, whose advice did not say why)
    with pytest.raises(hl.HalideError, match=r"runs its loop over x in runs of 6 iterations of 13 lanes \(the lcm "
                                             r"of its divisors is 6\), in which x / 2 would select among up to 10"):
        hl.compile(_two_levels(2, 3, 78, 2, lanes=13), name="lanes20_two_13")


def test_a_sheared_transposed_convolution_runs_its_taps_serially(build_dir):
    # up(x, y) += hw_input((x + r.x) / 2 + r.y, y / 2) * w(r) over 2 x 2 serial taps: x = 2 * a + b, the quotient
    # a + (b + r.x) / 2 + r.y selects between 2 words each step (the catalogue's serial case was refused, its fix
    # unrolled the taps: 71 cycles for 64 with 6 PEs)
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "errors"))
    import errors_tiles

    design = errors_tiles._sheared_transposed_convolution(False, taps=2)
    res = design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] <= design.report["ideal_cycles"] + 10
    words = _words(design)
    assert words["hw_input"][0] <= words["hw_input"][1] + 3, words
