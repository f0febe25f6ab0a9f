"""Tuple Funcs on the accelerator (frontend/tuples.py): the elements packed into one word, read back by shift and
mask; argmax over a 3x3 window and argmin along a row (hl.argmax / hl.argmin), a (sum, count) reduction, an
update whose elements both read the old pair, a signed element sign-extended, a Tuple as the accelerator's output
(unpacked by the host), by hand and autoscheduled. Each design bit-exact on both simulators and equal to an
independent NumPy computation (np.argmax, loops)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from compile_once import grouped

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
W, H = 10, 6


def _frame(t=None):
    t = t or hl.UInt(8)
    v = {n: hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi")}
    image = hl.ImageParam(t, 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[v["x"], v["y"]] = image[v["x"], v["y"]]
    return v, hw_input, hw_output, output


def _accelerate(v, hw_input, hw_output, output, buffered, auto=False):
    """The hand schedule (hw_output accelerated, `buffered` at its tile loop), or with `auto` estimates and the
    autoscheduler."""
    x, y = v["x"], v["y"]
    output[x, y] = hw_output[x, y]
    if auto:
        output.set_estimates([(0, W), (0, H)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
        return output
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, v["xo"], v["yo"], v["xi"], v["yi"], W, H).hw_accelerate(v["xi"], v["xo"])
    for f in buffered:
        f.compute_at(hw_output, v["xo"])
    hw_input.compute_root().stream_to_accelerator()
    return output


def argmax_window(by_hand: str | None):
    """best[x, y] = argmax over a 3x3 window: hl.argmax (its Func inlined into best, so unrolled whole), or
    written by hand as a Tuple update of uint8 coordinates, Halide's definition of argmax, its update "serial"
    or "unrolled"; the output packs the index (row-major) above the value."""
    v, hw_input, hw_output, output = _frame()
    x, y = v["x"], v["y"]
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    best = hl.Func("best")
    if by_hand:
        best[x, y] = (hl.u8(0), hl.u8(0), hl.u8(0))
        p = hw_input[x + r.x, y + r.y]
        better = p > best[x, y][2]
        best[x, y] = (hl.select(better, hl.u8(r.x), best[x, y][0]), hl.select(better, hl.u8(r.y), best[x, y][1]),
                      hl.select(better, p, best[x, y][2]))
        if by_hand == "unrolled":
            best.update().unroll(r.x).unroll(r.y)
    else:
        best[x, y] = hl.argmax(r, hw_input[x + r.x, y + r.y])
    hw_output[x, y] = hl.u16(best[x, y][0] + 3 * best[x, y][1]) * 256 + best[x, y][2]
    return _accelerate(v, hw_input, hw_output, output, [best])


def _argmax_expected(a):
    out = np.zeros((H, W), np.uint16)
    for yy in range(H):
        for xx in range(W):
            win = a[yy:yy + 3, xx:xx + 3]
            out[yy, xx] = int(np.argmax(win)) * 256 + int(win.max())  # np.argmax: the first maximum, row-major
    return out


def argmin_row(lo: int = 0):
    """The first minimum of 5 taps along the row, inline: its offset times 1000 plus the (signed) value; the
    RDom from `lo` (below 0: a coordinate field of negative offsets, sign-extended when read)."""
    v, hw_input, hw_output, output = _frame(hl.Int(16))
    x, y = v["x"], v["y"]
    r = hl.RDom([hl.Range(lo, 5)], "r")
    low = hl.argmin(hw_input[x + r.x - lo, y])
    hw_output[x, y] = hl.i16(low[0]) * 1000 + low[1]
    return _accelerate(v, hw_input, hw_output, output, [])


def _argmin_expected(a, lo=0):
    return np.array([[(int(np.argmin(a[yy, xx:xx + 5])) + lo) * 1000 + int(a[yy, xx:xx + 5].min())
                      for xx in range(W)] for yy in range(H)], np.int16)


def sum_count(auto=False):
    """The mean of the 3x3 window's values above 100: a (sum, count) Tuple reduction, unrolled."""
    v, hw_input, hw_output, output = _frame()
    x, y = v["x"], v["y"]
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    acc = hl.Func("acc")
    acc[x, y] = (hl.u16(0), hl.u8(0))
    p = hw_input[x + r.x, y + r.y]
    acc[x, y] = (acc[x, y][0] + hl.select(p > 100, hl.u16(p), 0), acc[x, y][1] + hl.select(p > 100, hl.u8(1), hl.u8(0)))
    if not auto:
        acc.update().unroll(r.x).unroll(r.y)
    hw_output[x, y] = acc[x, y][0] / hl.u16(hl.max(acc[x, y][1], 1))
    return _accelerate(v, hw_input, hw_output, output, [acc], auto)


