"""Halide's Python Generators: `@hl.generator` classes with GeneratorParams, Inputs and Outputs.

A Generator is how Halide-to-Hardware's apps are written (its C++ generators port line by line to a Python
one), so a class written for Halide's Python bindings compiles here unchanged, except for the target:
`hl.compile(Blur(), name="blur")` builds the pipeline (runs `generate`) and compiles its output. As in Halide,
a GeneratorParam's default fixes its type and `generator_params={"name": value}` overrides it (values may be
strings, as on Halide's command line); inside `generate` the attributes are the values, ImageParams, Params and
Funcs named after the attributes. `generator_params={"autoscheduler": "Mainspring", "autoscheduler.lanes": "2"}`
applies the autoscheduler after `generate`, as Halide's build does. Unlike Halide, a GeneratorContext is
optional (its target is a CGRA), and `call()` makes an ImageParam or Param for an input not given.
"""

from __future__ import annotations

import contextvars
import enum
import re
from typing import Any

from .errors import HalideError, did_you_mean, user_location
from .func import Func
from .params import Buffer, ImageParam, Param
from .requirements import Requirement, make_requirement
from .types import Type

_context: contextvars.ContextVar[GeneratorContext | None] = contextvars.ContextVar("generator_context",
                                                                                   default=None)


class GeneratorContext:
    """`with hl.GeneratorContext(hl.CGRA(...)):`: the target Generators built inside it compile for."""

    def __init__(self, target=None, autoscheduler_params=None):
        from mainspring.target import CGRA

        from .targets import Target

        if isinstance(target, Target) and target.has_feature(TargetFeature.Clockwork):
            target = None  # Halide-to-Hardware's target string ("host-clockwork"): the accelerator it names
        if target is not None and not isinstance(target, CGRA):
            raise HalideError(f"{user_location()}: GeneratorContext({target!r}): the target is the accelerator, an "
                              "hl.CGRA(...), or hl.Target(\"host-clockwork\") or nothing for the default array; "
                              "CPU targets do not apply")
        self._target = target or CGRA()
        self._autoscheduler = autoscheduler_params
        self._tokens: list[contextvars.Token] = []

    def target(self):
        return self._target

    def get_target(self):
        return self._target

    def __enter__(self) -> GeneratorContext:
        self._tokens.append(_context.set(self))
        return self

    def __exit__(self, *exc) -> None:
        _context.reset(self._tokens.pop())


# Halide 21's Target::Feature names (hl.TargetFeature in its Python bindings), so that a port's CPU and GPU
# branches (`has_feature(hl.TargetFeature.AVX2)`) run as written and take the CGRA's answer, False.
_HALIDE_FEATURES = """
    ARMDotProd ARMFp16 ARMv7s ARMv81a ARMv82a ARMv83a ARMv84a ARMv85a ARMv86a ARMv87a ARMv88a ARMv89a ARMv8a ASAN
    AVX AVX10_1 AVX2 AVX512 AVX512_Cannonlake AVX512_KNL AVX512_SapphireRapids AVX512_Skylake AVX512_Zen4
    AVX512_Zen5 AVXVNNI CLAtomics64 CLDoubles CLHalf CPlusPlusMangling CUDA CUDACapability30 CUDACapability32
    CUDACapability35 CUDACapability50 CUDACapability61 CUDACapability70 CUDACapability75 CUDACapability80
    CUDACapability86 CheckUnsafePromises D3D12Compute Debug EGL EmbedBitcode EnableBacktraces EnableLLVMLoopOpt
    F16C FMA FMA4 FuzzFloatStores HVX HVX_128 HVX_v62 HVX_v65 HVX_v66 HVX_v68 HexagonDma JIT LLVMLargeCodeModel
    LargeBuffers MSAN Metal NoAsserts NoBoundsQuery NoNEON NoRuntime OpenCL POWER_ARCH_2_07 Profile
    ProfileByTimer RVV SPIRV SSE41 SVE SVE2 SanitizerCoverage Semihosting Simulator SoftFloatABI StrictFloat TSAN
    TraceLoads TracePipeline TraceRealizations TraceStores UserContext VSX Vulkan VulkanFloat16 VulkanFloat64
    VulkanInt16 VulkanInt64 VulkanInt8 VulkanV10 VulkanV12 VulkanV13 WasmBulkMemory WasmMvpOnly WasmSimd128
    WasmThreads WebGPU X86APX""".split()

