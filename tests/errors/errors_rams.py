"""Catalogue cases: tables written at computed coordinates (RAMs) and histograms inside the accelerator: their
initial values, reads per cycle, updates and streams out (hwlower/scatter.py, memories' RAM ports), and an RVar
unrolled so that its lanes read each other. Split from errors_hardware.py."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


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


def _counts_read_across_tiles(width: int):
    """A 64-bin histogram of the first row (a RAM, its elements starting at zero), read at x plus a pixel's value
    minus 128, in host tiles `width` wide over 16 columns: the table's box is what its reader needs, so it moves
    with the tile."""
    x, y, i = hl.Var("x"), hl.Var("y"), hl.Var("i")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, tbl, hw_output, output = (hl.Func(n) for n in ("hw_input", "tbl", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, 4)], "r")
    tbl[i] = hl.u16(0)  # <-ram_moves
    tbl[hl.clamp(hl.i32(hw_input[r.x, 0]), 0, 63)] += 1
    hw_output[x, y] = tbl[x + hl.clamp(hl.i32(hw_input[x, y]), 0, 255) - 128]
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, 16).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, 4).hw_accelerate(xi, xo)
    tbl.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@case("hardware", "A RAM whose box moves between the accelerator's invocations", (
    "{ram_moves}: Func 'tbl': 'tbl' has more than 64 elements, so it is held in a RAM (a memory tile updated at the "
    "computed address, one step per cycle), but its box differs between the accelerator's invocations "
    "([-128, 134] in the first, [-120, 142] in another), and every invocation runs the hardware built for the "
    "first, whose RAM holds the first one's elements; accelerate the whole output in one invocation (the host "
    "loop's split as wide as the output)"), func="tbl", simulate=True,
    note="Halide accepts it (each tile realises the table over its own box); an internal assertion before session "
    "30 (with initial values of the coordinates, a refusal whose fix, a constant start, met that assertion)")
def ram_box_moving_between_invocations():
    return hl.compile(_counts_read_across_tiles(8), name="demo")


@ram_box_moving_between_invocations.fix
def _():
    return hl.compile(_counts_read_across_tiles(16), name="demo")


@case("hardware", "A RAM's update at its pure coordinates that also reduces over an RDom", (
    "{ram_pure_rdom}: Func 'hist'.update(1): 'hist' has more than 64 elements, so it is held in a RAM (a memory "
    "tile updated at the computed address, one step per cycle), and this update at its pure coordinates also "
    "reduces over row.x; compute the reduction in a Func of its own and read it"), func="hist")
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
    "{scatter_read}: Func 'hist'.update(0) writes 'hist' at (max(min(int32(hw_input(r.x, r.y)), 15), 0)) but "
    "reads it at ((max(min(int32(hw_input(r.x, r.y)), 15), 0) + 1)); inside the accelerator an update at a computed "
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


def _ram_update(kind: str):
    """A 256-bin histogram (a RAM) of the input's values, then an update of kind "const": one bin, at a constant
    coordinate; "one_step": the same bin over a one-step RDom (the fix); "pure": a 256 x 2 histogram whose update
    runs over the pure variable c; "rdom": c made a dimension of the update's RDom (the fix)."""
    x, y, b, c = hl.Var("x"), hl.Var("y"), hl.Var("b"), hl.Var("c")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    bo, bi, co, ci = hl.Var("bo"), hl.Var("bi"), hl.Var("co"), hl.Var("ci")
    r = hl.RDom([hl.Range(0, 8), hl.Range(0, 8), hl.Range(0, 2)], "r")
    at = hl.clamp(hl.i32(hw_input[r.x, r.y]), 0, 255)
    if kind in ("pure", "rdom"):
        hist[b, c] = hl.u16(0)
        if kind == "pure":
            hist[at, c] += hl.u16(1) + hl.u16(c)  # <-ram_pure_var
        else:
            hist[at, r.z] += hl.u16(1) + hl.u16(r.z)
        hw_output[b, c] = hist[b, c]
        output[b, c] = hw_output[b, c]
        output.bound(b, 0, 256).bound(c, 0, 2)
        hw_output.compute_root().tile(b, c, bo, co, bi, ci, 256, 2).hw_accelerate(bi, bo)
    else:
        hist[b] = hl.u16(0)
        hist[at] += hl.u16(1)
        if kind == "const":
            hist[0] = hist[0] + 5  # <-ram_const
        else:
            one = hl.RDom([hl.Range(0, 1)], "one")
            hist[one.x] = hist[one.x] + 5
        hw_output[b] = hist[b]
        output[b] = hw_output[b]
        output.bound(b, 0, 256)
        hw_output.compute_root().split(b, bo, bi, 256).hw_accelerate(bi, bo)
    hw_input.compute_root().stream_to_accelerator()
    return output