def _sum_count_expected(a):
    out = np.zeros((H, W), np.uint16)
    for yy in range(H):
        for xx in range(W):
            win = a[yy:yy + 3, xx:xx + 3].astype(int)
            big = win[win > 100]
            out[yy, xx] = big.sum() // max(len(big), 1)
    return out


def old_pair(auto=False):
    """pair = (0, 1), then over 4 taps (b, a + b * tap): both new elements from the pair before the step."""
    v, hw_input, hw_output, output = _frame()
    x, y = v["x"], v["y"]
    r = hl.RDom([hl.Range(0, 4)], "r")
    pair = hl.Func("pair")
    pair[x, y] = (hl.u8(0), hl.u8(1))
    pair[x, y] = (pair[x, y][1], pair[x, y][0] + pair[x, y][1] * hw_input[x + r.x, y])
    hw_output[x, y] = hl.u16(pair[x, y][0]) * 256 + pair[x, y][1]
    return _accelerate(v, hw_input, hw_output, output, [pair], auto)


def _old_pair_expected(a):
    out = np.zeros((H, W), np.uint16)
    for yy in range(H):
        for xx in range(W):
            p, q = 0, 1
            for k in range(4):
                p, q = q, (p + q * int(a[yy, xx + k])) % 256
            out[yy, xx] = p * 256 + q
    return out


def signed_pair():
    """(i8 difference, u8 value) packed: reading the difference sign-extends it."""
    v, hw_input, hw_output, output = _frame()
    x, y = v["x"], v["y"]
    grad = hl.Func("grad")
    grad[x, y] = (hl.i8(hw_input[x + 1, y]) - hl.i8(hw_input[x, y]), hw_input[x, y])
    hw_output[x, y] = hl.i16(grad[x, y][0]) * 3 + hl.i16(grad[x, y][1])
    return _accelerate(v, hw_input, hw_output, output, [grad])


def _signed_expected(a):
    d = (a[:H, 1:W + 1].astype(np.int8) - a[:H, :W].astype(np.int8)).astype(np.int8)  # wraps as int8
    return (d.astype(np.int16) * 3 + a[:H, :W].astype(np.int16)).astype(np.int16)


def tuple_accelerator_output():
    """The accelerator's output is a Tuple (a wrapping sum and a Bool): its words stream out packed and the
    host's output unpacks them."""
    v, hw_input, hw_output, output = _frame()
    x, y = v["x"], v["y"]
    hw_output[x, y] = (hw_input[x, y] + hw_input[x + 1, y], hw_input[x, y] > 100)
    output[x, y] = hl.u16(hw_output[x, y][0]) * 2 + hl.select(hw_output[x, y][1], hl.u16(1), 0)
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, v["xo"], v["yo"], v["xi"], v["yi"], W, H).hw_accelerate(v["xi"], v["xo"])
    hw_input.compute_root().stream_to_accelerator()
    return output


def _tuple_output_expected(a):
    total = (a[:H, :W].astype(np.uint16) + a[:H, 1:W + 1]) % 256
    return (total * 2 + (a[:H, :W] > 100)).astype(np.uint16)


def argmax_autoscheduled():
    """argmax_window's algorithm with no schedule but estimates, scheduled by the autoscheduler."""
    v, hw_input, _hw_output, output = _frame()
    x, y = v["x"], v["y"]
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = hl.argmax(r, hw_input[x + r.x, y + r.y])
    output[x, y] = hl.u16(best[x, y][0] + 3 * best[x, y][1]) * 256 + best[x, y][2]
    output.set_estimates([(0, W), (0, H)])
    hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {}))
    return output