# The features Halide-to-Hardware's generators branch on (`get_target().has_feature(Target::Clockwork)`) come
# first: a CGRA target has Clockwork (the reference system's CGRA flow, whose branch holds the hardware schedule),
# not CoreIR or HLS (its older flows), so a generator ported with all its branches takes the Clockwork one.
TargetFeature = enum.Enum(  # type: ignore[misc]
    "TargetFeature", [("Clockwork", "clockwork"), ("CoreIR", "coreir"), ("HLS", "hls")]
    + [(n, n.lower()) for n in _HALIDE_FEATURES], module=__name__)
TargetFeature.__doc__ = ("Halide's hl.TargetFeature, with Halide-to-Hardware's Clockwork, CoreIR and HLS: a CGRA "
                         "target has only Clockwork.")


def cgra_has_feature(feature) -> bool:
    """`CGRA.has_feature(feature)`: only Clockwork."""
    if not isinstance(feature, TargetFeature):
        raise HalideError(f"{user_location()}: has_feature({feature!r}): pass a member of hl.TargetFeature, e.g. "
                          "hl.TargetFeature.Clockwork (a CGRA target has only Clockwork)")
    return feature is TargetFeature.Clockwork


def cgra_natural_vector_size(type_) -> int:
    """`CGRA.natural_vector_size(type)`: a CGRA has no SIMD vectors (each PE computes one word per cycle; several
    pixels per cycle are an unroll of the accelerated loop), so 1 for every type."""
    _check_type(type_, "natural_vector_size")
    return 1


_TYPE_NAME = re.compile(r"(u?int|float)(8|16|32|64)|bool")


def _parse_type(name: str, value: Any) -> Type:
    """A Type GeneratorParam's value: a Type, or its name as on Halide's command line ("uint8", "float32")."""
    if isinstance(value, Type):
        return value
    m = _TYPE_NAME.fullmatch(str(value))
    if m is None:
        raise HalideError(f"{user_location()}: GeneratorParam {name}: {value!r} is not a type; use a name such as "
                          "\"uint8\", \"int16\", \"float32\" or \"bool\"")
    from . import types

    if m.group(0) == "bool":
        return types.Bool()
    make = {"uint": types.UInt, "int": types.Int, "float": types.Float}[m.group(1)]
    return make(int(m.group(2)))


class GeneratorParam:
    """A compile-time parameter of a Generator; its default's type (int, float, bool, str or hl.Type, as in
    Halide's Python Generators) is its type."""

    def __init__(self, value: Any):
        if not isinstance(value, (bool, int, float, str, Type)):
            raise HalideError(f"{user_location()}: GeneratorParam({value!r}): the default must be an int, float, "
                              "bool, str or hl.Type (its type is the parameter's type)")
        self.value = value

    def parse(self, name: str, value: Any):
        if isinstance(self.value, Type):
            return _parse_type(name, value)
        kind = type(self.value)
        if kind is bool and isinstance(value, str):
            if value not in ("true", "false"):
                raise HalideError(f"{user_location()}: GeneratorParam {name}: {value!r} is not a bool; use "
                                  "\"true\" or \"false\"")
            return value == "true"
        try:
            return kind(value)
        except (TypeError, ValueError):
            article = "an" if kind is int else "a"
            raise HalideError(f"{user_location()}: GeneratorParam {name}: {value!r} is not {article} {kind.__name__}, "
                              f"the type of its default {self.value!r}") from None


class _Image:
    """An image Input or Output: its type and dimensions, either of which may be None (as in Halide) and then
    comes from the GeneratorParams NAME.type and NAME.dim."""

    def __init__(self, type_: Type | None, dimensions: int | None):
        if type_ is not None:
            _check_type(type_, type(self).__name__)
        self.type, self.dimensions = type_, None if dimensions is None else int(dimensions)

    def set_param(self, name: str, what: str, value: Any) -> Any:
        """The value of GeneratorParam NAME.type or NAME.dim, parsed."""
        if (self.type if what == "type" else self.dimensions) is not None:
            raise HalideError(f"{user_location()}: GeneratorParam {name}.{what}: {name}'s {what} is given in code; "
                              f"declare it as None to set it with a GeneratorParam")
        if what == "type":
            return _parse_type(f"{name}.type", value)
        if isinstance(value, bool) or not str(value).isdigit():
            raise HalideError(f"{user_location()}: GeneratorParam {name}.dim: {value!r} is not a number of "
                              "dimensions, e.g. 2")
        return int(value)

    def resolved(self, name: str, given: dict[str, Any]) -> _Image:
        """This declaration with the GeneratorParams' type and dimensions in place of None (Halide's errors if
        neither gives them)."""
        type_, dims = self.type or given.get("type"), self.dimensions
        dims = given.get("dim") if dims is None else dims
        for what, v, where in (("type", type_, "type"), ("dimensionality", dims, "dim")):
            if v is None:
                raise HalideError(f"{user_location()}: No {what} has been specified for {name}. Try specifying one "
                                  f"in code, or by setting '{name}.{where}' as a GeneratorParam.")
        return type(self)(type_, dims)


