"""GLB streams wider than a bank port, and GLB tiles that lanes do not divide (found by the independent ports
of the generators: the generators' schedule 3 streams 9 words per transfer, and an odd `mywidth` with 2 lanes)."""

import pytest

import mainspring as hl
from mainspring.apps import gaussian_glb


def _check(design, inputs, simulator, build_dir):
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.tile_cycles is not None and res.tile_cycles == design.report["predicted_tile_cycles"]
    return res


def test_more_lanes_than_a_glb_bank_moves_spread_over_banks(build_dir):
    """Transfers wider than a bank port (2 words per cycle, banks of 1) take banks side by side, each holding
    its lanes of every entry, as the reference's big-parrot schedules need (9 words per transfer)."""
    out, inputs = gaussian_glb.build(124, 124, glb_tile=(62, 62), lanes=2)
    narrow = hl.compile(out, name="glb", target=hl.CGRA(glb_lanes=1))
    wide = hl.compile(out, name="glb", target=hl.CGRA(glb_lanes=2))
    assert narrow.report["glb"]["banks_used"] == 2 * wide.report["glb"]["banks_used"]
    res = _check(narrow, inputs, "icarus", build_dir)
    assert res.cycles == narrow.report["predicted_cycles"]


@pytest.mark.parametrize("round_tiles", [False, True])
def test_an_odd_glb_tile_with_two_lanes(round_tiles, build_dir):
    # GLB tiles of 13 over a 26-wide output at 2 pixels per cycle (RoundUp lanes past each tile): the read-back
    # runs over the tile, not its padding (an assertion with RoundUp host tiles before; a refusal without).
    up = hl.TailStrategy.RoundUp
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(inp[x, y])
    hw_output[x, y] = hw_input[x, y] * 2
    output[x, y] = hl.u8(hw_output[x, y])
    output.bound(x, 0, 26).bound(y, 0, 4)
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, 13, 4, *([up] if round_tiles else [])).hw_accelerate(xi, xo)
    g.unroll(xi, 2, up).store_in(hl.MemoryType.GLB)
    hw_output.compute_at(g, xo).unroll(x, 2, up)
    hw_input.in_().compute_at(g, xo).unroll(x, 2, up).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    design = hl.compile(output, name="glb_odd")
    res = design.check(design.example_inputs(1), simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize(("simulator", "copy_lanes", "lanes"),
                         [("icarus", 2, 1), ("verilator", 2, 1), ("icarus", 4, 2), ("icarus", 2, 4),
                          ("icarus", 1, 2)], indirect=["simulator"])
def test_a_glb_output_copy_unrolled_unlike_the_array(copy_lanes, lanes, simulator, build_dir, compile_shared):
    # hw_output.in_().unroll(xi, 2) over an array output of 1 lane (the rate the reference's output_rate asks of
    # the GLB level alone): the host read back every other word, and the GLB's own check stopped the compile
    # ("host read-back order"). The host now walks the copy's unrolled loop too, a transfer of the array's lanes.
    up = hl.TailStrategy.RoundUp
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1]
    hw_output[x, y] = blur[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 16).bound(y, 0, 16)
    g = hw_output.in_()
    g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo).store_in(hl.MemoryType.GLB)
    if copy_lanes > 1:
        g.unroll(xi, copy_lanes, up)
    hw_output.compute_at(g, xo)
    if lanes > 1:
        hw_output.unroll(x, lanes, up)
    blur.compute_at(g, xo)
    hw_input.in_().compute_at(g, xo).store_in(hl.MemoryType.GLB)
    hw_input.compute_root().accelerator_input()
    design = compile_shared(output, name=f"glb_copy_{copy_lanes}_{lanes}")
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