_RAM = ("'hist' has more than 64 elements, so it is held in a RAM (a memory tile updated at the computed address, "
        "one step per cycle)")


@case("hardware", "A RAM's update at a constant coordinate", (
    "{ram_const}: Func 'hist'.update(1) writes 'hist' at (0): " + _RAM + ", whose updates must write at a computed "
    "coordinate, over an RDom alone, or at its pure coordinates (hist(b)); write the constant coordinate as a "
    "one-step RDom (one = hl.RDom([hl.Range(0, 1)]), then hist[one.x] in place of hist[0])"), func="hist",
    simulate=True)
def ram_update_at_a_constant():
    return hl.compile(_ram_update("const"), name="demo")


@ram_update_at_a_constant.fix
def _():
    return hl.compile(_ram_update("one_step"), name="demo")


@case("hardware", "A RAM's update at a computed coordinate that also runs over a pure variable", (
    "{ram_pure_var}: Func 'hist'.update(0) writes 'hist' at (max(min(int32(hw_input(r.x, r.y)), 255), 0), c): "
    + _RAM + ", which an update changes one element per step, but this one also runs over all of the pure "
    "variable c; add a dimension over c's extent to the update's RDom and write it in c's place"), func="hist",
    simulate=True)
def ram_update_over_a_pure_variable():
    return hl.compile(_ram_update("pure"), name="demo")


@ram_update_over_a_pure_variable.fix
def _():
    return hl.compile(_ram_update("rdom"), name="demo")


