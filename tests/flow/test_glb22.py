"""GLB-level schedules that were refused though Halide(-to-Hardware) accepts them (helper glb22, session 36; issue 8's
gaps): each compiles, is bit-exact on Icarus (some on Verilator too) at its predicted cycles, its reference equal to
Halide 21's realize of the same algorithm (the schedule applied only on mainspring), and its GLB storage and
cycles those of the schedule the refusal used to suggest. Passes: the whole compile driver and simulation."""

import functools

import numpy as np
import pytest
from oracle import halide_outputs

import mainspring as hl

from conftest import BUILD


def _vars(m, names: str):
    return [m.Var(n) for n in names.split()]


def _seed(m, inputs=("input",)):
    """input(s) -> hw_input(s) -> mid (two taps along x) -> hw_output (two taps along y) -> output, 16 bits."""
    x, y = m.Var("x"), m.Var("y")
    params = [m.ImageParam(m.UInt(16), 2, n) for n in inputs]
    hws = [m.Func("hw_" + n) for n in inputs]
    for p, h in zip(params, hws):
        h[x, y] = p[x, y]
    mid, hw_output, output = m.Func("mid"), m.Func("hw_output"), m.Func("output")
    mid[x, y] = sum((h[x, y] + h[x + 1, y] for h in hws[1:]), hws[0][x, y] + hws[0][x + 1, y])
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    return x, y, params, hws, mid, hw_output, output


def _glb_levels(m, x, y, hws, mid, hw_output, output, size, glb, tile, copied):
    """Seed 002's three levels: hw_output.in_() the GLB output tile `glb`, hw_output in memory tiles `tile`, mid
    and each input's memory-tile copy at xio; the inputs in `copied` have their GLB copy hw_input.in_()."""
    xo, yo, xi, yi, xio, yio, xii, yii = _vars(m, "xo yo xi yi xio yio xii yii")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, *glb).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
    hw_output.tile(x, y, xio, yio, xii, yii, *tile).compute_at(g, xo)
    mid.compute_at(hw_output, xio)
    for h in hws:
        h.in_().in_().compute_at(hw_output, xio)
        if h.name() in copied:
            h.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        h.compute_root().accelerator_input()


def glb_output_without_glb_input(m, copied=()):
    """Seed 002's GLB level (32x32 in GLB tiles of 16x16, memory tiles of 8x8) with no GLB copy of hw_input: the
    host loads hw_input itself into the GLB (catalogue case glb_output_without_glb_input, refused before)."""
    x, y, params, hws, mid, hw_output, output = _seed(m)
    if m is hl:
        _glb_levels(m, x, y, hws, mid, hw_output, output, (32, 32), (16, 16), (8, 8), copied)
    return output, {p.name(): p for p in params}, [32, 32]


def glb_with_glb_input(m):
    """The same with hw_input.in_() stored in the GLB (what the refusal suggested)."""
    return glb_output_without_glb_input(m, copied=("hw_input",))


def glb_one_of_two_inputs_copied(m):
    """Two inputs, a with its GLB copy, b loaded into the GLB as it is; GLB tiles 16x8, memory tiles 8x4."""
    x, y, params, hws, mid, hw_output, output = _seed(m, inputs=("a", "b"))
    if m is hl:
        _glb_levels(m, x, y, hws, mid, hw_output, output, (32, 16), (16, 8), (8, 4), ("hw_a",))
    return output, {p.name(): p for p in params}, [32, 16]


CASES = {f.__name__: f for f in (glb_output_without_glb_input, glb_with_glb_input, glb_one_of_two_inputs_copied)}
VERILATOR = ("glb_output_without_glb_input",)


@functools.cache
def _design(case: str):
    return hl.compile(CASES[case](hl)[0], name=f"glb22_{case}")


def _params():
    return [pytest.param(c, s, marks=pytest.mark.xdist_group(f"glb22-{c}"), id=f"{c}-{s}")
            for c in CASES for s in (("icarus", "verilator") if c in VERILATOR else ("icarus",))]


@pytest.mark.parametrize(("case", "simulator"), _params())
def test_bit_exact_at_the_predicted_cycles_and_the_reference_is_halide(case, simulator, halide):
    from mainspring.sim import require_simulator

    require_simulator(simulator)
    design = _design(case)
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    assert res.cycles == res.predicted_cycles
    out, images, size = CASES[case](halide)
    want = halide_outputs(halide, out, images, inputs, size)
    got = design.reference_outputs(inputs)
    assert all(g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want, strict=True))


@pytest.mark.xdist_group("glb22-glb_output_without_glb_input")
def test_an_input_without_a_glb_copy_is_its_own_glb_input_tile():
    """The host loads hw_input into the GLB as it would load its copy: the same tile words, double-buffered, the
    same transfers and cycles as with hw_input.in_() stored in the GLB."""
    implicit, explicit = _design("glb_output_without_glb_input"), _design("glb_with_glb_input")
    a, b = implicit.report, explicit.report
    for key in ("predicted_cycles", "ideal_cycles", "tile_cycles", "mem_tiles_per_glb_tile", "host_transfer_cycles",
                "pes", "mem_tiles"):
        assert a[key] == b[key], key
    assert [(g["role"], g["tile_words"], g["copies"]) for g in a["glb"]["buffers"]] == \
        [(g["role"], g["tile_words"], g["copies"]) for g in b["glb"]["buffers"]] == [("input", 17 * 17, 2),
                                                                                     ("output", 16 * 16, 2)]
    assert [g["name"] for g in a["glb"]["buffers"]] == ["hw_input", "hw_output_global_wrapper"]


def test_an_uncopied_input_beside_a_copied_one():
    design = _design("glb_one_of_two_inputs_copied")
    names = {g["name"]: (g["role"], g["tile_words"]) for g in design.report["glb"]["buffers"]}
    assert names == {"hw_a_global_wrapper": ("input", 17 * 9), "hw_b": ("input", 17 * 9),
                     "hw_output_global_wrapper": ("output", 16 * 8)}
