"""A Func reading RAMs at two or more computed coordinates in one definition (hwlower/ram_lookups.py): all but
one read come from Funcs of their own, computed where the reader is. Halide accepts these programs as written; they
used to be refused ("reads RAM 'hist' at two computed coordinates per firing"). Bit-exact on both simulators, and
the first design also against NumPy computed independently."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS

W, H = 8, 8


def _hist(hw_input, bins: int = 256):
    b = hl.Var("b")
    r = hl.RDom([hl.Range(0, W), hl.Range(0, H)], "r")
    hist = hl.Func("hist")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(hw_input[r.x, r.y]) * bins // 256, 0, bins - 1)] += hl.u16(1)
    return hist


def _accelerate(hw_output, output, hw_input, *at_xo):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    for f in at_xo:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()


def _pipeline(body):
    """hw_input, output and hw_output = body(hw_input, x, y) copied out; body returns (value, Funcs at xo)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(input_[x, y])
    value, at_xo = body(hw_input, x, y)
    hw_output[x, y] = value
    output[x, y] = hw_output[x, y]
    _accelerate(hw_output, output, hw_input, *at_xo)
    return output


def _own_and_mirrored(hw_input, x, y):
    # Each pixel's count and its mirrored value's count, the second read through an inline Func.
    hist = _hist(hw_input)
    at = hl.clamp(hl.i32(hw_input[x, y]), 0, 255)
    mirrored = hl.Func("mirrored")
    mirrored[x, y] = hist[255 - at]
    return hist[at] * 4 + mirrored[x, y], [hist]


def _two_tables(hw_input, x, y):
    # Two RAMs in one op: the histogram of the high nibbles and that of the low ones.
    high, low = _hist(hw_input, 16), hl.Func("low")
    b, r = hl.Var("b"), hl.RDom([hl.Range(0, W), hl.Range(0, H)], "q")
    low[b] = hl.u16(0)
    low[hl.clamp(hl.i32(hw_input[r.x, r.y]) & 15, 0, 15)] += hl.u16(1)
    v = hl.i32(hw_input[x, y])
    return high[hl.clamp(v >> 4, 0, 15)] * 100 + low[hl.clamp(v & 15, 0, 15)], [high, low]


def _update_reads_twice(hw_input, x, y):
    # An update at the pure coordinates reading the table at two computed coordinates.
    hist, acc = _hist(hw_input, 16), hl.Func("acc")
    v = hl.i32(hw_input[x, y]) >> 4
    acc[x, y] = hw_input[x, y]
    acc[x, y] += hist[hl.clamp(v, 0, 15)] - hist[hl.clamp(15 - v, 0, 15)]
    return acc[x, y], [hist, acc]


def _scan_read_twice(hw_input, x, y):
    # Histogram equalisation's running sum (a scan: read through the compiler's RAM copy) at a pixel's level and
    # at the level below it.
    hist, cdf = _hist(hw_input, 16), hl.Func("cdf")
    b, c = hl.Var("b"), hl.RDom([hl.Range(1, 15)], "c")
    cdf[b] = hist[b]
    cdf[c.x] = cdf[c.x - 1] + hist[c.x]
    level = hw_input[x, y] >> 4
    return cdf[hl.clamp(level, 0, 15)] * 4 - cdf[hl.clamp(level, 1, 15) - 1], [hist, cdf]


DESIGNS = {"own_and_mirrored": _own_and_mirrored, "two_tables": _two_tables,
           "update_reads_twice": _update_reads_twice, "scan_read_twice": _scan_read_twice}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("name", list(DESIGNS))
def test_two_lookups_in_one_definition(name, simulator, compile_shared, build_dir):
    design = compile_shared(_pipeline(DESIGNS[name]), name=f"lookups_{name}")
    split = [b["name"] for b in design.report["buffers"] if "_lookup" in b["name"]]
    assert len(split) == 1, design.report["buffers"]  # one read moved out, one kept
    image = random_image(W, H, seed=29)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    if name == "own_and_mirrored":
        counts = np.bincount(image.ravel(), minlength=256)
        want = (counts[image] * 4 + counts[255 - image]).astype(np.uint16)
        assert np.array_equal(res.output, want)


def test_a_lookup_split_by_the_user_and_inlined_by_the_autoscheduler():
    # The user's own split (a Func h of one lookup, as the old refusal asked) is inlined by the autoscheduler back
    # into the reader that makes the other lookup: the compiler splits them again.
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    r = hl.RDom([hl.Range(0, W), hl.Range(0, H)], "r")
    hist, h, out = hl.Func("hist"), hl.Func("h"), hl.Func("out")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(input_[r.x, r.y]), 0, 255)] += hl.u16(1)
    h[x, y] = hist[hl.i32(input_[x, y])]
    out[x, y] = hl.u8(hl.min(h[x, y] + hist[hl.i32(input_[x + 1, y])], 255))
    out.set_estimates([(0, W - 1), (0, H)])
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    design = hl.compile(out, name="lookups_auto")
    assert "out_lookup" in [b["name"] for b in design.report["buffers"]]
    design.check({"input": random_image(W, H, seed=31)}, simulator="icarus")
