"""Catalogue cases: an accelerator input streamed several rows per transfer (`hw_input.unroll(y, 2)`, session 36)
whose reader cannot take the rows of each transfer in turn (hwlower/streams.py `_check_rows`). A window of rows
over such a stream compiles (tests/flow/test_glbrows22.py; refused before as `rows_through_a_window`), and so
do several Funcs reading it a row a firing (tests/flow/test_rows40.py; refused before as `rows_read_twice`)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case, glb_levels, pipeline

R = hl.TailStrategy.RoundUp


def _serial_rows(unroll_taps: bool = False):
    """mid sums 3 rows of hw_input (2 rows a transfer) in a serial RDom r (unrolled with `unroll_taps`), a pixel a
    firing; hw_output adds mid's row below, 8 x 7."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = (hl.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    r = hl.RDom([hl.Range(0, 3)], "r")
    hw_input[x, y] = input_[x, y]
    mid[x, y] = hl.u16(0)
    mid[x, y] += hw_input[x, y + r.x]  # <-serial_rows
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 7)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 7).hw_accelerate(xi, xo)
    mid.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator().unroll(y, 2, R)  # <-rows_stream
    if unroll_taps:
        mid.update().unroll(r.x)
    return hl.compile(output, name="demo")


@case("hardware", "A serial loop of taps along y over rows per transfer, read a row a firing", (
    "{serial_rows}: Func 'mid'.update(0) reads 'hw_input' one value of y per firing, but accelerator input "
    "'hw_input' streams 2 values of y per transfer (hw_input.unroll(y, 2, hl.TailStrategy.RoundUp) at {rows_stream}), "
    "so it must take the words of each transfer in turn, over whole steps of 2 of its loop over r.x; its serial loop "
    "r.x has 3 steps, not whole steps of 2, and its loop over y moves across the rows too. Fix: unroll that loop "
    "(mid.update(0).unroll(r.x)), or remove hw_input.unroll(y, 2, hl.TailStrategy.RoundUp) to stream 'hw_input' a "
    "word per transfer"), func="mid", simulate=True,
    note="named the loop over y and a rounding unroll of it, whose design memories refused, until session 40")
def rows_serial_taps_a_row_a_firing():
    return _serial_rows()


@rows_serial_taps_a_row_a_firing.fix
def _():
    return _serial_rows(unroll_taps=True)


@case("memories", "Rows per transfer in the GLB over memory tiles an odd count of rows apart", (
    "{glb_tile}: Func 'hw_output_global_wrapper': GLB input 'hw_input_global_wrapper' holds 2 rows per GLB entry "
    "(its stream's lanes along y), so each memory tile must read it over whole entries, but the array's memory tiles "
    "read 6 rows of it from row 0 of the GLB tile, 5 rows apart; tile the array's output by a multiple of 2 rows "
    "(with a RoundUp tail), so that its memory tiles start at whole entries"), func="hw_input_global_wrapper",
    simulate=True,
    note="since session 41 memory tiles round up to whole entries where the input's dimension has the array "
         "output's name (tests/flow/test_tails41.py); here hw_input is defined over c, r")
def glb_rows_in_odd_memory_tiles():
    p = glb_levels(pipeline(32, 32, input_vars=("c", "r")), mem_tile=(8, 5))
    p.hw_input.in_().unroll(p.iy, 2, R)
    p.hw_input.in_().in_().unroll(p.iy, 2, R)
    return hl.compile(p.output, name="demo")


@glb_rows_in_odd_memory_tiles.fix
def _():
    p = glb_levels(pipeline(32, 32, input_vars=("c", "r")), mem_tile=(8, 6))
    p.hw_input.in_().unroll(p.iy, 2, R)
    p.hw_input.in_().in_().unroll(p.iy, 2, R)
    return hl.compile(p.output, name="demo")
