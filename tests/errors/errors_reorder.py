"""Catalogue cases: reorder calls Halide refuses (frontend/schedule.py, frontend/reorder_hint.py): a loop the stage
does not have at that point (a misspelling, another Func's Var, a loop split or fused away) or named twice. The
message names the stage's loops then and the same reorder with names it has, which Halide accepts too. Also a
fuse of a loop with itself, a loop named by the name a rename took from it, a storage level given to a Func left
inline (frontend/pipeline.py), and hw_accelerate naming a loop of a Func with no dimensions (hwlower/region.py)."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerate, case, pipeline, scheduled, stream


@case("schedule", "reorder of a loop a tile split", (
    "{at}: In schedule for hw_output, could not find var x to reorder in the argument list.\n"
    "Vars: xi yi xo yo __outermost\n"
    "(in reorder(yi, x)): 'x' was split into xo and xi at {accelerate}; at this reorder hw_output has the loops xi, "
    "yi, xo, yo (innermost first). Fix: name those, e.g. hw_output.reorder(yi, xo)"), func="hw_output",
    simulate=True)
def reorder_unknown_loop():
    p = scheduled()
    p.hw_output.reorder(p.yi, p.x)  # <-
    return hl.compile(p.output, name="demo")


@reorder_unknown_loop.fix
def _():
    p = scheduled()
    p.hw_output.reorder(p.yi, p.xo)
    return hl.compile(p.output, name="demo")


@case("schedule", "reorder of a misspelt loop", (
    "{at}: In schedule for hw_output, could not find var yy to reorder in the argument list.\n"
    "Vars: xi yi xo yo __outermost\n"
    "(in reorder(yy, xi)): 'yy' is no loop of hw_output (a misspelling, or a Var of another Func?); at this "
    "reorder hw_output has the loops xi, yi, xo, yo (innermost first). Fix: name those, e.g. "
    "hw_output.reorder(yi, xi)"), func="hw_output", simulate=True)
def reorder_misspelt_loop():
    p = scheduled()
    p.hw_output.reorder(hl.Var("yy"), p.xi)  # <-
    return hl.compile(p.output, name="demo")


@reorder_misspelt_loop.fix
def _():
    p = scheduled()
    p.hw_output.reorder(p.yi, p.xi)
    return hl.compile(p.output, name="demo")


@case("schedule", "reorder naming a Var of another Func", (
    "{at}: In schedule for mid, could not find var xi to reorder in the argument list.\n"
    "Vars: x y __outermost\n"
    "(in reorder(xi, y)): 'xi' is no loop of mid (a misspelling, or a Var of another Func?); at this reorder mid "
    "has the loops x, y (innermost first). Fix: name those, e.g. mid.reorder(x, y)"), func="mid", simulate=True)
def reorder_another_funcs_var():
    p = scheduled()
    p.mid.reorder(p.xi, p.y)  # <-
    return hl.compile(p.output, name="demo")


@reorder_another_funcs_var.fix
def _():
    p = scheduled()
    p.mid.reorder(p.x, p.y)
    return hl.compile(p.output, name="demo")


@case("schedule", "reorder of a loop fused into another", (
    "{at}: In schedule for mid, could not find var xo to reorder in the argument list.\n"
    "Vars: xi xy __outermost\n"
    "(in reorder(xi, xo)): 'xo' was fused with y into xy at {at2}; at this reorder mid has the loops xi, xy "
    "(innermost first). Fix: name those, e.g. mid.reorder(xi, xy)"), func="mid", simulate=True)
def reorder_fused_loop():
    p, xy = scheduled(), hl.Var("xy")
    p.mid.split(p.x, p.xo, p.xi, 2).fuse(p.xo, p.y, xy)  # <-2
    p.mid.reorder(p.xi, p.xo)  # <-
    return hl.compile(p.output, name="demo")


@reorder_fused_loop.fix
def _():
    p, xy = scheduled(), hl.Var("xy")
    p.mid.split(p.x, p.xo, p.xi, 2).fuse(p.xo, p.y, xy)
    p.mid.reorder(p.xi, xy)
    return hl.compile(p.output, name="demo")


@case("schedule", "reorder names a loop twice",
      "{at}: In schedule for hw_output: reorder(xi, xi) names a loop twice", func="hw_output")
def reorder_names_a_loop_twice():
    p = scheduled()
    p.hw_output.reorder(p.xi, p.xi)  # <-
    return hl.compile(p.output, name="demo")


@reorder_names_a_loop_twice.fix
def _():
    p = scheduled()
    p.hw_output.reorder(p.xi, p.yi)
    return hl.compile(p.output, name="demo")


@case("schedule", "fuse of a loop with itself", (
    "{at}: In schedule for mid: fuse(x, x, t) names the loop x twice; fuse two different loops, the inner one "
    "first"), func="mid", simulate=True)
def fuse_a_loop_with_itself():
    p = scheduled()
    p.mid.fuse(p.x, p.x, hl.Var("t"))  # <-
    return hl.compile(p.output, name="demo")


@fuse_a_loop_with_itself.fix
def _():
    p = scheduled()
    p.mid.fuse(p.x, p.y, hl.Var("t"))
    return hl.compile(p.output, name="demo")


@case("schedule", "store_at on a Func left inline", (
    '{at}: Func "mid" is scheduled store_at(hw_output, xo), but is inlined. Funcs that use store_root or store_at '
    "must also call compute_root or compute_at: add mid.compute_at(hw_output, xo), or remove the store_at call"),
    func="mid", simulate=True)
def store_at_of_an_inlined_func():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.store_at(p.hw_output, p.xo)  # <-
    return hl.compile(p.output, name="demo")


@store_at_of_an_inlined_func.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.store_at(p.hw_output, p.xo)
    p.mid.compute_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


def _frame_sum():
    """A frame sum `hw_output[()]` (a Func of no dimensions), its input streamed: (output, hw_output, x)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 4)], "r")
    hw_output[()] = hl.u16(0)
    hw_output[()] += hw_input[r.x, r.y]
    output[()] = hl.u8(hw_output[()] >> 5)
    hw_input.compute_root().stream_to_accelerator()
    return output, hw_output, x


