"""hwlower with lanes: the streams' lanes in the loop nest, lanes of every op, RoundUp loops (passes: lower)."""

import pytest

from mainspring import apps
from mainspring.frontend.pipeline import Pipeline
from mainspring.hwlower.ir import output_order
from mainspring.hwlower.lower import lower
from mainspring.hwlower.printer import format_nest


@pytest.mark.parametrize("lanes", [1, 2, 3])
def test_streams_and_ops_have_the_same_lanes(lanes):
    out, _ = apps.load("gaussian").build(31, 8, lanes=lanes)
    nest = lower(Pipeline(out), "g").nest
    assert nest.lanes == (("hw_input", lanes), ("hw_output", lanes)) and nest.input_lanes == lanes
    rounded = -(-31 // lanes) * lanes
    assert nest.buffer("hw_output").box == ((0, rounded), (0, 8))
    assert nest.buffer("hw_input").box[0] == (0, -(-(rounded + 2) // lanes) * lanes)
    for loops, op in nest.ops():
        unrolled = [lp for lp in loops if lp.unrolled]
        assert [lp.extent for lp in unrolled] == ([lanes] if lanes > 1 else [])
        assert not unrolled or loops[-1] is unrolled[-1]  # lanes are the innermost loop
        x = op.store.index[0]
        assert dict(x.terms)[loops[-2 if lanes > 1 else -1].var] == lanes
    # The output streams x fastest, lane by lane: the word order does not depend on the lanes.
    order = output_order(nest)
    assert [tuple(c) for c in order[:4]] == [(0, 0), (1, 0), (2, 0), (3, 0)] and len(order) == rounded * 8


def test_printed_nest_states_the_lanes():
    out, _ = apps.load("gaussian").build(30, 8, lanes=2)
    text = format_nest(lower(Pipeline(out), "g").nest)
    assert "// lanes (words per transfer): hw_input 2, hw_output 2\n" in text
    assert "unrolled for (blur_unnormalized.s0.x.ui, 0, 2)" in text
    one, _ = apps.load("gaussian").build(30, 8)
    assert "lanes" not in format_nest(lower(Pipeline(one), "g").nest)
