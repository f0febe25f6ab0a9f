"""Kernels the prover left unproved after its whole budget on every fresh clone until session 36, now proved from an
empty proof cache: case by case (verilog/prove_split.py) probe20's conv_layer_mobile CoreIR branch (nine taps times
a coefficient table read at the channel `coord_c`, two channels) and its Tuple mean (a u16 sum divided by
max(count, 1), the count packed above the sum in one u32); as one integer polynomial (verilog/prove_exact.py's
shifts of signed values) autoprobe19's harris_lite corner response (16-bit central differences >> 2 and their
products on the PEs, 32 bits in the expression). Figures: BENCHMARKS.md "Helper prove22, session 36"."""

import autoprobe19_programs
import probe20b_programs
import probe20c_programs
import pytest

import mainspring as hl
from mainspring.verilog.kernel_sim import require_tools
from mainspring.verilog.prove import prove_design

CASES = {"mobile_coreir_branch_as_written": (probe20b_programs, "k_dw_conv_s0"),
         "tuple_sum_and_count_where": (probe20c_programs, "k_hw_output_s0"),
         "harris_lite": (autoprobe19_programs, "k_corner_s0")}


def _output(module, case):
    if case == "harris_lite":  # an algorithm with no schedule: autoprobe19's, autoscheduled at 11x7
        out = module.harris_lite(hl, 11, 7)[0]
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
        return out
    return getattr(module, case)(hl)[0]


@pytest.mark.parametrize("case", CASES)
def test_a_kernel_left_unproved_before_is_proved_from_an_empty_cache(case, tmp_path):
    require_tools("yosys")
    module, kernel = CASES[case]
    design = hl.compile(_output(module, case), name=f"prove22_{case}", prove=False)
    proofs = {p.module: p for p in prove_design(design, cache_dir=tmp_path)}
    assert proofs[kernel].status == "proved" and not proofs[kernel].cached, proofs[kernel]
    assert all(p.status == "proved" for p in proofs.values()), [str(p) for p in proofs.values()]
