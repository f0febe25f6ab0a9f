"""Hand schedules written as the acceptance tests would write them: each probe's programs module (NAME_programs.py
beside this file) holds a CASES dict {case: program}, a program being a function of module m (`mainspring`, or
`halide`, which gets no hardware schedule) returning (output or [outputs], {name: ImageParam}, size). Every case is
bit-exact on Icarus (a share on Verilator too: tests/flow/simulator_share.py), its cycles as predicted, and its
reference equal to Halide 21's. Test ids read `probe13-u8_saturating-icarus`.

Adding a probe is one line: write NAME_programs.py with its CASES dict and add "NAME" to PROBES (its ICARUS_ONLY
cases, large designs, are simulated on Icarus alone). Its own tests go
below the shared one, taking the design from `_design("NAME", case)` under `_with("NAME", case)` so that they run
on the worker that compiled it.

Findings and figures: each test's docstring below, and BENCHMARKS.md "Helper probe12, session 28", "Helper
probe13, session 29", "Helper probe14a, session 30", "Helper probe14b, session 30", "Helper probe16, session 32"
and "Helper probe17, session 33".
Probe12 found: update().unroll of a Func defined by hl.argmax suggested a fix (f.unroll) that did not schedule the
RDom (catalogue case argmax_update_unroll); an input unrolled along rows suggested only unrolling it along x, which
then needs every consumer unrolled along x (the message then also said to remove the unroll, which compiles:
rows_two_per_cycle; since session 36 the rows stream side by side); a histogram's unrolled RVar was refused naming
the compiler's unroll of the bins instead of the user's call, and crashed in memories/ where the factor did not
divide the RVar (refused in session 28, compiled since session 29). Probe13 found: a host tile loop split again
(`split(xo, xoo, xoi, 2)`, hw_accelerate at xoi) was refused though Halide accepts it (now its parts step over the
loop's tiles: split_of_split_host_apart); a Func computed inside the loop its readers are computed at
(`blur_x.compute_at(hw_output, xi)` with blur_y at xo) compiled though Halide refuses it, and the "Legal locations"
of every compute_at refusal listed such loops (now refused as Halide does, with its list)."""

import functools
import importlib

import numpy as np
import pytest
from hand_probes import bit_exact
from oracle import halide_outputs
from porting import BUILD, params
from simulator_share import on_verilator

import mainspring as hl

PROBES = ("probe12", "probe13", "probe14a", "probe14b", "probe16", "probe16b", "probe16c", "probe16d", "probe16e",
          "gaps17", "probe17", "probe17b", "probe17c", "probe17d", "probe17e", "probe17f", "probe17g", "autorate17h")

MODULES = {probe: importlib.import_module(f"{probe}_programs") for probe in PROBES}
CASES = {f"{probe}-{case}": (probe, case) for probe, module in MODULES.items() for case in module.CASES}
# a module's ICARUS_ONLY cases (large designs) are simulated on Icarus alone
ICARUS_ONLY = {f"{probe}-{case}" for probe, module in MODULES.items() for case in getattr(module, "ICARUS_ONLY", ())}
# of the rest, a share runs on Verilator too (tests/flow/simulator_share.py)
ICARUS_ONLY |= {case for case in CASES if not on_verilator(case)}


@functools.cache
def _design(probe, case):
    return hl.compile(MODULES[probe].CASES[case](hl)[0], name=f"{probe}_{case}")


@functools.cache
def _inputs_and_halide(halide, probe, case):
    """The case's example inputs and Halide 21's outputs on them: Halide's JIT compile and realize once for both
    simulators' tests (they run on one worker, `params`)."""
    inputs = _design(probe, case).example_inputs(1)
    out, images, size = MODULES[probe].CASES[case](halide)
    return inputs, tuple(halide_outputs(halide, out, images, inputs, size))


def _with(probe, case):
    """The mark that runs a test on the xdist worker that compiles `case` for the shared test."""
    return pytest.mark.xdist_group(f"{probe}-{case}")


@pytest.mark.parametrize(("case", "simulator"), params(CASES, icarus_only=ICARUS_ONLY))
def test_a_hand_schedule_is_bit_exact_and_its_reference_is_halide(case, simulator, halide):
    probe, name = CASES[case]
    design = _design(probe, name)
    inputs, want = _inputs_and_halide(halide, probe, name)
    bit_exact(design, inputs, want, simulator)


