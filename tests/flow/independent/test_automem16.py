"""Automem16 (session 32): a Func read at fewer than one pixel a cycle keeps one lane, paced to its readers, where it
had cut the whole design to one lane; lanes that a chain of divisors would read unevenly are still refused. The
designs themselves are checked bit-exact by test_autoprobes.py (automem16_programs.py)."""

import automem16_programs as progs

import mainspring as hl


def _scheduled(algorithm, size, lanes):
    out = algorithm(hl, *size)[0]
    return hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": lanes}))


def test_a_level_read_at_x_over_4_under_2_lanes_is_paced_at_one_lane():
    """d2 read at x / 4 by 2 lanes makes 1/2 pixel a cycle; d1 read at x / 2 by the output and at 2 * x by d2 makes
    1; the image at 2 * x of d1, 2: the output keeps its 2 lanes (it fell to 1, 185 cycles for 95)."""
    result = _scheduled(progs.pyramid, (16, 8), "2")
    assert result.lanes == 2 and result.note == ""
    assert 'funcs["up"].unroll(xi, 2, up)' in result.schedule_source
    assert 'funcs["image"].in_().unroll(hl.Var("_0"), 2, up)' in result.schedule_source
    assert 'funcs["d1"].unroll' not in result.schedule_source and 'funcs["d2"].unroll' not in result.schedule_source


def test_lanes_that_divide_the_greatest_of_a_chain_of_divisors_are_reached():
    """x / 2 and x / 8 at 4 lanes: hwlower/strip_mine.py splits the serial loop in steps of 8 / 4 and the lanes in
    steps of 2 (x / 2 = 4 * xo.strip_o + 2 * xo.strip_i + xi / 2); it fell to 2 lanes until session 33 (382 cycles,
    196 at 4: autorate17)."""
    result = _scheduled(progs.three_levels, (32, 16), "4")
    assert (result.lanes, result.note) == (4, "")


def test_the_memory_model_holds_the_rows_a_reader_waits_for_as_the_compiler_does(monkeypatch):
    """Shi-Tomasi at 2 lanes: shi reads hxx, hyy and hxy at rows y - 1 .. y + 1, but hyy and hxy wait a row for gy
    (which reads the image at y + 1): the compiler computes hxx as early as it can and holds 3 of its rows, where the
    model counted the 2 its reader spans (14 memory tiles modelled, 20 compiled; gx, held a row for pxy, is now
    inlined by the model's count: 18 both)."""
    import autoq14_programs

    from mainspring import autoschedule_memory

    calls = []
    real = autoschedule_memory.func_tiles
    monkeypatch.setattr(autoschedule_memory, "func_tiles", lambda pipe, plan, target, tile: calls.append(
        (plan.lanes.lanes, tile, real(pipe, plan, target, tile))) or calls[-1][2])
    out = autoq14_programs.shi_tomasi(hl, 16, 8)[0]
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "2"}))
    monkeypatch.undo()
    model = [got for lanes, tile, got in calls if lanes == 2 and tile == (16, 8) and "gx" not in got][-1]
    rep = hl.compile(out, name="automem16_shi_tomasi", prove=False).report
    assert model["hxx"] == 2 * model["hyy"] == 8 and sum(model.values()) == rep["mem_tiles"] == 18


def test_a_read_backwards_along_x_still_keeps_one_lane():
    """`image(W - 1 - x)` at 2 lanes makes -2 pixels a cycle: no lanes (the paced rule takes only rates in (0, 1); a
    negative one had given the stream -2 lanes)."""
    from newcomer_algorithms import mirror_x

    out = mirror_x(hl, 24, 12)[0]
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "2"}))
    assert result.lanes == 1 and "-2 pixels per cycle" in result.note, result.note
