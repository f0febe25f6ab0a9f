"""verilog.prove's two cheaper ways to a verdict: shared subterms cut (prove_cut) and a goal evaluated at every
input when its inputs hold few points (prove_enumerate). Each must decide as z3 does: the evaluator is compared
with z3 on values, a goal with no model is proved, one with a model gives a point of it, and a goal over too many
points is left to z3."""

import json
import random

import numpy as np
import pytest
import z3

from mainspring.compute_json import Kernel, kernel_json, read_port
from mainspring.frontend import ir
from mainspring.frontend.types import UInt
from mainspring.verilog import prove
from mainspring.verilog.kernel import kernel_verilog
from mainspring.verilog.kernel_sim import require_tools
from mainspring.verilog.prove_cache import ProofCache
from mainspring.verilog.prove_cut import cut_shared
from mainspring.verilog.prove_enumerate import LIMIT, _Evaluator, exhausted

A, B = z3.Function("a", z3.IntSort(), z3.BitVecSort(8)), z3.Function("b", z3.IntSort(), z3.BitVecSort(8))
a, b = A(0), B(0)  # inputs as Yosys gives them: free functions of the state


def _terms():
    wa, wb = z3.ZeroExt(8, a), z3.ZeroExt(8, b)
    sa, sb = z3.SignExt(8, a), z3.SignExt(8, b)
    return [a + b, a - b, a * b, wa * wb, z3.UDiv(a, b), z3.URem(a, b), a & b, a | b, a ^ b, ~a, -a,
            a << b, z3.LShR(a, b), a >> b, z3.LShR(wa, z3.ZeroExt(8, b & 15)), z3.Concat(a, b), z3.Extract(5, 2, a),
            sa * sb, z3.If(a < b, a, b), z3.If(z3.ULT(a, b), sa, wb), z3.If(z3.And(a > 3, z3.Or(b <= a, a == b)), a, b),
            z3.If(z3.UGE(a, b), wa - wb, wb - wa), z3.If(z3.Not(z3.UGT(a, 7)), a, b)]


@pytest.mark.parametrize("k", range(len(_terms())))
def test_the_evaluator_agrees_with_z3_on_values(k):
    term = _terms()[k]
    rng = random.Random(k)
    points = [(0, 0), (255, 0), (0, 255), (128, 255), (255, 255), (7, 8)] + [
        (rng.randrange(256), rng.randrange(256)) for _ in range(60)]
    env = {a.get_id(): np.array([x for x, _ in points], dtype=np.uint64),
           b.get_id(): np.array([y for _, y in points], dtype=np.uint64)}
    got = _Evaluator([term], set(env)).run(env)[term.get_id()]
    for i, (x, y) in enumerate(points):
        want = z3.simplify(z3.substitute(term, (a, z3.BitVecVal(x, 8)), (b, z3.BitVecVal(y, 8)))).as_long()
        assert int(got[i]) == want, (term, x, y)


def test_a_true_goal_is_proved_and_a_false_one_is_not():
    wa, wb = z3.ZeroExt(24, a), z3.ZeroExt(24, b)
    ranges, far = {"a": (0, 255), "b": (1, 255)}, 1e9
    inputs = {"a": a, "b": b}
    # (a * b) / b == a for b != 0: z3 has to relate a multiplier and a divider
    assert exhausted([z3.UGE(b, 1), z3.UDiv(wa * wb, wb) != wa], inputs, ranges, far) is True
    wrong = exhausted([z3.UDiv(a * b, b) != a], inputs, ranges, far)  # 8-bit products wrap: a point found
    assert isinstance(wrong, dict) and (wrong["a"] * wrong["b"] % 256) // wrong["b"] != wrong["a"]
    # a goal holding only at the range's last point
    assert exhausted([a == 255, b == 255], inputs, ranges, far) == {"a": 255, "b": 255}
    assert exhausted([a == 255, b == 255], inputs, {"a": (0, 255), "b": (0, 254)}, far) is True


def test_a_wide_input_is_enumerated_over_the_bits_the_goal_reads():
    x = z3.Function("x", z3.IntSort(), z3.BitVecSort(32))(0)
    whole = {"x": (0, (1 << 32) - 1)}
    lo, hi = z3.Extract(15, 0, x), z3.ZeroExt(8, z3.Extract(23, 16, x))
    assert exhausted([z3.UDiv(lo, hi | 1) != z3.UDiv(lo, z3.ZeroExt(8, z3.Extract(23, 16, x)) | 1)],
                     {"x": x}, whole, 1e9) is True
    assert exhausted([z3.Extract(23, 0, x) == 0xABCDEF], {"x": x}, whole, 1e9) == {"x": 0xABCDEF}
    # read whole, or over part of its range: 2**32 points, left to z3
    assert exhausted([x + 1 == 0], {"x": x}, whole, 1e9) is None
    assert exhausted([z3.Extract(3, 0, x) == 0], {"x": x}, {"x": (0, (1 << 32) - 2)}, 1e9) is None
    assert LIMIT < 1 << 32


