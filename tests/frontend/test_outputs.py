"""Pipelines of several outputs (`hl.Pipeline([a, b]).realize(...)`, a Tuple output, a Generator's OutputBuffers):
run with Halide and with mainspring and compared bit for bit, the main one also against NumPy; the Funcs the
outputs share are computed once."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl_ms
from mainspring.frontend.evaluate import realize_arrays

RNG = np.random.default_rng(25)
IMG = RNG.integers(0, 256, size=(12, 16), dtype=np.uint8)  # arr[y, x]: 16 x 12


def _blur_and_gradient(hl, shared_root=False):
    x, y = hl.Var("x"), hl.Var("y")
    im = hl.ImageParam(hl.UInt(8), 2, "input")
    im.set(hl.Buffer(IMG))
    clamped = hl.Func("clamped")
    clamped[x, y] = hl.u16(im[hl.clamp(x, 0, 15), hl.clamp(y, 0, 11)])
    blur = hl.Func("blur")
    blur[x, y] = (clamped[x - 1, y] + 2 * clamped[x, y] + clamped[x + 1, y]) / 4
    grad = hl.Func("grad")
    grad[x, y] = hl.u8(hl.absd(blur[x, y + 1], blur[x, y - 1]) / 2)
    if shared_root:
        clamped.compute_root()
    return blur, grad


def p_blur_and_gradient(hl):
    blur, grad = _blur_and_gradient(hl)
    return [np.asarray(b) for b in hl.Pipeline([blur, grad]).realize([16, 12])]


def p_output_read_by_output(hl):
    """grad reads blur one row past the region asked for: blur's buffer still holds only that region."""
    blur, grad = _blur_and_gradient(hl)
    return [np.asarray(b) for b in hl.Pipeline([grad, blur]).realize([10, 7])]


def p_tuple_and_single(hl):
    x, y = hl.Var("x"), hl.Var("y")
    im = hl.ImageParam(hl.UInt(8), 2, "input")
    im.set(hl.Buffer(IMG))
    pair = hl.Func("pair")
    pair[x, y] = (im[x, y] + im[x + 1, y], hl.u16(im[x, y]) * 3)
    one = hl.Func("one")
    one[x, y] = hl.i16(im[x, y]) - 100
    return [np.asarray(b) for b in hl.Pipeline([pair, one]).realize([8, 6])]


def p_into_buffers(hl):
    """Each output into a buffer of its own size and origin."""
    x, y = hl.Var("x"), hl.Var("y")
    im = hl.ImageParam(hl.UInt(8), 2, "input")
    im.set(hl.Buffer(IMG))
    a, b = hl.Func("a"), hl.Func("b")
    a[x, y] = hl.u16(im[x, y]) + im[x + 1, y + 1]
    b[x, y] = im[x, y] ^ 0x5A
    out_a, out_b = hl.Buffer(hl.UInt(16), [6, 5]), hl.Buffer(hl.UInt(8), [4, 7])
    out_b.set_min([3, 2])
    hl.Pipeline([a, b]).realize([out_a, out_b])
    return [np.asarray(out_a).copy(), np.asarray(out_b).copy()]


def p_mins_of_an_output_read_by_another(hl):
    blur, grad = _blur_and_gradient(hl)
    got = hl.Pipeline([grad, blur]).realize([10, 7])
    return np.array([[b.dim(i).min() for i in range(2)] + [b.dim(i).extent() for i in range(2)] for b in got])


@pytest.mark.parametrize("program", [p_blur_and_gradient, p_output_read_by_output, p_tuple_and_single,
                                     p_into_buffers, p_mins_of_an_output_read_by_another], ids=lambda p: p.__name__)
def test_same_as_halide(same_as_halide, program):
    same_as_halide(program)


