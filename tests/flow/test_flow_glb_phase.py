"""GLB tiles and memory tiles over an upsample at any phase (hwlower/tiling.py; passes: the whole flow, on both
simulators). Memory tiles of the array output round up to whole upsample steps (a 3-row memory tile over y / 2
computes 4, `host_tiles(steps=...)`), and the GLB tile grows to whole memory tiles; GLB tiles at another phase
than the first grow back to it (`_at_first_phase`, as host tiles without a GLB level do) and the host reads each
back from its start, keeping its own part. Refused before: fuzz seed 134105 (a 2x3 memory tile over a serial
transposed convolution, fuzz_cases/serial_transposed_convolution_in_a_glb_memory_tile.py), and the catalogue's
`upsample_glb_tiles_out_of_step` and `upsample_tiles_out_of_phase`."""

import pytest

import mainspring as hl


def _glb_level(hw_input, f0, hw_output, output, glb_tile: tuple[int, int], mem_tile: tuple[int, int]):
    """Seed 002's three levels over hw_output: GLB tiles of `glb_tile`, memory tiles of `mem_tile`."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, *glb_tile).hw_accelerate(xi, xo)
    g.store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem_tile)
    hw_output.compute_at(g, xo)
    f0.compute_at(hw_output, xio)
    hw_input.in_().compute_at(g, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return output


def _upsampled(tile: int, mem_tile: int):
    """f0, a 3x upsample along x (x / 3, and y / 2) read by hw_output, in GLB tiles of `tile` columns over 15 x 4
    with memory tiles of `mem_tile` columns."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input, f0, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    f0[x, y] = (hw_input[x / 3, y / 2] + hw_input[x / 3 + 1, y / 2]) >> 1
    hw_output[x, y] = f0[x, y] % hl.i16(7)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 15).bound(y, 0, 4)
    return _glb_level(hw_input, f0, hw_output, output, (tile, 4), (mem_tile, 4))


def _through_a_clamp(tile_h: int, mem_h: int):
    """f0, a 2x upsample, read by hw_output through a clamp (edge taps), in GLB tiles of 2 x tile_h over 2 x 6
    with memory tiles of 2 x mem_h."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input, f0, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    f0[x, y] = (hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1
    hw_output[x, y] = f0[hl.clamp(x - 1, 0, 1), hl.clamp(y - 1, 0, 5)] % hl.i16(7)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 2).bound(y, 0, 6)
    return _glb_level(hw_input, f0, hw_output, output, (2, tile_h), (2, mem_h))


def _transposed_convolution(height: int, glb_h: int, mem_h: int):
    """up(x, y) += hw_input((x + r.x) / 2, (y + r.y) / 2) with r serial (fuzz 134105's kernel, a 2x2 RDom), over
    4 x height in GLB tiles of 4 x glb_h with memory tiles of 2 x mem_h."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, up, hw_output, output = (hl.Func(n) for n in ("hw_input", "up", "hw_output", "output"))
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    hw_input[x, y] = hl.u16(input_[x, y])
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[(x + r.x) / 2, (y + r.y) / 2] * hl.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = up[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 4).bound(y, 0, height)
    return _glb_level(hw_input, up, hw_output, output, (4, glb_h), (2, mem_h))


def _check(design, simulator, build_dir):
    return design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir, bubbles=0.2,
                        backpressure=0.2)


