"""User errors: every one is an `hl.HalideError` whose message says at least what Halide's says (the phrases
below are Halide 21's, checked against Halide itself by `test_halide_says_the_same`) and names the user's
`file:line` (computed here from this file's own source, so moving code does not break the tests).

Each case is a function of the module `hl` that marks the line expected to fail with `mark()` just before it.
"""

from __future__ import annotations

import inspect
import os
import re

import numpy as np
import pytest

import mainspring

_LINE = [0]


def mark():
    """Expect the error on the line after the caller's."""
    _LINE[0] = inspect.currentframe().f_back.f_lineno + 1


def here(hl, line: int) -> str:
    return f"{os.path.basename(__file__)}:{line}"


# ---- the cases: (phrases Halide's message and ours both contain, builder) ---------------------------------

def undefined_func_called(hl):
    x, f, g = hl.Var("x"), hl.Func("f"), hl.Func("g")
    mark()
    g[x] = 2 * f[x]


def unevaluated_reference_elsewhere(hl):
    # f[x] + 1 on an undefined f is an update waiting to be assigned to f[x] (Halide's UnevaluatedFuncRefExpr)
    x, f, g = hl.Var("x"), hl.Func("f"), hl.Func("g")
    mark()
    g[x] = f[x] + 1


def realize_undefined(hl):
    f = hl.Func("f")
    mark()
    f.realize([3])


def pure_lhs_repeats_a_var(hl):
    x, f = hl.Var("x"), hl.Func("f")
    mark()
    f[x, x] = 1


def pure_lhs_not_a_var(hl):
    x, y, f = hl.Var("x"), hl.Var("y"), hl.Func("f")
    mark()
    f[x + 1, y] = 1


def pure_rhs_var_not_on_lhs(hl):
    x, y, f = hl.Var("x"), hl.Var("y"), hl.Func("f")
    mark()
    f[x] = y


def pure_uses_rdom(hl):
    x, f, r = hl.Var("x"), hl.Func("f"), hl.RDom([hl.Range(0, 3)])
    mark()
    f[x] = r.x


def update_mixes_types(hl):
    x, f = hl.Var("x"), hl.Func("f")
    f[x] = hl.u8(x)
    mark()
    f[x] = f[x] + hl.u16(1)


def update_int_literal_is_int32(hl):
    # A Python int on the right of an update is an Int(32) Expr, as in Halide: no coercion to the Func's type.
    x, f = hl.Var("x"), hl.Func("f")
    f[x] = hl.u8(x)
    mark()
    f[0] = 5


def update_var_not_pure(hl):
    x, f = hl.Var("x"), hl.Func("f")
    f[x] = x
    mark()
    f[x + 1] = f[x]


def call_with_wrong_arity(hl):
    x, y, f, g = hl.Var("x"), hl.Var("y"), hl.Func("f"), hl.Func("g")
    f[x] = x
    mark()
    g[x, y] = f[x, y]


def update_index_too_large(hl):
    x, f = hl.Var("x"), hl.Func("f")
    f[x] = x
    mark()
    f.update(0)


def compute_at_non_consumer(hl):
    x, f, g, h = hl.Var("x"), hl.Func("f"), hl.Func("g"), hl.Func("h")
    f[x] = x
    g[x] = f[x]
    h[x] = g[x] + 1
    g.compute_root()
    mark()
    f.compute_at(h, x)
    h.realize([3])


def compute_at_unknown_loop(hl):
    x, y, f, g = hl.Var("x"), hl.Var("y"), hl.Func("f"), hl.Func("g")
    f[x] = x
    g[x, y] = f[x]
    mark()
    f.compute_at(g, hl.Var("z"))
    g.realize([3, 3])


def compute_at_nested_consumers(hl):
    """f's legal loops run through three Funcs each computed inside the next: Halide lists them outermost first."""
    x, y, f, g, h, k = hl.Var("x"), hl.Var("y"), hl.Func("f"), hl.Func("g"), hl.Func("h"), hl.Func("k")
    f[x, y] = x + y
    g[x, y] = f[x, y] + f[x + 1, y]
    h[x, y] = g[x, y] + g[x, y + 1]
    k[x, y] = h[x, y] * 2
    h.compute_at(k, y)
    g.compute_at(h, x)
    mark()
    f.compute_at(g, hl.Var("z"))
    k.realize([3, 3])


def reorder_unknown(hl):
    x, y, f = hl.Var("x"), hl.Var("y"), hl.Func("f")
    f[x, y] = x
    mark()
    f.reorder(y, hl.Var("z"))


