"""Catalogue cases: hardware schedules mainspring refuses when it lowers the accelerated region (hwlower/): splits
and host tiles, lanes, the GLB level, upsample steps, and boundary conditions inside the accelerator."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerate, buffer, case, glb_levels, pipeline, reduction, scheduled, stream

R = hl.TailStrategy.RoundUp


@case("hardware", "A reduction split with a rounding tail by a factor that does not divide its steps", (
    "{at}: Func 'acc'.update(0): split(r.x, rxo, rxi, 2, hl.TailStrategy.RoundUp): the reduction variable "
    "r.x has 3 steps, which 2 does not divide, and a RoundUp tail would add steps or repeat them (Halide "
    "refuses it on a reduction variable too). Leave the tail strategy out (a reduction's tail is then "
    "guarded, as hl.TailStrategy.GuardWithIf), or split r.x by a factor that divides 3"), func="acc",
    simulate=True)
def reduction_split_does_not_divide():
    p, acc = reduction(3, unrolled=False)
    buffer(p, acc)
    acc.update().split(p.r.x, hl.RVar("rxo"), hl.RVar("rxi"), 2, R)  # <-
    return hl.compile(p.output, name="demo")


@reduction_split_does_not_divide.fix
def _():
    p, acc = reduction(3, unrolled=False)
    buffer(p, acc)
    acc.update().split(p.r.x, hl.RVar("rxo"), hl.RVar("rxi"), 2)
    return hl.compile(p.output, name="demo")


@case("hardware", "A split of the GLB array output that does not divide a memory tile nearly as wide as the GLB tile", (
    "{at}: Func 'hw_output': split(xii, xii, xv, 7, hl.TailStrategy.RoundUp): the extent of xii in a "
    "memory tile is 15, which 7 does not divide; with a GLB level the array output's memory tiles are "
    "written side by side into the GLB tile, so its loops must cover one exactly. Choose a factor that "
    "divides 15, or a memory tile whose extent is a multiple of 7"), func="hw_output", simulate=True,
    note="memory tiles round up to whole steps of the split (15 to 21 columns) only where they still fit in the "
         "GLB tile (16): 8 split by 3 makes memory tiles of 9 since session 41 (tests/flow/test_tails41.py)")
def glb_array_split_does_not_divide():
    p = glb_levels(pipeline(32, 32), mem_tile=(15, 8))
    p.hw_output.split(hl.Var("xii"), hl.Var("xii"), hl.Var("xv"), 7, R)  # <-
    return hl.compile(p.output, name="demo")


@glb_array_split_does_not_divide.fix
def _():
    p = glb_levels(pipeline(32, 32), mem_tile=(15, 8))
    p.hw_output.split(hl.Var("xii"), hl.Var("xii"), hl.Var("xv"), 5)
    return hl.compile(p.output, name="demo")


@case("schedule", "RoundUp host tiles on the pipeline's output write past its bounds", (
    "{bound}: Bounds given for output in x (from 0 to 9) do not cover required region (from 0 to 11): a RoundUp "
    "split of x runs whole steps past the bound; split x by a factor that divides 10, or use "
    "hl.TailStrategy.GuardWithIf (or ShiftInwards) for that split, or widen the bound"), func="output")
def round_up_tiles_on_the_output():
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, output = hl.Func("hw_input"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    output[x, y] = hw_input[x, y] * 2
    output.bound(x, 0, 10).bound(y, 0, 8)  # <-bound
    output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 8, R).hw_accelerate(xi, xo)
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


def _output_reduction(fix: bool = False):
    """hw_output, the accelerator's output, sums 3 taps of hw_input in an unrolled update; 2 lanes."""
    p = pipeline()
    r = hl.RDom([hl.Range(0, 3)], "r")
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = hl.u16(0)
    p.hw_output[p.x, p.y] += p.hw_input[p.x + r.x, p.y]
    p.hw_output.update().unroll(r.x)
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    stream(p)
    p.hw_input.unroll(p.x, 2, R)
    p.hw_output.update().unroll(p.x, 2, R)  # <-update
    if fix:
        p.hw_output.unroll(p.xi, 2, R)
    return hl.compile(p.output, name="demo")


@case("hardware", "The accelerator output's update unrolled by another factor than its pure definition", (
    "{update}: Func 'hw_output'.update(0) computes 2 pixels per cycle (hw_output.update(0).unroll(x, 2, "
    "hl.TailStrategy.RoundUp)) but the pure definition of Func 'hw_output' computes 1 (no unroll of x): an "
    "unrolled update is folded into its pure definition's loops, so their lanes must match. Fix: add "
    "hw_output.unroll(xi, 2)."), func="hw_output")
