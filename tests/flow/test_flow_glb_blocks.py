"""Seed 002's GLB output level over an array output unrolled along y (rows, `hw_output.unroll(yii, 2)`), alone or
with lanes of x narrower than the memory tile, or with channels: each GLB entry holds the block of words the array
writes in a cycle (memories/glb_blocks.py; refused before session 38 as "words 8 apart in the GLB tile")."""

import json

import numpy as np
import pytest

import mainspring as hl
from mainspring.memories.glb import glb_from_json
from mainspring.memories.glb_blocks import block_coords

from conftest import SIMULATORS

R = hl.TailStrategy.RoundUp

# size, GLB tile, memory tile, lanes of xii and yii in the memory tiles, whether the GLB copy unrolls them too,
# lanes of the input's copies along x and y
CASES = {
    # the probe20 schedule a user writes: only the memory tile's output unrolled, the input one word a cycle
    "rows": ((8, 8), (8, 8), (4, 4), (1, 2), False, (1, 1)),
    # the input two rows per transfer (memories/glb_rows.py) feeds two rows a cycle
    "rows_input_rows": ((8, 8), (8, 8), (4, 4), (1, 2), False, (1, 2)),
    # 2 x 2 blocks in memory tiles 4 wide under two GLB tiles, the input two words of x a transfer
    "block_2x2": ((16, 8), (8, 8), (4, 4), (2, 2), False, (2, 1)),
    # one memory tile per GLB tile, the GLB copy unrolled as the array: the host reads back as the array writes
    "block_4x2_one_mem_tile": ((16, 8), (8, 4), (8, 4), (4, 2), True, (4, 1)),
}


def _blur(size, glb_tile, mem_tile, lanes, copy_unrolls, in_lanes):
    """A two-tap blur through seed 002's three levels (host, GLB, memory tiles)."""
    x, y, xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in "x y xo yo xi yi xio yio xii yii".split())
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1] * 2
    hw_output[x, y] = blur[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, *glb_tile).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, *mem_tile)
    blur.compute_at(hw_output, xio)
    for v, gv, bv, k in ((xii, xi, x, lanes[0]), (yii, yi, y, lanes[1])):
        if k > 1:
            hw_output.unroll(v, k)
            blur.unroll(bv, k)
            if copy_unrolls:
                g.unroll(gv, k)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(g, xo).store_in(hl.MemoryType.GLB)
    for v, k in ((x, in_lanes[0]), (y, in_lanes[1])):
        if k > 1:
            hw_input.in_().in_().unroll(v, k, R)
            hw_input.in_().unroll(v, k, R)
    hw_input.compute_root().accelerator_input()
    return output


def _entry_block(design) -> list:
    glb = json.loads(design.files()[f"{design.name}.memory.json"])["glb"]
    assert glb_from_json(glb) == design.glb_plan  # the Verilog renders from what it reads back
    return glb["buffers"]["hw_output_global_wrapper"].get("entry_block", [])


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", sorted(CASES))
def test_an_array_output_unrolled_along_y_moves_blocks_through_the_glb(case, simulator, build_dir, compile_shared):
    """Bit-exact on both simulators at the predicted cycles; each GLB entry is one cycle's block, x lanes
    innermost (lane j at x + j % kx, y + j // kx); where the input feeds as many words a cycle as the output
    writes, the array runs at its ideal plus each memory tile's fill."""
    size, glb_tile, mem_tile, lanes, _, in_lanes = CASES[case]
    design = compile_shared(_blur(*CASES[case]), name=f"glb_blocks_{case}")
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    r = design.report
    assert res.cycles == r["predicted_cycles"] and res.tile_cycles == r["predicted_tile_cycles"]
    want = [[d, k, 1] for d, k in enumerate(lanes) if k > 1]
    assert _entry_block(design) == want
    tiles, mems = r["tiles"], r["mem_tiles_per_glb_tile"]
    assert tiles * glb_tile[0] * glb_tile[1] == size[0] * size[1]
    assert mems == (glb_tile[0] // mem_tile[0]) * (glb_tile[1] // mem_tile[1])
    # the ideal: per memory tile, its input box (one more column and row) in the input's transfers (RoundUp)
    per_mem = -(-(mem_tile[0] + 1) // in_lanes[0]) * -(-(mem_tile[1] + 1) // in_lanes[1])
    assert r["ideal_cycles"] == tiles * mems * per_mem
    if in_lanes[0] * in_lanes[1] == lanes[0] * lanes[1]:
        assert res.cycles <= r["ideal_cycles"] + tiles * mems * 8 + 4


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_colour_output_with_rows_unrolled_moves_blocks_through_the_glb(simulator, build_dir, compile_shared):
    """A gray input to 3 channels, memory tiles unrolling two pixels of x and two rows, the GLB copy alike (the
    catalogue's glb_output_rows_unrolled before session 38): entries of 2 x 2 pixels, one channel each."""
    x, y, c, xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in "x y c xo yo xi yi xio yio xii yii".split())
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(inp[x, y])
    hw_output[x, y, c] = hl.u8((hw_input[x, y] * hl.u16(c + 1) + hw_input[x + 1, y]) >> 2)
    output[x, y, c] = hw_output[x, y, c]
    output.bound(x, 0, 8).bound(y, 0, 4).bound(c, 0, 3)
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 2).reorder(c, xi, yi, xo, yo)
    g.hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB).unroll(xi, 2).unroll(yi, 2)
    hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 8, 2).reorder(c, xii, yii, xio, yio)
    hw_output.unroll(xii, 2).unroll(yii, 2)
    hw_input.in_().in_().compute_at(hw_output, xio).unroll(x, 2)
    hw_input.in_().compute_at(g, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    design = compile_shared(output, name="glb_blocks_colour")
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] and design.report["tiles"] == 2
    assert _entry_block(design) == [[0, 2, 1], [1, 2, 1]]


def test_block_coords_decode_entries_x_blocks_fastest():
    """Entry e of a 4 x 4 box in blocks of 2 x 2 (x lanes innermost) holds block (e % 2, e // 2), lane j at
    (j % 2, j // 2) inside it; lanes with y innermost swap the order within the entry only."""
    box = ((10, 4), (20, 4))
    got = block_coords(np.array([0, 3]), ((0, 2, 1), (1, 2, 1)), box)
    assert got.tolist() == [[10, 20], [11, 20], [10, 21], [11, 21], [12, 22], [13, 22], [12, 23], [13, 23]]
    got = block_coords(np.array([1]), ((1, 2, 1), (0, 2, 1)), box)
    assert got.tolist() == [[12, 20], [12, 21], [13, 20], [13, 21]]
