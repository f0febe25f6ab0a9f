"""Probe39 (session 39): the h2h generators re-written from their .cpp as a researcher varies them (issue 8 and
11: the acceptance programs' kind), in independent/probe39*_programs.py (a CASES dict each): odd and non-square
sizes, other lanes and types, renamed and reordered loops, compute_at at other levels, store_at apart, tail
strategies, set_estimates, GLB copies and in_() chains, two ImageParams, Tuples, boundary conditions and ROMs inside
the accelerator, partly unrolled RDoms, compute_with. Every compiled case is bit-exact on Icarus (a sample on
Verilator too) at its predicted cycles and its reference equals Halide 21's; each refused case names a fix that
compiles. Figures: docs/benchmarks-history.md "Helper probe39, session 39"."""

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "independent"))
from hand_probes import HandProbe

import mainspring as hl

PARTS = ("probe39", "probe39b", "probe39c")
MODULES = {p: importlib.import_module(f"{p}_programs") for p in PARTS}
# Refused with a user error whose fix compiles (the fixed program is a case of its own): {case: (fixed case,
# message pattern)}.
REFUSED = {
    "pointwise_set_estimates_no_bound": ("pointwise_set_estimates_and_bound", (
        r"Func 'output' is the pipeline's output but its dimension x has no bound: hardware sizes are fixed at "
        r"compile time. Add output.bound\(x, 0, <extent>\) for each dimension \(x, y\)")),
    # Halide refuses it too (the compute levels differ); before session 39 hw_b ran on the host unannounced
    "compute_with_array_func_under_glb_copy": ("glb_copies_of_both_outputs", (
        r"Func 'hw_b': hw_b.compute_with\(hw_a, xio\): Invalid compute_with: the compute levels of hw_a.s0 \(computed "
        r"at hw_a.in_\(\)'s xo\) and hw_b.s0 \(compute_root\) do not match.* to compute 'hw_b' on the accelerator "
        r"too, schedule it as 'hw_a': under a GLB copy of its own")),
    "argmax_row_i32": ("argmax_row_i16", (
        r"Func 'argmax': its Tuple's elements need 2 \(int32\) \+ 32 \(int32\) = 34 bits, .* cast elements to narrower "
        r"types")),
    "stream_wrapper_and_stream_both_unrolled": ("stream_unrolled_once", (
        r"'hw_input', streamed to the accelerator, has loops of its own, already scheduled. Give the stream's loops "
        r"once: remove hw_input.in_\(\).unroll\(x, 2\)")),
}
# Refused for the target's size, the fix a larger target: {case: (message pattern, target)}
_PES = (r"needs 392 PEs but the target has 384: reduce unrolling or buffering, or compile for a larger target, e.g. "
        r"hl.CGRA\(num_pes=392\)")
OVER_TARGET = {"harris_rdoms_unrolled_two_lanes": (_PES, {"num_pes": 392})}
VERILATOR = ("pointwise_u16_out_two_lanes_10x7", "conv33_two_lanes_round_up", "tuple_min_max_range_3x3",
             "glb_copies_of_both_outputs", "repeat_edge_inside_accelerator")
PROBE = HandProbe("probe39", {c: mod.CASES[c] for mod in MODULES.values() for c in mod.CASES if c not in OVER_TARGET},
                  verilator=VERILATOR, refused=REFUSED)


@pytest.mark.parametrize(("case", "simulator"), PROBE.params())
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    PROBE.check(case, simulator, halide)


@pytest.mark.parametrize("case", REFUSED)
def test_a_refused_schedule_names_its_fix_and_the_fix_compiles(case):
    PROBE.check_refused(case)


@pytest.mark.parametrize("case", OVER_TARGET)
def test_a_design_over_the_target_compiles_for_the_target_named(case):
    pattern, target = OVER_TARGET[case]
    program = MODULES["probe39b"].CASES[case]
    with pytest.raises(hl.HalideError, match=pattern):
        hl.compile(program(hl)[0], name=f"probe39_{case}")
    design = hl.compile(program(hl)[0], name=f"probe39_{case}", target=hl.CGRA(**target))
    assert design.report["pes"] == target["num_pes"]


def test_hw_input_in_unrolled_beside_its_stream_unrolls_the_stream():
    # h2h's pointwise writes hw_input.in_().unroll(x, 2) beside stream_to_accelerator(): the stream's 2 lanes
    design = PROBE.design("pointwise_u16_out_two_lanes_10x7")
    assert ("hw_input", 2) in design.program.nest.lanes
