"""Programs a hardware researcher writes that the suite had not: odd frames (37x23, 30x17), i16 / i32 / u16 types, seed
002's unroll by 3 with RoundUp, channels reduced by an unrolled RDom, mirror_image in the array, a scan, GLB tiles at
2 lanes that divide nothing, a fuse after hw_accelerate, a Generator choosing tile sizes. Each builder takes the
module (`mainspring`, or `halide` without the hardware schedule), so the same program is simulated on Icarus (a share
on Verilator too: tests/flow/simulator_share.py) and realized by Halide 21 (session 25, helper probe8)."""

import shutil
import subprocess

import numpy as np
import pytest
from porting import compile_design, params, run
from probe_common import image, on_hardware, vars_of

import mainspring as hl
from mainspring.sim import require_tool


def blur_37x23(m):
    """A separable 3x3 box blur over an odd frame, one accelerator tile."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, blur_x, hw_output, output = (m.Func(n) for n in ("hw_input", "blur_x", "hw_output", "output"))
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    blur_x[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    hw_output[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    output.bound(x, 0, 37).bound(y, 0, 23)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 37, 23).hw_accelerate(xi, xo)
        blur_x.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(39, 25)}, {"input": inp}


def fuse_after_hw_accelerate(m):
    """hw_accelerate(xi, xo) and then fuse(xi, yi): the compute var is unused (seed 002), so Halide's schedule
    stands (refused as untiled before session 25)."""
    x, y, xo, yo, xi, yi, f = vars_of(m, "x y xo yo xi yi f")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, b, hw_output, output = (m.Func(n) for n in ("hw_input", "b", "hw_output", "output"))
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    b[x, y] = hw_input[x, y] * 2 + hw_input[x + 1, y]
    hw_output[x, y] = b[x, y] + b[x, y + 1]
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    output.bound(x, 0, 9).bound(y, 0, 5)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 9, 5).hw_accelerate(xi, xo)
        hw_output.fuse(xi, yi, f)
        b.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(10, 6, seed=9)}, {"input": inp}


def seed002_unroll3_37x23(m):
    """Seed 002's 3 pixels per cycle (`unroll(x, 3, TailStrategy::RoundUp)` on every stage) over 37 columns."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    kernel, hw_input, bu, blur, hw_output, output = (m.Func(n) for n in (
        "kernel", "hw_input", "blur_unnormalized", "blur", "hw_output", "output"))
    win = m.RDom([m.Range(0, 3), m.Range(0, 3)])
    kernel[x, y] = m.cast(m.UInt(16), 1 + (x + y) % 3)
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    bu[x, y] = m.cast(m.UInt(16), 0)
    bu[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
    blur[x, y] = bu[x, y] / 16
    hw_output[x, y] = blur[x, y]
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    output.bound(x, 0, 37).bound(y, 0, 23)
    if on_hardware(m):
        rup = m.TailStrategy.RoundUp
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 37, 23).hw_accelerate(xi, xo)
        bu.update().unroll(win.x).unroll(win.y).unroll(x, 3, rup)
        bu.unroll(x, 3, rup).compute_at(hw_output, xo)
        blur.unroll(x, 3, rup).compute_at(hw_output, xo)
        hw_output.unroll(xi, 3, rup)
        hw_input.unroll(x, 3, rup)
        kernel.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": image(43, 25, seed=3)}, {"input": inp}


