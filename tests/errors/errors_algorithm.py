"""Catalogue cases: mistakes in the algorithm (definitions, expressions, types, inputs), refused by frontend/
where they are written."""

from __future__ import annotations

import numpy as np
from catalogue import accelerated, case, image, scheduled

import mainspring as hl

# A small accelerated program per case: hw_input streams the input in, hw_output leaves the accelerator
# (catalogue.accelerated adds the host's output and the schedule).


def _io(t=None):
    t = t or hl.UInt(16)
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(t, 2, "input")
    hw_input, hw_output = hl.Func("hw_input"), hl.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    return x, y, input_, hw_input, hw_output


@case("algorithm", "A Func is called before it has a definition", (
    "{at}: Cannot use an unevaluated reference to 'blur' to define an update at a different "
    "location. 'blur' has no definition yet: define it first."), func="blur")
def call_undefined_func():
    x, y, input_, hw_input, hw_output = _io()
    blur = hl.Func("blur")
    hw_output[x, y] = blur[x, y] * 2  # <-
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    return accelerated(hw_output, hw_input, [blur])


@call_undefined_func.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x, y] * 2
    return accelerated(hw_output, hw_input, [blur])


@case("algorithm", "An update of a Func that has no pure definition", (
    "{at}: Cannot use an unevaluated reference to 'acc' to define an update at a different location. "
    "'acc' has no definition yet: define it first."), func="acc")
def update_before_pure_definition():
    x, y, input_, hw_input, hw_output = _io()
    acc = hl.Func("acc")
    hw_output[x, y] = acc[x, y] + hw_input[x, y]  # <-
    return accelerated(hw_output, hw_input, [acc])


@update_before_pure_definition.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    hw_output[x, y] = acc[x, y] + hw_input[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "A pure definition repeats a Var on its left side", (
    '{at}: In pure definition of Func "hw_output":\n'
    'In left-hand-side of definition, arguments 1 and 0 both have the name "x"; use a different Var '
    "for each dimension"), func="hw_output")
def pure_definition_repeats_a_var():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, x] = hw_input[x, x]  # <-
    return accelerated(hw_output, hw_input)


@pure_definition_repeats_a_var.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x, y]
    return accelerated(hw_output, hw_input)


@case("algorithm", "A pure definition at a computed location", (
    '{at}: Argument 1 in initial definition of "hw_output" is not a Var: (x + 1). The left-hand side '
    "of a pure definition must be distinct Vars: give 'hw_output' a pure definition over Vars first "
    "(e.g. hw_output[x] = 0), then update it at computed locations."), func="hw_output")
def pure_definition_at_an_expression():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x + 1, y] = hw_input[x, y]  # <-
    return accelerated(hw_output, hw_input)


@pure_definition_at_an_expression.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x - 1, y]
    return accelerated(hw_output, hw_input, size=(7, 8))


@case("algorithm", "The right side uses a Var the left side does not have", (
    '{at}: Undefined variable "c" in definition of Func "hw_output": it is used on the right side '
    "but is not one of the left side's Vars (x, y); add it to the left side or replace it"), func="hw_output")
def right_side_var_not_on_left():
    x, y, input_, hw_input, hw_output = _io()
    c = hl.Var("c")
    hw_output[x, y] = hw_input[x, y] + hl.u16(c)  # <-
    return accelerated(hw_output, hw_input)


@right_side_var_not_on_left.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x, y] + hl.u16(x)
    return accelerated(hw_output, hw_input)


@case("algorithm", "A pure definition uses an RDom", (
    '{at}: In pure definition of Func "hw_output":\n'
    "Reduction domain referenced in pure function definition (the reduction variable r$x); "
    "reductions belong in an update (e.g. hw_output[x, y] = 0, then hw_output[x, y] += ...) or in "
    "hl.sum(...)"), func="hw_output")
def rdom_in_pure_definition():
    x, y, input_, hw_input, hw_output = _io()
    r = hl.RDom([hl.Range(0, 3)], "r")
    hw_output[x, y] = hw_input[x + r.x, y]  # <-
    return accelerated(hw_output, hw_input)


@rdom_in_pure_definition.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    r = hl.RDom([hl.Range(0, 3)], "r")
    hw_output[x, y] = hl.u16(0)
    hw_output[x, y] += hw_input[x + r.x, y]
    hw_output.update().unroll(r.x)
    return accelerated(hw_output, hw_input)


@case("algorithm", "An update of another type than the pure definition", (
    '{at}: In update definition 0 of Func "blur":\n'
    "Tuple element 0 of update definition has type uint16, but pure definition has type uint8. Use "
    "an explicit cast, e.g. hl.cast(hl.UInt(8), ...)."), func="blur")
