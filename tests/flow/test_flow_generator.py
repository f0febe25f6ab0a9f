"""Halide's Python Generators (frontend/generator.py): one class, written once against a module `hl`, compiles
here with its hardware schedule (bit-exact on both simulators) and runs in real Halide (the oracle) without it.
GeneratorParams choose the schedule as Halide-to-Hardware's C++ generators do."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS

W, H = 16, 8


def blur_generator(h, hardware: bool):
    """A 3x3 blur with a gain (an InputScalar), in the style of the reference system's generators: copy Funcs
    hw_input / hw_output, the schedule chosen by GeneratorParams (`schedule` 1: line buffers, one pixel per cycle;
    2: the same at `lanes` pixels per cycle; 0: none, for the autoscheduler)."""

    @h.generator(name="blur3x3")
    class Blur3x3:
        schedule = h.GeneratorParam(1)
        lanes = h.GeneratorParam(2)
        shift = h.GeneratorParam(4)
        input = h.InputBuffer(h.UInt(16), 2)
        gain = h.InputScalar(h.UInt(16))
        output = h.OutputBuffer(h.UInt(16), 2)

        def generate(g):  # noqa: N805 - Halide's examples name it g
            x, y = h.vars("x y")
            hw_input, blur_x, hw_output = h.funcs("hw_input blur_x hw_output")
            hw_input[x, y] = g.input[x, y]
            blur_x[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
            hw_output[x, y] = ((blur_x[x, y] + blur_x[x, y + 1] * 2 + blur_x[x, y + 2]) >> g.shift) * g.gain
            g.output[x, y] = hw_output[x, y]
            if hardware and g.schedule > 0:
                g.output.bound(x, 0, W).bound(y, 0, H)
                xo, yo, xi, yi = h.vars("xo yo xi yi")
                hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
                blur_x.compute_at(hw_output, xo)
                hw_input.compute_root().stream_to_accelerator()
                if g.schedule == 2:
                    hw_output.unroll(xi, g.lanes)
                    blur_x.unroll(x, g.lanes)
                    hw_input.unroll(x, g.lanes)
            elif hardware:
                g.output.set_estimates([(0, W), (0, H)])

    return Blur3x3


def _inputs(seed: int) -> dict:
    return {"input": np.random.default_rng(seed).integers(0, 4096, (H + 2, W + 2), dtype=np.uint16), "gain": 3}


@functools.lru_cache(maxsize=1)
def _halide_generator(halide):
    return blur_generator(halide, hardware=False)  # once: Halide registers a Generator's name once per process


def _halide_output(halide, inputs: dict, shift: int) -> np.ndarray:
    gen = _halide_generator(halide)
    with halide.GeneratorContext(halide.get_jit_target_from_environment()):
        out = gen.call(halide.Buffer(inputs["input"]), inputs["gain"], generator_params={"shift": shift})
    return np.asarray(out.realize([W, H]))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("params", [{}, {"schedule": 2, "lanes": "2", "shift": "3"},
                                    {"schedule": 0, "autoscheduler": "Mainspring", "autoscheduler.lanes": "2"}],
                         ids=["line_buffers", "two_lanes", "autoscheduled"])
def test_a_generator_compiles_bit_exact_and_matches_halide(params, simulator, build_dir, halide, compile_shared):
    gen = blur_generator(hl, hardware=True)
    design = compile_shared(gen(generator_params=params), name="blur3x3")
    inputs = _inputs(len(params))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    lanes = 1 if not params else 2
    assert design.report["ideal_cycles"] == (W + 2) * (H + 2) // lanes  # the input stream is the busiest op
    assert design.report["predicted_cycles"] <= 1.15 * design.report["ideal_cycles"]
    shift = int(params.get("shift", 4))
    assert np.array_equal(design.reference_output(inputs), _halide_output(halide, inputs, shift))


def test_call_binds_inputs_by_position_or_name_and_makes_the_rest():
    gen = blur_generator(hl, hardware=True)
    frame = hl.ImageParam(hl.UInt(16), 2, "frame")
    by_position = hl.compile(gen.call(frame, generator_params={"shift": 2}), name="blur_call", prove=False)
    by_name = hl.compile(gen.call(gain=hl.Param(hl.UInt(16), "g"), generator_params={"shift": 2}),
                         name="blur_named", prove=False)
    plain = hl.compile(gen(generator_params={"shift": 2}), name="blur_plain", prove=False)
    # the images bound or made, then the scalar Params no one set (example_inputs gives them a value)
    assert list(by_position.example_inputs(0)) == ["frame", "gain"]
    assert list(by_name.example_inputs(0)) == ["input", "g"]
    image = _inputs(1)["input"]
    want = plain.reference_output({"input": image, "gain": 5})
    assert np.array_equal(by_position.reference_output({"frame": image, "gain": 5}), want)
    assert np.array_equal(by_name.reference_output({"input": image, "g": 5}), want)


def test_call_with_buffers_realizes_as_halide_does(halide):
    """The same lines run in both: `Gen.call(hl.Buffer(image), gain)` then realize."""
    inputs = _inputs(3)
    got = blur_generator(hl, hardware=True).call(hl.Buffer(inputs["input"]), inputs["gain"],
                                                 generator_params={"shift": 3})
    assert np.array_equal(np.asarray(got.realize([W, H])), _halide_output(halide, inputs, 3))


def test_generator_params_keep_the_default_s_type_and_the_class_stays_reusable():
    gen = blur_generator(hl, hardware=True)
    a, b = gen(generator_params={"lanes": "4", "schedule": 2}), gen()
    a.build()
    b.build()
    assert a.lanes == 4 and b.lanes == 2 and a.schedule == 2  # strings parse to the default's type
    assert a.build() is a.build()  # built once
    assert isinstance(gen.__dict__.get("lanes", gen.lanes), hl.GeneratorParam)  # the class keeps declarations


def _untyped_generator(h, name: str):
    """Images declared with no type and no dimensions (`InputBuffer(None, None)`), given by GeneratorParams."""

    @h.generator(name=name)
    class Twice:
        input = h.InputBuffer(None, None)
        output = h.OutputBuffer(None, None)

        def generate(g):  # noqa: N805
            x, y = h.vars("x y")
            g.output[x, y] = g.input[x, y] * 2 + g.input[x + 1, y]

    return Twice


_IMAGE_PARAMS = {"input.type": "uint8", "input.dim": "2", "output.type": "uint8", "output.dim": 2}


@pytest.mark.parametrize("missing", [None, "input.type", "input.dim", "output.type"])
def test_untyped_images_take_their_type_from_generator_params_as_in_halide(halide, missing):
    image = np.random.default_rng(4).integers(0, 256, (4, 9), dtype=np.uint8)
    params = {k: v for k, v in _IMAGE_PARAMS.items() if k != missing}
    results = []
    for h, name in ((hl, "twice"), (halide, f"twice_{missing or 'all'}")):
        gen = _untyped_generator(h, name)
        try:
            if h is halide:
                with halide.GeneratorContext(halide.get_jit_target_from_environment()):
                    results.append(np.array(gen.call(halide.Buffer(image), generator_params=params).realize([8, 4])))
            else:
                results.append(np.asarray(gen.call(hl.Buffer(image), generator_params=params).realize([8, 4])))
        except Exception as e:  # noqa: BLE001 - Halide raises its own error type
            results.append(str(e).split(": ")[-1] if h is hl else str(e))
    if missing is None:
        assert np.array_equal(results[0], results[1])
    else:
        assert results[0] == results[1], results  # Halide's message, word for word


def test_vars_and_funcs_name_one_per_word():
    x, y = hl.vars("x y")
    f, g = hl.funcs("f g")
    assert (x.name(), y.name(), f.name(), g.name()) == ("x", "y", "f", "g")


_GENERATOR_FILE = '''
import mainspring as hl


@hl.generator(name="brighten")
class Brighten:
    gain = hl.GeneratorParam(2)
    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(self):
        x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
        hw_input, hw_output = hl.funcs("hw_input hw_output")
        hw_input[x, y] = self.input[x, y]
        hw_output[x, y] = hw_input[x, y] * self.gain
        self.output[x, y] = hw_output[x, y]
        self.output.bound(x, 0, 12).bound(y, 0, 6)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 12, 6).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
'''


def test_the_command_line_runs_a_generator_file_with_its_params(tmp_path, capsys):
    from mainspring.cli import main
    from mainspring.sim import require_simulator

    require_simulator("icarus")
    path = tmp_path / "brighten_gen.py"
    path.write_text(_GENERATOR_FILE)
    assert main(["sim", str(path), "--simulator", "icarus", "-p", "gain=3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("brighten 12x6 on icarus: bit-exact against the reference (72 output pixels)"), out
    assert main(["compile", str(path), "-o", str(tmp_path / "out"), "-p", "gain=3"]) == 0
    assert (tmp_path / "out").is_dir()


@pytest.mark.parametrize(("args", "message"), [
    (["sim", "{gen}", "--size", "8", "8"],
     ("error: --size: {gen} is a Generator, whose generate() fixes its size and lanes; pass GeneratorParams instead, "
     "e.g. -p lanes=2")),
    (["sim", "{gen}", "-p", "gain"], "error: -p gain: a GeneratorParam is given as NAME=VALUE, e.g. -p schedule=2"),
    (["sim", "{gen}", "-p", "gian=2"],
     ("error: -p gian=2: Generator brighten has no GeneratorParam 'gian' (its GeneratorParams: gain; and "
     "autoscheduler, autoscheduler.<option>); did you mean gain?")),
    (["sim", "brighten", "-p", "gain=2"],
     ("error: -p gain=2: app brighten is not a Generator and takes no GeneratorParams; use --size and --lanes, or "
     "write the app as an @hl.generator class")),
])
def test_generator_file_mistakes_on_the_command_line(tmp_path, capsys, args, message):
    from mainspring.cli import main

    path = tmp_path / "brighten_gen.py"
    path.write_text(_GENERATOR_FILE)
    assert main([a.replace("{gen}", str(path)) for a in args]) == 2
    err = capsys.readouterr().err.strip()
    assert err == message.replace("{gen}", str(path))


def cascade_generator(h, hardware: bool):
    """Halide-to-Hardware's cascade_generator.cpp as a Python Generator, line for line (its Clockwork branches;
    `hardware` False is its CPU branch, for real Halide)."""
    out_x, out_y = 60, 60

    class ConvolutionKernel(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        schedule = h.GeneratorParam(1)

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            kernel = h.Func("kernel")
            r, r2 = h.RDom([h.Range(0, 3), h.Range(0, 3)]), h.RDom([h.Range(0, 3), h.Range(0, 3)])
            kernel[x, y] = 0
            for (i, j), w in zip([(a, b) for a in range(3) for b in range(3)], (1, 2, 1, 2, 4, 2, 1, 2, 1),
                                 strict=True):
                kernel[i, j] = w
            conv1, conv1_shift, conv2 = h.Func("conv1"), h.Func("conv1_shift"), h.Func("conv2")
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.cast(h.UInt(16), self.input[x, y])
            conv1[x, y] = h.u16(0)
            conv1[x, y] += h.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
            conv1_shift[x, y] = conv1[x, y] / 16
            conv2[x, y] = h.u16(0)
            conv2[x, y] += h.u16(kernel[r2.x, r2.y]) * conv1_shift[x + r2.x, y + r2.y]
            hw_output = h.Func("hw_output")
            hw_output[x, y] = conv2[x, y] / 16
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                return
            self.output.bound(x, 0, out_x).bound(y, 0, out_y)
            if self.schedule == 2:
                xii, xio, yii, yio, xi, xo, yi, yo = h.vars("xii xio yii yio xi xo yi yo")
                hw_output.in_().compute_root().tile(x, y, xo, yo, xi, yi, 360, 360).hw_accelerate(xi, xo) \
                    .store_in(h.MemoryType.GLB)
                hw_output.tile(x, y, xio, yio, xii, yii, 60, 60).compute_at(hw_output.in_(), xo)
                conv2.compute_at(hw_output, xio)
                conv2.update().unroll(r2.x).unroll(r2.y)
                conv1.compute_at(hw_output, xio)
                conv1.update().unroll(r.x).unroll(r.y)
                hw_input.in_().in_().compute_at(hw_output, xio)
                hw_input.in_().compute_at(hw_output.in_(), xo).store_in(h.MemoryType.GLB)
                hw_input.compute_root().accelerator_input()
                kernel.compute_at(hw_output, xio)
            else:
                xi, yi, xo, yo = h.vars("xi yi xo yo")
                hw_output.compute_root().tile(x, y, xo, yo, xi, yi, out_x, out_y).hw_accelerate(xi, xo)
                conv2.store_at(hw_output, xo).compute_at(hw_output, xo)
                conv2.update().unroll(r2.x).unroll(r2.y)
                conv1_shift.store_at(hw_output, xo).compute_at(hw_output, xo)
                conv1.store_at(hw_output, xo).compute_at(hw_output, xo)
                conv1.update().unroll(r.x).unroll(r.y)
                kernel.compute_at(hw_output, xo)
                hw_input.stream_to_accelerator()

    return h.generator(name="cascade")(ConvolutionKernel)


@functools.lru_cache(maxsize=1)
def _halide_cascade(halide):
    return cascade_generator(halide, hardware=False)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("schedule", [1, 2])
def test_the_cascade_generator_ported_as_a_generator(schedule, simulator, build_dir, halide, compile_shared):
    design = compile_shared(cascade_generator(hl, hardware=True)(generator_params={"schedule": schedule}),
                        name=f"cascade_gen_{schedule}")
    image = np.random.default_rng(schedule).integers(0, 256, (64, 64), dtype=np.uint8)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.05 * design.report["ideal_cycles"]
    with halide.GeneratorContext(halide.get_jit_target_from_environment()):
        want = _halide_cascade(halide).call(halide.Buffer(image), generator_params={"schedule": schedule})
    assert np.array_equal(res.output, np.asarray(want.realize([60, 60])))
