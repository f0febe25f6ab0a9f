"""Catalogue cases: lanes through seed 002's GLB level (hwlower/, memories/glb.py): the GLB input copy's split
by a factor that does not divide it. (The GLB output read back along y first over lanes of x compiles since session
36: tests/flow/test_glb22.py.)"""

from __future__ import annotations

import mainspring as hl

from catalogue import case, glb_levels, pipeline

R = hl.TailStrategy.RoundUp


@case("hardware", "A GLB input copy split by a factor that does not divide its extent", (
    "{at}: Func 'hw_input_global_wrapper': unroll(x, 2): the extent of x is 9, which 2 does not "
    "divide; in hardware a tail must round the loop up (tail strategy Auto is not supported). Use "
    "unroll(x, 2, hl.TailStrategy.RoundUp) (the extra iterations compute values that are discarded), choose a "
    "factor that divides 9, or bound the Func to a multiple of 2."), func="hw_input_global_wrapper",
    simulate=True)
def split_does_not_divide():
    p = glb_levels(pipeline(32, 32))
    p.hw_input.in_().unroll(p.x, 2)  # <-
    return hl.compile(_glb_lanes(p, hl.TailStrategy.Auto).output, name="demo")


@split_does_not_divide.fix
def _():
    p = glb_levels(pipeline(32, 32))
    p.hw_input.in_().unroll(p.x, 2, R)
    return hl.compile(_glb_lanes(p, R).output, name="demo")


@case("hardware", "A GLB input copy split by hand by a factor that does not divide its extent", (
    "{at}: Func 'hw_input_global_wrapper': split(x, x, xl, 2): the extent of x is 9, which 2 does not "
    "divide; in hardware a tail must round the loop up (tail strategy Auto is not supported). Use "
    "split(x, x, xl, 2, hl.TailStrategy.RoundUp) (the extra iterations compute values that are discarded), "
    "choose a factor that divides 9, or bound the Func to a multiple of 2."), func="hw_input_global_wrapper",
    simulate=True)
def hand_split_does_not_divide():
    p = glb_levels(pipeline(32, 32))
    xl = hl.Var("xl")
    p.hw_input.in_().split(p.x, p.x, xl, 2).unroll(xl)  # <-
    return hl.compile(_glb_lanes(p, hl.TailStrategy.Auto).output, name="demo")


@hand_split_does_not_divide.fix
def _():
    p = glb_levels(pipeline(32, 32))
    xl = hl.Var("xl")
    p.hw_input.in_().split(p.x, p.x, xl, 2, R).unroll(xl)
    return hl.compile(_glb_lanes(p, R).output, name="demo")


def _glb_lanes(p, tail):
    """Two lanes through seed 002's three levels (`glb_levels`) after the GLB input copy's: the memory tile's copy
    over its 9 columns, mid and the array output."""
    p.hw_input.in_().in_().unroll(p.x, 2, tail)
    p.mid.unroll(p.x, 2, tail)
    p.hw_output.unroll(hl.Var("xii"), 2)
    return p


@case("memories", "A GLB input of 2 lanes read by memory tiles an odd count of columns apart", (
    "{glb_tile}: Func 'hw_output_global_wrapper': GLB input 'hw_input_global_wrapper' holds 2 words of x per GLB "
    "entry (its stream's lanes), so each memory tile must read it from whole entries, but the array's memory tiles "
    "read it from columns 0, 5, 10, 15 of the GLB tile; tile the array's output by a multiple of 2 columns, so that "
    "its memory tiles start at whole entries"), func="hw_input_global_wrapper", simulate=True,
    note="Halide accepts it; an internal assert before session 38 (the memory tiles round up to the output's "
         "lanes, 1 here)")
def glb_input_lanes_in_odd_memory_tiles():
    return hl.compile(_input_lanes(glb_levels(pipeline(32, 32), mem_tile=(5, 8))).output, name="demo")


@glb_input_lanes_in_odd_memory_tiles.fix
def _():
    return hl.compile(_input_lanes(glb_levels(pipeline(32, 32), mem_tile=(6, 8))).output, name="demo")


def _input_lanes(p):
    """The GLB input copy and the memory tile's copy two words of x a transfer, the array output one."""
    p.hw_input.in_().unroll(p.x, 2, R)
    p.hw_input.in_().in_().unroll(p.x, 2, R)
    return p
