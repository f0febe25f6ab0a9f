"""Catalogue cases: Halide's Python Generators (`@hl.generator` classes) used wrongly."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _generator(dimensions: int = 2, out_type=None, defines: bool = True, outputs: int = 1):
    """A pointwise generator (`output = input * gain`, the reference system's pointwise app) with a
    GeneratorParam `gain`; its schedule accelerates an 8x8 output."""

    class Pointwise(hl.Generator):
        gain = hl.GeneratorParam(2)
        input = hl.InputBuffer(hl.UInt(16), 2)
        output = hl.OutputBuffer(out_type or hl.UInt(16), dimensions)
        if outputs == 2:
            output2 = hl.OutputBuffer(hl.UInt(16), 2)

        def generate(self):
            x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
            hw_input, hw_output = hl.funcs("hw_input hw_output")
            hw_input[x, y] = self.input[x, y]
            hw_output[x, y] = hw_input[x, y] * self.gain
            if defines:
                self.output[x, y] = hw_output[x, y]
                self.output.bound(x, 0, 8).bound(y, 0, 8)
            if outputs == 2:
                self.output2[x, y] = hw_output[x, y]
            hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
            hw_input.compute_root().stream_to_accelerator()

    return hl.generator(name="pointwise")(Pointwise)


@case("algorithm", "A GeneratorParam the Generator does not declare", (
    "{at}: Generator pointwise has no GeneratorParam 'gian' (its GeneratorParams: gain; and autoscheduler, "
    "autoscheduler.<option>); did you mean gain?"))
def unknown_generator_param():
    gen = _generator()
    return hl.compile(gen(generator_params={"gian": 3}), name="demo")  # <-


@unknown_generator_param.fix
def _():
    gen = _generator()
    return hl.compile(gen(generator_params={"gain": 3}), name="demo")


@case("algorithm", "A GeneratorParam value of another type than its default", (
    "{at}: GeneratorParam gain: 'three' is not an int, the type of its default 2"))
def generator_param_of_another_type():
    gen = _generator()
    return hl.compile(gen(generator_params={"gain": "three"}), name="demo")  # <-


@generator_param_of_another_type.fix
def _():
    gen = _generator()
    return hl.compile(gen(generator_params={"gain": "3"}), name="demo")


@case("algorithm", "A Generator whose generate() does not define its output", (
    "{at}: Output 'output' was not defined: generate() must define it (e.g. self.output[x, y] = ...)"),
    func="output")
def output_not_defined():
    gen = _generator(defines=False)
    return hl.compile(gen(), name="demo")  # <-


@output_not_defined.fix
def _():
    gen = _generator()
    return hl.compile(gen(), name="demo")


@case("algorithm", "A Generator output defined with another type than declared", (
    "{at}: Output 'output' is declared uint8 with 2 dimensions, but generate() defined it as uint16 with 2: cast "
    "its value (e.g. hl.cast(hl.UInt(8), ...)) or change the declaration"), func="output")
def output_of_another_type():
    gen = _generator(out_type=hl.UInt(8))
    return hl.compile(gen(), name="demo")  # <-


@output_of_another_type.fix
def _():
    gen = _generator(out_type=hl.UInt(16))
    return hl.compile(gen(), name="demo")


@case("algorithm", "A Generator with two outputs", (
    "{at}: Generator pointwise declares 2 OutputBuffers: a design has one output image; declare exactly one "
    "(split several outputs into several generators)"))
def two_outputs():
    gen = _generator(outputs=2)
    return hl.compile(gen(), name="demo")  # <-


@two_outputs.fix
def _():
    gen = _generator()
    return hl.compile(gen(), name="demo")


@case("algorithm", "compile of a Generator class instead of an instance", (
    "{at}: compile(Pointwise): Pointwise is a Generator class; compile an instance of it, e.g. compile(Pointwise(), "
    "...) or compile(Pointwise(generator_params={...}), ...)"))
def compile_of_a_generator_class():
    gen = _generator()
    return hl.compile(gen, name="demo")  # <-


@compile_of_a_generator_class.fix
def _():
    gen = _generator()
    return hl.compile(gen(), name="demo")


@case("algorithm", "A GeneratorContext with a CPU target", (
    "{at}: GeneratorContext('host'): the target is the accelerator, an hl.CGRA(...) (or nothing, for the "
    "default array); CPU targets do not apply"))
def generator_context_of_a_cpu():
    gen = _generator()
    with hl.GeneratorContext("host"):  # <-
        return hl.compile(gen(), name="demo")


@generator_context_of_a_cpu.fix
def _():
    gen = _generator()
    with hl.GeneratorContext(hl.CGRA()):
        return hl.compile(gen(), name="demo")


@case("algorithm", "call() with an input the Generator does not declare", (
    "{at}: Generator pointwise has no input 'image' (its inputs: input)"))
def call_with_an_unknown_input():
    gen = _generator()
    return hl.compile(gen.call(image=hl.ImageParam(hl.UInt(16), 2, "image")), name="demo")  # <-


@call_with_an_unknown_input.fix
def _():
    gen = _generator()
    return hl.compile(gen.call(input=hl.ImageParam(hl.UInt(16), 2, "image")), name="demo")


@case("algorithm", "call() with an image of another type than the input's", (
    "{at}: Input input is declared uint16 with 2 dimensions, but its image frame is uint8 with 2"))
def call_with_an_image_of_another_type():
    gen = _generator()
    return hl.compile(gen.call(hl.ImageParam(hl.UInt(8), 2, "frame")), name="demo")  # <-


@call_with_an_image_of_another_type.fix
def _():
    gen = _generator()
    return hl.compile(gen.call(hl.ImageParam(hl.UInt(16), 2, "image")), name="demo")
