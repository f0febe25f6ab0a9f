"""Catalogue cases: Halide's Python Generators (`@hl.generator` classes) used wrongly."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _generator(dimensions: int = 2, out_type=None, defines: bool = True, outputs: int = 1, also=None):
    """A pointwise generator (`output = input * gain`, the reference system's pointwise app) with a
    GeneratorParam `gain`; its schedule accelerates an 8x8 output, then calls `also(self, hw_output, xi)`."""

    class Pointwise(hl.Generator):
        gain = hl.GeneratorParam(2)
        input = hl.InputBuffer(hl.UInt(16), 2)
        if outputs:
            output = hl.OutputBuffer(out_type or hl.UInt(16), dimensions)
        if outputs == 2:
            output2 = hl.OutputBuffer(hl.UInt(16), 2)

        def generate(self):
            x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
            hw_input, hw_output = hl.funcs("hw_input hw_output")
            hw_input[x, y] = self.input[x, y]
            hw_output[x, y] = hw_input[x, y] * self.gain
            if defines and outputs:
                self.output[x, y] = hw_output[x, y]
                self.output.bound(x, 0, 8).bound(y, 0, 8)
            if outputs == 2:
                self.output2[x, y] = hw_output[x, y]
            hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
            hw_input.compute_root().stream_to_accelerator()
            if also is not None:
                also(self, hw_output, xi)

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


@case("algorithm", "A Generator with two outputs bounded differently", (
    "{at}: compile of a pipeline of several outputs: 'output' is bounded to [0, +8) in dimension 1 (y), 'output2' "
    "to [0, +4); a mainspring design streams its outputs together, over one region: bound them alike (e.g. "
    "output2.bound(y, 0, 8)), or compile them as designs of their own"), func="output2")
def two_outputs():
    gen = _generator(outputs=2, also=lambda g, hw, xi: g.output2.bound(hl.Var("y"), 0, 4))
    return hl.compile(gen(), name="demo")  # <-


@two_outputs.fix
def _():
    gen = _generator(outputs=2)
    return hl.compile(gen(), name="demo")


@case("algorithm", "A Generator with no output", (
    "{at}: Generator pointwise declares no OutputBuffer: declare one (e.g. output = hl.OutputBuffer(hl.UInt(8), "
    "2)) and define it in generate()"))
def no_outputs():
    gen = _generator(outputs=0)
    return hl.compile(gen(), name="demo")  # <-


@no_outputs.fix
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
    "{at}: GeneratorContext('host'): the target is the accelerator, an hl.CGRA(...), or "
    "hl.Target(\"host-clockwork\") or nothing for the default array; CPU targets do not apply"))
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


def _required(condition, args):
    """The pointwise generator with `add_requirement(condition(self), *args)`, checked on its example inputs."""
    gen = _generator(also=lambda g, hw_output, xi: g.add_requirement(condition(g), *args(g)))  # <-required
    design = hl.compile(gen(), name="demo")
    return design.reference_output(design.example_inputs())


@case("simulation", "A requirement (add_requirement) the inputs break", (
    "{required}: Requirement Failed: (input.extent.0 >= 16) the input is 8 wide, not 16"))
def requirement_broken():
    return _required(lambda g: g.input.dim(0).extent() >= 16,
                     lambda g: ("the input is", g.input.dim(0).extent(), "wide, not 16"))


@requirement_broken.fix
def _():
    return _required(lambda g: g.input.dim(0).extent() >= 8, lambda g: ("the input is too narrow",))


@case("algorithm", "A requirement (add_requirement) that is not a condition", (
    "{required}: add_requirement(input.extent.0): the condition is int32, not a boolean; compare it, e.g. "
    "add_requirement(input.dim(0).extent() >= 8)"))
def requirement_not_boolean():
    return _required(lambda g: g.input.dim(0).extent(), lambda g: ())


@requirement_not_boolean.fix
def _():
    return _required(lambda g: g.input.dim(0).extent() >= 8, lambda g: ())


@case("algorithm", "A requirement (add_requirement) on pixel values", (
    "{required}: add_requirement((input(0, 0) < (uint16)60000)): a requirement reads Params and image sizes (e.g. "
    "input.dim(0).extent()), not the values of input; check pixel values in the algorithm instead (e.g. with "
    "hl.clamp or hl.select)"))
def requirement_on_pixels():
    return _required(lambda g: g.input[0, 0] < 60000, lambda g: ())


@requirement_on_pixels.fix
def _():
    return _required(lambda g: g.input.dim(1).extent() >= 8, lambda g: ())


@case("algorithm", "has_feature of something that is not a TargetFeature", (
    "{at}: has_feature('avx2'): pass a member of hl.TargetFeature, e.g. hl.TargetFeature.Clockwork (a CGRA target "
    "has only Clockwork)"))
def cpu_feature_of_a_cgra():
    gen = _generator(also=lambda g, hw_output, xi: g.get_target().has_feature("avx2") and hw_output.unroll(xi, 2))  # <-
    return hl.compile(gen(), name="demo")


@cpu_feature_of_a_cgra.fix
def _():
    gen = _generator(also=lambda g, hw_output, xi: g.get_target().has_feature(hl.TargetFeature.AVX2)
                     or hw_output.unroll(xi, 2))
    return hl.compile(gen(), name="demo")


@case("algorithm", "A Type GeneratorParam given a value that is not a type name", (
    "{at}: GeneratorParam t: 'u8' is not a type; use a name such as \"uint8\", \"int16\", \"float32\" or \"bool\""))
def type_generator_param_misspelt():
    return hl.GeneratorParam(hl.UInt(8)).parse("t", "u8")  # <-


@type_generator_param_misspelt.fix
def _():
    return hl.GeneratorParam(hl.UInt(8)).parse("t", "uint8")


@case("algorithm", "output_buffer().dim(i) beyond the output's dimensions", (
    "{at}: Output 'output': output_buffer().dim(2): the output has 2 dimensions (0 to 1)"), func="output")
def output_buffer_dim_out_of_range():
    gen = _generator(also=lambda g, hw_output, xi: g.output.output_buffer().dim(2).set_bounds(0, 8))
    return hl.compile(gen(), name="demo")  # <-


@output_buffer_dim_out_of_range.fix
def _():
    gen = _generator(also=lambda g, hw_output, xi: g.output.output_buffer().dim(1).set_bounds(0, 8))
    return hl.compile(gen(), name="demo")


@case("algorithm", "output_buffer().dim(i).set_bounds with a size that is not a constant", (
    "{at}: Output 'output': output_buffer().dim(0).set_bounds: extent must be a positive integer (a CGRA design has "
    "a fixed size), got 0"), func="output")
def output_buffer_bounds_not_positive():
    gen = _generator(also=lambda g, hw_output, xi: g.output.output_buffer().dim(0).set_bounds(0, 0))  # <-
    return hl.compile(gen(), name="demo")


@output_buffer_bounds_not_positive.fix
def _():
    gen = _generator(also=lambda g, hw_output, xi: g.output.output_buffer().dim(0).set_bounds(0, 8))
    return hl.compile(gen(), name="demo")


def _untyped(params: dict):
    @hl.generator(name="twice")
    class Twice:
        input = hl.InputBuffer(None, None)
        output = hl.OutputBuffer(hl.UInt(8), 2)

        def generate(self):
            x, y = hl.vars("x y")
            self.output[x, y] = self.input[x, y] * 2

    return Twice(generator_params=params).build()  # <-untyped


@case("algorithm", "An image declared with no type, its type not given either (Halide's message)", (
    "{untyped}: No type has been specified for input. Try specifying one in code, or by setting 'input.type' as a "
    "GeneratorParam."))
def image_of_no_type():
    return _untyped({"input.dim": 2})


@image_of_no_type.fix
def _():
    return _untyped({"input.dim": 2, "input.type": "uint8"})


@case("algorithm", "The type of an image typed in code set again by a GeneratorParam", (
    "{untyped}: GeneratorParam output.type: output's type is given in code; declare it as None to set it with a "
    "GeneratorParam"))
def image_typed_twice():
    return _untyped({"input.dim": 2, "input.type": "uint8", "output.type": "uint16"})


@image_typed_twice.fix
def _():
    return _untyped({"input.dim": 2, "input.type": "uint8"})


@case("algorithm", "An image's dimensions GeneratorParam that is not a number", (
    "{untyped}: GeneratorParam input.dim: 'two' is not a number of dimensions, e.g. 2"))
def image_dimensions_not_a_number():
    return _untyped({"input.dim": "two", "input.type": "uint8"})


@image_dimensions_not_a_number.fix
def _():
    return _untyped({"input.dim": "2", "input.type": "uint8"})


@case("algorithm", "hl.Target of something other than a target string", (
    "{at}: Target(['host', 'clockwork']): pass a target string such as \"host-clockwork\""))
def target_of_a_list():
    gen = _generator()
    with hl.GeneratorContext(hl.Target(["host", "clockwork"])):  # <-
        return hl.compile(gen(), name="demo")


@target_of_a_list.fix
def _():
    gen = _generator()
    with hl.GeneratorContext(hl.Target("host-clockwork")):
        return hl.compile(gen(), name="demo")


@case("algorithm", "Target.has_feature of a name instead of an hl.TargetFeature", (
    "{at}: has_feature('clockwork'): pass a member of hl.TargetFeature, e.g. hl.TargetFeature.Clockwork"))
def target_feature_by_name():
    target = hl.get_target_from_environment().with_feature(hl.TargetFeature.Clockwork)
    if target.has_feature("clockwork"):  # <-
        gen = _generator()
        with hl.GeneratorContext(target):
            return hl.compile(gen(), name="demo")
    return None


@target_feature_by_name.fix
def _():
    target = hl.get_target_from_environment().with_feature(hl.TargetFeature.Clockwork)
    if target.has_feature(hl.TargetFeature.Clockwork):
        gen = _generator()
        with hl.GeneratorContext(target):
            return hl.compile(gen(), name="demo")
    return None