DESIGNS = {
    "argmax_inline": (lambda: argmax_window(None), np.uint8, (0, 8), _argmax_expected),
    "argmax_hand_serial": (lambda: argmax_window("serial"), np.uint8, (0, 8), _argmax_expected),
    "argmax_hand_unrolled": (lambda: argmax_window("unrolled"), np.uint8, (0, 8), _argmax_expected),
    "argmin_row": (argmin_row, np.int16, (-50, 50), _argmin_expected),
    "argmin_row_centred": (lambda: argmin_row(-2), np.int16, (-50, 50), lambda a: _argmin_expected(a, -2)),
    "sum_count": (sum_count, np.uint8, (0, 256), _sum_count_expected),
    "old_pair": (old_pair, np.uint8, (0, 256), _old_pair_expected),
    "signed_pair": (signed_pair, np.uint8, (0, 256), _signed_expected),
    "argmax_auto": (argmax_autoscheduled, np.uint8, (0, 8), _argmax_expected),
    "sum_count_auto": (lambda: sum_count(auto=True), np.uint8, (0, 256), _sum_count_expected),
    "old_pair_auto": (lambda: old_pair(auto=True), np.uint8, (0, 256), _old_pair_expected),
    "accelerator_output": (tuple_accelerator_output, np.uint8, (0, 256), _tuple_output_expected),
}


@functools.cache
def _design(kind: str):
    build, dtype, (lo, hi), expected = DESIGNS[kind]
    design = hl.compile(build(), name=f"tuple_{kind}")
    # small values (argmax's cases) make ties, so the first occurrence matters
    image = np.random.default_rng(5).integers(lo, hi, (H + 2, W + 4)).astype(dtype)
    return design, image, expected(image)


@pytest.mark.parametrize("kind", grouped("tuples", sorted(DESIGNS)))
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_tuple_design_is_bit_exact_and_equal_to_numpy(kind, simulator, build_dir):
    design, image, want = _design(kind)
    assert np.array_equal(design.reference_output({"input": image}), want)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    assert np.array_equal(res.output, want)
    assert res.cycles == res.predicted_cycles


def test_argmax_design_packs_its_tuple_into_one_16_bit_word():
    # two 2-bit coordinates (the RDom's range 0..2) and the uint8 value: 12 bits, so one 16-bit word a point
    design, _image, _want = _design("argmax_inline")
    best = design.pipe.functions["best"]
    assert best.type == hl.UInt(16)
    assert [(f.offset, f.width) for f in best.tuple_layout.fields] == [(0, 2), (2, 2), (4, 8)]


def _sum_count_apart():
    """sum_count's algorithm with the sum and the count in Funcs of their own."""
    v, hw_input, hw_output, output = _frame()
    x, y = v["x"], v["y"]
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "r")
    total, count = hl.Func("total"), hl.Func("count")
    p = hw_input[x + r.x, y + r.y]
    total[x, y] = hl.u16(0)
    total[x, y] += hl.select(p > 100, hl.u16(p), 0)
    count[x, y] = hl.u8(0)
    count[x, y] += hl.select(p > 100, hl.u8(1), hl.u8(0))
    for f in (total, count):
        f.update().unroll(r.x).unroll(r.y)
    hw_output[x, y] = total[x, y] / hl.u16(hl.max(count[x, y], 1))
    return _accelerate(v, hw_input, hw_output, output, [total, count])


def test_an_unrolled_tuple_reduction_costs_no_more_than_its_elements_apart():
    # hwlower/fields.py: each unrolled step reads the fields the step before packed, so the word is packed once,
    # at the end, not unpacked and repacked at every step (135 PEs at 64x64 before, 55 after)
    design, image, want = _design("sum_count")
    apart = hl.compile(_sum_count_apart(), name="tuple_sum_count_apart")
    assert np.array_equal(apart.reference_output({"input": image}), want)
    assert design.report["pes"] <= apart.report["pes"] + 4, (design.report["pes"], apart.report["pes"])