def i16_gradients(m):
    """Signed 16-bit gradients with abs, min and a select, over a 19x11 frame."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.Int(16), 2, "input")
    hw_input, gx, gy, hw_output, output = (m.Func(n) for n in ("hw_input", "gx", "gy", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    gx[x, y] = (hw_input[x + 2, y] - hw_input[x, y]) * 2 + hw_input[x + 2, y + 1] - hw_input[x, y + 1]
    gy[x, y] = hw_input[x, y + 2] - hw_input[x, y] + (hw_input[x + 1, y + 2] - hw_input[x + 1, y]) * 2
    hw_output[x, y] = m.abs(gx[x, y]) / 2 - m.min(gy[x, y], 0) + m.select(gx[x, y] > gy[x, y], -3, 5)
    output[x, y] = m.cast(m.Int(16), hw_output[x, y])
    output.bound(x, 0, 19).bound(y, 0, 11)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 19, 11).hw_accelerate(xi, xo)
        gx.compute_at(hw_output, xo)
        gy.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(21, 13, dtype=np.int16, lo=-3000, hi=3000)}, {"input": inp}


def i32_serial_rdom(m):
    """A serial 5-tap reduction in 32-bit signed words, weighted by the RVar."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.Int(32), 2, "input")
    hw_input, acc, hw_output, output = (m.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = m.RDom([m.Range(0, 5)])
    hw_input[x, y] = inp[x, y]
    acc[x, y] = m.cast(m.Int(32), 0)
    acc[x, y] += hw_input[x + r.x, y] * (r.x - 2)
    hw_output[x, y] = acc[x, y] >> 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 11).bound(y, 0, 7)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 11, 7).hw_accelerate(xi, xo)
        acc.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(15, 7, dtype=np.int32, lo=-100000, hi=100000)}, {"input": inp}


def channel_conv_rdom(m):
    """Two output channels from four input channels over 2x2 taps: channels unrolled, the taps serial."""
    x, y, k, xo, yo, xi, yi = vars_of(m, "x y k xo yo xi yi")
    c = m.Var("c")
    inp = m.ImageParam(m.UInt(8), 3, "input")
    hw_input, conv, hw_output, output, w = (m.Func(n) for n in ("hw_input", "conv", "hw_output", "output", "w"))
    r = m.RDom([m.Range(0, 4), m.Range(0, 2), m.Range(0, 2)])
    w[c, k] = m.cast(m.UInt(16), c + 2 * k + 1)
    hw_input[c, x, y] = m.cast(m.UInt(16), inp[c, x, y])
    conv[k, x, y] = m.cast(m.UInt(16), 0)
    conv[k, x, y] += w[r.x, k] * hw_input[r.x, x + r.y, y + r.z]
    hw_output[k, x, y] = conv[k, x, y] >> 2
    output[k, x, y] = m.cast(m.UInt(8), hw_output[k, x, y])
    output.bound(k, 0, 2).bound(x, 0, 9).bound(y, 0, 6)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 9, 6).reorder(k, xi, yi, xo, yo).hw_accelerate(xi, xo)
        hw_output.unroll(k)
        conv.compute_at(hw_output, xo).unroll(k)
        conv.update().reorder(k, r.x, r.y, r.z, x, y).unroll(k).unroll(r.x)
        hw_input.compute_root().stream_to_accelerator()
        hw_input.bound(c, 0, 4).unroll(c)
    return output, {"input": image(10, 7, c=4)}, {"input": inp}


