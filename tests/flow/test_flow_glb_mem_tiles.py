"""GLB tiles of several memory tiles at the array's pace (issue 8's cycles, issue 12's streaming): the host loads
each GLB input tile in the order the memory tiles read it, skipping the halo an earlier memory tile already
brought (each word loaded once), and reads the output back in the order the array writes it, so neither the
array nor the read-back waits for rows that cross memory tiles (passes: the whole compile driver and
simulation; `memories.glb.in_array_order` and `skip_rules` on their own)."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps import gaussian_glb

from conftest import SIMULATORS

# (output size, GLB tile, memory tile, lanes): GLB tiles of 3x3, 2x1 and 2x2 memory tiles
CASES = {
    "3x3_mem_tiles": ((48, 24), (24, 24), (8, 8), 1),
    "2x1_mem_tiles_lanes2": ((40, 12), (20, 12), (10, 12), 2),
    "2x2_mem_tiles_one_glb_tile": ((20, 12), (20, 12), (10, 6), 1),
    # memory tiles that do not divide the GLB tile round up (hwlower.tiling._whole_memory_tiles): 24x24 in 10x7
    # computes 30x28, 20 in 8 lanes of 2 computes 24, and GLB tiles shifted inward at 44 over 24 round up too
    "3x4_mem_tiles_rounded_up": ((48, 24), (24, 24), (10, 7), 1),
    "3x1_mem_tiles_rounded_up_lanes2": ((40, 12), (20, 12), (8, 12), 2),
    "shifted_glb_tiles_rounded_up": ((44, 24), (24, 24), (10, 8), 1),
}


def _depth(design) -> int:
    """Cycles of one run of the array (a memory tile) beyond its input stream: the pipeline's fill and drain,
    which runs of the array do not overlap (each restarts its schedule)."""
    return design.plan.cycles - design.plan.input_words // design.program.nest.stream_lanes(
        design.program.inputs[0].buffer)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", sorted(CASES))
def test_memory_tiles_run_back_to_back(case, simulator, build_dir, compile_shared):
    """The array never waits for the host: every GLB tile takes exactly its memory tiles' runs, the host's
    loads and read-backs hidden under them, and the whole run is the GLB tiles one after the other plus the GLB's
    read registers on the way in and out (2 + 2 cycles). So the cycles are the ideal (the array's stream over
    its memory tiles, halo included) within 5%, plus the depth of each run of the array (the constant)."""
    size, glb_tile, mem_tile, lanes = CASES[case]
    out, inputs = gaussian_glb.build(*size, glb_tile=glb_tile, mem_tile=mem_tile, lanes=lanes)
    design = compile_shared(out, name=f"glb_mt_{case}")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    r = design.report
    tiles, mems = r["tiles"], r["mem_tiles_per_glb_tile"]
    assert mems > 1
    assert res.cycles == r["predicted_cycles"] and res.tile_cycles == r["predicted_tile_cycles"]
    assert res.tile_cycles == [r["tile_cycles"]] * tiles and r["tile_cycles"] == mems * design.plan.cycles
    assert res.cycles == tiles * r["tile_cycles"] + 4
    # The ideal: per GLB tile the array streams each memory tile's input box, (w + 2) x (h + 2) words.
    per_mem = (mem_tile[0] + 2) * (mem_tile[1] + 2) // lanes
    assert r["ideal_cycles"] == tiles * mems * per_mem
    depth = _depth(design)
    assert 0 < depth <= 8
    assert res.cycles <= 1.05 * r["ideal_cycles"] + tiles * mems * depth + 4


def test_the_host_loads_each_word_once_in_the_memory_tiles_order():
    """The GLB input's host controller walks the array's order with skips; the words it streams are the GLB
    tile's, each once, in the order memory tiles first read them; the read-back follows the array's writes."""
    from mainspring.memories.glb import addresses, kept, transfer_coords

    out, _ = gaussian_glb.build(48, 24, glb_tile=(24, 24), mem_tile=(8, 8))
    design = hl.compile(out, name="glb_mt_order", prove=False)
    (b,) = [b for b in design.glb_plan.buffers if b.role == "input"]
    (o,) = [b for b in design.glb_plan.buffers if b.role == "output"]
    assert b.host.extent == b.array.extent == (10, 10, 3, 3) and b.host.data_stride == b.array.data_stride
    assert b.host.skip == ((0, 2, 2), (1, 3, 2))  # x below 2 right of the first column of memory tiles, y below
    assert b.host.moves == b.words == 26 * 26 and b.host.transfers == 9 * 10 * 10
    loads = transfer_coords(b.host, b)
    assert len(np.unique(loads, axis=0)) == len(loads) == 26 * 26
    # Memory tile 0 is loaded first, whole, in its own row order: the array starts on its first word.
    assert [tuple(c) for c in loads[:3]] == [(0, 0), (1, 0), (2, 0)] and tuple(loads[10]) == (0, 1)
    # Memory tile 1 (x 8..17) brings only its 8 new columns per row.
    assert tuple(loads[100]) == (10, 0) and tuple(loads[108]) == (10, 1)
    assert np.array_equal(addresses(o.host), addresses(o.array)) and kept(o.host).all()
    assert design.report["host_transfer_cycles"] == 2 * (26 * 26 + 24 * 24)


def test_skip_rules_and_their_limits():
    """`skip_rules` finds the overlap of consecutive memory tiles from the strides; `in_array_order` keeps
    them only when they skip exactly the words read before and the memory tiles read the whole GLB tile."""
    from mainspring.memories.glb import GlbController, in_array_order, kept, skip_rules

    # 1-D: three memory tiles of 4 words, 3 apart, over a tile of 10 words.
    array = GlbController((4, 3), 0, (1, 3))
    assert skip_rules(array) == ((0, 1, 1),)
    host = in_array_order(array, 10)
    assert host is not None and host.moves == 10
    assert kept(host).tolist() == [True] * 4 + [False, True, True, True] * 2
    # Memory tiles that leave a gap (4 words, 5 apart) do not read the whole tile: the host keeps its plain load.
    assert in_array_order(GlbController((4, 2), 0, (1, 5)), 9) is None
    # Memory tiles that do not overlap: the array's own order, nothing skipped.
    apart = GlbController((4, 2, 2, 2), 0, (1, 8, 4, 16))  # 2x2 memory tiles of 4x2 in an 8x4 tile
    assert skip_rules(apart) == () and in_array_order(apart, 32) == apart
    # Skips the rules cannot say (a memory tile that rereads its own words) keep the plain load.
    assert in_array_order(GlbController((4, 2), 0, (1, 0)), 4) is None


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_skipped_loads_under_stalls(simulator, build_dir, compile_shared):
    """The host's skipped steps go without its handshake: with bubbles in the host's stream and back-pressure
    on the read-back, the words still land where the memory tiles read them, bit for bit."""
    out, inputs = gaussian_glb.build(48, 24, glb_tile=(24, 24), mem_tile=(8, 8))
    design = compile_shared(out, name="glb_mt_stall")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=3)
    assert res.cycles > design.report["predicted_cycles"]
