"""memories.polyhedral: domains, access maps and exact value flows (isl semantic equality)."""

import islpy as isl
import pytest

from mainspring.frontend import ir
from mainspring.hwlower.ir import LoopNest
from mainspring.memories.polyhedral import build_program, default_latency

import memories_nests as N


def program(nest):
    return build_program(nest, lambda op: default_latency(op, 1))


def flow(prog, dst, load, lane=()):
    (f,) = [f for f in prog.flows if f.dst.name == dst and f.load == load and f.dst_lane == lane]
    return f


def test_islpy_is_the_barvinok_build():
    assert hasattr(isl.Set, "card") and hasattr(isl.PwQPolynomial, "max")


def test_domains_and_access_maps_of_the_3x3_blur():
    prog = program(N.gaussian())
    blur = prog.stmt("blur_unnormalized_s0")
    assert blur.full_set() == isl.Set(f"{{ {blur.full_name}[y, x] : 0 <= y < 62 and 0 <= x < 62 }}")
    (acc,) = [a for a in prog.accesses if a.stmt is blur and a.name == "hw_input_5"]  # tap (x + 2, y + 1)
    assert acc.map("A") == isl.Map("{ A[y, x] -> B[x + 2, y + 1] : 0 <= y < 62 and 0 <= x < 62 }")
    host = prog.stmt("host.hw_input")
    assert host.is_host and host.full_set() == isl.Set(f"{{ {host.full_name}[y, x] : 0 <= y < 64 and 0 <= x < 64 }}")


def test_flows_are_exact_value_dependences():
    prog = program(N.gaussian())
    f = flow(prog, "blur_unnormalized_s0", "hw_input_8")  # reads hw_input(x + 2, y + 2)
    assert f.src.name == "host.hw_input"
    assert f.rel == isl.Map("{ S0[y, x] -> S1[y - 2, x - 2] : 2 <= y < 64 and 2 <= x < 64 }")
    out = [f for f in prog.flows if f.streamed_out]
    assert [(f.src.name, f.buffer) for f in out] == [("hw_output_s0", "hw_output")]


def test_update_reads_the_pure_definition_at_the_same_point():
    prog = program(N.gaussian(init_update=True))
    f = flow(prog, "blur_unnormalized_s1", "blur_unnormalized_0")
    assert f.src.name == "blur_unnormalized_s0"
    assert f.rel == isl.Map("{ S1[y, x] -> S2[y, x] : 0 <= y < 62 and 0 <= x < 62 }")
    # The downstream op reads the update's value, never the init's.
    assert flow(prog, "blur_s0", "blur_unnormalized_0").src.name == "blur_unnormalized_s1"


def test_unrolled_lanes_chain_inside_the_op():
    prog = program(N.unrolled_box())
    s1 = prog.stmt("sum_s1")
    assert [d.var for d in s1.time_dims] == ["s1.y", "s1.x"] and len(s1.lanes()) == 9
    chain = sorted((r.lane, r.source_lane) for r in prog.internal if r.op == "sum_s1")
    lanes = s1.lanes()
    assert chain == [(lanes[k + 1], lanes[k]) for k in range(8)]
    assert flow(prog, "sum_s1", "sum_0", (0, 0)).src.name == "sum_s0"
    assert flow(prog, "hw_output_s0", "sum_0").src_lane == (2, 2)
    tap = flow(prog, "sum_s1", "hw_input_1", (1, 2))  # ry = 1, rx = 2: hw_input(x + 2, y + 1)
    assert tap.rel == isl.Map("{ S0[y, x] -> S2[y - 1, x - 2] : 1 <= y < 15 and 2 <= x < 16 }")


def test_sequential_reduction_carries_the_accumulator():
    prog = program(N.sequential_reduction())
    own = [g for g in prog.flows if g.dst.name == "sum_s1" and g.load == "sum_0"]
    assert {g.src.name for g in own} == {"sum_s0", "sum_s1"}
    (carried,) = [g for g in own if g.src.name == "sum_s1"]
    assert carried.rel == isl.Map("{ S3[y, x, r] -> S3[y, x, r + 1] : 0 <= y < 8 and 0 <= x < 13 and 0 <= r < 3 }")


def test_reading_an_element_nobody_writes_is_a_contract_error():
    nest = N.gaussian(16, 16)
    # Shrink the input box: the blur's taps now read past it.
    small = LoopNest(nest.name, (N.buffers(("hw_input", 15, 16))[0],) + nest.buffers[1:], nest.inputs, nest.output,
                     nest.body)
    with pytest.raises(AssertionError, match=r"hwlower contract: op 'blur_unnormalized_s0' load 'hw_input_2'"):
        program(small)


def test_copies_and_constants_cost_no_latency():
    nest = N.gaussian(init_update=True)
    ops = {op.name: op for _, op in nest.ops()}
    assert default_latency(ops["hw_output_s0"], 1) == 0
    assert default_latency(ops["blur_unnormalized_s0"], 1) == 0
    assert default_latency(ops["blur_unnormalized_s1"], 3) == 3
    assert isinstance(ops["blur_unnormalized_s0"].value, ir.Const)