def update_lanes_disagree():
    return _output_reduction()


@update_lanes_disagree.fix
def _():
    return _output_reduction(fix=True)


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
    p = glb_levels(pipeline(32, 32))
    return hl.compile(p.output, name="demo")


@case("hardware", "The array's output computed at a loop inside the GLB tile", (
    "{array}: Func 'hw_output' is the array's output (the GLB buffer hw_output.in_() "
    "copies it) but is compute_at(hw_output_global_wrapper, xi); compute it once per GLB tile: "
    "hw_output.compute_at(hw_output.in_(), xo)"), func="hw_output")
def array_output_inside_the_glb_tile():
    p = pipeline(32, 32)
    return hl.compile(glb_levels(p, array_at=p.xi).output, name="demo")


@array_output_inside_the_glb_tile.fix
def _():
    p = pipeline(32, 32)
    return hl.compile(glb_levels(p, array_at=p.xo).output, name="demo")


def _compile_through(p, hw_output, *buffered):
    """`p`'s pipeline with `hw_output` as the accelerator's output (copied to `output`, 8x8), `buffered` at its
    loop, hw_input streamed."""
    p.hw_output = hw_output
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    accelerate(p)
    if buffered:
        buffer(p, *buffered)
    stream(p)
    return hl.compile(p.output, name="demo")


def _sheared_transposed_convolution(unrolled: bool, taps: int = 16):
    """up(x, y) = sum over r of hw_input((x + r.x) / 2 + r.y, y / 2) * (r.x + 2 * r.y + 1): a 2x upsampling
    convolution whose rows shear, r.y outside the quotient, over `taps` x 2 taps; its taps serial unless
    `unrolled`. (Without the shear, (x + r.x) / 2 alone, the serial taps read through a buffered Func:
    tests/flow/test_flow_upsample.py; with the shear over 2 x 2 taps, each step selects between 2 words since
    session 35: tests/flow/test_flow_uneven_lanes20.py.)"""
    p = pipeline(width=8, height=8)
    r = hl.RDom([hl.Range(0, taps), hl.Range(0, 2)], "r")
    up, hw_output = hl.Func("up"), hl.Func("hw_output")
    up[p.x, p.y] = hl.u16(0)
    up[p.x, p.y] += p.hw_input[(p.x + r.x) / 2 + r.y, p.y / 2] * hl.u16(r.x + 2 * r.y + 1)  # <-upconv
    if unrolled:
        up.update().unroll(r.x).unroll(r.y)
    hw_output[p.x, p.y] = up[p.x, p.y]
    return _compile_through(p, hw_output, up)


@case("hardware", "A reduction variable outside a quotient of a pure and a reduction variable (serial taps)", (
    "{upconv}: Func 'up'.update(0) accesses 'hw_input' at (((x + r.x) / 2) + r.y), which is not an affine "
    "function of its loops; memories need affine addresses: a serial reduction reads at a quotient only where all "
    "the index's variables lie inside one quotient by a constant (a transposed convolution's (x + r.x) / 2), or "
    "where each step selects among at most 8 words the quotient takes (a shear's (x + r.x) / 2 + r.y over 2 taps: "
    "2 words), and this index's (r.x, r.y) do neither; unroll the reduction "
    "(up.update(0).unroll(r.x).unroll(r.y)): each step's quotient is then affine on its own."), func="up",
    simulate=True, note="16 x 2 serial taps: x.strip_i + r.x would select among 9 words")
def sheared_transposed_convolution_serial():
    return _sheared_transposed_convolution(False)


@sheared_transposed_convolution_serial.fix
def _():
    return _sheared_transposed_convolution(True)


def _read_at_two_rates(rows: int):
    """hw_input read at y / 2 (through f0) and at y + 1 (by hw_output) in the memory tiles of `rows` rows over 4 of
    a GLB tile (fuzz 133450 under a GLB level): the memory tiles keep one phase, but hw_input's two reads move at
    different rates from tile to tile. (In host tiles it compiles: one stream per rate, hwlower/rate_streams.py.)"""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f0, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    f0[x, y] = hw_input[x, y / 2] + hw_input[x + 1, y / 2]
    hw_output[x, y] = f0[x, y] + hw_input[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 2).bound(y, 0, 4)
    glb = hw_output.in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, 2, 4).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, 2, rows).compute_at(glb, xo)  # <-tiles
    f0.compute_at(hw_output, xio)
    hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return hl.compile(output, name="demo")


