"""What test_twopass14.py and test_twopass16.py share: the threshold at the frame's mean written with copy Funcs,
and the 1080p check of a two-pass design (a whole-frame reduction, then a map over the same input)."""

from oracle import autoscheduled


def copy_threshold(m, w, h):
    """The threshold at the frame's mean written with copy Funcs (seed 002's style): `hw_input` read by the sum and
    by the map, `output` copying `hw_output`."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = m.Var("x"), m.Var("y")
    r = m.RDom([(0, w), (0, h)], "r")
    hw_input, total, hw_output, out = m.Func("hw_input"), m.Func("total"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = inp[x, y]
    total[()] = m.u32(0)
    total[()] += m.u32(hw_input[r.x, r.y])
    hw_output[x, y] = m.select(m.u32(hw_input[x, y]) * (w * h) > total[()], m.u8(255), m.u8(0))
    out[x, y] = hw_output[x, y]
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def assert_two_frames_at_lanes(algorithm, lanes: int, name: str) -> None:
    """Compile only, at 1920x1080: no memory tile (the map's stream starts when the reduction is done, twopass14),
    and the scan and the map each stream the frame at `lanes` pixels a cycle (the scan's RVar unrolled by them,
    twopass16), the ideal adding the passes up."""
    design, _ = autoscheduled(algorithm, (1920, 1080), {"lanes": str(lanes)}, name=name)
    rep = design.report
    assert rep["mem_tiles"] == 0, rep["mem_tiles"]
    frame = 1920 * 1080
    assert rep["ideal_cycles"] == 2 * frame // lanes <= rep["predicted_cycles"] <= 2 * frame // lanes + 100, rep
