"""Issue 8 (helper tails41, session 41): a GLB input copy split by a factor that does not divide its extent with
Halide's default tail (`hw_input.in_().unroll(x, 2)` over 9 columns a memory tile), as Halide accepts it. Its loop
rounds up as the ShiftInwards tails of the Funcs inside the accelerator do (hwlower/shift_tails.py): the GLB tile
holds the extra column, which the host loads from the image where it has one and pads with zeros past it, no
reader keeps what it feeds, and the host's input is what Halide asks for (33 x 33 for a 32 x 32 output; the
RoundUp fix the message suggested asked for 34 x 33). Refused before with "tail strategy Auto is not supported"
(catalogue split_does_not_divide, hand_split_does_not_divide). Likewise an input streamed twice for a boundary
condition (fuzz 170488), and a split of the GLB array output that does not divide its memory tile (catalogue
glb_array_split_does_not_divide as it was: memory tiles of whole steps, hwlower/memory_tile_steps.py).

Each program is also built with the `halide` package and the host's part of the same schedule: its realize reads
the design's inputs (so Halide accepts the schedule over that input) and its outputs are the design's."""

import pytest
from oracle import check_simulated_and_halide

import mainspring as hl

from conftest import SIMULATORS

pytestmark = pytest.mark.xdist_group("tails41")


def _glb(m, w: int, h: int, tails: str, split: bool = False, copy: bool = True, lanes=("x", 2), mem=(8, 8),
         stored: bool = True):
    """Seed 002's three levels (catalogue glb_levels) over input -> hw_input -> mid (two taps along x) ->
    hw_output (two along y) -> output, w x h: GLB tiles of 16 x 16, memory tiles of `mem`. `tails`: the tail
    strategy of the GLB copy's, the memory-tile copy's and mid's `unroll(x, 2)` (A: Auto, S: ShiftInwards, G:
    GuardWithIf, R: RoundUp, -: not unrolled); the GLB copy is unrolled along `lanes` (a dimension, a factor),
    with `split` as split(x, x, xl, 2).unroll(xl); `copy`: the memory-tile copy hw_input.in_().in_(); `stored`:
    the GLB copy stored in the GLB (else a GLB input tile as the level makes it, with no memory type)."""
    strategies = {"A": m.TailStrategy.Auto, "S": m.TailStrategy.ShiftInwards, "G": m.TailStrategy.GuardWithIf,
                  "R": m.TailStrategy.RoundUp}
    x, y, xo, yo, xi, yi, xio, yio, xii, yii, xl = (m.Var(n) for n in "x y xo yo xi yi xio yio xii yii xl".split())
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = m.Func("hw_input"), m.Func("mid"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 3
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, w).bound(y, 0, h)
    out = hw_output.in_()
    out.compute_root().tile(x, y, xo, yo, xi, yi, 16, 16)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem).compute_at(out, xo).unroll(xii, 2)
    mid.compute_at(hw_output, xio)
    if copy:
        hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(out, xo)
    hw_input.compute_root()
    if m is hl:
        out.hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
        if stored:
            hw_input.in_().store_in(hl.MemoryType.GLB)
        hw_input.accelerator_input()
    dim, k = {"x": x, "y": y}[lanes[0]], lanes[1]
    glb_tail, copy_tail, mid_tail = (strategies.get(t) for t in tails)
    if split:
        hw_input.in_().split(dim, dim, xl, k, glb_tail).unroll(xl)
    elif glb_tail is not None:
        hw_input.in_().unroll(dim, k, glb_tail)
    if copy and copy_tail is not None:
        hw_input.in_().in_().unroll(x, 2, copy_tail)
    if mid_tail is not None:
        mid.unroll(x, 2, mid_tail)
    return output, {"input": inp}, [w, h]


def _input_box(design) -> list[tuple[int, int]]:
    b = design.example_inputs(1)["input"]
    return [(b.dim(i).min(), b.dim(i).extent()) for i in range(b.dimensions())]


def _halide_input_box(halide, make) -> list[tuple[int, int]]:
    """The input box Halide's bounds inference asks of the program's host schedule."""
    out, images, size = make(halide)
    out.infer_input_bounds(size)
    b = images["input"].get()
    return [(b.dim(i).min(), b.dim(i).extent()) for i in range(b.dimensions())]