# probe12 (session 28)

progs12 = MODULES["probe12"]


def test_a_glb_level_without_the_inputs_glb_copy_compiles(halide):
    """Refused until session 36 ("a GLB output buffer but no input is stored in the GLB"); since glb22 the input
    with no GLB copy is its own GLB input tile, as Halide-to-Hardware accepts it: bit-exact on Icarus and equal to
    Halide."""
    out, images, size = progs12.glb_memory_tiles_not_dividing(halide, fixed=False)
    design = hl.compile(progs12.glb_memory_tiles_not_dividing(hl, fixed=False)[0], name="probe12_glb_unfixed")
    inputs = design.example_inputs(1)
    bit_exact(design, inputs, halide_outputs(halide, out, images, inputs, size), "icarus")


def test_an_input_unrolled_along_rows_streams_two_rows_per_transfer(halide):
    """Refused until session 36 (rows22): the input unrolled along y too now streams rows 2t and 2t + 1 per
    transfer, every stage two rows a cycle (tests/flow/test_rows22.py): bit-exact on Icarus and equal to Halide."""
    out, images, size = progs12.rows_two_per_cycle(halide, stream_rows=True)
    design = hl.compile(progs12.rows_two_per_cycle(hl, stream_rows=True)[0], name="probe12_rows_streamed")
    assert [(s.lanes, s.lane_dim) for s in design.program.inputs] == [(2, 1)]
    inputs = design.example_inputs(1)
    bit_exact(design, inputs, halide_outputs(halide, out, images, inputs, size), "icarus")


def test_an_unrolled_histogram_compiles_as_halide_accepts_it(halide):
    """Refused in session 28 (4 bins in registers: lanes of one cycle may add to one bin; 7 columns unrolled by 2:
    a step past them would still add to a bin). Since session 29 the 4 bins add each cycle's two steps as a tree,
    and the 8-bin RAM runs r.x serially (tests/flow/test_flow_histogram_unrolls.py): both bit-exact on Icarus and
    equal to Halide."""
    for kw in ({"w": 6, "lanes": 2, "bins": 4}, {"lanes": 2}):
        design = hl.compile(progs12.weighted_histogram(hl, **kw)[0], name=f"probe12_histogram_{kw.get('bins', 8)}")
        inputs = design.example_inputs(1)
        res = design.check(inputs, simulator="icarus", build_dir=BUILD)
        assert res.cycles == res.predicted_cycles
        out, images, size = progs12.weighted_histogram(halide, **kw)
        images["input"].set(halide.Buffer(np.ascontiguousarray(np.asarray(inputs["input"]))))
        assert np.array_equal(design.reference_output(inputs), np.asarray(out.realize(size)))


# probe13 (session 29)

progs13 = MODULES["probe13"]


@_with("probe13", "split_of_split_host_apart")
def test_a_split_host_loop_steps_over_each_tile_once():
    """The parts of the split host loop step over the 5 x 2 tiles of 6x4 once each (they were counted twice)."""
    assert _design("probe13", "split_of_split_host_apart").report["ideal_cycles"] == 5 * 2 * 8 * 6


def test_a_func_inside_its_readers_loop_is_refused_as_halide_and_the_fix_compiles():
    with pytest.raises(hl.HalideError, match=r"Func \"blur_x\" is computed at the following invalid location:\n"
                                             r"  blur_x\.compute_at\(hw_output, xi\);\n(.*\n)*  blur_x\.compute_at"
                                             r"\(hw_output, xo\);\n"
                                             r"  blur_x\.compute_at\(blur_y, Var::outermost\(\)\);\n"
                                             r"(.*\n)*'hw_output' uses 'blur_x' only outside its loop "
                                             r"'xi' .* compute it there: blur_x\.compute_at\(hw_output, xo\), or "
                                             r"compute blur_y inside it, e.g\. blur_y\.compute_at\(hw_output, xi\)\.$"):
        hl.compile(progs13.inner_of_its_readers(hl)[0], name="probe13_inner")
    hl.compile(progs13.inner_of_its_readers(hl, fixed=True)[0], name="probe13_inner_fixed")
    with pytest.raises(hl.HalideError, match=r"invalid location:\n  blur_x\.store_at\(hw_output, xo\)\.compute_at\("
                                             r"hw_output, xi\);\n"):
        hl.compile(progs13.inner_of_its_readers(hl, stored=True)[0], name="probe13_inner_stored")


