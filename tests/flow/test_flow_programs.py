"""Programs beyond the apps through the whole flow, on both simulators (passes: compile, simulate)."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import accelerate, random_image

from conftest import assert_lint_clean_and_latch_free

SIMULATORS = ("icarus", "verilator")


def _vars():
    return hl.Var("x"), hl.Var("y")


def sequential_reduction():
    """A reduction that is not unrolled: a sequential loop of four steps per pixel."""
    x, y = _vars()
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 4)], "r")
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = acc[x, y]
    accelerate(hw_output, hw_output, 8, 8, [acc], hw_input)
    return hw_output, {"input": random_image(11, 8)}


def signed_with_duplicate_names():
    """Two Funcs named 'f', signed types, Euclidean division by a constant, absd."""
    x, y = _vars()
    i = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = i[x, y]
    a = hl.Func("f")
    a[x, y] = hw_input[x, y] * 3
    b = hl.Func("f")
    b[x, y] = a[x, y] - a[x + 1, y + 1] // 5
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = hl.absd(b[x, y], a[x, y])
    accelerate(hw_output, hw_output, 8, 6, [a, b], hw_input)
    return hw_output, {"input": random_image(9, 7, dtype=np.int16)}


def inlined_selects():
    """Inlined Funcs with data-dependent selects and shifts."""
    x, y = _vars()
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = i[x, y]
    g = hl.Func("g")
    g[x, y] = hl.select(hw_input[x, y] > 100, hw_input[x, y + 1], hw_input[x + 1, y])
    h = hl.Func("h")
    h[x, y] = hl.max(g[x, y], g[x, y + 2]) >> 1
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = h[x, y]
    accelerate(hw_output, hw_output, 10, 10, [h], hw_input)
    return hw_output, {"input": random_image(11, 13)}


def wide_arithmetic():
    """32-bit values: a 32x32 multiply and a modulo by a constant."""
    x, y = _vars()
    i = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u32(i[x, y])
    f = hl.Func("f")
    f[x, y] = hw_input[x, y] * hw_input[x + 1, y] + hw_input[x, y + 1] % 7
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f[x, y]
    accelerate(hw_output, hw_output, 12, 5, [f], hw_input)
    return hw_output, {"input": random_image(13, 6, dtype=np.uint16)}


def downsample():
    """A 2x2 average at stride 2: the consumer runs at a quarter of the input rate."""
    x, y = _vars()
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    d = hl.Func("d")
    d[x, y] = (hw_input[2 * x, 2 * y] + hw_input[2 * x + 1, 2 * y] + hw_input[2 * x, 2 * y + 1]
               + hw_input[2 * x + 1, 2 * y + 1]) / 4
    accelerate(d, d, 8, 8, [], hw_input)
    return d, {"input": random_image(16, 16)}


def unsharp():
    """Separable blur and a sharpen that reads the input again at the blur's centre (two delays of one input)."""
    x, y = _vars()
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(i[x, y])
    bx = hl.Func("bx")
    bx[x, y] = (hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]) >> 2
    by = hl.Func("by")
    by[x, y] = (bx[x, y] + bx[x, y + 1] * 2 + bx[x, y + 2]) >> 2
    sharp = hl.Func("sharp")
    sharp[x, y] = hl.u8(hl.clamp(hw_input[x + 1, y + 1] * 2 - by[x, y], 0, 255))
    accelerate(sharp, sharp, 20, 12, [bx, by], hw_input)
    return sharp, {"input": random_image(22, 14)}