def mirror_image_5x5(m):
    """BoundaryConditions.mirror_image read inside the accelerator by an unrolled 5x5 window."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, bu, hw_output, output = (m.Func(n) for n in ("hw_input", "bu", "hw_output", "output"))
    win = m.RDom([m.Range(0, 5), m.Range(0, 5)])
    src = m.BoundaryConditions.mirror_image(inp)
    hw_input[x, y] = m.cast(m.UInt(16), src[x - 2, y - 2])
    bu[x, y] = m.cast(m.UInt(16), 0)
    bu[x, y] += m.cast(m.UInt(16), 1 + (win.x + win.y) % 3) * hw_input[x + win.x, y + win.y]
    hw_output[x, y] = bu[x, y] / 45
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    output.bound(x, 0, 23).bound(y, 0, 13)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 23, 13).hw_accelerate(xi, xo)
        bu.compute_at(hw_output, xo).update().unroll(win.x).unroll(win.y)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": image(23, 13, seed=3)}, {"input": inp}


def prefix_sum_scan(m):
    """A scan along each row: s(r.x, y) = s(r.x - 1, y) + in(r.x, y)."""
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, s, hw_output, output = (m.Func(n) for n in ("hw_input", "s", "hw_output", "output"))
    r = m.RDom([m.Range(1, 15)])
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    s[x, y] = hw_input[x, y]
    s[r.x, y] = s[r.x - 1, y] + hw_input[r.x, y]
    hw_output[x, y] = s[x, y] >> 3
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    output.bound(x, 0, 16).bound(y, 0, 6)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 16, 6).hw_accelerate(xi, xo)
        s.compute_at(hw_output, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(16, 6, seed=16)}, {"input": inp}


def glb_lanes2_odd(m):
    """Seed 002's three levels over 30x17: 10x9 GLB tiles (the last ones shift inward) of 5x3 memory tiles, at
    2 pixels per cycle with RoundUp."""
    x, y, xo, yo, xi, yi, xio, yio, xii, yii = vars_of(m, "x y xo yo xi yi xio yio xii yii")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, bu, blur, hw_output, output = (m.Func(n) for n in (
        "hw_input", "blur_unnormalized", "blur", "hw_output", "output"))
    win = m.RDom([m.Range(0, 3), m.Range(0, 3)])
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    bu[x, y] = m.cast(m.UInt(16), 0)
    bu[x, y] += hw_input[x + win.x, y + win.y] * m.cast(m.UInt(16), win.y + 1)
    blur[x, y] = bu[x, y] / 18
    hw_output[x, y] = blur[x, y]
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    output.bound(x, 0, 30).bound(y, 0, 17)
    if on_hardware(m):
        rup = m.TailStrategy.RoundUp
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 10, 9).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB).unroll(xi, 2, rup)
        hw_output.tile(x, y, xio, yio, xii, yii, 5, 3).compute_at(g, xo).unroll(xii, 2, rup)
        blur.compute_at(hw_output, xio).unroll(x, 2, rup)
        bu.update().unroll(win.x).unroll(win.y).unroll(x, 2, rup)
        bu.compute_at(hw_output, xio).unroll(x, 2, rup)
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": image(36, 23, seed=7)}, {"input": inp}



def _runtime_sizes(m, flip: bool):
    x, y, xo, yo, xi, yi = vars_of(m, "x y xo yo xi yi")
    inp = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, hw_output, output = m.Func("hw_input"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.cast(m.UInt(16), inp[x, y])
    if flip:
        hw_output[x, y] = hw_input[m.clamp(inp.width() - 1 - x, 0, 8), y] + hw_input[x, y]
    else:
        hw_output[x, y] = m.select(y < inp.height() / 2, hw_input[x, y], hw_input[x, y] / 2) + \
            m.cast(m.UInt(16), inp.width() - x)
    output[x, y] = m.cast(m.UInt(8), hw_output[x, y])
    output.bound(x, 0, 9).bound(y, 0, 5)
    if on_hardware(m):
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 9, 5).hw_accelerate(xi, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": image(9, 5, seed=11)}, {"input": inp}


def image_size_as_value(m):
    """input.width() and input.height() as values in the array: configuration inputs, as scalar Params are
    (refused as a Verilog port name 'input.extent.0' before session 25)."""
    return _runtime_sizes(m, flip=False)


def flip_by_width_clamped(m):
    """A mirror read at input.width() - 1 - x, clamped (the fix the refusal of the unclamped read suggests)."""
    return _runtime_sizes(m, flip=True)

CASES = {f.__name__: f for f in (blur_37x23, fuse_after_hw_accelerate, seed002_unroll3_37x23, i16_gradients,
                                 i32_serial_rdom, channel_conv_rdom, mirror_image_5x5, prefix_sum_scan,
                                 glb_lanes2_odd, image_size_as_value, flip_by_width_clamped)}


@pytest.mark.parametrize("case,simulator", params(CASES, share=True), indirect=["simulator"])
def test_probe8(case, simulator):
    run(case, lambda: CASES[case](hl)[:2], simulator)


# The output's extents, as Halide's realize takes them (x first; channels first where c is the first dimension).
SIZES = {"blur_37x23": [37, 23], "fuse_after_hw_accelerate": [9, 5], "seed002_unroll3_37x23": [37, 23],
         "i16_gradients": [19, 11], "i32_serial_rdom": [11, 7], "channel_conv_rdom": [2, 9, 6],
         "mirror_image_5x5": [23, 13], "prefix_sum_scan": [16, 6], "glb_lanes2_odd": [30, 17],
         "image_size_as_value": [9, 5], "flip_by_width_clamped": [9, 5]}


@pytest.mark.parametrize("case", list(CASES))
def test_probe8_reference_is_halide(case, halide):
    """The reference each simulation is compared with is Halide 21's result for the same program."""
    outputs = []
    for module in (hl, halide):
        out, inputs, images = CASES[case](module)
        for name, param in images.items():
            param.set(module.Buffer(np.ascontiguousarray(inputs[name])))
        outputs.append(np.asarray(out.realize(SIZES[case])))
    assert outputs[0].shape == outputs[1].shape and np.array_equal(outputs[0], outputs[1])


