"""Upsamples by different divisors chained along one dimension, and GLB tiles over an upsample at another phase
(passes: the whole flow, on both simulators). A chain reading x at (x + r.x) / 3 and then at x / 2 has three
resolutions; no one step makes both quotients affine, so each resolution steps by its own divisor
(hwlower/steps.py, `_level_steps`): refused before as "not an affine function of its loops" (fuzz 141245, 138643).
A last GLB tile shifted inward to another phase than the first over an upsample in the array output moves back
outward (hwlower/tiling.py, `phase_multiples`): refused before as "accelerator tiles differ in shape" (fuzz
141463). An inline upsample by 3 or more read at an offset off its steps is buffered (fuzz 156060)."""

import numpy as np
import pytest

import mainspring as hl


def _chain(first: int, then: int, width: int, tile: int | None):
    """hw_output reads f1 at x / `then` (x / then + 1 too), f1 a serial 3-tap reduction of hw_input read at
    (x + r.x) / `first`: three resolutions along x (1, 1 / then, 1 / (first * then)), and y / 2 at two. Host
    tiles of `tile` columns (None: one tile)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f1, hw_output, output = (hl.Func(n) for n in ("hw_input", "f1", "hw_output", "output"))
    r = hl.RDom([hl.Range(0, 3)], "r")
    hw_input[x, y] = input_[x, y]
    f1[x, y] = hl.u16(0)
    f1[x, y] += hw_input[(x + r.x) / first, y] * hl.u16(r.x + 1)
    hw_output[x, y] = (f1[x / then, y / 2] + f1[x / then + 1, y / 2]) >> 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tile or width, 4).hw_accelerate(xi, xo)
    f1.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize(("first", "then", "width", "tile", "simulator"), [
    (3, 2, 12, None, "icarus"), (3, 2, 12, None, "verilator"), (2, 3, 12, None, "icarus"),
    (2, 3, 12, None, "verilator"), (3, 2, 13, None, "icarus"), (2, 3, 12, 6, "icarus"), (3, 2, 12, 4, "icarus"),
    # tiles of 4 over x / 2 then x / 4: each tile at the first one's phase takes 8 columns (2 * 4), not lcm 4
    (4, 2, 16, 4, "icarus"), (2, 4, 16, 4, "verilator"),
], indirect=["simulator"])
def test_a_chain_of_upsamples_by_different_divisors_steps_each_resolution_by_its_own(first, then, width, tile,
                                                                                    simulator, build_dir,
                                                                                    compile_shared):
    design = compile_shared(_chain(first, then, width, tile), name=f"chain_{first}_{then}_{width}_{tile}")
    res = design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    tile0 = design.program.tiles[0].boxes
    # f1 (at 1 / then) is realised in whole steps of `first` from a multiple of it, hw_output in steps of `then`
    assert all((lo % first, (hi - lo + 1) % first) == (0, 0) for lo, hi in tile0["f1"][:1])
    assert all((lo % then, (hi - lo + 1) % then) == (0, 0) for lo, hi in tile0["hw_output"][:1])


def _chain_under_glb(width: int, glb_tile: int, mem_tile: int):
    """hw_output reads f1 at x / 2, f1 reads f0 at x / 3 (through `f0_for_f1`, a serial reduction's (x + r.x) / 3):
    under GLB tiles of `glb_tile` columns with memory tiles of `mem_tile` (fuzz 141245 over a wider frame)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, f0, f1, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "f1", "hw_output", "output"))
    r = hl.RDom([hl.Range(0, 3)], "r")
    hw_input[x, y] = input_[x, y]
    f0[x, y] = hl.u8(0)
    f0[x, y] += hw_input[(x + r.x) / 3, y] * hl.u8(3)
    f1[x, y] = f0[x, y] + hl.u8(1)
    hw_output[x, y] = (f1[x / 2, y] + f1[x / 2 + 1, y]) >> 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 2)
    glb = hw_output.in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, glb_tile, 1).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, mem_tile, 1).compute_at(glb, xo)
    f0.compute_at(hw_output, xio)
    f1.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return output


