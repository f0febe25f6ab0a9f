"""An image made without a name (`hl.Buffer(table)`, `hl.ImageParam(t, 2)`) takes it from a counter over the
process, so a second copy of the same program built in one process names it otherwise (`b3` for `b0`). Its Funcs
in the hardware (a wrapper streamed in, `b0_im_global_wrapper`; a table read in the accelerator, `b0_table`,
`b0_uint8_table`) are named by the image's place in the pipeline instead (hwlower/image_names.py): the two copies'
Verilog and memory JSON are byte-identical, and the second simulates bit-exact."""

from __future__ import annotations

import re

import numpy as np
import pytest

import mainspring as hl

COUNTER = r"(?<![A-Za-z0-9'])[bp]\d+(?=_)"  # an unnamed image's name starting a Verilog name (not 1'b0)


def _program(kind: str) -> hl.Func:
    """A 6x4 pipeline of an unnamed ImageParam and an unnamed 16-entry table read at the pixel's top 4 bits: read
    in the accelerator (`table`), cast from float there (`cast`), or its wrapper streamed in (`stream`)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in "x y xo yo xi yi".split())
    inp = hl.ImageParam(hl.UInt(8), 2)
    data = np.arange(16, dtype=np.float32) * 1.5 if kind == "cast" else np.arange(16, dtype=np.uint8)[::-1].copy()
    table = hl.Buffer(data)
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    entry = table[hl.i32(hw_input[x, y] >> 4)]
    hw_output[x, y] = (hl.u8(entry) if kind == "cast" else entry) + hw_input[x + 1, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 6).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    if kind == "stream":
        table.image_param().in_().compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize(("kind", "names"), [("table", {"b1_table"}), ("cast", {"b1_uint8_table"}),
                                             ("stream", {"b1_im_global_wrapper"})])
def test_a_program_built_twice_in_one_process_gives_the_same_verilog_and_memories(kind, names, build_dir):
    first = hl.compile(_program(kind), name="images")
    hl.Buffer(np.zeros(4, dtype=np.uint8))  # (the counter moves on, as other programs would take it)
    second = hl.compile(_program(kind), name="images")
    assert second.verilog == first.verilog
    assert second.memory_text == first.memory_text
    assert {n for n in names if n in first.verilog} == names  # the table or wrapper named by place (b1 after p0)
    assert {m[0] for m in re.finditer(COUNTER, first.verilog)} <= {"p0", "b1"}
    if kind == "stream":
        second.check(second.example_inputs(), simulator="icarus", build_dir=build_dir)


def test_a_func_named_like_a_place_name_keeps_the_counter_names():
    """A user's Func whose name the renaming would give another (`b0_im_global_wrapper`) keeps every name as it
    was: no two Funcs share a name."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in "x y xo yo xi yi".split())
    hl.Buffer(np.zeros(4, dtype=np.uint8))  # (this program's table is not the counter's b0)
    table = hl.Buffer(np.arange(16, dtype=np.uint8))
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, clash = hl.Func("hw_input"), hl.Func("b0_im_global_wrapper")
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    clash[x, y] = hw_input[x, y] + 1
    hw_output[x, y] = table[hl.i32(clash[x, y] >> 4)] + clash[x, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 6).bound(y, 0, 4)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    clash.compute_at(hw_output, xo)
    table.image_param().in_().compute_root().stream_to_accelerator()
    design = hl.compile(output, name="images")
    assert f"{table.name()}_im_global_wrapper_data" in design.verilog
    assert "b0_im_global_wrapper" in design.verilog
