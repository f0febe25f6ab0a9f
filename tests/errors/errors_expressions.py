"""Catalogue cases: mistakes in the algorithm's expressions, types and inputs (operators, casts, constants, Params,
Buffers), refused by frontend/ where they are written."""

from __future__ import annotations

import numpy as np

import mainspring as hl

from catalogue import accelerated, case, image, io_funcs, scheduled


@case("algorithm", "A constant changes its value when coerced to the Func's type", (
    "{at}: Integer constant 300 will be implicitly coerced to type uint8, which changes its value to "
    "(uint8)44. Use an explicit cast (e.g. hl.cast(hl.UInt(8), ...)) on the other operand of + if "
    "you meant a wider type."))
def constant_does_not_fit_the_type():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hw_input[x, y] + 300  # <-
    return accelerated(hw_output, hw_input)


@constant_does_not_fit_the_type.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hl.u16(hw_input[x, y]) + 300
    return accelerated(hw_output, hw_input)


@case("algorithm", "A constant shift by the value's width or more", (
    "{at}: Func 'hw_output': the shift << of the 8-bit value hw_input(x, y) by the constant 8: a constant shift by "
    "the value's width or more is undefined, and Halide refuses it when the pipeline compiles. Shift by less than 8, "
    "or widen the value first: hl.cast(hl.UInt(16), ...) << 8"), func="hw_output", simulate=True,
    note="Halide's words are about constant folding and name no Func (tests/flow/test_flow_wide_shifts.py)")
def shift_by_the_width():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hw_input[x, y] << 8  # <-
    return accelerated(hw_output, hw_input)


@shift_by_the_width.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hl.cast(hl.UInt(16), hw_input[x, y]) << 8
    return accelerated(hw_output, hw_input)


@case("algorithm", "A bitwise operation between signed and unsigned values", (
    "{at}: Arguments to bitwise and must be both be signed or both be unsigned.\n"
    "LHS type: uint8 RHS type: int8\n"
    "LHS value: hw_input(x, y) RHS value: int8(hw_input((x + 1), y))\n"
    "Cast one side (e.g. hl.cast(hl.UInt(8), ...)) so both have the same signedness."))
def bitwise_mixed_signedness():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hw_input[x, y] & hl.i8(hw_input[x + 1, y])  # <-
    return accelerated(hw_output, hw_input)


@bitwise_mixed_signedness.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hw_input[x, y] & hl.cast(hl.UInt(8), hl.i8(hw_input[x + 1, y]))
    return accelerated(hw_output, hw_input)


@case("algorithm", "select with a condition that is not a boolean", (
    "{at}: The first argument to a select must be a boolean:\n"
    "  hw_input(x, y) has type uint16\n"
    "Compare it (e.g. x != 0) to make a condition."))
def select_condition_not_bool():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.select(hw_input[x, y], hw_input[x, y], hl.u16(0))  # <-
    return accelerated(hw_output, hw_input)


@select_condition_not_bool.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.select(hw_input[x, y] != 0, hw_input[x, y], hl.u16(0))
    return accelerated(hw_output, hw_input)


@case("algorithm", "select between values of two types", (
    "{at}: The second and third arguments to a select do not have a matching type:\n"
    "  hw_input(x, y) has type uint16\n"
    "  (uint8)9 has type uint8\n"
    "Cast one of them (e.g. hl.cast(...)) so both have the same type."))
def select_types_differ():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.select(hw_input[x, y] > 9, hw_input[x, y], hl.u8(9))  # <-
    return accelerated(hw_output, hw_input)


@select_types_differ.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.select(hw_input[x, y] > 9, hw_input[x, y], hl.u16(9))
    return accelerated(hw_output, hw_input)


@case("algorithm", "clamp with a bound the value's type cannot hold", (
    "{at}: Type mismatch in call to clamp. First argument (hw_input(x, y)) has type uint8, but third "
    "argument (300) has type int32. Use an explicit cast."))
def clamp_bound_of_another_type():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hl.clamp(hw_input[x, y], 10, 300)  # <-
    return accelerated(hw_output, hw_input)


@clamp_bound_of_another_type.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    hw_output[x, y] = hl.clamp(hw_input[x, y], 10, 250)
    return accelerated(hw_output, hw_input)


@case("algorithm", "mux over values of different types", (
    "{at}: mux() requires all the values to have the same type. Got uint16, uint8; cast them to one "
    "type."))
def mux_types_differ():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.mux(hw_input[x, y] % 2, [hw_input[x, y], hl.u8(1)])  # <-
    return accelerated(hw_output, hw_input)


