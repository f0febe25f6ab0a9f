"""Catalogue cases: what `Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring",
{...}))` refuses (mainspring/autoschedule.py): bad keys and values, algorithms it has nothing to accelerate or no
size for, a GLB level it cannot build, budgets no schedule fits."""

from __future__ import annotations

from types import SimpleNamespace

import mainspring as hl

from catalogue import case

P = hl.AutoschedulerParams


def unscheduled(size=(8, 8)):
    """seed 002's pipeline with no schedule and no bounds (input -> hw_input -> mid -> hw_output -> output), its
    estimates given."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.set_estimates([(0, size[0]), (0, size[1])])
    return SimpleNamespace(x=x, y=y, mid=mid, hw_output=hw_output, output=output)


@case("autoschedule", "An unknown key in AutoschedulerParams", (
    r"{at}: AutoschedulerParams\(\"Mainspring\"\): unknown key 'lane'; the keys are lanes: pixels per cycle, .*; "
    r"max_pes: .*; max_mem_tiles: .*; use_glb: .*; glb_tile: .*"), regex=True)
def unknown_key():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"lane": "2"}))  # <-
    return hl.compile(p.output, name="demo")


@unknown_key.fix
def _():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"lanes": "2"}))
    return hl.compile(p.output, name="demo")


@case("autoschedule", "A value that is not a positive integer", (
    "{at}: AutoschedulerParams(\"Mainspring\"): max_pes='0' is not valid; max_pes: the PE budget, a positive "
    "integer: lanes, then reductions' unrolls, are cut to fit it"))
def max_pes_zero():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "0"}))  # <-
    return hl.compile(p.output, name="demo")


@max_pes_zero.fix
def _():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "40"}))
    return hl.compile(p.output, name="demo")


@case("autoschedule", "A GLB tile that is not WxH", (
    "{at}: AutoschedulerParams(\"Mainspring\"): glb_tile='4' is not valid; glb_tile: \"WxH\", the GLB tile "
    "(implies use_glb \"true\"; default: the output, or tiles of at most 256)"))
def glb_tile_not_wxh():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"glb_tile": "4"}))  # <-
    return hl.compile(p.output, name="demo")


@glb_tile_not_wxh.fix
def _():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"glb_tile": "4x4"}))
    return hl.compile(p.output, name="demo")


@case("autoschedule", "A GLB tile without the GLB", (
    "{at}: AutoschedulerParams(\"Mainspring\"): glb_tile='4x4' with use_glb=\"false\": a GLB tile needs the GLB; "
    "drop glb_tile, or set use_glb to \"true\""))
def glb_tile_without_glb():
    p = unscheduled()
    params = P("Mainspring", {"use_glb": "false", "glb_tile": "4x4"})
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), params)  # <-
    return hl.compile(p.output, name="demo")


@glb_tile_without_glb.fix
def _():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"use_glb": "true", "glb_tile": "4x4"}))
    return hl.compile(p.output, name="demo")


@case("autoschedule", "An output with no estimate of its size", (
    "{at}: apply_autoscheduler: the output 'output' has no estimate for x; give the size it is computed at: "
    "output.set_estimates([(0, 64), (0, 64)])"), func="output")
def no_estimates():
    p = unscheduled()
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring"))  # <-
    return hl.compile(p.output, name="demo")


@no_estimates.fix
def _():
    p = unscheduled()
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.set_estimates([(0, 8), (0, 8)])
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(p.output, name="demo")


def _histogram():
    """A 2-D histogram of pixel pairs' top bits (a table updated at computed coordinates) as the output."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    r = hl.RDom([(0, 8), (0, 8)], "r")
    hist = hl.Func("hist")
    hist[x, y] = hl.u16(0)
    hist[hl.i32(input_[r.x, r.y]) >> 6, hl.i32(input_[r.x + 1, r.y]) >> 6] += hl.u16(1)
    hist.set_estimates([(0, 4), (0, 4)])
    return hist