def _chain(unrolled: bool):
    """acc(x, y) = acc(x, y) * 3 + hw_input(x + r.x, y + r.y): a reduction, but not an accumulation (r.x unrolled, r.y
    serial: unrolled whole, the steps fold into one expression)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, acc, hw_output, output = (hl.Func(n) for n in ("hw_input", "acc", "hw_output", "output"))
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r")
    hw_input[x, y] = hl.u16(inp[x, y])
    acc[x, y] = hl.u16(0)
    acc[x, y] = acc[x, y] * 3 + hw_input[x + r.x, y + r.y]  # <-chain
    hw_output[x, y] = acc[x, y]
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 8).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    acc.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    if unrolled:
        acc.update().unroll(r.x)  # <-chain_unroll
    return output


@case("hardware", "An unrolled reduction that is not an accumulation", (
    "{chain}: Func 'acc'.update(0): acc.update(0).unroll(r.x) at {chain_unroll} makes lanes that depend on each "
    "other: lane [1] reads the value of 'acc' that lane [0] computes in the same cycle (a reduction's steps that "
    "update one element: only +, min and max of the element and a term that does not read it combine into one "
    "tree). Unrolled lanes must be independent: keep this loop serial, or write the update as such an "
    "accumulation."), func="acc", simulate=True,
    note="a histogram's bins never meet this message: lanes of registers add into each bin as a tree, and an "
    "update of them that is not an accumulation runs its unroll serially, with a note (hwlower/scatter.py)")
def unrolled_reduction_not_an_accumulation():
    return hl.compile(_chain(True), name="demo")


@unrolled_reduction_not_an_accumulation.fix
def _():
    return hl.compile(_chain(False), name="demo")


def _lookup_lanes(lanes: int):
    """Image b's pixels looked up in the 16-bin cumulative histogram of image a (a RAM the accelerator fills) at
    `lanes` pixels per cycle."""
    x, y, i = hl.Var("x"), hl.Var("y"), hl.Var("i")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    a, b = hl.ImageParam(hl.UInt(8), 2, "a"), hl.ImageParam(hl.UInt(8), 2, "b")
    r, s = hl.RDom([(0, 8), (0, 4)], "r"), hl.RDom([(1, 15)], "s")
    hist, cdf, out = hl.Func("hist"), hl.Func("cdf"), hl.Func("out")
    hist[i] = hl.u16(0)
    hist[hl.i32(a[r.x, r.y] >> 4)] += hl.u16(1)
    cdf[i] = hist[i]
    cdf[s.x] = cdf[s.x - 1] + hist[s.x]
    out[x, y] = cdf[hl.i32(b[x, y] >> 4)]  # <-ram_lookup_lanes
    out.bound(x, 0, 12).bound(y, 0, 4)
    out.compute_root().tile(x, y, xo, yo, xi, yi, 12, 4).hw_accelerate(xi, xo).unroll(xi, lanes)
    hist.compute_at(out, xo)
    cdf.compute_at(out, xo)
    a.in_().compute_root().stream_to_accelerator()
    b.in_().compute_root().stream_to_accelerator().unroll(hl.Var("_0"), lanes)
    return out


@case("memories", "A RAM read at pixel values by more lanes than a memory tile has read ports", (
    "{ram_lookup_lanes}: Func 'out': 'cdf' is read at computed coordinates from a RAM (its copy 'cdf_ram': a scan "
    "cannot be one) read through 3 ports after its updates, and a memory tile has 2; read 'cdf' at fewer places "
    "per cycle (fewer lanes or taps in the Funcs that read it)"), func="out",
    note="Halide has no read ports: each lane of `out` reads the cdf; copies of a RAM, one per 2 lanes, are not "
    "made (the lanes of one op read one buffer), so the fix is 2 lanes (the autoscheduler takes at most 2)")
def ram_looked_up_by_three_lanes():
    return hl.compile(_lookup_lanes(3), name="demo")


@ram_looked_up_by_three_lanes.fix
def _():
    return hl.compile(_lookup_lanes(2), name="demo")


def _gather(clamped: bool):
    """hw_input read at a coordinate loaded from idx = x * y (clamped to the 0..49 it reaches, or not)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, idx, hw_output, output = (hl.Func(n) for n in ("hw_input", "idx", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])  # <-gather_ram
    idx[x, y] = hl.clamp(x * y, 0, 49) if clamped else x * y
    hw_output[x, y] = hw_input[idx[x, y], y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    idx.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@case("hardware", "A RAM read at a loaded coordinate whose values span their type", (
    "{gather_ram}: Func 'hw_input' is held in a RAM (a memory tile that answers a computed address), but its box is "
    "[-2147483648, 2147483647] x [0, 7], more words than any RAM holds: the coordinates it is read at are loaded "
    "values whose range is their Func's values over all its coordinates (their type's range here, as Halide bounds "
    "them); clamp the values of the Func that computes them to the coordinates read (its definition's value v as "
    "hl.clamp(v, lo, hi))"), func="hw_input",
    note="Halide bounds the read by idx's values over all coordinates too (x * y spans int32), so its realization "
    "of hw_input would be as large; the program is refused there at run time")
def ram_of_unbounded_coordinates():
    return hl.compile(_gather(False), name="demo")


@ram_of_unbounded_coordinates.fix
def _():
    return hl.compile(_gather(True), name="demo")
