"""An accelerator input read at two rates in host tiles (passes: the whole flow, on both simulators). Read through
an upsample at (x / 2, y / 2) and directly at (x + 1, y + 1), the input's box in each tile moves at two rates, so
no box that only shifts holds both: refused before as "accelerator tiles differ in shape" (fuzz 133450, 9158449).
The host now streams the input once per group of reads whose footprints shift together (hwlower/rate_streams.py),
as if the user had written two copy Funcs of the same image."""

import numpy as np
import pytest

import mainspring as hl


def _two_rates(h, inline: bool, edge: tuple[int, int] | None = None, inside: bool = False):
    """hw_output(x, y) = up(x, y) + hw_input(x + 1, y + 1), up reading hw_input at (x / 2, y / 2) and (x / 2 + 1,
    y / 2): buffered (`inline` False: a Func of its own at the tile's loop) or inlined into hw_output (one
    definition then reads both rates); with `edge` (width, height), every read through repeat_edge of hw_input
    (each stream then extended, `edges`); with `inside`, through mid = hw_input * 3 - 1 (computed inside, it is read
    at two rates: two buffers of it, and two streams of hw_input). Returns (input, hw_output, the Funcs the
    schedule names)."""
    x, y = h.Var("x"), h.Var("y")
    input_ = h.ImageParam(h.UInt(16), 2, "input")
    hw_input, up, hw_output = h.Func("hw_input"), h.Func("up"), h.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    mid = h.Func("mid")
    mid[x, y] = hw_input[x, y] * 3 - 1
    read = mid if inside else hw_input
    src = h.BoundaryConditions.repeat_edge(read, [(0, edge[0]), (0, edge[1])]) if edge else read
    up[x, y] = (src[x / 2, y / 2] + src[x / 2 + 1, y / 2] * 3) >> 1
    hw_output[x, y] = up[x, y] + src[x + 1, y + 1]
    return input_, hw_output, (x, y, hw_input, up, mid)


@pytest.mark.parametrize(("width", "height", "tile", "inline", "edge", "simulator"), [
    (10, 6, (4, 2), False, False, "icarus"), (10, 6, (4, 2), False, False, "verilator"),
    (9, 7, (3, 3), False, False, "icarus"),  # tiles off the upsample's steps, grown to the first tile's phase
    (8, 6, (2, 2), True, False, "icarus"), (8, 6, (2, 2), True, False, "verilator"),
    (12, 4, (12, 1), False, False, "verilator"),  # one row a tile: two rates along y only
    # through a boundary condition: both streams carry the extended image (the edge words repeated)
    (8, 6, (4, 2), False, True, "icarus"), (9, 5, (3, 3), True, True, "verilator"),
], indirect=["simulator"])
def test_an_input_read_at_two_rates_in_host_tiles_streams_once_per_rate(width, height, tile, inline, edge, simulator,
                                                                         halide, build_dir):
    _check(width, height, tile, inline, edge, False, simulator, halide, build_dir)


@pytest.mark.parametrize(("width", "height", "tile", "inline", "simulator"), [
    (10, 6, (4, 2), False, "icarus"), (10, 6, (4, 2), False, "verilator"), (8, 6, (2, 2), True, "icarus"),
    (9, 7, (3, 3), True, "icarus"),  # tiles grown to the first tile's phase
    (6, 5, (6, 1), True, "verilator"),
], indirect=["simulator"])
def test_a_func_computed_inside_read_at_two_rates_is_buffered_once_per_rate(width, height, tile, inline, simulator,
                                                                             halide, build_dir):
    design = _check(width, height, tile, inline, False, True, simulator, halide, build_dir)
    for t in design.program.tiles:
        assert {"mid", "mid_rate1"} <= set(t.boxes)


def _check(width, height, tile, inline, edge, inside, simulator, halide, build_dir):
    image = np.random.default_rng(width * height).integers(0, 1 << 14, (height + 2, width + 2), dtype=np.uint16)
    bounds = (width, height) if edge else None
    h_input, h_out, _ = _two_rates(halide, inline, bounds, inside)
    h_input.set(halide.Buffer(image))
    _, hw_output, (x, y, hw_input, up, mid) = _two_rates(hl, inline, bounds, inside)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
    if not inline:
        up.compute_at(hw_output, xo)
    if inside:
        mid.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    design = hl.compile(output, name=f"two_rates_{width}_{height}_{tile[0]}x{tile[1]}_{inline}_{edge}_{inside}")
    inputs = {"input": image}
    assert np.array_equal(design.reference_output(inputs), np.asarray(h_out.realize([width, height])))
    design.check(inputs, simulator=simulator, build_dir=build_dir)
    tiles = design.program.tiles
    assert len(tiles) > 1
    for name in ("hw_input", "hw_input_rate1"):  # two streams of the image, each box only shifting
        assert len({tuple(hi - lo for lo, hi in t.boxes[name]) for t in tiles}) == 1, name
    return design
