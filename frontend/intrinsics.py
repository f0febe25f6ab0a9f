"""Halide 21's integer intrinsics (`hl.lerp`, `hl.saturating_add`, `hl.rounding_shift_right`, `hl.popcount`, ...),
built from the IR's plain operations, so that the reference, the constant folder and the hardware need nothing new.

Each is written so that no intermediate value overflows its type (the PEs and the reference wrap, and Halide's own
lowering never relies on wrapping either), and each agrees with Halide 21 bit for bit on every input the tests
enumerate (tests/frontend/test_intrinsics.py runs Halide's JIT beside the reference). Where Halide computes in a
type twice as wide (a widening op of 32-bit values, a lerp of 32-bit values), that type is 64 bits wide, which
mainspring does not have: a HalideError says so.
"""

from __future__ import annotations

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, cast_ir, make_const, match_types, to_ir
from .operators import saturating_cast
from .types import BOOL, INT, UINT, Type


def _k(t: Type, v: int) -> ir.Expr:
    return make_const(t, v)


def _op(op: str, x: ir.Expr, y: ir.Expr) -> ir.Expr:
    return ir.BinOp(BOOL if op in ir.COMPARISONS else x.type, op, x, y)


def _sel(c: ir.Expr, a: ir.Expr, b: ir.Expr) -> ir.Expr:
    return ir.Select(a.type, c, a, b)


def _integers(name: str, *args) -> list[ir.Expr]:
    """The arguments as IR, matched to one type (Halide's match_types), which must be an integer type."""
    xs = [to_ir(a, name) for a in args]
    if len(xs) == 2:
        xs = list(match_types(xs[0], xs[1]))
    _check_integers(name, xs)
    return xs


def _check_integers(name: str, xs: list[ir.Expr]) -> None:
    for x in xs:
        if x.type.is_float() or x.type.is_bool():
            raise HalideError(f"{user_location()}: hl.{name} takes integer values, but {ir.to_string(x)} is "
                              f"{x.type}; cast it to an integer type first (e.g. hl.i32(...))")


def _wide(name: str, t: Type, code: str | None = None, shown: Type | None = None) -> Type:
    if t.bits() >= 32:
        raise HalideError(
            f"{user_location()}: hl.{name} of {shown or t} values computes in a {2 * t.bits()}-bit type, which "
            "mainspring does not support (integers of at most 32 bits); use 8- or 16-bit operands, or write the "
            "arithmetic in 32 bits with explicit casts")
    return Type(code or t.code, 2 * t.bits())


# ---- saturating and halving arithmetic ----------------------------------------------------------------

def saturating_add(a, b) -> Expr:
    """a + b, clamped to the type's range instead of wrapping."""
    x, y = _integers("saturating_add", a, b)
    t, s = x.type, _op("add", x, y)
    if t.is_uint():
        return Expr(_sel(_op("gt", x, _op("sub", _k(t, t.max()), y)), _k(t, t.max()), s))
    over = _sel(_op("gt", x, _op("sub", _k(t, t.max()), y)), _k(t, t.max()), s)  # y > 0: only upward
    under = _sel(_op("lt", x, _op("sub", _k(t, t.min()), y)), _k(t, t.min()), s)  # y <= 0: only downward
    return Expr(_sel(_op("gt", y, _k(t, 0)), over, under))


def saturating_sub(a, b) -> Expr:
    """a - b, clamped to the type's range instead of wrapping."""
    x, y = _integers("saturating_sub", a, b)
    t, d = x.type, _op("sub", x, y)
    if t.is_uint():
        return Expr(_sel(_op("lt", x, y), _k(t, 0), d))
    under = _sel(_op("lt", x, _op("add", _k(t, t.min()), y)), _k(t, t.min()), d)  # y > 0
    over = _sel(_op("gt", x, _op("add", _k(t, t.max()), y)), _k(t, t.max()), d)  # y <= 0
    return Expr(_sel(_op("gt", y, _k(t, 0)), under, over))


def _halves(op: str, x: ir.Expr, y: ir.Expr, low: ir.Expr) -> Expr:
    """(x >> 1) op (y >> 1) op (low & 1): a halving op of x and y, `low` carrying what their low bits add."""
    u1 = _k(x.type.with_code(UINT), 1)
    halves = _op(op, _op("shr", x, u1), _op("shr", y, u1))
    return Expr(_op(op, halves, _op("and", low, _k(x.type, 1))))


def halving_add(a, b) -> Expr:
    """floor((a + b) / 2) without the wider type: the halves plus the carry of the low bits."""
    x, y = _integers("halving_add", a, b)
    return _halves("add", x, y, _op("and", x, y))