@case("autoschedule", "A GLB level for an output that is a table updated at computed coordinates", (
    "{at}: apply_autoscheduler: use_glb=\"true\": the GLB level holds copies of the accelerator's output tiles, and "
    "'hist' is a table updated at computed coordinates, whose values stream out whole after its last update, so "
    "'hist' is the accelerated Func itself, with no tiles to copy; leave use_glb at \"auto\""), func="hist",
    note="an output that copies no Func otherwise becomes a copy of its value, whose tiles the GLB level copies "
    "(mainspring/autoschedule_copy.py, gaps20)")
def glb_without_an_output_copy():
    out = _histogram()
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"use_glb": "true"}))  # <-
    return hl.compile(out, name="demo")


@glb_without_an_output_copy.fix
def _():
    out = _histogram()
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"use_glb": "auto"}))
    return hl.compile(out, name="demo")


def planar(w=9, h=6):
    """A 3-channel output, a planar copy of hw_output (c, x, y), which scales an interleaved image; estimates,
    no schedule."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    im = hl.ImageParam(hl.UInt(8), 3, "image")
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[c, x, y] = hl.u8((hl.u16(im[x, y, c]) * 3) >> 2)
    output[x, y, c] = hw_output[c, x, y]
    output.set_estimates([(0, w), (0, h), (0, 3)])
    return output


@case("autoschedule", "A GLB tile for an output that is a table updated at computed coordinates", (
    "{at}: apply_autoscheduler: glb_tile=\"2x2\" (which asks for use_glb \"true\"): the GLB level holds copies of the "
    "accelerator's output tiles, and 'hist' is a table updated at computed coordinates, whose values stream out "
    "whole after its last update, so 'hist' is the accelerated Func itself, with no tiles to copy; drop glb_tile"),
    func="hist", simulate=True)
def glb_tile_without_an_output_copy():
    out = _histogram()
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"glb_tile": "2x2"}))  # <-
    return hl.compile(out, name="demo")


@glb_tile_without_an_output_copy.fix
def _():
    out = _histogram()
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(out, name="demo")


@case("autoschedule", "A GLB tile for a 3-dimensional output", (
    "{at}: apply_autoscheduler: glb_tile=\"5x3\" (which asks for use_glb \"true\"): the GLB level is built for "
    "2-D outputs and images streamed one pixel per word, and 'output' has 3 dimensions; drop glb_tile (use_glb "
    "\"auto\" keeps one accelerator tile, or host tiles)"), func="output")
def glb_tile_of_three_dimensions():
    out = planar()
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"glb_tile": "5x3"}))  # <-
    return hl.compile(out, name="demo")


@glb_tile_of_three_dimensions.fix
def _():
    out = planar()
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(out, name="demo")


@case("autoschedule", "A budget no schedule fits", (
    "{at}: apply_autoscheduler: no schedule of 'output' fits max_pes=1 and max_mem_tiles=128: the smallest tried "
    "(one lane, reductions serial) needs 2 PEs and 1 memory tile; raise the budget (max_pes=\"2\", "
    "max_mem_tiles=\"128\") or compile for a larger target"), func="output")
def budget_too_small():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "1"}))  # <-
    return hl.compile(p.output, name="demo")


@budget_too_small.fix
def _():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "2"}))
    return hl.compile(p.output, name="demo")


def _scaled_input():
    """unscheduled() with hw_input scaling the image (the reference system's rom: hw_input = input * 7)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y] * 7
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.set_estimates([(0, 8), (0, 8)])
    return SimpleNamespace(output=output)


@case("autoschedule", "A budget no schedule fits, the host computing what it can", (
    "{at}: apply_autoscheduler: no schedule of 'output' fits max_pes=1 and max_mem_tiles=128: the smallest tried "
    "(one lane, reductions serial, the host computing what it can) needs 2 PEs and 1 memory tile; raise the budget "
    "(max_pes=\"2\", max_mem_tiles=\"128\") or compile for a larger target"), func="output")
def budget_too_small_with_the_host():
    p = _scaled_input()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "1"}))  # <-
    return hl.compile(p.output, name="demo")


@budget_too_small_with_the_host.fix
def _():
    p = _scaled_input()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "2"}))
    return hl.compile(p.output, name="demo")


