"""Catalogue cases: hardware schedules mainspring refuses when it lowers the accelerated region (hwlower/):
the accelerator's boundary, buffers, floats, lanes, host tiles and the GLB."""

from __future__ import annotations

from catalogue import accelerate, buffer, case, pipeline, scheduled, stream

import mainspring as hl

R = hl.TailStrategy.RoundUp


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
    "Several Funcs are scheduled hw_accelerate (mid at {at}; hw_output at {accelerate}): one "
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


@case("hardware", "stream_to_accelerator on a Func computed inside the accelerator", (
    "{at}: Func 'hw_input': stream_to_accelerator() streams 'hw_input' from the host, but it is also "
    "scheduled compute_at(hw_output, xi) (at {at}), inside the accelerator; a streamed Func is "
    "computed on the host and buffered at the accelerator's loop: "
    "hw_input.compute_root().stream_to_accelerator() (or hw_input.compute_at(hw_output, xo))"), func="hw_input")
def stream_computed_at_an_inner_loop():
    p = pipeline()
    accelerate(p)
    buffer(p)
    p.hw_input.compute_at(p.hw_output, p.xi).stream_to_accelerator()  # <-
    return hl.compile(p.output, name="demo")


@stream_computed_at_an_inner_loop.fix
def _():
    p = pipeline()
    accelerate(p)
    buffer(p)
    p.hw_input.compute_root().stream_to_accelerator()
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


def _reduction(extent, unrolled: bool = True):
    """hw_output sums `extent` taps of hw_input along x in an update over RDom r."""
    p = pipeline()
    r = hl.RDom([hl.Range(0, extent)], "r")
    acc = hl.Func("acc")
    acc[p.x, p.y] = hl.u16(0)
    acc[p.x, p.y] += p.hw_input[p.x + r.x, p.y]  # <-reduction
    if unrolled:
        acc.update().unroll(r.x)
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = acc[p.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return p, acc


@case("schedule", "A reduction inside the accelerator over an RDom of run-time extent", (
    "{reduction}: RDom r: dimension r.x has bounds that are not known values (they use a Param); an "
    "accelerator's loops are fixed at compile time: give the RDom constant bounds (e.g. "
    "hl.RDom([hl.Range(0, 3)]))"), func="acc")
def rdom_of_param_extent():
    taps = hl.Param(hl.Int(32), "taps", 3)
    p, acc = _reduction(taps, unrolled=False)
    buffer(p, acc)
    return hl.compile(p.output, name="demo")


@rdom_of_param_extent.fix
def _():
    p, acc = _reduction(3, unrolled=False)
    buffer(p, acc)
    return hl.compile(p.output, name="demo")


def _coordinate_program(tile):
    """hw_output adds its own x coordinate to each pixel; host tiles of `tile` when given."""
    p = pipeline()
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.hw_input[p.x, p.y] + hl.u16(p.x)  # <-coordinate
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p, tile)
    stream(p)
    return p


@case("hardware", "A coordinate used as a value with host tiles", (
    "{coordinate}: Func 'hw_output' uses a coordinate as a value (x), but the accelerator runs once "
    "per tile and every tile runs the same hardware, which counts coordinates from its own tile; "
    "accelerate the whole output as one tile, or compute the coordinate-dependent part on the host "
    "and stream it in"), func="hw_output")
def coordinate_value_with_host_tiles():
    return hl.compile(_coordinate_program((4, 8)).output, name="demo")


@coordinate_value_with_host_tiles.fix
def _():
    return hl.compile(_coordinate_program(None).output, name="demo")


@case("hardware", "An index that is not an affine function of the loops", (
    "{at}: Func 'hw_output' accesses 'hw_input' at (x * y), which is not an affine function of its "
    "loops; memories need affine addresses: compute data-dependent indexing and mirrored boundary "
    "conditions on the host side, before the accelerator input (a clamped read of an accelerator input, as "
    "repeat_edge and constant_exterior make, works inside)."), func="hw_output")
def non_affine_index():
    p = pipeline()
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.hw_input[p.x * p.y, p.y]  # <-
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@non_affine_index.fix
def _():
    p = pipeline()
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.hw_input[p.x * 2, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "fuse inside the accelerator", (
    "{at}: Func 'mid': fuse(x, y, t) is not supported in hardware yet (a fused loop indexes memories "
    "with / and %); use split, tile and reorder"), func="mid")
def fuse_inside_the_accelerator():
    p = scheduled()
    p.mid.fuse(p.x, p.y, hl.Var("t"))  # <-
    return hl.compile(p.output, name="demo")