def rounding_halving_add(a, b) -> Expr:
    """floor((a + b + 1) / 2): the halves plus 1 where either low bit is set."""
    x, y = _integers("rounding_halving_add", a, b)
    return _halves("add", x, y, _op("or", x, y))


def halving_sub(a, b) -> Expr:
    """floor((a - b) / 2), wrapped to the type as Halide narrows it: the halves less the borrow of the low bits."""
    x, y = _integers("halving_sub", a, b)
    return _halves("sub", x, y, _op("and", ir.UnOp(x.type, "not", x), y))


# ---- shifts ---------------------------------------------------------------------------------------------

def rounding_shift_right(a, b) -> Expr:
    """a >> b rounded to nearest, ties upward: (a >> b) + bit b - 1 of a; a negative b shifts left."""
    x = _integers("rounding_shift_right", a)[0]
    n = to_ir(b, "rounding_shift_right")
    if isinstance(n, ir.Const) and not n.type.is_float():
        return Expr(_rounding_shift_by(x, n.value))
    n = _shift_amount("rounding_shift_right", x, n)
    u1 = _k(n.type, 1)
    rounded = _op("add", _op("shr", x, n), _op("and", _op("shr", x, _op("sub", n, u1)), _k(x.type, 1)))
    return Expr(_sel(_op("eq", n, _k(n.type, 0)), x, rounded))


def rounding_shift_left(a, b) -> Expr:
    """a << b; a negative b is a rounding shift right."""
    x = _integers("rounding_shift_left", a)[0]
    n = to_ir(b, "rounding_shift_left")
    if isinstance(n, ir.Const) and not n.type.is_float():
        return Expr(_rounding_shift_by(x, -n.value))
    return Expr(_op("shl", x, _shift_amount("rounding_shift_left", x, n)))


def _rounding_shift_by(x: ir.Expr, n: int) -> ir.Expr:
    t, u = x.type, x.type.with_code(UINT)
    if n > t.bits() or n <= -t.bits():
        raise HalideError(
            f"{user_location()}: a rounding shift of a {t} value by {n} shifts out every bit, rounding bit "
            f"included (Halide leaves the result undefined); shift by -{t.bits() - 1} to {t.bits()}")
    if n <= 0:
        return _op("shl", x, _k(u, -n))
    high = _op("shr", x, _k(u, n)) if n < t.bits() else _sel(_op("lt", x, _k(t, 0)), _k(t, -1), _k(t, 0))
    return _op("add", high, _op("and", _op("shr", x, _k(u, n - 1)), _k(t, 1)))


def _shift_amount(name: str, x: ir.Expr, n: ir.Expr) -> ir.Expr:
    if not n.type.is_uint():
        raise HalideError(
            f"{user_location()}: hl.{name} by a shift amount that is not a constant must be unsigned here "
            f"({ir.to_string(n)} is {n.type}): a signed amount may be negative, which reverses the shift; "
            f"cast it (hl.cast(hl.UInt({x.type.bits()}), ...)) or use a constant")
    return cast_ir(x.type.with_code(UINT), n)


# ---- widening -------------------------------------------------------------------------------------------

def _widened_pair(name: str, a, b, code: str | None = None) -> tuple[ir.Expr, ir.Expr]:
    xs = [to_ir(v, name) for v in (a, b)]
    _check_integers(name, xs)
    bits = max(v.type.bits() for v in xs)
    signed = any(v.type.is_int() for v in xs)
    t = _wide(name, Type(INT if signed else UINT, bits), code or (INT if signed else UINT))
    return cast_ir(t, xs[0]), cast_ir(t, xs[1])


def widening_add(a, b) -> Expr:
    x, y = _widened_pair("widening_add", a, b)
    return Expr(_op("add", x, y))


def widening_sub(a, b) -> Expr:
    """a - b in the signed type twice as wide (the difference of unsigned values may be negative)."""
    x, y = _widened_pair("widening_sub", a, b, INT)
    return Expr(_op("sub", x, y))


def widening_mul(a, b) -> Expr:
    x, y = _widened_pair("widening_mul", a, b)
    return Expr(_op("mul", x, y))


def widening_shift_left(a, b) -> Expr:
    x = _integers("widening_shift_left", a)[0]
    return Expr(cast_ir(_wide("widening_shift_left", x.type), x)) << b


def widening_shift_right(a, b) -> Expr:
    x = _integers("widening_shift_right", a)[0]
    return Expr(cast_ir(_wide("widening_shift_right", x.type), x)) >> b


def _widen_right(name: str, op: str, a, b) -> Expr:
    x, y = to_ir(a, name), to_ir(b, name)
    if y.type.is_float() or x.type != Type(y.type.code, 2 * y.type.bits()):
        raise HalideError(f"{user_location()}: hl.{name}(a, b) needs a of the type twice as wide as b's; got "
                          f"{x.type} and {y.type}")
    return Expr(_op(op, x, cast_ir(x.type, y)))