def update_changes_the_type():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    blur, r = hl.Func("blur"), hl.RDom([hl.Range(0, 3)], "r")
    blur[x, y] = hl.u8(0)
    blur[x, y] += hl.u16(hw_input[x + r.x, y])  # <-
    hw_output[x, y] = blur[x, y]
    return accelerated(hw_output, hw_input, [blur])


@update_changes_the_type.fix
def _():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    blur, r = hl.Func("blur"), hl.RDom([hl.Range(0, 3)], "r")
    blur[x, y] = hl.u8(0)
    blur[x, y] += hl.cast(hl.UInt(8), hl.u16(hw_input[x + r.x, y]))
    blur.update().unroll(r.x)
    hw_output[x, y] = blur[x, y]
    return accelerated(hw_output, hw_input, [blur])


@case("algorithm", "An update writes an int literal (Int(32)) into a narrower Func", (
    '{at}: In update definition 0 of Func "kernel":\n'
    "Tuple element 0 of update definition has type int32, but pure definition has type uint16. Use "
    "an explicit cast, e.g. hl.cast(hl.UInt(16), ...)."), func="kernel")
def update_with_an_int_literal():
    x, y, input_, hw_input, hw_output = _io()
    kernel = hl.Func("kernel")
    kernel[x, y] = hl.u16(0)
    kernel[1, 1] = 4  # <-
    hw_output[x, y] = hw_input[x, y] * kernel[1, 1]
    return accelerated(hw_output, hw_input)


@update_with_an_int_literal.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    kernel = hl.Func("kernel")
    kernel[x, y] = hl.u16(0)
    kernel[1, 1] = hl.cast(hl.UInt(16), 4)
    hw_output[x, y] = hw_input[x, y] * kernel[1, 1]
    return accelerated(hw_output, hw_input)


@case("algorithm", "An update writes at a Var that is not pure", (
    '{at}: Undefined variable "x" in definition of Func "acc": a Var in an update definition must '
    "appear by itself as an argument on the left side; use an RDom to range over other locations"), func="acc")
def update_at_a_shifted_var():
    x, y, input_, hw_input, hw_output = _io()
    acc = hl.Func("acc")
    acc[x, y] = hw_input[x, y]
    acc[x + 1, y] = acc[x, y] + 1  # <-
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@update_at_a_shifted_var.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(1, 7)], "r")
    acc[x, y] = hw_input[x, y]
    acc[r.x, y] = acc[r.x - 1, y] + 1
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "A Func is called with the wrong number of arguments",
      '{at}: Func "blur" was called with 1 arguments, but was defined with 2 (x, y)', func="blur")
def call_with_wrong_arity():
    x, y, input_, hw_input, hw_output = _io()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x]  # <-
    return accelerated(hw_output, hw_input, [blur])


@call_with_wrong_arity.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x, y]
    return accelerated(hw_output, hw_input, [blur])


@case("algorithm", "An update refers to the Func at another pure coordinate", (
    "{at}: In update definition of Func \"acc\": all of a function's recursive references to itself "
    "must contain the same pure variables in the same places as on the left-hand-side; argument 0 is "
    "(x + 1) where the left side has x; read the value at (x + 1) from another Func, or update over "
    "an RDom in place of x"), func="acc")
def update_reads_itself_elsewhere():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 2)], "r")
    acc[x, y] = hw_input[x, y]
    acc[x, y] = acc[x + 1, y] + hl.u16(r.x)  # <-
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@update_reads_itself_elsewhere.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 2)], "r")
    acc[x, y] = hw_input[x, y]
    acc[x, y] = acc[x, y] + hw_input[x + 1, y] + hl.u16(r.x)
    acc.update().unroll(r.x)
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "An update uses the variables of two RDoms", (
    '{at}: In update definition of Func "acc": it uses reduction variables of several RDoms (rx, '
    "ry); use one multi-dimensional RDom"), func="acc")
def update_over_two_rdoms():
    x, y, input_, hw_input, hw_output = _io()
    acc, rx, ry = hl.Func("acc"), hl.RDom([hl.Range(0, 2)], "rx"), hl.RDom([hl.Range(0, 2)], "ry")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + rx.x, y + ry.x]  # <-
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@update_over_two_rdoms.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y]
    acc.update().unroll(r.x).unroll(r.y)
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "An RDom's extent uses a pure Var", (
    "{at}: RDom r: the extent of dimension 0 uses the variable(s) x; an RDom's bounds may use "
    "constants and Params only: give it constant bounds that cover every case and skip the points "
    "you do not want with hl.select in the update"))
