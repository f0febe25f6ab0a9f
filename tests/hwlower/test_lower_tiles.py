"""hwlower tiling with a GLB level: the host's loops over GLB tiles and the array output's loops over memory tiles
count the tiles (memories/glb.py addresses the GLB by these trip counts), for tiles down to one row."""

from math import prod

import pytest

import mainspring as hl
from mainspring.frontend.pipeline import Pipeline
from mainspring.hwlower.lower import lower


def _glb_pipeline(glb_tile: tuple[int, int], mem_tile: tuple[int, int], size: tuple[int, int] = (32, 32)):
    """input -> hw_input -> mid (two taps along x) -> hw_output (two taps along y): GLB tiles of hw_output.in_(),
    memory tiles of hw_output inside each, hw_input.in_() the GLB input tile."""
    names = ("x", "y", "xo", "yo", "xi", "yi", "xio", "yio", "xii", "yii")
    x, y, xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in names)
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    glb = hw_output.in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, *glb_tile).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem_tile).compute_at(glb, xo)
    mid.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return output


@pytest.mark.parametrize(("glb_tile", "mem_tile"), [
    ((16, 16), (8, 8)), ((16, 16), (16, 2)), ((16, 16), (2, 16)), ((16, 16), (16, 1)), ((32, 2), (16, 2)),
    ((2, 32), (2, 16)), ((32, 1), (8, 1)),
])
def test_tile_loops_count_the_tiles(glb_tile, mem_tile):
    size = (32, 32)
    program = lower(Pipeline(_glb_pipeline(glb_tile, mem_tile, size)), "glb")
    g = program.glb
    host = [n for _, n in g.host_loops]  # outermost (y) first
    mem = [n for _, n in g.mem_loops]
    assert host == [size[1] // glb_tile[1], size[0] // glb_tile[0]] and prod(host) == len(program.tiles)
    assert mem == [glb_tile[1] // mem_tile[1], glb_tile[0] // mem_tile[0]] and prod(mem) == len(g.mem_tiles)
    assert g.mem_grid == tuple(reversed(mem))