@fuse_inside_the_accelerator.fix
def _():
    p = scheduled()
    p.mid.reorder(p.x, p.y)
    return hl.compile(p.output, name="demo")


@case("hardware", "A split inside the accelerator whose factor does not divide the extent", (
    "{at}: Func 'mid': split(x, x, xv, 3): the extent of x is 8, which 3 does not divide; in "
    "hardware a tail must round the loop up (tail strategy Auto is not supported). Use "
    "hl.TailStrategy.RoundUp (the extra iterations compute values that are discarded), choose a "
    "factor that divides 8, or bound the Func to a multiple of 3."), func="mid")
def split_does_not_divide():
    p = scheduled()
    p.mid.split(p.x, p.x, hl.Var("xv"), 3)  # <-
    return hl.compile(p.output, name="demo")


@split_does_not_divide.fix
def _():
    p = scheduled()
    p.mid.split(p.x, p.x, hl.Var("xv"), 3, R)
    return hl.compile(p.output, name="demo")


@case("hardware", "Host tiles with a tail strategy the host loop cannot run", (
    "{at}: Func 'hw_output': split(x, xo, xi, 4, GuardWithIf): the host loop xo over accelerator "
    "tiles needs ShiftInwards or RoundUp tails (10 is not a multiple of 4, and every tile runs the "
    "same hardware); use TailStrategy.RoundUp, or drop the tail strategy for ShiftInwards"), func="hw_output")
def host_tiles_guard_with_if():
    p = pipeline(width=10)
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 4, 8, hl.TailStrategy.GuardWithIf)  # <-
    p.hw_output.hw_accelerate(p.xi, p.xo)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@host_tiles_guard_with_if.fix
def _():
    p = pipeline(width=10)
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 4, 8, R).hw_accelerate(p.xi, p.xo)
    buffer(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "RoundUp host tiles on the pipeline's output write past its bounds", (
    "{at}: Func 'output': split(x, xo, xi, 4, RoundUp): the last tile of the host loop xo would "
    "write past the pipeline output's bounds (10 is not a multiple of 4; Halide refuses such an "
    "output buffer too); drop the tail strategy (ShiftInwards, the default: the last tile moves back "
    "inside the output)"), func="output")
