"""Host tiles over an upsample at any phase (hwlower/tiling.py, `_at_first_phase`): every tile runs the first
tile's hardware, whose strip-mined steps start at the first tile's phase, so a tile whose origin is at another
phase (3-row tiles over y / 2, 5-column tiles over x / 3) computes a box grown back to that phase, all of one
shape, and the host keeps its own part (passes: the whole flow, on both simulators). Refused before: tiles an odd
distance apart over an upsample read through a boundary condition ran at the wrong phase (fuzz seed 125548), and
tiles whose origins differ modulo the divisor read footprints of different shapes."""

from dataclasses import replace

import pytest

import mainspring as hl


def _through_a_boundary(kind: str, width: int, height: int, tile: tuple[int, int]):
    """f0, a 2x upsample of the input, read by hw_output through a boundary condition `kind` (clamped indices,
    or a BoundaryConditions Func), in host tiles of `tile` over width x height."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.Int(16), 2, "input")
    hw_input, f0, hw_output, output = (hl.Func(n) for n in ("hw_input", "f0", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    f0[x, y] = (hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]) >> 1
    if kind == "clamp":
        hw_output[x, y] = (f0[hl.clamp(x - 1, 0, width - 1), hl.clamp(y - 1, 0, height - 1)] % hl.i16(7)
                           + f0[x, hl.clamp(y + 1, 0, height - 1)])
    else:
        e = getattr(hl.BoundaryConditions, kind)(f0, [(0, width), (0, height)])
        hw_output[x, y] = e[x - 1, y - 1] % hl.i16(7) + e[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
    f0.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


def _upsampled(width: int, tile: int):
    """hw_output a 3x upsample along x (x / 3, and y / 2) of the input, in host tiles of `tile` x 6."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = input_[x, y]
    hw_output[x, y] = hw_input[x / 3, y / 2] + hw_input[x / 3 + 1, y / 2]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tile, 6).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


def _at_one_phase(design, steps: tuple[int, int]) -> list[tuple[int, int]]:
    """Each tile's hw_output box origin, after checking that the boxes have one shape, start a whole number of
    `steps` from the first tile's, and hold the part of the output the host keeps."""
    tiles = design.program.tiles
    first = tiles[0].boxes["hw_output"]
    for t in tiles:
        box = t.boxes["hw_output"]
        assert [hi - lo for lo, hi in box] == [hi - lo for lo, hi in first], (box, first)
        assert all((lo - lo0) % s == 0 for (lo, _), (lo0, _), s in zip(box, first, steps))
        assert all(lo <= klo and khi <= hi for (lo, hi), (klo, khi) in zip(box, t.output_box))
    return [tuple(lo for lo, _ in t.boxes["hw_output"]) for t in tiles]


def _check(design, simulator, build_dir, seed=5):
    res = design.check(design.example_inputs(seed), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    return res


@pytest.mark.parametrize(("kind", "height", "tile_h", "simulator"), [
    ("clamp", 6, 3, "icarus"), ("clamp", 6, 3, "verilator"), ("clamp", 6, 1, "icarus"), ("clamp", 7, 5, "icarus"),
    ("repeat_edge", 9, 3, "icarus"), ("mirror_image", 6, 3, "icarus"), ("mirror_image", 6, 3, "verilator"),
], indirect=["simulator"])
def test_tiles_an_odd_distance_apart_over_an_upsample_read_through_a_boundary(kind, height, tile_h, simulator,
                                                                             build_dir, compile_shared):
    """3-row tiles over f0 stepping y by 2, read through a boundary condition (so not linked to the output by
    affine reads): the tile keeping rows 3..5 computes from row 2, the first tile's phase, and every tile
    computes one more row than its own; fuzz seed 125548 ran the second tile at the wrong phase."""
    design = compile_shared(_through_a_boundary(kind, 4, height, (2, tile_h)), name=f"phase_{kind}_{height}_{tile_h}")
    origins = _at_one_phase(design, (2, 2))
    if (height, tile_h) == (6, 3):
        assert origins == [(0, 0), (2, 0), (0, 2), (2, 2)]
        assert [t.output_box[1] for t in design.program.tiles] == [(0, 2), (0, 2), (3, 5), (3, 5)]
    _check(design, simulator, build_dir)


@pytest.mark.parametrize(("width", "tile", "simulator"), [
    (15, 5, "icarus"), (15, 5, "verilator"), (13, 5, "icarus"), (10, 4, "icarus"), (15, 7, "icarus"),
], indirect=["simulator"])
def test_tiles_not_a_multiple_of_the_divisor(width, tile, simulator, build_dir, compile_shared):
    """Tiles of 5 over x / 3 start at x = 0, 5 and 10 (phases 0, 2 and 1): each computes from the step that
    holds its first column, 9 columns (3 steps) from x = 0, 3 and 9, and the host keeps its 5."""
    design = compile_shared(_upsampled(width, tile), name=f"phase_x3_{width}_{tile}")
    origins = _at_one_phase(design, (3, 2))
    if (width, tile) == (15, 5):
        assert [o[0] for o in origins] == [0, 3, 9]
        # 7 columns from the step holding the first: 3 whole steps
        assert [t.loop_box[0] for t in design.program.tiles] == [(0, 6), (3, 9), (9, 15)]
        assert [t.demands["hw_output"][0] for t in design.program.tiles] == [(0, 8), (3, 11), (9, 17)]
        assert [t.output_box[0] for t in design.program.tiles] == [(0, 4), (5, 9), (10, 14)]
    _check(design, simulator, build_dir)


def test_a_tile_the_host_does_not_run_fails_the_check(build_dir):
    """The check fails where no tile wrote a word the host reads (it used to hold the reference's value): the
    design without its last tile."""
    from mainspring.sim import require_simulator

    require_simulator("icarus")
    design = hl.compile(_upsampled(15, 5), name="phase_dropped_tile")
    design.program = replace(design.program, tiles=design.program.tiles[:-1])
    with pytest.raises(hl.MismatchError) as err:
        design.check(design.example_inputs(5), simulator="icarus", build_dir=build_dir)
    assert err.value.count == 5 * 6  # the last tile's columns 10..14