def rdom_bound_uses_a_var():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, x + 1)], "r")  # <-
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[r.x, y]
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@rdom_bound_uses_a_var.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hl.select(r.x <= x, hw_input[r.x, y], hl.u16(0))
    acc.update().unroll(r.x)
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "A predicated RDom (RDom.where)", (
    "{at}: RDom r.where(...): predicated reduction domains are not supported yet; use hl.select "
    "inside the update to skip points instead"))
def rdom_where():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    r.where(r.x != 1)  # <-
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@rdom_where.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hl.select(r.x != 1, hw_input[x + r.x, y], hl.u16(0))
    acc.update().unroll(r.x)
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "An inline reduction (hl.sum) without an RDom", (
    "{at}: Expression passed to sum must reference a reduction domain (an RDom); got (hw_input(x, y) "
    "+ hw_input((x + 1), y))"))
def inline_sum_without_rdom():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hl.sum(hw_input[x, y] + hw_input[x + 1, y])  # <-
    return accelerated(hw_output, hw_input)


@inline_sum_without_rdom.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    r = hl.RDom([hl.Range(0, 2)], "r")
    hw_output[x, y] = hl.sum(hw_input[x + r.x, y])
    return accelerated(hw_output, hw_input)


@case("algorithm", "A constant changes its value when coerced to the Func's type", (
    "{at}: Integer constant 300 will be implicitly coerced to type uint8, which changes its value to "
    "(uint8)44. Use an explicit cast (e.g. hl.cast(hl.UInt(8), ...)) on the other operand of + if "
    "you meant a wider type."))
def constant_does_not_fit_the_type():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    hw_output[x, y] = hw_input[x, y] + 300  # <-
    return accelerated(hw_output, hw_input)


@constant_does_not_fit_the_type.fix
def _():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    hw_output[x, y] = hl.u16(hw_input[x, y]) + 300
    return accelerated(hw_output, hw_input)


@case("algorithm", "A bitwise operation between signed and unsigned values", (
    "{at}: Arguments to bitwise and must be both be signed or both be unsigned.\n"
    "LHS type: uint8 RHS type: int8\n"
    "LHS value: hw_input(x, y) RHS value: int8(hw_input((x + 1), y))\n"
    "Cast one side (e.g. hl.cast(hl.UInt(8), ...)) so both have the same signedness."))
def bitwise_mixed_signedness():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    hw_output[x, y] = hw_input[x, y] & hl.i8(hw_input[x + 1, y])  # <-
    return accelerated(hw_output, hw_input)


@bitwise_mixed_signedness.fix
def _():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    hw_output[x, y] = hw_input[x, y] & hl.cast(hl.UInt(8), hl.i8(hw_input[x + 1, y]))
    return accelerated(hw_output, hw_input)


@case("algorithm", "select with a condition that is not a boolean", (
    "{at}: The first argument to a select must be a boolean:\n"
    "  hw_input(x, y) has type uint16\n"
    "Compare it (e.g. x != 0) to make a condition."))
def select_condition_not_bool():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hl.select(hw_input[x, y], hw_input[x, y], hl.u16(0))  # <-
    return accelerated(hw_output, hw_input)


@select_condition_not_bool.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hl.select(hw_input[x, y] != 0, hw_input[x, y], hl.u16(0))
    return accelerated(hw_output, hw_input)


@case("algorithm", "select between values of two types", (
    "{at}: The second and third arguments to a select do not have a matching type:\n"
    "  hw_input(x, y) has type uint16\n"
    "  (uint8)9 has type uint8\n"
    "Cast one of them (e.g. hl.cast(...)) so both have the same type."))
def select_types_differ():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hl.select(hw_input[x, y] > 9, hw_input[x, y], hl.u8(9))  # <-
    return accelerated(hw_output, hw_input)


@select_types_differ.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hl.select(hw_input[x, y] > 9, hw_input[x, y], hl.u16(9))
    return accelerated(hw_output, hw_input)


@case("algorithm", "clamp with a bound the value's type cannot hold", (
    "{at}: Type mismatch in call to clamp. First argument (hw_input(x, y)) has type uint8, but third "
    "argument (300) has type int32. Use an explicit cast."))
def clamp_bound_of_another_type():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    hw_output[x, y] = hl.clamp(hw_input[x, y], 10, 300)  # <-
    return accelerated(hw_output, hw_input)