def split_unknown(hl):
    x, y, f = hl.Var("x"), hl.Var("y"), hl.Func("f")
    f[x, y] = x
    mark()
    f.split(hl.Var("z"), hl.Var("zo"), hl.Var("zi"), 4)


def fuse_unknown(hl):
    x, f = hl.Var("x"), hl.Func("f")
    f[x] = x
    mark()
    f.fuse(x, hl.Var("q"), hl.Var("t"))


def vectorize_unknown(hl):
    x, f = hl.Var("x"), hl.Func("f")
    f[x] = x
    mark()
    f.vectorize(hl.Var("q"))


def unroll_non_constant(hl):
    x, y, f = hl.Var("x"), hl.Var("y"), hl.Func("f")
    f[x, y] = x
    mark()
    f.unroll(x)
    f.realize([4, 4])


def bound_too_small(hl):
    x, g, h = hl.Var("x"), hl.Func("g"), hl.Func("h")
    g[x] = x * 2
    mark()
    g.bound(x, 0, 2)
    g.compute_root()
    h[x] = g[x]
    h.realize([4])


def _read(hl, p):
    x, y, f = hl.Var("x"), hl.Var("y"), hl.Func("f")
    f[x, y] = p[x + 1, y] + p[x, y - 1]
    mark()
    f.realize([5, 4])


def image_param_never_set(hl):
    _read(hl, hl.ImageParam(hl.UInt(8), 2, "inp"))


def image_param_wrong_dimensions(hl):
    p = hl.ImageParam(hl.UInt(8), 2, "inp")
    p.set(hl.Buffer(np.zeros((6,), np.uint8)))
    _read(hl, p)


def image_param_wrong_type(hl):
    p = hl.ImageParam(hl.UInt(8), 2, "inp")
    mark()
    p.set(hl.Buffer(np.zeros((4, 4), np.uint16)))


def input_too_small(hl):
    p = hl.ImageParam(hl.UInt(8), 2, "inp")
    p.set(hl.Buffer(np.zeros((4, 5), np.uint8)))
    _read(hl, p)


def param_never_set(hl):
    x, f, p = hl.Var("x"), hl.Func("f"), hl.Param(hl.UInt(8), "pp")
    f[x] = p + hl.u8(x)
    mark()
    f.realize([3])


def realize_wrong_dimensions(hl):
    x, f = hl.Var("x"), hl.Func("f")
    f[x] = x
    mark()
    f.realize([3, 3])


def constant_changes_value(hl):
    x = hl.Var("x")
    mark()
    hl.cast(hl.UInt(8), x) + 300


def bitwise_mixed_signedness(hl):
    x = hl.Var("x")
    mark()
    hl.cast(hl.UInt(8), x) & x


def select_condition_not_bool(hl):
    x = hl.Var("x")
    mark()
    hl.select(x, 1, 2)


def select_types_differ(hl):
    x = hl.Var("x")
    mark()
    hl.select(x > 0, hl.u8(x), hl.u16(x))


def clamp_bound_not_lossless(hl):
    x = hl.Var("x")
    mark()
    hl.clamp(hl.u8(x), 0, 300)


def uint32_func_argument(hl):
    x, f, g = hl.Var("x"), hl.Func("f"), hl.Func("g")
    f[x] = x
    mark()
    g[x] = f[hl.u32(x)]


def mux_types_differ(hl):
    x = hl.Var("x")
    mark()
    hl.mux(x, [hl.u8(x), 3])


def rdom_where_after_use(hl):
    x, f, r = hl.Var("x"), hl.Func("f"), hl.RDom([hl.Range(0, 5)], "r")
    f[x] = 0
    f[r.x] += 1
    mark()
    r.where(r.x < 3)


