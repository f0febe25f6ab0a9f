"""Images and Funcs the output reads out of their storage order, autoscheduled (mainspring/autoschedule_steps.py
`transposed_streams` and `out_of_order`): a transposed image is streamed down its columns by the
host (`in_().reorder(y, x)`), so nothing waits for the image's last row; a Func read backwards along y, or
transposed and computed inside, holds the tile's whole box, which the memory model counts, so a frame over the
budget is split in host tiles by the model rather than compiled whole (a 640x480 transpose took 150 memory tiles
of 128)."""

import pytest

import mainspring as hl

from conftest import SIMULATORS


def _transpose(m, w: int, h: int):
    image = m.ImageParam(m.UInt(16), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    t = m.Func("t")
    t[x, y] = image[y, x] * 2
    t.set_estimates([(0, h), (0, w)])
    return t


def _flip_y(m, w: int, h: int):
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    f = m.Func("f")
    f[x, y] = image[x, h - 1 - y] + 1
    f.set_estimates([(0, w), (0, h)])
    return f


def _blurred_then_transposed(m, w: int, h: int):
    """A 2x2 box blur read transposed, twice (its reuse buffers it)."""
    image = m.ImageParam(m.UInt(8), 2, "image")
    x, y = m.Var("x"), m.Var("y")
    b, r = m.Func("b"), m.Func("r")
    b[x, y] = (m.u16(image[x, y]) + image[x + 1, y] + image[x, y + 1] + image[x + 1, y + 1]) >> 2
    r[x, y] = b[y, x] + b[y + 1, x]
    r.set_estimates([(0, h - 1), (0, w - 2)])
    return r


def _scheduled(algorithm, w: int, h: int, **params: str):
    out = algorithm(hl, w, h)
    got = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", params))
    return out, got.schedule_source


def _words(design) -> tuple[int, int]:
    bufs = design.report["buffers"]
    return sum(b["words"] for b in bufs), sum(b["min_words"] for b in bufs)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("lanes", ["1", "2"])
def test_a_transposed_image_is_streamed_down_its_columns(lanes, simulator, build_dir):
    out, source = _scheduled(_transpose, 32, 24, lanes=lanes)
    assert '.in_().compute_root().reorder(hl.Var("_1"), hl.Var("_0")).stream_to_accelerator()' in source, source
    design = hl.compile(out, name=f"transposed_{lanes}")
    k = int(lanes)
    assert design.report["pes"] == k and design.report["mem_tiles"] == 0
    assert _words(design) == (2 * k, 2 * k)  # the stream's and the output's wires: the frame was held before
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 32 * 24 // k + 2
    again, namespace = _transpose(hl, 32, 24), {}
    exec(source, namespace)  # pasted on a fresh copy of the algorithm: the same design
    pipe = hl.Pipeline(again)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    assert hl.compile(again, name=f"transposed_{lanes}").verilog == design.verilog


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_buffered_func_read_transposed_is_bit_exact(simulator, build_dir, compile_shared):
    out, _ = _scheduled(_blurred_then_transposed, 24, 16)
    design = compile_shared(out, name="blur_transposed")
    words, least = _words(design)
    assert words == least
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.05 * design.report["ideal_cycles"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_y_flip_over_the_budget_is_split_in_host_tiles_by_the_model(simulator, build_dir, compile_shared):
    # The flip holds its tile's whole box (its first output row is the image's last): 64 x 48 bytes are two
    # memory tiles; the model counts them and picks tiles half as wide (one compiled before: the model counted 0)
    out, source = _scheduled(_flip_y, 64, 48, max_mem_tiles="1")
    assert "as one tile the frame needs about 2 memory tiles, over the budget of 1: host tiles" in source, source
    assert "tile(vars[\"x\"], vars[\"y\"], xo, yo, xi, yi, 32, 48)" in source
    design = compile_shared(out, name="flip_y_tiles")
    assert design.report["mem_tiles"] == 1 and design.report["tiles"] == 2
    design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)


def test_a_transpose_at_640x480_fits_the_default_target():
    # was one tile of 480 x 640 (the model counted no line for the transposed stream), refused at compile with 150
    # memory tiles of 128
    out, _ = _scheduled(_transpose, 640, 480)
    design = hl.compile(out, name="transpose_vga", prove=False)
    assert design.report["mem_tiles"] == 0 and design.report["predicted_cycles"] <= 640 * 480 + 10
