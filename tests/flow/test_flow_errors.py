"""User errors of the hardware flow, each with its message pinned (passes: compile, simulate)."""

import numpy as np
import pytest

import mainspring as hl
from mainspring import apps
from mainspring.apps.common import accelerate, random_image


def _gaussian():
    mod = apps.load("gaussian")
    return mod.build(*mod.DEFAULT_SIZE)


def test_design_that_does_not_fit_the_target():
    out, _ = apps.load("harris").build(58, 58)
    with pytest.raises(hl.HalideError) as err:
        hl.compile(out, name="harris", target=hl.CGRA(num_mem_tiles=4))
    assert str(err.value).split(": ", 1)[1] == (
        "design 'harris' needs 6 memory tiles but the target has 4: reduce unrolling or buffering, or compile "
        "for a larger target, e.g. hl.CGRA(num_mem_tiles=6)"
    )


def test_a_design_far_over_the_memory_tiles_is_refused_before_its_capacities_are_counted(monkeypatch):
    # memories/capacity_bound.py: mobile keeps a frame (its reduction's sums over channel planes; before session 24
    # pw_conv's products), which at 1920x1080 took barvinok 20 minutes to count; a bound at a flow's first read
    # (its second sweep's: a plane of sums of its 3 output channels) refuses at once.
    import importlib

    analyze = importlib.import_module("mainspring.memories.analyze")
    mod = apps.load("h2h_conv_layer_mobile")
    out, _ = mod.build(34, 34)
    exact = hl.compile(out, name="mobile", prove=False).report["mem_tiles"]

    def uncounted(*args):
        raise AssertionError("the exact capacities were counted")

    monkeypatch.setattr(analyze, "buffer_capacity", uncounted)
    with pytest.raises(hl.HalideError) as err:
        hl.compile(out, name="mobile", target=hl.CGRA(num_mem_tiles=1))
    at_least = int(str(err.value).split("needs at least ")[1].split()[0])
    assert 1 < at_least <= exact  # a bound: never over the real figure (3 of 4 here)
    assert str(err.value).split(": ", 1)[1] == (
        f"design 'mobile' needs at least {at_least} memory tiles but the target has 1 ('pw_conv_reduction' alone "
        f"holds at least {3 * 34 * 34} values at once): reduce unrolling or buffering, or compile for a larger "
        "target, e.g. "
        f"hl.CGRA(num_mem_tiles={at_least}) or more"
    )


def test_too_many_pes():
    out, _ = apps.load("harris").build(58, 58)
    with pytest.raises(hl.HalideError, match=r"design 'harris' needs \d+ PEs but the target has 100"):
        hl.compile(out, name="harris", target=hl.CGRA(num_pes=100))


def test_bad_target_value():
    with pytest.raises(hl.HalideError,
                       match=r"test_flow_errors.py:\d+: CGRA\(num_pes=0\): expected an integer of at least 1"):
        hl.CGRA(num_pes=0)


def test_input_too_small_names_the_region(tmp_path):
    out, inputs = _gaussian()
    design = hl.compile(out, name="gaussian")
    small = {"input": inputs["input"][:40, :40]}
    with pytest.raises(hl.HalideError) as err:
        design.simulate(small, simulator="icarus", build_dir=tmp_path)
    msg = str(err.value)
    assert msg.startswith("Input buffer input is accessed at 63, which is beyond the max (39) in dimension 0.")
    assert "hw_input needs input over [0, 63] x [0, 63], but the buffer given covers [0, 39] x [0, 39]" in msg


def test_input_of_the_wrong_type(tmp_path):
    out, inputs = _gaussian()
    design = hl.compile(out, name="gaussian")
    with pytest.raises(hl.HalideError, match=r"Input input has type uint16 but ImageParam input has type uint8"):
        design.simulate({"input": inputs["input"].astype(np.uint16)}, simulator="icarus", build_dir=tmp_path)


def test_bad_probability(tmp_path):
    out, inputs = _gaussian()
    design = hl.compile(out, name="gaussian")
    with pytest.raises(hl.HalideError, match=r"simulate\(bubbles=1.5\): a probability in \[0, 1\) is needed"):
        design.simulate(inputs, simulator="icarus", bubbles=1.5, build_dir=tmp_path)


def test_unknown_dump_step():
    out, _ = _gaussian()
    with pytest.raises(hl.HalideError, match=r"--dump-after fold \(dump_after=\): unknown step; the steps are "
                                             r"region, inline_reads, periodic, gathers, indices, divided, ram_copies, "
                                             r"lookups, bounds, tiles, tables, "
                                             r"inline, "
                                             r"scatter, edges, ops, streams, lanes, reorder, order, scans, "
                                             r"lane_constants, shared_coords, lower, "
                                             r"lower_kernel, fold_constants, .*, "
                                             r"assign_stages, "
                                             r"compute, dependences, rates, capacities, mapping, schedule, verilog"):
        hl.compile(out, name="g", dump_after="fold")


def test_a_param_read_only_on_the_host_is_no_configuration_input(build_dir):
    # The host applies `offset` after the accelerator: the design has no port for it, and the bench sets none.
    from mainspring.sim import require_simulator

    require_simulator("icarus")
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    offset = hl.Param(hl.UInt(16), "offset", 5)
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = hl.u16(i[x, y])
    hw_output[x, y] = hw_input[x, y] * 2
    output[x, y] = hw_output[x, y] + offset
    accelerate(output, hw_output, 8, 4, [], hw_input)
    design = hl.compile(output, name="host_param")
    assert design.program.scalars == () and "offset" not in design.verilog
    design.check({"input": random_image(8, 4, seed=2), "offset": 9}, simulator="icarus", build_dir=build_dir)


def test_params_become_configuration_registers(build_dir):
    from mainspring.sim import require_simulator

    require_simulator("icarus")
    x, y = hl.Var("x"), hl.Var("y")
    i = hl.ImageParam(hl.UInt(8), 2, "input")
    gain = hl.Param(hl.UInt(16), "gain", 3)
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(i[x, y])
    d = hl.Func("d")
    d[x, y] = hw_input[x, y] * gain + hw_input[x + 1, y] / gain  # a divider by a run-time value
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = d[x, y]
    accelerate(hw_output, hw_output, 16, 8, [d], hw_input)
    design = hl.compile(hw_output, name="pgain")
    assert "input [15:0] gain" in design.verilog and design.program.scalars == ("gain",)
    img = random_image(17, 8, seed=1)
    for value in (3, 7, 0):
        design.check({"input": img, "gain": value}, simulator="icarus", build_dir=build_dir)
