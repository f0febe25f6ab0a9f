"""Boundary conditions on Funcs computed inside the accelerator under a GLB level (hwlower/edge_taps.py): the
array runs once per memory tile of each GLB tile, every run on the hardware built for the first; its edge taps
are chosen by absolute coordinates (the hardware counts the runs and adds each one's offset), a tap is read
wherever any run needs it, and the Funcs the taps read are realised over what the taps reach in every run (one
shape, moving with the memory tiles; Halide's own boxes are clamped at the image's edges).

Seed 002's three levels over test_flow_boundary_tiles.py's pipeline (edge_pipelines.py, whose reference
test_flow_boundary_tiles checks against Halide 21): hw_output.in_() is the GLB output tile, the host's
invocations (there is no host level around the GLB's tiles in the flow: the host loops over GLB tiles),
hw_output is computed once per GLB tile in memory tiles, grad and blur at the memory tile's loop. Every program
is bit-exact on both simulators, its cycles the predicted ones."""

import pytest

import mainspring as hl
from mainspring.hwlower.ir import Loop
from mainspring.hwlower.tile_coordinates import array_invocations

from conftest import SIMULATORS
from edge_pipelines import BC, MORE, through_glb


def _compiled(case, size, glb_tile, mem_tile, lanes=1, name=""):
    out, inputs = through_glb(case, size, glb_tile, mem_tile, lanes)
    return hl.compile(out, name=name or f"glb_edges_{case}"), inputs


def _check(design, inputs, simulator, build_dir):
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    return res


def _runs_of_one_shape(design, name: str) -> list[int]:
    """The first column of `name`'s box in every run of the array (each memory tile of each GLB tile), after
    checking that it has one shape and moves as the array output's box does; and that the hardware adds each
    run's offset to the coordinates that choose the taps."""
    glb = design.program.glb
    runs = array_invocations(list(design.program.tiles), list(glb.mem_tiles))
    assert len(runs) == len(design.program.tiles) * len(glb.mem_tiles)
    first = runs[0].boxes
    for t in runs:
        assert [hi - lo for lo, hi in t.boxes[name]] == [hi - lo for lo, hi in first[name]]
        moved = [b[0] - o[0] for b, o in zip(t.boxes[name], t.boxes["hw_output"])]
        assert moved == [b[0] - o[0] for b, o in zip(first[name], first["hw_output"])]
    if len(runs) > 1:
        offsets = {c.tile_offsets for op in _ops(design.program.nest.body) for c in op.coords}
        assert any(len(o) == len(runs) for o in offsets)
    return [t.boxes[name][0][0] for t in runs]


def _ops(nodes):
    for n in nodes:
        yield from _ops(n.body) if isinstance(n, Loop) else (n,)


def _pairs(cases: tuple[str, ...], on_both: str) -> list[tuple[str, str]]:
    """Each case on Icarus, and `on_both` on Verilator too (a Verilator build is the slow part)."""
    return [(c, "icarus") for c in cases] + [(on_both, "verilator")]


