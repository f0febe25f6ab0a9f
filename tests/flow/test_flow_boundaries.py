"""Boundary conditions inside the accelerator (the `edges` pass): a read of an accelerator input at a clamped or
mirrored index (`clamp(x - 1, 0, W - 1)`, `BoundaryConditions.repeat_edge`, `constant_exterior`, `mirror_image`,
`mirror_interior`) streams the input extended over the reads' halo, the host writing at each coordinate the
value the boundary condition reads there, and the accelerator reads it at the affine index. Reads of one input
whose extensions agree where they meet share one stream; others get a second stream of the input. A Func
computed inside from the input point for point (a copy) extends too, and so does a GLB input tile (one per class
of reads that agree). A boundary condition on a Func computed inside from neighbouring values chooses among
affine taps by coordinate (hwlower/edge_taps.py).

Every program is bit-exact on both simulators at every edge, against the reference, which is checked here to be
Halide 21's (the `halide` package) on the same algorithm. The refusals are in the error catalogue
(tests/errors/errors_tiles.py)."""


import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import accelerate
from mainspring.apps.lanes import unroll_lanes

from conftest import SIMULATORS

BC = ("clamp", "repeat_edge", "constant_exterior", "mirror_image", "mirror_interior")
SHARED = ("different_clamps", "past_the_clamp")  # reads that agree where they meet: one stream
SPLIT = ("conflicting_clamps", "beside_the_clamp", "mirror_and_repeat")  # reads that do not: two streams
COPIES = ("copy_inside", "copy_inside_twice")
INNER = tuple(f"inner_{k}" for k in BC)  # on a Func computed inside from neighbouring values: edge taps


def _pairs(cases: tuple[str, ...], on_both: str) -> list[tuple[str, str]]:
    """Each case on Icarus, and `on_both` on Verilator too (a Verilator build is the slow part)."""
    return [(c, "icarus") for c in cases] + [(on_both, "verilator")]