# probe14a (session 30): Halide-to-Hardware generators written again from the C++ at other schedules and
# GeneratorParams. Findings: schedule calls written with Halide's keyword names (`tile(..., tail=...)`, tile over
# lists, `bound(var=...)`, `unroll(var=...)`, `RDom(region=...)`, `ImageParam(type=..., dimensions=...)`) raised
# TypeError; conv_layer_mobile's note that its channel unrolls run serially suggested `hw_input.unroll(c)`, which
# is refused for an input streamed x first (now: `hw_input.reorder(c, x, y).unroll(c)`).

progs14a = MODULES["probe14a"]


@_with("probe14a", "mobile_channels_per_transfer")
def test_the_serial_channel_lanes_note_gives_a_call_that_keeps_them():
    """Without the fix the depthwise update's unroll(c) runs serially, and the note names the call that streams
    the input's channels together; with it (simulated above) no unroll runs serially and the stage's firings
    are a quarter: 8 x 8 pixels x 4 serial input channels of the pointwise reduction, 256 cycles ideal."""
    serial = hl.compile(progs14a.mobile_channels_per_transfer(hl, lanes_fix=False)[0], name="probe14a_mobile_serial")
    note = next(n for n in serial.report["notes"] if n.startswith("dw_conv.update(0).unroll(c)"))
    assert note.endswith("make 'hw_input' compute c together (hw_input.reorder(c, x, y).unroll(c))")
    fixed = _design("probe14a", "mobile_channels_per_transfer")
    assert not fixed.report.get("notes") and fixed.report["ideal_cycles"] == 8 * 8 * 4
    assert fixed.report["predicted_cycles"] < serial.report["predicted_cycles"]


@_with("probe14a", "image_wrapper_channels")
def test_the_note_names_an_image_wrappers_dimensions_as_halides_implicit_variables():
    """An ImageParam's wrapper is defined over Halide's _0, _1, _2; the note spells them hl._0 ... (Halide's
    names), and its call, applied (image_wrapper_channels, simulated above), keeps the lanes."""
    serial = hl.compile(progs14a.image_wrapper_channels(hl, lanes_fix=False)[0], name="probe14a_wrapper_serial")
    assert serial.report["notes"][0].endswith("(input.in_().reorder(hl._2, hl._0, hl._1).unroll(hl._2))")
    fixed = _design("probe14a", "image_wrapper_channels")
    # the 10 x 8 input's transfers, a pixel's 3 channels each, against a channel each without the fix
    assert not fixed.report.get("notes") and fixed.report["ideal_cycles"] == 10 * 8
    assert serial.report["ideal_cycles"] == 3 * 10 * 8


# probe14b (session 30): seed 002's schedule space. Findings: a host loop unrolled by a factor
# (`hw_output.unroll(yo, 2)`, a split that keeps the name yo) never finished compiling (hwlower/tiling.py looped),
# a whole host loop unrolled (`unroll(yo)`) was refused as "not known at compile time" with a fix Halide refuses
# (bound on yo), and unrolling the store loop xo was refused; all three compile now, as Halide accepts them.


@pytest.mark.parametrize("case", [pytest.param(c, marks=_with("probe14b", c)) for c in (
    "host_yo_unrolled_by_2", "host_yo_unrolled_whole", "store_loop_unrolled")])