def _gray_of_clamped():
    """RGB to gray over an image clamped in all three dimensions (its channels' extent unknown)."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 3, "input")
    clamped = hl.BoundaryConditions.repeat_edge(input_)
    gray = hl.Func("gray")
    gray[x, y] = hl.u8((hl.u16(clamped[x, y, 0]) + clamped[x, y, 1] + clamped[x, y, 2]) / 3)
    gray.set_estimates([(0, 8), (0, 8)])
    return input_, gray


@case("autoschedule", "A boundary condition over a dimension the output does not have", (
    "{at}: apply_autoscheduler: the algorithm reads the size of image input along its dimension 2 (a boundary "
    "condition), which has no estimate, and no dimension of the output indexes it; give the image the size of the "
    "frames it will take, every dimension: input.set_estimates([(0, 8), (0, 8), (0, 3)])"), simulate=True)
def image_size_unknown():
    _, gray = _gray_of_clamped()
    hl.Pipeline(gray).apply_autoscheduler(hl.CGRA(), P("Mainspring"))  # <-
    return hl.compile(gray, name="demo")


@image_size_unknown.fix
def _():
    input_, gray = _gray_of_clamped()
    input_.set_estimates([(0, 8), (0, 8), (0, 3)])
    hl.Pipeline(gray).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(gray, name="demo")


def _histogram_of_clamped():
    """A 16-bin histogram of a 13x7 region of a clamped image: the output's one dimension is the bins, so no
    dimension of it gives the image's width (once taken silently from the bins)."""
    x = hl.Var("x")
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    clamped = hl.BoundaryConditions.repeat_edge(inp)
    r = hl.RDom([(0, 13), (0, 7)])
    hist = hl.Func("hist")
    hist[x] = hl.u16(0)
    hist[hl.i32(clamped[r.x, r.y] / 16)] += 1
    hist.set_estimates([(0, 16)])
    return inp, hist


@case("autoschedule", "A boundary condition over an image the output does not index (a histogram)", (
    "{at}: apply_autoscheduler: the algorithm reads the size of image inp along its dimension 0 (a boundary "
    "condition), which has no estimate, and no dimension of the output indexes it; give the image the size of the "
    "frames it will take, every dimension: inp.set_estimates([(0, 13), (0, 7)])"), simulate=True)
def histogram_image_size_unknown():
    inp, hist = _histogram_of_clamped()
    inp.dim(1).set_estimate(0, 7)  # one dimension only: the width must not come from the 16 bins
    hl.Pipeline(hist).apply_autoscheduler(hl.CGRA(), P("Mainspring"))  # <-
    return hl.compile(hist, name="demo")


@histogram_image_size_unknown.fix
def _():
    inp, hist = _histogram_of_clamped()
    inp.set_estimates([(0, 13), (0, 7)])
    hl.Pipeline(hist).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(hist, name="demo")


@case("schedule", "An image's bounds that are not integers", (
    "{at}: ImageParam input.dim(0).set_bounds: extent must be a positive integer, got 0"))
def image_bounds_not_positive():
    input_, gray = _gray_of_clamped()
    input_.dim(0).set_bounds(0, 0)  # <-
    return hl.compile(gray, name="demo")


@image_bounds_not_positive.fix
def _():
    input_, gray = _gray_of_clamped()
    input_.dim(2).set_estimate(0, 3)
    input_.dim(0).set_bounds(0, 8)
    hl.Pipeline(gray).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(gray, name="demo")


def _downsampled_blur():
    """seed 002's pipeline whose output reads its producer both at every other column and at x + 1 (a Func read at
    two rates along x), 64 pixels wide: as one tile its buffers take 7 memory tiles of 16 words.
    (A producer read at 2 * x alone is tiled in whole steps: tests/flow/test_flow_autoschedule_resampled.py.)"""
    p = unscheduled(size=(64, 8))
    p.hw_output[p.x, p.y] = p.mid[2 * p.x, p.y] + p.mid[p.x + 1, p.y + 1]
    return p


