"""Coordinates as values inside the accelerator (a weight r.x + 2 * r.y + 1, select(x < 2, ...)): each is counted
by a controller that fires with its op (memories.coordinates), on both simulators."""

import json

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import accelerate, random_image

from conftest import SIMULATORS, assert_lint_clean_and_latch_free


def _weighted_by_position(width=9, height=5, tile=None):
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r")
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y + r.y] * hl.u16(r.x + 2 * r.y + 1)  # r serial: weights from its counters
    out = hl.Func("out")
    out[x, y] = hl.select(x < 2, acc[x, y], acc[x, y] + hl.u16(y * 3 - x))
    if tile is None:
        accelerate(out, out, width, height, [acc], hw_input)
    else:  # host tiles: the accelerator runs once per tile
        xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
        out.bound(x, 0, width).bound(y, 0, height)
        out.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
        acc.compute_at(out, xo)
        hw_input.compute_root().stream_to_accelerator()
    return out, {"input": random_image(width + 2, height + 1, seed=4)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_coordinates_of_a_serial_reduction_and_of_the_output(simulator, compile_shared, build_dir):
    out, inputs = _weighted_by_position()
    design = compile_shared(out, name="coords")
    assert "select(((out.s0.xi) < 2)" in design.files()["coords.loops.txt"]
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=3)
    assert res.cycles > res.predicted_cycles
    coords = json_coords(design)
    assert sorted(coords) == ["coord_r_x", "coord_r_y", "coord_x", "coord_y"]


def json_coords(design):
    ops = json.loads(design.memory_text)["schedule"]["ops"]
    return [c["name"] for o in ops.values() for c in o.get("coords", ())]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_coordinates_per_lane(simulator, compile_shared, build_dir, tmp_path):
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = i[x, y]
    ramp = hl.Func("ramp")
    ramp[x, y] = hw_input[x, y] * 2 + hl.i16(x) - hl.i16(y)  # negative values too
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = ramp[x, y] + ramp[x + 1, y]
    accelerate(hw_output, hw_output, 10, 4, [ramp], hw_input)
    r = hl.TailStrategy.RoundUp
    ramp.unroll(x, 2, r)
    hw_output.unroll(hl.Var("xi"), 2, r)
    hw_input.unroll(x, 2, r)
    design = compile_shared(hw_output, name="coords_lanes")
    assert json_coords(design).count("coord_x") == 2  # one counter per lane
    assert_lint_clean_and_latch_free(design, tmp_path)
    design.check({"input": random_image(12, 4, dtype=np.int16)}, simulator=simulator, build_dir=build_dir)


# host tiles (the tile counter adds each tile's offset; hwlower/tile_coordinates.py): whole tiles, tiles whose last
# one shifts inward at the output's edge (8 over 10), and a ramp under 2 lanes
TILES = {"whole": (8, 4, (4, 4), 1), "shifted": (10, 7, (8, 3), 1), "lanes": (10, 4, (4, 2), 2)}


@pytest.mark.parametrize("kind", sorted(TILES))
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_pure_coordinates_under_host_tiles(kind, simulator, compile_shared, build_dir, tmp_path):
    width, height, tile, lanes = TILES[kind]
    out, inputs = _weighted_by_position(width, height, tile)
    if lanes > 1:
        out.unroll(hl.Var("xi"), lanes)
    design = compile_shared(out, name=f"coords_tiles_{kind}")
    assert len(design.program.tiles) > 1
    offsets = [c["tile_offsets"] for o in json.loads(design.memory_text)["schedule"]["ops"].values()
               for c in o.get("coords", ()) if "tile_offsets" in c]
    assert offsets and all(len(t) == len(design.program.tiles) for t in offsets)
    if kind == "shifted":  # x: 0, then 2 (the last tile starts at 2, not 8), for each row of tiles
        assert [0, 2, 0, 2, 0, 2] in offsets
    assert_lint_clean_and_latch_free(design, tmp_path)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _coordinates_through_a_glb(width, height, glb, mem):
    """Seed 002's three levels (host, GLB tiles, memory tiles) over a pipeline that reads x and y as values."""
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = i[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1] + hl.u16(x % 7) * 3
    hw_output[x, y] = hl.select(x < 5, blur[x, y], blur[x, y] * 2) + hl.u16(y)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    xo, yo, xi, yi, xii, yii, xio, yio = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "xii", "yii", "xio", "yio"))
    glb_output = hw_output.in_()
    glb_output.compute_root().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo)
    glb_output.store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem).compute_at(glb_output, xo)
    blur.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(glb_output, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return output, {"input": random_image(width + 1, height + 1, dtype=np.uint16, seed=3)}


# a GLB level: the tile counter counts the array's invocations, memory tiles of each GLB tile in turn; the last
# GLB tile of a dimension shifts inward (20 over 12) where the shape says so
GLB = {"memory tiles": (24, 16, (12, 8), (6, 8)), "shifted": (20, 14, (12, 8), (6, 4))}


@pytest.mark.parametrize("kind", sorted(GLB))
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_pure_coordinates_through_a_glb(kind, simulator, compile_shared, build_dir):
    width, height, glb, mem = GLB[kind]
    out, inputs = _coordinates_through_a_glb(width, height, glb, mem)
    design = compile_shared(out, name=f"coords_glb_{kind.replace(' ', '_')}")
    runs = len(design.program.tiles) * len(design.program.glb.mem_tiles)
    offsets = [c["tile_offsets"] for o in json.loads(design.memory_text)["schedule"]["ops"].values()
               for c in o.get("coords", ()) if "tile_offsets" in c]
    assert offsets and all(len(t) == runs for t in offsets)
    if kind == "memory tiles":  # x of blur: memory tiles at 0 and 6 of GLB tiles at 0 and 12, for each row
        assert [0, 6, 12, 18, 0, 6, 12, 18] in offsets
    design.check(inputs, simulator=simulator, build_dir=build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_per_lane_constants_of_unrolled_coordinates(simulator, compile_shared, build_dir):
    # hwlower/lane_constants.py: a part computed from an unrolled coordinate alone is the lane's constant, held by
    # its counter (here a Bool, a negative weight and a negative offset per lane of k); the coordinates of loops
    # that move (x, r.y) stay counters (r.x, unrolled in a reduction, is folded into constants before).
    x, y, k = hl.Var("x"), hl.Var("y"), hl.Var("k")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(i[x, y])
    planes = hl.Func("planes")
    planes[k, x, y] = hl.select(k == 1, hw_input[x, y] * hl.i16(3 - 4 * k), hw_input[x, y] + hl.i16(k * k - 5))
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r")
    acc = hl.Func("acc")
    acc[x, y] = hl.i16(0)
    acc[x, y] += planes[r.x, x, y + r.y] * hl.i16(r.x * 2 - 1) + hl.i16(r.y + x)
    out = hl.Func("out")
    out[x, y] = acc[x, y]
    accelerate(out, out, 8, 4, [planes, acc], hw_input)
    planes.unroll(k)
    acc.update().unroll(r.x)
    design = compile_shared(out, name="lane_constants")
    coords = json_coords(design)
    assert len([c for c in coords if c.startswith("coord_k_f")]) == 3 * 3  # 3 parts, each a counter per lane
    assert {"coord_r_y", "coord_x"} <= set(coords) and "coord_k" not in coords
    res = design.check({"input": random_image(8, 5, seed=6)}, simulator=simulator, build_dir=build_dir,
                       bubbles=0.2, backpressure=0.2, seed=5)
    assert res.cycles > res.predicted_cycles
