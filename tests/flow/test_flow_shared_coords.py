"""An op's coordinates that count the same value are one port (hwlower/shared_coords.py): a 7x7 box whose r.y is
split by 2 (a guarded tail: 7 rows in 4 steps) with r.x and the split's inner RVar unrolled read r.y in each of its
14 taps, a port each, and its guard compared every port in 32 bits: 58 PEs, more than the full unroll's 50. With
the ports of one value shared, 34; with the guard of the rows that are never the tail gone, 25."""

import sys
from pathlib import Path

import pytest

import mainspring as hl

sys.path.insert(0, str(Path(__file__).parent / "independent"))
from autoprobe16_programs import box7_rdom

SIZE = (8, 6)


def _split_box():
    out, _ = box7_rdom(hl, *SIZE)
    p = hl.Pipeline(out)
    funcs, v = p.funcs(), p.vars()
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    funcs["box7"].bound(v["x"], 0, SIZE[0]).bound(v["y"], 0, SIZE[1])
    funcs["box7"].compute_root().tile(v["x"], v["y"], xo, yo, xi, yi, *SIZE).hw_accelerate(xi, xo)
    funcs["acc"].compute_at(funcs["box7"], xo)
    ryo, ryi = hl.RVar("ryo"), hl.RVar("ryi")
    funcs["acc"].update(0).split("r$y", ryo, ryi, 2).unroll("r$x").unroll(ryi)
    funcs["inp"].in_().compute_root().stream_to_accelerator()
    return out


@pytest.mark.xdist_group("shared_coords")
@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_taps_of_one_row_share_its_coordinate_and_its_guard(simulator, build_dir):
    design = hl.compile(_split_box(), name="box7_split2")
    rep = design.report
    assert rep["pes"] == 25 and rep["ideal_cycles"] == 4 * SIZE[0] * SIZE[1], rep  # a compare, 7 selects, 14 adds
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
