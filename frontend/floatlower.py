"""The float parts of an expression in the form Halide 21's CPU code computes them, for the reference evaluator.

Float arithmetic is not associative, so the reference must group operations the way Halide's compiled code
does, not the way the user wrote them. What Halide (simplifier, then LLVM with fast-math `reassoc` and
`contract` flags, on an FMA-capable x86 host) does, and what `halide_form` reproduces:
- Pure float Funcs with the default (inline) schedule are inlined into their callers, so their operations
  fold, merge and contract together with the caller's.
- Constant subexpressions fold: float operations in double precision rounded to the type (the same bits as
  the IEEE operation for + - * / sqrt); exp, log and pow of a constant use the C library's double-precision
  function rounded to the type, not Halide's run-time polynomial.
- Division by a float constant is multiplication by its rounded reciprocal; `0 - x` is a negation (no
  signed zeros: -x of +0 is -0).
- Constants of a chain of additions (or of multiplications) merge: (x + c1) + c2 is x + (c1 + c2).
- `a*b + c`, `a*b - c` and `c - a*b` are one fused multiply-add when the product is used once (after common
  subexpression elimination); in `a*b + c*d` the left product fuses.
LLVM's reassociation goes further on some shapes (it factors `a - a*b` into `a*(1 - b)`, moves constants
inside products), which this does not model: such expressions can differ from Halide in the last bit.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from . import ir, semantics
from .floatmath import libm

FmaPlan = dict[int, tuple[ir.Expr, ir.Expr, bool, bool]]  # id(add/sub) -> (product, addend, -product, -addend)


def has_float(e: ir.Expr) -> bool:
    return any(n.type.is_float() for n in ir.walk(e))


def halide_form(e: ir.Expr, pipe) -> tuple[ir.Expr, FmaPlan]:
    """e rewritten as Halide computes it, and where its additions are fused multiply-adds."""
    e = _inline(e, pipe)
    e = ir.transform(e, _simplify)
    return e, _fma_plan(e)


def _inlinable(callee, pipe) -> bool:
    from .func import Function

    if not isinstance(callee, Function) or pipe.is_output(callee) or not callee.type.is_float():
        return False
    defs = pipe.definitions(callee)
    return len(defs) == 1 and defs[0].rdom is None and callee.placement.compute.kind == "inline"


def _inline(e: ir.Expr, pipe) -> ir.Expr:
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.Call) and n.args and _inlinable(n.callee, pipe):
            d = pipe.definitions(n.callee)[0]
            body = ir.substitute(d.value, {a.name: k for a, k in zip(d.args, kids)})
            return _inline(body, pipe)
        return ir.rebuild(n, kids)

    return ir.transform(e, go)


def _simplify(n: ir.Expr, kids: tuple) -> ir.Expr:
    n = ir.rebuild(n, kids)
    if kids and all(isinstance(k, ir.Const) for k in kids) and not isinstance(n, ir.Call):
        return _fold(n)
    if not (isinstance(n, ir.BinOp) and n.type.is_float()):
        return n
    if n.op == "div" and isinstance(n.b, ir.Const) and n.b.value != 0 and np.isfinite(n.b.value):
        n = ir.BinOp(n.type, "mul", n.a, ir.Const(n.type, n.type.wrap(1.0 / n.b.value)))
    if n.op == "sub" and isinstance(n.a, ir.Const) and n.a.value == 0:
        return ir.UnOp(n.type, "neg", n.b)
    return _merge_constants(n)


def _const_operand(e: ir.Expr, op: str):
    """(x, c) when e is `x op c` (or `c op x`; `x - c` counts as `x + -c`), else None."""
    if not isinstance(e, ir.BinOp):
        return None
    if e.op == op or (op == "add" and e.op == "sub"):
        sign = -1.0 if e.op == "sub" else 1.0
        if isinstance(e.b, ir.Const):
            return e.a, e.b.value * sign
        if isinstance(e.a, ir.Const) and e.op == op:
            return e.b, e.a.value
    return None


def _merge_constants(n: ir.BinOp) -> ir.Expr:
    op = "add" if n.op in ("add", "sub") else n.op
    if op not in ("add", "mul"):
        return n
    outer = _const_operand(n, op)
    if outer is None:
        return n
    inner = _const_operand(outer[0], op)
    if inner is None:
        return n
    c = inner[1] + outer[1] if op == "add" else inner[1] * outer[1]
    return ir.BinOp(n.type, op, inner[0], ir.Const(n.type, n.type.wrap(c)))


def _fold(n: ir.Expr) -> ir.Expr:
    """A node whose operands are constants, as Halide's simplifier folds it."""
    vals = [k.value for k in ir.children(n)]
    if isinstance(n, ir.MathCall) and (n.name in ("exp", "log", "pow") or n.name in ir.LIBM_FUNCS):
        v = float(libm(n.name, *vals))
    elif isinstance(n, ir.MathCall) and n.name == "fast_log_sum":  # Halide's simplifier folds it op by op, as written
        a, b, c, d, e = (n.type.dtype.type(v) for v in vals)
        v = float((a * b + c * d) + e)
    elif isinstance(n, ir.BinOp) and n.op == "mod" and n.type.is_float():
        a, b = vals
        v = a - b * np.floor(a / b) if b != 0 else float("nan")
    else:
        v = _evaluate_constant(n, vals)
    if n.type.is_float():
        return ir.Const(n.type, n.type.wrap(float(v)))
    return ir.Const(n.type, int(v))