@clamp_bound_of_another_type.fix
def _():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    hw_output[x, y] = hl.clamp(hw_input[x, y], 10, 250)
    return accelerated(hw_output, hw_input)


@case("algorithm", "mux over values of different types", (
    "{at}: mux() requires all the values to have the same type. Got uint16, uint8; cast them to one "
    "type."))
def mux_types_differ():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hl.mux(hw_input[x, y] % 2, [hw_input[x, y], hl.u8(1)])  # <-
    return accelerated(hw_output, hw_input)


@mux_types_differ.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hl.mux(hw_input[x, y] % 2, [hw_input[x, y], hl.u16(1)])
    return accelerated(hw_output, hw_input)


@case("algorithm", "A uint32 index into a Func", (
    '{at}: Implicit cast from uint32 to int in argument 1 in call to "hw_input" is not allowed. Use '
    "an explicit cast (hl.i32(...)) of uint32(x). Inside an accelerator, where addresses must be "
    "affine, compute the index in Int(32) instead (no uint32 on the way)."), func="hw_input")
def uint32_index():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[hl.u32(x), y]  # <-
    return accelerated(hw_output, hw_input)


@uint32_index.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x, y]
    return accelerated(hw_output, hw_input)


@case("algorithm", "An integer constant beyond 32 bits", (
    "{at}: Integer constant 4294967295 does not fit in 32 bits. Halide would make it an Int(64) "
    "expression, and mainspring has no 64-bit types (UInt(1|8|16|32), Int(8|16|32) only); use a "
    "smaller constant or build it from smaller pieces with explicit casts (e.g. hl.cast(hl.UInt(32), "
    "...))."))
def constant_beyond_32_bits():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(32))
    hw_output[x, y] = hw_input[x, y] ^ 4294967295  # <-
    return accelerated(hw_output, hw_input)


@constant_beyond_32_bits.fix
def _():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(32))
    hw_output[x, y] = hw_input[x, y] ^ ((hl.cast(hl.UInt(32), 65535) << 16) | 65535)
    return accelerated(hw_output, hw_input)


@case("algorithm", "Python's `and` on Exprs", (
    "{at}: The halide.Expr ((hw_input(x, y) > (uint16)3)) cannot be converted to a bool. If this "
    "error occurs using the 'and'/'or' keywords, consider using the '&'/'|' operators instead."), error=hl.HalideError)
def python_and_on_exprs():
    x, y, input_, hw_input, hw_output = _io()
    inside = (hw_input[x, y] > 3) and (hw_input[x, y] < 9)  # <-
    hw_output[x, y] = hl.select(inside, hw_input[x, y], hl.u16(0))
    return accelerated(hw_output, hw_input)


@python_and_on_exprs.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    inside = (hw_input[x, y] > 3) & (hw_input[x, y] < 9)
    hw_output[x, y] = hl.select(inside, hw_input[x, y], hl.u16(0))
    return accelerated(hw_output, hw_input)


@case("algorithm", "A Float type of an unsupported width",
      "{at}: Float(16) is not supported; use Float(32) or Float(64)")
def float16_type():
    x, y, input_, hw_input, hw_output = _io()
    gain = hl.Func("gain")
    gain[x] = hl.cast(hl.Float(16), x) * 0.5  # <-
    hw_output[x, y] = hw_input[x, y] * hl.u16(gain[2])
    return accelerated(hw_output, hw_input)


@float16_type.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    gain = hl.Func("gain")
    gain[x] = hl.cast(hl.Float(32), x) * 0.5
    hw_output[x, y] = hw_input[x, y] * hl.u16(gain[2])
    return accelerated(hw_output, hw_input)


@case("algorithm", "An ImageParam read with the wrong number of coordinates",
      "{at}: ImageParam input has 2 dimensions but is accessed with 1 arguments")
def image_param_wrong_arity():
    x, y, input_, hw_input, hw_output = _io()
    hw_input2 = hl.Func("hw_input2")
    hw_input2[x, y] = input_[x]  # <-
    hw_output[x, y] = hw_input2[x, y]
    return accelerated(hw_output, hw_input2)


@image_param_wrong_arity.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_input2 = hl.Func("hw_input2")
    hw_input2[x, y] = input_[x, y]
    hw_output[x, y] = hw_input2[x, y]
    return accelerated(hw_output, hw_input2)


@case("algorithm", "A Param set to a value its type cannot hold",
      "{at}: Param gain.set(300): The value 300 cannot be losslessly converted to type uint8")
def param_value_out_of_range():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    gain = hl.Param(hl.UInt(8), "gain")
    gain.set(300)  # <-
    hw_output[x, y] = hw_input[x, y] * gain
    return accelerated(hw_output, hw_input)


