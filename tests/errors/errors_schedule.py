"""Catalogue cases: schedule calls Halide itself refuses (unknown loops, illegal compute_at, non-constant unrolls,
bounds), refused by frontend/ at the call or when the pipeline is checked."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerate, buffer, case, glb_levels, image, pipeline, scheduled, stream


@case("schedule", "compute_at a loop the consumer does not have", (
    '{at}: Func "mid" is computed at the following invalid location:\n'
    "  mid.compute_at(hw_output, x);\n"
    "Legal locations for this function are:\n"
    "  mid.compute_root();\n"
    "  mid.compute_at(hw_output, Var::outermost());\n"
    "  mid.compute_at(hw_output, yo);\n"
    "  mid.compute_at(hw_output, xo);\n"
    "  mid.compute_at(hw_output, yi);\n"
    "  mid.compute_at(hw_output, xi);\n"
    "'hw_output' has no loop 'x' (its loops are xi, yi, xo, yo); did you mean xo?"), func="mid", simulate=True)
def compute_at_unknown_loop():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.x)  # <-
    return hl.compile(p.output, name="demo")


@compute_at_unknown_loop.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


@case("schedule", "compute_at a Func outside the pipeline", (
    '{at}: Func "mid" is computed at the following invalid location:\n'
    "  mid.compute_at(other, x);\n"
    "Legal locations for this function are:\n"
    "  mid.compute_root();\n"
    "  mid.compute_at(hw_output, Var::outermost());\n"
    "  mid.compute_at(hw_output, yo);\n"
    "  mid.compute_at(hw_output, xo);\n"
    "  mid.compute_at(hw_output, yi);\n"
    "  mid.compute_at(hw_output, xi);\n"
    "'other' is not part of this pipeline (the output 'output' does not read it), so its loops never run; "
    "compute 'mid' at a Func of the pipeline."), func="mid")
def compute_at_a_func_outside_the_pipeline():
    p = pipeline()
    accelerate(p)
    stream(p)
    other = hl.Func("other")
    other[p.x, p.y] = p.mid[p.x, p.y]
    p.mid.compute_at(other, p.x)  # <-
    return hl.compile(p.output, name="demo")


@compute_at_a_func_outside_the_pipeline.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


@case("schedule", "store_at a loop inside the loop it is computed at", (
    '{at}: Func "mid" is computed at the following invalid location:\n'
    "  mid.store_at(hw_output, yi).compute_at(hw_output, xo);\n"
    "Legal locations for this function are:\n"
    "  mid.compute_root();\n"
    "  mid.compute_at(hw_output, Var::outermost());\n"
    "  mid.compute_at(hw_output, yo);\n"
    "  mid.compute_at(hw_output, xo);\n"
    "  mid.compute_at(hw_output, yi);\n"
    "  mid.compute_at(hw_output, xi);\n"
    "Its storage (store_at yi) is inside the loop it is computed at (xo): a Func is stored at or outside the "
    "loop it is computed at; store it there: mid.store_at(hw_output, xo)"), func="mid")
def store_inside_compute():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    p.mid.store_at(p.hw_output, p.yi)  # <-
    return hl.compile(p.output, name="demo")


@store_inside_compute.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    p.mid.store_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


@case("schedule", "compute_at a Func that does not read it", (
    '{at}: Func "mid" is computed at the following invalid location:\n'
    "  mid.compute_at(output, x);\n"
    "Legal locations for this function are:\n"
    "  mid.compute_root();\n"
    "  mid.compute_at(hw_output, Var::outermost());\n"
    "  mid.compute_at(hw_output, yo);\n"
    "  mid.compute_at(hw_output, xo);\n"
    "  mid.compute_at(hw_output, yi);\n"
    "  mid.compute_at(hw_output, xi);\n"
    "'output' does not use 'mid' (directly or through inlined Funcs)."), func="mid")
def compute_at_a_non_consumer():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.output, p.x)  # <-
    return hl.compile(p.output, name="demo")


@compute_at_a_non_consumer.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


_COPY = "hw_input_global_wrapper_global_wrapper"


@case("schedule", "compute_at a loop inside the loop its readers are computed at", (
    f'{{at}}: Func "{_COPY}" is computed at the following invalid location:\n'
    f"  {_COPY}.compute_at(hw_output, xio);\n"
    "Legal locations for this function are:\n"
    f"  {_COPY}.compute_root();\n"
    f"  {_COPY}.compute_at(hw_output_global_wrapper, Var::outermost());\n"
    f"  {_COPY}.compute_at(hw_output_global_wrapper, yo);\n"
    f"  {_COPY}.compute_at(hw_output_global_wrapper, xo);\n"
    f"  {_COPY}.compute_at(hw_output, Var::outermost());\n"
    f"  {_COPY}.compute_at(hw_output, yio);\n"
    f"  {_COPY}.compute_at(mid, Var::outermost());\n"
    f"  {_COPY}.compute_at(mid, y);\n"
    f"  {_COPY}.compute_at(mid, x);\n"
    f"'hw_output' uses '{_COPY}' only outside its loop 'xio' (the Funcs that read it are computed at or outside "
    f"hw_output's loop yio), so '{_COPY}' would not be computed before they read it; compute it there: "
    f"{_COPY}.compute_at(hw_output, yio), or compute mid inside it, e.g. mid.compute_at(hw_output, xio)."),
    func=_COPY, simulate=True)
def compute_at_inside_its_readers_loop():
    """As Halide: mid, which reads the copy, runs once per yio, so the copy computed per xio inside it would not
    be there when mid reads it (compiled before session 29: the array ran both at its one loop)."""
    p = glb_levels(pipeline(32, 32))
    p.mid.compute_at(p.hw_output, hl.Var("yio"))
    p.hw_input.in_().in_().compute_at(p.hw_output, hl.Var("xio"))  # <-
    return hl.compile(p.output, name="demo")


@compute_at_inside_its_readers_loop.fix
def _():
    p = glb_levels(pipeline(32, 32))
    p.mid.compute_at(p.hw_output, hl.Var("xio"))
    p.hw_input.in_().in_().compute_at(p.hw_output, hl.Var("xio"))
    return hl.compile(p.output, name="demo")


@case("schedule", "compute_at a Func that is inlined (compute_root forgotten)", (
    '{at}: Func "mid" is computed at the following invalid location:\n'
    "  mid.compute_at(hw_output, xo);\n"
    "Legal locations for this function are:\n"
    "  mid.compute_root();\n"
    "  mid.compute_at(output, Var::outermost());\n"
    "  mid.compute_at(output, y);\n"
    "  mid.compute_at(output, x);\n"
    "'hw_output' is inlined (it has no compute_root() or compute_at()), so it has no loops to compute 'mid' in; "
    "schedule it first, e.g. hw_output.compute_root()."), func="mid")
def compute_at_an_inlined_func():
    p = pipeline()
    p.hw_output.tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xi, p.xo)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)  # <-
    return hl.compile(p.output, name="demo")


@compute_at_an_inlined_func.fix
def _():
    p = pipeline()
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xi, p.xo)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


@case("schedule", "compute_at with a Var instead of a Func", (
    "{at}: Func 'mid': compute_at takes a Func and one of its loop variables, got Var first, e.g. "
    "mid.compute_at(consumer, xo)"), func="mid")
def compute_at_without_a_func():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.xo, p.hw_output)  # <-
    return hl.compile(p.output, name="demo")


@compute_at_without_a_func.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


@case("schedule", "split of a loop the Func does not have", (
    "{at}: In schedule for hw_output, could not find split dimension: x\n"
    "Vars: xi yi xo yo __outermost\n"
    "(in split(x, xo, xi, 4)); 'x' was split into xo and xi at {accelerate}: name one of those"), func="hw_output")
def split_unknown_loop():
    p = scheduled()
    p.hw_output.split(p.x, p.xo, p.xi, 4)  # <-
    return hl.compile(p.output, name="demo")


@split_unknown_loop.fix
def _():
    p = scheduled()
    xii = hl.Var("xii")
    p.hw_output.split(p.xi, p.xi, xii, 4)
    return hl.compile(p.output, name="demo")


@case("schedule", "split into two loops of one name", (
    "{at}: In schedule for hw_output, can't split xi into xi and xi because the new Vars have the "
    "same name.\n"
    "Vars: xi yi xo yo __outermost\n"
    "(in split(xi, xi, xi, 4); name the inner loop anew, e.g. split(xi, xi, xii, 4))"), func="hw_output")
def split_into_one_name():
    p = scheduled()
    p.hw_output.split(p.xi, p.xi, p.xi, 4)  # <-
    return hl.compile(p.output, name="demo")


@split_into_one_name.fix
def _():
    p = scheduled()
    p.hw_output.split(p.xi, p.xi, hl.Var("xii"), 4)
    return hl.compile(p.output, name="demo")


@case("schedule", "split into a loop name the Func already has", (
    "{at}: In schedule for hw_output: split(xi, xi, yi, 4) would create a second loop named yi; use "
    "a new Var name"), func="hw_output")
def split_reuses_a_loop_name():
    p = scheduled()
    p.hw_output.split(p.xi, p.xi, p.yi, 4)  # <-
    return hl.compile(p.output, name="demo")


@split_reuses_a_loop_name.fix
def _():
    p = scheduled()
    p.hw_output.split(p.xi, p.xi, hl.Var("xii"), 4)
    return hl.compile(p.output, name="demo")


@case("schedule", "tile with the wrong number of arguments", (
    "{at}: In schedule for hw_output: tile takes (x, y, xo, yo, xi, yi, xfactor, yfactor[, tail]) or "
    "(x, y, xi, yi, xfactor, yfactor[, tail]), got 7 arguments besides the tail"), func="hw_output")
def tile_with_missing_arguments():
    p = pipeline()
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, 8, 8).hw_accelerate(p.xi, p.xo)  # <-
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@tile_with_missing_arguments.fix
def _():
    p = pipeline()
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xi, p.xo)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("schedule", "A tail strategy that is not an hl.TailStrategy", (
    "{at}: In schedule for mid: unroll(x, 2, 'RoundUp'): the tail strategy must be an hl.TailStrategy, got "
    "'RoundUp'; e.g. mid.unroll(x, 2, hl.TailStrategy.RoundUp)"), func="mid", simulate=True)
def tail_strategy_as_a_string():
    p = scheduled()
    p.mid.unroll(p.x, 2, "RoundUp")  # <-
    return hl.compile(p.output, name="demo")


@tail_strategy_as_a_string.fix
def _():
    p = scheduled()
    p.mid.unroll(p.x, 2, hl.TailStrategy.RoundUp)
    return hl.compile(p.output, name="demo")


@case("schedule", "fuse of a loop the Func does not have", (
    "{at}: In schedule for output, could not find outer fuse dimension: yi\n"
    "Vars: x y __outermost\n"
    "(in fuse(x, yi, t)); did you mean y?"), func="output")
def fuse_unknown_loop():
    p = scheduled()
    p.output.fuse(p.x, p.yi, hl.Var("t"))  # <-
    return hl.compile(p.output, name="demo")


@fuse_unknown_loop.fix
def _():
    p = scheduled()
    p.output.fuse(p.x, p.y, hl.Var("t"))
    return hl.compile(p.output, name="demo")


@case("schedule", "unroll of a loop whose extent is not a constant", (
    "{at}: Can only unroll for loops over a constant extent.\n"
    'Loop over mid.s0.x of Func "mid" (mid.unroll(x)) has an extent that is not known at compile '
    "time. Give it one (mid.bound(x, min, extent)), or unroll by a factor (unroll(x, 4, "
    "hl.TailStrategy.RoundUp))."), func="mid")
def unroll_non_constant_extent():
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    mid = hl.Func("mid")
    mid[x, y] = input_[x, y] * 2
    input_.set(hl.Buffer(image(4, 4)))
    mid.unroll(x)  # <-
    return mid.realize([4, 4])


@unroll_non_constant_extent.fix
def _():
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    input_.set(hl.Buffer(image(4, 4)))
    mid = hl.Func("mid")
    mid[x, y] = input_[x, y] * 2
    mid.bound(x, 0, 4).unroll(x)
    return mid.realize([4, 4])


@case("schedule", "vectorize of a loop the Func does not have", (
    "{at}: In schedule for mid, could not find dimension xi to mark as vectorized in vars for "
    "function\n"
    "Vars: x y __outermost\n"
    "(in vectorize(xi)); did you mean x?"), func="mid")
def vectorize_unknown_loop():
    p = scheduled()
    p.mid.vectorize(p.xi, 2, hl.TailStrategy.RoundUp)  # <-
    return hl.compile(p.output, name="demo")


@vectorize_unknown_loop.fix
def _():
    p = scheduled()
    r = hl.TailStrategy.RoundUp
    p.mid.vectorize(p.x, 2, r)
    p.hw_output.unroll(p.xi, 2, r)
    p.hw_input.unroll(p.x, 2, r)
    return hl.compile(p.output, name="demo")


@case("schedule", "update() of an update the Func does not have", (
    '{at}: Call to update with index larger than last defined update stage for Func "mid": '
    "update(0), but it has 0 update definition(s); schedule the pure definition on the Func itself "
    "(e.g. mid.unroll(...))"), func="mid")
def update_index_too_large():
    p = scheduled()
    p.mid.update(0).unroll(p.x, 2, hl.TailStrategy.RoundUp)  # <-
    return hl.compile(p.output, name="demo")


@update_index_too_large.fix
def _():
    p = scheduled()
    r = hl.TailStrategy.RoundUp
    p.mid.unroll(p.x, 2, r)
    p.hw_output.unroll(p.xi, 2, r)
    p.hw_input.unroll(p.x, 2, r)
    return hl.compile(p.output, name="demo")


@case("schedule", "bound of a Var that is not a dimension of the Func", (
    "{at}: Func 'output': bound(xi, ...): can't bound variable xi because it is not one of its "
    "dimensions (x, y); did you mean x?"), func="output")
def bound_of_a_foreign_var():
    p = scheduled()
    p.output.bound(p.xi, 0, 8)  # <-
    return hl.compile(p.output, name="demo")


@bound_of_a_foreign_var.fix
def _():
    p = scheduled()
    p.output.bound(p.x, 0, 8)
    return hl.compile(p.output, name="demo")


@case("schedule", "bound with an extent of zero",
      "{at}: Func 'output': bound(y, ..., 0): the extent must be positive", func="output")
def bound_of_zero_extent():
    p = scheduled()
    p.output.bound(p.y, 0, 0)  # <-
    return hl.compile(p.output, name="demo")


@bound_of_zero_extent.fix
def _():
    p = scheduled()
    p.output.bound(p.y, 0, 8)
    return hl.compile(p.output, name="demo")


@case("schedule", "bound by an image's size (known only when the pipeline runs)", (
    "{at}: Func 'output': bound(x) extent must be a constant integer, got input.extent.0; hardware loops are fixed "
    "at compile time: use a Python int (e.g. 4), or make image input's size known before this call: "
    "input.dim(0).set_bounds(0, 64) or input.set(<the image>)"), func="output",
    note="an image's size that set_bounds before the call, or a buffer the image holds, gives is taken (gaps20)")
def bound_by_an_image_size():
    p = scheduled()
    p.output.bound(p.x, 0, p.input.width())  # <-
    return hl.compile(p.output, name="demo")


@bound_by_an_image_size.fix
def _():
    p = scheduled()
    p.output.bound(p.x, 0, 8)
    return hl.compile(p.output, name="demo")


@case("schedule", "bound smaller than the region the consumers read", (
    "{at}: Bounds given for mid in y (from 0 to 7) do not cover required region (from 0 to 8): Func "
    '"mid".bound(y, 0, 8); widen the bound'), func="mid")
def bound_smaller_than_needed():
    p = scheduled()
    p.mid.bound(p.y, 0, 8)  # <-
    return hl.compile(p.output, name="demo")


@bound_smaller_than_needed.fix
def _():
    p = scheduled()
    p.mid.bound(p.y, 0, 9)
    return hl.compile(p.output, name="demo")


@case("schedule", "reorder_storage that does not list every dimension",
      "{at}: Func 'mid': reorder_storage(y) must list each of its dimensions (x, y) once", func="mid")
def reorder_storage_incomplete():
    p = scheduled()
    p.mid.reorder_storage(p.y)  # <-
    return hl.compile(p.output, name="demo")


@reorder_storage_incomplete.fix
def _():
    p = scheduled()
    p.mid.reorder_storage(p.x, p.y)
    return hl.compile(p.output, name="demo")


def _table_pipeline():
    """hw_output multiplies by gain[2] of a constant table gain (a ROM's worth of values known at compile time)."""
    p = pipeline()
    gain = hl.Func("gain")
    gain[p.x] = hl.u16(p.x + 1)
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.hw_input[p.x, p.y] * gain[2]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return p, gain


@case("schedule", "store_in with a string instead of an hl.MemoryType", (
    "{at}: Func 'gain': store_in takes an hl.MemoryType, got 'ROM'; e.g. "
    "gain.store_in(hl.MemoryType.ROM)"), func="gain")
def store_in_a_string():
    p, gain = _table_pipeline()
    gain.compute_root().store_in("ROM")  # <-
    return hl.compile(p.output, name="demo")


@store_in_a_string.fix
def _():
    p, gain = _table_pipeline()
    gain.compute_root().store_in(hl.MemoryType.ROM)
    return hl.compile(p.output, name="demo")


@case("schedule", "Compiling a Func that has no definition", (
    "{at}: Can't realize undefined Func. Func \"result\" is the output of a pipeline but has no "
    "definition."), func="result")
def compile_an_undefined_func():
    scheduled()
    result = hl.Func("result")  # meant to be the output plus one
    return hl.compile(result, name="demo")  # <-


@compile_an_undefined_func.fix
def _():
    p = scheduled()
    result = hl.Func("result")
    result[p.x, p.y] = p.output[p.x, p.y] + 1
    result.bound(p.x, 0, 8).bound(p.y, 0, 8)
    return hl.compile(result, name="demo")


def _half(p, width):
    """A second output: hw_output halved, bounded to `width` columns (None: unbounded)."""
    half = hl.Func("half")
    half[p.x, p.y] = p.hw_output[p.x, p.y] / 2
    if width is not None:
        half.bound(p.x, 0, width).bound(p.y, 0, 8)
    return half


@case("schedule", "Several outputs bounded differently", (
    "{at}: compile of a pipeline of several outputs: 'output' is bounded to [0, +8) in dimension 0 (x), 'half' to "
    "[0, +4); a mainspring design streams its outputs together, over one region: bound them alike (e.g. "
    "half.bound(x, 0, 8)), or compile them as designs of their own"), func="half", simulate=True)
def outputs_bounded_differently():
    p = scheduled()
    return hl.compile([p.output, _half(p, 4)], name="demo")  # <-


@outputs_bounded_differently.fix
def _():
    p = scheduled()
    return hl.compile([p.output, _half(p, 8)], name="demo")


@case("schedule", "An output of several that no word holds", (
    "{at}: compile of a pipeline of outputs 'output' (uint16), 'wide' (float32): a mainspring design streams each "
    "output in an integer word of at most 32 bits, and 'wide' is a float; make 'wide' an integer of at most 32 bits "
    "(e.g. hl.u32(...) or hl.i32(...)); outputs of at most 32 bits each leave the accelerator as several words a "
    "pixel"), func="wide", simulate=True)
def outputs_wider_than_a_word():
    p = scheduled()
    wide = hl.Func("wide")
    wide[p.x, p.y] = hl.f32(p.hw_output[p.x, p.y]) * 3
    return hl.compile([p.output, wide], name="demo")  # <-


@outputs_wider_than_a_word.fix
def _():
    """Over 32 bits together (16 + 32): two words a pixel."""
    p = scheduled()
    wide = hl.Func("wide")
    wide[p.x, p.y] = hl.u32(p.hw_output[p.x, p.y]) * 3
    return hl.compile([p.output, wide], name="demo")


@case("schedule", "Several outputs without a bound", (
    "{at}: compile of a pipeline of several outputs ('hw_output' and 'half'): dimension 0 (x) has no bound, and "
    "hardware sizes are fixed at compile time; bound the outputs, e.g. hw_output.bound(x, 0, <extent>)"),
    func="hw_output")
def outputs_without_a_bound():
    p = scheduled()
    return hl.compile([p.hw_output, _half(p, None)], name="demo")  # <-


@outputs_without_a_bound.fix
def _():
    p = scheduled()
    return hl.compile([p.hw_output, _half(p, 8)], name="demo")


@case("schedule", "tile over lists of different lengths", (
    "{at}: In schedule for hw_output: tile's lists name 2 dimensions (x, y) but 2 outer loops, 1 inner loops and "
    "2 factors; give one of each per dimension, e.g. tile([x, y], [xo, yo], [xi, yi], [8, 8])"), func="hw_output")
def tile_lists_of_different_lengths():
    p = pipeline()
    p.hw_output.compute_root().tile([p.x, p.y], [p.xo, p.yo], [p.xi], [8, 8]).hw_accelerate(p.xi, p.xo)  # <-
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@tile_lists_of_different_lengths.fix
def _():
    p = pipeline()
    p.hw_output.compute_root().tile([p.x, p.y], [p.xo, p.yo], [p.xi, p.yi], [8, 8]).hw_accelerate(p.xi, p.xo)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")
