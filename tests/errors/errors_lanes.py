"""Catalogue cases: producers and consumers whose lanes (pixels of x per cycle) disagree (hwlower/lanes.py). The
message lists every unroll its fix needs down the pipeline (hwlower/lane_chains.py), so that applying it compiles
in one step rather than meeting one refusal per consumer."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerate, buffer, case, pipeline, stream

R = hl.TailStrategy.RoundUp
_RULE = ("each lane of a consumer reads one lane of its producer, so the producer's lanes must divide what the "
         "consumer reads per cycle.")


def _serial_taps(unroll_taps: bool = False, input_lanes: bool = True, taps: int = 4, second: bool = False):
    """acc sums `taps` taps of hw_input along x over RDom r (serial unless `unroll_taps`), 2 lanes of x; hw_output
    copies it in 2 lanes (with `second`, adding hw_input's pixel at x / 2, an upsample); hw_input streams 2 words
    per transfer (`input_lanes`)."""
    p = pipeline()
    x, y = p.x, p.y
    r = hl.RDom([hl.Range(0, taps)], "r")
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    acc[x, y] += p.hw_input[x + r.x, y]
    p.hw_output = hl.Func("hw_output")
    p.hw_output[x, y] = acc[x, y] + (p.hw_input[x / 2, y] if second else hl.u16(0))
    p.output = hl.Func("output")
    p.output[x, y] = p.hw_output[x, y]
    p.output.bound(x, 0, 8).bound(y, 0, 8)
    accelerate(p)
    buffer(p, acc)
    stream(p)
    acc.unroll(x, 2)
    acc.update().unroll(x, 2)  # <-serial_taps
    if unroll_taps:
        acc.update().unroll(r.x)
    p.hw_output.unroll(p.xi, 2)
    return p


@case("hardware", "A serial loop of taps stepping across the lanes of a stream an upsample reads too", (
    "{serial_taps}: Func 'acc'.update(0) reads 'hw_input', which has 2 lanes (hw_input.unroll(x, 2) at {at}), "
    "along x in its serial loop r.x (a step of 1 per iteration): each iteration would read another lane. Unroll "
    "that loop (acc.update(0).unroll(r.x)), or remove hw_input.unroll(x, 2) so that 'hw_input' streams one lane."),
    func="acc", simulate=True, note="a stream's lanes are read in turn by its only reader (hwlower/lane_steps.py; "
    "over any count of serial taps since session 40), and since session 41 by a copy its readers share "
    "(frontend/stream_staging.py; this case with hw_output reading hw_input itself: tests/flow/"
    "test_shared_staging41.py): here hw_output reads it at x / 2, which the copy does not serve (its readers read "
    "taps of it)")
def lanes_serial_taps_beside_an_upsample():
    p = _serial_taps(taps=3, second=True)
    p.hw_input.unroll(p.x, 2)  # <-
    return hl.compile(p.output, name="demo")


@lanes_serial_taps_beside_an_upsample.fix
def _():
    # the message's other fix: unrolling r.x meets the upsample's own refusal (hw_output at 2 lanes reads one
    # pixel of the stream's x a firing)
    p = _serial_taps(taps=3, second=True)
    return hl.compile(p.output, name="demo")


def _upsample_over_lanes(fix: bool = False):
    """up(x, y) = f(x / 2, y / 2) at one lane over f (three taps of the stream) and the stream at 2 (both without
    their unroll: `fix`), 16 x 8."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f, up, hw_output, output = (hl.Func(n) for n in ("hw_input", "f", "up", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x + 2, y]
    up[x, y] = f[x / 2, y / 2]
    hw_output[x, y] = up[x, y] >> 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 16).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, xo)
    f.compute_at(hw_output, xo)
    up.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    if not fix:
        hw_input.unroll(x, 2)
        f.unroll(x, 2)  # <-f_lanes
    return hl.compile(output, name="demo")


@case("hardware", "An upsample at one lane over a producer of two that reads its stream through three taps", (
    "{f_lanes}: Func 'up' reads 'f', which has 2 lanes (f.unroll(x, 2) at {f_lanes}), along x at a quotient that "
    "moves by 1 per step of the upsample: each step would read another lane. Fix: remove f.unroll(x, 2) so that 'f' "
    "computes one lane, and remove hw_input.unroll(x, 2) so that 'hw_input' streams one word per transfer (a Func "
    "of one lane reads a stream's words in turn through at most 2 reads)."), func="up", simulate=True,
    note="named the strip-mined loop as one to unroll (up.unroll(x.strip_o)) until session 33; since session 40 a "
    "producer that can run at one lane does (hwlower/narrow.py, tests/flow/test_upsample_lanes40.py)")
def upsample_over_three_taps_in_lanes():
    return _upsample_over_lanes()


@upsample_over_three_taps_in_lanes.fix
def _():
    return _upsample_over_lanes(fix=True)