def _check(design, make, simulator, build_dir, halide, input_box):
    assert _input_box(design) == input_box == _halide_input_box(halide, make)
    check_simulated_and_halide(design, make, simulator, build_dir, halide)


def _pins(design, cycles: int, ideal: int, glb_words: int, words: int):
    """Cycles, the GLB input tile's words and the array's buffer words (as the RoundUp fix's design where it
    builds the same GLB tiles)."""
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == (cycles, ideal), rep
    glb = {b["name"]: b["tile_words"] for b in rep["glb"]["buffers"]}
    assert glb["hw_input_global_wrapper"] == glb_words, rep["glb"]
    assert sum(b["words"] for b in rep["buffers"]) == words, rep["buffers"]


@pytest.mark.parametrize("split", [False, True], ids=["unroll", "split"])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_glb_input_copy_unrolled_with_halides_default_tail(split, simulator, compile_shared, build_dir, halide):
    """Catalogue split_does_not_divide (`hw_input.in_().unroll(x, 2)`) and hand_split_does_not_divide
    (`split(x, x, xl, 2).unroll(xl)`): the GLB copy's, the memory-tile copy's and mid's default tails over 9
    columns a memory tile round up to 10, the GLB input tile 18 x 17 (what the RoundUp fix builds too), the
    input 33 x 33 as Halide asks."""
    make = lambda m: _glb(m, 32, 32, "AAA", split)  # noqa: E731
    design = compile_shared(make(hl)[0], name=f"tails41_glb_{'split' if split else 'unroll'}")
    _pins(design, 772, 720, 306, 18)
    _check(design, make, simulator, build_dir, halide, [(0, 33), (0, 33)])


@pytest.mark.parametrize(("size", "tails", "copy", "lanes", "pins"), [
    (30, "AAA", True, ("x", 2), (772, 720, 306, 18)),  # GLB tiles at 0 and 14 (the last shifted inward)
    (31, "SSS", True, ("x", 2), (772, 720, 306, 18)),
    (32, "GGG", True, ("x", 2), (772, 720, 306, 18)),
    (32, "A--", True, ("x", 2), (1476, 1296, 306, 17)),  # the memory-tile copy one word of x a firing, in turn
    (32, "AAA", False, ("x", 2), (772, 720, 306, 16)),  # mid reads the GLB copy itself
    (32, "A--", True, ("x", 4), (1732, 1296, 340, 21)),  # 4 words a GLB entry over 9 columns: 12, GLB tile 20
    (32, "AAA", True, ("y", 2), (882, 720, 306, 36)),  # 2 rows a transfer over 9 rows: 10
])
def test_other_tails_sizes_and_readers_of_a_glb_copy_that_does_not_divide(size, tails, copy, lanes, pins, build_dir,
                                                                           halide):
    """The figures are those of the message's fix (RoundUp on the GLB copy alone), but for the input box."""
    make = lambda m: _glb(m, size, size, tails, copy=copy, lanes=lanes)  # noqa: E731
    name = f"tails41_{size}_{tails.replace('-', '_')}_{copy:d}_{lanes[0]}{lanes[1]}"
    design = hl.compile(make(hl)[0], name=name)
    _pins(design, *pins)
    _check(design, make, "icarus", build_dir, halide, [(0, size + 1), (0, size + 1)])


def test_a_glb_input_copy_with_no_memory_type(build_dir, halide):
    """The GLB copy computed at the GLB tile loop with no store_in (hwlower/glb_input_at.py): the same design.
    (Where the accelerator input streams more words a transfer than such a copy takes, its box stays as it was:
    frontend/stream_turns.py cannot tell it from a Func inside the accelerator.)"""
    make = lambda m: _glb(m, 32, 32, "AAA", stored=False)  # noqa: E731
    design = hl.compile(make(hl)[0], name="tails41_glb_unstored")
    _pins(design, 772, 720, 306, 18)
    _check(design, make, "icarus", build_dir, halide, [(0, 33), (0, 33)])


def test_the_roundup_fix_builds_the_same_design_on_a_larger_input(halide):
    """What the message suggested (RoundUp on every copy): the same GLB tiles and cycles, but the host's input one
    column wider than Halide asks (its last GLB tile reads column 33; Halide's reads hw_input's allocation there,
    which it never computed)."""
    auto, up = (hl.compile(_glb(hl, 32, 32, t)[0], name=f"tails41_{t}") for t in ("AAA", "RRR"))
    assert up.report["predicted_cycles"] == auto.report["predicted_cycles"]
    assert up.report["glb"] == auto.report["glb"]
    assert _input_box(up) == [(0, 34), (0, 33)]
    assert _input_box(auto) == [(0, 33), (0, 33)] == _halide_input_box(halide, lambda m: _glb(m, 32, 32, "RRR"))


