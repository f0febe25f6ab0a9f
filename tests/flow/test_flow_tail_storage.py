"""Storage of tails that round up inside the accelerator (hwlower/shift_tails.py, rvar_tails.py): a split whose
factor does not divide its loop runs past the box its consumers read, with its reads guarded. The guarded reads
keep the shape of the unguarded ones: the streams are paced to the rounded rows (memories/schedule.py `_dense`),
so the reads stay taps of delay lines, and a guarded load is one read port over the hull of its reads
(memories/mapping.py `_read_boxes`), not a port per box of the guard. Bit for bit on both simulators, with the
storage pinned near the exact minimum and equal in memory tiles to the program whose split divides."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")
T = hl.TailStrategy


def _blur(split: str, width: int, height: int):
    """A 3-tap blur of the input and a 2-tap sum of it (the blur's box one column and row larger than the
    output's), the blur's loops split inside the accelerator by `split`: "tile" 4x3, "y" by 2, "none"."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    bxo, byo, bxi, byi = (hl.Var(n) for n in ("bxo", "byo", "bxi", "byi"))
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
    hw_output[x, y] = blur[x, y] + blur[x + 1, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    blur.compute_at(hw_output, xo)
    if split == "tile":
        blur.tile(x, y, bxo, byo, bxi, byi, 4, 3)
    elif split == "y":
        blur.split(y, byo, byi, 2, T.GuardWithIf)
    hw_input.compute_root().stream_to_accelerator()
    rng = np.random.default_rng(width * 31 + height)
    return output, {"input": rng.integers(0, 4000, (height + 2, width + 2)).astype(np.uint16)}


def _buffers(design) -> dict[str, dict]:
    return {b["name"]: b for b in design.report["buffers"]}


# (split, output width, height): the blur's box is (width + 1) x (height + 1), which the split does not divide
ROUNDED = [("tile", 13, 7), ("y", 12, 6)]


@pytest.mark.parametrize(("split", "width", "height"), ROUNDED, ids=[f"{s}_{w}x{h}" for s, w, h in ROUNDED])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_rounded_up_stage_is_stored_in_delay_lines(split, width, height, simulator, build_dir, compile_shared):
    # Before: 19 memory tiles and 134 words for the input (minimum 24) for the 4x3 tiles over a 14x8 box, 4 tiles
    # and 66 words (minimum 22) for y by 2 over 7 rows: the rows of the rounded stage were longer than the stream's,
    # so its reads changed delay and went through addressed banks, one port per box of the guard.
    out, inputs = _blur(split, width, height)
    design = compile_shared(out, name=f"tail_{split}")
    plain = compile_shared(_blur("none", width, height)[0], name=f"tail_{split}_plain")
    # hw_input's one delay line and blur's share one tile (memories/shared_tiles.py; 2 tiles before)
    assert design.report["mem_tiles"] == plain.report["mem_tiles"] == 1
    bufs = _buffers(design)
    assert bufs["hw_input"]["words"] == bufs["hw_input"]["min_words"]
    # a delay line holds the rounded rows' columns past the box too (one of 16 for 14 read with 4x3 tiles)
    rounded_x = -(-(width + 1) // 4) * 4 if split == "tile" else width + 1
    assert bufs["blur"]["words"] <= bufs["blur"]["min_words"] + (rounded_x - width) + 1
    assert design.report["predicted_cycles"] <= 1.05 * design.report["ideal_cycles"]
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _conv(taps: int):
    """A weighted sum over taps x 3 of a buffered producer, r.x split by 2 (a guarded tail when taps is odd), r.y
    unrolled: three loads of the producer per step, each guarded to the steps in the domain."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    width, height = 10, 6
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, pre, acc, hw_output, output = (hl.Func(n) for n in ("hw_input", "pre", "acc", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    pre[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    r = hl.RDom([hl.Range(0, taps), hl.Range(0, 3)], "r")
    acc[x, y] = hl.u16(7)
    acc[x, y] += pre[x + r.x, y + r.y] * hl.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, height).hw_accelerate(xi, xo)
    acc.compute_at(hw_output, xo)
    pre.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    acc.update().split(r.x, hl.RVar("ro"), hl.RVar("ri"), 2, T.GuardWithIf).unroll(r.y)
    rng = np.random.default_rng(taps)
    return output, {"input": rng.integers(0, 3000, (height + 2, width + taps)).astype(np.uint16)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_reduction_tail_reads_through_one_port_per_load(simulator, build_dir, compile_shared):
    # Before: each load's reads (all steps but the one past r.x's 3) were two boxes, two read ports: 6 ports for a
    # tile's 4, so 3 banks holding the producer each, 169 words (minimum 75) in 4 memory tiles.
    out, inputs = _conv(3)
    design = compile_shared(out, name="tail_conv")
    divides = compile_shared(_conv(4)[0], name="tail_conv_divides")
    assert design.report["mem_tiles"] == divides.report["mem_tiles"]
    pre = _buffers(design)["pre"]
    even = _buffers(divides)["pre"]
    assert pre["words"] - pre["min_words"] <= even["words"] - even["min_words"]
    # the ports of the program whose split divides, over every step (banks by row parity: two per load)
    assert _port_domains(design) == _port_domains(divides)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def _port_domains(design) -> list[tuple[str, tuple]]:
    return [(p.load, p.domain) for p in design.plan.buffer("pre").read_ports if p.op == "acc_s1"]