@pytest.mark.parametrize(("width", "glb_tile", "mem_tile", "simulator"), [
    (13, 6, 2, "icarus"), (13, 6, 2, "verilator"), (12, 4, 2, "icarus"), (11, 4, 4, "icarus"),
], indirect=["simulator"])
def test_a_chain_of_upsamples_under_a_glb_level_keeps_every_tile_at_one_phase(width, glb_tile, mem_tile, simulator,
                                                                              build_dir, compile_shared):
    """Memory tiles of 2 over x / 2 then x / 3 round up to whole periods of 6 (each memory tile at the first's
    phase at both resolutions), and the GLB tiles to whole memory tiles at the first GLB tile's phase."""
    design = compile_shared(_chain_under_glb(width, glb_tile, mem_tile),
                            name=f"glb_chain_{width}_{glb_tile}_{mem_tile}")
    design.check(design.example_inputs(6), simulator=simulator, build_dir=build_dir)
    assert all((t.loop_box or t.output_box)[0][0] % 6 == 0 for t in design.program.tiles)


def _glb_over_an_upsample(width: int, glb_tile: int):
    """An 11-or-so-wide 2x upsample (x / 2 and x / 2 + 1) in the array output, under GLB tiles of `glb_tile`
    columns, memory tiles of 4 x 2 inside: the last GLB tile shifts inward to an origin of another phase when
    `width` - `glb_tile` is odd (fuzz 141463)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, f0, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "hw_output", "output"))
    hw_input[x, y] = hl.u32(input_[x, y])
    f0[x, y] = hw_input[x + 1, y + 1] + hl.u32(1)
    hw_output[x, y] = (f0[x / 2, y / 2] + f0[x / 2 + 1, y / 2]) >> 1
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 2)
    glb = hw_output.in_()
    glb.compute_root().tile(x, y, xo, yo, xi, yi, glb_tile, 1).hw_accelerate(xi, xo)
    glb.store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, 4, 2).compute_at(glb, xo)
    f0.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return output


@pytest.mark.parametrize(("width", "glb_tile", "simulator"), [
    (11, 4, "icarus"), (11, 4, "verilator"), (13, 4, "icarus"), (15, 6, "icarus"), (15, 6, "verilator"),
], indirect=["simulator"])
def test_a_last_glb_tile_shifted_to_another_phase_moves_back_outward(width, glb_tile, simulator, build_dir,
                                                                     compile_shared):
    design = compile_shared(_glb_over_an_upsample(width, glb_tile), name=f"glb_phase_{width}_{glb_tile}")
    design.check(design.example_inputs(4), simulator=simulator, build_dir=build_dir)
    starts = [t.output_box[0][0] for t in design.program.tiles]
    assert all(s % 2 == 0 for s in starts), starts  # every GLB tile at the first tile's phase
    assert max(t.output_box[0][1] for t in design.program.tiles) == width - 1  # the host keeps the output only


def _inlined_chain(h, first: int, then: int, width: int, edge: bool):
    """hw_output reads f2 at x / `then` (and + 1), an upsample of f1 = f0 + 1; f0 reads hw_input at x / `first`
    (and + 1). `edge`: f0 buffered, f1 inlined and reading f0 through mirror_image at x - 1; else f0 and f1 one
    Func, inlined into f2 (reads at (x / then) / first and (x / then + 1) / first). Returns (input, output)."""
    x, y = h.Var("x"), h.Var("y")
    input_ = h.ImageParam(h.UInt(8), 2, "input")
    hw_input, f0, f1, f2, hw_output = (h.Func(n) for n in ("hw_input", "f0", "f1", "f2", "hw_output"))
    hw_input[x, y] = h.i16(input_[x, y])
    f0[x, y] = (hw_input[x / first, y] + hw_input[x / first + 1, y]) >> 1
    src = h.BoundaryConditions.mirror_image(f0, [(0, width), (0, 3)]) if edge else f0
    f1[x, y] = src[x - 1, y] + 1 if edge else src[x, y] + 1
    f2[x, y] = (f1[x / then, y] + f1[x / then + 1, y] * 3) >> 2
    hw_output[x, y] = f2[x, y]
    return input_, hw_output, (x, y, hw_input, f0, f2)


@pytest.mark.parametrize(("first", "then", "width", "edge", "simulator"), [
    (2, 4, 16, False, "icarus"), (4, 2, 16, False, "verilator"), (3, 2, 12, False, "icarus"),
    (3, 2, 11, True, "icarus"), (4, 2, 13, True, "verilator"), (2, 3, 12, True, "icarus"),
], indirect=["simulator"])
def test_an_upsample_chain_through_an_inlined_stage_compiles(first, then, width, edge, simulator, halide,
                                                             build_dir, compile_shared):
    """An inline upsample read at a quotient (fuzz 9146072: (x / 4) / 2) is buffered (hwlower/region.py); a
    chain read through an inlined boundary condition rounds its box up to whole steps at an odd width (fuzz
    9150177: hwlower/steps.py links through the mirror's index). Both were refused."""
    image = np.random.default_rng(width).integers(0, 256, (3, width + 2), dtype=np.uint8)
    h_input, h_out, _ = _inlined_chain(halide, first, then, width, edge)
    h_input.set(halide.Buffer(image))
    _, hw_output, (x, y, hw_input, f0, f2) = _inlined_chain(hl, first, then, width, edge)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 3)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, 3).hw_accelerate(xi, xo)
    f2.compute_at(hw_output, xo)
    if edge:
        f0.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    design = compile_shared(output, name=f"inlined_chain_{first}_{then}_{width}_{edge}")
    inputs = {"input": image}
    assert np.array_equal(design.reference_output(inputs), np.asarray(h_out.realize([width, 3])))
    design.check(inputs, simulator=simulator, build_dir=build_dir)


