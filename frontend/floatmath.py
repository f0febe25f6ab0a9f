"""Floating-point arithmetic exactly as Halide 21's JIT on x86 computes it, in NumPy.

Three facts of Halide's CPU code generation decide the bits, and each is reproduced here:
- LLVM runs with contraction allowed and the host has FMA, so `a*b + c`, `a*b - c` and `c - a*b` become one
  fused multiply-add when the product has no other use (`fma`). The evaluator decides where; this module
  gives the exactly rounded result.
- exp, log and pow of Float(32) are not libm's: Halide expands them into its own polynomial approximations
  (IROperator.cpp's halide_exp / halide_log; pow(x, y) is exp(log(x) * y) with sign and zero cases), and those
  expansions are themselves contracted into FMAs. `exp_f32`, `log_f32` and `pow_f32` follow the same steps.
- Float(64) exp/log/pow call the C library, and Halide's simplifier folds a call on a constant with the C
  library in double precision, then rounds to the call's type. `libm` gives those values.
- The trigonometric and hyperbolic functions call the C library's float versions (sinf, atan2f, ...) for
  Float(32), checked against Halide 21 on every value of a range (tests/frontend): `libm_f32` calls the same
  library through ctypes, so the reference and Halide's JIT agree on the machine they run on.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math

import numpy as np

F32 = np.float32
_EXP_COEFFS = (0.00031965933071842413, 0.00119156835564003744, 0.00848988645943932717, 0.04160188091348320655,
               0.16667983794100929562, 0.49999899033463041098, 1.0, 1.0)
_LOG_COEFFS = (0.05111976432738144643, -0.11793923497136414580, 0.14971993724699017569, -0.16862004708254804686,
               0.19980668101718729313, -0.24991211576292837737, 0.33333435275479328386, -0.50000106292873236491,
               1.0, 0.0)
_LN2_HI = F32(0.6931457519)  # Halide splits ln 2 in two parts ...
_LN2_LO = F32(1.4286067653e-6)  # ... which LLVM's reassociation adds back into one float32 constant
_INV_LN2 = F32(F32(1.0) / F32(math.log(2.0)))  # Halide: 1.0f / logf(2.0f)
_LN2 = F32(math.log(2.0))  # logf(2.0), correctly rounded


def fma32(a, b, c) -> np.ndarray:
    """round_to_float32(a*b + c) with one rounding, as the FMA instruction gives.

    The product of two float32 values is exact in float64; the float64 sum is then rounded to odd (kept
    sticky when inexact), which makes the final rounding to float32 a single correct rounding."""
    a64, b64, c64 = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    p = a64 * b64
    with np.errstate(invalid="ignore", over="ignore"):
        s = p + c64
        bb = s - p
        err = (p - (s - bb)) + (c64 - bb)  # exact error of the sum (TwoSum)
        even = (s.view(np.int64) & 1) == 0 if s.ndim else (np.asarray(s).view(np.int64) & 1) == 0
        nudge = (err != 0) & even & np.isfinite(s)
        s = np.where(nudge, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
        return s.astype(np.float32)[()]


def _fma64_one(a: float, b: float, c: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    hi = a * b
    if not math.isfinite(hi):
        return hi + c
    lo = _two_product_error(a, b, hi)
    return math.fsum((hi, lo, c))  # fsum rounds the exact sum once


def _two_product_error(a: float, b: float, hi: float) -> float:
    """a*b - hi exactly (Dekker's product with Veltkamp splitting)."""
    def split(v):
        t = 134217729.0 * v  # 2**27 + 1
        h = t - (t - v)
        return h, v - h

    ah, al = split(a)
    bh, bl = split(b)
    return ((ah * bh - hi) + ah * bl + al * bh) + al * bl


_fma64_u = np.frompyfunc(_fma64_one, 3, 1)


def fma64(a, b, c) -> np.ndarray:
    return np.asarray(_fma64_u(*(np.asarray(v, dtype=np.float64) for v in (a, b, c))), dtype=np.float64)[()]


def fma(a, b, c, dtype) -> np.ndarray:
    return fma32(a, b, c) if np.dtype(dtype) == np.float32 else fma64(a, b, c)


def _polynomial(x: np.ndarray, coeffs) -> np.ndarray:
    """Halide's evaluate_polynomial: even and odd coefficients in two Horner chains in x*x (each step one FMA;
    a zero coefficient is a plain multiply), joined by a last FMA."""
    x2 = x * x
    even, odd = F32(coeffs[0]), F32(coeffs[1])
    for i in range(2, len(coeffs)):
        c = F32(coeffs[i])
        if i % 2 == 0:
            even = even * x2 if c == 0 else fma32(even, x2, c)
        else:
            odd = odd * x2 if c == 0 else fma32(odd, x2, c)
    return fma32(even, x, odd) if len(coeffs) % 2 == 0 else fma32(odd, x, even)


def exp_f32(x) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        k_real = np.floor(x * _INV_LN2)
        r = fma32(-k_real, _LN2_HI + _LN2_LO, x)  # LLVM's reassociation merges the two-part reduction
        result = _polynomial(r, _EXP_COEFFS)
        # x86's float-to-int conversion gives INT32_MIN for anything out of range (and the result is then 0)
        k = np.where(np.abs(k_real) < 2.0**31, k_real, -(2.0**31)).astype(np.int64)
        biased = (k + 127).astype(np.int32)
        two_to_k = (biased << 23).astype(np.int32).view(np.float32)
        result = (result * two_to_k).astype(np.float32)
        result = np.where(biased < 255, result, F32(np.inf))
        return np.where(biased > 0, result, F32(0)).astype(np.float32)[()]


def log_f32(x) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    negative, not_positive = x < 0, x <= 0
    patched = np.where(not_positive, F32(1), x).astype(np.float32)
    bits = patched.view(np.int32)
    mantissa = bits & np.int32(0x7FFFFF)  # (the sign bit is clear: patched > 0)
    new_biased = (mantissa >> 22) ^ 127  # halve a mantissa above 1.5 into (0.75, 1.5)
    exponent = (bits >> 23) - new_biased
    x1 = (mantissa | (new_biased << 23)).astype(np.int32).view(np.float32) - F32(1)
    result = _log_polynomial(x1)
    result = fma32(exponent.astype(np.float32), _LN2, result[0]) + result[1]
    special = np.where(negative, F32(np.nan), F32(-np.inf))
    return np.where(not_positive, special, result).astype(np.float32)[()]


def _log_polynomial(x1: np.ndarray):
    """Halide's log polynomial as LLVM compiles it: two Horner chains in x1*x1 (odd and even coefficients),
    whose second steps are a separate multiply and add (the SLP vectorizer shares that product between the
    chains, so it is not contracted), the rest FMAs. Returns (odd part * x1**2, even part * x1), which the
    caller sums in LLVM's reassociated order: (exponent * ln2 + odd) + even."""
    c = [F32(v) for v in _LOG_COEFFS]
    x2 = x1 * x1
    even = fma32(c[0], x2, c[2])
    odd = c[3] - x2 * -c[1]
    even = x2 * even + c[4]
    odd, even = fma32(odd, x2, c[5]), fma32(even, x2, c[6])
    odd, even = fma32(odd, x2, c[7]), fma32(even, x2, c[8])
    return odd * x2, even * x1


def pow_f32(x, y) -> np.ndarray:
    """Halide's pow_f32: exp(log(|x|) * y), with 1 for y == 0, 0 for x == 0, NaN for a negative x to a
    non-integer power, and the sign of an odd integer power of a negative x."""
    x = np.asarray(x, dtype=np.float32)
    y = np.asarray(y, dtype=np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        magnitude = exp_f32((log_f32(np.abs(x)) * y).astype(np.float32))
        iy = np.floor(y)
        out = np.where(np.mod(iy, F32(2)) == 0, magnitude, -magnitude)
        out = np.where(y != iy, F32(np.nan), out)
        out = np.where(x == 0, F32(0), out)
        out = np.where(y == 0, F32(1), out)
        return np.where(x > 0, magnitude, out).astype(np.float32)[()]


_LIBM = {"exp": math.exp, "log": math.log, "pow": math.pow, "sin": math.sin, "cos": math.cos, "tan": math.tan,
         "asin": math.asin, "acos": math.acos, "atan": math.atan, "atan2": math.atan2, "sinh": math.sinh,
         "cosh": math.cosh, "tanh": math.tanh, "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh}
_ARITY = {name: 2 if name in ("pow", "atan2") else 1 for name in _LIBM}


def _libm_one(name: str):
    f = _LIBM[name]

    def safe(*args):
        try:
            return f(*args)
        except OverflowError:  # exp, sinh, cosh, pow past the largest double
            return math.copysign(math.inf, args[0]) if name == "sinh" else math.inf
        except ValueError:  # outside the domain: C returns a pole's infinity or NaN where Python raises
            if name == "log" and args[0] == 0:
                return -math.inf
            if name == "pow" and args[0] == 0:
                return math.inf
            if name == "atanh" and abs(args[0]) == 1:
                return math.copysign(math.inf, args[0])
            return math.nan

    return np.frompyfunc(safe, _ARITY[name], 1)


_LIBM_U = {name: _libm_one(name) for name in _LIBM}


def libm(name: str, *args) -> np.ndarray:
    """The C library's double-precision function (Python's math calls it), elementwise."""
    return np.asarray(_LIBM_U[name](*(np.asarray(a, dtype=np.float64) for a in args)), dtype=np.float64)[()]


@functools.cache
def _libm_f32_u(name: str):
    """The C library's float function (`sinf`, ...) through ctypes: what Halide's JIT calls for a Float(32) sin."""
    lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    fn = getattr(lib, f"{name}f")
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float] * _ARITY[name]
    return np.frompyfunc(fn, _ARITY[name], 1)


def libm_f32(name: str, *args) -> np.ndarray:
    """The C library's float function of `name`, elementwise on float32 values (each value exact in a C float)."""
    floats = [np.asarray(a, dtype=np.float32).astype(np.float64) for a in args]
    return np.asarray(_libm_f32_u(name)(*floats), dtype=np.float32)[()]
