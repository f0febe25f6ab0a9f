"""mainspring: Halide-style image pipelines with a hardware schedule, compiled to verified CGRA RTL.

`import mainspring as hl` gives the language of Halide's Python bindings (integer and floating-point types)
plus the hardware flow. See README.md for an example.
"""

from .autoschedule import AutoschedulerParams, AutoSchedulerResults
from .compiler import compile  # noqa: A004 - the public name of the hardware flow
from .design import Design, SimulationResult
from .frontend.declarative import IterLevel
from .frontend.errors import HalideError, MismatchError, ScheduleError
from .frontend.expr import Expr
from .frontend.fastmath import fast_cos, fast_exp, fast_inverse, fast_inverse_sqrt, fast_log, fast_pow, fast_sin
from .frontend.func import Func, FuncRef, Stage
from .frontend.generator import (
    Generator,
    GeneratorContext,
    GeneratorParam,
    InputBuffer,
    InputScalar,
    OutputBuffer,
    TargetFeature,
    funcs,
    generator,
)
from .frontend.generator import vars_ as vars  # noqa: A004 - Halide's name
from .frontend.intrinsics import (
    count_leading_zeros,
    count_trailing_zeros,
    div_round_to_zero,
    halving_add,
    halving_sub,
    i8_sat,
    i16_sat,
    i32_sat,
    lerp,
    likely,
    likely_if_innermost,
    logical_not,
    mod_round_to_zero,
    mul_shift_right,
    popcount,
    reinterpret,
    rounding_halving_add,
    rounding_mul_shift_right,
    rounding_shift_left,
    rounding_shift_right,
    saturating_add,
    saturating_sub,
    u8_sat,
    u16_sat,
    u32_sat,
    widen_right_add,
    widen_right_mul,
    widen_right_sub,
    widening_add,
    widening_mul,
    widening_shift_left,
    widening_shift_right,
    widening_sub,
)
from .frontend.library import BoundaryConditions, argmax, argmin, maximum, minimum, product
from .frontend.library import sum_ as sum  # noqa: A004
from .frontend.markers import Tuple, print_when, undef, unsafe_promise_clamped
from .frontend.markers import print_ as print  # noqa: A004 - Halide's name
from .frontend.mathfuncs import (
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    ceil,
    cos,
    cosh,
    erf,
    exp,
    floor,
    fract,
    hypot,
    is_finite,
    is_inf,
    is_nan,
    log,
    pow,  # noqa: A004 - Halide's name
    round,  # noqa: A004 - Halide's name
    sin,
    sinh,
    sqrt,
    strict_float,
    tan,
    tanh,
    trunc,
)
from .frontend.operators import abs_ as abs  # noqa: A004 - Halide's name
from .frontend.operators import (
    absd,
    cast,
    clamp,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
    mux,
    saturating_cast,
    select,
    u8,
    u16,
    u32,
    u64,
)
from .frontend.operators import max_ as max  # noqa: A004
from .frontend.operators import min_ as min  # noqa: A004
from .frontend.params import Buffer, ImageParam, Param
from .frontend.pipeline import Pipeline
from .frontend.schedule import LoopAlignStrategy, LoopLevel, MemoryType, Partition, PrefetchBoundStrategy, TailStrategy
from .frontend.targets import Target, get_host_target, get_jit_target_from_environment, get_target_from_environment
from .frontend.types import Bool, Float, Int, Type, UInt
from .frontend.utility import concat_bits, evaluate, extract_bits, lambda_func
from .frontend.vars import Range, RDom, RVar, Var, _, _0, _1, _2, _3, _4, _5, _6, _7, _8, _9
from .target import CGRA

__all__ = [
    "_", "_0", "_1", "_2", "_3", "_4", "_5", "_6", "_7", "_8", "_9",
    "AutoschedulerParams", "AutoSchedulerResults",
    "HalideError", "MismatchError", "ScheduleError",
    "Expr", "absd", "cast", "clamp", "i8", "i16", "i32", "mux", "saturating_cast", "select", "u8", "u16", "u32",
    "f32", "f64", "i64", "u64",
    "abs", "max", "min",
    "Func", "FuncRef", "Stage",
    "BoundaryConditions", "maximum", "minimum", "product", "sum",
    "ceil", "exp", "floor", "fract", "log", "pow", "round", "sqrt", "trunc",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "hypot",
    "erf", "is_nan", "is_inf", "is_finite",
    "strict_float", "evaluate", "lambda_func", "extract_bits", "concat_bits",
    "fast_exp", "fast_log", "fast_pow", "fast_sin", "fast_cos", "fast_inverse", "fast_inverse_sqrt",
    "count_leading_zeros", "count_trailing_zeros", "div_round_to_zero", "halving_add", "halving_sub", "lerp",
    "likely", "likely_if_innermost", "logical_not", "mod_round_to_zero", "mul_shift_right", "popcount",
    "reinterpret", "rounding_halving_add", "rounding_mul_shift_right", "rounding_shift_left",
    "rounding_shift_right", "saturating_add", "saturating_sub", "widen_right_add", "widen_right_mul",
    "widen_right_sub", "widening_add", "widening_mul", "widening_shift_left", "widening_shift_right",
    "widening_sub", "u8_sat", "u16_sat", "u32_sat", "i8_sat", "i16_sat", "i32_sat",
    "Tuple", "argmax", "argmin", "print", "print_when", "undef", "unsafe_promise_clamped",
    "Buffer", "ImageParam", "Param", "Pipeline",
    "IterLevel", "LoopAlignStrategy", "LoopLevel", "MemoryType", "Partition", "PrefetchBoundStrategy",
    "TailStrategy",
    "Bool", "Float", "Int", "Type", "UInt",
    "RDom", "Range", "RVar", "Var",
    "CGRA", "Design", "SimulationResult", "compile",
    "Generator", "GeneratorContext", "GeneratorParam", "InputBuffer", "InputScalar", "OutputBuffer", "TargetFeature",
    "funcs", "generator", "vars",
    "Target", "get_host_target", "get_jit_target_from_environment", "get_target_from_environment",
]