@mux_types_differ.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.mux(hw_input[x, y] % 2, [hw_input[x, y], hl.u16(1)])
    return accelerated(hw_output, hw_input)


@case("algorithm", "A uint32 index into a Func", (
    '{at}: Implicit cast from uint32 to int in argument 1 in call to "hw_input" is not allowed. Use '
    "an explicit cast (hl.i32(...)) of uint32(x). Inside an accelerator, where addresses must be "
    "affine, compute the index in Int(32) instead (no uint32 on the way)."), func="hw_input")
def uint32_index():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[hl.u32(x), y]  # <-
    return accelerated(hw_output, hw_input)


@uint32_index.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x, y]
    return accelerated(hw_output, hw_input)


@case("algorithm", "A float as an index", (
    '{at}: Implicit cast from float32 to int in argument 1 in call to "hw_input" is not allowed. Use '
    "an explicit cast (hl.i32(...)) of (float32(x) / 2.000000f). Inside an accelerator, where addresses must be "
    "affine, compute the index in Int(32) instead (no float32 on the way)."), func="hw_input", simulate=True)
def float_index():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[hl.f32(x) / 2, y]  # <-
    return accelerated(hw_output, hw_input)


@float_index.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x / 2, y]
    return accelerated(hw_output, hw_input)


@case("algorithm", "An integer constant beyond 32 bits", (
    "{at}: Integer constant 4294967295 does not fit in 32 bits. Halide would make it an Int(64) "
    "expression, and mainspring has no 64-bit types (UInt(1|8|16|32), Int(8|16|32) only); use a "
    "smaller constant or build it from smaller pieces with explicit casts (e.g. hl.cast(hl.UInt(32), "
    "...))."))
def constant_beyond_32_bits():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(32))
    hw_output[x, y] = hw_input[x, y] ^ 4294967295  # <-
    return accelerated(hw_output, hw_input)


@constant_beyond_32_bits.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(32))
    hw_output[x, y] = hw_input[x, y] ^ ((hl.cast(hl.UInt(32), 65535) << 16) | 65535)
    return accelerated(hw_output, hw_input)


@case("algorithm", "Python's `and` on Exprs", (
    "{at}: The halide.Expr ((hw_input(x, y) > (uint16)3)) cannot be converted to a bool. If this "
    "error occurs using the 'and'/'or' keywords, consider using the '&'/'|' operators instead."), error=hl.HalideError)
def python_and_on_exprs():
    x, y, input_, hw_input, hw_output = io_funcs()
    inside = (hw_input[x, y] > 3) and (hw_input[x, y] < 9)  # <-
    hw_output[x, y] = hl.select(inside, hw_input[x, y], hl.u16(0))
    return accelerated(hw_output, hw_input)


@python_and_on_exprs.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    inside = (hw_input[x, y] > 3) & (hw_input[x, y] < 9)
    hw_output[x, y] = hl.select(inside, hw_input[x, y], hl.u16(0))
    return accelerated(hw_output, hw_input)


@case("algorithm", "A Float type of an unsupported width",
      "{at}: Float(16) is not supported; use Float(32) or Float(64)")
def float16_type():
    x, y, input_, hw_input, hw_output = io_funcs()
    gain = hl.Func("gain")
    gain[x] = hl.cast(hl.Float(16), x) * 0.5  # <-
    hw_output[x, y] = hw_input[x, y] * hl.u16(gain[2])
    return accelerated(hw_output, hw_input)


@float16_type.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    gain = hl.Func("gain")
    gain[x] = hl.cast(hl.Float(32), x) * 0.5
    hw_output[x, y] = hw_input[x, y] * hl.u16(gain[2])
    return accelerated(hw_output, hw_input)


@case("algorithm", "erf of a value that is not Float(32)",
      "{at}: hl.erf takes Float(32) only, as Halide's erf, not float64; cast the argument, e.g. "
      "hl.erf(hl.f32(x))")
def erf_of_float64():
    x, y, input_, hw_input, hw_output = io_funcs()
    curve = hl.Func("curve")
    curve[x] = hl.u16(hl.erf(hl.f64(x) / 8.0) * 100.0)  # <-
    hw_output[x, y] = hw_input[x, y] + curve[3]
    return accelerated(hw_output, hw_input)


@erf_of_float64.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    curve = hl.Func("curve")
    curve[x] = hl.u16(hl.erf(hl.f32(x) / 8.0) * 100.0)
    hw_output[x, y] = hw_input[x, y] + curve[3]
    return accelerated(hw_output, hw_input)


@case("algorithm", "is_nan of an integer value",
      "{at}: hl.is_nan takes a float argument, as Halide's is_nan, not int32; cast it, e.g. "
      "hl.is_nan(hl.f32(x))")
