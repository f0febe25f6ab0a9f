"""Pipelines of several outputs on the hardware flow (frontend/outputs.py): `hl.compile([a, b])` and a Tuple
output. The outputs come from one accelerator stream (a Tuple hw_output: a blur and its gradient, computed in one
loop nest; or two Funcs accelerated alike, or fused by compute_with, which frontend/fuse_outputs.py makes such a
Tuple) and the host packs them into one output Func; `check` compares each output apart. Each design
bit-exact on both simulators, equal to `hl.Pipeline([...]).realize` and to an independent NumPy computation."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from compile_once import grouped

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 16, 12


def _blur_and_gradient():
    """hw_output = (a 3x3 box blur, uint16; |blur[x + 1] - blur[x]| / 2, uint8), accelerated as one tile."""
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur_x, blur, hw_output = hl.funcs("hw_input blur_x blur hw_output")
    hw_input[x, y] = image[x, y]
    blur_x[x, y] = hl.u16(hw_input[x, y]) + hw_input[x + 1, y] + hw_input[x + 2, y]
    blur[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9
    hw_output[x, y] = (blur[x, y], hl.u8(hl.absd(blur[x + 1, y], blur[x, y]) / 2))
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    blur.compute_at(hw_output, xo)
    blur_x.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return x, y, hw_output


def two_outputs():
    x, y, hw_output = _blur_and_gradient()
    blurred, gradient = hl.funcs("blurred gradient")
    blurred[x, y] = hw_output[x, y][0]
    gradient[x, y] = hw_output[x, y][1]
    for f in (blurred, gradient):
        f.bound(x, 0, W).bound(y, 0, H)
    return [blurred, gradient]


def output_read_by_output():
    """`edge` reads the output `blurred` (and the gradient): the host computes blurred once for both."""
    x, y, hw_output = _blur_and_gradient()
    blurred, edge = hl.funcs("blurred edge")
    blurred[x, y] = hw_output[x, y][0]
    edge[x, y] = hl.u8(hl.min(blurred[x, y] / 2 + hw_output[x, y][1], 255))
    blurred.bound(x, 0, W).bound(y, 0, H)
    edge.bound(x, 0, W).bound(y, 0, H)
    return [blurred, edge]


def tuple_output():
    """The output is a Tuple: one output per element, as Halide's Realization."""
    x, y, hw_output = _blur_and_gradient()
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, W).bound(y, 0, H)
    return output