class InputBuffer(_Image):
    """An input image: inside `generate`, an `hl.ImageParam(type, dimensions, <attribute name>)`."""

    type: Type
    dimensions: int

    def make(self, name: str, value=None):
        if value is None:
            return ImageParam(self.type, self.dimensions, name)
        if isinstance(value, Buffer):  # as in Halide: an ImageParam of the input's name, bound to the buffer
            image = ImageParam(value.type(), value.dimensions(), name)
            image.set(value)
            value = image
        if not isinstance(value, ImageParam):
            raise HalideError(f"{user_location()}: Input {name} takes an hl.ImageParam or hl.Buffer, got {value!r}")
        if value._param.type != self.type or value._param.dims != self.dimensions:
            raise HalideError(f"{user_location()}: Input {name} is declared {self.type} with {self.dimensions} "
                              f"dimensions, but its image {value.name()} is {value._param.type} with "
                              f"{value._param.dims}")
        return value


class InputScalar:
    """A scalar input: inside `generate`, an `hl.Param(type, <attribute name>)`."""

    def __init__(self, type_: Type):
        _check_type(type_, "InputScalar")
        self.type = type_

    def make(self, name: str, value=None):
        if isinstance(value, Param):
            return value
        param = Param(self.type, name)
        if value is not None:
            param.set(value)
        return param


class OutputBuffer(_Image):
    """The output image: inside `generate`, an undefined `hl.Func(<attribute name>)` that generate defines."""

    type: Type
    dimensions: int

    def make(self, name: str, value=None):
        assert value is None
        return _OutputFunc(name)

    def check(self, name: str, func: Func) -> None:
        assert isinstance(func, _OutputFunc)
        if not func.defined():
            raise HalideError(f"{user_location()}: Output '{name}' was not defined: generate() must define it (e.g. "
                              f"self.{name}[x, y] = ...)")
        if func.type() != self.type or func.dimensions() != self.dimensions:
            raise HalideError(f"{user_location()}: Output '{name}' is declared {self.type} with {self.dimensions} "
                              f"dimensions, but generate() defined it as {func.type()} with {func.dimensions()}: "
                              f"cast its value (e.g. hl.cast({_spelling(self.type)}, ...)) or change the declaration")
        func._apply_buffer_bounds()


class _OutputFunc(Func):
    """A Generator's output Func, whose `output_buffer()` is the output image: `self.output.output_buffer()
    .dim(0).set_bounds(0, 64)` fixes the output's size as `self.output.bound(x, 0, 64)` does (in Halide both make
    the output's loop bounds these constants). Applied after generate(), so it may come before the definition."""

    def __init__(self, name: str):
        super().__init__(name)
        self._buffer_dims: dict[int, dict[str, tuple[int, int]]] = {}

    def output_buffer(self) -> _OutputImage:
        return _OutputImage(self)

    def _apply_buffer_bounds(self) -> None:
        args = self.args()
        for i, calls in sorted(self._buffer_dims.items()):
            if i >= len(args):
                raise HalideError(f"{user_location()}: Output '{self.name()}': output_buffer().dim({i}): the output "
                                  f"has {len(args)} dimensions (0 to {len(args) - 1})")
            if "set_bounds" in calls:
                self.bound(args[i], *calls["set_bounds"])
            if "set_estimate" in calls:
                self.set_estimate(args[i], *calls["set_estimate"])


class _OutputImage:
    def __init__(self, func: _OutputFunc):
        self._func = func

    def dim(self, i: int) -> _OutputDim:
        return _OutputDim(self._func, int(i))

    def dimensions(self) -> int:
        return len(self._func.args())