def is_nan_of_an_integer():
    x, y, input_, hw_input, hw_output = io_funcs()
    curve = hl.Func("curve")
    curve[x] = hl.select(hl.is_nan(x - 3), hl.u16(0), hl.u16(1))  # <-
    hw_output[x, y] = hw_input[x, y] + curve[3]
    return accelerated(hw_output, hw_input)


@is_nan_of_an_integer.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    curve = hl.Func("curve")
    curve[x] = hl.select(hl.is_nan(hl.sqrt(hl.f32(x - 3))), hl.u16(0), hl.u16(1))
    hw_output[x, y] = hw_input[x, y] + curve[3]
    return accelerated(hw_output, hw_input)


@case("algorithm", "fast_inverse, an approximate instruction whose bits differ between processors", (
    "{at}: hl.fast_inverse is the CPU's approximate rcpps instruction in Halide, whose bits differ between processor "
    "vendors, so a bit-exact reference cannot reproduce it; write the exact value instead, e.g. 1.0 / x"))
def fast_inverse_of_a_table():
    x, y, input_, hw_input, hw_output = io_funcs()
    gain = hl.Func("gain")
    gain[x] = hl.u16(hl.fast_inverse(hl.f32(x + 1)) * 256.0)  # <-
    hw_output[x, y] = hw_input[x, y] * gain[3]
    return accelerated(hw_output, hw_input)


@fast_inverse_of_a_table.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    gain = hl.Func("gain")
    gain[x] = hl.u16(1.0 / hl.f32(x + 1) * 256.0)
    hw_output[x, y] = hw_input[x, y] * gain[3]
    return accelerated(hw_output, hw_input)


@case("algorithm", "fast_exp of a value that is not Float(32)",
      "{at}: hl.fast_exp takes Float(32) only, as Halide's fast_exp, not float64; cast the argument, e.g. "
      "hl.fast_exp(hl.f32(x))")
def fast_exp_of_float64():
    x, y, input_, hw_input, hw_output = io_funcs()
    weight = hl.Func("weight")
    weight[x] = hl.u16(hl.fast_exp(-hl.f64(x * x) / 8.0) * 64.0)  # <-
    hw_output[x, y] = hw_input[x, y] * weight[1]
    return accelerated(hw_output, hw_input)


@fast_exp_of_float64.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    weight = hl.Func("weight")
    weight[x] = hl.u16(hl.fast_exp(-hl.f32(x * x) / 8.0) * 64.0)
    hw_output[x, y] = hw_input[x, y] * weight[1]
    return accelerated(hw_output, hw_input)


@case("algorithm", "An ImageParam read with the wrong number of coordinates",
      "{at}: ImageParam input has 2 dimensions but is accessed with 1 arguments")
def image_param_wrong_arity():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_input2 = hl.Func("hw_input2")
    hw_input2[x, y] = input_[x]  # <-
    hw_output[x, y] = hw_input2[x, y]
    return accelerated(hw_output, hw_input2)


@image_param_wrong_arity.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_input2 = hl.Func("hw_input2")
    hw_input2[x, y] = input_[x, y]
    hw_output[x, y] = hw_input2[x, y]
    return accelerated(hw_output, hw_input2)


@case("algorithm", "A Param set to a value its type cannot hold",
      "{at}: Param gain.set(300): The value 300 cannot be losslessly converted to type uint8; set a value in "
      '[0, 255], or declare it of a type that holds 300: gain = hl.Param(hl.UInt(16), "gain")')
def param_value_out_of_range():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    gain = hl.Param(hl.UInt(8), "gain")
    gain.set(300)  # <-
    hw_output[x, y] = hw_input[x, y] * gain
    return accelerated(hw_output, hw_input)


@param_value_out_of_range.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    gain = hl.Param(hl.UInt(16), "gain")
    gain.set(300)
    hw_output[x, y] = hl.u16(hw_input[x, y]) * gain
    return accelerated(hw_output, hw_input)


@case("algorithm", "A Buffer of a dtype mainspring has no type for", (
    "{at}: arrays of dtype float16 are not supported; convert the array (e.g. arr.astype(np.uint16)) "
    "to uint8/16/32, int8/16/32, float32/64 or bool"))
def buffer_of_float16():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x, y]
    input_.set(hl.Buffer(image(8, 8).astype(np.float16)))  # <-
    return hw_output.realize([8, 8])


@buffer_of_float16.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x, y]
    input_.set(hl.Buffer(image(8, 8).astype(np.uint16)))
    return hw_output.realize([8, 8])


