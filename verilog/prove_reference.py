"""A kernel's expression as z3 bit-vector terms: the reference side of a kernel proof.

Written from the frontend's semantics (`frontend/ir.py`'s notes, `frontend/semantics.py`), not from
`compute_json`: values are their types' bit patterns (Bool is one bit); arithmetic wraps; `div`/`mod` are
Euclidean with x / 0 == x % 0 == 0, built from SMT-LIB's truncating bvsdiv/bvsrem (or bvudiv/bvurem) and a
sign fix-up; a cast extends by the source's signedness or truncates (to Bool: bit 0); a negative signed shift
amount shifts the other way by its wrapped magnitude, and amounts of the width or more shift everything out
(SMT-LIB's shifts do that too); `abs`/`absd` give the exact magnitude as the unsigned type.
Loads, scalar Params and coordinates are the kernel's input ports: the netlist's input terms are used for them,
so both sides read the same free variables. A ROM read (`hwlower.ir.Rom`) is the table entry at the linear
index of its coordinates, x fastest; its coordinates lying inside the table's box is a precondition (Halide
has no value for a read outside it, and bounds inference keeps reads inside).
A division whose operands interval arithmetic keeps within [0, 2**k), k under their width, is an unsigned
division of k bits (`narrowed_division`), as compute JSON places it on narrow PEs; the netlist's unsigned divisions
are narrowed alike (`narrowed_divisions`), so both sides divide alike.
Division by a constant is replaced by its lowering, shifts or a multiply-high sequence
(`prove_lemmas.division_term`), and the lemma saying they are equal is recorded for the caller to prove.
Shifts and multiplies by constant powers of two are written as bit selects, the form Yosys writes them in:
the same function, but terms that differ in form can cost z3 its time limit to compare.
"""

from __future__ import annotations

import z3

from mainspring.frontend import ir
from mainspring.hwlower.ir import Rom

from .prove_intervals import bound, window
from .prove_lemmas import Lemma, division_term, needs_lemma


class Unsupported(Exception):
    """The expression has a node the prover has no bit-vector meaning for (a float, a math call)."""