def test_blur_and_gradient_against_numpy():
    blur, grad = p_blur_and_gradient(hl_ms)
    c = IMG.astype(np.int64)
    xs, ys = np.arange(16), np.arange(12)
    at = lambda dy, dx: c[np.clip(ys + dy, 0, 11)][:, np.clip(xs + dx, 0, 15)]  # noqa: E731
    want_blur = lambda dy: (at(dy, -1) + 2 * at(dy, 0) + at(dy, 1)) // 4  # noqa: E731
    assert blur.dtype == np.uint16 and np.array_equal(blur, want_blur(0))
    assert grad.dtype == np.uint8 and np.array_equal(grad, np.abs(want_blur(1) - want_blur(-1)) // 2)


def test_one_output_in_a_list_is_a_buffer():
    blur, _ = _blur_and_gradient(hl_ms)
    assert isinstance(hl_ms.Pipeline([blur]).realize([4, 4]), hl_ms.Buffer)


def test_shared_producer_is_computed_once_over_both_needs():
    blur, grad = _blur_and_gradient(hl_ms, shared_root=True)
    pipe = hl_ms.Pipeline([blur, grad])
    names = [pipe.name(f) for f in pipe.order]
    assert names.count("clamped") == 1 and names.index("clamped") < names.index("blur") < names.index("grad")
    stores = realize_arrays(pipe, [(0, 15), (0, 11)])
    clamped = pipe.functions["clamped"]
    # blur asks x in [-1, 16]; grad (through blur, inlined) rows -1 and 12 as well: one store covers both
    assert stores[id(clamped)].mins == (-1, -1) and stores[id(clamped)].arr.shape == (18, 14)


def test_outputs_of_different_dimensions_are_refused():
    x, y = hl_ms.Var("x"), hl_ms.Var("y")
    a, b = hl_ms.Func("a"), hl_ms.Func("b")
    a[x, y] = x + y
    b[x] = x
    with pytest.raises(hl_ms.HalideError, match="Func b is defined with 1 dimensions"):
        hl_ms.Pipeline([a, b]).realize([4, 3])


def test_generator_with_two_outputs_realizes_both():
    @hl_ms.generator(name="two_outputs")
    class Two(hl_ms.Generator):
        input = hl_ms.InputBuffer(hl_ms.UInt(8), 2)
        doubled = hl_ms.OutputBuffer(hl_ms.UInt(16), 2)
        negated = hl_ms.OutputBuffer(hl_ms.Int(16), 2)

        def generate(self):
            x, y = hl_ms.vars("x y")
            self.doubled[x, y] = hl_ms.u16(self.input[x, y]) * 2
            self.negated[x, y] = -hl_ms.i16(self.input[x, y])

    im = hl_ms.ImageParam(hl_ms.UInt(8), 2, "im")
    im.set(hl_ms.Buffer(IMG))
    outs = Two.call(im)
    assert isinstance(outs, list) and len(outs) == 2
    doubled, negated = (np.asarray(b) for b in hl_ms.Pipeline(outs).realize([16, 12]))
    assert np.array_equal(doubled, IMG.astype(np.uint16) * 2)
    assert np.array_equal(negated, -IMG.astype(np.int16))


def test_a_buffer_smaller_than_another_output_reads_is_refused():
    blur, grad = _blur_and_gradient(hl_ms)
    a, b = hl_ms.Buffer(hl_ms.UInt(16), [6, 5]), hl_ms.Buffer(hl_ms.UInt(8), [6, 5])
    with pytest.raises(hl_ms.HalideError, match=r"Output buffer blur is accessed at -1, which is before the min "
                                                r"\(0\) in dimension 1"):
        hl_ms.Pipeline([blur, grad]).realize([a, b])


def test_the_autoscheduler_takes_outputs_that_read_each_other_and_keeps_their_values():
    # grad reads the output blur: blur's value moves into blur_value (frontend/output_reads.py), which both read
    want = [np.asarray(b) for b in hl_ms.Pipeline(list(_blur_and_gradient(hl_ms))).realize([8, 8])]
    blur, grad = _blur_and_gradient(hl_ms)
    for f in (blur, grad):
        f.set_estimates([(0, 8), (0, 8)])
    hl_ms.Pipeline([blur, grad]).apply_autoscheduler(hl_ms.CGRA(), hl_ms.AutoschedulerParams("Mainspring", {}))
    assert "blur_value" in hl_ms.Pipeline([blur, grad]).functions
    got = hl_ms.Pipeline([blur, grad]).realize([8, 8])
    assert all(np.array_equal(np.asarray(g), w) for g, w in zip(got, want, strict=True))


def _fused_loop_nests(hl, compute_with: bool):
    """Two outputs reading blur, blur computed at the first's tile loop: legal (in Halide too) only when the second
    output's loops are fused with the first's by compute_with."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    im = hl.ImageParam(hl.UInt(8), 2, "input")
    im.set(hl.Buffer(IMG))
    blur, hw_blur, hw_grad = hl.Func("blur"), hl.Func("hw_blur"), hl.Func("hw_grad")
    blur[x, y] = (hl.u16(im[x, y]) + im[x + 1, y] + im[x + 2, y]) / 3
    hw_blur[x, y] = blur[x, y]
    hw_grad[x, y] = hl.u8(hl.absd(blur[x + 1, y], blur[x, y]))
    hw_blur.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6)
    hw_grad.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6)
    if compute_with:
        hw_grad.compute_with(hw_blur, xo)
    blur.compute_at(hw_blur, xo)
    return [np.asarray(b) for b in hl.Pipeline([hw_blur, hw_grad]).realize([8, 6])]


def p_compute_with(hl):
    return _fused_loop_nests(hl, True)


def test_compute_with_fuses_loop_nests_as_halide_does(same_as_halide):
    same_as_halide(p_compute_with)
    with pytest.raises(hl_ms.HalideError, match="'hw_blur' uses 'blur', but 'hw_grad' also reads it outside the "
                       "loops of 'hw_blur'"):
        _fused_loop_nests(hl_ms, False)