def _algorithm(m, case: str, width: int, height: int):
    """The Funcs of a case in module m (`mainspring` or `halide`), unscheduled: (input, hw_input, inner Funcs,
    hw_output, output)."""
    x, y = m.Var("x"), m.Var("y")
    input_ = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, blur, hw_output, output = m.Func("hw_input"), m.Func("blur"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = m.u16(input_[x, y])
    bounds = [(0, width), (0, height)]
    last = width - 1
    inner = [blur]
    bc = m.BoundaryConditions
    if case == "clamp":
        value = hw_input[m.clamp(x - 2, 0, last), y] + hw_input[x, y] * 2 + hw_input[m.clamp(x + 1, 0, last), y]
    elif case in ("repeat_edge", "mirror_image", "mirror_interior", "repeat_image"):
        e = getattr(bc, case)(hw_input, bounds)
        value = e[x - 2, y + 1] + e[x, y] * 2 + e[x + 1, y - 2]
    elif case == "constant_exterior":
        e = bc.constant_exterior(hw_input, 7, bounds)
        value = e[x - 2, y + 1] + e[x, y] * 2 + e[x + 1, y - 2]
    elif case == "different_clamps":  # [0, W-1] and [1, W-2]: both the identity where both reach
        value = hw_input[m.clamp(x - 1, 0, last), y] + hw_input[m.clamp(x + 1, 1, last - 1), y] * 3
    elif case == "past_the_clamp":  # x + 1 reads the input at W, which the clamp never reaches
        value = hw_input[m.clamp(x - 1, 0, last), y] + hw_input[x + 1, y] * 3
    elif case == "conflicting_clamps":  # at x = 0 one reads column 0, the other column 1
        value = hw_input[m.clamp(x, 0, last), y] + hw_input[m.clamp(x, 1, last - 1), y] * 3
    elif case == "beside_the_clamp":  # at x = W - 1 one reads column W - 1, the other column W
        value = hw_input[m.clamp(x + 1, 0, last), y] + hw_input[x + 1, y] * 3
    elif case == "mirror_and_repeat":
        mirrored, repeated = bc.mirror_interior(hw_input, bounds), bc.repeat_edge(hw_input, bounds)
        value = mirrored[x - 2, y + 1] + repeated[x - 2, y - 1] * 3 + hw_input[x, y] * 5
    elif case in COPIES:  # a Func computed inside from the input point for point, read clamped and mirrored
        gray = m.Func("gray")
        gray[x, y] = hw_input[x, y] * 3 + 1
        inner = [gray, blur]
        repeated = bc.repeat_edge(gray, bounds)
        value = repeated[x - 2, y + 1] + hw_input[m.clamp(x + 1, 0, last), y]
        if case == "copy_inside_twice":
            value = value + bc.mirror_interior(gray, bounds)[x - 2, y] * 5
    elif case in INNER:  # a stencil computed inside, read through the boundary condition
        grad = m.Func("grad")
        grad[x, y] = hw_input[x + 1, y] * 2 + hw_input[x, y + 1]
        inner = [grad, blur]
        kind = case[len("inner_"):]
        if kind == "clamp":
            value = grad[m.clamp(x - 2, 0, last), y] + grad[x, y] * 2 + grad[m.clamp(x + 1, 0, last), y]
        else:
            e = (bc.constant_exterior(grad, 7, bounds) if kind == "constant_exterior"
                 else getattr(bc, kind)(grad, bounds))
            value = e[x - 2, y + 1] + e[x, y] * 2 + e[x + 1, y - 2]
    else:
        raise AssertionError(case)
    blur[x, y] = value
    hw_output[x, y] = blur[x, y]
    output[x, y] = hw_output[x, y]
    return input_, hw_input, inner, hw_output, output


def _image(case: str, width: int, height: int) -> np.ndarray:
    wide = width + (2 if case in ("past_the_clamp", "beside_the_clamp") else 0)  # the unclamped x + 1
    tall = height + (case in INNER)  # grad reads x + 1 and y + 1 of the input
    return np.random.default_rng(len(case) + width).integers(0, 256, (tall, wide + (case in INNER)),
                                                                dtype=np.uint8)


def _single_level(case: str, width: int = 10, height: int = 6, tile: tuple[int, int] | None = None,
                  lanes: int = 1):
    _, hw_input, inner, hw_output, output = _algorithm(hl, case, width, height)
    if tile is None:
        accelerate(output, hw_output, width, height, inner, hw_input)
    else:  # accelerate() bounds the output to its one tile: the frame is bounded here once, as Halide takes bounds
        x, y = hl.Var("x"), hl.Var("y")
        xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
        output.bound(x, 0, width).bound(y, 0, height)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
        for f in inner:
            f.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    unroll_lanes(lanes, hw_output, inner, hw_input)
    return output, {"input": _image(case, width + 2 * lanes, height)}


def _three_level(case: str, width: int = 16, height: int = 12, glb=(8, 12), mem=(4, 6)):
    """Seed 002's schedule: GLB tiles of the output, memory tiles inside, the input's GLB tile and its copy."""
    _, hw_input, inner, hw_output, output = _algorithm(hl, case, width, height)
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    xii, yii, xio, yio = hl.Var("xii"), hl.Var("yii"), hl.Var("xio"), hl.Var("yio")
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.in_().compute_root()
    hw_output.in_().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo)
    hw_output.in_().store_in(hl.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem)
    hw_output.compute_at(hw_output.in_(), xo)
    for f in inner:
        f.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)  # the memory tile
    hw_input.in_().compute_at(hw_output.in_(), xo)
    hw_input.in_().store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    return output, {"input": _image(case, width, height)}


def _check(design, inputs, simulator, build_dir):
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    return res


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("kind", [*BC, "repeat_image"])
def test_boundary_conditions_inside_the_accelerator(kind, simulator, build_dir, compile_shared):
    out, inputs = _single_level(kind)
    design = compile_shared(out, name=f"edges_{kind}")
    (stream,) = design.program.inputs
    assert design.program.nest.buffer("hw_input").box[0] == (-2, 13)  # two columns of halo before, one after
    x_edges = stream.edges[0]
    assert x_edges[0] == -2 and x_edges[1][:2] + x_edges[1][-1:] == {
        "clamp": (0, 0, 9), "repeat_edge": (0, 0, 9), "constant_exterior": (0, 0, 9),
        "mirror_image": (1, 0, 9), "mirror_interior": (2, 1, 8), "repeat_image": (8, 9, 0)}[kind]
    assert set(stream.edges) == ({0} if kind == "clamp" else {0, 1})
    res = _check(design, inputs, simulator, build_dir)
    assert res.cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