@pytest.mark.xdist_group("image_size_as_value")
def test_regression_kit_drives_the_configuration_inputs(tmp_path):
    """design.save's Icarus-only bench gives the top the Params and image sizes the accelerator reads (it left
    them undriven before session 25: every word x)."""
    if shutil.which("iverilog") is None:
        require_tool(False, "iverilog")
    design, _ = compile_design("image_size_as_value", lambda: image_size_as_value(hl)[:2])
    design.save(tmp_path / "d")
    kit = tmp_path / "d" / "regression"
    assert "input_extent_0(32'h9)" in (kit / "tb.v").read_text().replace(" ", "")
    ok = subprocess.run(["sh", str(kit / "run.sh")], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
                        check=False)
    assert ok.returncode == 0 and "PASS image_size_as_value" in ok.stdout, ok.stdout + ok.stderr


def _generator_with_a_scalar():
    @hl.generator(name="probe8_gain_blur")
    class GainBlur:
        width = hl.GeneratorParam(13)
        taps = hl.GeneratorParam(3)
        input = hl.InputBuffer(hl.UInt(8), 2)
        gain = hl.InputScalar(hl.UInt(16))
        output = hl.OutputBuffer(hl.UInt(8), 2)

        def generate(self):
            x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
            hw_input, blur, hw_output = hl.Func("hw_input"), hl.Func("blur"), hl.Func("hw_output")
            r = hl.RDom([hl.Range(0, self.taps)])
            hw_input[x, y] = hl.u16(self.input[x, y])
            blur[x, y] = hl.u16(0)
            blur[x, y] += hw_input[x + r.x, y]
            hw_output[x, y] = blur[x, y] * self.gain / (self.taps * 4)
            self.output[x, y] = hl.u8(hw_output[x, y])
            self.output.bound(x, 0, self.width).bound(y, 0, 7)
            hw_output.compute_root().tile(x, y, xo, yo, xi, yi, self.width, 7).hw_accelerate(xi, xo)
            blur.compute_at(hw_output, xo).update().unroll(r.x)
            hw_input.compute_root().stream_to_accelerator()

    return GainBlur


@pytest.mark.parametrize("simulator", ["icarus", "verilator"], indirect=True)
def test_example_inputs_give_an_unset_input_scalar_a_value(simulator, build_dir, compile_shared, tmp_path):
    """`mainspring sim gen.py` and design.save simulate a Generator on its example inputs: an InputScalar no one
    set gets a value (1 to 8) instead of failing as never set (before session 25)."""
    design = compile_shared(_generator_with_a_scalar()(generator_params={"taps": 5}), name="gain_blur")
    inputs = design.example_inputs(2)
    assert 1 <= inputs["gain"] <= 8
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    if simulator == "icarus":
        design.save(tmp_path / "d")
        ok = subprocess.run(["sh", str(tmp_path / "d" / "regression" / "run.sh")], capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin"}, check=False)
        assert ok.returncode == 0 and "PASS gain_blur" in ok.stdout, ok.stdout + ok.stderr