@case("hardware", "Memory tiles of a GLB level over a Func read both at y / 2 and at y + 1", (
    "{tiles}: Func 'hw_output': accelerator tiles differ in shape (hw_input_global_wrapper needs [(0, 2), (1, 4)] "
    "for the tile at [(0, 1), (2, 3)] but [(0, 2), (0, 2)] for the first): every tile runs the same hardware, so "
    "the footprint of each Func may only shift from tile to tile; memory tiles start at the first tile's phase "
    "along y (indices divided by a constant: y / 2), yet hw_input_global_wrapper's footprint still changes, as "
    "when a Func is read both through y / 2 and through an undivided index: its reads move at different rates "
    "from tile to tile, and no box that only shifts holds both. Use one memory tile along y (a tile size of 4 "
    "along y, the whole GLB tile)"), func="hw_output", simulate=True,
    note="Halide accepts it; in host tiles it compiles (a stream per rate)")
def read_at_two_rates_in_host_tiles():
    return _read_at_two_rates(1)


@read_at_two_rates_in_host_tiles.fix
def _():
    return _read_at_two_rates(4)


def _serial_modulo(unrolled: bool):
    """alt(x, y) = sum over r.x in 0..2 of hw_input((x + r.x) % 2, y) * (r.x + 1): a reduction variable inside a
    modulo; its taps serial unless `unrolled` (each tap's (xi + k) % 2 is then affine in alt's 2-long steps)."""
    p = pipeline(width=8, height=8)
    r = hl.RDom([hl.Range(0, 3)], "r")
    alt, hw_output = hl.Func("alt"), hl.Func("hw_output")
    alt[p.x, p.y] = hl.u16(0)
    alt[p.x, p.y] += p.hw_input[(p.x + r.x) % 2, p.y] * hl.u16(r.x + 1)  # <-modulo
    if unrolled:
        alt.update().unroll(r.x)
    hw_output[p.x, p.y] = alt[p.x, p.y]
    return _compile_through(p, hw_output, alt)


@case("hardware", "A reduction variable inside a modulo by a constant (serial taps)", (
    "{modulo}: Func 'alt'.update(0) accesses 'hw_input' at ((x + r.x) % 2), which is not an affine function of its "
    "loops; memories need affine addresses: a serial reduction reads at a quotient only where all the index's "
    "variables lie inside one quotient by a constant (a transposed convolution's (x + r.x) / 2), or where each "
    "step selects among at most 8 words the quotient takes (a shear's (x + r.x) / 2 + r.y over 2 taps: 2 words), "
    "and this index's (r.x) do neither; unroll the reduction (alt.update(0).unroll(r.x)): each step's quotient is "
    "then affine on its own."), func="alt", simulate=True)
def serial_modulo():
    return _serial_modulo(False)


@serial_modulo.fix
def _():
    return _serial_modulo(True)


def _upsampled_lanes(lanes: int):
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, up, hw_output, output = (hl.Func(n) for n in ("hw_input", "up", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    up[x, y] = hw_input[x / 2, y] * 2  # <-upsample
    hw_output[x, y] = up[x, y] + 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 34).bound(y, 0, 2)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 34, 2).hw_accelerate(xi, xo).unroll(xi, lanes)
    up.compute_at(hw_output, xo).unroll(x, lanes)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@case("hardware", "Lanes over an upsample that would select among too many words", (
    "{upsample}: Func 'up' accesses 'hw_input' at (x / 2), which is not an affine function of its loops; memories "
    "need affine addresses: its 17 lanes along x (up.unroll(x, 17)) are neither whole steps of the upsample's 2 nor "
    "a divisor of 2, so each lane's quotient moves unevenly from cycle to cycle (x / 2 over 17 lanes: 0 0 1 1 2 2 3 "
    "3 4 4 5 5 6 6 7 7 8, 8 9 9 10 10 11 11 12 12 13 13 14 14 15 15 16 16, ...): each lane would select among up to "
    "10 words per run of 2 cycles (a compare and a select each, in every lane), and the accelerator selects among "
    "at most 8 (so at most 13 lanes that are neither); make the lanes a multiple of 2 or a divisor of 2: change "
    "up.unroll(x, 17) to up.unroll(x, 2), and its readers' lanes alike."), func="up", simulate=True,
    note="Halide accepts any lanes; lanes neither a multiple nor a divisor that select among up to 8 words (2 or 10 "
         "over x / 3) compile (tests/flow/test_flow_upsample_uneven_lanes.py, test_flow_uneven_lanes20.py)")
