"""Tuple Funcs (frontend/tuples.py), argmax and argmin: small programs run with Halide and with mainspring and
compared bit for bit, the main ones also against an independent NumPy computation; the packing itself (layout,
sign extension) and the refusals that are not in the error catalogue's hardware programs."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl_ms

RNG = np.random.default_rng(17)
SMALL = RNG.integers(0, 6, size=(8, 9), dtype=np.uint8)  # few values: ties, so the first occurrence matters
IMG = RNG.integers(0, 256, size=(8, 9), dtype=np.uint8)
SIGNED = RNG.integers(-300, 300, size=(8, 9)).astype(np.int16)


def image(hl, arr, name="input"):
    t = {np.dtype(np.uint8): hl.UInt(8), np.dtype(np.int16): hl.Int(16)}[arr.dtype]
    p = hl.ImageParam(t, 2, name)
    p.set(hl.Buffer(arr))
    return p


def elements(realization) -> list[np.ndarray]:
    return [np.asarray(realization[i]) for i in range(len(realization))]


def p_argmax_window(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    best = hl.argmax(r, im[x + r.x, y + r.y])
    f = hl.Func("f")
    f[x, y] = (best[0] + 3 * best[1]) * 1000 + hl.i32(best[2])
    return np.asarray(f.realize([a.shape[1] - 2, a.shape[0] - 2]))


def np_argmax_window(a):
    h, w = a.shape[0] - 2, a.shape[1] - 2
    win = [[a[j:j + 3, i:i + 3] for i in range(w)] for j in range(h)]
    return np.array([[int(np.argmax(v)) * 1000 + int(v.max()) for v in row] for row in win], np.int32)


def p_argmin_row(hl, a):
    # the RDom starts below 0, so a coordinate field holds negative offsets; no RDom given: the one e uses
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(-2, 5)], "r")
    low = hl.argmin(im[x + r.x + 2, y], "low")
    f = hl.Func("f")
    f[x, y] = low[0] * 1000 + hl.i32(low[1])
    return np.asarray(f.realize([a.shape[1] - 4, a.shape[0]]))


def np_argmin_row(a):
    h, w = a.shape[0], a.shape[1] - 4
    return np.array([[(int(np.argmin(a[j, i:i + 5])) - 2) * 1000 + int(a[j, i:i + 5].min()) for i in range(w)]
                     for j in range(h)], np.int32)


def p_sum_count(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    acc = hl.Func("acc")
    acc[x, y] = (hl.u16(0), hl.u8(0))
    p = im[x + r.x, y + r.y]
    acc[x, y] = (acc[x, y][0] + hl.select(p > 100, hl.u16(p), 0), acc[x, y][1] + hl.select(p > 100, hl.u8(1), 0))
    return elements(acc.realize([a.shape[1] - 2, a.shape[0] - 2]))


def np_sum_count(a):
    h, w = a.shape[0] - 2, a.shape[1] - 2
    win = [[a[j:j + 3, i:i + 3].astype(int) for i in range(w)] for j in range(h)]
    return [np.array([[v[v > 100].sum() for v in row] for row in win], np.uint16),
            np.array([[(v > 100).sum() for v in row] for row in win], np.uint8)]


def p_update_reads_both_old_elements(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 4)], "r")
    pair = hl.Func("pair")
    pair[x, y] = (hl.u8(0), hl.u8(1))
    pair[x, y] = (pair[x, y][1], pair[x, y][0] + pair[x, y][1] * im[x + r.x, y])
    return elements(pair.realize([a.shape[1] - 3, a.shape[0]]))


def np_update_reads_both_old_elements(a):
    h, w = a.shape[0], a.shape[1] - 3
    p, q = np.zeros((h, w), np.uint8), np.ones((h, w), np.uint8)
    for k in range(4):
        p, q = q, (p + q * a[:, k:k + w]).astype(np.uint8)
    return [p, q]


def p_signed_elements(hl, a):
    # an int8 difference (negative values sign-extend when read back), an int16 and a Bool beside it
    x, y = hl.Var("x"), hl.Var("y")
    im = image(hl, a)
    t = hl.Func("t")
    t[x, y] = (hl.i8(im[x + 1, y] - im[x, y]), hl.i16(im[x, y]) - 300, im[x, y] > 128)
    f = hl.Func("f")
    f[x, y] = hl.i32(t[x, y][0]) * 100000 + hl.i32(t[x, y][1]) * 10 + hl.select(t[x, y][2], 1, 0)
    return np.asarray(f.realize([a.shape[1] - 1, a.shape[0]]))


def np_signed_elements(a):
    w = a.shape[1] - 1
    d = (a[:, 1:].astype(int) - a[:, :w]).astype(np.uint8).astype(np.int8).astype(np.int32)
    return d * 100000 + (a[:, :w].astype(np.int32) - 300) * 10 + (a[:, :w] > 128)


def p_argmax_signed_values(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 4)], "r")
    hi = hl.argmax(r, im[x + r.x, y] - 100)
    f = hl.Func("f")
    f[x, y] = hi[0] * 100000 + hl.i32(hi[1])
    return np.asarray(f.realize([a.shape[1] - 3, a.shape[0]]))


def p_copy_and_undef(hl, a):
    # a Func defined as another's whole Tuple (argmax's, its coordinates narrowed) and an update with undef
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = hl.argmax(r, im[x + r.x, y])
    copy = hl.Func("copy")
    copy[x, y] = (hl.u8(best[x, y][0]), best[x, y][1])
    copy[x, y] = (hl.undef(hl.UInt(8)), copy[x, y][1] / 2)
    f = hl.Func("f")
    f[x, y] = hl.u16(copy[x, y][0]) * 1000 + best[x, y][0] * 100 + hl.u16(copy[x, y][1])
    return np.asarray(f.realize([a.shape[1] - 2, a.shape[0]]))


def p_tuple_constructor_and_rdom_where(hl, a):
    # hl.Tuple spells the same Tuple; RDom.where keeps both elements where the predicate fails
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 5)], "r")
    r.where(r.x % 2 == 0)
    mm = hl.Func("mm")
    mm[x, y] = hl.Tuple([hl.u8(255), hl.u8(0)])
    mm[x, y] = hl.Tuple([hl.min(mm[x, y][0], im[x + r.x, y]), hl.max(mm[x, y][1], im[x + r.x, y])])
    return elements(mm.realize([a.shape[1] - 4, a.shape[0]]))


PROGRAMS = {
    "argmax_window": (p_argmax_window, SMALL, np_argmax_window),
    "argmin_row": (p_argmin_row, SMALL, np_argmin_row),
    "sum_count": (p_sum_count, IMG, np_sum_count),
    "update_reads_both_old_elements": (p_update_reads_both_old_elements, IMG, np_update_reads_both_old_elements),
    "signed_elements": (p_signed_elements, IMG, np_signed_elements),
    "argmax_signed_values": (p_argmax_signed_values, SIGNED, None),
    "copy_and_undef": (p_copy_and_undef, SMALL, None),
    "tuple_constructor_and_rdom_where": (p_tuple_constructor_and_rdom_where, IMG, None),
}


@pytest.mark.parametrize("name", sorted(n for n, p in PROGRAMS.items() if p[2] is not None))
def test_reference_equals_numpy(name):
    program, a, numpy_version = PROGRAMS[name]
    got, want = program(hl_ms, a), numpy_version(a)
    for g, w in zip(got if isinstance(got, list) else [got], want if isinstance(want, list) else [want]):
        assert g.dtype == w.dtype and np.array_equal(g, w)


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_halide(name, same_as_halide):
    program, a, _ = PROGRAMS[name]
    same_as_halide(program, a)


def test_layout_puts_element_0_lowest_in_the_narrowest_word():
    x = hl_ms.Var("x")
    f = hl_ms.Func("f")
    f[x] = (hl_ms.u8(x), hl_ms.i8(x), x > 2)
    fn = f.function()
    assert fn.type == hl_ms.UInt(32) and [(e.offset, e.width) for e in fn.tuple_layout.fields] == [(0, 8), (8, 8),
                                                                                                  (16, 1)]
    assert f.types() == [hl_ms.UInt(8), hl_ms.Int(8), hl_ms.Bool()] and f.outputs() == 3
    g = hl_ms.Func("g")
    g[x] = (hl_ms.u8(x), hl_ms.i8(x))
    assert g.function().type == hl_ms.UInt(16)


def test_a_tuple_of_one_element_is_that_element():
    x = hl_ms.Var("x")
    f = hl_ms.Func("f")
    f[x] = (hl_ms.u8(x),)
    assert f.outputs() == 1 and f.function().tuple_layout is None
    g = hl_ms.Func("g")
    g[x] = f[x][0] + 1
    assert np.array_equal(np.asarray(g.realize([4])), np.arange(1, 5, dtype=np.uint8))


def p_select_of_tuples(hl, a):
    # Halide's select of Tuples (a Func's whole Tuple as one value): argmax written as Halide's own definition
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 4)], "r")
    best = hl.Func("best")
    best[x, y] = (hl.u8(0), hl.u8(0))
    best[x, y] = hl.select(im[x + r.x, y] > best[x, y][1], (hl.u8(r.x), im[x + r.x, y]), best[x, y])
    pick = hl.Func("pick")
    pick[x, y] = hl.select(x < 2, (hl.u8(y), hl.u8(1)), x < 4, best[x, y], (hl.u8(x), hl.u8(2)))
    return elements(best.realize([a.shape[1] - 3, a.shape[0]])) + elements(pick.realize([a.shape[1] - 3, a.shape[0]]))


def test_select_of_tuples_matches_halide(same_as_halide):
    same_as_halide(p_select_of_tuples, SMALL)


def p_wrapper_and_clone_of_a_tuple(hl, a, wrap):
    # in_() and clone_in() of a Tuple Func copy its word; reads through them unpack it as the Func's own
    x, y = hl.Var("x"), hl.Var("y")
    im = image(hl, a)
    pair = hl.Func("pair")
    pair[x, y] = (im[x, y], hl.i8(im[x, y]) - 5)
    g, h = hl.Func("g"), hl.Func("h")
    g[x, y] = hl.i16(pair[x, y][1]) * 2
    h[x, y] = hl.i16(pair[x, y][0]) + g[x, y] + hl.i16(pair[x, y][1])
    if wrap:
        pair.in_(g).compute_root()
    else:  # (both together make Halide 21 fail on its own)
        pair.clone_in(h)
    return np.asarray(h.realize([a.shape[1], a.shape[0]]))


@pytest.mark.parametrize("wrap", [True, False])
def test_wrappers_of_a_tuple_match_halide(wrap, same_as_halide):
    same_as_halide(p_wrapper_and_clone_of_a_tuple, IMG, wrap)


def p_introspection(hl, a):
    # types(), outputs(), values() and update_values() give one per element, as Halide's
    x, y = hl.Var("x"), hl.Var("y")
    im, r = image(hl, a), hl.RDom([hl.Range(0, 2)], "r")
    pair = hl.Func("pair")
    pair[x, y] = (im[x, y], hl.i16(im[x, y]) - 7)
    pair[x, y] = (pair[x, y][0] + im[x + r.x, y], pair[x, y][1] * 2)
    f = hl.Func("f")
    f[x, y] = hl.i32(pair.values()[0]) + hl.i32(pair.values()[1]) + hl.i32(pair[x, y][1])
    assert [str(t) for t in pair.types()] == ["uint8", "int16"] and pair.outputs() == 2
    assert len(pair.update_values(0)) == 2
    return np.asarray(f.realize([a.shape[1] - 1, a.shape[0]]))


def test_introspection_matches_halide(same_as_halide):
    same_as_halide(p_introspection, IMG)
