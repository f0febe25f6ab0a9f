"""Catalogue cases: an accelerator input streamed several rows per transfer (`hw_input.unroll(y, 2)`, session 36)
whose reader cannot take the rows of each transfer in turn (hwlower/streams.py `_check_rows`). A window of rows
over such a stream compiles (tests/flow/test_glbrows22.py; refused before as `rows_through_a_window`)."""

from __future__ import annotations

from types import SimpleNamespace

import mainspring as hl

from catalogue import accelerate, buffer, case, glb_levels, pipeline, stream

R = hl.TailStrategy.RoundUp


def rows(taps: int = 1, height: int = 8, second: bool = False):
    """hw_input -> mid (`taps` taps along y) -> hw_output (mid and its row below) -> output, 8 x `height`; with
    `second` a second Func reads hw_input too."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, other, hw_output, output = (hl.Func(n) for n in ("hw_input", "mid", "other", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    mid[x, y] = hw_input[x, y] + sum((hw_input[x, y + k] for k in range(1, taps)), hl.u16(0))  # <-mid
    other[x, y] = hw_input[x, y] * 3
    hw_output[x, y] = mid[x, y] + mid[x, y + 1] + (other[x, y] if second else hl.u16(0))
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, height)
    p = SimpleNamespace(x=x, y=y, xo=xo, yo=yo, xi=xi, yi=yi, input=input_, hw_input=hw_input, mid=mid,
                        hw_output=hw_output, output=output, width=8, height=height)
    accelerate(p)
    buffer(p, mid, other) if second else buffer(p)
    stream(p)
    return p


@case("hardware", "Rows streamed side by side read by two Funcs", (
    "{mid}: Func 'mid' reads 'hw_input' one value of y per firing, but accelerator input 'hw_input' streams 2 "
    "values of y per transfer (hw_input.unroll(y, 2, hl.TailStrategy.RoundUp) at {at}), so it must take the words "
    "of each transfer in turn, over whole steps of 2 of its loop over y; 'hw_input' has other readers, or that "
    "loop holds other ops, which would take its rows at other paces. Fix: remove hw_input.unroll(y, 2, "
    "hl.TailStrategy.RoundUp) to stream 'hw_input' a word per transfer"), func="mid", simulate=True,
    note="Halide accepts it; readers that each took the rows in turn would run at different paces")
def rows_read_twice():
    p = rows(height=7, second=True)
    p.hw_input.unroll(p.y, 2, R)  # <-
    return hl.compile(p.output, name="demo")


@rows_read_twice.fix
def _():
    return hl.compile(rows(height=7, second=True).output, name="demo")


@case("memories", "Rows per transfer in the GLB over memory tiles an odd count of rows apart", (
    "{glb_tile}: Func 'hw_output_global_wrapper': GLB input 'hw_input_global_wrapper' holds 2 rows per GLB entry "
    "(its stream's lanes along y), so each memory tile must read it over whole entries, but the array's memory tiles "
    "read 6 rows of it from row 0 of the GLB tile, 5 rows apart; tile the array's output by a multiple of 2 rows "
    "(with a RoundUp tail), so that its memory tiles start at whole entries"), func="hw_input_global_wrapper",
    simulate=True)
def glb_rows_in_odd_memory_tiles():
    p = glb_levels(pipeline(32, 32), mem_tile=(8, 5))
    p.hw_input.in_().unroll(p.y, 2, R)
    p.hw_input.in_().in_().unroll(p.y, 2, R)
    return hl.compile(p.output, name="demo")


@glb_rows_in_odd_memory_tiles.fix
def _():
    p = glb_levels(pipeline(32, 32), mem_tile=(8, 6))
    p.hw_input.in_().unroll(p.y, 2, R)
    p.hw_input.in_().in_().unroll(p.y, 2, R)
    return hl.compile(p.output, name="demo")