def lanes_past_an_upsample_step():
    return _upsampled_lanes(17)


@lanes_past_an_upsample_step.fix
def _():
    return _upsampled_lanes(2)


def _rows_apart(strided: bool):
    p = pipeline(8, 8)
    yo, yi = hl.Var("yo"), hl.Var("yi")
    if strided:  # the host loop yi steps over rows 4 apart: each tile is rows yi and yi + 4
        p.hw_output.compute_root().split(p.y, yo, yi, 4).reorder(p.x, yo, yi).hw_accelerate(p.x, yi)  # <-strided
    else:
        p.hw_output.compute_root().split(p.y, yo, yi, 4).reorder(p.x, yi, yo).hw_accelerate(p.x, yo)
    buffer_at = yi if strided else yo
    p.mid.compute_at(p.hw_output, buffer_at)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "A host loop over the inner part of a split whose outer part runs inside the accelerator", (
    "{strided}: Func 'hw_output': the host loop yi outside hw_accelerate's store loop does not step over tiles of "
    "one dimension; split each dimension once (e.g. tile(x, y, xo, yo, xi, yi, 64, 64))"), func="hw_output",
    simulate=True, note="Halide accepts tiles whose rows are apart (a strided tile)")
def host_loop_over_strided_rows():
    return _rows_apart(True)


@host_loop_over_strided_rows.fix
def _():
    return _rows_apart(False)


def _fused_split(inside: bool):
    p = pipeline(8, 4)
    t, to, ti = hl.Var("t"), hl.Var("to"), hl.Var("ti")
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 2, 2).fuse(p.xo, p.yo, t).split(t, to, ti, 4)
    if inside:  # ti, the fused host loop's inner part, would run inside the accelerator over 4 tiles
        p.hw_output.hw_accelerate(p.xi, to)  # <-fused
    else:
        p.hw_output.hw_accelerate(p.xi, ti)
    p.mid.compute_at(p.hw_output, to if inside else ti)
    stream(p)
    return hl.compile(p.output, name="demo")


@case("hardware", "Accelerated at the outer part of a fused host loop split again", (
    "{fused}: Func 'hw_output': the host loop to outside hw_accelerate's store loop does not step over tiles of one "
    "dimension: to is the outer part of split(t, to, ti, 4) of the fused loop t (fuse(xo, yo, t)), whose inner part "
    "ti would run inside the accelerator, over several tiles; accelerate at the inner part (hw_accelerate(xi, ti)), "
    "or at t without splitting it"), func="hw_output", simulate=True,
    note="Halide accepts an accelerator over several fused tiles")
def fused_host_loop_split_inside():
    return _fused_split(True)


@fused_host_loop_split_inside.fix
def _():
    return _fused_split(False)


def _read_at_two_divisors(on_host: bool):
    """hw_output reads f at x / 2 and g at x / 9 (36 x 2, one tile): one loop over x runs in runs of 18, in which
    x / 2 would select among 10 words; the fix upsamples f on the host and streams it in (`on_host`). Divisors
    whose runs select among fewer (x / 2 and x / 3) compile since session 35 (test_flow_uneven_lanes20.py)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f, g, f_up, hw_output, output = (hl.Func(n) for n in ("hw_input", "f", "g", "f_up", "hw_output",
                                                                     "output"))
    hw_input[x, y] = input_[x, y]
    f[x, y] = hw_input[x, y] + 1
    g[x, y] = hw_input[x, y] * 2
    if on_host:
        f_up[x, y] = f[x / 2, y]
        hw_output[x, y] = f_up[x, y] + g[x / 9, y]
        f.compute_root()
        f_up.compute_root().stream_to_accelerator()
    else:
        hw_output[x, y] = f[x / 2, y] + g[x / 9, y]  # <-two_divisors
        f.compute_at(hw_output, xo)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 36).bound(y, 0, 2)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 36, 2).hw_accelerate(xi, xo)
    g.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return hl.compile(output, name="demo")


@case("hardware", "One loop read at two divisors whose runs select among too many words (x / 2 and x / 9)", (
    "{two_divisors}: Func 'hw_output' accesses 'f' at (x / 2), which is not an affine function of its loops; "
    "memories need affine addresses: 'hw_output' runs its loop over x in runs of 18 (the lcm of its divisors), in "
    "which x / 2 would select among up to 10 words, and the accelerator selects among at most 8 (lane_quotients.py); "
    "upsample the read at x / 2 on the host and stream it in: f_up(x, y) = f((x / 2), y); "
    "f_up.compute_root().stream_to_accelerator() ('f' computed on the host: compute_root), and read f_up(x, y) in "
    "'hw_output'."), func="hw_output", simulate=True,
    note="Halide accepts it; two divisors whose runs of their lcm select among up to 8 words (x / 2 and x / 3) "
         "compile (tests/flow/test_flow_uneven_lanes20.py)")
def read_at_two_divisors():
    return _read_at_two_divisors(False)


@read_at_two_divisors.fix
def _():
    return _read_at_two_divisors(True)


def _long_period(on_host: bool):
    """hw_output reads hw_input at a row offset of period 10, (x / 2) % 10 over 24 columns (`on_host`: the host
    reads the shifted rows into the stream instead)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_input_up, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_input_up", "hw_output",
                                                                     "output"))
    hw_input[x, y] = input_[x, y]
    if on_host:
        hw_input_up[x, y] = hw_input[x, y + (x / 2) % 10]
        hw_output[x, y] = hw_input_up[x, y] + 1
        hw_input.compute_root()
        hw_input_up.compute_root().stream_to_accelerator()
    else:
        hw_output[x, y] = hw_input[x, y + (x / 2) % 10] + 1  # <-long_period
        hw_input.compute_root().stream_to_accelerator()
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 24).bound(y, 0, 2)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 24, 2).hw_accelerate(xi, xo)
    return hl.compile(output, name="demo")


