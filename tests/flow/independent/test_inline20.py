"""Inline20 (session 35): reads through inline Funcs at products, quotients and loaded coordinates, and reads at a
periodic offset (inline20_programs.py), which Halide 21 accepts and mainspring refused until this session. The
`inline_reads` pass (hwlower/inline_reads.py) substitutes such an inline Func's value into its reader, where the
index and RAM passes serve its reads; the `periodic` pass (hwlower/periodic_reads.py) reads at a remainder of a
quotient through a select of affine reads. Each is bit-exact on Icarus (three on Verilator too), its cycles as
predicted and its reference equal to Halide 21's. Figures: BENCHMARKS.md "Helper inline20, session 35"."""

import autoprobe19_programs as autoprobe19
import inline20_programs as programs
import pytest
from hand_probes import HandProbe, bit_exact
from oracle import autoscheduled, halide_outputs

import mainspring as hl
from mainspring.frontend import ir
from mainspring.frontend.pipeline import Pipeline
from mainspring.hwlower.inline_reads import inline_offending_reads
from mainspring.hwlower.periodic_reads import select_periodic_reads
from mainspring.hwlower.region import locate_region
from mainspring.hwlower.state import Lowering

VERILATOR = ("product_modulo_u8", "gather_two_taps_and_a_constant_u8", "periodic_rows_u8_two_lanes")


PROBE = HandProbe("inline20", programs.CASES, verilator=VERILATOR)


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_read_through_an_inline_func_or_at_a_periodic_offset_is_bit_exact_and_halides(case, simulator, halide):
    PROBE.check(case, simulator, halide)


def _lowered(program, step):
    return step(locate_region(Lowering(Pipeline(program(hl)[0]), "t")))


@pytest.mark.xdist_group("inline20-product_modulo_u8")  # its design is the bit-exact test's
def test_the_inline_func_read_at_a_product_is_substituted_and_its_index_computed_in_a_func():
    """g((x * y) % 5, y) with g = hw_input + 1 inline reads hw_input at the product, plus 1: g is gone from the
    pipeline the passes after it see, and the index and RAM passes then serve the read as a direct one."""
    s = _lowered(programs.product_modulo_u8, inline_offending_reads)
    assert "g" not in s.pipe.functions
    value = s.pipe.definitions(s.pipe.functions["hw_output"])[0].value
    reads = [n for n in ir.walk(value) if isinstance(n, ir.Call)]
    assert [s.pipe.name(c.callee) for c in reads] == ["hw_input"]
    assert ir.user_text(reads[0].args[0]) == "((x * y) % 5)"
    design = PROBE.design("product_modulo_u8")  # hw_input looked up in a RAM of its box, no buffer for g
    assert [b["name"] for b in design.report["buffers"]] == ["hw_input", "hw_input_ram", "hw_output"]


def test_an_inline_func_read_at_affine_coordinates_stays_as_written():
    """Only the offending reads are substituted: a 3x3 box's inline blur_x read at x, y + 1 ... stays a call."""
    from probe19_programs import _box, _sched

    def box(m):
        inp, x, y, hw_input, bx, hw_output, output = _box(m)
        _sched(m, output, hw_output, (8, 6), inputs=(hw_input,))
        return output, {"input": inp}, [8, 6]

    s = locate_region(Lowering(Pipeline(box(hl)[0]), "t"))
    assert inline_offending_reads(s) is s


def test_a_periodic_offset_becomes_a_select_of_its_values_reads():
    """in(x, y + (x / 4) % 2): select((x / 4) % 2 == 0, in(x, y), in(x, y + 1)); over a box where the offset takes
    one value, that one read alone."""
    s = _lowered(programs.periodic_rows_u16, select_periodic_reads)
    value = s.pipe.definitions(s.pipe.functions["hw_output"])[0].value
    assert "select((((x / 4) % 2) == 0), hw_input(x, y), hw_input(x, (y + 1)))" in ir.user_text(value)


def test_the_autoscheduled_shear_compilesbit_exact(halide):
    """autoprobe19's shear, `in(x, y + (x / 4) % 2)` with no schedule (refused until this session)."""
    design, _ = autoscheduled(autoprobe19.shift_by_column, (13, 5), {}, name="inline20_shear")
    inputs = design.example_inputs(1)
    out, images = autoprobe19.shift_by_column(halide, 13, 5)
    bit_exact(design, inputs, halide_outputs(halide, out, images, inputs, [13, 5]), "icarus")


def test_an_autoscheduled_gather_through_an_inline_func_compilesbit_exact(halide):
    """The autoscheduler leaves g inline; its read at a loaded coordinate is a RAM lookup of the image's copy."""
    design, _ = autoscheduled(programs.gather_no_schedule, (12, 6), {}, name="inline20_auto_gather")
    inputs = design.example_inputs(1)
    out, images = programs.gather_no_schedule(halide, 12, 6)
    bit_exact(design, inputs, halide_outputs(halide, out, images, inputs, [12, 6]), "icarus")
