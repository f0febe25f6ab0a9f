"""Boundary conditions inside the accelerator: a clamped read of an accelerator input (`clamp(x - 1, 0, W - 1)`,
`BoundaryConditions.repeat_edge`, `constant_exterior`) streams the input widened by its halo, the edge words
repeated by the host, and reads it at the unclamped, affine index. Bit-exact on both simulators at every edge."""

import inspect
import os

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import accelerate

SIMULATORS = ("icarus", "verilator")


def _here() -> str:
    f = inspect.currentframe().f_back
    return f"{os.path.relpath(f.f_code.co_filename)}:{f.f_lineno}"


def _blur(kind: str, width: int = 10, height: int = 6, tile: tuple[int, int] | None = None):
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur, hw_output = hl.Func("hw_input"), hl.Func("blur"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(input_[x, y])
    if kind == "clamp":
        left, right = hl.clamp(x - 1, 0, width - 1), hl.clamp(x + 1, 0, width - 1)
        blur[x, y] = hw_input[left, y] + 2 * hw_input[x, y] + hw_input[right, y]
    else:
        bounds = [(0, width), (0, height)]
        bc = (hl.BoundaryConditions.repeat_edge(hw_input, bounds) if kind == "repeat_edge" else
              hl.BoundaryConditions.constant_exterior(hw_input, 7, bounds))
        blur[x, y] = bc[x - 1, y - 1] + bc[x, y] * 2 + bc[x + 1, y + 1]
    hw_output[x, y] = blur[x, y]
    accelerate(hw_output, hw_output, *(tile or (width, height)), [blur], hw_input)
    hw_output.bound(x, 0, width).bound(y, 0, height)
    image = np.random.default_rng(len(kind)).integers(0, 256, (height, width), dtype=np.uint8)
    return hw_output, {"input": image}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("kind", ["clamp", "repeat_edge", "constant_exterior"])
def test_boundary_conditions_inside_the_accelerator(kind, simulator, build_dir):
    out, inputs = _blur(kind)
    design = hl.compile(out, name=f"edges_{kind}")
    (stream,) = design.program.inputs
    assert stream.edges == ({0: (0, 9)} if kind == "clamp" else {0: (0, 9), 1: (0, 5)})
    assert design.program.nest.buffer("hw_input").box[0] == (-1, 12)  # one column of halo each side
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


def test_repeat_edge_with_host_tiles(build_dir):
    # Each tile's stream repeats the image's edges where the tile touches them, and is plain pixels elsewhere.
    out, inputs = _blur("repeat_edge", width=12, height=6, tile=(6, 6))
    design = hl.compile(out, name="edges_tiles")
    assert len(design.program.tiles) == 2
    design.check(inputs, simulator="icarus", build_dir=build_dir)


def test_reads_clamped_to_different_bounds_are_refused():
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur, hw_output = hl.Func("hw_input"), hl.Func("blur"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(input_[x, y])
    blur[x, y] = hw_input[hl.clamp(x - 1, 0, 9), y] + hw_input[hl.clamp(x + 1, 1, 9), y]; where = _here()  # noqa: E702 - the line the message names
    hw_output[x, y] = blur[x, y]
    accelerate(hw_output, hw_output, 10, 4, [blur], hw_input)
    with pytest.raises(hl.HalideError) as err:
        hl.compile(hw_output, name="edges_mixed")
    assert str(err.value) == (
        f"{where}: Func 'hw_input' is read inside the accelerator clamped to [0, 9] and to [1, 9] in its "
        "dimension x: its stream repeats the edges of one range; clamp every read of it to the same bounds")


def test_an_unclamped_read_past_the_clamp_is_refused():
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, blur, hw_output = hl.Func("hw_input"), hl.Func("blur"), hl.Func("hw_output")
    hw_input[x, y] = hl.u16(input_[x, y])
    blur[x, y] = hw_input[hl.clamp(x - 1, 0, 9), y] + hw_input[x + 1, y]; where = _here()  # noqa: E702 - the line the message names
    hw_output[x, y] = blur[x, y]
    accelerate(hw_output, hw_output, 10, 4, [blur], hw_input)
    with pytest.raises(hl.HalideError) as err:
        hl.compile(hw_output, name="edges_unclamped")
    assert str(err.value) == (
        f"{where}: Func 'hw_input' is read at (x + 1) in its dimension x, which reaches [1, 10], while other reads "
        "clamp it to [0, 9]: inside the accelerator its stream repeats the edges outside that range; clamp this "
        "read too (clamp((x + 1), 0, 9))")