class Reference:
    """Translate expressions of one kernel; `preconditions` and `lemmas` collect what the result relies on.
    `use_lemmas=False` keeps every division as a division (slow when wide, but independent of any lemma)."""

    def __init__(self, inputs: dict[str, z3.BitVecRef], use_lemmas: bool = True):
        self.inputs = inputs
        self.use_lemmas = use_lemmas
        self.preconditions: list[z3.BoolRef] = []
        self.lemmas: set[Lemma] = set()
        self.memo: dict[int, z3.BitVecRef] = {}
        # input port -> the values a table read directly at it allows (what its precondition implies)
        self.bounds: dict[str, tuple[int, int]] = {}

    def term(self, expr: ir.Expr) -> z3.BitVecRef:
        for node in ir.walk(expr):
            if id(node) not in self.memo:
                if node.type.is_float():
                    raise Unsupported(f"float value {ir.to_string(node)[:80]}")
                method = getattr(self, "_" + type(node).__name__, None)
                if method is None:
                    raise Unsupported(f"no bit-vector meaning for IR node {type(node).__name__}")
                self.memo[id(node)] = method(node)
        return self.memo[id(expr)]

    def _of(self, e: ir.Expr) -> z3.BitVecRef:
        return self.memo[id(e)]

    def _Const(self, e: ir.Const) -> z3.BitVecRef:  # noqa: N802 - named for the IR class
        return z3.BitVecVal(int(e.value) % (1 << e.type.bits()), e.type.bits())

    def _Call(self, e: ir.Call) -> z3.BitVecRef:  # noqa: N802
        if isinstance(e.callee, Rom):
            return self._rom(e)
        if e.args:
            raise Unsupported(f"a load with arguments in a kernel: {ir.to_string(e)[:80]}")
        port = self.inputs.get(e.callee.name)
        if port is None or port.size() != e.type.bits():
            raise Unsupported(f"'{e.callee.name}' is not a {e.type.bits()}-bit input port of the module")
        return port

    def _rom(self, e: ir.Call) -> z3.BitVecRef:
        rom: Rom = e.callee
        index, stride = z3.BitVecVal(0, 64), 1
        for arg, (lo, extent) in zip(e.args, rom.box):
            c = _extend(self._of(arg), arg.type, 64)
            self.preconditions.append(z3.And(c >= lo, c < lo + extent))
            if isinstance(arg, ir.Call) and not arg.args and arg.callee.name in self.inputs:
                was = self.bounds.get(arg.callee.name, (lo, lo + extent - 1))
                self.bounds[arg.callee.name] = (max(was[0], lo), min(was[1], lo + extent - 1))
            index = index + (c - lo) * stride
            stride *= extent
        w = e.type.bits()
        bits = max(1, (len(rom.values) - 1).bit_length())
        entries = [z3.BitVecVal(v % (1 << w), w) for v in rom.values]
        # Past the end: never chosen, as the precondition keeps the index inside the table.
        entries += [z3.BitVecVal(0, w)] * ((1 << bits) - len(entries))
        return _lookup(entries, z3.Extract(bits - 1, 0, index))

    def _Cast(self, e: ir.Cast) -> z3.BitVecRef:  # noqa: N802
        x, src, w = self._of(e.value), e.value.type, e.type.bits()
        if w > src.bits():
            return _extend(x, src, w)
        return z3.Extract(w - 1, 0, x) if w < src.bits() else x

    def _UnOp(self, e: ir.UnOp) -> z3.BitVecRef:  # noqa: N802
        x = self._of(e.a)
        if e.op == "not":
            return ~x
        if e.op == "abs":
            return z3.If(x < 0, -x, x) if e.a.type.is_int() else x
        raise Unsupported(f"unary {e.op} on {e.a.type}")

    def _Select(self, e: ir.Select) -> z3.BitVecRef:  # noqa: N802
        return z3.If(self._of(e.cond) == 1, self._of(e.true_value), self._of(e.false_value))

    def _BinOp(self, e: ir.BinOp) -> z3.BitVecRef:  # noqa: N802
        a, b, t = self._of(e.a), self._of(e.b), e.a.type
        signed = t.is_int()
        arithmetic = {"add": a + b, "sub": a - b, "mul": _times(a, b), "and": a & b, "or": a | b, "xor": a ^ b}
        if e.op in arithmetic:
            return arithmetic[e.op]
        if e.op in ("div", "mod"):
            return self._divide(e.op, a, b, signed)
        if e.op in ("shl", "shr"):
            return _shift(e.op, a, b, t.is_int(), e.b.type.is_int())
        less = (a < b) if signed else z3.ULT(a, b)
        greater = (a > b) if signed else z3.UGT(a, b)
        if e.op in ("min", "max"):
            return z3.If(less if e.op == "min" else greater, a, b)
        if e.op == "absd":
            # max - min, as the kernels compute it: equal to a > b ? a - b : b - a (proved in
            # tests/verilog/test_prove_hard_kernels.py), but z3 need not split each subtraction in two to match
            # them; camera's demosaic, comparing absolute differences, went from no answer in 30 s to 0.02 s.
            return z3.If(greater, a, b) - z3.If(less, a, b)
        compare = {"eq": a == b, "ne": a != b, "lt": less, "gt": greater,
                   "le": z3.Not(greater), "ge": z3.Not(less)}
        return z3.If(compare[e.op], z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))

    def _divide(self, op: str, a, b, signed: bool) -> z3.BitVecRef:
        divisor = z3.simplify(b)  # a divisor folding makes constant is a constant to compute_json too
        if self.use_lemmas and z3.is_bv_value(divisor):
            d = divisor.as_signed_long() if signed else divisor.as_long()
            if d != 0 and needs_lemma(d):
                self.lemmas.add(Lemma(a.size(), d, signed, op))
                return division_term(a, d, signed, op)
        return narrowed_division(op, a, b, signed)


def narrowed_division(op: str, a, b, signed: bool) -> z3.BitVecRef:
    """`euclidean(op, a, b, signed)`, as an unsigned division of fewer bits where interval arithmetic
    (`prove_intervals`) keeps both operands within [0, 2**k) for k under their width: there the Euclidean and
    the unsigned quotient and remainder agree, and they fit k bits. Compute JSON divides such values on narrow
    PEs: contrast_stretch's int32 quotient of u16 values is a 16-bit udiv in the netlist, which z3 compared with
    a 32-bit signed division bit by bit and found no answer in 30 s."""
    w = a.size()
    ends = [window(bound(t, {}), w, signed) for t in (a, b)]
    k = max(1, *(hi.bit_length() for _, hi in ends))
    if k >= w or min(lo for lo, _ in ends) < 0:
        return euclidean(op, a, b, signed)
    a, b = z3.Extract(k - 1, 0, a), z3.Extract(k - 1, 0, b)
    quotient = z3.ZeroExt(w - k, z3.UDiv(a, b) if op == "div" else z3.URem(a, b))
    return z3.If(b == 0, z3.BitVecVal(0, w), quotient)  # the guard outside, as the netlist's mux has it


UNSIGNED_DIVISIONS = {z3.Z3_OP_BUDIV: "div", z3.Z3_OP_BUDIV_I: "div", z3.Z3_OP_BUREM: "mod", z3.Z3_OP_BUREM_I: "mod"}


