"""Outputs over 32 bits together (frontend/output_words.py): the accelerator streams several words a pixel, each a
group of outputs packed into at most 32 bits, side by side on its output port under one valid; the host splits
them into a buffer per output. Each design bit-exact on both simulators with bubbles and back-pressure, equal to
`hl.Pipeline([...]).realize` and to an independent NumPy computation."""

from __future__ import annotations

import functools
import shutil
import subprocess

import numpy as np
import pytest
from compile_once import grouped

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 16, 12


def _blur(x, y, source):
    """blur_x and a 3x3 box blur (uint16) of `source` (a Func or an ImageParam)."""
    blur_x, blur = hl.funcs("blur_x blur")
    blur_x[x, y] = hl.u16(source[x, y]) + source[x + 1, y] + source[x + 2, y]
    blur[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9
    return blur_x, blur


def _accelerated_alike(values, compute_with: bool):
    """Funcs hw_0, hw_1, ... of `values(x, y, blur)`, tiled alike and accelerated alike (or hw_1... computed with
    hw_0 at xo), each read by an output out0, out1, ...: frontend/fuse_outputs.py computes them as one Func."""
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = image[x, y]
    blur_x, blur = _blur(x, y, hw_input)
    exprs = values(x, y, blur)
    hws = [hl.Func(f"hw_{i}") for i in range(len(exprs))]
    outs = [hl.Func(f"out{i}") for i in range(len(exprs))]
    for hw, out, e in zip(hws, outs, exprs):
        hw[x, y] = e
        out[x, y] = hw[x, y]
        out.bound(x, 0, W).bound(y, 0, H)
        hw.compute_root().tile(x, y, xo, yo, xi, yi, W, H)
    hws[0].hw_accelerate(xi, xo)
    for hw in hws[1:]:
        if compute_with:
            hw.compute_with(hws[0], xo)
        else:
            hw.hw_accelerate(xi, xo)
    blur.compute_at(hws[0], xo)
    blur_x.compute_at(hws[0], xo)
    hw_input.compute_root().stream_to_accelerator()
    return outs


def _three(x, y, blur):
    """u16 + u16 + u8 = 40 bits: the blur, a gradient, a mask."""
    return [blur[x, y], hl.absd(blur[x + 1, y], blur[x, y]) * 100,
            hl.select(blur[x, y] > 128, hl.u8(255), hl.u8(blur[x, y] / 2))]


def _two_u32(x, y, blur):
    return [hl.u32(blur[x, y]) * 100003, (hl.u32(blur[x + 1, y]) << 20) | blur[x, y]]


def _host_repacked():
    """A Tuple hw_output of 24 bits, read by three outputs of 40 bits: one word leaves the array, the host packs
    the outputs into two words."""
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output = hl.funcs("hw_input hw_output")
    hw_input[x, y] = image[x, y]
    blur_x, blur = _blur(x, y, hw_input)
    hw_output[x, y] = (blur[x, y], hl.u8(hl.absd(blur[x + 1, y], blur[x, y]) / 2))
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    blur.compute_at(hw_output, xo)
    blur_x.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    outs = hl.funcs("out0 out1 out2")
    outs[0][x, y] = hw_output[x, y][0]
    outs[1][x, y] = hw_output[x, y][0] * 100 + hw_output[x, y][1]
    outs[2][x, y] = hw_output[x, y][1]
    for f in outs:
        f.bound(x, 0, W).bound(y, 0, H)
    return list(outs)


def _autoscheduled():
    """Two u32 outputs written for a CPU, with estimates: the autoscheduler schedules their two words."""
    return _autoscheduling(_two_u32)[0]


def _autoscheduling(values):
    """The outputs `values` written for a CPU, with estimates, and the autoscheduler's result on them."""
    x, y = hl.vars("x y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    _bx, blur = _blur(x, y, image)
    exprs = values(x, y, blur)
    outs = [hl.Func(f"out{i}") for i in range(len(exprs))]
    for out, e in zip(outs, exprs):
        out[x, y] = e
        out.set_estimates([(0, W), (0, H)])
    return outs, hl.Pipeline(outs).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))


def _numpy_blur(a: np.ndarray) -> np.ndarray:
    """The box blur over H x (W + 1), from loops of plain NumPy sums."""
    c = a.astype(np.int64)
    blur = np.zeros((H, W + 1), np.int64)
    for j in range(H):
        for i in range(W + 1):
            blur[j, i] = c[j:j + 3, i:i + 3].sum() // 9
    return blur