class _OutputDim:
    """Halide's `Dimension` of an output image: set_bounds and set_estimate (what a CGRA design's size uses)."""

    def __init__(self, func: _OutputFunc, i: int):
        self._func, self._i = func, i

    def _record(self, call: str, min_, extent) -> _OutputDim:
        for what, v in (("min", min_), ("extent", extent)):
            if isinstance(v, bool) or not isinstance(v, int) or (what == "extent" and v < 1):
                raise HalideError(f"{user_location()}: Output '{self._func.name()}': output_buffer().dim({self._i})"
                                  f".{call}: {what} must be a{' positive' if what == 'extent' else 'n'} integer "
                                  f"(a CGRA design has a fixed size), got {v!r}")
        self._func._buffer_dims.setdefault(self._i, {})[call] = (min_, extent)
        return self

    def set_bounds(self, min, extent) -> _OutputDim:  # noqa: A002 - Halide's parameter names
        return self._record("set_bounds", min, extent)

    def set_estimate(self, min, extent) -> _OutputDim:  # noqa: A002 - Halide's parameter names
        return self._record("set_estimate", min, extent)


def _spelling(t: Type) -> str:
    if t.is_bool():
        return "hl.Bool()"
    kind = "Float" if t.is_float() else "UInt" if t.is_uint() else "Int"
    return f"hl.{kind}({t.bits()})"


def _check_type(type_, what: str) -> None:
    if not isinstance(type_, Type):
        raise HalideError(f"{user_location()}: {what}({type_!r}, ...): the first argument is the element type, "
                          "e.g. hl.UInt(16)")


class Generator:
    """Base of `@hl.generator` classes (inheriting from it is optional, as in Halide)."""

    _halide_registered_name = ""

    def __init__(self, generator_params: dict | None = None):
        context = _context.get()
        self._target = context.target() if context else None
        self._autoscheduler: tuple[str, dict[str, str]] | None = None
        self._declared = _declarations(type(self))
        self._values: dict[str, Any] = {}
        self._built: Func | list[Func] | None = None
        self._requirements: list[Requirement] = []
        self._image_params: dict[str, dict[str, Any]] = {}  # NAME -> {"type": ..., "dim": ...}
        for key, value in (generator_params or {}).items():
            self._set_param(key, value)

    def generate(self) -> None:
        raise HalideError(f"{user_location()}: Generator {self._name()} has no generate() method: define one "
                          "that defines its output")

    def configure(self) -> None:
        pass

    def target(self):
        from mainspring.target import CGRA

        return self._target or CGRA()

    def get_target(self):
        """The C++ spelling of `target()`, which line-for-line ports write."""
        return self.target()

    def context(self) -> GeneratorContext:
        return GeneratorContext(self.target())

    def natural_vector_size(self, type_: Type) -> int:
        """Halide's SIMD width for `type_` on the target; a CGRA's is 1 (each PE computes one word per cycle:
        several pixels per cycle are an unroll of the accelerated loop)."""
        return self.target().natural_vector_size(type_)

    def add_requirement(self, condition, *error_args) -> None:
        """Halide's `add_requirement`: the design's reference and its simulations check `condition` on the
        inputs they run on and fail with the error args, as Halide's pipeline does when it runs."""
        self._requirements.append(make_requirement(condition, error_args))

    def using_autoscheduler(self) -> bool:
        return self._autoscheduler is not None

    def autoscheduler(self):
        from mainspring.autoschedule import AutoschedulerParams

        name, extra = self._autoscheduler or ("", {})
        return AutoschedulerParams(name, extra)

    def _name(self) -> str:
        return self._halide_registered_name or type(self).__name__

    def _set_param(self, key: str, value: Any) -> None:
        if key == "autoscheduler":
            self._autoscheduler = (str(value), self._autoscheduler[1] if self._autoscheduler else {})
            return
        if key.startswith("autoscheduler."):
            name, extra = self._autoscheduler or ("", {})
            self._autoscheduler = (name, {**extra, key[len("autoscheduler."):]: str(value)})
            return
        image, _, what = key.partition(".")
        declared_image = self._declared.get(image)
        if isinstance(declared_image, _Image) and what in ("type", "dim"):
            self._image_params.setdefault(image, {})[what] = declared_image.set_param(image, what, value)
            return
        params = param_names(type(self))
        if key not in params:
            raise HalideError(f"{user_location()}: {unknown_param(type(self), key)}")
        declared = self._declared[key]
        assert isinstance(declared, GeneratorParam)
        self._values[key] = declared.parse(key, value)

    def build(self, inputs: dict[str, Any] | None = None) -> Func | list[Func]:
        """Run `generate` once and return the output Func, or the list of them for several OutputBuffers (the
        pipeline `hl.compile` compiles)."""
        if self._built is not None:
            if inputs:
                raise HalideError(f"{user_location()}: Generator {self._name()} was already built: make a new one "
                                  "to bind inputs")
            return self._built
        inputs = dict(inputs or {})
        for name, declared in self._declared.items():
            if isinstance(declared, GeneratorParam):
                value = self._values.get(name, declared.value)
            else:
                made = declared.resolved(name, self._image_params.get(name, {})) if isinstance(
                    declared, _Image) else declared
                value = made.make(name, inputs.pop(name, None))
            object.__setattr__(self, name, value)
        assert not inputs, inputs
        outputs = [n for n, d in self._declared.items() if isinstance(d, OutputBuffer)]
        if not outputs:
            raise HalideError(f"{user_location()}: Generator {self._name()} declares no OutputBuffer: declare one "
                              "(e.g. output = hl.OutputBuffer(hl.UInt(8), 2)) and define it in generate()")
        self.configure()
        self.generate()
        funcs = []
        for name in outputs:
            declared_out = self._declared[name]
            assert isinstance(declared_out, OutputBuffer)
            declared_out.resolved(name, self._image_params.get(name, {})).check(name, getattr(self, name))
            funcs.append(getattr(self, name))
        funcs[0].function().requirements.extend(self._requirements)
        # Several outputs are one pipeline, as in Halide (its realize gives a buffer per output).
        built = funcs[0] if len(funcs) == 1 else funcs
        if self._autoscheduler is not None:
            from .pipeline import Pipeline

            Pipeline(built).apply_autoscheduler(self.target(), self.autoscheduler())
        self._built = built
        return built

    @classmethod
    def call(cls, *args, generator_params: dict | None = None, **kwargs) -> Func | list[Func]:
        """Halide's `Gen.call(inputs..., generator_params={...})`: the built output Func (a list of them for several
        OutputBuffers); inputs by position (in declaration order) or by name; one not given is an ImageParam (or
        Param) named after it."""
        gen = cls(generator_params)
        names = [n for n, d in gen._declared.items() if isinstance(d, (InputBuffer, InputScalar))]
        if len(args) > len(names):
            raise HalideError(f"{user_location()}: Generator {gen._name()} allows at most {len(names)} positional "
                              f"inputs ({', '.join(names)}), but {len(args)} were given")
        bound = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in names:
                raise HalideError(f"{user_location()}: Generator {gen._name()} has no input '{key}' (its inputs: "
                                  f"{', '.join(names)}){did_you_mean(key, names)}")
            if key in bound:
                raise HalideError(f"{user_location()}: input {key} of Generator {gen._name()} given twice")
            bound[key] = value
        return gen.build(bound)


