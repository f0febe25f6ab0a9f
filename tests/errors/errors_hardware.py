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
    "{reduction}: RDom r: dimension r.x has bounds that are not known values (they use a Param); an "
    "accelerator's loops are fixed at compile time: give the RDom constant bounds (e.g. "
    "hl.RDom([hl.Range(0, 3)]))"), func="acc")
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


@case("hardware", "An index that is not an affine function of the loops", (
    "{at}: Func 'hw_output' accesses 'hw_input' at (x * y), which is not an affine function of its "
    "loops; memories need affine addresses: compute data-dependent indexing on the host side, before the "
    "accelerator input (a boundary condition with constant bounds on an accelerator input, as repeat_edge, "
    "constant_exterior, mirror_image and mirror_interior make, works inside)."), func="hw_output")
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


def _histogram(bins: int, clamp_to: int, read_next: bool = False):
    """A histogram of the accelerator input's values clamped to [0, clamp_to], bounded to `bins` bins."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r")
    hist[b] = hl.u16(0)
    at = hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, clamp_to)
    if read_next:
        hist[at] = hist[at + 1] + 1  # <-scatter_read
    else:
        hist[at] += hl.u16(1)  # <-scatter_write
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, bins)
    hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output


def _ram(init_from_input: bool = False, reduce_after: str = "", taps: int = 1):
    """A 256-bin histogram, held in a RAM (more than 64 elements), with one of a RAM's mistakes."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r")
    at = hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, 255)
    hist[b] = hw_input[(b + 1) % 3, 0] if init_from_input else hl.u16(b)  # <-ram_init
    hist[at] += hl.u16(1)
    if reduce_after:  # a second update, at the pure coordinates, that also reduces over the image's first row
        row = hl.RDom([hl.Range(0, 8)], "row")
        if reduce_after == "refused":
            hist[b] = hist[b] + hw_input[row.x, 0]  # <-ram_pure_rdom
        else:  # the fix: the row's sum in a Func of its own, which the update reads
            total = hl.Func("total")
            total[b] = hl.u16(0)
            total[b] += hw_input[row.x, 0]
            hist[b] = hist[b] + total[b]
    copy = hl.Func("copy")
    copy[b] = hist[b]
    read = hist if taps < 4 else copy
    hw_output[b] = sum((read[b + k] for k in range(1, taps if taps < 4 else 3)), read[b])  # <-ram_taps
    output[b] = hw_output[b]
    bo, bi = hl.Var("bo"), hl.Var("bi")
    output.bound(b, 0, 256)
    hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
    if taps >= 4:
        copy.compute_at(hw_output, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@case("hardware", "A RAM whose elements start at values read from an input at an index no split serves", (
    "{ram_init}: Func 'hist': 'hist' has more than 64 elements, so it is held in a RAM (a memory tile updated at "
    "the computed address, one step per cycle), whose elements start at values known at compile time (of the "
    "coordinates and constant Funcs) or read at affine coordinates (written in a first pass, whose loop over a "
    "coordinate c runs in steps of k where it reads at c / k or c % k), but its pure definition "
    "hw_input(((b + 1) % 3), 0) reads hw_input at an index divided by a constant that is not one coordinate over "
    "whole steps (its box is [0, 257]); initialise it without hw_input (hist(...) = 0) and combine hw_input with it "
    "in a Func that reads it"),
    func="hist", gaps=("fix",), note="Halide accepts any initial value; a RAM here starts at a table the compiler "
    "computes, or at values read at affine coordinates, which its pure definition writes in a first pass of its "
    "update port, its loops split into steps of a divisor (b % 8, and b % 3 whose box rounds up to whole steps, "
    "compile); (b + 1) % 3 is not one coordinate: its values 1, 2, 0 in each step of 3 are not affine")
def ram_initialised_from_an_input():
    return hl.compile(_ram(init_from_input=True), name="demo")


@ram_initialised_from_an_input.fix
def _():
    return hl.compile(_ram(), name="demo")


@case("hardware", "A RAM's update at its pure coordinates that also reduces over an RDom", (
    "{ram_pure_rdom}: Func 'hist'.update(1): 'hist' has more than 64 elements, so it is held in a RAM (a memory "
    "tile updated at the computed address, one step per cycle), and this update at its pure coordinates also "
    "reduces over row$x; compute the reduction in a Func of its own and read it"), func="hist")
def ram_pure_update_over_an_rdom():
    return hl.compile(_ram(reduce_after="refused"), name="demo")


@ram_pure_update_over_an_rdom.fix
def _():
    return hl.compile(_ram(reduce_after="fix"), name="demo")


@case("memories", "A RAM read at more places per cycle than a memory tile has read ports", (
    "{ram_taps}: Func 'hw_output': buffer 'hist' is a RAM (updated at computed coordinates) read through 3 ports "
    "after its updates, and a memory tile has 2; read it at fewer places per cycle (fewer lanes or taps in the "
    "Funcs that read it), or copy it into a Func that the others read"), func="hw_output")
def ram_read_at_three_places():
    return hl.compile(_ram(taps=3), name="demo")


@ram_read_at_three_places.fix
def _():
    return hl.compile(_ram(taps=4), name="demo")


def _ram_output(lanes: int, tile: int = 100):
    """A 100-bin histogram that is itself the accelerator's output (a RAM, streamed out), of `lanes` lanes, in host
    tiles of `tile` bins."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist = hl.Func("hw_input"), hl.Func("hist")
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8)], "r")
    hist[b] = hl.u16(0)  # <-ram_output_lanes
    hist[hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, 99)] += hl.u16(1)  # <-ram_output_tiles
    bo, bi = hl.Var("bo"), hl.Var("bi")
    hist.bound(b, 0, 100)
    hist.compute_root().split(b, bo, bi, tile).hw_accelerate(bi, bo).unroll(bi, lanes)
    hw_input.compute_root().stream_to_accelerator()
    return hist


@case("memories", "The accelerator's output, a RAM, streamed out in more lanes than a memory tile has read ports", (
    "{ram_output_lanes}: Func 'hist': the accelerator's output 'hist' is a RAM (a table updated at computed "
    "coordinates), streamed out through 4 lanes per cycle, and a memory tile serves 2 reads per cycle; unroll its "
    "pure definition by at most 2"), func="hist", note="up to 64 elements such an output is lanes of registers "
    "instead (hwlower/scatter.py)")
def ram_output_in_four_lanes():
    return hl.compile(_ram_output(4), name="demo")


@ram_output_in_four_lanes.fix
def _():
    return hl.compile(_ram_output(2), name="demo")


@case("hardware", "A write at a computed coordinate that reads another element", (
    "{scatter_read}: Func 'hist'.update(0) writes 'hist' at (max(min(int32(hw_input(r$x, r$y)), 15), 0)) but "
    "reads it at ((max(min(int32(hw_input(r$x, r$y)), 15), 0) + 1)); inside the accelerator an update at a computed "
    "coordinate may read only the element it writes"), func="hist")
def scatter_reads_another_element():
    return hl.compile(_histogram(17, 15, read_next=True), name="demo")


@scatter_reads_another_element.fix
def _():
    return hl.compile(_histogram(16, 15), name="demo")


@case("hardware", "A table updated at computed coordinates, streamed out in host tiles of its bins", (
    "{ram_output_tiles}: Func 'hist'.update(0) writes at computed coordinates, so the accelerator holds the whole "
    "table in every invocation, but it streams out in host tiles along b (each invocation would read the first "
    "one's elements); accelerate the whole table in one invocation (the host loop's split as wide as the table)"),
    func="hist", note="Halide runs each host tile's reduction over the whole image; here each invocation would "
    "have to read the table from its own tile's origin (a wrong output before session 20, with or without a copy)")
def ram_output_in_host_tiles():
    return hl.compile(_ram_output(1, tile=50), name="demo")


@ram_output_in_host_tiles.fix
def _():
    return hl.compile(_ram_output(1), name="demo")


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


def _two_accelerated_outputs(alike: bool):
    """Two outputs of one stencil (a sum and a difference of neighbours), each from an accelerated Func: tiled
    alike (`alike`: one accelerator computes both), or hw_diff in tiles of its own."""
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
    hw_diff.compute_root().tile(x, y, xo, yo, xi, yi, side, side).hw_accelerate(xi, xo)  # <-accel_diff
    for f in (total, diff):
        f.bound(x, 0, 8).bound(y, 0, 8)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile([total, diff], name="demo")


@case("hardware", "Two outputs from Funcs accelerated in different tiles", (
    "{accel_diff}: Funcs 'hw_sum', 'hw_diff' are each scheduled hw_accelerate (hw_sum at {accel_sum}; hw_diff at "
    "{accel_diff}) but not alike, and a design has one accelerated region; schedule 'hw_diff' exactly as 'hw_sum' "
    "(the same tile and hw_accelerate calls, or compute_with it), so that one accelerator computes both as its "
    "outputs, or make them the elements of one Tuple Func and accelerate that (e.g. hw_outputs[x, y] = "
    "(hw_sum[x, y], hw_diff[x, y]))"), func="hw_diff", simulate=True)
def two_accelerated_outputs():
    return _two_accelerated_outputs(alike=False)


@two_accelerated_outputs.fix
def _():
    return _two_accelerated_outputs(alike=True)
