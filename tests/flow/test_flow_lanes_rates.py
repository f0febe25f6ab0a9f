"""Producers and consumers unrolled differently (issue 8), as Halide accepts them: a consumer reading more pixels
per cycle than its producer makes is paced to it, a producer with more lanes than its readers take is narrowed to
what they take (hwlower/narrow.py), a stream of more words per transfer than its window takes is read through a
copy at the window's lanes (frontend/stream_staging.py, session 40; refused with fixes before), and what still
cannot work is refused with fixes that compile. Bit-exact on both simulators; cycles against the ideal (the
busiest op's firings) and storage against the exact minimum."""

import re

import pytest
from test_flow_lanes import _gaussian

import mainspring as hl

SIMULATORS = ("icarus", "verilator")


def _compile(name, **kw):
    out, _ = _gaussian(**kw)
    return hl.compile(out, name=name)


def _lanes(design):
    nest = design.program.nest
    return {op.func: nest.op_lanes(op.name) for _, op in nest.ops()}


def _loops(design, func):
    (loops,) = [lp for lp, op in design.program.nest.ops() if op.func == func]
    return [lp.extent if lp.unrolled else "serial" for lp in loops]  # serial extents differ by a RoundUp box


def _at_ideal(design, simulator, build_dir):
    r = design.report
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    staged = sum(max(0, n - 1) for n in r["kernel_latency"].values())  # pipeline stages beyond the output's
    assert r["tile_cycles"] - r["ideal_cycles"] <= 8 + staged, r
    assert all(b["words"] == b["min_words"] for b in r["buffers"]), r["buffers"]
    return res


PACED = {  # the 3x3 blur over a 1-lane input stream
    "output_2_lanes_over_a_1_lane_blur": {"out": 2},
    "blur_2_lanes_over_a_1_lane_input": {"out": 2, "blur": 2, "pure": 2, "update": 2},
}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", sorted(PACED))
def test_consumers_paced_to_a_one_lane_stream(case, simulator, build_dir):
    design = _compile(case, **PACED[case])
    nest = design.program.nest
    assert nest.stream_lanes("hw_input") == 1 and nest.stream_lanes("hw_output") == 2
    lanes = _lanes(design)
    assert lanes["hw_output"] == 2 and lanes["blur"] == PACED[case].get("blur", 1)  # as scheduled
    assert design.report["ideal_cycles"] == nest.buffer("hw_input").box[0][1] * nest.buffer("hw_input").box[1][1]
    _at_ideal(design, simulator, build_dir)


NARROWED = {  # case -> (its unrolls, the same design scheduled as it runs)
    "blur_2_lanes_read_at_1": ({"pure": 2, "update": 2}, {}),
    "blur_2_lanes_read_at_3": ({"out": 3, "blur": 3, "pure": 2, "update": 2}, {"out": 3, "blur": 3}),  # then paced
    "blur_4_lanes_read_at_2": ({"inp": 2, "pure": 4, "update": 4, "blur": 2, "out": 2},
                               {"inp": 2, "pure": 2, "update": 2, "blur": 2, "out": 2}),
}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", sorted(NARROWED))
def test_producer_narrowed_to_its_readers(case, simulator, build_dir):
    """blur_unnormalized computes more pixels per cycle than blur reads: it runs in the lanes blur takes, the
    same hardware as the schedule that unrolls it so (its RoundUp box aside)."""
    mine, same = NARROWED[case]
    design, twin = _compile(case, **mine), _compile(case + "_twin", **same)
    assert _lanes(design) == _lanes(twin)
    # its loops are those of the Func unrolled by the lanes it runs in: the lane loop's serial parent absorbed the
    # serial steps, so the scheduler aligns it with its neighbours as before
    assert _loops(design, "blur_unnormalized") == _loops(twin, "blur_unnormalized")
    assert design.report["pes"] == twin.report["pes"]
    inp, nest = design.program.nest.buffer("hw_input"), design.program.nest  # the busiest op: the input stream's
    assert design.report["ideal_cycles"] == inp.box[0][1] * inp.box[1][1] // nest.stream_lanes("hw_input")
    _at_ideal(design, simulator, build_dir)


def _refused(**kw):
    with pytest.raises(hl.ScheduleError) as err:
        _compile("e", **kw)
    return str(err.value)


CHAINS = {  # unrolls refused -> the unrolls each fix the message offers sets (None: removed)
    "output_3_over_a_2_lane_blur": ({"inp": 2, "pure": 2, "blur": 2, "out": 3}, [{"out": 2}]),
}
# Refused until session 40 (the 3x3 window reads its stream's words in turn through 9 reads), now through a copy of
# the stream at the window's lanes (frontend/stream_staging.py): cycles, ideal, the copy's words
STAGED = {
    "output_3_over_a_2_lane_stream": ({"inp": 2, "out": 3}, 582, 576, 67),
    "blur_3_over_a_2_lane_stream": ({"inp": 2, "pure": 3, "blur": 3, "out": 2}, 616, 594, 71),
    "output_2_over_a_4_lane_stream": ({"inp": 4, "out": 2}, 582, 576, 67),
    "folded_update_over_a_4_lane_stream": ({"inp": 4, "update": 2, "pure": 2, "blur": 2, "out": 2}, 294, 288, 68),
}
_KEYS = {"blur_unnormalized": "pure", "blur_unnormalized.update(0)": "update", "blur": "blur", "hw_output": "out",
         "hw_input": "inp"}


def _applied(kw, option):
    """The unrolls `kw` with the changes a fix `option` of the message names (add, change ... to, remove)."""
    kw = dict(kw)
    for verb, func, k in re.findall(r"(add|to|remove) (\w+(?:\.update\(0\))?)\.unroll\(\w+, (\d+)\)", option):
        kw[_KEYS[func]] = None if verb == "remove" else int(k)
    return kw


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", sorted(CHAINS))
def test_every_fix_of_a_rate_refusal_compiles_as_written(case, simulator, compile_shared, build_dir):
    """Each alternative of the message (split at ', or ') sets the unrolls it names, and compiles in one step into
    a design that is bit-exact."""
    kw, fixes = CHAINS[case]
    options = _refused(**kw).split("Fix: ")[1].rstrip(".").split(", or ")
    assert [{k: v for k, v in _applied(kw, o).items() if kw.get(k) != v} for o in options] == fixes
    for n, option in enumerate(options):
        out, _ = _gaussian(**{k: v for k, v in _applied(kw, option).items() if v})
        design = compile_shared(out, name=f"{case}_fix{n}")
        res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)
        assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", sorted(STAGED))
def test_a_stream_wider_than_its_window_is_staged(case, simulator, compile_shared, build_dir):
    kw, cycles, ideal, copy = STAGED[case]
    design = compile_shared(_gaussian(**kw)[0], name=f"{case}_staged")
    words = {b["name"]: b["words"] for b in design.report["buffers"]}
    assert (design.report["predicted_cycles"], design.report["ideal_cycles"], words["hw_input_turns"]) == \
        (cycles, ideal, copy)
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
