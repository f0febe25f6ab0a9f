"""Updates at computed coordinates inside the accelerator (hwlower/scatter.py): a histogram's
`hist(bin(r)) += 1` and other scatters become compare-and-update lanes over the Func's box (at most 64 elements),
or a RAM in a memory tile updated read-modify-write at the computed address (memories/ram.py), one reduction step
per cycle. Bit-exact on both simulators; the reference agrees with Halide 21."""

import numpy as np
import pytest
from test_flow_scan_reads import _equalisation

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS, assert_lint_clean_and_latch_free


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_histogram_of_a_small_image(simulator, compile_shared, build_dir):
    from mainspring.apps import h2h_histogram

    out, inputs = h2h_histogram.build(9, 5)
    design = compile_shared(out, name="h2h_histogram")
    rep = design.report
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] + 40  # 45 pixels, one per cycle, then 16 bins out
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _max_per_bin(w: int, h: int, bins: int = 8):
    """The largest high nibble seen for each low nibble: a scatter that is not an add, over a 2-D RDom."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, top, hw_output, output = (hl.Func(n) for n in ("hw_input", "top", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, w), hl.Range(0, h)], "r")
    top[b] = hl.u16(0)
    at = hl.i32(hw_input[r.x, r.y] & (bins - 1))
    top[at] = hl.max(top[at], hw_input[r.x, r.y] >> 4)
    hw_output[b] = top[b]
    output[b] = hl.u8(hw_output[b])
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, bins)
    hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": random_image(w, h, seed=47)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_max_scatter_over_a_bounded_index(simulator, compile_shared, build_dir):
    out, inputs = _max_per_bin(7, 6)
    design = compile_shared(out, name="max_per_bin")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_table_of_four_elements_is_lanes_of_registers(simulator, compile_shared, build_dir):
    out, inputs = _max_per_bin(9, 4, bins=4)
    design = compile_shared(out, name="max_per_bin4")
    (top,) = [b for b in design.report["buffers"] if b["name"] == "top"]
    assert top["level"] == "register", top
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


def test_histogram_reference_equals_halide(halide):
    from mainspring.apps import h2h_histogram

    out, inputs = h2h_histogram.build(12, 10)
    ours = hl.compile(out, name="h2h_histogram").reference_output(inputs)
    x, y, b = halide.Var("x"), halide.Var("y"), halide.Var("b")
    inp = halide.ImageParam(halide.UInt(8), 2, "input")
    binned = halide.Func("bin")
    binned[x, y] = halide.clamp(halide.cast(halide.Int(32), halide.cast(halide.UInt(16), inp[x, y]) & 0xF), 0, 15)
    hist = halide.Func("histogram")
    r = halide.RDom([halide.Range(0, 12), halide.Range(0, 10)])
    hist[b] = halide.cast(halide.UInt(16), 0)
    hist[binned[r.x, r.y]] += halide.cast(halide.UInt(16), 1)
    result = halide.Func("result")
    result[b] = halide.cast(halide.UInt(8), hist[b])
    inp.set(halide.Buffer(np.ascontiguousarray(inputs["input"])))
    assert np.array_equal(np.asarray(result.realize([16])), ours)


# ---- RAMs: Funcs of more than 64 elements updated at computed coordinates (memories/ram.py) -----------------

def _ram_histogram(w: int, h: int, image=None, init: int = 0, kind: str = "count"):
    """The issue's `hist(clamp(in(x, y), 0, 255)) += 1` over a w x h image (a RAM of 256 words); kind "max":
    the largest `x + in / 16` per bin, in Int(16) starting at `init` (an update reading a loaded value and a
    coordinate besides the old one); kind "joint": a 16 x 16 histogram of the low and high nibbles (a 2-D RAM)."""
    x, y, b, c = hl.Var("x"), hl.Var("y"), hl.Var("b"), hl.Var("c")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, w), hl.Range(0, h)], "r")
    px = hw_input[r.x, r.y]
    if kind == "joint":
        hist[b, c] = hl.u16(init)
        hist[hl.i32(px & 15), hl.i32(px >> 4)] += hl.u16(1)
        hw_output[b, c] = hist[b, c]
        output[b, c] = hw_output[b, c]
    else:
        at = hl.clamp(hl.i32(px), 0, 255)
        if kind == "max":
            hist[b] = hl.i16(init)
            hist[at] = hl.max(hist[at], hl.i16(r.x) + hl.i16(px >> 4))
        else:
            hist[b] = hl.u16(init)
            hist[at] += hl.u16(1)
        hw_output[b] = hist[b]
        output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    if kind == "joint":
        output.bound(b, 0, 16).bound(c, 0, 16)
        hw_output.compute_root().tile(b, c, bo, hl.Var("co"), bi, hl.Var("ci"), 16, 16).hw_accelerate(bi, bo)
    else:
        output.bound(b, 0, 256)
        hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": random_image(w, h, seed=53) if image is None else image}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_256_bin_histogram_is_a_ram_at_one_pixel_per_cycle(simulator, compile_shared, build_dir):
    img = random_image(16, 9, seed=5)
    img[0, 3:9] = 200  # one bin in consecutive steps: each update reads the one before it (forwarding)
    img[4, :] = np.arange(16) % 2  # two bins alternating
    out, inputs = _ram_histogram(16, 9, img)
    design = compile_shared(out, name="hist256")
    rep = design.report
    assert rep["pes"] <= 8 and rep["mem_tiles"] == 1, rep
    (ram,) = [b for b in rep["buffers"] if b["name"] == "hist"]
    assert ram["min_words"] == 256 and ram["words"] <= 256 + 3, ram
    # one update per pixel, then the 256 bins read out after the last update
    assert rep["predicted_cycles"] <= 16 * 9 + 256 + 8, rep["predicted_cycles"]
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=2)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_ram_update_reading_loads_and_coordinates_from_a_negative_start(simulator, compile_shared, build_dir):
    out, inputs = _ram_histogram(11, 6, init=-5, kind="max")
    design = compile_shared(out, name="ram_max")
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_two_dimensional_ram(simulator, compile_shared, build_dir):
    out, inputs = _ram_histogram(10, 7, init=3, kind="joint")
    design = compile_shared(out, name="ram_joint")
    design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


def test_a_constant_image_updates_one_element_every_cycle(build_dir):
    out, inputs = _ram_histogram(12, 5, np.full((5, 12), 77, dtype=np.uint8))
    design = hl.compile(out, name="hist_one_bin")
    res = design.check(inputs, simulator="icarus", build_dir=build_dir)
    assert int(np.asarray(res.output)[77]) == 60


def test_a_ram_design_is_lint_clean_and_latch_free(tmp_path):
    out, _ = _ram_histogram(8, 4, kind="max")
    assert_lint_clean_and_latch_free(hl.compile(out, name="ram_lint"), tmp_path)


def test_the_256_bin_histogram_reference_equals_halide(halide):
    out, inputs = _ram_histogram(13, 7)
    ours = hl.compile(out, name="hist256").reference_output(inputs)
    b = halide.Var("b")
    inp = halide.ImageParam(halide.UInt(8), 2, "input")
    hist = halide.Func("hist")
    r = halide.RDom([halide.Range(0, 13), halide.Range(0, 7)])
    hist[b] = halide.cast(halide.UInt(16), 0)
    hist[halide.clamp(halide.cast(halide.Int(32), inp[r.x, r.y]), 0, 255)] += halide.cast(halide.UInt(16), 1)
    inp.set(halide.Buffer(np.ascontiguousarray(inputs["input"])))
    assert np.array_equal(np.asarray(hist.realize([256])), ours)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_ram_address_reading_a_scalar_param(simulator, build_dir, compile_shared):
    # The Param is read by the address kernel only: it must still be a port of the top the bench drives.
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    gain = hl.Param(hl.UInt(16), "gain", 3)
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 5)], "r")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(hw_input[r.x, r.y] * gain), 0, 99)] += hl.u16(1)
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, 100)
    hw_output.compute_root().split(b, bo, bi, 100).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    design = compile_shared(output, name="hist_gain")
    design.check({"input": random_image(8, 5, seed=9) % 40}, simulator=simulator, build_dir=build_dir)


# ---- reads of a RAM at computed coordinates (histogram back-projection) -----------------------------------------

def _back_projection(m, w: int, h: int, bins: int = 16):
    """Each pixel's bin count in its own image (histogram back-projection): the RAM the histogram fills, read at
    the pixel's bin once every update is done. The image streams once; the accelerator keeps it to read again."""
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    input_ = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (m.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = m.u16(input_[x, y])
    r = m.RDom([m.Range(0, w), m.Range(0, h)], "r")
    shift = 8 - (bins - 1).bit_length()
    hist[b] = m.u16(0)
    hist[m.clamp(m.i32(hw_input[r.x, r.y]) >> shift, 0, bins - 1)] += m.u16(1)
    hw_output[x, y] = hist[m.clamp(m.i32(hw_input[x, y]) >> shift, 0, bins - 1)] * 3 + hw_input[x, y]
    output[x, y] = hw_output[x, y]
    return input_, hw_input, hist, hw_output, output


def _back_projection_scheduled(w: int, h: int, bins: int = 16):
    _, hw_input, hist, hw_output, output = _back_projection(hl, w, h, bins)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    output.bound(x, 0, w).bound(y, 0, h)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
    hist.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output, {"input": random_image(w, h, seed=53)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("bins", [4, 16, 256])
def test_a_ram_read_at_computed_coordinates(bins, simulator, compile_shared, build_dir):
    # 4 bins would be lanes of registers, but a table read at computed coordinates is a RAM
    out, inputs = _back_projection_scheduled(12, 6, bins)
    design = compile_shared(out, name=f"back_projection_{bins}")
    rep = design.report
    assert rep["schedule"] == "fused" and rep["mem_tiles"] == 2  # the kept image, and the RAM
    # the image once for the updates, then the read-out of each pixel's count after the last update, later by
    # the stages of the update's pipelined address kernel (its latency less the read-modify-write's one cycle)
    assert rep["predicted_cycles"] <= 2 * 72 + 8 + rep["kernel_latency"]["hist_s1"] - 1
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    assert res.cycles >= res.predicted_cycles


def test_back_projection_reference_equals_halide(halide):
    image = random_image(12, 6, seed=53)

    def realize(m):
        input_, *_, output = _back_projection(m, 12, 6)
        input_.set(m.Buffer(image))
        return np.asarray(output.realize([12, 6]))

    assert np.array_equal(realize(hl), realize(halide))


# ---- a table filled over an RDom, read at computed coordinates (histogram equalisation) -----------------------

@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("levels", [16, 64])
def test_histogram_equalisation_through_a_ram_copy(levels, simulator, build_dir, halide_loader, compile_shared):
    image = random_image(12, 6, seed=7)
    _, tables, hw_input, hw_output, output = _equalisation(hl, 12, 6, levels, copy=True)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    output.bound(x, 0, 12).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 12, 6).hw_accelerate(xi, xo)
    for f in tables:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    design = compile_shared(output, name=f"equalise_{levels}")
    design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)

    def realize(m):  # the reference agrees with Halide 21 (its own schedule: everything inline or at the root)
        input_, *_, out = _equalisation(m, 12, 6, levels, copy=True)
        input_.set(m.Buffer(image))
        return np.asarray(out.realize([12, 6]))

    if simulator == "icarus":
        assert np.array_equal(realize(hl), realize(halide_loader()))