@pytest.mark.parametrize(("kind", "simulator"), _pairs(BC, "mirror_interior"), indirect=["simulator"])
def test_glb_tiles_of_one_memory_tile(kind, simulator, build_dir):
    # 2 x 2 GLB tiles of 12 x 8 over 24 x 16, each one run of the array: corner tiles only
    design, inputs = _compiled(kind, (24, 16), (12, 8), (12, 8))
    assert len(design.program.tiles) == 4 and len(design.program.glb.mem_tiles) == 1
    assert _runs_of_one_shape(design, "grad")[:2] == [-2, 10]  # two columns before each tile
    (stream,) = design.program.inputs
    assert not stream.edges  # grad's edges are taps, the input is not extended
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("kind", "simulator"), _pairs(BC, "repeat_edge"), indirect=["simulator"])
def test_memory_tiles_that_divide_the_glb_tile(kind, simulator, build_dir):
    # 2 GLB tiles of 12 x 16, each 2 x 2 memory tiles of 6 x 8: edge, corner and interior runs of the array
    design, inputs = _compiled(kind, (24, 16), (12, 16), (6, 8), name=f"glb_edges_mt_{kind}")
    assert len(design.program.tiles) == 2 and len(design.program.glb.mem_tiles) == 4
    assert _runs_of_one_shape(design, "grad") == [-2, 4, -2, 4, 10, 16, 10, 16]
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("kind", "simulator"), _pairs(BC, "mirror_image"), indirect=["simulator"])
def test_memory_tiles_that_do_not_divide_the_glb_tile(kind, simulator, build_dir):
    # 20 x 13 in GLB tiles of 12 x 8 (the last column shifted inward to 8, the last row to 5), memory tiles of
    # 5 x 3 rounding each GLB tile up to 15 x 9: runs past the image too
    design, inputs = _compiled(kind, (20, 13), (12, 8), (5, 3), name=f"glb_edges_nd_{kind}")
    assert [t.output_box[0][0] for t in design.program.tiles] == [0, 8, 0, 8]
    assert len(design.program.glb.mem_tiles) == 9
    _runs_of_one_shape(design, "grad")
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_one_glb_tile_of_memory_tiles(simulator, build_dir):
    design, inputs = _compiled("clamp", (16, 12), (16, 12), (8, 6), name="glb_edges_one")
    assert len(design.program.tiles) == 1 and len(design.program.glb.mem_tiles) == 4
    assert _runs_of_one_shape(design, "grad") == [-2, 6, -2, 6]
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("case", "simulator"), _pairs(MORE, "chain"), indirect=["simulator"])
def test_chains_extended_inputs_and_reductions(case, simulator, build_dir):
    design, inputs = _compiled(case, (20, 12), (10, 12), (5, 6), name=f"glb_edges_{case}")
    assert len(design.program.tiles) == 2 and len(design.program.glb.mem_tiles) == 4
    for name in ("grad", "mid") if case == "chain" else ("grad",):
        _runs_of_one_shape(design, name)
    (stream,) = design.program.inputs
    assert bool(stream.edges) == (case == "input_and_inner")
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("kind", "simulator"), _pairs(("repeat_edge", "mirror_image", "clamp"), "repeat_edge"),
                         indirect=["simulator"])
def test_two_lanes(kind, simulator, build_dir):
    # 2 GLB tiles of 12 x 8, memory tiles of 4 x 8 (3 per GLB tile), two pixels per cycle
    design, inputs = _compiled(kind, (24, 8), (12, 8), (4, 8), lanes=2, name=f"glb_edges_lanes_{kind}")
    assert design.program.output_lanes == 2 and len(design.program.glb.mem_tiles) == 3
    _runs_of_one_shape(design, "grad")
    _check(design, inputs, simulator, build_dir)


def test_the_same_hardware_as_one_run():
    """The taps and their selection are the same hardware in every run: the GLB design's PEs are the one-tile
    design's (the offsets are added in the coordinate counters, outside the kernels)."""
    tiled, _ = _compiled("repeat_edge", (24, 16), (12, 16), (6, 8), name="glb_edges_pes")
    one, _ = _compiled("repeat_edge", (24, 16), (24, 16), (24, 16), name="glb_edges_pes_one")
    assert tiled.report["pes"] == one.report["pes"]


@pytest.mark.parametrize("case", ["mirror_image", "chain"])
def test_two_lanes_in_memory_tiles_that_do_not_divide(case, build_dir):
    # GLB tiles of 20 x 12 rounded up to 24 x 12 by memory tiles of 8 x 6, two pixels per cycle
    design, inputs = _compiled(case, (40, 12), (20, 12), (8, 6), lanes=2, name=f"glb_edges_lanes_nd_{case}")
    assert design.program.output_lanes == 2 and len(design.program.glb.mem_tiles) == 6
    _runs_of_one_shape(design, "grad")
    _check(design, inputs, "icarus", build_dir)