def _mirrored(m, w: int, h: int):
    """Fuzz 170488's shape: hw_input (2 words of x a transfer, Halide's default tail) read through a mirrored Func
    and directly, so the edges pass streams it twice (hw_input and hw_input_ext1, hwlower/edges.py); the copy's
    tail over an odd count of columns did not round up as hw_input's does ("tail strategy Auto is not
    supported")."""
    x, y, xo, yo, xi, yi = (m.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = m.ImageParam(m.Int(16), 2, "input")
    hw_input, f0, f1, hw_output, output = (m.Func(n) for n in ("hw_input", "f0", "f1", "hw_output", "output"))
    hw_input[x, y] = m.u32(inp[x, y])
    f0[x, y] = hw_input[x + 1, y + 2] + 1
    f0_e = m.BoundaryConditions.mirror_image(f0, [(0, w), (0, h)])
    f1[x, y] = m.max(f0_e[x, y + 1] + f0_e[x + 1, y], hw_input[x + 1, y + 1])
    hw_output[x, y] = f1[x, y] + f1[x + 1, y] * 3
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, w).bound(y, 0, h)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, w, h).unroll(xi, 2)
    hw_input.compute_root().unroll(x, 2)
    if m is hl:
        hw_output.hw_accelerate(xi, xo)
        hw_input.stream_to_accelerator()
    return output, {"input": inp}, [w, h]


@pytest.mark.parametrize(("size", "cycles", "input_box"), [
    ((2, 1), 16, [(1, 3), (1, 2)]),
    ((8, 8), 57, [(1, 9), (1, 9)]),
    ((7, 5), 42, [(1, 8), (1, 6)]),
])
def test_an_input_streamed_twice_for_a_boundary_condition_with_the_default_tail(size, cycles, input_box, build_dir,
                                                                                halide):
    make = lambda m: _mirrored(m, *size)  # noqa: E731
    design = hl.compile(make(hl)[0], name=f"tails41_mirrored_{size[0]}x{size[1]}")
    assert design.report["predicted_cycles"] == cycles, design.report
    boxes = {b.name: b.box for b in design.program.nest.buffers}
    assert boxes["hw_input_ext1"][0][1] % 2 == 0, boxes  # whole transfers of 2 words
    _check(design, make, "icarus", build_dir, halide, input_box)


def _array_split(m, w: int, var: str, k: int, tail: str, mem=(8, 8), copies: str = ""):
    """Seed 002's three levels (catalogue glb_levels) over the pipeline of `_glb`, w x w, the array output's
    memory-tile loop `var` (xii or yii) split by k (0: not split) with tail strategy `tail`; the GLB copy and the
    memory-tile copy unrolled by 2 along `copies` (x or y; RoundUp), or nothing unrolled."""
    x, y, xo, yo, xi, yi, xio, yio, xii, yii, v = (m.Var(n) for n in "x y xo yo xi yi xio yio xii yii v".split())
    inp = m.ImageParam(m.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = m.Func("hw_input"), m.Func("mid"), m.Func("hw_output"), m.Func("output")
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, w).bound(y, 0, w)
    out = hw_output.in_()
    out.compute_root().tile(x, y, xo, yo, xi, yi, 16, 16)
    hw_output.tile(x, y, xio, yio, xii, yii, *mem).compute_at(out, xo)
    mid.compute_at(hw_output, xio)
    hw_input.in_().in_().compute_at(hw_output, xio)
    hw_input.in_().compute_at(out, xo)
    hw_input.compute_root()
    if m is hl:
        out.hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
        hw_input.in_().store_in(hl.MemoryType.GLB)
        hw_input.accelerator_input()
    split = {"xii": xii, "yii": yii}[var]
    if k:
        hw_output.split(split, split, v, k, getattr(m.TailStrategy, tail))
    if copies:
        for f in (hw_input.in_(), hw_input.in_().in_()):
            f.unroll({"x": x, "y": y}[copies], 2, m.TailStrategy.RoundUp)
    return output, {"input": inp}, [w, w]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_glb_array_output_split_by_a_factor_that_does_not_divide_its_memory_tile(simulator, compile_shared,
                                                                                    build_dir, halide):
    """Catalogue glb_array_split_does_not_divide as it was (memory tiles of 8 x 8, `split(xii, xii, xv, 3,
    RoundUp)`): Halide's memory tiles overlap (the second computes column 8 again); here they are 9 columns wide
    side by side (hwlower/memory_tile_steps.py), the GLB output tile 18 x 16 of which the host reads back its
    16 x 16, the input 33 x 33 as Halide asks."""
    make = lambda m: _array_split(m, 32, "xii", 3, "RoundUp")  # noqa: E731
    design = compile_shared(make(hl)[0], name="tails41_array_split")
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"], rep["mem_tiles_per_glb_tile"]) == (1476, 1440, 4), rep
    assert [b["tile_words"] for b in rep["glb"]["buffers"]] == [323, 288], rep["glb"]
    assert sum(b["words"] for b in rep["buffers"]) == 14, rep["buffers"]
    _check(design, make, simulator, build_dir, halide, [(0, 33), (0, 33)])