def _detail(h, width, height):
    """An image minus its blurred, downsampled and upsampled self, every stage inlined into the output."""
    x, y = h.Var("x"), h.Var("y")
    image = h.ImageParam(h.UInt(16), 2, "image")
    bl, dn, up, detail = h.Func("bl"), h.Func("dn"), h.Func("up"), h.Func("detail")
    bl[x, y] = (image[x, y] + image[x + 1, y] + image[x, y + 1] + image[x + 1, y + 1]) >> 2
    dn[x, y] = bl[2 * x, 2 * y]
    up[x, y] = dn[x / 2, y / 2]
    detail[x, y] = image[x, y] - up[x, y]
    return image, detail, (x, y)


@pytest.mark.parametrize(("width", "simulator"), [(16, "icarus"), (16, "verilator"), (13, "icarus")],
                         indirect=["simulator"])
def test_a_downsample_inlined_and_read_at_a_quotient_is_buffered(width, simulator, halide, build_dir, compile_shared):
    """dn(x, y) = bl(2 * x, 2 * y) read by an inlined upsample at (x / 2, y / 2): inlined, the output read the
    image at 2 * (x / 2) beside x, refused as "not an affine function of its loops" with a fix (extents of whole
    steps) the program followed; buffered at the accelerator's loop (hwlower/region.py), as Halide computes it."""
    img = np.random.default_rng(width).integers(0, 1 << 12, (8, width + 2), dtype=np.uint16)
    h_image, h_detail, _ = _detail(halide, width, 6)
    h_image.set(halide.Buffer(img))
    image, detail, (x, y) = _detail(hl, width, 6)
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    detail.bound(x, 0, width).bound(y, 0, 6)
    detail.compute_root().tile(x, y, xo, yo, xi, yi, width, 6).hw_accelerate(xi, xo)
    image.in_().compute_root().stream_to_accelerator()
    design = compile_shared(detail, name=f"detail_{width}")
    inputs = {"image": img}
    assert np.array_equal(design.reference_output(inputs), np.asarray(h_detail.realize([width, 6])))
    design.check(inputs, simulator=simulator, build_dir=build_dir)