@case("algorithm", "An ImageParam bound to a Buffer of another type", (
    "{at}: Can't bind ImageParam input of type uint16 to Buffer pixels of type uint8; convert the array "
    "(e.g. arr.astype(np.uint16))"))
def image_param_set_to_another_type():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x, y]
    # (a named Buffer: anonymous ones are numbered b0, b1, ... per process)
    input_.set(hl.Buffer(image(8, 8, np.uint8), name="pixels"))  # <-
    return hw_output.realize([8, 8])


@image_param_set_to_another_type.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hw_input[x, y]
    input_.set(hl.Buffer(image(8, 8, np.uint8).astype(np.uint16)))
    return hw_output.realize([8, 8])


@case("algorithm", "A boundary condition on a Func without bounds", (
    "{at}: repeat_edge(hw_input) needs explicit bounds for a Func, e.g. repeat_edge(hw_input, [(0, "
    "64), (0, 64)])"), func="hw_input")
def boundary_condition_without_bounds():
    x, y, input_, hw_input, hw_output = io_funcs()
    clamped = hl.BoundaryConditions.repeat_edge(hw_input)  # <-
    hw_output[x, y] = clamped[x - 1, y] + clamped[x + 1, y]
    return accelerated(hw_output, hw_input)


@boundary_condition_without_bounds.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
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
    x, y, input_, hw_input, hw_output = io_funcs()
    width = hl.Param(hl.Int(32), "width", 8)
    taps = [hw_input[x + i, y] for i in range(width / 4)]  # <-
    hw_output[x, y] = taps[0] + taps[1]
    return accelerated(hw_output, hw_input)


@expr_as_python_size.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    width = 8
    taps = [hw_input[x + i, y] for i in range(width // 4)]
    hw_output[x, y] = taps[0] + taps[1]
    return accelerated(hw_output, hw_input)


@case("algorithm", "in_() of a Func before its definition", (
    "{at}: blur.in_(): 'blur' has no definition yet; define it first (blur[x, y] = ...), then call "
    "in_()"), func="blur")
def wrapper_before_the_definition():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    copy = blur.in_()  # <-
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = copy[x, y] * 2
    return accelerated(hw_output, hw_input, [blur, copy])


@wrapper_before_the_definition.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    copy = blur.in_()
    hw_output[x, y] = copy[x, y] * 2
    return accelerated(hw_output, hw_input, [blur, copy])


@case("algorithm", "An image's in_() given something else than a Func", (
    "{at}: input.in_('hw_output'): in_ takes the Func that should read the wrapper, a list of such Funcs, or "
    "nothing (every Func reads it)"), func=None)
def image_wrapper_of_a_name():
    x, y, input_, hw_input, hw_output = io_funcs()
    input_.in_("hw_output")  # <-
    hw_output[x, y] = hw_input[x, y] * 2
    return accelerated(hw_output, hw_input)


@image_wrapper_of_a_name.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    input_.in_(hw_input)
    hw_output[x, y] = hw_input[x, y] * 2
    return accelerated(hw_output, hw_input)


@case("schedule", "clone_in for a Func that does not call it", (
    "{at}: hw_input.clone_in(hw_output): 'hw_output' does not call 'hw_input', so there is nothing to clone for "
    "it; name a Func that reads 'hw_input'"), func="hw_input")
def clone_in_a_func_that_does_not_call_it():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x, y] * 2
    hw_input.clone_in(hw_output)  # <-
    return accelerated(hw_output, hw_input, [blur])


@clone_in_a_func_that_does_not_call_it.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x, y] * 2
    hw_input.compute_root().stream_to_accelerator()
    hw_input.clone_in(blur)  # the copy takes hw_input's schedule so far: a second stream of the image
    return accelerated(hw_output, hw_input, [blur])


@case("schedule", "in_ for consumers of which one already reads another wrapper", (
    "{at}: hw_input.in_([blur, hw_output]): blur already read(s) hw_input.in_(blur) ('hw_input_in_blur'), made "
    "by an earlier in_ or clone_in call; a consumer reads one wrapper of 'hw_input': name all the consumers that "
    "share it in that one call (hw_input.in_([blur, hw_output]))"), func="hw_input")
def wrapper_shared_with_another_call():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x, y] * 2 + hw_input[x, y]
    hw_input.in_(blur)
    copy = hw_input.in_([blur, hw_output])  # <-
    return accelerated(hw_output, hw_input, [blur, copy])


@wrapper_shared_with_another_call.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur[x, y] * 2 + hw_input[x, y]
    copy = hw_input.in_([blur, hw_output])
    return accelerated(hw_output, hw_input, [blur, copy])