def test_an_unrolled_host_loop_runs_each_tile_once(case):
    """Unrolling a host loop changes no tile: the accelerator runs once per 8x4 output tile, as without it."""
    rows = MODULES["probe14b"].CASES[case](hl)[2][1]
    assert _design("probe14b", case).report["tiles"] == 2 * -(-rows // 4)


# probe16 (session 32): Funcs of no dimensions and upsamples over split and GLB-tiled loops. Findings: a Func of no
# dimensions (a frame sum `total[()]`) as the pipeline's output was refused for want of a bound on its internal
# dimension, and its reference and simulated outputs were 1-element arrays where Halide's realize([]) gives a 0-D
# one (so were a 0-D Tuple output and two 0-D outputs, whose packing had no bound); hw_accelerate(x, xo) on it
# now names its only loop level (catalogue accelerate_zero_d_at_loops). Probe16b
# (the h2h generators' schedules): down_sample's `max_pool.unroll(x, 2).unroll(y, 2)` then `max_pool.linebuffer()`
# was refused as an unroll of an inline Func (linebuffer() computes it at the store loop). Probe16c: an hl.Buffer of
# constant weights was named b<n> whatever its name (Halide's Buffer(array, name)), and a table Func copying it was
# taken for an image read inside the accelerator (refused); it is a table now, and a direct read of it inside
# compiles as that table (gaps17, session 33). Probe16e: a GLB level accelerated at the root loop (hw_accelerate(x,
# Var.outermost()), of a 2-D Func or one of no dimensions) crashed with ValueError in hwlower/ops.py; a bound on a
# pure Func inside several host tiles (`blur_x.bound(y, 0, 10)`) fixed its range in every tile, and the hardware,
# whose footprints shift with the tile, read the wrong rows (now each tile realises what it reads, the same values;
# on a Func updated at its own Vars it was an internal contract error).


@_with("probe16", "frame_sum")
def test_a_func_of_no_dimensions_is_one_element_computed_whole():
    """The frame sum's accelerator runs its 8 x 4 steps once, and the host's outputs are 0-D as in Halide."""
    design = _design("probe16", "frame_sum")
    assert design.report["tiles"] == 1 and design.report["ideal_cycles"] == 8 * 4
    assert design.reference_output(design.example_inputs(1)).shape == ()


# gaps17 (session 33): schedules Halide accepts that were refused. An hl.Buffer read directly inside the
# accelerator was refused with the fix of a table Func copying it (catalogue buffer_read_inside); the compiler adds
# that table itself now (hwlower/buffer_tables.py), and only a float one read at computed coordinates is refused
# (catalogue float_buffer_read_at_computed_coordinates). A GLB output 7 columns wide at 2 lanes was refused
# ("this transfer's innermost loop runs over 7 words"); the host now reads its whole rows (memories/glb.py).


@_with("gaps17", "weights_read_directly")
def test_a_buffer_read_directly_inside_is_the_design_of_its_table_func():
    """The direct read compiles to the very design of the user's table Func (its weights folded into the PEs)."""
    design = _design("gaps17", "weights_read_directly")
    fixed = hl.compile(MODULES["gaps17"].weights_read_directly(hl, table=True)[0], name="gaps17_weights_read_directly")
    assert design.verilog == fixed.verilog and design.memory_text == fixed.memory_text
    assert design.report["mem_tiles"] == 1 and design.report["rom_words"] == 0


@_with("gaps17", "lut_read_directly")
def test_a_buffer_read_at_a_computed_coordinate_is_a_rom():
    assert _design("gaps17", "lut_read_directly").report["rom_words"] == 256


# probe17 (session 33): apps not probed before (stereo SAD with argmin, FAST corners, Sobel with non-maximum
# suppression, a median by min/max networks, demosaics, gemm over two inputs, a Laplacian level, BoundaryConditions
# inside), schedule variations (tails, fuse, reorder_storage, store_at above compute_at, unroll of y, `.in_()`
# chains) and arithmetic (u32, i16, i8, divisions by loaded values). Finding: an accelerator tile tiled again
# (`tile(x, y, xo, yo, xi, yi, 8, 6).tile(xi, yi, xio, yio, xii, yii, 4, 3).hw_accelerate(xii, xio)`) was refused
# ("the host loop yio ... does not step over tiles of one dimension") though Halide accepts it; the host now runs
# the inner tiles where Halide's loops put them. Probe17g: an RDom over an image's size (`RDom(input)`,
# `RDom(0, input.width())`) was refused though `dim(i).set_bounds` fixed it (now constant, before or after the RDom,
# as Halide substitutes the constraints; without set_bounds the message names that fix: catalogue
# rdom_of_image_size), and `design.example_inputs` crashed (an array of 2^32 x 2^32) on an input read only
# through `BoundaryConditions.repeat_edge(input)` (the image's own size); it now gives an image as large as the
# output there.


@_with("probe17b", "accelerate_inner_tiles_not_dividing")
def test_a_tile_tiled_again_runs_the_inner_tiles_where_halides_loops_put_them():
    """14 x 6 in tiles of 8 x 6 (the last shifted inward to x = 6), each in tiles of 3 x 4 shifted inward too:
    columns from 0, 3, 5 and 6, 9, 11, rows from 0 and 2."""
    design = _design("probe17b", "accelerate_inner_tiles_not_dividing")
    assert design.report["tiles"] == 6 * 2