def three_channels():
    """A 3-D input (x, y, channel) reduced to gray."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    i = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y, c] = hl.u16(i[x, y, c])
    gray = hl.Func("gray")
    gray[x, y] = (hw_input[x, y, 0] * 77 + hw_input[x, y, 1] * 150 + hw_input[x, y, 2] * 29) >> 8
    gray.bound(x, 0, 10).bound(y, 0, 6)
    gray.compute_root().tile(x, y, xo, yo, xi, yi, 10, 6).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return gray, {"input": np.random.default_rng(1).integers(0, 256, (3, 6, 10), dtype=np.uint8)}


PROGRAMS = [sequential_reduction, signed_with_duplicate_names, inlined_selects, wide_arithmetic, downsample,
            unsharp, three_channels]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_program_bit_exact(program, simulator, compile_shared, build_dir):
    out, inputs = program()
    design = compile_shared(out, name=program.__name__)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.25, backpressure=0.25, seed=2)
    assert res.cycles > res.predicted_cycles  # the stalls cost cycles; check() compared every pixel


def tiled_blur():
    """A 50x30 output in 16x12 accelerator tiles: the host invokes the accelerator 12 times, the last tile of
    each row and column shifted inward (Halide's tail for a pure loop)."""
    x, y = _vars()
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    win = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "win")
    blur = hl.Func("blur")
    blur[x, y] = hl.u16(0)
    blur[x, y] += hw_input[x + win.x, y + win.y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = blur[x, y] / 9
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 50).bound(y, 0, 30)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 16, 12).hw_accelerate(xi, xo)
    blur.update().unroll(win.x).unroll(win.y)
    blur.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": random_image(52, 32, seed=5)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_host_tiling_bit_exact(simulator, compile_shared, build_dir, tmp_path):
    out, inputs = tiled_blur()
    design = compile_shared(out, name="tiled")
    rep = design.report
    assert rep["tiles"] == 12 and rep["predicted_cycles"] == 12 * rep["tile_cycles"]
    assert rep["ideal_cycles"] == 12 * 18 * 14  # every tile streams its input with its halo
    assert rep["halo_overhead"] == pytest.approx(12 * 18 * 14 / (52 * 32) - 1, abs=1e-6)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == rep["predicted_cycles"]
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=4)


def gaussian_variant(variant: str):
    """Seed 002's gaussian written as Halide users write it (implicit `+=` initialisation, a `kernel` Func),
    with schedule variants."""
    x, y = _vars()
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    kernel = hl.Func("kernel")
    kernel[x, y] = hl.u16(hl.select(y == 1, hl.select(x == 1, 37, 30), hl.select(x == 1, 30, 24)))
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(input_[x, y])
    win = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "win")
    bu = hl.Func("blur_unnormalized")
    bu[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
    blur = hl.Func("blur")
    blur[x, y] = bu[x, y] / 256
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = blur[x, y]
    output = hl.Func("output")
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 30).bound(y, 0, 20)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, 30, 20).hw_accelerate(xi, xo)
    bu.update().unroll(win.x).unroll(win.y)
    bu.compute_at(hw_output, xo)
    blur.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    if variant == "kernel_root":  # a constant table on the host, read at the unrolled (constant) taps
        kernel.compute_root()
    elif variant == "store_at":
        bu.store_at(hw_output, xo)
        blur.store_at(hw_output, xo)
    elif variant == "column_major":  # the output streams y fastest
        hw_output.reorder(yi, xi)
    elif variant == "accelerator_input":
        hw_input.accelerator_input()
    return output, {"input": random_image(32, 22, seed=8)}


@pytest.mark.parametrize("variant", ["kernel_root", "store_at", "column_major", "accelerator_input"])
def test_gaussian_schedule_variants_on_icarus(variant, build_dir):
    from mainspring.sim import require_simulator

    require_simulator("icarus")
    out, inputs = gaussian_variant(variant)
    design = hl.compile(out, name=f"gaussian_{variant}")
    design.check(inputs, simulator="icarus", build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=1)


@pytest.mark.parametrize("simulator", ["verilator"], indirect=True)
def test_column_major_output_on_verilator(simulator, compile_shared, build_dir):
    out, inputs = gaussian_variant("column_major")
    design = compile_shared(out, name="gaussian_column_major")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _table_program(kind: str):
    x, y = _vars()
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    table = hl.Func("table")
    table[x] = hl.u16(x * 3 % 7) if kind == "int" else hl.f32(x) * 0.5
    table.compute_root()
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    f = hl.Func("f")
    f[x, y] = hw_input[x, y] + (table[x] if kind == "int" else hl.u16(table[x]))
    accelerate(f, f, 8, 8, [], hw_input)
    return f


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_table_read_at_a_loop_coordinate_is_a_rom(simulator, compile_shared, build_dir, tmp_path):
    design = compile_shared(_table_program("int"), name="tbl")
    assert design.report["rom_words"] == 8 and design.report["mem_tiles"] == 1
    design.check({"input": random_image(8, 8)}, simulator=simulator, build_dir=build_dir)
    assert_lint_clean_and_latch_free(design, tmp_path)


