"""Index19 (session 34): reads at an index that multiplies or divides the coordinates (index19_programs.py), which
Halide 21 bounds by the box its variables span and mainspring computes in a clamped Func of its own
(hwlower/index_funcs.py). Each is bit-exact on Icarus (VERILATOR's on Verilator too), its cycles as predicted and its
reference equal to Halide 21's. Figures: BENCHMARKS.md "Helper index19, session 34"."""

import index19_programs as programs
import pytest
from hand_probes import HandProbe

import mainspring as hl

# the index as a table of the coordinates, two index Funcs feeding a producer, an index beside a serial update's
# window; the rest are the same hardware at other frames and tilings (Icarus only, for the suite's time)
VERILATOR = ("product_coordinates", "product_quotient_and_remainder", "product_in_a_serial_update")
PROBE = HandProbe("index19", programs.CASES, verilator=VERILATOR)


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_read_at_a_nonlinear_index_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)


def test_the_index_is_a_clamped_func_at_the_readers_level():
    """The pass adds the Func the refusal's fix named: clamp(x * y, 0, 49) at hw_output's xo (a constant table of the
    coordinates, as the fix written by hand is)."""
    from mainspring.frontend.pipeline import Pipeline
    from mainspring.hwlower.index_funcs import compute_indices
    from mainspring.hwlower.region import locate_region
    from mainspring.hwlower.state import Lowering

    s = compute_indices(locate_region(Lowering(Pipeline(programs.product_8x8(hl)[0]), "t")))
    idx = s.pipe.functions["hw_input_index_for_hw_output"]
    value = s.pipe.definitions(idx)[0].value
    assert value.op == "max" and value.b.value == 0 and value.a.b.value == 49
    assert str(idx.placement.compute) == "compute_at(hw_output, xo)"
    assert idx in s.found_region.tables