@pytest.mark.parametrize(("case", "simulator"), _pairs(SHARED, "past_the_clamp"), indirect=["simulator"])
def test_reads_that_agree_where_they_meet_share_one_stream(case, simulator, build_dir, compile_shared):
    out, inputs = _single_level(case)
    design = compile_shared(out, name=f"edges_{case}")
    (stream,) = design.program.inputs
    assert stream.edges == {0: (-1, (0, 0, 1, 2, 3, 4, 5, 6, 7, 8) + ((8, 8) if case == "different_clamps"
                                                                     else (9, 10)))}
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("case", "simulator"), _pairs(SPLIT, "mirror_and_repeat"), indirect=["simulator"])
def test_reads_that_disagree_stream_the_input_twice(case, simulator, build_dir, compile_shared):
    out, inputs = _single_level(case)
    design = compile_shared(out, name=f"edges_{case}")
    first, second = design.program.inputs
    assert (first.buffer, second.buffer) == ("hw_input", "hw_input_ext1")
    assert first.source == second.source == "hw_input" and (first.port, second.port) == ("hw_input", "hw_input_ext1")
    assert first.edges != second.edges
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("case", "simulator"), _pairs(("mirror_interior", "mirror_and_repeat"), "mirror_and_repeat"),
                         indirect=["simulator"])
def test_extended_streams_with_host_tiles(case, simulator, build_dir, compile_shared):
    # Three tiles of 6 columns: the first and the last reach past the image, the middle one does not; every
    # tile's stream has the same shape (its edge words mirrored or repeated where it touches the image's edge).
    out, inputs = _single_level(case, width=18, tile=(6, 6))
    design = compile_shared(out, name=f"edges_tiles_{case}")
    assert len(design.program.tiles) == 3
    for s in design.program.inputs:
        assert [t.boxes[s.buffer][0][0] for t in design.program.tiles] == [-2, 4, 10]
        assert len({t.boxes[s.buffer][0][1] - t.boxes[s.buffer][0][0] for t in design.program.tiles}) == 1
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize(("case", "simulator"), _pairs(COPIES, "copy_inside_twice"), indirect=["simulator"])
def test_a_copy_inside_extends_with_its_input(case, simulator, build_dir, compile_shared):
    out, inputs = _single_level(case)
    design = compile_shared(out, name=f"edges_{case}")
    streams = [s.buffer for s in design.program.inputs]
    buffers = [b.name for b in design.program.nest.buffers]
    if case == "copy_inside":
        assert streams == ["hw_input"] and "gray_ext1" not in buffers
    else:  # the mirrored read of gray needs a second gray, computed from a second stream of the input
        assert streams == ["hw_input", "hw_input_ext1"] and "gray_ext1" in buffers
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_mirrored_glb_input(simulator, build_dir, compile_shared):
    # Two GLB tiles of two memory tiles each: the host writes each GLB input tile extended, and every memory
    # tile's copy reads its part of it.
    out, inputs = _three_level("mirror_interior")
    design = compile_shared(out, name="edges_glb")
    (stream,) = design.program.inputs
    assert (stream.buffer, stream.source, stream.port) == ("hw_input_global_wrapper", "hw_input", "hw_input")
    assert [t.boxes[stream.buffer] for t in design.program.tiles] == [[(-2, 8), (-2, 12)], [(6, 16), (-2, 12)]]
    assert design.report["tiles"] == 2 and design.report["mem_tiles_per_glb_tile"] == 4
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_glb_input_read_through_boundary_conditions_that_disagree(simulator, build_dir, compile_shared):
    # A mirrored and a repeated read of the memory-tile copy: the GLB holds two input tiles, each extended for
    # one of them, both written by the host from the input (ports hw_input and hw_input_ext1).
    out, inputs = _three_level("mirror_and_repeat")
    design = compile_shared(out, name="edges_glb_two")
    first, second = design.program.inputs
    assert (first.buffer, second.buffer) == ("hw_input_global_wrapper", "hw_input_global_wrapper_ext1")
    assert (first.source, second.source) == ("hw_input", "hw_input") and (first.port, second.port) == (
        "hw_input", "hw_input_ext1")
    assert first.edges != second.edges and len(design.report["glb"]["buffers"]) == 3
    _check(design, inputs, simulator, build_dir)