def test_past_the_deadline_nothing_is_decided():
    assert exhausted([a == 3], {"a": a}, {"a": (0, 255)}, 0.0) is None


def _lookup(x):
    """A table read as a tree of choices, as the reference and Yosys write one."""
    table = [(v * 37 + 11) % 251 for v in range(256)]
    level = [z3.BitVecVal(v, 16) for v in table]
    for bit in range(8):
        level = [z3.If(z3.Extract(bit, bit, x) == 1, level[i + 1], level[i]) for i in range(0, len(level), 2)]
    return level[0]


def test_shared_table_reads_are_cut_and_a_real_difference_stays():
    c = z3.Function("c", z3.IntSort(), z3.BitVecSort(8))(0)
    reads = [_lookup(v) for v in (a, b, c, a - b, b - c, a ^ c)]
    ours, theirs = cut_shared([sum(reads[1:], reads[0])], [sum(reversed(reads[1:]), reads[0])])
    solver = z3.SolverFor("QF_BV")
    solver.add(ours[0] != theirs[0])
    assert solver.check() == z3.unsat
    assert str(ours[0]).count("If") == 0  # each read is one fresh variable
    # a sum missing one read: the cut cannot make the difference disappear
    ours, theirs = cut_shared([sum(reads[1:], reads[0])], [sum(reads[1:-1], reads[0])])
    solver = z3.SolverFor("QF_BV")
    solver.add(ours[0] != theirs[0])
    assert solver.check() == z3.sat


def _weighted_ratio():
    """out = (a * b) / (b + 1) in u16 of two u8 inputs: 65,536 points."""
    a, b = (ir.Cast(UInt(16), read_port(n, UInt(8))) for n in "ab")
    one = ir.Const(UInt(16), 1)
    out = ir.BinOp(UInt(16), "div", ir.BinOp(UInt(16), "mul", a, b), ir.BinOp(UInt(16), "add", b, one))
    kernel = Kernel("k_weighted_ratio", (("a", UInt(8)), ("b", UInt(8))), (("out", out),))
    return kernel, kernel_verilog(json.loads(kernel_json(kernel)))


def _decided_by_enumeration():
    """The kernel proved, and a wrong module of it disproved with the point the enumeration finds."""
    kernel, text = _weighted_ratio()
    assert prove.prove_kernel(kernel, text, ProofCache(None)).status == "proved"
    wrong = text.replace("zext_3 + const_5", "zext_3 + zext_2")  # divided by a + b
    assert wrong != text
    proof = prove.prove_kernel(kernel, wrong, ProofCache(None))
    assert proof.status == "disproved" and proof.counterexample is not None, proof
    cex = proof.counterexample
    a, b = cex.inputs["a"], cex.inputs["b"]
    assert cex.expected["out"] == a * b // (b + 1) != cex.got["out"] == (a * b // (a + b) if a + b else 0), cex


def test_inputs_of_very_few_points_are_enumerated_before_any_quick_try(monkeypatch):
    """65,536 points take a fraction of a second, where a quick try that gets no answer takes 2 s."""
    require_tools("yosys")
    real = prove._check

    def no_quick_try(goal, deadline, quick_only=False, exhaust=None):
        assert not quick_only, "a quick try was made"
        return real(goal, deadline, quick_only, exhaust)

    monkeypatch.setattr(prove, "_check", no_quick_try)
    _decided_by_enumeration()


def test_inputs_of_few_points_are_enumerated_before_the_canonical_tries(monkeypatch):
    """When z3's quick try with the shared subterms cut gets no answer (as on a loaded machine, a 2 s try given a
    fraction of a core), inputs of few points (up to 2**24, here as if 65,536 were not very few) are decided at
    every input, and the canonical form's tries, seconds each, are not made: range_weighted (newcomer4) spent 14 s
    in them before its enumeration, and went unproved at 30 s under load."""
    require_tools("yosys")
    real = prove._check

    def no_quick_answer(goal, deadline, quick_only=False, exhaust=None):
        return (z3.SolverFor("QF_BV"), z3.unknown) if quick_only else real(goal, deadline, quick_only, exhaust)

    monkeypatch.setattr(prove, "FEW_POINTS", 0)
    monkeypatch.setattr(prove, "_check", no_quick_answer)
    monkeypatch.setattr(prove, "_canonical_check", lambda *_: pytest.fail("the canonical check was tried"))
    _decided_by_enumeration()
