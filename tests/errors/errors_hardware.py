"""Catalogue cases: hardware schedules mainspring refuses when it lowers the accelerated region (hwlower/): the
accelerator's boundary, its inputs and buffers, floats, coordinates, indices. Tiles, lanes, the GLB, upsample
steps and boundary conditions: errors_tiles.py."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerate, buffer, case, pipeline, reduction, scheduled, stream


@case("hardware", "The output has no bound", (
    "{at}: Func 'output' is the pipeline's output but its dimension x has no bound: hardware sizes are "
    "fixed at compile time. Add output.bound(x, 0, <extent>) for each dimension (x, y)."), func="output")
def unbounded_output():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hw_input[x, y] * 2
    output[x, y] = hw_output[x, y]  # <-
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@unbounded_output.fix
def _():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hw_input[x, y] * 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


def _read_twice(gain_min: int):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, gain, output = (hl.Func(n) for n in ("hw_input", "hw_output", "gain", "output"))
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hw_input[x, y] * 2
    gain[x, y] = input_[x, y] + 1
    output[x, y] = hw_output[x, y] * gain[x, y]  # <-readtwice
    hw_output.bound(x, 0, 16).bound(y, 0, 8)  # <-hwbound
    gain.compute_root().bound(x, gain_min, 8).bound(y, 0, 8)  # <-gainbound
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@case("hardware", "The output's size is left open by bounds of what it reads that do not overlap", (
    "{readtwice}: Func 'output' is the pipeline's output but its dimension x has no bound, and the bounds of the "
    "Funcs it reads at x each allow another region of it ([0, 16) by hw_output.bound(x, 0, 16) at {hwbound}; "
    "[16, 24) by gain.bound(x, 16, 8) at {gainbound}), with no region inside all of them: Halide's realize of any "
    "size fails its bounds check. Bound them to overlap, e.g. gain.bound(x, 0, 8)."), func="output",
    note="bounds that overlap give the output the region inside all of them (gaps19), as a Halide realize of it",
    simulate=True)
def output_size_from_differing_bounds():
    return _read_twice(16)


@output_size_from_differing_bounds.fix
def _():
    return _read_twice(0)


def _two_streams(stream_blur_x: bool):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur_x, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur_x", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    blur_x[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = blur_x[x, y] + blur_x[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    blur_x.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()  # <-two_streams_input
    if stream_blur_x:
        blur_x.stream_to_accelerator()  # <-two_streams_blur
    return hl.compile(output, name="demo")


@case("hardware", "A Func streamed after the stream it reads", (
    "{two_streams_blur}: Func 'blur_x' is streamed to the accelerator (stream_to_accelerator()), so the host "
    "computes it, and 'hw_input', streamed too ({two_streams_input}), is read by no Func inside the accelerator "
    "(output 'hw_output'), only on the host; remove blur_x.stream_to_accelerator() to compute 'blur_x' inside "
    "from the stream of 'hw_input', or remove hw_input.stream_to_accelerator() to stream 'blur_x'"),
    func="blur_x", note="Halide accepts it (the copy of blur_x it streams is computed on the host)")
def stream_after_stream():
    return _two_streams(True)


@stream_after_stream.fix
def _():
    return _two_streams(False)


@case("hardware", "No Func is scheduled hw_accelerate", (
    "{at}: No Func of the pipeline of 'output' is scheduled hw_accelerate: mark the accelerator's output, "
    "e.g. hw_output.tile(x, y, xo, yo, xi, yi, 64, 64).hw_accelerate(xi, xo)"), func="output")
def no_hw_accelerate():
    p = pipeline()
    stream(p)
    return hl.compile(p.output, name="demo")  # <-


@no_hw_accelerate.fix
def _():
    p = pipeline()
    accelerate(p)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "Two Funcs are scheduled hw_accelerate", (
    "Several Funcs are scheduled hw_accelerate ('mid' at {at}; 'hw_output' at {accelerate}): one "
    "accelerated region per pipeline is supported for now; keep hw_accelerate on the last Func "
    "computed in hardware"), func="mid")
def two_hw_accelerates():
    p = scheduled()
    p.mid.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xi, p.xo)  # <-
    return hl.compile(p.output, name="demo")


@two_hw_accelerates.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo")


@case("hardware", "hw_accelerate at loops the Func does not have (not tiled)", (
    "{at}: Func 'hw_output': hw_accelerate(xi, xo): 'hw_output' has no loop 'xi' (its loops are x, "
    "y); tile it first, e.g. hw_output.tile(x, y, xo, yo, xi, yi, 64, 64).hw_accelerate(xi, xo)"), func="hw_output")
def hw_accelerate_untiled():
    p = pipeline()
    p.hw_output.compute_root().hw_accelerate(p.xi, p.xo)  # <-
    stream(p)
    return hl.compile(p.output, name="demo")


@hw_accelerate_untiled.fix
def _():
    p = pipeline()
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xi, p.xo)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "hw_accelerate's arguments swapped: the store loop is the innermost loop", (
    "{at}: Func 'hw_output': hw_accelerate(xo, xi): the store loop 'xi' is the innermost loop of 'hw_output' "
    "(its loops are xi, yi, xo, yo), so no loop would run inside the accelerator. The second argument is the "
    "first loop outside the accelerator (the host's), the first the innermost loop inside it: "
    "hw_output.hw_accelerate(xi, xo)"), func="hw_output", simulate=True)
def hw_accelerate_swapped():
    p = pipeline()
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xo, p.xi)  # <-
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@hw_accelerate_swapped.fix
def _():
    p = pipeline()
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xi, p.xo)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "A Func between the accelerator's input and output is computed on the host", (
    "{at}: Func 'mid' lies between the accelerator's inputs and its output 'hw_output' but is "
    "scheduled compute_root, outside the accelerator. Place it inside: mid.compute_at(hw_output, "
    "xo), or make it an accelerator input (mid.stream_to_accelerator())."),
      func="mid")
def compute_root_inside_the_accelerator():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_root()  # <-
    return hl.compile(p.output, name="demo")


@compute_root_inside_the_accelerator.fix
def _():
    p = pipeline()
    accelerate(p)
    stream(p)
    p.mid.compute_at(p.hw_output, p.xo)
    return hl.compile(p.output, name="demo")


@case("hardware", "A Func inside the accelerator reads the image directly", (
    "{at}: Func 'mid' is inside the accelerator (it feeds 'hw_output') but reads the image input "
    "directly. Read it through an accelerator input: hw_input[x, y] = input[x, y]; "
    "hw_input.compute_root(); hw_input.stream_to_accelerator()"), func="mid")
def image_read_inside_the_accelerator():
    p = pipeline()
    p.mid = hl.Func("mid")
    p.mid[p.x, p.y] = p.input[p.x, p.y] + p.hw_input[p.x + 1, p.y]  # <-
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.mid[p.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@image_read_inside_the_accelerator.fix
def _():
    p = pipeline()
    p.mid = hl.Func("mid")
    p.mid[p.x, p.y] = p.hw_input[p.x, p.y] + p.hw_input[p.x + 1, p.y]
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.mid[p.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "The accelerator's input is computed on the host but not streamed", (
    "{at}: Func 'hw_input' lies between the accelerator's inputs and its output 'hw_output' but is "
    "scheduled compute_root, outside the accelerator. Make it an accelerator input "
    "(hw_input.stream_to_accelerator())."), func="hw_input")
def input_not_streamed():
    p = pipeline()
    accelerate(p)
    buffer(p)
    p.hw_input.compute_root()  # <-
    return hl.compile(p.output, name="demo")


@input_not_streamed.fix
def _():
    p = pipeline()
    accelerate(p)
    buffer(p)
    p.hw_input.compute_root().stream_to_accelerator()
    return hl.compile(p.output, name="demo")


@case("hardware", "stream_to_accelerator on the host's output", (
    "{at}: Func 'output': stream_to_accelerator() marks a Func the host computes and streams into "
    "the accelerator, but 'output' is computed from the accelerator's output 'hw_output'; remove the "
    "call (the accelerator's output is streamed back by hw_accelerate), and stream the Func the "
    "accelerator reads instead (e.g. hw_input.compute_root().stream_to_accelerator())"), func="output")
def stream_the_output():
    p = scheduled()
    p.output.stream_to_accelerator()  # <-
    return hl.compile(p.output, name="demo")


@stream_the_output.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo")


def _with_host_extra(streamed: bool):
    """The pipeline plus `extra`, a host Func of the input added to the accelerator's output."""
    p = scheduled()
    extra, final = hl.Func("extra"), hl.Func("final")
    extra[p.x, p.y] = p.input[p.x, p.y] * 2
    final[p.x, p.y] = p.output[p.x, p.y] + extra[p.x, p.y]
    final.bound(p.x, 0, 8).bound(p.y, 0, 8)
    extra.compute_root()
    if streamed:
        extra.stream_to_accelerator()  # <-extra
    return final