def _two_accelerated(compute_with: bool):
    """hw_blur and hw_grad, two Funcs each read by an output, tiled alike: hw_grad accelerated as hw_blur is, or
    `compute_with(hw_blur, xo)` (Halide's fused loop nest, which makes blur's compute_at hw_blur legal for both
    readers). frontend/fuse_outputs.py computes them as one Tuple Func, hw_outputs."""
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur_x, blur, hw_blur, hw_grad = hl.funcs("hw_input blur_x blur hw_blur hw_grad")
    hw_input[x, y] = image[x, y]
    blur_x[x, y] = hl.u16(hw_input[x, y]) + hw_input[x + 1, y] + hw_input[x + 2, y]
    blur[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9
    hw_blur[x, y] = blur[x, y]
    hw_grad[x, y] = hl.u8(hl.absd(blur[x + 1, y], blur[x, y]) / 2)
    blurred, gradient = hl.funcs("blurred gradient")
    blurred[x, y] = hw_blur[x, y]
    gradient[x, y] = hw_grad[x, y]
    for f in (blurred, gradient):
        f.bound(x, 0, W).bound(y, 0, H)
    hw_blur.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_grad.compute_root().tile(x, y, xo, yo, xi, yi, W, H)
    if compute_with:
        hw_grad.compute_with(hw_blur, xo)
    else:
        hw_grad.hw_accelerate(xi, xo)
    blur.compute_at(hw_blur, xo)
    blur_x.compute_at(hw_blur, xo)
    hw_input.compute_root().stream_to_accelerator()
    return [blurred, gradient]


def autoscheduled():
    """blurred and gradient written for a CPU, with estimates: the autoscheduler schedules them as one Tuple Func
    (frontend/fuse_outputs.py) and bounds the outputs as it bounds that."""
    x, y = hl.vars("x y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    blur_x, blur, blurred, gradient = hl.funcs("blur_x blur blurred gradient")
    blur_x[x, y] = hl.u16(image[x, y]) + image[x + 1, y] + image[x + 2, y]
    blur[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9
    blurred[x, y] = blur[x, y]
    gradient[x, y] = hl.u8(hl.absd(blur[x + 1, y], blur[x, y]) / 2)
    for f in (blurred, gradient):
        f.set_estimates([(0, W), (0, H)])
    hl.Pipeline([blurred, gradient]).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
    return [blurred, gradient]


def _expected(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(blur, gradient) over W x H, from loops of plain NumPy sums."""
    c = a.astype(np.int64)
    blur = np.zeros((H + 0, W + 1), np.int64)
    for j in range(H):
        for i in range(W + 1):
            blur[j, i] = c[j:j + 3, i:i + 3].sum() // 9
    gradient = np.abs(blur[:, 1:] - blur[:, :-1]) // 2
    return blur[:, :W].astype(np.uint16), gradient.astype(np.uint8)


def _edge(blur: np.ndarray, gradient: np.ndarray) -> np.ndarray:
    return np.minimum(blur.astype(np.int64) // 2 + gradient, 255).astype(np.uint8)


DESIGNS = {
    "two_outputs": (two_outputs, lambda b, g: (b, g)),
    "output_read_by_output": (output_read_by_output, lambda b, g: (b, _edge(b, g))),
    "tuple_output": (tuple_output, lambda b, g: (b, g)),
    "accelerated_alike": (lambda: _two_accelerated(False), lambda b, g: (b, g)),
    "compute_with": (lambda: _two_accelerated(True), lambda b, g: (b, g)),
    "autoscheduled": (autoscheduled, lambda b, g: (b, g)),
}


@functools.cache
def _design(kind: str):
    build, expected = DESIGNS[kind]
    outputs = build()
    design = hl.compile(outputs, name=f"outputs_{kind}")
    image = np.random.default_rng(8).integers(0, 256, (H + 2, W + 3)).astype(np.uint8)
    return design, outputs, image, expected(*_expected(image))


@pytest.mark.parametrize("kind", grouped("several_outputs", sorted(DESIGNS)))
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_every_output_is_bit_exact_and_equal_to_numpy(kind, simulator, build_dir):
    design, outputs, image, want = _design(kind)
    if kind == "accelerated_alike":  # as written, blur at hw_blur's loop is not where hw_grad reads it (Halide's
        # check; compute_with legalises it), and compile fuses a copy of the Funcs, not the user's
        with pytest.raises(hl.HalideError, match="'hw_blur' uses 'blur', but 'hw_grad' also reads it outside the "
                           "loops of 'hw_blur'"):
            hl.Pipeline(outputs).realize([W, H], {"input": hl.Buffer(image)})
        _, outputs, *_ = _design("compute_with")  # the same values, a program Halide accepts
    realized = hl.Pipeline(outputs).realize([W, H], {"input": hl.Buffer(image)})
    for got, ref, w in zip(design.reference_outputs({"input": image}), realized, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)
        assert np.array_equal(np.asarray(ref), w)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    assert len(res.outputs) == 2
    for got, w in zip(res.outputs, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)


def test_the_outputs_share_one_accelerator_stream_at_its_ideal_rate():
    design, _outputs, image, _want = _design("two_outputs")
    # one word a pixel: the blur (16 bits) and the gradient (8 bits) leave the array in one packed stream
    assert design.program.output == "hw_output" and design.pipe.output.name == "outputs"
    assert [(o.name, o.field.offset, o.field.width) for o in design.outputs] == [("blurred", 0, 16),
                                                                                 ("gradient", 16, 8)]
    assert design.report["outputs"] == [{"name": "blurred", "type": "uint16", "bits": [0, 16]},
                                        {"name": "gradient", "type": "uint8", "bits": [16, 8]}]
    res = design.check({"input": image}, simulator="icarus")
    assert res.cycles == res.predicted_cycles


def test_one_output_design_has_no_split_outputs():
    design, _outputs, image, want = _design("two_outputs")
    single = hl.compile(two_outputs()[0], name="outputs_blurred_only")
    assert single.outputs == () and single.pipe.output.name == "blurred"
    assert single.report["pes"] == design.report["pes"]  # the same accelerator: the host splits the words
    (only,) = single.reference_outputs({"input": image})
    assert np.array_equal(only, want[0])


@pytest.mark.parametrize("build", [two_outputs, lambda: _two_accelerated(True)], ids=["tuple", "compute_with"])
def test_the_design_is_deterministic(build):
    outputs = build()
    first = hl.compile(outputs, name="outputs_again")
    again = hl.compile(outputs, name="outputs_again")  # the same Funcs, already fused
    fresh = hl.compile(build(), name="outputs_again")
    for d in (again, fresh):
        assert d.verilog == first.verilog and d.memory_text == first.memory_text


@hl.generator(name="blur_and_gradient")
class BlurAndGradient(hl.Generator):
    """A Generator of two OutputBuffers of different types, from one accelerated Tuple Func."""

    input = hl.InputBuffer(hl.UInt(8), 2)
    blurred = hl.OutputBuffer(hl.UInt(16), 2)
    gradient = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(self):
        x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
        hw_input, blur, hw_output = hl.funcs("hw_input blur hw_output")
        hw_input[x, y] = self.input[x, y]
        blur[x, y] = (hl.u16(hw_input[x, y]) + hw_input[x + 1, y] + hw_input[x + 2, y]) / 3
        hw_output[x, y] = (blur[x, y], hl.u8(hl.absd(blur[x + 1, y], blur[x, y])))
        self.blurred[x, y] = hw_output[x, y][0]
        self.gradient[x, y] = hw_output[x, y][1]
        for out in (self.blurred, self.gradient):
            out.output_buffer().dim(0).set_bounds(0, W)
            out.output_buffer().dim(1).set_bounds(0, H)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
        blur.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()


@functools.cache
def _generator_design():
    return hl.compile(BlurAndGradient(), name="outputs_generator")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_generator_of_two_outputs_is_bit_exact(simulator, build_dir):
    design = _generator_design()
    image = np.random.default_rng(9).integers(0, 256, (H, W + 3)).astype(np.uint8)
    c = image.astype(np.int64)
    blur = (c[:, 0:W + 1] + c[:, 1:W + 2] + c[:, 2:W + 3]) // 3
    want = (blur[:, :W].astype(np.uint16), np.abs(blur[:, 1:] - blur[:, :-1]).astype(np.uint8))
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    assert [o.name for o in design.outputs] == ["blurred", "gradient"]
    for got, w in zip(res.outputs, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)


@pytest.mark.parametrize("kind", ["accelerated_alike", "compute_with", "autoscheduled"])
def test_funcs_accelerated_alike_are_one_accelerator(kind):
    design, _outputs, _image, _want = _design(kind)
    tuple_form, *_ = _design("two_outputs")
    assert design.program.output == "hw_outputs"
    for key in ("pes", "mem_tiles", "predicted_cycles", "ideal_cycles"):
        assert design.report[key] == tuple_form.report[key], key


def test_a_difference_names_the_output_and_its_first_pixels():
    import dataclasses

    design, _outputs, image, _want = _design("two_outputs")
    res = design.check({"input": image}, simulator="icarus")
    gradient = res.outputs[1].copy()
    gradient[3, 5] ^= 1  # arr[y, x]: the pixel (5, 3)
    wrong = dataclasses.replace(res, outputs=(res.outputs[0], gradient), waveform="(kept)")
    with pytest.raises(hl.MismatchError, match=r"1 of 192 output 'gradient' pixels differ .*\n  at \(5, 3\)"):
        design.compare(wrong, design.reference_output({"input": image}), {"input": image}, "icarus", {})


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_autoscheduled_tuple_output_is_bit_exact(simulator, build_dir):
    x, y = hl.vars("x y")
    image = hl.ImageParam(hl.UInt(8), 2, "im")
    pair = hl.Func("pair")
    pair[x, y] = (image[x, y] + image[x + 1, y], hl.u16(image[x, y]) * 3)
    pair.set_estimates([(0, 8), (0, 6)])
    hl.Pipeline(pair).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
    design = hl.compile(pair, name="outputs_auto_pair")
    a = np.random.default_rng(10).integers(0, 256, (6, 9)).astype(np.uint8)
    want = ((a[:, :8].astype(np.int64) + a[:, 1:]) % 256).astype(np.uint8), a[:, :8].astype(np.uint16) * 3
    res = design.check({"im": a}, simulator=simulator, build_dir=build_dir)
    for got, w in zip(res.outputs, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)
