"""Boundary conditions on Funcs computed inside the accelerator under host tiles (hwlower/edge_taps.py): every
tile runs the same hardware, its edge taps chosen by absolute coordinates (each tile's offset added by the tile
counter) and read where any tile needs them, the Funcs they read realised over what the taps reach in every tile
(one shape, moving with the tiles; Halide's own boxes are clamped at the image's edges, so an edge tile's differ
from an interior one's).

Every program is bit-exact on both simulators at every edge of every tile against the reference, checked here to be
Halide 21's on the same algorithm: tiles that divide the output, last tiles shifted inward, tiles smaller than
the halo, chains of boundary conditions, an extended input under a tapped Func, reductions, lanes. Under a GLB
level: test_flow_glb_edges.py."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import input_extent
from mainspring.apps.lanes import unroll_lanes

from conftest import SIMULATORS
from edge_pipelines import BC, MORE, algorithm, image


def _scheduled(case: str, width: int, height: int, tile: tuple[int, int], lanes: int = 1):
    """Host tiles of `tile` over the output, every Func inside computed at the tile's loop xo."""
    _, hw_input, inner, hw_output, output = algorithm(hl, case, width, height)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    unroll_lanes(lanes, hw_output, inner, hw_input)
    return output, {"input": image(case, *input_extent(output, "input"))}  # (RoundUp lanes read past it)


def _pairs(cases: tuple[str, ...], on_both: str) -> list[tuple[str, str]]:
    """Each case on Icarus, and `on_both` on Verilator too (a Verilator build is the slow part)."""
    return [(c, "icarus") for c in cases] + [(on_both, "verilator")]


def _check(design, inputs, simulator, build_dir):
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    return res


def _same_shape_moving_with_the_tiles(design, name: str) -> list[int]:
    """The first column of `name`'s box in each tile, after checking that it moves as the output's does."""
    tiles = design.program.tiles
    for t in tiles:
        assert [hi - lo for lo, hi in t.boxes[name]] == [hi - lo for lo, hi in tiles[0].boxes[name]]
        moved = [b[0] - o[0] for b, o in zip(t.boxes[name], t.output_box)]
        assert moved == [b[0] - o[0] for b, o in zip(tiles[0].boxes[name], tiles[0].output_box)]
    return [t.boxes[name][0][0] for t in tiles]


@pytest.mark.parametrize(("kind", "simulator"), _pairs(BC, "mirror_interior"), indirect=["simulator"])
def test_tiles_that_divide_the_output(kind, simulator, build_dir, compile_shared):
    # 3 x 2 tiles of 16 x 16 over 48 x 32: corner, edge and interior tiles run the same hardware
    out, inputs = _scheduled(kind, 48, 32, (16, 16))
    design = compile_shared(out, name=f"edge_tiles_{kind}")
    assert len(design.program.tiles) == 6
    assert _same_shape_moving_with_the_tiles(design, "grad")[:3] == [-2, 14, 30]  # two columns before each tile
    (stream,) = design.program.inputs
    assert not stream.edges  # grad's edges are taps, the input is not extended
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("kind", "simulator"), _pairs(BC, "repeat_edge"), indirect=["simulator"])
def test_last_tiles_shifted_inward(kind, simulator, build_dir, compile_shared):
    # 40 x 30 in tiles of 16 x 16: the last column of tiles starts at 24, the last row at 14, overlapping
    out, inputs = _scheduled(kind, 40, 30, (16, 16))
    design = compile_shared(out, name=f"edge_shifted_{kind}")
    assert [t.output_box[0][0] for t in design.program.tiles][:3] == [0, 16, 24]
    assert [t.output_box[1][0] for t in design.program.tiles][::3] == [0, 14]
    _same_shape_moving_with_the_tiles(design, "grad")
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("case", "simulator"), _pairs(MORE, "chain"), indirect=["simulator"])
def test_chains_extended_inputs_and_reductions(case, simulator, build_dir, compile_shared):
    out, inputs = _scheduled(case, 20, 12, (8, 6))  # the last column of tiles shifted inward to 12
    design = compile_shared(out, name=f"edge_tiles_{case}")
    assert len(design.program.tiles) == 6
    for name in ("grad", "mid") if case == "chain" else ("grad",):
        _same_shape_moving_with_the_tiles(design, name)
    (stream,) = design.program.inputs
    assert bool(stream.edges) == (case == "input_and_inner")
    if case == "chain":  # mid's columns and rows realised past the image choose no taps of their own
        one, _ = _scheduled(case, 20, 12, (20, 12))
        assert design.report["pes"] == compile_shared(one, name="edge_one_tile_chain").report["pes"]
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize("kind", ["mirror_interior", "clamp"])
def test_tiles_narrower_than_the_halo(kind, build_dir):
    # Tiles of 2 x 3: mirror_interior reads two columns past the edge, so the left edge's taps are chosen in the
    # first tile and the one after it, and every tile reads the taps of both
    out, inputs = _scheduled(kind, 7, 6, (2, 3))
    design = hl.compile(out, name=f"edge_narrow_{kind}")
    assert len(design.program.tiles) == 8
    _same_shape_moving_with_the_tiles(design, "grad")
    _check(design, inputs, "icarus", build_dir)


@pytest.mark.parametrize(("kind", "simulator"), _pairs(("repeat_edge", "mirror_image"), "mirror_image"),
                         indirect=["simulator"])
def test_lanes_under_host_tiles(kind, simulator, build_dir, compile_shared):
    out, inputs = _scheduled(kind, 24, 8, (8, 4), lanes=2)
    design = compile_shared(out, name=f"edge_tiles_lanes_{kind}")
    assert design.program.output_lanes == 2
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize("kind", ["mirror_interior", "chain"])
def test_an_output_past_the_boundary_conditions_bounds(kind, build_dir):
    # The output over [-3, 15] x [-2, 9] for boundary conditions over [0, 13] x [0, 8]: tiles that start before the
    # image or end past it
    _, hw_input, inner, hw_output, output = algorithm(hl, kind, 14, 9)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    output.bound(x, -3, 19).bound(y, -2, 12)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, 6, 5).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    design = hl.compile(output, name=f"edge_past_{kind}")
    assert [t.output_box[0][0] for t in design.program.tiles][:4] == [-3, 3, 9, 10]
    _check(design, design.example_inputs(3), "icarus", build_dir)


# ---- the reference is Halide's -------------------------------------------------------------------------------

@pytest.mark.parametrize("case", BC + MORE)
def test_the_reference_is_halides(case, halide):
    """The reference the simulations are checked against computes what Halide 21 computes, at every edge."""
    width, height = 20, 12
    pixels = image(case, width + 1, height + 1)

    def realize(m):
        input_, *_, output = algorithm(m, case, width, height)
        input_.set(m.Buffer(pixels))
        return np.asarray(output.realize([width, height]))

    want, got = realize(halide), realize(hl)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_serial_reduction_over_a_clamped_func_in_one_wide_tile(simulator, build_dir, compile_shared):
    # The reads of the clamped Func, guarded by 0 <= x + r.x < W, couple x and r.x: memories.mapping cuts them
    # into boxes along r.x (3 values) where x (20 values) is too many to cut along; refused before.
    out, inputs = _scheduled("serial_reduction", 20, 11, (20, 11))
    design = compile_shared(out, name="edge_serial_wide")
    assert design.report["mem_tiles"] <= 5
    _check(design, inputs, simulator, build_dir)