@pytest.mark.parametrize("kind", ["repeat_edge", "mirror_image"])
def test_lanes_with_extended_streams(kind, build_dir):
    out, inputs = _single_level(kind, width=9, height=5, lanes=2)
    design = hl.compile(out, name=f"edges_lanes_{kind}")
    (stream,) = design.program.inputs
    assert stream.lanes == 2 and design.program.nest.buffer("hw_input").box[0] == (-2, 14)  # RoundUp: 14 words
    _check(design, inputs, "icarus", build_dir)


@pytest.mark.parametrize(("case", "simulator"), _pairs(INNER, "inner_mirror_interior"), indirect=["simulator"])
def test_boundary_conditions_on_a_func_computed_inside(case, simulator, build_dir, compile_shared):
    # grad is computed inside from neighbouring values; its edges are taps chosen by coordinate
    # (hwlower/edge_taps.py): the input's stream is not extended, grad's box stays the image's.
    out, inputs = _single_level(case)
    design = compile_shared(out, name=f"edges_{case}")
    (stream,) = design.program.inputs
    assert not stream.edges and design.program.nest.buffer("grad").box == ((0, 10), (0, 6))
    res = _check(design, inputs, simulator, build_dir)
    assert res.cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


def test_boundary_conditions_on_a_func_computed_inside_with_lanes(build_dir):
    out, inputs = _single_level("inner_repeat_edge", width=10, height=5, lanes=2)
    design = hl.compile(out, name="edges_inner_lanes")
    _check(design, inputs, "icarus", build_dir)


def _clamped_copy(width: int, lanes: int, shift: int):
    """gray, a copy of hw_input computed inside, read at clamp(x + shift, 0, W - 1) by blur, all at `lanes`."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, gray, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "gray", "blur", "hw_output",
                                                                     "output"))
    hw_input[x, y] = hl.i16(input_[x, y])
    gray[x, y] = hw_input[x, y] * hl.i16(6)
    blur[x, y] = gray[hl.clamp(x + shift, 0, width - 1), y] + hl.i16(1)
    hw_output[x, y] = blur[x, y]
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    output.bound(x, 0, width).bound(y, 0, 2)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, 2).hw_accelerate(xi, xo).unroll(xi, lanes)
    for f in (gray, blur):
        f.compute_at(hw_output, xo).unroll(x, lanes)  # the Auto tail: ShiftInwards, guarded (shift_tails.py)
    hw_input.compute_root().stream_to_accelerator().unroll(x, lanes)
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("width", "lanes", "shift"), [(2, 2, -1), (3, 3, 1), (2, 3, -1)])
def test_a_clamped_copy_extends_at_lanes_as_wide_as_the_frame(width, lanes, shift, simulator, build_dir,
                                                              compile_shared):
    # fuzz 151126: the copy's extension alone fills the box its lanes round up to; its loads were guarded to
    # Halide's box from before the extension, so the lanes past it read nothing (wrong output)
    design = compile_shared(_clamped_copy(width, lanes, shift), name="edges_clamped_copy")
    _check(design, design.example_inputs(width), simulator, build_dir)


# ---- the reference is Halide's -------------------------------------------------------------------------------

@pytest.mark.parametrize("case", BC + SHARED + SPLIT + COPIES + INNER)
def test_the_reference_is_halides(case, halide):
    """The reference the simulations are checked against computes what Halide 21 computes, at every edge."""
    width, height = 10, 6
    image = _image(case, width, height)

    def realize(m):
        input_, *_, output = _algorithm(m, case, width, height)
        input_.set(m.Buffer(image))
        return np.asarray(output.realize([width, height]))

    want, got = realize(halide), realize(hl)
    assert got.dtype == want.dtype and np.array_equal(got, want)
