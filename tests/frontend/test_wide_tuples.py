"""Tuple Funcs over 32 bits (frontend/wide_tuples.py): their words (names, elements, the shared schedule),
programs run with Halide and with mainspring and compared bit for bit (a Tuple realized whole, updates over
RDoms whose paired elements read each other in one word, Halide's argmax by hand with int32 coordinates laid out
again in one word (frontend/wide_regroup.py), undef(), a scan, a copy), and the refusals of an update reading
across words where that cannot be, which Halide accepts (the catalogue's tuple_words_read_each_other)."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl_ms
from mainspring.frontend.wide_tuples import WideLayout, word_groups

RNG = np.random.default_rng(36)
IMG = RNG.integers(0, 65536, size=(6, 9), dtype=np.uint16)


def image(hl, arr):
    p = hl.ImageParam(hl.UInt(16), 2, "input")
    p.set(hl.Buffer(arr))
    return p


def test_the_elements_fill_a_word_before_the_next():
    assert word_groups([16, 16, 16]) == [[0, 1], [2]]
    assert word_groups([32, 8, 32, 1]) == [[0], [1], [2], [3]]
    assert word_groups([32, 8, 16, 1]) == [[0], [1, 2, 3]]
    assert word_groups([8, 32, 8, 16, 8]) == [[0], [1], [2, 3, 4]]


def test_a_wide_tuple_is_held_in_words_that_share_its_schedule():
    x, y = hl_ms.Var("x"), hl_ms.Var("y")
    im, r = image(hl_ms, IMG), hl_ms.RDom([hl_ms.Range(0, 3)], "r")
    f = hl_ms.Func("f")
    f[x, y] = (hl_ms.u16(0), im[x, y], hl_ms.u32(1))
    f[x, y] = (f[x, y][0] + im[x + r.x, y], f[x, y][1], f[x, y][2] * 3)
    f.compute_root()
    f.update().unroll(r.x)
    layout = f.function().tuple_layout
    assert isinstance(layout, WideLayout)
    assert [g.name for g in layout.funcs] == ["f", "f_word1"]
    assert layout.groups == ((0, 1), (2,))
    assert [(fl.offset, fl.width) for fl in layout.fields] == [(0, 16), (16, 16), (0, 32)]
    word1 = layout.funcs[1]
    assert word1.placement is f.function().placement
    assert all(a.schedule is b.schedule for a, b in zip(word1.definitions, f.function().definitions))
    assert f.types() == [hl_ms.UInt(16), hl_ms.UInt(16), hl_ms.UInt(32)] and f.outputs() == 3
    assert len(f.values()) == 3 and len(f.update_values(0)) == 3


def p_whole(hl, a):
    """A Tuple of (uint32, int32, uint16) realized whole: a buffer per element."""
    x, y = hl.Var("x"), hl.Var("y")
    im = image(hl, a)
    f = hl.Func("f")
    f[x, y] = (hl.u32(im[x, y]) * im[x + 1, y], hl.i32(im[x, y]) - hl.i32(im[x + 1, y]), im[x, y] ^ im[x, y + 1])
    out = f.realize([a.shape[1] - 1, a.shape[0] - 1])
    return [np.asarray(out[i]) for i in range(3)]


def p_argmin_sum(hl, a):
    """The first minimum of 5 taps (uint16 value and uint8 offset, read together in word 0) and their uint32 sum
    (word 1), serial and unrolled."""
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 5)], "r")
    outs = []
    for unrolled in (False, True):
        best = hl.Func("best")
        best[x, y] = (hl.u16(65535), hl.u8(0), hl.u32(0))
        p = im[x + r.x, y]
        less = p < best[x, y][0]
        best[x, y] = (hl.select(less, p, best[x, y][0]), hl.select(less, hl.u8(r.x), best[x, y][1]),
                      best[x, y][2] + p)
        if unrolled:
            best.update().unroll(r.x)
        g = hl.Func("g")
        g[x, y] = hl.u32(best[x, y][0]) * 1000 + hl.u32(best[x, y][1]) + best[x, y][2] * 7
        outs.append(np.asarray(g.realize([a.shape[1] - 4, a.shape[0]])))
    return outs


def p_undef_scan_copy(hl, a):
    """An update keeping element 1 (undef), a scan along x reading its own word at x - 1, and a copy of the
    Tuple whole."""
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(1, a.shape[1] - 1)], "r")
    f = hl.Func("f")
    f[x, y] = (hl.u32(im[x, y]), hl.i32(im[x, y]) - 30000, hl.u16(x))
    f[x, y] = (f[x, y][0] * 3, hl.undef(hl.Int(32)), f[x, y][2] + 1)
    f[r, y] = (f[r - 1, y][0] + f[r, y][0], f[r, y][1], f[r, y][2])
    g = hl.Func("g")
    g[x, y] = f[x, y]
    out = g.realize([a.shape[1], a.shape[0]])
    return [np.asarray(out[i]) for i in range(3)]


def p_argmax_int32(hl, a):
    """Halide's argmax written by hand: int32 coordinates and the uint16 value, 80 bits at their types, which the
    update computes from each other: one word, the coordinates in the 2 bits their values need; a second update
    keeps them there."""
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = (hl.i32(0), hl.i32(0), hl.u16(0))
    p = im[x + r.x, y + r.y]
    more = p > best[x, y][2]
    best[x, y] = (hl.select(more, r.x, best[x, y][0]), hl.select(more, r.y, best[x, y][1]),
                  hl.select(more, p, best[x, y][2]))
    best[x, y] = (2 - best[x, y][0], best[x, y][1], best[x, y][2] / 2)
    g = hl.Func("g")
    g[x, y] = (best[x, y][0] + 3 * best[x, y][1]) * 100000 + hl.i32(best[x, y][2])
    return np.asarray(g.realize([a.shape[1] - 2, a.shape[0] - 2]))


def test_elements_an_update_computes_from_each_other_share_a_word_in_the_bits_they_need():
    x, y = hl_ms.Var("x"), hl_ms.Var("y")
    im, r = image(hl_ms, IMG), hl_ms.RDom([hl_ms.Range(-2, 5)], "r")
    best = hl_ms.Func("best")
    best[x, y] = (hl_ms.u16(65535), hl_ms.i32(0), hl_ms.u32(0))
    less = im[x + r.x, y] < best[x, y][0]
    best[x, y] = (hl_ms.select(less, im[x + r.x, y], best[x, y][0]), hl_ms.select(less, r.x, best[x, y][1]),
                  best[x, y][2] + 1)
    layout = best.function().tuple_layout
    assert layout.groups == ((0, 1), (2,))
    assert [(f.offset, f.width, f.signed) for f in layout.fields] == [(0, 16, False), (16, 3, True), (0, 32, False)]


def test_a_read_before_the_update_keeps_the_layout_and_the_update_is_refused():
    x, y = hl_ms.Var("x"), hl_ms.Var("y")
    im, r = image(hl_ms, IMG), hl_ms.RDom([hl_ms.Range(0, 3)], "r")
    best = hl_ms.Func("best")
    best[x, y] = (hl_ms.u16(65535), hl_ms.i32(0))
    g = hl_ms.Func("g")
    g[x, y] = best[x, y][1]  # read under the layout of two words
    less = im[x + r.x, y] < best[x, y][0]
    with pytest.raises(hl_ms.HalideError, match=r"element 1 \(word 1\) reads word 0 in this update"):
        best[x, y] = (hl_ms.select(less, im[x + r.x, y], best[x, y][0]), hl_ms.select(less, r.x, best[x, y][1]))


@pytest.mark.parametrize("program", [p_whole, p_argmin_sum, p_undef_scan_copy, p_argmax_int32])
def test_a_wide_tuple_computes_as_halide(program, same_as_halide):
    same_as_halide(program, IMG)


def test_an_update_reading_across_words_is_refused_where_halide_accepts_it(halide):
    def program(hl):
        x, y = hl.Var("x"), hl.Var("y")
        im, r = image(hl, IMG), hl.RDom([hl.Range(0, 3)], "r")
        best = hl.Func("best")
        best[x, y] = (hl.u32(0x7FFFFFFF), hl.i32(0))  # 31 bits of values, and 2 of the index
        p = hl.u32(im[x + r.x, y]) * 65537
        less = p < best[x, y][0]
        best[x, y] = (hl.select(less, p, best[x, y][0]), hl.select(less, r.x, best[x, y][1]))
        return best.realize([4, 4])

    assert len(program(halide)) == 2
    with pytest.raises(hl_ms.HalideError, match=r"element 1 \(word 1\) reads word 0 in this update"):
        program(hl_ms)
