"""Every binary operator and function over every pair of types (and against Python int literals), with
Halide and with mainspring: the same result type, the same error-or-not, and the same values bit for bit.

The values of one left-hand type are computed in one Func `f[x, y, k]` that muxes over the (right type,
operator) combinations, each cast to UInt(32) (injective for every type here), so Halide compiles once per
left-hand type.
"""

from __future__ import annotations

import numpy as np
import pytest

import mainspring

pytestmark = pytest.mark.oracle

TYPES = ["bool", "uint8", "uint16", "uint32", "int8", "int16", "int32"]
DTYPES = {"bool": np.bool_, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32,
          "int8": np.int8, "int16": np.int16, "int32": np.int32}
W, H = 16, 8

OPS = {
    "+": lambda hl, a, b: a + b, "-": lambda hl, a, b: a - b, "*": lambda hl, a, b: a * b,
    "/": lambda hl, a, b: a / b, "%": lambda hl, a, b: a % b, "//": lambda hl, a, b: a // b,
    "<": lambda hl, a, b: a < b, "<=": lambda hl, a, b: a <= b, ">": lambda hl, a, b: a > b,
    ">=": lambda hl, a, b: a >= b, "==": lambda hl, a, b: a == b, "!=": lambda hl, a, b: a != b,
    "&": lambda hl, a, b: a & b, "|": lambda hl, a, b: a | b, "^": lambda hl, a, b: a ^ b,
    "min": lambda hl, a, b: hl.min(a, b), "max": lambda hl, a, b: hl.max(a, b),
    "absd": lambda hl, a, b: hl.absd(a, b), "select": lambda hl, a, b: hl.select(a == a, a, b),  # noqa: PLR0124 - an Expr
    "clamp": lambda hl, a, b: hl.clamp(a, b, b),
}
SHIFTS = {"<<": lambda hl, a, b: a << b, ">>": lambda hl, a, b: a >> b}
LITERALS = [0, 1, 2, 7, 127, 128, 255, 256, -1, -128, -129, 32767, 65535, 65536, 2**31 - 1, -(2**31)]


def _type(hl, name):
    return hl.Bool() if name == "bool" else (hl.UInt if name.startswith("u") else hl.Int)(int(name.lstrip("uint")))


def _bits(name):
    return 1 if name == "bool" else int(name.lstrip("uint"))


def _values(name, shift_amounts=False):
    rng = np.random.default_rng(TYPES.index(name) + (100 if shift_amounts else 0))
    if name == "bool":
        return rng.integers(0, 2, size=(H, W)).astype(np.bool_) if not shift_amounts else np.zeros((H, W), np.bool_)
    info = np.iinfo(DTYPES[name])
    if shift_amounts:  # within (-8, 8): valid for every width
        lo = -7 if info.min < 0 else 0
        return rng.integers(lo, 8, size=(H, W)).astype(DTYPES[name])
    lo, hi = int(info.min), int(info.max)
    if name in ("int32", "uint32"):  # keep int32 arithmetic clear of overflow, which Halide leaves undefined
        lo, hi = max(lo, 1 - (1 << 15)), min(hi, (1 << 15) - 1)
    v = rng.integers(lo, hi + 1, size=(H, W), dtype=np.int64)
    v[0, :6] = [lo, hi, 0, 1, lo + 1 if lo < 0 else 2, -1 if lo < 0 else hi - 1]
    return v.astype(DTYPES[name])


INPUTS = {name: _values(name) for name in TYPES}
AMOUNTS = {name: _values(name, shift_amounts=True) for name in TYPES}


def _inputs(hl):
    x, y = hl.Var("x"), hl.Var("y")
    loads = {}
    for name in TYPES:
        for tag, arrays in (("v", INPUTS), ("s", AMOUNTS)):
            p = hl.ImageParam(_type(hl, name), 2, f"{tag}_{name}")
            p.set(hl.Buffer(arrays[name]))
            loads[tag, name] = p[x, y]
    return x, y, loads


def _build(hl, build):
    try:
        e = build()
    except Exception as exc:  # noqa: BLE001 - comparing whether Halide raises at all
        return None, type(exc).__name__
    return e, str(e.type())


def _cases(hl, left, loads):
    """(name, build, realize): `realize` is False where only the type (or the error) is compared, because
    the value would overflow int32, which Halide leaves undefined (and refuses when it constant-folds)."""
    a = loads["v", left]
    for right in TYPES:
        for op, fn in OPS.items():
            yield f"{left} {op} {right}", lambda fn=fn, right=right: fn(hl, a, loads["v", right]), True
        for op, fn in SHIFTS.items():
            yield f"{left} {op} {right}", lambda fn=fn, right=right: fn(hl, a, loads["s", right]), True
    for lit in LITERALS:
        # Values with a literal are those of the pair table once the literal has a type, so only a few are
        # realized (each realized case costs Halide compile time); types and errors are compared for all.
        realize = lit in (-1, 7, 255)
        for op, fn in OPS.items():
            if op not in ("select", "clamp"):
                yield f"{left} {op} {lit}", lambda fn=fn, lit=lit: fn(hl, a, lit), realize and op != "//"
                yield f"{lit} {op} {left}", lambda fn=fn, lit=lit: fn(hl, lit, a), realize and op != "//"
        for op, fn in SHIFTS.items():
            # amounts of the left operand's width or more are undefined (a Bool shifts by 0 only)
            yield f"{left} {op} {lit}", lambda fn=fn, lit=lit: fn(hl, a, lit), abs(lit) < min(8, _bits(left))
    for unary, fn in (("-", lambda: -a), ("~", lambda: ~a), ("abs", lambda: hl.abs(a))):
        yield f"{unary}{left}", fn, True
    for target in TYPES:
        yield f"cast<{target}>({left})", lambda t=target: hl.cast(_type(hl, t), a), True
        yield f"saturating_cast<{target}>({left})", lambda t=target: hl.saturating_cast(_type(hl, t), a), True


def _realize_all(hl, left):
    x, y, loads = _inputs(hl)
    k = hl.Var("k")
    names, types, exprs, realized = [], [], [], []
    for name, build, realize in _cases(hl, left, loads):
        e, t = _build(hl, build)
        names.append(name)
        types.append(t)
        if e is not None and realize:
            exprs.append(hl.cast(hl.UInt(32), e))
            realized.append(name)
    f = hl.Func("pairs")
    f[x, y, k] = hl.mux(k, exprs)
    return names, types, realized, np.asarray(f.realize([W, H, len(exprs)]))


@pytest.mark.parametrize("left", TYPES)
def test_every_operator_and_type_pair(left, halide):
    names, h_types, built, h_values = _realize_all(halide, left)
    _, m_types, _, m_values = _realize_all(mainspring, left)
    bad_types = [f"{n}: Halide {h}, mainspring {m}" for n, h, m in zip(names, h_types, m_types)
                 if (h in TYPES) != (m in TYPES) or (h in TYPES and h != m)]
    assert not bad_types, "result types (or raising) differ:\n" + "\n".join(bad_types)
    assert h_values.shape == m_values.shape and h_values.dtype == m_values.dtype
    wrong = [f"{built[i]}: first difference at (y, x) = {tuple(np.argwhere(h_values[i] != m_values[i])[0])}"
             for i in range(len(built)) if not np.array_equal(h_values[i], m_values[i])]
    assert not wrong, "values differ:\n" + "\n".join(wrong)
