"""Probe14a (session 30): Halide-to-Hardware generators written again from the C++ at other schedules and
GeneratorParams (probe14a_programs.py), each bit-exact on both simulators, its cycles as predicted, and its
reference equal to Halide 21's. Findings: schedule calls written with Halide's keyword names (`tile(...,
tail=...)`, tile over lists, `bound(var=...)`, `unroll(var=...)`, `RDom(region=...)`, `ImageParam(type=...,
dimensions=...)`) raised TypeError; conv_layer_mobile's note that its channel unrolls run serially suggested
`hw_input.unroll(c)`, which is refused for an input streamed x first (now: `hw_input.reorder(c, x, y).unroll(c)`,
mobile_channels_per_transfer). Figures: BENCHMARKS.md "Helper probe14a, session 30"."""

import functools

import numpy as np
import probe14a_programs as progs
import pytest
from oracle import halide_outputs
from porting import BUILD, params

import mainspring as hl


@functools.cache
def _design(case):
    return hl.compile(progs.CASES[case](hl)[0], name=f"probe14a_{case}")


@pytest.mark.parametrize(("case", "simulator"), params(progs.CASES))
def test_a_generator_variant_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    design = _design(case)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    assert res.cycles == res.predicted_cycles
    out, images, size = progs.CASES[case](halide)
    want = halide_outputs(halide, out, images, inputs, size)
    got = design.reference_outputs(inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and np.array_equal(g, w)


def test_the_serial_channel_lanes_note_gives_a_call_that_keeps_them():
    """Without the fix the depthwise update's unroll(c) runs serially, and the note names the call that streams
    the input's channels together; with it (simulated above) no unroll runs serially and the stage's firings
    are a quarter: 8 x 8 pixels x 4 serial input channels of the pointwise reduction, 256 cycles ideal."""
    serial = hl.compile(progs.mobile_channels_per_transfer(hl, lanes_fix=False)[0], name="probe14a_mobile_serial")
    note = next(n for n in serial.report["notes"] if n.startswith("dw_conv.update(0).unroll(c)"))
    assert note.endswith("make 'hw_input' compute c together (hw_input.reorder(c, x, y).unroll(c))")
    fixed = _design("mobile_channels_per_transfer")
    assert not fixed.report.get("notes") and fixed.report["ideal_cycles"] == 8 * 8 * 4
    assert fixed.report["predicted_cycles"] < serial.report["predicted_cycles"]



def test_the_note_names_an_image_wrappers_dimensions_as_halides_implicit_variables():
    """An ImageParam's wrapper is defined over Halide's _0, _1, _2; the note spells them hl._0 ... (Halide's
    names), and its call, applied (image_wrapper_channels, simulated above), keeps the lanes."""
    serial = hl.compile(progs.image_wrapper_channels(hl, lanes_fix=False)[0], name="probe14a_wrapper_serial")
    assert serial.report["notes"][0].endswith("(input.in_().reorder(hl._2, hl._0, hl._1).unroll(hl._2))")
    fixed = _design("image_wrapper_channels")
    # the 10 x 8 input's transfers, a pixel's 3 channels each, against a channel each without the fix
    assert not fixed.report.get("notes") and fixed.report["ideal_cycles"] == 10 * 8
    assert serial.report["ideal_cycles"] == 3 * 10 * 8