def param_names(cls) -> list[str]:
    return [n for n, d in _declarations(cls).items() if isinstance(d, GeneratorParam)]


def unknown_param(cls, key: str) -> str:
    params = param_names(cls)
    return (f"Generator {cls._halide_registered_name or cls.__name__} has no GeneratorParam '{key}' (its "
            f"GeneratorParams: {', '.join(params) or 'none'}; and autoscheduler, autoscheduler.<option>)"
            f"{did_you_mean(key, params)}")


def generator_output(output, target):
    """(the output Func, the target) for `hl.compile`'s first argument: a Func, or a Generator instance, built."""
    if isinstance(output, type) and issubclass(output, Generator):
        name = output.__name__
        raise HalideError(f"{user_location()}: compile({name}): {name} is a Generator class; compile an instance of "
                          f"it, e.g. compile({name}(), ...) or compile({name}(generator_params={{...}}), ...)")
    if isinstance(output, Generator):
        return output.build(), target or output.target()
    return output, target


_DECLARATIONS = (GeneratorParam, InputBuffer, InputScalar, OutputBuffer)


def _declarations(cls) -> dict[str, Any]:
    """The class's GeneratorParams, Inputs and Outputs by attribute name, in declaration order (bases first)."""
    found: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, _DECLARATIONS):
                found[name] = value
    return found


def generator(name: str = ""):
    """`@hl.generator(name="blur")`: makes the class a Generator (Halide's decorator)."""

    def wrap(cls):
        if not isinstance(cls, type):
            raise HalideError(f"{user_location()}: @generator applies to classes, not {cls!r}")
        bases = (cls,) if issubclass(cls, Generator) else (cls, Generator)
        return type(cls.__name__, bases, {"_halide_registered_name": name or cls.__name__,
                                          "__module__": cls.__module__, "__qualname__": cls.__qualname__})

    return wrap


def funcs(names: str) -> tuple[Func, ...]:
    """`hl.funcs("a b c")`: a Func per space-separated name."""
    return tuple(Func(n) for n in names.split())


def vars_(names: str) -> tuple:
    """`hl.vars("x y")`: a Var per space-separated name."""
    from .vars import Var

    return tuple(Var(n) for n in names.split())
