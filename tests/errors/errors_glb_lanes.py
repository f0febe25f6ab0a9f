"""Catalogue cases: lanes through seed 002's GLB level (hwlower/, memories/glb.py). (The GLB output read back along
y first over lanes of x compiles since session 36: tests/flow/test_glb22.py; the GLB input copy split by a factor
that does not divide it, with Halide's default tail, since session 41: tests/flow/test_tails41.py.)"""

from __future__ import annotations

import mainspring as hl

from catalogue import case, glb_levels, pipeline

R = hl.TailStrategy.RoundUp


@case("memories", "A GLB input of 2 lanes read by memory tiles an odd count of columns apart", (
    "{glb_tile}: Func 'hw_output_global_wrapper': GLB input 'hw_input_global_wrapper' holds 2 words of x per GLB "
    "entry (its stream's lanes), so each memory tile must read it from whole entries, but the array's memory tiles "
    "read it from columns 0, 5, 10, 15 of the GLB tile; tile the array's output by a multiple of 2 columns, so that "
    "its memory tiles start at whole entries"), func="hw_input_global_wrapper", simulate=True,
    note="Halide accepts it; an internal assert before session 38 (the memory tiles round up to the output's "
         "lanes, 1 here). Since session 41 memory tiles round up to whole entries where the input's dimension has "
         "the array output's name (tests/flow/test_tails41.py); here hw_input is defined over c, r")
def glb_input_lanes_in_odd_memory_tiles():
    return hl.compile(_input_lanes(glb_levels(_other_vars(), mem_tile=(5, 8))).output, name="demo")


@glb_input_lanes_in_odd_memory_tiles.fix
def _():
    return hl.compile(_input_lanes(glb_levels(_other_vars(), mem_tile=(6, 8))).output, name="demo")


def _other_vars():
    return pipeline(32, 32, input_vars=("c", "r"))


def _input_lanes(p):
    """The GLB input copy and the memory tile's copy two words of its first dimension a transfer, the array output
    one."""
    p.hw_input.in_().unroll(p.ix, 2, R)
    p.hw_input.in_().in_().unroll(p.ix, 2, R)
    return p