CASES = {
    rdom_where_after_use: [("cannot be given a new predicate, because it has already been used in the update "
                            "definition of")],
    undefined_func_called: ['Can\'t call Func "f" because it has not yet been defined'],
    unevaluated_reference_elsewhere: [("Cannot use an unevaluated reference to 'f' to define an update at a "
                                       "different location.")],
    realize_undefined: ["Can't realize undefined Func."],
    pure_lhs_repeats_a_var: ['In pure definition of Func "f":',
                             'In left-hand-side of definition, arguments 1 and 0 both have the name "x"'],
    pure_lhs_not_a_var: ['Argument 1 in initial definition of "f" is not a Var'],
    pure_rhs_var_not_on_lhs: ['Undefined variable "y" in definition of Func "f"'],
    pure_uses_rdom: ['In pure definition of Func "f":', "Reduction domain referenced in pure function definition"],
    update_mixes_types: ['In update definition 0 of Func "f":',
                         "Tuple element 0 of update definition has type uint16, but pure definition has type uint8"],
    update_int_literal_is_int32: ['In update definition 0 of Func "f":',
                                  ("Tuple element 0 of update definition has type int32, but pure definition has "
                                   "type uint8")],
    update_var_not_pure: ['Undefined variable "x" in definition of Func "f"'],
    call_with_wrong_arity: ['Func "f" was called with 2 arguments, but was defined with 1'],
    update_index_too_large: ['Call to update with index larger than last defined update stage for Func "f"'],
    compute_at_non_consumer: ['Func "f" is computed at the following invalid location:', "  f.compute_at(h, x);",
                              "Legal locations for this function are:", "  f.compute_root();",
                              "  f.compute_at(g, Var::outermost());", "  f.compute_at(g, x);"],
    compute_at_unknown_loop: ['Func "f" is computed at the following invalid location:', "  f.compute_at(g, z);",
                              "  f.compute_root();", "  f.compute_at(g, Var::outermost());",
                              "  f.compute_at(g, y);\n  f.compute_at(g, x);"],
    compute_at_nested_consumers: [("Legal locations for this function are:\n  f.compute_root();\n"
                                   "  f.compute_at(k, Var::outermost());\n  f.compute_at(k, y);\n"
                                   "  f.compute_at(h, Var::outermost());\n  f.compute_at(h, y);\n"
                                   "  f.compute_at(h, x);\n  f.compute_at(g, Var::outermost());\n"
                                   "  f.compute_at(g, y);\n  f.compute_at(g, x);\n")],
    reorder_unknown: ["In schedule for f, could not find var z to reorder in the argument list.",
                      "Vars: x y __outermost"],
    split_unknown: ["In schedule for f, could not find split dimension: z", "Vars: x y __outermost"],
    fuse_unknown: ["In schedule for f, could not find outer fuse dimension: q", "Vars: x __outermost"],
    vectorize_unknown: ["In schedule for f, could not find dimension q to mark as vectorized in vars for function",
                        "Vars: x __outermost"],
    unroll_non_constant: ["Can only unroll for loops over a constant extent.", "Loop over f.s0.x"],
    bound_too_small: ["Bounds given for g in x (from 0 to 1) do not cover required region (from 0 to 3)"],
    image_param_never_set: ["Buffer argument inp is nullptr"],
    image_param_wrong_dimensions: [("Input buffer inp requires a buffer of exactly 2 dimensions, but the buffer "
                                    "passed in has 1 dimensions")],
    image_param_wrong_type: ["Can't bind ImageParam inp of type uint8 to Buffer", "of type uint16"],
    input_too_small: ["Input buffer inp is accessed at 5, which is beyond the max (4) in dimension 0"],
    param_never_set: ["Parameter pp does not have a valid scalar value"],
    realize_wrong_dimensions: [("is defined with 1 dimensions, but realize() is requesting a realization with 2 "
                                "dimensions")],
    constant_changes_value: [("Integer constant 300 will be implicitly coerced to type uint8, which changes its "
                              "value to (uint8)44.")],
    bitwise_mixed_signedness: ["Arguments to bitwise and must be both be signed or both be unsigned.",
                               "LHS type: uint8 RHS type: int32", "LHS value: uint8(x) RHS value: x"],
    select_condition_not_bool: ["The first argument to a select must be a boolean:", "  x has type int32"],
    select_types_differ: ["The second and third arguments to a select do not have a matching type:",
                          "  uint8(x) has type uint8", "  uint16(x) has type uint16"],
    clamp_bound_not_lossless: [("Type mismatch in call to clamp. First argument (uint8(x)) has type uint8, but third "
                                "argument (300) has type int32. Use an explicit cast.")],
    mux_types_differ: ["mux() requires all the values to have the same type."],
    uint32_func_argument: [('Implicit cast from uint32 to int in argument 1 in call to "f" is not allowed. Use an '
                            "explicit cast")],
}

# What mainspring adds to Halide's message (the region needed and given, a hint), pinned here.
EXTRA = {
    input_too_small: ["f needs inp over [0, 5] x [-1, 3], but the buffer given covers [0, 4] x [0, 3]",
                      "hl.BoundaryConditions.repeat_edge(inp)"],
    compute_at_unknown_loop: ["'g' has no loop 'z' (its loops are x, y)"],
    compute_at_non_consumer: ["'h' does not use 'f'"],
    rdom_where_after_use: ['Func "f"; call r.where(...) before the definitions that use it'],
}

IDS = [f.__name__ for f in CASES]


def _message(hl, case):
    _LINE[0] = 0
    with pytest.raises(Exception) as err:  # noqa: PT011 - the type is checked by the caller
        case(hl)
    return str(err.value), err


