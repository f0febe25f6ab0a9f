"""A fused loop split at the accelerator's boundary (issue 8, hwlower/fused_splits.py):
`hw_output.fuse(x, y, xy).split(xy, xo, xi, F).hw_accelerate(xi, xo)`, a producer computed at xo. A factor
dividing the row (tiles of F columns by a row) or a whole number of rows (tiles of every column by F / W rows, the
last shifted inward where they do not divide the height) compiles, bit-exact on both simulators at its predicted
cycles, and Halide 21 realizes the same schedule (without the hardware calls) to the same values; another factor
is refused, and its fix compiles."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS

W, H = 8, 6
IMAGE = (np.arange((W + 2) * (H + 2)).reshape(H + 2, W + 2) * 29 % 253).astype(np.uint8)


def _algorithm(m):
    x, y = m.Var("x"), m.Var("y")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, blur_x, hw_output, output = (m.Func(n) for n in ("hw_input", "blur_x", "hw_output", "output"))
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    blur_x[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output[x, y] = m.cast(m.UInt(8), (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) >> 4)
    output[x, y] = hw_output[x, y]
    return inp, x, y, hw_input, blur_x, hw_output, output


def _scheduled(factor: int, tail: str = "Auto"):
    _, x, y, hw_input, blur_x, hw_output, output = _algorithm(hl)
    xy, xo, xi = hl.vars("xy xo xi")
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().fuse(x, y, xy).split(xy, xo, xi, factor, getattr(hl.TailStrategy, tail))
    hw_output.hw_accelerate(xi, xo)
    blur_x.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output, hw_output


@functools.cache
def _design(case: str) -> hl.Design:
    factor, _, tail = case.partition("_")
    return hl.compile(_scheduled(int(factor), tail or "Auto")[0], name=f"fused_split_{case}")


def _factor(case: str) -> int:
    return int(case.partition("_")[0])


# case (factor, and its tail if not Auto) -> (tiles, tile box): 4 and 8 divide the row, 16 and 24 are 2 and 3
# whole rows dividing the height, 32 is 4 rows of 6: its second tile shifted inward to rows 2 to 5 (ShiftInwards,
# the Auto tail, and GuardWithIf alike, as Halide's fused loop's last run past W * H is whole rows past H)
CASES = {"4": (12, (4, 1)), "8": (6, (8, 1)), "16": (3, (8, 2)), "24": (2, (8, 3)), "32": (2, (8, 4)),
         "32_GuardWithIf": (2, (8, 4))}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_split_of_the_fused_loop_is_bit_exact(case, simulator, build_dir):
    design = _design(case)
    res = design.check({"input": hl.Buffer(IMAGE)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    tiles, (tw, th) = CASES[case]
    assert len(design.program.tiles) == tiles
    assert all(hi - lo + 1 == e for t in design.program.tiles for (lo, hi), e in zip(t.output_box, (tw, th)))


@pytest.mark.parametrize("case", CASES)
def test_halide_takes_the_same_schedule_to_the_same_values(case, halide):
    factor, _, tail = case.partition("_")
    inp, x, y, _, blur_x, hw_output, output = _algorithm(halide)
    xy, xo, xi = (halide.Var(n) for n in ("xy", "xo", "xi"))
    tail_strategy = getattr(halide.TailStrategy, tail or "Auto")
    hw_output.compute_root().fuse(x, y, xy).split(xy, xo, xi, int(factor), tail_strategy)
    blur_x.compute_at(hw_output, xo)
    inp.set(halide.Buffer(IMAGE))
    want = np.asarray(output.realize([W, H]))
    np.testing.assert_array_equal(_design(case).reference_output({"input": hl.Buffer(IMAGE)}), want)


def test_the_user_program_stays_as_written():
    output, hw_output = _scheduled(4)
    hl.compile(output, name="fused_split_kept")
    kinds = [type(d).__name__ for d in hw_output.function().definitions[0].schedule.directives]
    assert kinds == ["Fuse", "Split"]


CYCLES = {"4": (276, 216), "8": (210, 180), "16": (135, 120), "24": (110, 100), "32": (130, 120)}


@pytest.mark.parametrize("case", CYCLES)
def test_cycles_against_ideal(case):
    """Predicted (simulated: above) against ideal cycles (every input word a tile reads, its halo included, at
    one a cycle): fewer, taller tiles read less halo and fill their pipeline fewer times."""
    r = _design(case).report
    assert (r["predicted_cycles"], r["ideal_cycles"]) == CYCLES[case]


@pytest.mark.parametrize(("factor", "fix"), [(3, 2), (12, 8)])
def test_a_factor_crossing_rows_is_refused_and_its_fix_compiles(factor, fix):
    with pytest.raises(hl.HalideError, match=(
            rf"Func 'hw_output': split\(xy, xo, xi, {factor}\) of the fused loop xy \(fuse\(x, y, xy\) over 8 x 6\) "
            rf".*not boxes: they cross the rows of x, whose extent is 8")) as e:
        hl.compile(_scheduled(factor)[0], name="fused_split_refused")
    assert f"(e.g. {fix}) or a multiple of it (e.g. 16: whole rows)" in str(e.value)
    assert len(hl.compile(_scheduled(fix)[0], name="fused_split_fix").program.tiles) == W * H // fix


def _planes(factor: int):
    """An 8 x 4 x 2 copy of planes, x, y and c fused into one loop split at the accelerator."""
    x, y, c, xy, t, xo, xi = hl.vars("x y c xy t xo xi")
    inp = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y, c] = inp[x, y, c]
    hw_output[x, y, c] = hw_input[x, y, c] * 3 + hw_input[x + 1, y, c]
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, 8).bound(y, 0, 4).bound(c, 0, 2)
    hw_output.compute_root().fuse(x, y, xy).fuse(xy, c, t).split(t, xo, xi, factor).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name=f"fused_planes_{factor}")


PLANES = np.arange(9 * 4 * 2).reshape(2, 4, 9).astype(np.uint8)


@pytest.mark.parametrize(("factor", "tiles"), [(4, 16), (16, 4), (32, 2)])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_fused_loop_fused_again_then_split_is_bit_exact(factor, tiles, simulator, build_dir):
    """Runs of 4 columns, of 2 whole rows of a plane, or of a whole plane (its 4 rows): the fused loop fused with c
    again becomes host loops."""
    design = _planes(factor)
    assert len(design.program.tiles) == tiles
    res = design.check({"input": hl.Buffer(PLANES)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize(("factor", "why", "fix"), [
    (24, r"they cross the planes of y, whose extent is 4", 16),
    (64, r"of whole planes, which the accelerator would run as a fused loop fused again with c", 32)])
def test_runs_across_planes_or_of_whole_planes_are_refused_and_the_fix_compiles(factor, why, fix):
    with pytest.raises(hl.HalideError, match=(
            rf"split\(t, xo, xi, {factor}\) of the fused loop t \(fuse\(x, y, xy\) fuse\(xy, c, t\) over 8 x 4 x 2\) "
            rf".*{why}.* Use a factor dividing 8 \(e\.g\. 8\) or 8 times a divisor of 4 \(e\.g\. {fix}: whole rows")):
        _planes(factor)
    assert len(_planes(fix).program.tiles) == 8 * 4 * 2 // fix


def _upsampled(m, factor: int):
    """An 8 x 4 upsample by 2 of x and y (a blend of neighbours), the output's fused loop split in runs of a row
    (`factor` dividing 8) or of whole rows: each tile of one row grows to 2 rows, the first tile's phase."""
    x, y = m.Var("x"), m.Var("y")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, up, hw_output, output = (m.Func(n) for n in ("hw_input", "up", "hw_output", "output"))
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    up[x, y] = (hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2] * 3) >> 2
    hw_output[x, y] = m.cast(m.UInt(8), up[x, y])
    output[x, y] = hw_output[x, y]
    xy, xo, xi = (m.Var(n) for n in ("xy", "xo", "xi"))
    hw_output.compute_root().fuse(x, y, xy).split(xy, xo, xi, factor)
    up.compute_at(hw_output, xo)
    if m is hl:
        output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return inp, output


@pytest.mark.parametrize("factor", [2, 8, 24])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_runs_of_a_row_over_an_upsample_grow_to_its_steps(factor, simulator, build_dir, halide):
    """fuzz 176150 (tests/flow/fuzz_cases/fused_split_of_a_row_over_an_upsample.py): an internal assert before.
    Bit-exact on both simulators, and equal to Halide 21's realize of the same schedule."""
    _, output = _upsampled(hl, factor)
    design = hl.compile(output, name=f"fused_split_up_{factor}")
    data = (np.arange(6 * 10).reshape(6, 10) * 37 % 251).astype(np.uint8)
    res = design.check({"input": hl.Buffer(data)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    inp, theirs = _upsampled(halide, factor)
    inp.set(halide.Buffer(data))
    np.testing.assert_array_equal(design.reference_output({"input": hl.Buffer(data)}),
                                  np.asarray(theirs.realize([8, 4])))