def widen_right_add(a, b) -> Expr:
    return _widen_right("widen_right_add", "add", a, b)


def widen_right_sub(a, b) -> Expr:
    return _widen_right("widen_right_sub", "sub", a, b)


def widen_right_mul(a, b) -> Expr:
    return _widen_right("widen_right_mul", "mul", a, b)


def mul_shift_right(a, b, q) -> Expr:
    """saturating_cast(type of a, widening_mul(a, b) >> q)."""
    x, y = _integers("mul_shift_right", a, b)
    return saturating_cast(x.type, widening_mul(Expr(x), Expr(y)) >> q)


def rounding_mul_shift_right(a, b, q) -> Expr:
    """saturating_cast(type of a, rounding_shift_right(widening_mul(a, b), q))."""
    x, y = _integers("rounding_mul_shift_right", a, b)
    return saturating_cast(x.type, rounding_shift_right(widening_mul(Expr(x), Expr(y)), q))


# ---- bits -----------------------------------------------------------------------------------------------

def _bit_sum(x: ir.Expr, terms) -> ir.Expr:
    total: ir.Expr = _k(x.type, 0)
    for term in terms:
        total = _op("add", total, _sel(term, _k(x.type, 1), _k(x.type, 0)))
    return total


def popcount(a) -> Expr:
    """The number of set bits, in a's type."""
    x = _integers("popcount", a)[0]
    u = cast_ir(x.type.with_code(UINT), x)
    one = _k(u.type, 1)
    return Expr(_bit_sum(x, (_op("ne", _op("and", _op("shr", u, _k(u.type, i)), one), _k(u.type, 0))
                             for i in range(x.type.bits()))))


def count_leading_zeros(a) -> Expr:
    """The zeros above the highest set bit (the width for 0), in a's type: the positions i with a >> i == 0."""
    x = _integers("count_leading_zeros", a)[0]
    u = cast_ir(x.type.with_code(UINT), x)
    return Expr(_bit_sum(x, (_op("eq", _op("shr", u, _k(u.type, i)), _k(u.type, 0)) for i in range(x.type.bits()))))


def count_trailing_zeros(a) -> Expr:
    """The zeros below the lowest set bit (the width for 0), in a's type: the masks of the low i bits that a
    leaves empty."""
    x = _integers("count_trailing_zeros", a)[0]
    u = cast_ir(x.type.with_code(UINT), x)
    bits = x.type.bits()
    return Expr(_bit_sum(x, (_op("eq", _op("and", u, _k(u.type, (1 << i) - 1)), _k(u.type, 0))
                             for i in range(1, bits + 1))))


# ---- division rounding to zero ------------------------------------------------------------------------

def div_round_to_zero(a, b) -> Expr:
    """a / b rounded toward zero (C's division; Halide's / rounds so that the remainder is not negative)."""
    x, y = _integers("div_round_to_zero", a, b)
    q = _op("div", x, y)
    if x.type.is_uint():
        return Expr(q)
    t = x.type
    inexact = _op("and", _op("lt", x, _k(t, 0)), _op("ne", _op("mod", x, y), _k(t, 0)))
    toward_zero = _op("add", q, _sel(_op("gt", y, _k(t, 0)), _k(t, 1), _k(t, -1)))
    return Expr(_sel(inexact, toward_zero, q))


def mod_round_to_zero(a, b) -> Expr:
    """The remainder of div_round_to_zero: it has the sign of a."""
    x, y = _integers("mod_round_to_zero", a, b)
    if x.type.is_uint():
        return Expr(_op("mod", x, y))
    q = div_round_to_zero(Expr(x), Expr(y))._ir()
    return Expr(_sel(_op("eq", y, _k(x.type, 0)), _op("mod", x, y), _op("sub", x, _op("mul", q, y))))


# ---- lerp -----------------------------------------------------------------------------------------------