def round_up_tiles_on_the_output():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, output = hl.Func("hw_input"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    output[x, y] = hw_input[x, y] * 2
    output.bound(x, 0, 10).bound(y, 0, 8)
    output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 8, R).hw_accelerate(xi, xo)  # <-
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@round_up_tiles_on_the_output.fix
def _():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, output = hl.Func("hw_input"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    output[x, y] = hw_input[x, y] * 2
    output.bound(x, 0, 10).bound(y, 0, 8)
    output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@case("hardware", "An accelerator input unrolled along y", (
    "{at}: accelerator input 'hw_input': hw_input.unroll(y, 2): the host streams an accelerator "
    "input x fastest, several consecutive words of x per transfer; only its x loop can be unrolled, "
    "by a factor: hw_input.unroll(x, <lanes>)"), func="hw_input")
def input_unrolled_along_y():
    p = scheduled()
    p.hw_input.unroll(p.y, 2, R)  # <-
    p.mid.unroll(p.y, 2, R)
    p.hw_output.unroll(p.yi, 2, R)
    return hl.compile(p.output, name="demo")


@input_unrolled_along_y.fix
def _():
    p = scheduled()
    p.hw_input.unroll(p.x, 2, R)
    p.mid.unroll(p.x, 2, R)
    p.hw_output.unroll(p.xi, 2, R)
    return hl.compile(p.output, name="demo")


@case("hardware", "A producer and its consumer unrolled by different factors", (
    "{at}: Func 'mid' computes 1 pixel per cycle (no unroll of x), so it reads 1 pixel of 'hw_input' "
    "along x per cycle, but accelerator input 'hw_input' streams 2 per cycle (hw_input.unroll(x, 2, "
    "hl.TailStrategy.RoundUp) at {at}): producer and consumer must run at the same rate. Fix: add "
    "mid.unroll(x, 2) so that it keeps pace with 'hw_input'."), func="mid", simulate=True)
def lanes_disagree():
    p = scheduled()
    p.hw_input.unroll(p.x, 2, R)  # <-
    p.hw_output.unroll(p.xi, 2, R)
    return hl.compile(p.output, name="demo")


@lanes_disagree.fix
def _():
    p = scheduled()
    p.hw_input.unroll(p.x, 2, R)
    p.mid.unroll(p.x, 2, R)
    p.hw_output.unroll(p.xi, 2, R)
    return hl.compile(p.output, name="demo")


@case("hardware", "An update unrolled by another factor than its pure definition", (
    "{at}: Func 'acc'.update(0) computes 2 pixels per cycle (acc.update(0).unroll(x, 2, "
    "hl.TailStrategy.RoundUp)) but the pure definition of Func 'acc' computes 1 (no unroll of x): an "
    "unrolled update is folded into its pure definition's loops, so their lanes must match. Fix: add "
    "acc.unroll(x, 2)."), func="acc")
def update_lanes_disagree():
    p, acc = _reduction(3)
    buffer(p, acc)
    p.hw_input.unroll(p.x, 2, R)
    acc.update().unroll(p.x, 2, R)  # <-
    p.hw_output.unroll(p.xi, 2, R)
    return hl.compile(p.output, name="demo")


@update_lanes_disagree.fix
def _():
    p, acc = _reduction(3)
    buffer(p, acc)
    p.hw_input.unroll(p.x, 2, R)
    acc.update().unroll(p.x, 2, R)
    acc.unroll(p.x, 2, R)
    p.hw_output.unroll(p.xi, 2, R)
    return hl.compile(p.output, name="demo")


def _scan():
    """acc is a running sum along x (each iteration reads the previous one's result)."""
    p = pipeline(width=9)
    r = hl.RDom([hl.Range(1, 8)], "r")
    acc = hl.Func("acc")
    acc[p.x, p.y] = p.hw_input[p.x, p.y]
    acc[r.x, p.y] = acc[r.x - 1, p.y] + p.hw_input[r.x, p.y]  # <-scan
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = acc[p.x, p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 9).bound(p.y, 0, 8)
    accelerate(p)
    buffer(p, acc)
    stream(p)
    return p, acc, r


@case("hardware", "An unrolled scan: lanes that read each other's results", (
    "{scan}: Func 'acc'.update(0): acc.update(0).unroll(r.x, 2) at {at} makes lanes that depend on "
    "each other: lane [1] reads the value of 'acc' that lane [0] computes in the same cycle (a scan: "
    "each iteration reads the previous one's result). Unrolled lanes must be independent: keep this "
    "loop serial, or unroll a loop whose iterations do not read each other (e.g. the pure variable "
    "of a scan along another dimension)."), func="acc", simulate=True)
def unrolled_scan():
    p, acc, r = _scan()
    acc.update().unroll(r.x, 2)  # <-
    return hl.compile(p.output, name="demo")


@unrolled_scan.fix
def _():
    p, acc, r = _scan()
    return hl.compile(p.output, name="demo")


def _glb(p, glb_input: bool = True, mem_tile=(8, 8), array_at=None):
    """Seed 002's three levels on the pipeline: hw_output.in_() is the GLB output tile (16x16), hw_output is
    computed once per GLB tile in memory tiles of `mem_tile`, hw_input.in_() is the GLB input tile."""
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    out = p.hw_output.in_()
    out.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 16, 16).hw_accelerate(p.xi, p.xo)
    out.store_in(hl.MemoryType.GLB)  # <-glb_output
    p.hw_output.tile(p.x, p.y, xio, yio, xii, yii, *mem_tile)
    p.hw_output.compute_at(out, p.xo if array_at is None else array_at)  # <-array
    p.mid.compute_at(p.hw_output, xio)
    p.hw_input.in_().in_().compute_at(p.hw_output, xio)
    if glb_input:
        p.hw_input.in_().compute_at(out, p.xo).store_in(hl.MemoryType.GLB)
    p.hw_input.compute_root().accelerator_input()
    return p


@case("hardware", "A GLB output buffer without a GLB input buffer", (
    "{glb_output}: Func 'hw_output_global_wrapper' is a GLB output buffer but no input is stored in "
    "the GLB; add the GLB input copy: hw_input.in_().compute_at(hw_output.in_(), xo) and "
    "hw_input.in_().store_in(MemoryType.GLB)"), func="hw_output_global_wrapper", simulate=True)
def glb_output_without_glb_input():
    p = _glb(pipeline(32, 32), glb_input=False)
    return hl.compile(p.output, name="demo")


@glb_output_without_glb_input.fix
def _():
    p = _glb(pipeline(32, 32))
    return hl.compile(p.output, name="demo")


