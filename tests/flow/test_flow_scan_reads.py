"""Funcs read at coordinates computed from loaded values that cannot be RAMs themselves (hwlower/ram_copies.py):
histogram equalisation reading its scan directly (`cdf(level(x, y))`, issue 8), through a RAM copy the compiler
adds, hand-scheduled and autoscheduled; the same hardware as the copy written by hand (tests/flow/
test_flow_scatter.py); and other tables read so (an offset, a 2-D scan, an accelerator input, a pure Func, a
histogram starting at the image's first row). Bit-exact on both simulators; the reference agrees with Halide 21."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS


def _equalisation(m, w: int, h: int, levels: int, copy: bool = False, offset: bool = False):
    """Each pixel mapped through the running sum of its image's histogram, the sum (a scan) read at the pixel's
    level; `copy`: through a RAM copy written by hand, as before the compiler added it; `offset`: the sum of the
    levels below the pixel's (the scan read at its level - 1)."""
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    input_ = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, hist, cdf, hw_output, output = (m.Func(n) for n in ("hw_input", "hist", "cdf", "hw_output", "output"))
    hw_input[x, y] = m.u16(input_[x, y])
    shift = 8 - (levels - 1).bit_length()
    r = m.RDom([m.Range(0, w), m.Range(0, h)], "r")
    hist[b] = m.u16(0)
    hist[m.clamp(m.i32(hw_input[r.x, r.y]) >> shift, 0, levels - 1)] += m.u16(1)
    c = m.RDom([m.Range(1, levels - 1)], "c")
    cdf[b] = hist[b]
    cdf[c.x] = cdf[c.x - 1] + hist[c.x]
    read = cdf
    if copy:
        q = m.RDom([m.Range(0, levels)], "q")
        read = m.Func("cdf_ram")
        read[b] = m.u16(0)
        read[q.x] = cdf[q.x]
    level = m.clamp(m.i32(hw_input[x, y]) >> shift, 1, levels - 1) - 1 if offset else \
        m.clamp(m.i32(hw_input[x, y]) >> shift, 0, levels - 1)
    hw_output[x, y] = read[level] * 255 / (w * h)
    output[x, y] = m.u8(hw_output[x, y])
    return input_, (hist, cdf) + ((read,) if copy else ()), hw_input, hw_output, output


def _scheduled(w: int, h: int, levels: int, how: str, copy: bool = False, offset: bool = False):
    """The design's output, scheduled by hand (the whole frame one tile, the tables at the accelerator's loop) or
    by the autoscheduler."""
    _, tables, hw_input, hw_output, output = _equalisation(hl, w, h, levels, copy, offset)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    output.bound(x, 0, w).bound(y, 0, h)
    if how == "auto":
        output.set_estimates([(0, w), (0, h)])
        hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    else:
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
        for f in tables:
            f.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output


def _figures(design) -> tuple:
    rep = design.report
    return (rep["predicted_cycles"], rep["pes"], rep["mem_tiles"],
            sorted((b["name"], b["level"], b["words"]) for b in rep["buffers"]))


# (schedule, levels, width, height): both schedules at both level counts and two frame sizes
CASES = [("hand", 16, 12, 6), ("hand", 64, 16, 9), ("auto", 64, 12, 6), ("auto", 16, 16, 9)]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("how", "levels", "w", "h"), CASES)
def test_equalisation_reads_its_scan_directly(how, levels, w, h, simulator, compile_shared, build_dir):
    design = compile_shared(_scheduled(w, h, levels, how), name=f"equalise_direct_{how}_{levels}_{w}x{h}")
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "cdf_ram"]  # the compiler's copy
    assert ram["min_words"] == levels, ram
    image = random_image(w, h, seed=levels + w)
    image[0, :3] = 255  # the top level, and the bottom one: the clamps' ends
    image[1, :2] = 0
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=3)


@pytest.mark.parametrize(("how", "levels", "w", "h"), CASES)
def test_the_direct_read_builds_what_the_copy_written_by_hand_builds(how, levels, w, h):
    direct = hl.compile(_scheduled(w, h, levels, how), name="direct")
    by_hand = hl.compile(_scheduled(w, h, levels, how, copy=True), name="by_hand")
    assert _figures(direct) == _figures(by_hand)