@pytest.mark.parametrize("case", list(CASES), ids=IDS)
def test_error_message(case):
    msg, err = _message(mainspring, case)
    assert isinstance(err.value, mainspring.HalideError), f"{type(err.value).__name__}: {msg}"
    for phrase in CASES[case] + EXTRA.get(case, []):
        assert phrase in msg, f"missing {phrase!r} in:\n{msg}"
    assert here(mainspring, _LINE[0]) in msg, f"missing the user's line {here(mainspring, _LINE[0])} in:\n{msg}"


@pytest.mark.oracle
@pytest.mark.parametrize("case", list(CASES), ids=IDS)
def test_halide_says_the_same(case, halide):
    """The phrases are Halide's own (its unique-name suffixes like f$3 removed)."""
    msg, _ = _message(halide, case)
    msg = re.sub(r"\$\d+", "", msg)
    for phrase in CASES[case]:
        assert phrase in msg, f"Halide no longer says {phrase!r}:\n{msg}"


# ---- what mainspring refuses by design, with the reason in the message ----------------------------------

def _raises_here(fn, pattern: str):
    """fn() (a one-line lambda) raises a HalideError matching `pattern` that names the lambda's line."""
    line = fn.__code__.co_firstlineno
    with pytest.raises(mainspring.HalideError, match=pattern) as err:
        fn()
    assert str(err.value).startswith(f"{os.path.relpath(__file__)}:{line}:"), str(err.value)


def test_float_mistakes_name_the_line_and_the_fix():
    hl, x = mainspring, mainspring.Var("x")
    _raises_here(lambda: hl.Float(16), r"Float\(16\) is not supported; use Float\(32\) or Float\(64\)")
    _raises_here(lambda: hl.f32(x) + 16777217,
                 r"Integer constant 16777217 will be implicitly coerced to type float32, which changes its value "
                 r"to 16777216.000000. Write it as a float")
    _raises_here(lambda: hl.f32(x) & 1, r"bitwise and needs integer operands, .* has type float32. Cast it")
    _raises_here(lambda: hl.f32(x) << 1, r"The shift << needs integer operands")
    _raises_here(lambda: ~hl.f32(x), r"Bitwise not \(~\) needs integer operands")
    _raises_here(lambda: hl.saturating_cast(hl.UInt(8), hl.f32(x)),
                 r"saturating_cast between float32 and uint8 is not supported .* clamp the value")
    _raises_here(lambda: hl.clamp(hl.f32(x), x, 255), r"Type mismatch in call to clamp. .*Use an explicit cast")
    _raises_here(lambda: hl.select(x > 0, 1.5, x), r"do not have a matching type")
    _raises_here(lambda: hl.select(hl.f32(x), 1, 2), r"first argument to a select must be a boolean")
    _raises_here(lambda: hl.mux(x, [1.5, 2]), r"mux\(\) requires all the values to have the same type")


def test_float_mistakes_are_halide_errors_too(halide):
    # The same programs fail in Halide itself (with an int literal, Halide 21 builds `f32 & 1` as a bitwise
    # intrinsic on floats; mainspring refuses every bitwise operation on floats).
    x = halide.Var("x")
    for bad in (lambda: halide.f32(x) + 16777217, lambda: halide.f32(x) & halide.f32(x), lambda: ~halide.f32(x),
                lambda: halide.clamp(halide.f32(x), x, 255), lambda: halide.select(x > 0, 1.5, x)):
        with pytest.raises(halide.HalideError):
            bad()


def test_inexact_float_literal_warns_at_the_users_line():
    x = mainspring.Var("x")
    line = inspect.currentframe().f_lineno + 2
    with pytest.warns(RuntimeWarning, match=r"0.1 will be interpreted as a float32 by Halide and lose precision") as w:
        x + 0.1
    assert w[0].filename == __file__ and w[0].lineno == line


def test_int_literals_beyond_32_bits_are_refused():
    # Halide makes a Python int outside 32 bits an Int(64) Expr (u32 + 4294967295 is int64 there).
    x = mainspring.Var("x")
    line = inspect.currentframe().f_lineno + 2
    with pytest.raises(mainspring.HalideError) as err:
        mainspring.u32(x) + 4294967295
    assert "does not fit in 32 bits. Halide would make it an Int(64) expression" in str(err.value)
    assert here(mainspring, line) in str(err.value)


def test_bool_of_an_expr_raises():
    x = mainspring.Var("x")
    with pytest.raises(mainspring.HalideError, match=r"cannot be converted to a bool.*'&'/'\|'"):  # noqa: PT012 - the `if` is the mistake
        if x > 0:
            pass
