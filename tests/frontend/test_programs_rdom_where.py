"""RDom.where (Halide's predicated reduction domains) in the reference, against Halide 21 bit for bit: each update
over the domain skips the points whose predicates do not all hold. Also an update over an RDom dimension that it
does not read, which runs once per point of it as in Halide (the reference's histograms counted each pixel once,
session 29)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(77)
IMG = RNG.integers(0, 256, size=(10, 12), dtype=np.uint8)


def _image(hl, a):
    p = hl.ImageParam(hl.UInt(8), 2, "a")
    p.set(hl.Buffer(a))
    return p


def p_disk_window(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-2, 5)], "r")
    r.where(r.x * r.x + r.y * r.y <= 4)
    f = hl.Func("f")
    f[x, y] = hl.u16(0)
    f[x, y] += hl.u16(im[x + r.x + 2, y + r.y + 2])
    return np.asarray(f.realize([8, 6]))


def p_two_predicates_and_a_pure_var(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(0, 5), hl.Range(0, 3)], "r")
    r.where(r.x < r.y + x % 3)
    r.where(r.x != 1)
    f = hl.Func("f")
    f[x, y] = hl.u16(x)
    f[x, y] = f[x, y] * 3 + hl.u16(im[x + r.x, y + r.y])  # not an accumulation: the select form
    return np.asarray(f.realize([7, 6]))


def p_max_and_min(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    r.where(r.x + r.y != 2)  # a ring without the anti-diagonal
    hi, lo = hl.Func("hi"), hl.Func("lo")
    hi[x, y] = hl.u8(0)
    hi[x, y] = hl.max(hi[x, y], im[x + r.x, y + r.y])
    lo[x, y] = hl.u8(255)
    lo[x, y] = hl.min(im[x + r.x, y + r.y], lo[x, y])
    out = hl.Func("out")
    out[x, y] = hl.u16(hi[x, y]) * 256 + hl.u16(lo[x, y])
    return np.asarray(out.realize([9, 7]))


def p_histogram_of_a_triangle(hl, a):
    b = hl.Var("b")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(0, 12), hl.Range(0, 10)], "r")
    r.where(r.x >= r.y)
    hist = hl.Func("hist")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(im[r.x, r.y]) >> 4, 0, 15)] += hl.u16(1)
    return np.asarray(hist.realize([16]))


def p_predicate_reading_a_func_and_an_inline_sum(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    r.where(im[x + r.x, y + r.y] > 100)
    s = hl.Func("s")
    s[x, y] = hl.sum(hl.u16(im[x + r.x, y + r.y]))
    return np.asarray(s.realize([9, 7]))


def p_scan_with_a_gap(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(1, 11)], "r")
    r.where(r.x % 3 != 0)
    f = hl.Func("f")
    f[x, y] = hl.u16(im[x, y])
    f[r.x, y] = f[r.x - 1, y] + f[r.x, y]
    return np.asarray(f.realize([12, 10]))


def p_histogram_over_an_unread_dimension(hl, a):
    b = hl.Var("b")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(0, 12), hl.Range(0, 10), hl.Range(0, 3)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(im[r.x, r.y]) >> 4, 0, 15)] += hl.u16(1)
    return np.asarray(hist.realize([16]))


def p_sum_over_an_unread_dimension(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im = _image(hl, a)
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 4)], "r")
    f = hl.Func("f")
    f[x, y] = hl.u16(1)
    f[x, y] = f[x, y] * 2 + hl.u16(im[x + r.x, y])
    return np.asarray(f.realize([9, 7]))


PROGRAMS = [p_histogram_over_an_unread_dimension, p_sum_over_an_unread_dimension,
            p_disk_window, p_two_predicates_and_a_pure_var, p_max_and_min, p_histogram_of_a_triangle,
            p_predicate_reading_a_func_and_an_inline_sum, p_scan_with_a_gap]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__[2:])
def test_predicated_rdoms_match_halide(program, same_as_halide):
    same_as_halide(program, IMG)
