"""A resampling Func read at several places (h2h_up_sample's `upx`, read by `nearest_neighbor` at two rows) is
inlined where the compiled design stores fewer words within the PE and memory-tile budgets
(mainspring/autoschedule_resampled.py, issue 11 gap from session 38: the automatic design stored 256 words where the
hand schedule stores 133)."""

import pytest

import mainspring as hl
from mainspring import apps
from mainspring import autoschedule as auto

from conftest import SIMULATORS


def _figures(design):
    rep = design.report
    return rep["predicted_cycles"], sum(b["words"] for b in rep["buffers"]), rep["pes"], rep["mem_tiles"]


def test_the_automatic_up_sample_is_the_hand_design_at_the_benchs_size():
    mod = apps.load("h2h_up_sample")
    hand = hl.compile(mod.build(124, 124)[0], name="up_hand")
    out, _ = mod.build(124, 124, auto=True)
    # (15,517 cycles, 257 words, 8 PEs, 1 memory tile with upx buffered; the output register counts one)
    assert _figures(hl.compile(out, name="up_auto")) == _figures(hand) == (15448, 134, 12, 2)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_inlined_upsample_is_bit_exact_in_fewer_words_and_cycles(simulator, build_dir, compile_shared):
    design = compile_shared(apps.load("h2h_up_sample").build(16, 16, auto=True)[0], name="up_inlined_16")
    assert _figures(design) == (274, 26, 12, 2)  # upx buffered: 289 cycles, 41 words, 8 PEs, 1 tile
    res = design.check(design.example_inputs(7), simulator=simulator, build_dir=build_dir)
    assert res.cycles == 274


@pytest.mark.parametrize(("keys", "figures"), [({"max_mem_tiles": "1"}, (289, 41, 8, 1)),
                                               ({"max_pes": "8"}, (289, 41, 8, 1))])
def test_a_budget_the_inlined_design_exceeds_keeps_the_upsample_buffered(keys, figures, monkeypatch):
    mod = apps.load("h2h_up_sample")

    def budgeted(out, w, h):
        out.set_estimates([(0, w), (0, h)])
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))

    monkeypatch.setattr(mod, "autoschedule", budgeted)
    out, _ = mod.build(16, 16, auto=True)
    assert _figures(hl.compile(out, name="up_budget")) == figures


def test_the_pass_weighs_only_resampling_funcs(monkeypatch):
    """A stencil's buffers (gaussian's) are no candidates: nothing is compiled to weigh them."""
    calls = []
    real = auto.inline_resampled.__globals__["_better"]
    monkeypatch.setitem(auto.inline_resampled.__globals__, "_better", lambda *a: calls.append(a) or real(*a))
    out, _ = apps.load("gaussian").build(16, 16, auto=True)
    hl.compile(out, name="gauss_auto")
    assert calls == []


@pytest.mark.parametrize(("size", "compiles"), [(124, 1), (16, 2)])
def test_the_buffered_design_is_compiled_only_where_the_answer_needs_it(size, compiles, monkeypatch):
    """At 124x124 the inlined design runs within 1% of its own ideal and stores far fewer words than the replay
    counts for upx buffered: its compile decides alone. At 16x16 its 18 cycles of fill are over 1% of its ideal:
    the buffered design is compiled to weigh the cycles (session 40: scheduling time)."""
    from mainspring import autoschedule_budget as budget

    made = []
    real = budget.figures
    monkeypatch.setattr(budget, "figures", lambda *a: made.append(a) or real(*a))
    apps.load("h2h_up_sample").build(size, size, auto=True)
    assert len(made) == compiles


def test_figures_compiled_unchecked_are_the_checked_designs():
    """compile(check=False), the autoscheduler's figures: the same report as a checked compile."""
    out, _ = apps.load("h2h_up_sample").build(16, 16, auto=True)
    keys = ("pes", "mem_tiles", "predicted_cycles", "ideal_cycles", "first_output_cycle", "buffers")
    checked = hl.compile(out, name="up_checked", prove=False).report
    unchecked = hl.compile(out, name="up_checked", prove=False, check=False).report
    assert [unchecked[k] for k in keys] == [checked[k] for k in keys]
