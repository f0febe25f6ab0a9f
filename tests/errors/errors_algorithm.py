"""Catalogue cases: mistakes in the algorithm's definitions (Funcs, updates, RDoms), refused by frontend/ where
they are written. Expressions, types and inputs: errors_expressions.py."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerated, case, io_funcs

# A small accelerated program per case: hw_input streams the input in, hw_output leaves the accelerator
# (catalogue.accelerated adds the host's output and the schedule).


@case("algorithm", "A Func is called before it has a definition", (
    "{at}: Cannot use an unevaluated reference to 'blur' to define an update at a different "
    "location. 'blur' has no definition yet: define it first."), func="blur")
def call_undefined_func():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    hw_output[x, y] = blur[x, y] * 2  # <-
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    return accelerated(hw_output, hw_input, [blur])


@call_undefined_func.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x, y] * 2
    return accelerated(hw_output, hw_input, [blur])


@case("algorithm", "An update of a Func that has no pure definition", (
    "{at}: Cannot use an unevaluated reference to 'acc' to define an update at a different location. "
    "'acc' has no definition yet: define it first."), func="acc")
def update_before_pure_definition():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc = hl.Func("acc")
    hw_output[x, y] = acc[x, y] + hw_input[x, y]  # <-
    return accelerated(hw_output, hw_input, [acc])


@update_before_pure_definition.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    hw_output[x, y] = acc[x, y] + hw_input[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "A pure definition repeats a Var on its left side", (
    '{at}: In pure definition of Func "hw_output":\n'
    'In left-hand-side of definition, arguments 1 and 0 both have the name "x"; use a different Var '
    "for each dimension"), func="hw_output")
def pure_definition_repeats_a_var():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, x] = hw_input[x, x]  # <-
    return accelerated(hw_output, hw_input)


@pure_definition_repeats_a_var.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x, y]
    return accelerated(hw_output, hw_input)


@case("algorithm", "A pure definition at a computed location", (
    '{at}: Argument 1 in initial definition of "hw_output" is not a Var: (x + 1). The left-hand side '
    "of a pure definition must be distinct Vars: give 'hw_output' a pure definition over Vars first "
    "(e.g. hw_output[x] = 0), then update it at computed locations."), func="hw_output")
def pure_definition_at_an_expression():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x + 1, y] = hw_input[x, y]  # <-
    return accelerated(hw_output, hw_input)


@pure_definition_at_an_expression.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x - 1, y]
    return accelerated(hw_output, hw_input, size=(7, 8))


@case("algorithm", "The right side uses a Var the left side does not have", (
    '{at}: Undefined variable "c" in definition of Func "hw_output": it is used on the right side '
    "but is not one of the left side's Vars (x, y); add it to the left side or replace it"), func="hw_output")
def right_side_var_not_on_left():
    x, y, input_, hw_input, hw_output = io_funcs()
    c = hl.Var("c")
    hw_output[x, y] = hw_input[x, y] + hl.u16(c)  # <-
    return accelerated(hw_output, hw_input)


@right_side_var_not_on_left.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x, y] + hl.u16(x)
    return accelerated(hw_output, hw_input)


@case("algorithm", "A pure definition uses an RDom", (
    '{at}: In pure definition of Func "hw_output":\n'
    "Reduction domain referenced in pure function definition (the reduction variable r.x); "
    "reductions belong in an update (e.g. hw_output[x, y] = 0, then hw_output[x, y] += ...) or in "
    "hl.sum(...)"), func="hw_output")
def rdom_in_pure_definition():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3)], "r")
    hw_output[x, y] = hw_input[x + r.x, y]  # <-
    return accelerated(hw_output, hw_input)


@rdom_in_pure_definition.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
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
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    blur, r = hl.Func("blur"), hl.RDom([hl.Range(0, 3)], "r")
    blur[x, y] = hl.u8(0)
    blur[x, y] += hl.u16(hw_input[x + r.x, y])  # <-
    hw_output[x, y] = blur[x, y]
    return accelerated(hw_output, hw_input, [blur])


@update_changes_the_type.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
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
    x, y, input_, hw_input, hw_output = io_funcs()
    kernel = hl.Func("kernel")
    kernel[x, y] = hl.u16(0)
    kernel[1, 1] = 4  # <-
    hw_output[x, y] = hw_input[x, y] * kernel[1, 1]
    return accelerated(hw_output, hw_input)


@update_with_an_int_literal.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    kernel = hl.Func("kernel")
    kernel[x, y] = hl.u16(0)
    kernel[1, 1] = hl.cast(hl.UInt(16), 4)
    hw_output[x, y] = hw_input[x, y] * kernel[1, 1]
    return accelerated(hw_output, hw_input)


@case("algorithm", "An update writes at a Var that is not pure", (
    '{at}: Undefined variable "x" in definition of Func "acc": a Var in an update definition must '
    "appear by itself as an argument on the left side; use an RDom to range over other locations"), func="acc")
def update_at_a_shifted_var():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc = hl.Func("acc")
    acc[x, y] = hw_input[x, y]
    acc[x + 1, y] = acc[x, y] + 1  # <-
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@update_at_a_shifted_var.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(1, 7)], "r")
    acc[x, y] = hw_input[x, y]
    acc[r.x, y] = acc[r.x - 1, y] + 1
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "A Func is called with the wrong number of arguments",
      '{at}: Func "blur" was called with 1 arguments, but was defined with 2 (x, y)', func="blur")
def call_with_wrong_arity():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x]  # <-
    return accelerated(hw_output, hw_input, [blur])


@call_with_wrong_arity.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
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
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 2)], "r")
    acc[x, y] = hw_input[x, y]
    acc[x, y] = acc[x + 1, y] + hl.u16(r.x)  # <-
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@update_reads_itself_elsewhere.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
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
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, rx, ry = hl.Func("acc"), hl.RDom([hl.Range(0, 2)], "rx"), hl.RDom([hl.Range(0, 2)], "ry")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + rx.x, y + ry.x]  # <-
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@update_over_two_rdoms.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
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
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, x + 1)], "r")  # <-
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[r.x, y]
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@rdom_bound_uses_a_var.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hl.select(r.x <= x, hw_input[r.x, y], hl.u16(0))
    acc.update().unroll(r.x)
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "A predicate added to an RDom after an update uses it (RDom.where)", (
    "{at}: RDom r cannot be given a new predicate, because it has already been used in the update definition of "
    "Func \"acc\"; call r.where(...) before the definitions that use it"), func="acc")
def rdom_where_after_use():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    r.where(r.x != 1)  # <-
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@rdom_where_after_use.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    r.where(r.x != 1)
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    acc.update().unroll(r.x)
    hw_output[x, y] = acc[x, y]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "An inline reduction (hl.sum) without an RDom", (
    "{at}: Expression passed to sum must reference a reduction domain (an RDom); got (hw_input(x, y) "
    "+ hw_input((x + 1), y))"))
def inline_sum_without_rdom():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.sum(hw_input[x, y] + hw_input[x + 1, y])  # <-
    return accelerated(hw_output, hw_input)


@inline_sum_without_rdom.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 2)], "r")
    hw_output[x, y] = hl.sum(hw_input[x + r.x, y])
    return accelerated(hw_output, hw_input)