@case("hardware", "Memory tiles that do not divide the GLB tile", (
    "{array}: Func 'hw_output': its memory tiles (loop xio) are [6, 8] but the GLB tile is [16, 16]: "
    "a memory tile must divide the GLB tile; choose a tile size that divides it"), func="hw_output")
def memory_tile_does_not_divide_the_glb_tile():
    p = _glb(pipeline(32, 32), mem_tile=(6, 8))
    return hl.compile(p.output, name="demo")


@memory_tile_does_not_divide_the_glb_tile.fix
def _():
    p = _glb(pipeline(32, 32), mem_tile=(8, 8))
    return hl.compile(p.output, name="demo")


@case("hardware", "store_in(GLB) on the hw_accelerate Func itself", (
    "{at}: Func 'hw_output': store_in(MemoryType.GLB) on the hw_accelerate Func makes it the GLB "
    "output buffer, which must copy the array's output point for point; make it a wrapper: "
    "hw_output.in_().store_in(MemoryType.GLB) with hw_accelerate on hw_output.in_()"), func="hw_output")
def glb_on_the_accelerated_func():
    p = scheduled()
    p.hw_output.store_in(hl.MemoryType.GLB)  # <-
    return hl.compile(p.output, name="demo")


@glb_on_the_accelerated_func.fix
def _():
    p = _glb(pipeline(32, 32))
    return hl.compile(p.output, name="demo")


@case("hardware", "The array's output computed at a loop inside the GLB tile", (
    "{array}: Func 'hw_output' is the array's output (the GLB buffer hw_output.in_() "
    "copies it) but is compute_at(hw_output_global_wrapper, xi); compute it once per GLB tile: "
    "hw_output.compute_at(hw_output.in_(), xo)"), func="hw_output")
def array_output_inside_the_glb_tile():
    p = pipeline(32, 32)
    return hl.compile(_glb(p, array_at=p.xi).output, name="demo")


@array_output_inside_the_glb_tile.fix
def _():
    p = pipeline(32, 32)
    return hl.compile(_glb(p, array_at=p.xo).output, name="demo")


@case("hardware", "An upsampled accelerator output of an odd extent", (
    "{at}: Func 'hw_output': an upsample divides the index of dimension xi by 2, so the accelerator runs that "
    "loop in steps of 2, but 'hw_output' runs it 7 times; make its extent a multiple of 2 (bound the output to a "
    "multiple of 2)"), func="hw_output")
def upsample_output_of_an_odd_extent():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output = hl.Func("hw_input"), hl.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hw_input[x / 2, y / 2]  # <-
    hw_output.bound(x, 0, 7).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 7, 4).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(hw_output, name="demo")


@upsample_output_of_an_odd_extent.fix
def _():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output = hl.Func("hw_input"), hl.Func("hw_output")
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hw_input[x / 2, y / 2]
    hw_output.bound(x, 0, 8).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(hw_output, name="demo")


@case("hardware", "Reads of an accelerator input clamped to different bounds", (
    "{at}: Func 'hw_input' is read inside the accelerator clamped to [0, 7] and to [1, 7] in its dimension x: "
    "its stream repeats the edges of one range; clamp every read of it to the same bounds"), func="hw_input")
def edges_of_different_clamps():
    p = pipeline()
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = (p.hw_input[hl.clamp(p.x - 1, 0, 7), p.y]  # <-
                             + p.hw_input[hl.clamp(p.x + 1, 1, 7), p.y])
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@edges_of_different_clamps.fix
def _():
    p = pipeline()
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = (p.hw_input[hl.clamp(p.x - 1, 0, 7), p.y]
                             + p.hw_input[hl.clamp(p.x + 1, 0, 7), p.y])
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "An unclamped read of an accelerator input past another read's clamp", (
    "{at}: Func 'hw_input' is read at (x + 1) in its dimension x, which reaches [1, 8], while other reads clamp "
    "it to [0, 7]: inside the accelerator its stream repeats the edges outside that range; clamp this read too "
    "(clamp((x + 1), 0, 7))"), func="hw_input", simulate=True)
def edges_unclamped_past_the_clamp():
    p = pipeline()
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.hw_input[hl.clamp(p.x - 1, 0, 7), p.y] + p.hw_input[p.x + 1, p.y]  # <-
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")


@edges_unclamped_past_the_clamp.fix
def _():
    p = pipeline()
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.hw_input[hl.clamp(p.x - 1, 0, 7), p.y] + p.hw_input[hl.clamp(p.x + 1, 0, 7), p.y]
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    return hl.compile(p.output, name="demo")