def test_the_direct_read_equals_halide(halide_loader):
    image = random_image(12, 6, seed=7)

    def realize(m, offset):
        input_, *_, out = _equalisation(m, 12, 6, 16, offset=offset)
        input_.set(m.Buffer(image))
        return np.asarray(out.realize([12, 6]))

    for offset in (False, True):
        assert np.array_equal(realize(hl, offset), realize(halide_loader(), offset))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_scan_read_at_its_level_minus_one(simulator, compile_shared, build_dir):
    design = compile_shared(_scheduled(12, 6, 16, "hand", offset=True), name="equalise_offset")
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "cdf_ram"]
    assert ram["min_words"] == 15, ram  # levels 0 to 14 only
    res = design.check({"input": random_image(12, 6, seed=11)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _table_read(kind: str, w: int = 16, h: int = 6):
    """A 16-entry table read at each pixel's high nibble, computed inside: "scan2d" a running sum along the rows
    of a 4 x 4 joint histogram (read at the top two bits and the next two), "input" the image's first row itself
    (an accelerator input), "pure" a Func of that row, "start" a histogram starting at that row."""
    x, y, b, v = hl.Var("x"), hl.Var("y"), hl.Var("b"), hl.Var("v")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, t, s, hw_output, output = (hl.Func(n) for n in ("hw_input", "t", "s", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, w), hl.Range(0, h)], "r")
    nibble = hl.clamp(hl.i32(hw_input[x, y]) >> 4, 0, 15)
    tables: tuple = (t,)
    if kind == "scan2d":
        px = hw_input[r.x, r.y]
        t[b, v] = hl.u16(0)
        t[hl.i32(px >> 6), hl.i32((px >> 4) & 3)] += hl.u16(1)
        c = hl.RDom([hl.Range(1, 3)], "c")
        s[b, v] = t[b, v]
        s[c.x, v] = s[c.x - 1, v] + t[c.x, v]
        hw_output[x, y] = s[hl.i32(hw_input[x, y] >> 6), hl.i32((hw_input[x, y] >> 4) & 3)]
        tables = (t, s)
    elif kind == "input":
        hw_output[x, y] = hw_input[nibble, 0] + hw_input[x, y]
        tables = ()
    elif kind == "pure":
        t[b] = hw_input[b, 0] * 3
        hw_output[x, y] = t[nibble] + t[2]
    else:
        t[b] = hw_input[b, 0]
        t[hl.clamp(hl.i32(hw_input[r.x, r.y]) >> 4, 0, 15)] += hl.u16(1)
        hw_output[x, y] = t[nibble]
    output[x, y] = hl.u8(hw_output[x, y])
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, w).bound(y, 0, h)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).hw_accelerate(xi, xo)
    for f in tables:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("kind", "ram"), [("scan2d", "s_ram"), ("input", "hw_input_ram"), ("pure", "t"),
                                           ("start", "t")])
def test_a_table_read_at_computed_coordinates_is_a_ram_or_read_through_one(kind, ram, simulator, compile_shared,
                                                                         build_dir):
    """Refused before ('... is not a RAM'): each is a RAM of 16 words now, the scan and the input through a
    copy, the pure Func and the histogram (its start the image's row, written as a first update) themselves."""
    design = compile_shared(_table_read(kind), name=f"table_read_{kind}")
    (buf,) = [b for b in design.report["buffers"] if b["name"] == ram]
    assert buf["level"] == "mem_tile" and buf["min_words"] == 16, buf
    image = random_image(16, 6, seed=29)
    image[0, 0] = 200
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _equalisation_in_tiles():
    """The scan read at each pixel's level by an inline Func and at a constant coordinate by the output, in host
    tiles of 6 columns of a 12x6 frame (the histogram over the whole frame in each)."""
    _, (hist, cdf), hw_input, _, _ = _equalisation(hl, 12, 6, 16)
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    mapped, hw_output, output = hl.Func("mapped"), hl.Func("hw_output2"), hl.Func("output2")
    mapped[x, y] = cdf[hl.clamp(hl.i32(hw_input[x, y]) >> 4, 0, 15)]
    hw_output[x, y] = mapped[x, y] * 2 + cdf[3]
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 12).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 6).hw_accelerate(xi, xo)
    hist.compute_at(hw_output, xo)
    cdf.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_scan_read_by_an_inline_func_in_host_tiles(simulator, compile_shared, build_dir):
    design = compile_shared(_equalisation_in_tiles(), name="equalise_tiles")
    assert design.report["tiles"] == 2
    (ram,) = [b for b in design.report["buffers"] if b["name"] == "cdf_ram"]
    assert ram["min_words"] == 16, ram
    res = design.check({"input": random_image(12, 6, seed=13)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
