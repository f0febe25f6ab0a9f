"""A select on a plane's constant between values alike in part, with the planes unrolled (hwlower/lane_constants.py
`_selects_into_constants`): the kernel is one module for every lane, so each lane computed every plane's value and
picked its own. Where the values differ only in constants (a colour matrix's rows) each lane now reads its row's
coefficients as constants of the lane; where they differ in reads (`128 + (b >> 1)` against `128 + (r >> 1)`) the
select moves onto the reads, when that takes fewer ops. Bit for bit against the reference on both simulators."""

import pytest
from newcomer_algorithms import colour_matrix

import mainspring as hl

from conftest import SIMULATORS


def _auto(out):
    return hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring")).schedule_source


# Icarus only: the i32 colour matrix below takes its lanes' coefficients the same way, signed and 32 bits wide,
# and runs on Verilator as well.
@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_a_colour_matrix_unrolled_over_its_planes_computes_one_row_a_lane(simulator, build_dir, compile_shared):
    """3 planes a cycle (autoschedule_planes.py `_apart_from_reads`): 60 PEs, each lane the 3 rows and 2 selects
    (20 ops), 134 cycles for 128 at 16x8; now a row a lane, 3 products, 2 sums and the shift: 18 PEs."""
    out, _, _ = colour_matrix(hl, 16, 8)
    assert '.reorder(vars["c"], xi, yi, xo, yo).unroll(vars["c"])' in _auto(out)
    design = compile_shared(out, name="lane_selects_colour_matrix")
    rep = design.report
    assert rep["pes"] == 18 and rep["mem_tiles"] == 0 and rep["ideal_cycles"] == 16 * 8
    # the coefficients: 3 constants of each lane, read through the plane's counter
    assert [c.name for _, op in design.program.nest.ops() for c in op.coords if c.fn is not None] == [
        "coord_c_f3", "coord_c_f5", "coord_c_f7"]
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= 1.05 * rep["ideal_cycles"]


def _planes_of_reads(width, height):
    """Planes alike but for the plane they read, and one unlike the others: `select(c == 0, (r * 3 + g) >> 2, c ==
    1, 100 - (b >> 1), 100 - (r >> 1))`."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    image = hl.ImageParam(hl.UInt(8), 3, "input")
    out = hl.Func("mixed")
    r, g, b = (hl.u16(image[x, y, k]) for k in range(3))
    out[x, y, c] = hl.u8(hl.select(c == 0, (r * 3 + g) >> 2, c == 1, 100 - (b >> 1), 100 - (r >> 1)))
    out.set_estimates([(0, width), (0, height), (0, 3)])
    return out


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_planes_alike_but_for_their_reads_take_one_select_of_the_reads(simulator, build_dir, compile_shared):
    """The last two planes as `100 - (select(c == 1, b, r) >> 1)`: 3 ops for their 5 (2 each and the select); the
    first plane stays apart (merged with the others it would take more selects than it saves). 3 lanes of 7 PEs
    (9 before: 3 + 2 + 2 and 2 selects)."""
    out = _planes_of_reads(12, 4)
    assert '.unroll(vars["c"])' in _auto(out)
    design = compile_shared(out, name="lane_selects_reads")
    assert design.report["pes"] == 3 * 7, design.report["pes"]
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= 1.1 * design.report["ideal_cycles"]


def _colour_matrix_i32(width, height):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    image = hl.ImageParam(hl.UInt(8), 3, "image")
    out = hl.Func("matrixed32")
    rows = [(218, 33, 5), (20, 200, -36), (9, -40, 207)]

    def channel(k):
        a, b, d = rows[k]
        return (a * hl.i32(image[x, y, 0]) + b * hl.i32(image[x, y, 1]) + d * hl.i32(image[x, y, 2])) >> 8

    out[x, y, c] = hl.u8(hl.clamp(hl.select(c == 0, channel(0), c == 1, channel(1), channel(2)), 0, 255))
    out.set_estimates([(0, width), (0, height), (0, 3)])
    return out


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_rows_of_32_bit_products_with_signed_coefficients_take_their_lanes_coefficients(simulator, build_dir,
                                                                                       compile_shared):
    """i32 rows, negative coefficients among them: a 32-bit product by a lane's constant takes more PEs than by a
    constant, yet the one row a lane takes fewer than the three rows and their selects: 31 PEs a lane before, 22
    now (93 -> 66 at 8x4; 44 -> 46 cycles, the deeper kernel's fill)."""
    out = _colour_matrix_i32(8, 4)
    assert '.unroll(vars["c"])' in _auto(out)
    design = compile_shared(out, name="lane_selects_i32")
    assert design.report["pes"] == 3 * 22, design.report["pes"]
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= design.report["ideal_cycles"] + 14  # a row of 8 and the fill
