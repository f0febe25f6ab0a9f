"""Automl17's findings (session 33; the programs, bit-exact on both simulators, are in automl17_programs.py and run
by test_autoprobes.py): the schedules the fixes give, and their figures against the ones before (compiled without
the kernel proofs)."""

import automl17_programs as programs

import mainspring as hl


def _auto(case: str):
    """(schedule source, report) of a case's automatic design."""
    algorithm, size, keys = {**programs.AUTO, **programs.COMPILED}[case][:3]
    out = algorithm(hl, *size)[0]
    source = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys)).schedule_source
    return source, hl.compile(out, name=f"automl17_{case}", prove=False).report


def _words(rep: dict) -> tuple[int, int]:
    return sum(b["words"] for b in rep["buffers"]), sum(b["min_words"] for b in rep["buffers"])


def test_mobile_streams_a_pixels_planes_together_and_every_stage_takes_them_together():
    """pw_conv(k, x, y, c) makes a pixel's channels k before x: the input still streams channels first, a pixel's 4
    planes a transfer, and the sums over c unroll rather than sweep the frame per plane (at 7x5: 322 cycles for 252
    and 143 words for 131 before, 15 PEs; the 3-in, 4-out layer at 5x3 took 184 cycles and 13 memory tiles)."""
    source, rep = _auto("mobile_7x5")
    assert 'funcs["hw_input"].reorder(vars["c"], vars["x"], vars["y"]).unroll(vars["c"])' in source
    assert 'funcs["pw_conv_reduction"].update(0).unroll("r_pw$x")' in source and "sweep" not in source
    assert '.reorder(vars["k"], xi, yi, xo, yo).unroll(vars["k"])' in source
    assert rep["ideal_cycles"] == 9 * 7 and rep["predicted_cycles"] <= 75 and rep["mem_tiles"] <= 4
    words, least = _words(rep)
    assert words == least <= 106
    rep = _auto("mobile_3in_4out_5x3")[1]
    assert rep["predicted_cycles"] <= 45 and _words(rep)[0] <= 74 and rep["mem_tiles"] <= 3


def test_mobile_under_the_hand_designs_pes_streams_its_planes_one_after_another():
    """max_pes 15: the budget's cut with the planar stream plane after plane (STREAMS_APART), the hand design's
    shape and figures (322 cycles, 15 PEs at 7x5), before the cuts with no planes (3x the cycles at 16x16)."""
    source, rep = _auto("mobile_7x5_max_pes_15")
    assert 'funcs["hw_input"].reorder' not in source and "a sweep of the frame per plane read" in source
    assert (rep["predicted_cycles"], rep["pes"], rep["mem_tiles"]) == (322, 15, 4)


def test_a_stride_2_convolution_unrolls_its_planes_for_the_output_to_take_them_together():
    """conv(x, y, k) fires less often than its input transfers (stride 2), but the output reads it at its own plane
    k: serial, the planes reached the output one after another, which held the second whole (244 cycles for 165,
    153 words for 118 at 7x5; at 2 lanes 95 for 55, 206 words for 137 in 12 memory tiles)."""
    source, rep = _auto("conv_stride2_7x5")
    assert 'funcs["conv"].update(0).unroll(vars["k"])' in source
    assert '.reorder(vars["k"], xi, yi, xo, yo).unroll(vars["k"])' in source
    assert rep["predicted_cycles"] <= 185 and _words(rep)[0] <= 57 and rep["mem_tiles"] <= 1
    rep = _auto("conv_stride2_7x5_l2")[1]
    assert rep["predicted_cycles"] <= 75 and _words(rep)[0] <= 76 and rep["mem_tiles"] <= 3


def test_an_output_whose_planes_no_read_moves_with_takes_a_pixels_planes_together():
    """cat(x, y, c) = select(c == 0, box(x, y), max3(x, y)): one plane after another, the output fired twice a pixel
    while its stream (the image's 2 planes a transfer) ran ahead and was held (170 cycles for 130, 691 words for 133
    in 9 memory tiles at 13x5, 21 PEs); its planes unrolled, 38 PEs. Under max_pes 30 the budget's APART cut gives
    the serial design back (autoschedule_planes.py `planes_to_cut`)."""
    source, rep = _auto("concat_channels_13x5")
    assert '.reorder(vars["c"], xi, yi, xo, yo).unroll(vars["c"])' in source
    assert rep["predicted_cycles"] <= 115 and _words(rep) == (68, 68) and rep["mem_tiles"] <= 2
    algorithm, size, _ = programs.AUTO["concat_channels_13x5"]
    out = algorithm(hl, *size)[0]
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"max_pes": "30"}))
    assert '.reorder(vars["c"], xi, yi, xo, yo).hw_accelerate' in result.schedule_source


def test_a_mobilenet_block_under_a_pe_budget_keeps_its_planes_with_its_stream_plane_after_plane():
    """max_pes 100 (the full unroll takes 218 PEs): the cut with the planar stream plane after plane, the pointwise
    sums a sweep per plane (413 cycles, 253 words for 200 and 7 memory tiles at 84 PEs with no planes)."""
    source, rep = _auto("mobilenet_block_11x5_max_pes_100")
    assert "a sweep of the frame per plane read" in source and 'funcs["inp"].in_().reorder' not in source
    assert rep["pes"] <= 100 and rep["predicted_cycles"] <= 350 and _words(rep)[0] <= 150 and rep["mem_tiles"] <= 5