@case("hardware", "hw_accelerate at loops of a Func with no dimensions", (
    "{at}: Func 'hw_output': hw_accelerate(x, xo): 'hw_output' has no dimensions (it is defined as "
    "hw_output[()] = ...), so it has no loop 'x' and the accelerator computes its one element whole; accelerate it "
    "at its only loop level: hw_output.hw_accelerate(hl.Var.outermost(), hl.Var.outermost())"), func="hw_output",
    simulate=True)
def accelerate_zero_d_at_loops():
    output, hw_output, x = _frame_sum()
    hw_output.compute_root().hw_accelerate(x, hl.Var("xo"))  # <-
    return hl.compile(output, name="demo")


@accelerate_zero_d_at_loops.fix
def _():
    output, hw_output, _x = _frame_sum()
    hw_output.compute_root().hw_accelerate(hl.Var.outermost(), hl.Var.outermost())
    return hl.compile(output, name="demo")


@case("schedule", "a loop named by its name before a rename", (
    "{at}: In schedule for mid, could not find dimension x (in unroll(x, 2)): mid.rename(x, col) at {at2} renamed "
    "that loop col, and a renamed loop answers to its new name only, as in Halide. Name it col: "
    "mid.unroll(col, 2)"), func="mid")
def unroll_by_the_name_before_a_rename():
    p = scheduled()
    col = hl.Var("col")
    p.mid.rename(p.x, col)  # <-2
    p.mid.unroll(p.x, 2)  # <-
    p.hw_output.unroll(p.xi, 2)
    return hl.compile(p.output, name="demo")


@unroll_by_the_name_before_a_rename.fix
def _():
    p = scheduled()
    col = hl.Var("col")
    p.mid.rename(p.x, col)
    p.mid.unroll(col, 2)
    p.hw_output.unroll(p.xi, 2)
    return hl.compile(p.output, name="demo")