@pytest.mark.parametrize(("var", "k", "tail", "mem", "pins"), [
    ("xii", 3, "Auto", (8, 8), (1476, 1440, 4, [323, 288])),  # Halide shifts the last step inward
    ("yii", 3, "ShiftInwards", (8, 8), (1476, 1440, 4, [323, 288])),  # the GLB output tile 16 x 18
    ("xii", 5, "GuardWithIf", (14, 8), (2340, 2304, 4, [527, 480])),  # memory tiles of 15, the GLB tile 30 wide
])
def test_other_tails_and_splits_inside_a_glb_memory_tile(var, k, tail, mem, pins, build_dir, halide):
    make = lambda m: _array_split(m, 32, var, k, tail, mem)  # noqa: E731
    design = hl.compile(make(hl)[0], name=f"tails41_array_{var}_{k}_{tail}")
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"], rep["mem_tiles_per_glb_tile"]) == pins[:3], rep
    assert [b["tile_words"] for b in rep["glb"]["buffers"]] == pins[3], rep["glb"]
    _check(design, make, "icarus", build_dir, halide, [(0, 33), (0, 33)])


def _glb_lanes_of(m, dim: str, mem):
    """Catalogue glb_input_lanes_in_odd_memory_tiles (`dim` x: memory tiles 5 columns wide) and
    glb_rows_in_odd_memory_tiles (y: 5 rows) as they were: `_array_split`'s levels unsplit, the GLB copy and the
    memory-tile copy 2 words of `dim` a transfer (RoundUp), the array output one."""
    return _array_split(m, 32, "xii", 0, "RoundUp", mem, copies=dim)


@pytest.mark.parametrize(("dim", "mem", "pins"), [
    ("x", (5, 8), (1756, 1728, [340, 288], 13)),  # memory tiles of 6 columns, as the message's fix
    ("y", (8, 5), (1725, 1728, [340, 288], 23)),  # memory tiles of 6 rows
])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_memory_tiles_round_up_to_whole_entries_of_a_glb_input(dim, mem, pins, simulator, compile_shared, build_dir,
                                                               halide):
    """A GLB input of 2 words of x (or 2 rows) a GLB entry read by memory tiles 5 columns (rows) apart, which would
    start inside entries (memories/glb_input_lanes.py, glb_rows.py): the memory tiles round up to 6 (hwlower/
    memory_tile_steps.py), the design of the message's fix. The input is one column (row) wider than Halide asks,
    as for every RoundUp GLB copy (test_the_roundup_fix_builds_the_same_design_on_a_larger_input)."""
    make = lambda m: _glb_lanes_of(m, dim, mem)  # noqa: E731
    design = compile_shared(make(hl)[0], name=f"tails41_entries_{dim}")
    rep = design.report
    assert (rep["predicted_cycles"], rep["ideal_cycles"]) == pins[:2], rep
    assert [b["tile_words"] for b in rep["glb"]["buffers"]] == pins[2], rep["glb"]
    assert sum(b["words"] for b in rep["buffers"]) == pins[3], rep["buffers"]
    assert _input_box(design) == ([(0, 34), (0, 33)] if dim == "x" else [(0, 33), (0, 34)])
    check_simulated_and_halide(design, make, simulator, build_dir, halide)