def lerp(zero_val, one_val, weight) -> Expr:
    """zero_val + (one_val - zero_val) * weight, with an unsigned weight of n bits standing for weight / (2^n - 1)
    (a float weight for itself), rounded to nearest. Integers compute unsigned in twice the width (signed values
    offset by the type's minimum, as Halide does), and the division by 2^n - 1 is ((p >> n) + p) >> n."""
    z, o = (to_ir(v, "lerp") for v in (zero_val, one_val))
    w = to_ir(weight, "lerp")
    if z.type != o.type:
        raise HalideError(f"{user_location()}: hl.lerp needs zero_val and one_val of one type; got {z.type} and "
                          f"{o.type}: cast one of them")
    if not (w.type.is_uint() or w.type.is_float()) or w.type.is_bool():
        raise HalideError(f"{user_location()}: hl.lerp needs an unsigned integer or float weight; got {w.type} "
                          "(cast it to an unsigned type: the weight's range is its type's)")
    if z.type.is_float():
        wf = cast_ir(z.type, w) if w.type.is_float() else _op("div", cast_ir(z.type, w), _k(z.type, w.type.max()))
        return Expr(_float_lerp(z, o, wf))
    if z.type.is_bool():
        half = _k(w.type, 0.5) if w.type.is_float() else _k(w.type, w.type.max() // 2)
        return Expr(_sel(_op("gt", w, half), o, z))
    return Expr(_integer_lerp(z, o, w))


def _float_lerp(z: ir.Expr, o: ir.Expr, w: ir.Expr) -> ir.Expr:
    """Halide's fma(one - zero, weight, zero), rounded once: for float32 the product is exact in float64, and the
    sum rounds there and then to float32 (bit for bit with Halide 21 on the tests' inputs; where LLVM rewrites the
    weight's own arithmetic, e.g. a product by a reciprocal, results may differ by an ulp or two, as README says
    of floats)."""
    d = _op("sub", o, z)
    if z.type.bits() == 64:
        return _op("add", _op("mul", d, w), z)
    wide = Type("float", 64)
    return cast_ir(z.type, _op("add", _op("mul", cast_ir(wide, d), cast_ir(wide, w)), cast_ir(wide, z)))


def _integer_lerp(z: ir.Expr, o: ir.Expr, w: ir.Expr) -> ir.Expr:
    t = z.type
    c = t.with_code(UINT)
    bias = _k(c, c.wrap(t.min())) if t.is_int() else None
    if bias is not None:
        z, o = _op("sub", cast_ir(c, z), bias), _op("sub", cast_ir(c, o), bias)
    tw = _typed_weight(w, c)
    inverse = _op("sub", _k(c, c.max()), tw)
    wide = _wide("lerp", c, shown=t)
    n = _k(wide, c.bits())
    p = _op("add", _op("add", _op("mul", cast_ir(wide, z), cast_ir(wide, inverse)),
                       _op("mul", cast_ir(wide, o), cast_ir(wide, tw))), _k(wide, 1 << (c.bits() - 1)))
    r = cast_ir(c, _op("shr", _op("add", _op("shr", p, n), p), n))
    return cast_ir(t, _op("add", r, bias)) if bias is not None else r


def _typed_weight(w: ir.Expr, c: Type) -> ir.Expr:
    """The weight as a fraction of c's maximum: a float scaled by it, an unsigned weight of other width rescaled
    by the factors of 2^n - 1 (65535 = 255 * 257)."""
    if w.type.is_float():
        return cast_ir(c, _op("mul", _k(w.type, c.max()), w))
    m, n = w.type.bits(), c.bits()
    if m == n:
        return w
    factor, left, step = 1, abs(m - n), min(m, n)
    while left > 0:
        factor += factor << step
        left -= step
        step *= 2
    if m < n:
        return _op("mul", cast_ir(c, w), _k(c, factor))
    return cast_ir(c, _op("div", w, _k(w.type, factor)))


# ---- casts and markers ----------------------------------------------------------------------------------

def reinterpret(t: Type, e) -> Expr:
    """The bits of e read as type t, of the same width: between integer types, the cast that keeps the bits."""
    x = to_ir(e, "reinterpret")
    if t.bits() != x.type.bits():
        raise HalideError(f"{user_location()}: hl.reinterpret to {t} of a {x.type} value: the types must have the "
                          "same number of bits")
    if t.is_float() and x.type.is_float():
        return Expr(x)
    if t.is_float() or x.type.is_float():  # floats stay off the array, so only the reference reads their bits
        return Expr(ir.MathCall(t, "reinterpret", (x,)))
    return Expr(cast_ir(t, x))


def logical_not(a) -> Expr:
    x = to_ir(a, "logical_not")
    if not x.type.is_bool():
        x = _op("ne", x, _k(x.type, 0))
    return Expr(ir.UnOp(BOOL, "not", x))


def likely(e) -> Expr:
    """A hint for Halide's loop partitioning; the value is e."""
    return Expr(to_ir(e, "likely"))


likely_if_innermost = likely


def _saturating_to(t: Type):
    def f(e) -> Expr:
        return saturating_cast(t, e)

    return f


u8_sat, u16_sat, u32_sat = (_saturating_to(Type(UINT, b)) for b in (8, 16, 32))
i8_sat, i16_sat, i32_sat = (_saturating_to(Type(INT, b)) for b in (8, 16, 32))
