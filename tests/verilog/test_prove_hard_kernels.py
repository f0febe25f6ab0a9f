"""verilog.prove on kernels z3 used to leave unproved at the 30 s limit. Absolute differences: the reference writes
absd as max - min, which is Halide's |a - b| (proved here for each width and signedness), and kernels that compare
absolute differences, as a demosaic's edge-directed interpolation does, are proved within a few seconds (with
|a - b| written as a choice of two differences, z3 found no answer in 30 s for camera's demosaicked kernel).
Output ranges: proved on the cut view, where the last registers' intervals bound them."""

import json

import pytest
import z3

import mainspring as hl
from mainspring.apps.common import accelerate
from mainspring.compute_json import Kernel, kernel_json, read_port
from mainspring.frontend import ir
from mainspring.frontend.types import Bool, Int, UInt
from mainspring.verilog.kernel import kernel_verilog
from mainspring.verilog.kernel_sim import require_tools
from mainspring.verilog.prove import prove_design, prove_kernel
from mainspring.verilog.prove_cache import ProofCache
from mainspring.verilog.prove_netlist import module_text
from mainspring.verilog.prove_reference import Reference, euclidean, narrowed_division, narrowed_divisions, post_order


@pytest.mark.parametrize("t", [UInt(8), UInt(16), UInt(32), Int(8), Int(16), Int(32)], ids=str)
def test_the_references_absd_is_the_magnitude_of_the_difference(t):
    a, b = z3.BitVec("a", t.bits()), z3.BitVec("b", t.bits())
    term = Reference({"a": a, "b": b}).term(ir.BinOp(UInt(t.bits()), "absd", read_port("a", t), read_port("b", t)))
    greater = a > b if t.is_int() else z3.UGT(a, b)
    solver = z3.Solver()
    solver.add(term != z3.If(greater, a - b, b - a))
    assert solver.check() == z3.unsat
    # and on values, against Python's integers
    lo, hi = (-(1 << (t.bits() - 1)), (1 << (t.bits() - 1)) - 1) if t.is_int() else (0, (1 << t.bits()) - 1)
    for x, y in ((lo, hi), (hi, lo), (lo, lo), (0, hi), (3, -2 if t.is_int() else 2)):
        got = z3.simplify(z3.substitute(term, (a, z3.BitVecVal(x, t.bits())), (b, z3.BitVecVal(y, t.bits()))))
        assert got.as_long() == abs(x - y), (x, y)


def _green(names: tuple[str, str, str, str]):
    """select(absd(a, b) < absd(c, d), (a + b) >> 1, (c + d) >> 1): the interpolation along the flatter direction."""
    a, b, c, d = (read_port(n, UInt(16)) for n in names)
    one = ir.Const(UInt(16), 1)
    closer = ir.BinOp(Bool(), "lt", ir.BinOp(UInt(16), "absd", a, b), ir.BinOp(UInt(16), "absd", c, d))
    mean = lambda p, q: ir.BinOp(UInt(16), "shr", ir.BinOp(UInt(16), "add", p, q), one)  # noqa: E731
    return ir.Select(UInt(16), closer, mean(a, b), mean(c, d))


def test_a_kernel_comparing_absolute_differences_is_proved_quickly(tmp_path):
    require_tools("yosys")
    names = [f"g{i}" for i in range(12)]
    greens = [_green(tuple(names[k:k + 4])) for k in (0, 4, 8)]
    # green minus the mean of two interpolations plus a red mean: the demosaic's shape, with three comparisons
    mean = ir.BinOp(UInt(16), "shr", ir.BinOp(UInt(16), "add", greens[1], greens[2]), ir.Const(UInt(16), 1))
    out = ir.BinOp(UInt(16), "add", ir.BinOp(UInt(16), "sub", greens[0], mean), read_port("r", UInt(16)))
    kernel = Kernel("k_demosaic_like", tuple((n, UInt(16)) for n in [*names, "r"]), (("out", out),))
    text = kernel_verilog(json.loads(kernel_json(kernel)))
    proof = prove_kernel(kernel, text, ProofCache(tmp_path), timeout=20)
    assert proof.status == "proved" and proof.seconds < 10, proof


def _sobel(width=10, height=6):
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(8), 2, "image")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.i16(image[x, y])

    def p(dx, dy):
        return hw_input[x + dx + 1, y + dy + 1]

    mag = hl.Func("mag")
    gx = (p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1))
    gy = (p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1))
    mag[x, y] = hl.u16(hl.abs(gx) + hl.abs(gy))
    accelerate(mag, mag, width, height, [], hw_input)
    return mag


def test_an_output_range_bounded_by_its_last_registers_is_proved_quickly(tmp_path):
    """Sobel's |gx| + |gy| of 8-bit pixels is promised within [0, 2040]: over the whole module z3 found no answer
    in 30 s; on the cut view (the last stage's registers each within [0, 1020], which they are proved to hold) the
    bound is immediate."""
    require_tools("yosys")
    design = hl.compile(_sobel(), name="sobel_mag", prove=False)
    proofs = prove_design(design, cache_dir=tmp_path, timeout=20)
    mag = [p for p in proofs if "mag" in p.module]
    assert len(mag) == 1 and "out in [0, 2040]" in module_text(design.verilog, mag[0].module), proofs
    assert mag[0].status == "proved" and mag[0].seconds < 10, mag[0]


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
@pytest.mark.parametrize("op", ["div", "mod"])
def test_a_division_of_narrow_values_is_written_narrow_and_is_the_same_function(op, signed):
    """16-bit operands of 8 significant bits divide as 8-bit unsigned values (x / 0 == x % 0 == 0 kept); an
    operand that may be negative (or, unsigned, take 16 bits) keeps the division of the whole width."""
    x, y = z3.BitVec("x", 8), z3.BitVec("y", 8)
    for a, b, narrow in ((z3.ZeroExt(8, x), z3.ZeroExt(8, y), True), (z3.SignExt(8, x), z3.ZeroExt(8, y), False)):
        got = narrowed_division(op, a, b, signed)
        sizes = {t.size() for t in _divisions(got)}
        assert sizes == ({8} if narrow else {16}), sizes
        solver = z3.SolverFor("QF_BV")
        solver.add(got != euclidean(op, a, b, signed))
        assert solver.check() == z3.unsat


def test_a_netlists_division_of_narrow_values_is_written_narrow_and_is_the_same_function():
    """SMT-LIB's x / 0 (all ones) is kept where the divisor may be 0, and needs no case where it may not."""
    x, y = z3.BitVec("x", 8), z3.BitVec("y", 8)
    a, b, nonzero = z3.ZeroExt(8, x), z3.ZeroExt(8, y), z3.ZeroExt(8, y) + 1
    for term in (z3.UDiv(a, b), z3.URem(a, b), z3.UDiv(a, nonzero), z3.UDiv(z3.UDiv(a, nonzero), b) + a):
        got = narrowed_divisions(term)
        assert all(t.size() < 16 for t in _divisions(got)), got
        solver = z3.SolverFor("QF_BV")
        solver.add(got != term)
        assert solver.check() == z3.unsat


def _divisions(term):
    kinds = (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I, z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I, z3.Z3_OP_BSDIV, z3.Z3_OP_BSREM,
             z3.Z3_OP_BSDIV_I, z3.Z3_OP_BSREM_I)
    return [t for t in post_order(term) if t.decl().kind() in kinds]