def narrowed_divisions(term: z3.BitVecRef) -> z3.BitVecRef:
    """`term` (a netlist's) with each unsigned division or remainder whose operands interval arithmetic keeps
    within k bits, under their width, written over k bits as `narrowed_division` writes the reference's: the same
    function (SMT-LIB's x / 0, all ones, kept), so that both sides divide alike (bilateral_lut's u32 quotient of
    a 17-bit sum by a 9-bit one)."""
    found = [t for t in post_order(term) if t.decl().kind() in UNSIGNED_DIVISIONS]
    pairs: list = []
    memo: dict = {}
    for t in found:
        a, b = (z3.substitute(c, *pairs) if pairs else c for c in t.children())
        w = a.size()
        k = max(1, *(window(bound(c, {}, memo), w, False)[1].bit_length() for c in (a, b)))
        if k < w:
            op = UNSIGNED_DIVISIONS[t.decl().kind()]
            small = z3.ZeroExt(w - k, (z3.UDiv if op == "div" else z3.URem)(z3.Extract(k - 1, 0, a),
                                                                               z3.Extract(k - 1, 0, b)))
            exact = op == "mod" or window(bound(b, {}, memo), w, False)[0] > 0  # else x / 0 is all ones
            pairs.append((t, small if exact else z3.If(b == 0, z3.BitVecVal(-1, w), small)))
    return z3.substitute(term, *pairs) if pairs else term


def post_order(*terms: z3.ExprRef) -> list:
    """The subterms of `terms`, each once, every one after its operands."""
    out: list = []
    seen: set = set()
    stack = [(t, False) for t in reversed(terms)]
    while stack:
        t, ready = stack.pop()
        if ready:
            out.append(t)
        elif t.get_id() not in seen:
            seen.add(t.get_id())
            stack.append((t, True))
            stack.extend((c, False) for c in t.children())
    return out


def euclidean(op: str, a, b, signed: bool) -> z3.BitVecRef:
    """Halide's a / b or a % b: Euclidean (the remainder is never negative), 0 when b == 0."""
    zero = z3.BitVecVal(0, a.size())
    if not signed:
        result = z3.UDiv(a, b) if op == "div" else z3.URem(a, b)
        return z3.If(b == 0, zero, result)
    q, r = a / b, z3.SRem(a, b)  # truncated toward zero; r has a's sign
    # A negative remainder moves to [0, |b|): the quotient steps away from zero by one, toward b's opposite.
    fix = r < 0
    result = (z3.If(fix, z3.If(b > 0, q - 1, q + 1), q) if op == "div"
              else z3.If(fix, z3.If(b > 0, r + b, r - b), r))
    return z3.If(b == 0, zero, result)


def _lookup(entries: list, index) -> z3.BitVecRef:
    """entries[index] for 2**k entries, decided bit by bit from the index's lowest (a balanced tree: an
    if-chain comparing the index with each position is the same function but far slower for z3)."""
    level, bit = entries, 0
    while len(level) > 1:
        chosen = z3.Extract(bit, bit, index) == 1
        level = [z3.If(chosen, level[i + 1], level[i]) for i in range(0, len(level), 2)]
        bit += 1
    return level[0]


def _times(a, b) -> z3.BitVecRef:
    """a * b; by a constant power of two, as the shift it equals (mod 2**w), the form the netlist has."""
    for x, c in ((a, z3.simplify(b)), (b, z3.simplify(a))):
        if z3.is_bv_value(c) and c.as_long() and c.as_long() & (c.as_long() - 1) == 0:
            return _shift_by("shl", x, z3.BitVecVal(c.as_long().bit_length() - 1, x.size()))
    return a * b


def _extend(x, t, width: int):
    return (z3.SignExt if t.is_int() else z3.ZeroExt)(width - t.bits(), x)


def _shift(op: str, a, b, a_signed: bool, b_signed: bool):
    def forward(amount):
        return _shift_by("shl" if op == "shl" else ("ashr" if a_signed else "lshr"), a, amount)

    def backward(amount):
        return _shift_by("shl" if op == "shr" else ("ashr" if a_signed else "lshr"), a, amount)

    if not b_signed:
        return forward(b)
    # -b wraps for the most negative amount to itself, which as an unsigned amount is past the width.
    return z3.If(b < 0, backward(-b), forward(b))


def _shift_by(kind: str, a, amount):
    """a shifted by the unsigned `amount`. By a constant, written as bit selects: that is how Yosys writes
    constant shifts, and z3 does not rewrite an arithmetic shift into that form, so the terms would not meet."""
    amount = z3.simplify(amount)
    if not z3.is_bv_value(amount):
        return {"shl": a << amount, "ashr": a >> amount, "lshr": z3.LShR(a, amount)}[kind]
    w, k = a.size(), amount.as_long()
    if k == 0:
        return a
    if kind == "ashr":
        k = min(k, w - 1)  # past the width, every bit is the sign
        return z3.SignExt(k, z3.Extract(w - 1, k, a))
    if k >= w:
        return z3.BitVecVal(0, w)
    if kind == "lshr":
        return z3.ZeroExt(k, z3.Extract(w - 1, k, a))
    return z3.Concat(z3.Extract(w - k - 1, 0, a), z3.BitVecVal(0, k))
