"""More of Halide-to-Hardware's unit-test generators (apps/hardware_benchmarks/tests: casts, boolean_ops,
conv_2x, cpu_accel_partition, bc_mirror), written from their C++ with the Clockwork branch's schedule at smaller
sizes, bit for bit on both simulators and near the ideal."""

import pytest
from porting import params, rand_image, run

import mainspring as hl

u8, u16, i16 = hl.UInt(8), hl.UInt(16), hl.Int(16)
# kernel(x, y) as the generators write it, (x, y): value
KERNEL = {(0, 0): 17, (1, 0): 4, (2, 0): 6, (0, 1): 7, (1, 1): 19, (2, 1): 4, (0, 2): 5, (1, 2): 21, (2, 2): 15}


def _vars(*names):
    return [hl.Var(n) for n in names]


def _kernel(x, y, entries=KERNEL):
    kernel = hl.Func("kernel")
    kernel[x, y] = 0
    for (i, j), v in entries.items():
        kernel[i, j] = v
    return kernel


def _accelerate(hw_output, x, y, size):
    xo, yo, xi, yi = _vars("xo", "yo", "xi", "yi")
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, size, size).hw_accelerate(xi, xo)
    return xo


def casts(size=14):
    """Casts between every width and signedness, a 32-bit unrolled 3x3 convolution first; cast_i32 is scheduled
    but no one reads it (Halide ignores its schedule)."""
    x, y = _vars("x", "y")
    input = hl.ImageParam(u8, 2, "input")
    kernel = _kernel(x, y)
    names = ("cast_u8", "cast_i8", "cast_u16", "cast_i16", "cast_u32", "cast_i32")
    cast_u8, cast_i8, cast_u16, cast_i16, cast_u32, cast_i32 = (hl.Func(n) for n in names)
    r = hl.RDom([(0, 3), (0, 3)])
    cast_u32[x, y] = hl.cast(hl.UInt(32), 0)
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.cast(i16, input[x, y])
    cast_u32[x, y] += hl.cast(hl.UInt(32), kernel[r.x, r.y]) * hl.cast(hl.UInt(32), hw_input[x + r.x, y + r.y])
    cast_i16[x, y] = hl.cast(i16, cast_u32[x, y]) * hl.cast(i16, hw_input[x, y])
    cast_u16[x, y] = hl.cast(u16, cast_i16[x, y]) + hl.cast(u16, 100)
    cast_i8[x, y] = hl.cast(hl.Int(8), cast_u16[x, y]) + hl.cast(hl.Int(8), cast_u16[x, y])
    cast_i32[x, y] = hl.cast(hl.Int(32), cast_i8[x, y]) * hl.cast(hl.Int(32), 333) * hl.cast(hl.Int(32), cast_u32[x, y])
    cast_u8[x, y] = hl.cast(u8, cast_u16[x, y]) - hl.cast(u8, cast_i16[x, y])
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = hl.cast(i16, cast_u8[x, y])
    output[x, y] = hl.cast(u8, hw_output[x, y])
    output.bound(x, 0, size).bound(y, 0, size)
    xo = _accelerate(hw_output, x, y, size)
    for f in (cast_u8, cast_i8, cast_u16, cast_i16, cast_u32, cast_i32, kernel):
        f.compute_at(hw_output, xo)
    cast_u32.update().unroll(r.x, 3).unroll(r.y, 3)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(size + 2, size + 2, seed=11)}


def boolean_ops(size=16):
    """Comparisons, &&, ||, ! and ^ of booleans, inlined, and a select on the result."""
    x, y = _vars("x", "y")
    input = hl.ImageParam(u8, 2, "input")
    hw_input, lt1, lt2 = hl.Func("hw_input"), hl.Func("lt1"), hl.Func("lt2")
    hw_input[x, y] = hl.u16(input[x, y])
    lt1[x, y] = hw_input[x, y] < 128
    lt2[x, y] = hw_input[x, y] < 64
    bool_and, bool_or, bool_not, bool_xor = (hl.Func(n) for n in ("bool_and", "bool_or", "bool_not", "bool_xor"))
    bool_and[x, y] = lt1[x, y] & lt2[x, y]
    bool_not[x, y] = ~lt1[x, y]
    bool_or[x, y] = bool_and[x, y] | bool_not[x, y]
    bool_xor[x, y] = bool_or[x, y] ^ bool_not[x, y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = hl.u8(hl.select(bool_xor[x, y], 200, 0))
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, size).bound(y, 0, size)
    _accelerate(hw_output, x, y, size)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(size, size, seed=12)}