@case("autoschedule", "A frame over the memory tiles that cannot be tiled", (
    "{at}: apply_autoscheduler: 'output' as one accelerator tile of 64 x 8 needs 7 memory tiles, over the "
    "budget of 2, and it cannot be split into tiles along x: Func 'mid' is read at 1 and 2 times the output's x "
    "(through a resampling and another reader), so its footprint would not only shift from tile to tile; raise "
    "max_mem_tiles or compile for a larger target (hl.CGRA(num_mem_tiles=7))"), func="output")
def frame_cannot_tile():
    p = _downsampled_blur()
    target = hl.CGRA(mem_tile_words=16, num_mem_tiles=2)
    hl.Pipeline(p.output).apply_autoscheduler(target, P("Mainspring"))  # <-
    return hl.compile(p.output, name="demo", target=target)


@frame_cannot_tile.fix
def _():
    p = _downsampled_blur()
    target = hl.CGRA(mem_tile_words=16, num_mem_tiles=7)
    hl.Pipeline(p.output).apply_autoscheduler(target, P("Mainspring"))
    return hl.compile(p.output, name="demo", target=target)


def _two_tables():
    """seed 002's pipeline reading two constant tables at computed coordinates, computed in floating point (two
    ROMs, a memory tile each at any tile width; integer ones would be inlined as arithmetic)."""
    p = unscheduled(size=(64, 8))
    square, half = hl.Func("square"), hl.Func("half")
    square[p.x] = hl.u16(hl.f32(p.x) * hl.f32(p.x) / hl.f32(256.0))
    half[p.x] = hl.u16(hl.f32(p.x) * hl.f32(0.5))
    p.hw_output[p.x, p.y] = square[hl.clamp(p.mid[p.x, p.y], 0, 255)] + half[hl.clamp(p.mid[p.x, p.y + 1], 0, 255)]
    return p


@case("autoschedule", "A memory-tile budget that no tile width fits", (
    "{at}: apply_autoscheduler: 'output' does not fit max_mem_tiles=1 even in tiles 1 pixel(s) wide (about 2 "
    "memory tiles); raise max_mem_tiles or compile for a larger target (hl.CGRA(num_mem_tiles=2))"), func="output")
def no_tile_fits():
    p = _two_tables()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_mem_tiles": "1"}))  # <-
    return hl.compile(p.output, name="demo")


@no_tile_fits.fix
def _():
    p = _two_tables()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_mem_tiles": "3"}))
    return hl.compile(p.output, name="demo")


@case("schedule", "apply_autoscheduler on Funcs that already have a schedule", (
    "{at}: apply_autoscheduler: Func 'mid' already has a schedule (compute_at at {at2}), and the autoscheduler "
    "schedules an algorithm written without one (Halide refuses a scheduled Func too); remove the schedule calls of "
    "'mid' and of the other Funcs (keep bound and set_estimates), or compile the hand schedule without "
    "apply_autoscheduler"), func="mid")
def autoschedule_a_scheduled_func():
    p = unscheduled()
    p.mid.compute_at(p.hw_output, p.x)  # <-2
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring"))  # <-
    return hl.compile(p.output, name="demo")


@autoschedule_a_scheduled_func.fix
def _():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(p.output, name="demo")


