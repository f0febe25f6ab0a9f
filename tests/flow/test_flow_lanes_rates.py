"""Producers and consumers unrolled differently (issue 8), as Halide accepts them: a consumer reading more pixels
per cycle than its producer makes is paced to it, a producer with more lanes than its readers take is narrowed to
what they take (hwlower/narrow.py), and what still cannot work (a stream of more words per transfer than its
reader takes) is refused with fixes that compile. Bit-exact on both simulators; cycles against the ideal (the
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


def test_a_stream_wider_than_its_reader_is_refused_with_fixes_that_compile():
    """hw_input streams 2 words per transfer, blur_unnormalized reads 1 per cycle: the stream is the host's, not
    narrowed. Removing its unroll compiles; so does the other fix, the whole chain of unrolls down the pipeline
    that the message lists at once (each consumer after the first would refuse in turn otherwise)."""
    msg = _refused(inp=2)
    assert "or remove hw_input.unroll(x, 2) so that 'hw_input' streams at its pace" in msg
    _compile("fix_remove")  # no unroll at all
    assert ("Fix: add blur_unnormalized.unroll(x, 2) so that it keeps pace with 'hw_input', and add "
            "blur.unroll(x, 2) and add hw_output.unroll(xi, 2) so that the stages after it keep pace in turn") in msg
    design = _compile("fix_chain", inp=2, pure=2, blur=2, out=2)
    assert _lanes(design) == {"blur_unnormalized": 2, "blur": 2, "hw_output": 2}


CHAINS = {  # unrolls refused -> the unrolls each fix the message offers sets (None: removed)
    "output_3_over_a_2_lane_stream": ({"inp": 2, "out": 3}, [
        {"pure": 2, "blur": 2, "out": 2}, {"inp": None}]),
    "blur_3_over_a_2_lane_stream": ({"inp": 2, "pure": 3, "blur": 3, "out": 2}, [
        {"inp": 3, "out": 3}, {"pure": 2, "blur": 2}]),
    "output_3_over_a_2_lane_blur": ({"inp": 2, "pure": 2, "blur": 2, "out": 3}, [{"out": 2}]),
    # the stream at 2 words, the output's lanes, offered besides at 1 (session 29: only "remove" was offered)
    "output_2_over_a_4_lane_stream": ({"inp": 4, "out": 2}, [
        {"pure": 4, "blur": 4, "out": 4}, {"inp": None}, {"inp": 2, "pure": 2, "blur": 2}]),
    # the update folds into blur_unnormalized's pure definition: both unrolls change together
    "folded_update_over_a_4_lane_stream": ({"inp": 4, "update": 2, "pure": 2, "blur": 2, "out": 2}, [
        {"pure": 4, "update": 4, "blur": 4, "out": 4}, {"inp": 2}]),
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


def test_a_four_lane_stream_read_at_two_is_refused_with_fixes_that_compile():
    msg = _refused(out=2, blur=2, pure=2, inp=4)
    assert "or change hw_input.unroll(x, 4) to hw_input.unroll(x, 2) so that 'hw_input' streams at its pace" in msg
    _compile("fix_two", out=2, blur=2, pure=2, inp=2)