def _conv_2x_kernel():
    # conv_2x writes its kernel transposed: kernel(0, 1) = 4, kernel(1, 0) = 7, ...
    return {(j, i): v for (i, j), v in KERNEL.items()}


def conv_2x(size=14):
    """An unrolled 3x3 convolution whose update is also unrolled by 2 along x; conv itself is not scheduled (a Func
    with an update: Halide computes it at hw_output's innermost loop)."""
    x, y = _vars("x", "y")
    input = hl.ImageParam(u8, 2, "input")
    kernel, conv = _kernel(x, y, _conv_2x_kernel()), hl.Func("conv")
    r = hl.RDom([(0, 3), (0, 3)])
    conv[x, y] = hl.u16(0)
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input[x, y])
    conv[x, y] += hl.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = hl.u8(conv[x, y])
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, size).bound(y, 0, size)
    _accelerate(hw_output, x, y, size)
    conv.update().unroll(x, 2).unroll(r.x, 3).unroll(r.y, 3)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(size + 2, size + 2, seed=13)}


def cpu_accel_partition(size=14):
    """Two stages on the host before the accelerator's input; the kernel computed at the x loop of conv, which
    has an update and no schedule (Halide computes it at hw_output's innermost loop, with loops of its own)."""
    x, y = _vars("x", "y")
    input = hl.ImageParam(u8, 2, "input")
    cpu_stage0, cpu_stage1 = hl.Func("cpu_stage0"), hl.Func("cpu_stage1")
    cpu_stage0[x, y] = input[x, y] + 1
    cpu_stage1[x, y] = cpu_stage0[x, y] - 1
    hw_input, hw_input_copy, conv = hl.Func("hw_input"), hl.Func("hw_input_copy"), hl.Func("conv")
    hw_input[x, y] = hl.cast(u16, cpu_stage1[x, y])
    kernel = _kernel(x, y)
    r = hl.RDom([(0, 3), (0, 3)])
    hw_input_copy[x, y] = hw_input[x, y]
    conv[x, y] += hl.cast(u16, kernel[r.x, r.y]) * hw_input_copy[x + r.x, y + r.y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = hl.cast(u8, conv[x, y])
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, size).bound(y, 0, size)
    xo = _accelerate(hw_output, x, y, size)
    kernel.compute_at(conv, x)
    conv.update().unroll(r.x, 3).unroll(r.y, 3)
    cpu_stage0.compute_root()
    cpu_stage1.compute_root()
    hw_input_copy.compute_at(hw_output, xo)
    hw_input.compute_root()
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(size + 2, size + 2, seed=14)}


def bc_mirror(size=16):
    """Two mirror_image boundary conditions of a Func with explicit bounds, summed over a centred 3x3 window, in
    8-bit signed values; the output is the input's size."""
    x, y = _vars("x", "y")
    input = hl.ImageParam(hl.Int(8), 2, "input")
    hw_input, conv = hl.Func("hw_input"), hl.Func("conv")
    hw_input[x, y] = hl.i16(input[x, y])
    r = hl.RDom([(-1, 3), (-1, 3)])
    mirror_img = hl.BoundaryConditions.mirror_image(hw_input, [(0, size), (0, size)])
    mirror_int = hl.BoundaryConditions.mirror_image(hw_input, [(0, size), (0, size)])
    conv[x, y] += mirror_img[x + r.x, y + r.y] + mirror_int[x + r.x, y + r.y]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = conv[x, y]
    output[x, y] = hl.i8(hw_output[x, y])
    output.bound(x, 0, size).bound(y, 0, size)
    xo = _accelerate(hw_output, x, y, size)
    conv.compute_at(hw_output, xo)
    conv.update().unroll(r.x).unroll(r.y)
    mirror_img.compute_at(hw_output, xo)
    mirror_int.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    return output, {"input": rand_image(size, size, seed=15).astype("int8")}


CASES = {f.__name__: f for f in (casts, boolean_ops, conv_2x, cpu_accel_partition, bc_mirror)}
# Cycles over the ideal (the busiest kernel's firings); bc_mirror's edges are computed inside (its streams a few
# cycles longer than the frame).
RATIO = {"casts": 1.1, "boolean_ops": 1.05, "conv_2x": 1.05, "cpu_accel_partition": 1.05, "bc_mirror": 1.1}


@pytest.mark.parametrize("case,simulator", params(CASES), indirect=["simulator"])
def test_unit_generator(case, simulator):
    run(case, CASES[case], simulator, max_cycle_ratio=RATIO[case])
