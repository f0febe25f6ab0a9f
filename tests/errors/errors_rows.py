"""Catalogue cases: an accelerator input streamed several rows per transfer (`hw_input.unroll(y, 2)`, session 36)
whose reader cannot take the rows of each transfer in turn (hwlower/streams.py `_check_rows`). A window of rows
over such a stream compiles (tests/flow/test_glbrows22.py; refused before as `rows_through_a_window`), and so
do several Funcs reading it a row a firing (tests/flow/test_rows40.py; refused before as `rows_read_twice`)."""

from __future__ import annotations

import mainspring as hl

from catalogue import case, glb_levels, pipeline

R = hl.TailStrategy.RoundUp


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
