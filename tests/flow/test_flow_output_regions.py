"""An output with no bound of its own that reads bounded Funcs at its variable plus a constant (issue 8, gaps19):
`output[x, y] = hw_output[x + 1, y]`, `hw_output[x, y] + hw_output[x + 1, y]`, or hw_output and a host Func `gain`
bounded differently. Halide 21 compiles these and takes the output's size from realize, which must stay inside
every bound; the compile takes the largest region that does (frontend/output_bounds.py). Each is bit-exact on both
simulators, and Halide's realize of that region is the reference's output. Bounds with no region in common are
refused (the catalogue's output_size_from_differing_bounds), as Halide fails any realize of them."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import mainspring as hl

W, H = 16, 8


def _algorithm(h, offset: int, second: str | None):
    """The pipeline in module `h` (mainspring or Halide): output reads hw_output at x + offset, and (`second`)
    hw_output at x too ("self") or a host Func gain bounded to [2, 10) in x ("gain")."""
    x, y = h.Var("x"), h.Var("y")
    inp = h.ImageParam(h.UInt(8), 2, "input")
    hw_input, blur, hw_output, gain, output = (h.Func(n) for n in ("hw_input", "blur", "hw_output", "gain", "output"))
    hw_input[x, y] = h.u16(inp[x, y])
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
    hw_output[x, y] = blur[x, y]
    gain[x, y] = h.u16(inp[x, y]) + 1
    v = hw_output[x + offset, y]
    if second == "self":
        v = v + hw_output[x, y]
    elif second == "gain":
        v = v * gain[x, y]
    output[x, y] = h.u8(v)
    hw_output.compute_root().bound(x, 0, W).bound(y, 0, H)
    if second == "gain":
        gain.compute_root().bound(x, 2, 8).bound(y, 0, H)
    return output, inp, (x, y, hw_input, blur, hw_output)


def _scheduled(offset: int, second: str | None) -> hl.Func:
    """The mainspring pipeline's output, hw_output one accelerator tile with blur buffered inside."""
    output, _, (x, y, hw_input, blur, hw_output) = _algorithm(hl, offset, second)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    hw_output.tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    blur.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@functools.cache
def _compiled(offset: int, second: str | None):
    """One compile per case and worker: a case's tests are one xdist group."""
    return hl.compile(_scheduled(offset, second), name="regions")


# (offset, second read, the output's region in x the bounds allow)
CASES = [pytest.param(*c, marks=pytest.mark.xdist_group(f"regions_{c[0]}_{c[1]}")) for c in
         [(1, None, (-1, 14)), (-2, None, (2, 17)), (1, "self", (0, 14)), (0, "gain", (2, 9)), (3, "gain", (2, 9))]]


@pytest.mark.parametrize(("offset", "second", "region"), CASES)
def test_the_output_takes_the_region_every_bound_allows(offset, second, region):
    assert _compiled(offset, second).program.output_box == [region, (0, H - 1)]


def _halide_realize(offset: int, second: str | None, given, box) -> np.ndarray:
    import halide

    output, inp, _ = _algorithm(halide, offset, second)
    image = halide.Buffer(np.ascontiguousarray(np.asarray(given)))
    image.set_min([given.dim(i).min() for i in range(given.dimensions())])
    inp.set(image)
    out = halide.Buffer(halide.UInt(8), [hi - lo + 1 for lo, hi in box])
    out.set_min([lo for lo, _ in box])
    output.realize(out)
    return np.asarray(out).copy()


def _bit_exact_params():
    """The cases' accelerators are one design (hw_output's tile is bounded alike; their Verilog is byte-identical):
    each case runs on Icarus, the first on Verilator as well."""
    out = []
    for k, case in enumerate(CASES[::2] + CASES[3:4]):
        for simulator in ("icarus", "verilator") if k == 0 else ("icarus",):
            offset, second, _ = case.values
            out.append(pytest.param(*case.values, simulator, marks=case.marks, id=f"{offset}-{second}-{simulator}"))
    return out


@pytest.mark.parametrize(("offset", "second", "region", "simulator"), _bit_exact_params(), indirect=["simulator"])
def test_the_output_region_is_bit_exact(offset, second, region, simulator, build_dir):
    design = _compiled(offset, second)
    inputs = design.example_inputs(7)
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    want = _halide_realize(offset, second, inputs["input"], design.program.output_box)
    np.testing.assert_array_equal(design.reference_output(inputs), want)


def test_bounds_with_no_region_in_common_are_refused():
    # hw_output read at x + 9 allows [-9, 7), gain [2, 10): [2, 7); at x + 15, [-15, 1): none
    assert hl.compile(_scheduled(9, "gain"), name="regions").program.output_box[0] == (2, 6)
    with pytest.raises(hl.ScheduleError, match=r"\[-15, 1\) by hw_output.bound\(x, 0, 16\) at .*\[2, 10\) by "
                                               r"gain.bound\(x, 2, 8\) at .*e.g. gain.bound\(x, -15, 8\)"):
        hl.compile(_scheduled(15, "gain"), name="regions")