@case("hardware", "A read at a periodic offset of more than 8 values", (
    "{long_period}: Func 'hw_output' accesses 'hw_input' at (y + ((x / 2) % 10)), which is not an affine function "
    "of its loops; memories need affine addresses: 'hw_output' runs its loop over x in steps of 10, and one loop "
    "steps by one divisor, so x / 2 is affine in no split of it (upsamples by 10 and by 2 read at one resolution); "
    "upsample the read at x / 2 on the host and stream it in: hw_input_up(x, y) = hw_input(x, (y + ((x / 2) % 10)));"
    " hw_input_up.compute_root().stream_to_accelerator() ('hw_input' computed on the host: compute_root), and read "
    "hw_input_up(x, y) in 'hw_output'."), func="hw_output", simulate=True,
    note="Halide accepts it: a remainder of a quotient taking at most 8 values over the reader's box compiles, as a "
    "select of the reads at each value (hwlower/periodic_reads.py); this one takes 10, ten reads of one Func")
def long_periodic_offset():
    return _long_period(False)


@long_periodic_offset.fix
def _():
    return _long_period(True)



def _ramp(tile, glb: bool = False):
    """An output computed from coordinates alone (no input image), its accelerator over tiles of `tile` (with
    `glb`: on hw_output.in_(), stored in the GLB, as seed 002 writes a GLB level)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = hl.u16(x + 16 * y)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 16).bound(y, 0, 8)
    if not glb:
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)  # <-no_input_tiles
        return output
    out = hw_output.in_()
    out.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
    out.store_in(hl.MemoryType.GLB)  # <-no_input_glb
    hw_output.compute_at(out, xo)
    return output


@case("hardware", "Host tiles of an accelerator that reads no input", (
    "{no_input_tiles}: Func 'hw_output' reads no input image, so its accelerator runs once after reset, but its "
    "hw_accelerate loops are run 4 times by the host (one per tile). Make one accelerator tile cover the output: e.g. "
    "hw_output.tile(x, y, xo, yo, xi, yi, 16, 8).hw_accelerate(xi, xo)"), func="hw_output", simulate=True)
def host_tiles_of_no_input():
    return hl.compile(_ramp((8, 4)), name="demo")


@host_tiles_of_no_input.fix
def _():
    return hl.compile(_ramp((16, 8)), name="demo")


@case("hardware", "A GLB level over an accelerator that reads no input", (
    "{no_input_glb}: Func 'hw_output_global_wrapper' is a GLB output buffer, but the accelerator streams no input "
    "image (it computes from coordinates alone), and a GLB level stages input tiles; leave out hw_output.in_() "
    "(its store_in(MemoryType.GLB) and hw_accelerate) and hw_accelerate hw_output in its place"),
    func="hw_output_global_wrapper", simulate=True)
def glb_of_no_input():
    return hl.compile(_ramp((16, 8), glb=True), name="demo")


@glb_of_no_input.fix
def _():
    return hl.compile(_ramp((16, 8)), name="demo")