@param_value_out_of_range.fix
def _():
    x, y, input_, hw_input, hw_output = _io(hl.UInt(8))
    gain = hl.Param(hl.UInt(16), "gain")
    gain.set(300)
    hw_output[x, y] = hl.u16(hw_input[x, y]) * gain
    return accelerated(hw_output, hw_input)


@case("algorithm", "A Buffer of a dtype mainspring has no type for", (
    "{at}: arrays of dtype float16 are not supported; convert the array (e.g. arr.astype(np.uint16)) "
    "to uint8/16/32, int8/16/32, float32/64 or bool"))
def buffer_of_float16():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x, y]
    input_.set(hl.Buffer(image(8, 8).astype(np.float16)))  # <-
    return hw_output.realize([8, 8])


@buffer_of_float16.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x, y]
    input_.set(hl.Buffer(image(8, 8).astype(np.uint16)))
    return hw_output.realize([8, 8])


@case("algorithm", "An ImageParam bound to a Buffer of another type", (
    "{at}: Can't bind ImageParam input of type uint16 to Buffer b0 of type uint8; convert the array "
    "(e.g. arr.astype(np.uint16))"))
def image_param_set_to_another_type():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x, y]
    input_.set(hl.Buffer(image(8, 8, np.uint8)))  # <-
    return hw_output.realize([8, 8])


@image_param_set_to_another_type.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    hw_output[x, y] = hw_input[x, y]
    input_.set(hl.Buffer(image(8, 8, np.uint8).astype(np.uint16)))
    return hw_output.realize([8, 8])


@case("algorithm", "A boundary condition on a Func without bounds", (
    "{at}: repeat_edge(hw_input) needs explicit bounds for a Func, e.g. repeat_edge(hw_input, [(0, "
    "64), (0, 64)])"), func="hw_input")
def boundary_condition_without_bounds():
    x, y, input_, hw_input, hw_output = _io()
    clamped = hl.BoundaryConditions.repeat_edge(hw_input)  # <-
    hw_output[x, y] = clamped[x - 1, y] + clamped[x + 1, y]
    return accelerated(hw_output, hw_input)


@boundary_condition_without_bounds.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    clamped = hl.BoundaryConditions.repeat_edge(hw_input, [(0, 8), (0, 8)])
    hw_output[x, y] = clamped[x - 1, y] + clamped[x + 1, y]
    return accelerated(hw_output, clamped)  # the clamped copy is computed on the host and streamed


@case("algorithm", "The output is realized over a region it does not have", (
    "{at}: Func output is defined with 2 dimensions, but realize() is requesting a realization with "
    "1 dimensions: realize([8]); give one size per dimension (x, y)"), func="output")
def realize_with_wrong_dimensions():
    p = scheduled()
    p.input.set(hl.Buffer(image(9, 9)))
    return p.output.realize([8])  # <-


@realize_with_wrong_dimensions.fix
def _():
    p = scheduled()
    p.input.set(hl.Buffer(image(9, 9)))
    return p.output.realize([8, 8])


@case("algorithm", "An Expr used as a Python int", (
    "{at}: the Expr ((width / 4)) cannot be used as a Python index or size: its value is known only "
    "when the pipeline runs; use a Python number here (e.g. a constant)"))
def expr_as_python_size():
    x, y, input_, hw_input, hw_output = _io()
    width = hl.Param(hl.Int(32), "width", 8)
    taps = [hw_input[x + i, y] for i in range(width / 4)]  # <-
    hw_output[x, y] = taps[0] + taps[1]
    return accelerated(hw_output, hw_input)


@expr_as_python_size.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    width = 8
    taps = [hw_input[x + i, y] for i in range(width // 4)]
    hw_output[x, y] = taps[0] + taps[1]
    return accelerated(hw_output, hw_input)


@case("algorithm", "in_() of a Func before its definition", (
    "{at}: blur.in_(): 'blur' has no definition yet; define it first (blur[x, y] = ...), then call "
    "in_()"), func="blur")
def wrapper_before_the_definition():
    x, y, input_, hw_input, hw_output = _io()
    blur = hl.Func("blur")
    copy = blur.in_()  # <-
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = copy[x, y] * 2
    return accelerated(hw_output, hw_input, [blur, copy])


@wrapper_before_the_definition.fix
def _():
    x, y, input_, hw_input, hw_output = _io()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    copy = blur.in_()
    hw_output[x, y] = copy[x, y] * 2
    return accelerated(hw_output, hw_input, [blur, copy])