@case("hardware", "stream_to_accelerator on a Func the accelerator does not read", (
    "{extra}: Func 'extra' is streamed to the accelerator (stream_to_accelerator()) but no Func "
    "inside the accelerator (output 'hw_output') reads it; remove the call, or read 'extra' inside "
    "the accelerator"), func="extra")
def stream_unread():
    return hl.compile(_with_host_extra(streamed=True), name="demo")


@stream_unread.fix
def _():
    return hl.compile(_with_host_extra(streamed=False), name="demo")


@case("hardware", "store_in(GLB) on a Func inside the accelerator", (
    "{at}: Func 'mid': store_in(MemoryType.GLB): 'mid' is computed inside the accelerator "
    "(compute_at(hw_output, xo)), where buffers are memory tiles and registers; the GLB holds only "
    "the accelerator's tile copies (the hw_accelerate Func, e.g. hw_output.in_(), and copies of its "
    "inputs computed at its GLB tile loop, e.g. hw_input.in_()); remove the call"), func="mid")
def glb_inside_the_accelerator():
    p = scheduled()
    p.mid.store_in(hl.MemoryType.GLB)  # <-
    return hl.compile(p.output, name="demo")


@glb_inside_the_accelerator.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo")


@case("hardware", "store_in(GLB) on a Func of the host", (
    "{at}: Func 'output': store_in(MemoryType.GLB): 'output' is computed on the host, outside the "
    "accelerator; the GLB holds only the accelerator's tile copies (the hw_accelerate Func, e.g. "
    "hw_output.in_(), and copies of its inputs computed at its GLB tile loop, e.g. hw_input.in_()); "
    "remove the call"), func="output")