def _levels_by_2_and_3(on_host: bool):
    """A half- and a third-resolution level summed back at full resolution, written for a CPU: 2 does not divide 3,
    so no nested steps read both (a pyramid's x / 2 and x / 4 do: tests/flow/test_flow_divisor_chains.py). The fix
    takes the third-resolution level's upsample from a pipeline of its own, as an input image (`on_host`)."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(16), 2, "image")
    d1, d3, up = hl.Func("d1"), hl.Func("d3"), hl.Func("up")
    d1[x, y] = (image[2 * x, 2 * y] + image[2 * x + 1, 2 * y + 1]) >> 1
    if on_host:
        d3_up = hl.ImageParam(hl.UInt(16), 2, "d3_up")
        up[x, y] = d3_up[x, y] + d1[x / 2, y / 2]
    else:
        d3[x, y] = (image[3 * x, 3 * y] + image[3 * x + 2, 3 * y + 2]) >> 1
        up[x, y] = d3[x / 3, y / 3] + d1[x / 2, y / 2]  # <-up
    up.set_estimates([(0, 12), (0, 6)])
    return up


@case("autoschedule", "A Func reading Funcs at two divisors of one coordinate, not a chain (x / 2 and x / 3)", (
    "{up}: apply_autoscheduler: Func 'up' reads d1 at x / 2 and d3 at x / 3: its loop over x steps by one divisor, "
    "or in nested steps by a chain of them (each dividing the next, as x / 2 and x / 4), so no schedule reads both "
    "at affine addresses (upsamples by 2 and by 3 in one Func); compute d3((x / 3), (y / 3)) in a pipeline of its "
    "own and pass its result in as an input image: d3_up = ImageParam(UInt(16), 2), d3_up(x, y) holding "
    "d3((x / 3), (y / 3)); up(x, y) = (d3_up(x, y) + d1((x / 2), (y / 2)))"), func="up")
def two_divisors():
    up = _levels_by_2_and_3(on_host=False)
    hl.Pipeline(up).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(up, name="demo")


@two_divisors.fix
def _():
    up = _levels_by_2_and_3(on_host=True)
    hl.Pipeline(up).apply_autoscheduler(hl.CGRA(), P("Mainspring"))
    return hl.compile(up, name="demo")


@case("schedule", "The autoscheduler applied to several outputs, one of them a Tuple", (
    "{at}: apply_autoscheduler: the pipeline has 2 outputs ('output', 'pair'), which the Mainspring autoscheduler "
    "schedules as the elements of one Tuple Func (in words of 32 bits), so they must be integer Funcs of one value "
    "each, over as many variables, of at most 32 bits each; apply it to each output's pipeline of its own, e.g. "
    "hl.Pipeline(output).apply_autoscheduler(...) and hl.Pipeline(pair).apply_autoscheduler(...), or define one "
    "Func per value (a Tuple's elements as Funcs of their own): the outputs leave the array as fields of words of at "
    "most 32 bits, a pixel's words side by side on one port"), func="output")
def autoschedule_two_outputs():
    p = unscheduled()
    pair = hl.Func("pair")
    pair[p.x, p.y] = (p.mid[p.x, p.y] / 2, p.mid[p.x, p.y] % 2)
    hl.Pipeline([p.output, pair]).apply_autoscheduler(hl.CGRA(), P("Mainspring", {}))  # <-
    return hl.compile(p.output, name="demo")


@autoschedule_two_outputs.fix
def _():
    p = unscheduled()
    hl.Pipeline(p.output).apply_autoscheduler(hl.CGRA(), P("Mainspring", {}))
    return hl.compile(p.output, name="demo")


@case("schedule", "fuse_outputs (an automatic schedule's first call) on outputs that cannot be one Tuple Func", (
    "{at}: fuse_outputs: the pipeline has 2 outputs ('output', 'pair'), which fuse_outputs computes as the elements "
    "of one Tuple Func (in words of 32 bits), so they must be integer Funcs of one value each, over as many "
    "variables, of at most 32 bits each; define one Func per value (a Tuple's elements as Funcs of their own): the "
    "outputs leave the array as fields of words of at most 32 bits, a pixel's words side by side on one port"),
    func="output")
def fuse_outputs_of_a_tuple():
    p = unscheduled()
    pair = hl.Func("pair")
    pair[p.x, p.y] = (p.mid[p.x, p.y] / 2, p.mid[p.x, p.y] % 2)
    hl.Pipeline([p.output, pair]).fuse_outputs()  # <-
    return hl.compile([p.output, pair], name="demo")


@fuse_outputs_of_a_tuple.fix
def _():
    # the pair's elements as Funcs of their own (three outputs of 16 bits: two words a pixel), scheduled by the
    # autoscheduler, whose schedule begins with fuse_outputs
    p = unscheduled()
    half, odd = hl.funcs("half odd")
    half[p.x, p.y] = p.mid[p.x, p.y] / 2
    odd[p.x, p.y] = p.mid[p.x, p.y] % 2
    for f in (half, odd):
        f.set_estimates([(0, 8), (0, 8)])
    hl.Pipeline([p.output, half, odd]).apply_autoscheduler(hl.CGRA(), P("Mainspring", {}))
    return hl.compile([p.output, half, odd], name="demo")


def _blur_and_edge():
    x, y = hl.vars("x y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    blurred, edge = hl.funcs("blurred edge")
    blurred[x, y] = hl.u16(image[x, y]) + image[x + 1, y] + image[x, y + 1]
    edge[x, y] = hl.u8(hl.absd(blurred[x + 1, y], blurred[x, y]) / 4)
    for f in (blurred, edge):
        f.set_estimates([(0, 32), (0, 8)])
    return [blurred, edge]


@case("autoschedule", "A GLB level for several outputs", (
    "{at}: apply_autoscheduler: use_glb=\"true\" (or glb_tile) with 2 outputs ('blurred', 'edge'): the GLB level "
    "holds copies of the accelerator's output tile, and several outputs are computed by the accelerator itself, as "
    "the elements of one Tuple Func, which copies no Func; leave use_glb at \"auto\" (host tiles where the frame "
    "does not fit the memory tiles), or apply it to each output's pipeline of its own, each output a copy of its "
    "last stage as seed 002 writes it (hw_output[x, y] = ...; blurred[x, y] = hw_output[x, y])"), func="blurred")
def glb_for_several_outputs():
    outputs = _blur_and_edge()
    hl.Pipeline(outputs).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"glb_tile": "16x8"}))  # <-
    return hl.compile(outputs, name="demo")


@glb_for_several_outputs.fix
def _():
    outputs = _blur_and_edge()
    hl.Pipeline(outputs).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"use_glb": "auto"}))
    return hl.compile(outputs, name="demo")


def _window_stats(wide: bool):
    """Each 3x3 window's min, max and sum (u16), and its centre too where `wide` (40 bits: a Tuple over 32)."""
    x, y = hl.vars("x y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    stats = hl.Func("stats")
    vals = [image[x + i, y + j] for i in range(3) for j in range(3)]
    lo, hi = vals[0], vals[0]
    for v in vals[1:]:
        lo, hi = hl.min(lo, v), hl.max(hi, v)
    stats[x, y] = (lo, hi, sum(hl.u16(v) for v in vals)) + ((image[x + 1, y + 1],) if wide else ())
    stats.set_estimates([(0, 16), (0, 8)])
    return stats


@case("autoschedule", "A GLB tile for a Tuple output over 32 bits", (
    "{at}: apply_autoscheduler: glb_tile=\"8x8\" (which asks for use_glb \"true\"): the GLB level holds copies of the "
    "accelerator's output tile, and 'stats' is a Tuple over 32 bits, held in several words, each a Func of its own, "
    "so it is the accelerated Func itself, with no tile to copy; narrow its elements to 32 bits in all (a Tuple of "
    "one word is made a copy of its value, as a single value is), or drop glb_tile"), func="stats",
    note="a Tuple of one word takes a GLB level (autoprobe24, session 38)")
def glb_tile_for_a_wide_tuple():
    out = _window_stats(wide=True)
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"glb_tile": "8x8"}))  # <-
    return hl.compile(out, name="demo")


@glb_tile_for_a_wide_tuple.fix
def _():
    out = _window_stats(wide=False)
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"glb_tile": "8x8"}))
    return hl.compile(out, name="demo")


@case("autoschedule", "A budget that no schedule of several outputs fits", (
    "{at}: apply_autoscheduler: no schedule of 'hw_outputs' (the Tuple Func computing the outputs 'blurred' and "
    "'edge') fits max_pes=4 and max_mem_tiles=128: the smallest tried (one lane, reductions serial) needs 10 PEs and "
    "1 memory tile; raise the budget (max_pes=\"10\", max_mem_tiles=\"128\") or compile for a larger target"),
    func="blurred")
def budget_too_small_for_several_outputs():
    outputs = _blur_and_edge()
    hl.Pipeline(outputs).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "4"}))  # <-
    return hl.compile(outputs, name="demo")


@budget_too_small_for_several_outputs.fix
def _():
    outputs = _blur_and_edge()
    hl.Pipeline(outputs).apply_autoscheduler(hl.CGRA(), P("Mainspring", {"max_pes": "10"}))
    return hl.compile(outputs, name="demo")