def test_a_float_table_read_at_a_loop_coordinate_is_refused():
    with pytest.raises(hl.HalideError, match=r"Func 'f' reads 'table' \(a constant Func, known at compile time\) "
                                             r"at \(x\), which is not a fixed coordinate, and its table of 8 "
                                             r"float32 values cannot be a ROM \(at most 65536 integer words\); "):
        hl.compile(_table_program("float"), name="tbl_float")


def _disk_blur():
    """A disk-shaped window: RDom.where keeps the 13 points within distance 2 of the centre of a 5x5 square."""
    x, y = _vars()
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-2, 5)], "r")
    r.where(r.x * r.x + r.y * r.y <= 4)
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x + 2, y + r.y + 2]
    acc.update().unroll(r.x).unroll(r.y)
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = acc[x, y]
    accelerate(hw_output, hw_output, 8, 6, [acc], hw_input)
    return hw_output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_predicated_window_unrolls_to_its_points(simulator, compile_shared, build_dir):
    design = compile_shared(_disk_blur(), name="disk_blur")
    assert design.report["pes"] == 12  # 13 taps, 12 adds: the 12 points outside the disk fold away
    res = design.check({"input": random_image(12, 10, seed=6)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _separable_blur():
    x, y = _vars()
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, bx, by, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur_x", "blur_y", "hw_output",
                                                                 "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    by[x, y] = (bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 9
    hw_output[x, y] = hl.u8(by[x, y])
    output[x, y] = hw_output[x, y]
    return x, y, hw_input, (bx, by), hw_output, output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_host_loops_fused_into_one(simulator, compile_shared, build_dir):
    """`fuse(xo, yo, t)` of the host's loops over accelerator tiles, t the accelerator's loop: the host visits
    the same tiles (inside one tile, xo and yo have one iteration each, so t is each of them)."""
    x, y, hw_input, inner, hw_output, output = _separable_blur()
    xo, yo, xi, yi, t = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "t"))
    output.bound(x, 0, 32).bound(y, 0, 24)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 16, 12).fuse(xo, yo, t).hw_accelerate(xi, t)
    for f in inner:
        f.compute_at(hw_output, t)
    hw_input.compute_root().stream_to_accelerator()
    design = compile_shared(output, name="fused_host")
    assert design.report["tiles"] == 4
    res = design.check({"input": random_image(34, 26, seed=8)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("lanes", [1, 2])
def test_a_serial_reduction_in_the_accelerator_output_itself(simulator, compile_shared, build_dir, lanes):
    """hw_output(x, y) += hw_input(x + r.x, y + r.y) with r serial and hw_output accelerated: its definitions run
    on an internal buffer (hw_output_acc) and a copy streams each sum out once, after its last step."""
    x, y = _vars()
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    hw_output[x, y] = hl.u16(0)
    hw_output[x, y] += hw_input[x + r.x, y + r.y] * hl.u16(r.x + 1)
    output[x, y] = hl.u8(hw_output[x, y] >> 4)
    output.bound(x, 0, 10).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 10, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    if lanes > 1:
        hw_output.unroll(xi, lanes)
        hw_output.update().unroll(x, lanes).unroll(r.x)  # r.y stays serial (a serial r.x would cross lanes)
        hw_input.unroll(x, lanes)
    design = compile_shared(output, name=f"output_reduction_{lanes}")
    assert "hw_output_acc" in {b.name for b in design.program.nest.buffers}
    res = design.check({"input": random_image(12, 10, seed=9)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] <= 1.35 * design.report["ideal_cycles"]