def glb_on_the_host():
    p = scheduled()
    p.output.store_in(hl.MemoryType.GLB)  # <-
    return hl.compile(p.output, name="demo")


@glb_on_the_host.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo")


@case("hardware", "store_in(ROM) on a Func computed from the input", (
    "{at}: Func 'mid': store_in(MemoryType.ROM) holds a table known at compile time, but 'mid' "
    "depends on an input or a Param; remove the call (a buffer inside the accelerator is a memory "
    "tile already: mid.compute_at(<accelerator output>, <store var>))"), func="mid")
def rom_of_loaded_values():
    p = scheduled()
    p.mid.store_in(hl.MemoryType.ROM)  # <-
    return hl.compile(p.output, name="demo")


@rom_of_loaded_values.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo")


@case("hardware", "Floating point on loaded values inside the accelerator", (
    "{at}: Func 'mid' computes in floating point inside the accelerator ((float32(hw_input_0) * "
    "0.750000f) is float32); the PEs are integer units. Compute the floating-point part in a Func of "
    "its own that reads no input (a table known at compile time, folded where it is read at constant "
    "coordinates), or on the host before the accelerator input, or use fixed point (multiply, then "
    "shift)."), func="mid", simulate=True)
def float_inside_the_accelerator():
    p = pipeline()
    p.mid = hl.Func("mid")
    p.mid[p.x, p.y] = hl.u16(hl.f32(p.hw_input[p.x, p.y]) * 0.75)  # <-
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.mid[p.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@float_inside_the_accelerator.fix
def _():
    p = pipeline()
    p.mid = hl.Func("mid")
    p.mid[p.x, p.y] = hl.u16((hl.u32(p.hw_input[p.x, p.y]) * 3) >> 2)
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.mid[p.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("schedule", "A reduction inside the accelerator over an RDom of run-time extent", (
    "{reduction}: Func 'acc': RDom r: dimension r.x has bounds that are not known values (they use a Param); an "
    "accelerator's loops are fixed at compile time: give the RDom constant bounds (e.g. "
    "hl.RDom([hl.Range(0, 3)])), or give taps the range its value stays in (taps.set_range(0, 8)): the loops then "
    "run over the widest domain it allows, each step guarded by taps"), func="acc",
    note="a Param with a range compiles since session 38 (tests/flow/test_flow_param_rdoms.py)")
def rdom_of_param_extent():
    taps = hl.Param(hl.Int(32), "taps", 3)
    p, acc = reduction(taps, unrolled=False)
    buffer(p, acc)
    return hl.compile(p.output, name="demo")


@rdom_of_param_extent.fix
def _():
    p, acc = reduction(3, unrolled=False)
    buffer(p, acc)
    return hl.compile(p.output, name="demo")


@case("hardware", "A split of a fused loop inside the accelerator", (
    "{at}: Func 'mid': split(t, ...) of the loop t, which fuses two loops of 9 and 8 iterations (y outside): "
    "hardware runs a fused loop as the two loops it fuses, and cannot split or unroll it as one loop (its "
    "controllers would index memories with / and %); split or unroll the loops before fusing them, or leave "
    "them unfused"), func="mid", simulate=True)
def split_of_a_fused_loop_inside_the_accelerator():
    p = scheduled()
    t = hl.Var("t")
    p.mid.fuse(p.x, p.y, t).split(t, hl.Var("to"), hl.Var("ti"), 4)  # <-
    return hl.compile(p.output, name="demo")


@split_of_a_fused_loop_inside_the_accelerator.fix
def _():
    p = scheduled()
    p.mid.fuse(p.x, p.y, hl.Var("t"))
    return hl.compile(p.output, name="demo")


def _flip(clamped: bool):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    at = input_.width() - 1 - x
    hw_output[x, y] = hw_input[hl.clamp(at, 0, 7) if clamped else at, y] + hw_input[x, y]  # <-flip_read
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@case("hardware", "A read at a coordinate computed from a Param or an image's size", (
    "{flip_read}: Func 'hw_output' reads 'hw_input' at (((input.extent.0 - 1) - x), y): coordinate 0 depends on "
    "'input.extent.0', known only when the pipeline runs, so 'hw_input' would span every int32 coordinate; the "
    "accelerator's buffers are sized at compile time. Clamp the coordinate to the range it may read, e.g. "
    "hw_input[hl.clamp(((input.extent.0 - 1) - x), 0, 7), y]."), func="hw_output",
    note="a traceback (an address constant past 32 bits) before session 25; input.width() as a value, not a "
    "coordinate, is a configuration input of the accelerator, as a scalar Param is")
def coordinate_from_a_runtime_size():
    return _flip(clamped=False)


@coordinate_from_a_runtime_size.fix
def _():
    return _flip(clamped=True)


def _two_accelerated_outputs(alike: bool, fused: bool = False):
    """Two outputs of one stencil (a sum and a difference of neighbours), each from an accelerated Func: tiled
    alike (`alike`: one accelerator computes both), or hw_diff in tiles of its own; `fused`: hw_diff is
    compute_with hw_sum at xo in place of its hw_accelerate."""
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_sum, hw_diff, total, diff = hl.funcs("hw_input hw_sum hw_diff total diff")
    hw_input[x, y] = input_[x, y]
    hw_sum[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_diff[x, y] = hl.absd(hw_input[x, y], hw_input[x + 1, y])
    total[x, y] = hw_sum[x, y]
    diff[x, y] = hw_diff[x, y]
    hw_sum.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)  # <-accel_sum
    side = 8 if alike else 4
    hw_diff.compute_root().tile(x, y, xo, yo, xi, yi, side, side)
    if fused:
        hw_diff.compute_with(hw_sum, xo)  # <-with_diff
    else:
        hw_diff.hw_accelerate(xi, xo)  # <-accel_diff
    for f in (total, diff):
        f.bound(x, 0, 8).bound(y, 0, 8)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile([total, diff], name="demo")


@case("hardware", "Two outputs from Funcs accelerated in different tiles", (
    "{accel_diff}: Funcs 'hw_sum', 'hw_diff' are each scheduled hw_accelerate (hw_sum at {accel_sum}; hw_diff at "
    "{accel_diff}) but not alike, and a design has one accelerated region; schedule 'hw_diff' exactly as 'hw_sum' "
    "(the same tile and hw_accelerate calls, or the same tile and hw_diff.compute_with(hw_sum, xo) in place of its "
    "hw_accelerate), so that one accelerator computes both as its outputs, or make them the elements of one Tuple "
    "Func and accelerate that (e.g. hw_outputs[x, y] = (hw_sum[x, y], hw_diff[x, y]))"), func="hw_diff",
    simulate=True)
def two_accelerated_outputs():
    return _two_accelerated_outputs(alike=False)


@two_accelerated_outputs.fix
def _():
    return _two_accelerated_outputs(alike=True)


@case("hardware", "An output fused by compute_with with the accelerated output but tiled apart", (
    "{with_diff}: Func 'hw_diff': hw_diff.compute_with(hw_sum, xo) fuses 'hw_diff' with the accelerated 'hw_sum', "
    "but one accelerator computes several outputs only when they are scheduled alike, and 'hw_diff' is not "
    "scheduled exactly as 'hw_sum', so 'hw_diff' would run on the host; schedule 'hw_diff' exactly as 'hw_sum' "
    "(the same tile, unroll and other calls) and keep hw_diff.compute_with(hw_sum, xo), or "
    "drop the compute_with to compute 'hw_diff' on the host after the accelerator"), func="hw_diff", simulate=True,
    note="compiled before session 38, hw_diff silently computed on the host (probe25); the fix is "
         "two_accelerated_outputs' compute_with fix: one accelerator computes both outputs")
def compute_with_accelerated_output_tiled_apart():
    return _two_accelerated_outputs(alike=False, fused=True)


@compute_with_accelerated_output_tiled_apart.fix
def _():
    return _two_accelerated_outputs(alike=True, fused=True)


@case("schedule", "A reduction inside the accelerator over an RDom of an image's unbound size", (
    "{at}: Func 'hw_output': RDom r: dimension r.x has bounds that read the size of image input, which no "
    "input.dim(0).set_bounds "
    "gives; an accelerator's loops are fixed at compile time: bind the size the design takes "
    "(input.dim(0).set_bounds(0, 64)), or input.set(<the image>) before compiling (its size is taken), or give the "
    "RDom constant bounds"), func="hw_output",
    note="an ImageParam that holds a buffer when compiled gives the RDom that buffer's size (gaps20)")
def rdom_of_image_size():
    p = pipeline()
    r = hl.RDom([hl.Range(0, p.input.width())], "r")
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = hl.u16(0)
    p.hw_output[p.x, p.y] += p.hw_input[r.x, p.y]  # <-
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@rdom_of_image_size.fix
def _():
    p = pipeline()
    p.input.dim(0).set_bounds(0, 8)
    r = hl.RDom([hl.Range(0, p.input.width())], "r")
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = hl.u16(0)
    p.hw_output[p.x, p.y] += p.hw_input[r.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")
