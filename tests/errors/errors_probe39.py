"""Catalogue cases of helper probe39 (session 39): Halide's compute level rules for compute_with
(frontend/compute_with.py), which a host output fused with an array Func under a GLB copy broke unannounced (it
was computed on the host, the fusion dropped); and (session 40) its rules for the fused loops, which mainspring
did not check: the loop must be both Funcs', with as many loops outside it in each."""

from __future__ import annotations

import numpy as np

import mainspring as hl

from catalogue import case


def _glb_outputs(fused: bool):
    """out_a and out_b over 6x4 from hw_a (a 3-tap mean) and hw_b (a vertical difference): hw_a under a GLB copy
    accelerated at (xi, xo) and tiled 3x4 in it; hw_b compute_root and compute_with hw_a at xio (`fused`), or under
    a GLB copy of its own scheduled alike."""
    x, y, xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in "x y xo yo xi yi xio yio xii yii".split())
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_a, hw_b = hl.Func("hw_input"), hl.Func("hw_a"), hl.Func("hw_b")
    out_a, out_b = hl.Func("out_a"), hl.Func("out_b")
    hw_input[x, y] = hl.u16(input_[x, y])
    hw_a[x, y] = (hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]) / 3
    hw_b[x, y] = hl.i16(hw_input[x, y + 1]) - hl.i16(hw_input[x, y])
    out_a[x, y] = hl.u8(hw_a[x, y])
    out_b[x, y] = hw_b[x, y]
    copies = [(out_a, hw_a)] if fused else [(out_a, hw_a), (out_b, hw_b)]
    for _o, hw in copies:
        g = hw.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
        hw.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 3, 4)
    if fused:
        hw_b.compute_root().tile(x, y, xio, yio, xii, yii, 3, 4)
        hw_b.compute_with(hw_a, xio)  # <-with_b
    for o in (out_a, out_b):
        o.bound(x, 0, 6).bound(y, 0, 4)
    hw_input.in_().in_().compute_at(hw_a, xio)
    hw_input.in_().compute_at(hw_a.in_(), xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return hl.compile([out_a, out_b], name="demo")


@case("schedule", "compute_with onto an array Func under a GLB copy, computed at another level", (
    "{with_b}: Func 'hw_b': hw_b.compute_with(hw_a, xio): Invalid compute_with: the compute levels of hw_a.s0 "
    "(computed at hw_a.in_()'s xo) and hw_b.s0 (compute_root) do not match: fused loops run inside one enclosing "
    "loop, so 'hw_b' would be computed apart from 'hw_a' and the compute_with dropped; compute it where 'hw_a' is (not "
    "possible here: hw_a.in_()'s xo does not enclose every read of 'hw_b'; fuse it with a Func computed where "
    "'hw_b' can be), or drop the compute_with ('hw_b' is then computed at its own level, compute_root); to "
    "compute 'hw_b' on the accelerator too, schedule it as 'hw_a': under a GLB copy of its own (hw_b.in_(), tiled, "
    "hw_accelerate'd and store_in(MemoryType.GLB) as hw_a.in_()), hw_b computed at its copy's xo and tiled as "
    "hw_a"), func="hw_b", simulate=True,
    note="Halide refuses it too ('the compute levels of hw_a.s0 and hw_b.s0 do not match'); mainspring computed "
         "hw_b on the host unannounced before session 39")
def compute_with_levels_differ():
    return _glb_outputs(True)


@compute_with_levels_differ.fix
def _():
    return _glb_outputs(False)


def _fused_on_host(inline: bool):
    """f and g read by out (8x4), g compute_root and compute_with f at x; f inline (`inline`) or compute_root."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    f, g, out = hl.Func("f"), hl.Func("g"), hl.Func("out")
    f[x, y] = hl.u16(input_[x, y]) + 1
    g[x, y] = hl.u16(input_[x, y]) * 2
    out[x, y] = f[x, y] + g[x, y]
    if not inline:
        f.compute_root()
    g.compute_root()
    g.compute_with(f, x)  # <-with_g
    input_.set(hl.Buffer(np.zeros((4, 8), dtype=np.uint8)))
    return out.realize([8, 4])


@case("schedule", "compute_with onto an inline Func", (
    "{with_g}: Func 'g': g.compute_with(f, x): Invalid compute_with: f.s0 is scheduled inline: fused loops are loops "
    "of both Funcs, and an inline Func has none; compute 'f' where the other is computed (f.compute_root()), or "
    "drop the compute_with"), func="f", note="Halide refuses it too ('Invalid compute_with: f.s0 is scheduled inline')")
def compute_with_inline_func():
    return _fused_on_host(True)


@compute_with_inline_func.fix
def _():
    return _fused_on_host(False)


def _fused_loops(split_g: bool = True, reorder_f: bool = False):
    """f and g compute_root, g.compute_with(f, xo) over 8x4: f split x by 4; g too (`split_g`); f's y inside x
    (`reorder_f`, with g.compute_with(f, x))."""
    x, y, xo, xi = (hl.Var(n) for n in ("x", "y", "xo", "xi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    f, g, out = hl.Func("f"), hl.Func("g"), hl.Func("out")
    f[x, y] = hl.u16(input_[x, y]) + 1
    g[x, y] = hl.u16(input_[x, y]) * 2
    out[x, y] = f[x, y] + g[x, y]
    f.compute_root()
    g.compute_root()
    if reorder_f:
        f.reorder(y, x)
        g.compute_with(f, x)  # <-with_x
    else:
        f.split(x, xo, xi, 4)
        if split_g:
            g.split(x, xo, xi, 4)
        g.compute_with(f, xo)  # <-with_xo
    input_.set(hl.Buffer(np.arange(32, dtype=np.uint8).reshape(4, 8)))
    return out.realize([8, 4])


@case("schedule", "compute_with at a loop the fused Func does not have", (
    "{with_xo}: Func 'g': g.compute_with(f, xo): Invalid compute_with: cannot find xo in g.s0: fused loops are both "
    "Funcs' loops from the outermost down to xo, and 'g' has no loop xo (its loops, outermost first: y, x); fuse at "
    "a loop both have, or split 'g' as 'f' is split so that it has xo too"), func="g",
    note="Halide refuses it too ('Invalid compute_with: cannot find xo in g.s0'); mainspring ran it unfused before "
         "session 40")
def compute_with_missing_loop():
    return _fused_loops(split_g=False)


@compute_with_missing_loop.fix
def _():
    return _fused_loops()


@case("schedule", "compute_with where the Funcs run different loops outside the fused one", (
    "{with_x}: Func 'g': g.compute_with(f, x): Invalid compute_with: # of fused dims of f.s0 and g.s0 do not match: "
    "fused loops pair outermost first, and down to x 'f' runs x where 'g' runs y, x; reorder one as the other (the "
    "same loops outside x), or fuse at a loop with as many loops outside it in both"), func="g",
    note="Halide refuses it too ('# of fused dims of f.s0 and g.s0 do not match')")
def compute_with_fused_dims_differ():
    return _fused_loops(reorder_f=True)


@compute_with_fused_dims_differ.fix
def _():
    return _fused_loops()


def _stream_unrolled_twice(twice: bool):
    """hw_input streamed at 2 lanes (hw_input.unroll(x, 2)) into a 2-lane output, 8x4; `twice`: the lanes given
    through hw_input.in_() too (h2h's pointwise gives them there alone)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in "x y xo yo xi yi".split())
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(input_[x, y])
    hw_output[x, y] = hw_input[x, y] * 3
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 8).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo).unroll(xi, 2)
    hw_input.compute_root().stream_to_accelerator().unroll(x, 2)
    if twice:
        hw_input.in_().unroll(x, 2)  # <-twice
    return hl.compile(output, name="demo")


@case("schedule", "The stream's lanes given both on the streamed Func and through its in_() wrapper", (
    "{twice}: Cannot unroll dimension x.ui of Func \"hw_input_global_wrapper\" (hw_input.in_().unroll(x, 2)) because "
    "the Func is scheduled inline, and its loops cannot be the stream's: 'hw_input', streamed to the accelerator, "
    "has loops of its own, already scheduled. Give the stream's loops once: remove hw_input.in_().unroll(x, 2) and "
    "schedule them on 'hw_input' (hw_input.unroll(x, 2))"), func="hw_input_global_wrapper",
    note="Halide refuses an unroll of an inline wrapper; hw_input.in_().unroll(x, 2) alone (h2h's pointwise) "
         "unrolls the stream (frontend/stream_wrapper.py)")
def stream_unrolled_twice():
    return _stream_unrolled_twice(True)


@stream_unrolled_twice.fix
def _():
    return _stream_unrolled_twice(False)