def _inline_upsample_read_at_offsets(by: int, offset: int, taps: bool, width: int):
    """f0, an inline upsample by `by` along x, read by f1 at x and x + `offset` (or over `offset` + 1 unrolled taps
    at x + r.x): inlined, `hw_input((x + 1) / 3, y)` changes quotient partway through each 3-long step of x, affine in
    no split; f0 is buffered at the accelerator's loop instead (hwlower/region.py `_upsample_read_off_its_steps`),
    refused before with a fix that did not work (fuzz 156060)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, f0, f1, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "f1", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    f0[x, y] = hw_input[x / by, y] * 3
    if taps:
        r = hl.RDom([hl.Range(0, offset + 1)], "r")
        f1[x, y] = hl.u16(0)
        f1[x, y] += f0[x + r.x, y]
        f1.update().unroll(r.x)
    else:
        f1[x, y] = f0[x, y] + f0[x + offset, y]
    hw_output[x, y] = hl.u8(f1[x, y] >> 1)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 2)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, 2).hw_accelerate(xi, xo)
    f1.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", ["icarus", "verilator"], indirect=True)
@pytest.mark.parametrize(("by", "offset", "taps", "width"), [(3, 1, False, 12), (3, 2, True, 11), (4, 5, True, 12),
                                                            (4, 1, False, 7)])
def test_an_inline_upsample_read_off_its_steps_is_buffered(by, offset, taps, width, simulator, build_dir,
                                                           compile_shared):
    design = compile_shared(_inline_upsample_read_at_offsets(by, offset, taps, width), name="upsample_off_steps")
    assert "f0" in [b["name"] for b in design.report["buffers"]]
    res = design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir)
    assert res.cycles <= 1.15 * design.report["ideal_cycles"], (res.cycles, design.report["ideal_cycles"])


def _taps_at_a_quotient(by: int, taps: int, width: int, two_d: bool):
    """f1 += hw_input((x + r.x) / by, ...) * (r.x + 1) over `taps` unrolled taps (and two rows at (y + r.y) / by):
    past a divisor of 2 the taps' quotients are affine in no split of x, so the read goes through a Func that
    divides, buffered (hwlower/divided_reads.py, as for serial taps): refused before (fuzz 151009)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, f1, hw_output, output = (hl.Func(n) for n in ("hw_input", "f1", "hw_output", "output"))
    hw_input[x, y] = hl.u16(input_[x, y])
    r = hl.RDom([hl.Range(0, taps), hl.Range(0, 2 if two_d else 1)], "r")
    f1[x, y] = hl.u16(0)
    f1[x, y] += hw_input[(x + r.x) / by, (y + r.y) / by if two_d else y] * hl.u16(r.x + 1)
    f1.update().unroll(r.x).unroll(r.y)
    hw_output[x, y] = hl.u8(f1[x, y] >> 2)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, 6).hw_accelerate(xi, xo)
    f1.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", ["icarus", "verilator"], indirect=True)
@pytest.mark.parametrize(("by", "taps", "width", "two_d"), [(3, 3, 12, False), (3, 2, 9, True), (4, 3, 12, False)])
def test_unrolled_taps_at_a_quotient_past_two_read_through_a_dividing_func(by, taps, width, two_d, simulator,
                                                                            build_dir, compile_shared):
    design = compile_shared(_taps_at_a_quotient(by, taps, width, two_d), name="taps_at_a_quotient")
    assert "hw_input_for_f1" in [b["name"] for b in design.report["buffers"]]
    design.check(design.example_inputs(4), simulator=simulator, build_dir=build_dir)
