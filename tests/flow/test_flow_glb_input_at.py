"""Seed 002's GLB level with the accelerator input computed inside the GLB tile, as users write the schedule
(`hw_input.compute_at(hw_output.in_(), xo).accelerator_input()`, or stored in the GLB there itself, or its copy
computed at the GLB tile loop without store_in): the host computes the input wherever its schedule says, so each
builds the design of seed 002's listing (hwlower/glb_input_at.py; internal refusals before session 38)."""

import pytest

import mainspring as hl

from conftest import SIMULATORS

GLB = hl.MemoryType.GLB


def _three_levels(variant: str):
    """A 3x3-window sum, 16x16 in GLB tiles of 8x8 and memory tiles of 4x8, with the accelerator input and its
    GLB copy placed as `variant` says ("seed" and "seed_no_copy": seed 002's listing, with and without the copy)."""
    x, y, xo, yo, xi, yi, xio, yio, xii, yii = (hl.Var(n) for n in "x y xo yo xi yi xio yio xii yii".split())
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    blur[x, y] = sum((hw_input[x + i, y + j] * (i + j + 1) for i in range(3) for j in range(3)), hl.u16(0))
    hw_output[x, y] = blur[x, y] >> 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 16).bound(y, 0, 16)
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo).store_in(GLB)
    hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 4, 8)
    blur.compute_at(hw_output, xio)
    copy = variant in ("seed", "input_at_glb_tile", "input_at_host_row", "input_inside_the_tile",
                       "copy_not_stored_in_glb")
    if copy:
        hw_input.in_().in_().compute_at(hw_output, xio)
        hw_input.in_().compute_at(g, xo)
        if variant != "copy_not_stored_in_glb":
            hw_input.in_().store_in(GLB)
    at = {"input_at_glb_tile": xo, "input_at_glb_tile_no_copy": xo, "input_stored_at_glb_tile": xo,
          "input_at_host_row": yo, "input_inside_the_tile": xi}.get(variant)
    if at is None:
        hw_input.compute_root()
    else:
        hw_input.compute_at(g, at)
    if variant == "input_stored_at_glb_tile":
        hw_input.store_in(GLB)
    hw_input.accelerator_input()
    return output


# each variant and the listing that builds the same design
CASES = {
    "input_at_glb_tile": "seed",
    "input_at_host_row": "seed",
    "input_inside_the_tile": "seed",
    "copy_not_stored_in_glb": "seed",
    "input_at_glb_tile_no_copy": "seed_no_copy",
    "input_stored_at_glb_tile": "seed_no_copy",
}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_accelerator_input_computed_inside_the_glb_tile_builds_seed_002s_design(case, simulator, build_dir,
                                                                                      compile_shared):
    """The same Verilog and memory JSON as seed 002's listing, bit-exact on both simulators at the predicted
    cycles (4 GLB tiles of 2 memory tiles each)."""
    design = compile_shared(_three_levels(case), name="glb_input_at")
    listing = compile_shared(_three_levels(CASES[case]), name="glb_input_at")
    assert design.verilog == listing.verilog
    files, want = design.files(), listing.files()
    assert files["glb_input_at.memory.json"] == want["glb_input_at.memory.json"]
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    r = design.report
    assert res.cycles == r["predicted_cycles"] and r["tiles"] == 4 and r["mem_tiles_per_glb_tile"] == 2


def _glb_input_level_alone(input_at_tile: bool):
    """A GLB input copy with no GLB output level (hwlower/glb_input_level.py), 16x8 in accelerator tiles of 8x4,
    the accelerator input computed at the root or at the accelerator's tile loop."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 16).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    hw_input.in_().compute_at(hw_output, xo).store_in(GLB)
    (hw_input.compute_at(hw_output, xo) if input_at_tile else hw_input.compute_root()).accelerator_input()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_accelerator_input_at_the_tile_loop_of_a_glb_input_level_alone(simulator, build_dir, compile_shared):
    """hw_input.compute_at(hw_output, xo) beside its GLB copy at xo, with no GLB output level: the rewrite that
    copies the output through the GLB moves the input to the GLB copy's loop xo too (Halide's check refused the
    rewritten pipeline before session 38), and the design is the one computing hw_input at the root."""
    design = compile_shared(_glb_input_level_alone(True), name="glb_input_alone")
    assert design.verilog == compile_shared(_glb_input_level_alone(False), name="glb_input_alone").verilog
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"] and design.report["tiles"] == 4