def _glb_boxes(design, dim: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Each GLB tile's computed box (of the GLB output) and kept box along `dim`, after checking that the computed
    boxes have one shape and hold what the host keeps (a last tile moved back outward is clipped to the output)."""
    tiles = design.program.tiles
    boxes = [(t.boxes["hw_output_global_wrapper"][dim], t.output_box[dim]) for t in tiles]
    assert len({hi - lo for (lo, hi), _ in boxes}) == 1, boxes
    assert all(lo <= klo and khi <= hi for (lo, hi), (klo, khi) in boxes), boxes
    return boxes


@pytest.mark.parametrize(("tile", "mem_tile", "simulator"), [
    (5, 5, "icarus"), (5, 5, "verilator"), (7, 3, "icarus"), (15, 5, "icarus"), (6, 4, "verilator"),
], indirect=["simulator"])
def test_glb_and_memory_tiles_not_a_multiple_of_the_divisor(tile, mem_tile, simulator, build_dir, compile_shared):
    """GLB tiles of 5 columns over x / 3 start at x = 0, 5 and 10: each computes 9 columns from the step holding its
    first (x = 0, 3 and 9), in memory tiles of 5 rounded up to 6, two whole steps, and the host keeps its 5."""
    design = compile_shared(_upsampled(tile, mem_tile), name=f"glb_phase_x3_{tile}_{mem_tile}")
    boxes = _glb_boxes(design, 0)
    mems = [t.output_box[0] for t in design.program.glb.mem_tiles]
    assert all((hi - lo + 1) % 3 == 0 and lo % 3 == 0 for lo, hi in mems), mems
    if (tile, mem_tile) == (5, 5):
        assert boxes == [((0, 11), (0, 4)), ((3, 14), (5, 9)), ((9, 20), (10, 14))]
        assert mems == [(0, 5), (6, 11)]
    _check(design, simulator, build_dir)


@pytest.mark.parametrize(("tile_h", "mem_h", "simulator"), [
    (3, 3, "icarus"), (3, 3, "verilator"), (5, 5, "icarus"), (3, 1, "icarus"),
], indirect=["simulator"])
def test_glb_tiles_an_odd_distance_apart_over_an_upsample_read_through_a_clamp(tile_h, mem_h, simulator, build_dir,
                                                                               compile_shared):
    """3-row GLB tiles over f0 stepping y by 2, read through a clamp: the tile keeping rows 3..5 computes 2..5, from
    the first tile's phase, on the hardware built for the first (whose clamp at row 0 it selects by the tile's
    coordinates); fuzz seed 125548's host tiles, under a GLB level."""
    design = compile_shared(_through_a_clamp(tile_h, mem_h), name=f"glb_phase_clamp_{tile_h}_{mem_h}")
    boxes = _glb_boxes(design, 1)
    if (tile_h, mem_h) == (3, 3):
        assert boxes == [((0, 3), (0, 2)), ((2, 5), (3, 5))]
    _check(design, simulator, build_dir)


@pytest.mark.parametrize(("height", "glb_h", "mem_h", "simulator"), [
    (3, 3, 3, "icarus"), (3, 3, 3, "verilator"), (6, 6, 3, "icarus"), (9, 3, 3, "verilator"), (7, 7, 5, "icarus"),
], indirect=["simulator"])
def test_serial_transposed_convolution_in_memory_tiles_of_odd_height(height, glb_h, mem_h, simulator, build_dir,
                                                                     compile_shared):
    """Fuzz 134105's kernel: a memory tile of 3 rows over y / 2 (the added Func that divides) computes 4, the GLB
    tile grows to whole memory tiles (6 rows in two of 3 compute 8), and the host reads back its own rows."""
    design = compile_shared(_transposed_convolution(height, glb_h, mem_h), name=f"glb_upconv_{height}_{glb_h}_{mem_h}")
    mems = [t.output_box[1] for t in design.program.glb.mem_tiles]
    assert all((hi - lo + 1) % 2 == 0 and lo % 2 == 0 for lo, hi in mems), mems
    if (height, glb_h, mem_h) == (6, 6, 3):
        assert mems == [(0, 3), (0, 3), (4, 7), (4, 7)]  # (two columns of memory tiles)
    _check(design, simulator, build_dir)


@pytest.mark.parametrize(("height", "simulator"), [(5, "icarus"), (5, "verilator"), (7, "icarus")],
                         indirect=["simulator"])
def test_the_autoscheduler_puts_an_upsample_of_odd_extent_under_a_glb_level(height, simulator, build_dir,
                                                                            compile_shared):
    """use_glb "true" on a 2x upsample over 4 x 5 (refused before: the memory tile of 5 rows could not round up to
    whole steps of 2): the memory tile computes 6 rows and the host keeps 5."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, up, hw_output, output = (hl.Func(n) for n in ("hw_input", "up", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    up[x, y] = hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]
    hw_output[x, y] = up[x, y]
    output[x, y] = hw_output[x, y]
    output.set_estimates([(0, 4), (0, height)])
    hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"use_glb": "true"}))
    design = compile_shared(output, name=f"glb_auto_upsample_{height}")
    assert design.program.glb is not None
    (mem,) = design.program.glb.mem_tiles
    assert mem.output_box[1] == (0, height)  # whole steps of 2: one row past the output
    _check(design, simulator, build_dir)
