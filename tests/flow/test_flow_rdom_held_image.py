"""An RDom over an image's size inside the accelerator, where the ImageParam holds a buffer when the pipeline is
compiled (`input.set(buf)`, issue 8, gaps20): the RDom's extent is that buffer's size, as Halide's realize reads it
(there a run-time value; the hardware fixes it at compile time). Bit-exact on both simulators and equal to Halide
21's realize with that buffer. Where no buffer is held and no `dim(i).set_bounds` gives the size, the refusal stays
(catalogue rdom_of_image_size): the region the output's bounds read is only a lower bound on the image's size."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 8, 6
IMAGE = (np.arange(12 * H).reshape(H, 12) * 37 % 251).astype(np.uint16)  # wider than the output


def _algorithm(h, image):
    """hw_output sums each row of the image over its whole width (an RDom over input.width()), plus x."""
    x, y = h.Var("x"), h.Var("y")
    inp = h.ImageParam(h.UInt(16), 2, "input")
    if image is not None:
        inp.set(image)
    r = h.RDom([h.Range(0, inp.width())], "r")
    hw_input, hw_output, output = (h.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = h.u16(x)
    hw_output[x, y] += hw_input[r.x, y]
    output[x, y] = hw_output[x, y]
    return output, inp, (x, y, hw_input, hw_output)


def _scheduled(image) -> hl.Func:
    output, _, (x, y, hw_input, hw_output) = _algorithm(hl, image)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@functools.cache
def _held():
    """The design both simulators' runs and the inputs' test read: one compile on their one xdist worker."""
    return hl.compile(_scheduled(hl.Buffer(IMAGE)), name="held")


@pytest.mark.xdist_group("rdom_held_image")
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_rdom_over_a_held_image_size_takes_its_size(simulator, build_dir):
    design = _held()
    inputs = {"input": hl.Buffer(IMAGE)}
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    import halide

    out, inp, _ = _algorithm(halide, None)
    kept = halide.Buffer(IMAGE)
    inp.set(kept)
    want = np.asarray(out.realize([W, H]))
    np.testing.assert_array_equal(design.reference_output(inputs), want)
    assert want[0, 0] == IMAGE[0].sum() % 65536  # the sum runs over the image's 12 columns, not the output's 8


@pytest.mark.xdist_group("rdom_held_image")
def test_the_inputs_drawn_for_it_are_as_wide_as_the_held_image():
    assert np.asarray(_held().example_inputs()["input"]).shape == IMAGE.shape


def test_with_no_buffer_held_the_size_is_still_refused():
    with pytest.raises(hl.HalideError, match=r"RDom r: dimension r.x .* input.set\("):
        hl.compile(_scheduled(None), name="held")


def test_a_bound_by_a_held_image_size_is_that_size():
    output, inp, (x, y, hw_input, hw_output) = _algorithm(hl, hl.Buffer(IMAGE))
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, inp.width() - 4).bound(y, 0, inp.height())
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    assert hl.compile(output, name="held").program.output_box == [(0, W - 1), (0, H - 1)]


def _clamped(h, image):
    """A row sum over the image's width through a boundary condition, plus a tap past the image's right edge."""
    x, y = h.Var("x"), h.Var("y")
    inp = h.ImageParam(h.UInt(16), 2, "input")
    if image is not None:
        inp.set(image)
    r = h.RDom([h.Range(0, inp.width())], "r")
    clamped = h.BoundaryConditions.repeat_edge(inp)
    out = h.Func("out")
    out[x, y] = h.u16(x)
    out[x, y] += clamped[r.x, y] + clamped[x + 13, y]
    return out, inp


def test_the_autoscheduler_binds_a_held_image_at_its_size(build_dir):
    out, _ = _clamped(hl, hl.Buffer(IMAGE))
    out.set_estimates([(0, W), (0, H)])
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    assert 'funcs["input"].dim(0).set_bounds(0, 12)' in result.schedule_source  # the buffer's, not the output's 8
    design = hl.compile(out, name="held_auto")
    inputs = {"input": hl.Buffer(IMAGE)}
    design.check(inputs, simulator="icarus", build_dir=build_dir)
    import halide

    want, inp = _clamped(halide, None)
    kept = halide.Buffer(IMAGE)
    inp.set(kept)
    np.testing.assert_array_equal(design.reference_output(inputs), np.asarray(want.realize([W, H])))


def test_a_pipeline_realized_again_reads_the_buffer_held_then():
    output, inp, _ = _algorithm(hl, hl.Buffer(IMAGE))
    pipe = hl.Pipeline(output)
    first = np.asarray(pipe.realize([W, H]))
    inp.set(hl.Buffer(IMAGE[:, :9].copy()))  # 9 columns now: Halide's next realize sums 9
    again = np.asarray(pipe.realize([W, H]))
    assert first[0, 0] == IMAGE[0].sum() % 65536 and again[0, 0] == IMAGE[0, :9].sum()