def _want_three(b):
    mask = np.where(b[:, :W] > 128, 255, b[:, :W] // 2)
    return (b[:, :W].astype(np.uint16), (np.abs(b[:, 1:] - b[:, :W]) * 100 % 65536).astype(np.uint16),
            mask.astype(np.uint8))


def _want_two_u32(b):
    return ((b[:, :W] * 100003 % (1 << 32)).astype(np.uint32), ((b[:, 1:] << 20) | b[:, :W]).astype(np.uint32))


def _want_host(b):
    g = np.abs(b[:, 1:] - b[:, :W]) // 2
    return (b[:, :W].astype(np.uint16), ((b[:, :W] * 100 + g) % 65536).astype(np.uint16), g.astype(np.uint8))


DESIGNS = {
    "three_alike": (lambda: _accelerated_alike(_three, False), _want_three, [0, 0, 1]),
    "two_u32_compute_with": (lambda: _accelerated_alike(_two_u32, True), _want_two_u32, [0, 1]),
    "host_repacked": (_host_repacked, _want_host, [0, 0, 1]),
    "autoscheduled": (_autoscheduled, _want_two_u32, [0, 1]),
}


@functools.cache
def _design(kind: str):
    build, expected, _words = DESIGNS[kind]
    outputs = build()
    design = hl.compile(outputs, name=f"words_{kind}")
    image = np.random.default_rng(11).integers(0, 256, (H + 2, W + 3)).astype(np.uint8)
    return design, outputs, image, expected(_numpy_blur(image))


@pytest.mark.parametrize("kind", grouped("output_words", sorted(DESIGNS)))
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_every_output_is_bit_exact_and_equal_to_numpy(kind, simulator, build_dir):
    design, outputs, image, want = _design(kind)
    if kind == "three_alike":  # as written, blur at hw_0's loop is not where hw_1 reads it (Halide's check, which
        # compute_with legalises), and compile fuses a copy of the Funcs, not the user's
        with pytest.raises(hl.HalideError, match=r"'hw_0' uses 'blur', but .* outside the loops of 'hw_0'"):
            hl.Pipeline(outputs).realize([W, H], {"input": hl.Buffer(image)})
        outputs = _accelerated_alike(_three, True)  # the same values, a program Halide accepts
    realized = hl.Pipeline(outputs).realize([W, H], {"input": hl.Buffer(image)})
    for got, ref, w in zip(design.reference_outputs({"input": image}), realized, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)
        assert np.array_equal(np.asarray(ref), w)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    assert len(res.outputs) == len(want)
    for got, w in zip(res.outputs, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)


@pytest.mark.parametrize("kind", sorted(DESIGNS))
def test_the_outputs_lie_in_their_words(kind):
    design, _outputs, _image, _want = _design(kind)
    assert [o["word"] for o in design.report["outputs"]] == DESIGNS[kind][2]
    assert design.pipe.output.args[0] == "word"


@pytest.mark.parametrize("kind", ["three_alike", "two_u32_compute_with", "autoscheduled"])
def test_the_accelerator_streams_two_words_a_pixel_at_its_ideal_rate(kind):
    design, _outputs, image, _want = _design(kind)
    assert design.program.output == "hw_outputs" and design.program.output_lanes == 2
    assert f"output [63:0] {design.program.output}_data" in design.verilog
    res = design.check({"input": image}, simulator="icarus")
    assert res.cycles == res.predicted_cycles


def test_outputs_of_one_word_stay_one_word():
    """u16 + u8 fit one word: packed as before, no word dimension (the designs of session 25 do not change)."""
    outs = _accelerated_alike(lambda x, y, blur: _three(x, y, blur)[::2], False)
    design = hl.compile(outs, name="words_one")
    assert "word" not in design.report["outputs"][0] and design.program.output_lanes == 1
    assert design.pipe.output.args == ("x", "y")


def test_the_autoscheduled_schedule_describes_its_tile_in_pixels():
    """The schedule's docstring gives the tile in pixels and the words of a pixel apart (the words' dimension is
    no extent of the image); outputs of one word say nothing of words."""
    two = _autoscheduling(_two_u32)[1].schedule_source
    assert f"one accelerator tile of {W} x {H}, 2 words per pixel." in two, two
    one = _autoscheduling(lambda x, y, blur: _three(x, y, blur)[::2])[1].schedule_source
    assert f"one accelerator tile of {W} x {H}." in one and "word" not in one, one


def test_the_regression_kit_passes_with_icarus_alone(tmp_path):
    if shutil.which("iverilog") is None:
        pytest.skip("iverilog is not installed")
    design, _outputs, _image, _want = _design("three_alike")
    design.save(tmp_path / "kit")
    kit = tmp_path / "kit" / "regression"
    env = {"PATH": "/usr/bin:/bin"}
    ok = subprocess.run(["sh", str(kit / "run.sh")], capture_output=True, text=True, env=env, check=False)
    assert ok.returncode == 0 and "PASS words_three_alike" in ok.stdout, ok.stdout + ok.stderr
    expected = (kit / "expected.hex").read_text().splitlines()
    word = int(expected[7], 16) ^ (1 << 32)  # the mask's lowest bit, in the second word of pixel 7
    expected[7] = f"{word:016x}"
    (kit / "expected.hex").write_text("\n".join(expected) + "\n")
    bad = subprocess.run(["sh", str(kit / "run.sh")], capture_output=True, text=True, env=env, check=False)
    assert bad.returncode != 0 and "FAIL words_three_alike: 1 of" in bad.stdout, bad.stdout


def test_the_design_is_deterministic():
    build = DESIGNS["three_alike"][0]
    first = hl.compile(build(), name="words_again")
    again = hl.compile(build(), name="words_again")
    assert again.verilog == first.verilog and again.memory_text == first.memory_text


def _two_lanes_of_two_words():
    """Two u32 outputs at two pixels a cycle: xi unrolled by 2 in every stage, the word innermost: four words a
    transfer (pixel 0's two words, then pixel 1's)."""
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = image[x, y]
    blur_x, blur = _blur(x, y, hw_input)
    outs = [hl.Func("out0"), hl.Func("out1")]
    for i, (out, e) in enumerate(zip(outs, _two_u32(x, y, blur))):
        hw = hl.Func(f"hw_{i}")
        hw[x, y] = e
        out[x, y] = hw[x, y]
        out.bound(x, 0, W).bound(y, 0, H)
        hw.compute_root().tile(x, y, xo, yo, xi, yi, W, H).unroll(xi, 2).hw_accelerate(xi, xo)
        if i == 0:
            blur.compute_at(hw, xo).unroll(x, 2)
            blur_x.compute_at(hw, xo).unroll(x, 2)
    hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
    return outs


@functools.cache
def _lanes_design():
    return hl.compile(_two_lanes_of_two_words(), name="words_lanes")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_lanes_of_several_words_are_bit_exact(simulator, build_dir):
    design = _lanes_design()
    assert design.program.output_lanes == 4
    image = np.random.default_rng(12).integers(0, 256, (H + 2, W + 4)).astype(np.uint8)
    want = _want_two_u32(_numpy_blur(image))
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    for got, w in zip(res.outputs, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)
    assert design.report["predicted_cycles"] < W * H  # two pixels a cycle


@hl.generator(name="words_generator")
class BlurAndProduct(hl.Generator):
    """A Generator of a uint16 and a uint32 OutputBuffer (48 bits), computed by two Funcs accelerated alike."""

    input = hl.InputBuffer(hl.UInt(8), 2)
    blurred = hl.OutputBuffer(hl.UInt(16), 2)
    product = hl.OutputBuffer(hl.UInt(32), 2)

    def generate(self):
        x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
        hw_input, blur, hw_a, hw_b = hl.funcs("hw_input blur hw_a hw_b")
        hw_input[x, y] = self.input[x, y]
        blur[x, y] = (hl.u16(hw_input[x, y]) + hw_input[x + 1, y] + hw_input[x + 2, y]) / 3
        hw_a[x, y] = blur[x, y]
        hw_b[x, y] = hl.u32(blur[x + 1, y]) * 70001
        self.blurred[x, y] = hw_a[x, y]
        self.product[x, y] = hw_b[x, y]
        for out in (self.blurred, self.product):
            out.output_buffer().dim(0).set_bounds(0, W)
            out.output_buffer().dim(1).set_bounds(0, H)
        for hw in (hw_a, hw_b):
            hw.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
        blur.compute_at(hw_a, xo)
        hw_input.compute_root().stream_to_accelerator()


@functools.cache
def _generator_design():
    return hl.compile(BlurAndProduct(), name="words_generator")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_generator_of_outputs_over_a_word_is_bit_exact(simulator, build_dir):
    design = _generator_design()
    image = np.random.default_rng(13).integers(0, 256, (H, W + 3)).astype(np.uint8)
    c = image.astype(np.int64)
    blur = (c[:, 0:W + 1] + c[:, 1:W + 2] + c[:, 2:W + 3]) // 3
    want = (blur[:, :W].astype(np.uint16), (blur[:, 1:] * 70001 % (1 << 32)).astype(np.uint32))
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    assert [(o.name, o.word) for o in design.outputs] == [("blurred", 0), ("product", 1)]
    for got, w in zip(res.outputs, want, strict=True):
        assert got.dtype == w.dtype and np.array_equal(got, w)