def _evaluate_constant(n: ir.Expr, vals: list):
    if isinstance(n, ir.Cast):
        return semantics.cast(semantics.carry(vals[0], n.value.type), n.value.type, n.type)
    if isinstance(n, ir.BinOp):
        a, b = (semantics.carry(v, n.a.type) for v in vals)
        return semantics.binop(n.op, n.type, n.a.type, a, b)
    if isinstance(n, ir.UnOp):
        return semantics.unop(n.op, n.type, semantics.carry(vals[0], n.a.type))
    if isinstance(n, ir.Select):
        return vals[1] if vals[0] else vals[2]
    if isinstance(n, ir.MathCall):
        return semantics.math_call(n.name, n.type, *vals)
    raise AssertionError(f"cannot fold {type(n).__name__}")


def _fma_plan(e: ir.Expr) -> FmaPlan:
    uses = _use_counts(e)
    keys: dict[int, object] = {}
    for n in ir.walk(e):
        keys[id(n)] = ir.structural_key(n, keys)
    plan: FmaPlan = {}

    def product(x: ir.Expr):
        """(the product, negated?) when x is a once-used product or the negation of one."""
        negated = isinstance(x, ir.UnOp) and x.op == "neg" and uses[keys[id(x)]] == 1
        p = x.a if negated else x
        if isinstance(p, ir.BinOp) and p.op == "mul" and uses[keys[id(p)]] == 1:
            return p, negated
        return None

    # strict_float: IEEE operations, each rounded, so nothing under it is contracted
    strict = {id(k) for n in ir.walk(e) if isinstance(n, ir.MathCall) and n.name == "strict_float"
              for k in ir.walk(n)}
    for n in ir.walk(e):
        if not (isinstance(n, ir.BinOp) and n.type.is_float() and n.op in ("add", "sub")) or id(n) in strict:
            continue
        left, right = product(n.a), product(n.b)
        if left is not None and right is not None and n.op == "add" and not _by_constant(left[0], right[0]):
            # Of a sum of two products LLVM fuses the right one (a*b + c*d is fma(c, d, a*b)), after Halide's
            # simplifier moved a product by a constant to the right (a*3 + b*b is fma(a, 3, b*b)); of a
            # difference, the left one (checked against Halide 21: tests/frontend/test_programs_trig.py)
            plan[id(n)] = (right[0], n.a, right[1], False)
        elif left is not None:
            plan[id(n)] = (left[0], n.b, left[1], n.op == "sub")
        elif right is not None:
            plan[id(n)] = (right[0], n.a, right[1] != (n.op == "sub"), False)
    return plan


def _by_constant(p: ir.BinOp, q: ir.BinOp) -> bool:
    """Whether product p has a constant factor and q none."""
    def constant(m: ir.BinOp) -> bool:
        return isinstance(m.a, ir.Const) or isinstance(m.b, ir.Const)

    return constant(p) and not constant(q)


def _use_counts(e: ir.Expr) -> Counter:
    """How many distinct parent expressions use each distinct subexpression (Halide's CSE shares equal ones)."""
    memo: dict = {}
    parents: set = set()
    uses: Counter = Counter()
    for n in ir.walk(e):
        key = ir.structural_key(n, memo)
        if key in parents:
            continue
        parents.add(key)
        for c in ir.children(n):
            uses[memo[id(c)]] += 1
    return uses
