"""Reproductions from the correctness net (issue 9): host tiles, lanes across host tiles and RoundUp streams, on
both simulators; and the schedule mistakes that used to crash or pass silently, with their pinned messages."""

import inspect
import os

import numpy as np
import pytest

import mainspring as hl
from mainspring import apps
from mainspring.apps import gaussian
from mainspring.apps.common import random_image

SIMULATORS = ("icarus", "verilator")
R = hl.TailStrategy.RoundUp


def _here(back: int = 0) -> str:
    """file:line of the caller's line, or of the line `back` lines above it."""
    return f"{os.path.relpath(__file__)}:{inspect.currentframe().f_back.f_lineno - back}"


def _vars():
    return [hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi")]


def two_taps_across_rows():
    """Issue 9, bug 1: host tiles of 2x1 over a 3x1 output; the accelerator's last input word is read by no op."""
    x, y, xo, yo, xi, yi = _vars()
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hw_input[x, y + 1] + hw_input[x + 2, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 3).bound(y, 0, 1)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 2, 1).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_host_tiles_stream_every_input_word_of_a_tile(simulator, compile_shared, build_dir):
    design = compile_shared(two_taps_across_rows(), name="tiles_unread_word")
    # One invocation lasts until its last input word is taken, read or not: the next tile's words follow.
    assert design.report["tile_cycles"] == 8 and design.report["predicted_cycles"] == 15
    res = design.check({"input": np.arange(10, dtype=np.uint16).reshape(2, 5) * 10}, simulator=simulator,
                       build_dir=build_dir)
    assert res.output.tolist() == [[70, 90, 110]]
    assert res.cycles == res.predicted_cycles
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir, bubbles=0.3,
                       backpressure=0.3, seed=4)


def two_tap_lanes(width: int, tile: int, height: int, lanes: int):
    """Issue 9, bug 2: a 2-tap x stencil, host tiles along x, k lanes with RoundUp on the tile and the input."""
    x, y, xo, yo, xi, yi = _vars()
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    hw_output[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tile, height).hw_accelerate(xi, xo)
    hw_output.unroll(xi, lanes, R)
    hw_input.compute_root().stream_to_accelerator().unroll(x, lanes, R)
    return output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("width", "tile", "height", "lanes"),
                         [(6, 3, 1, 2), (6, 3, 2, 2), (5, 4, 2, 2), (10, 7, 2, 4)])
def test_host_tiles_with_lanes_pad_the_last_transfer(simulator, compile_shared, build_dir, width, tile, height, lanes):
    design = compile_shared(two_tap_lanes(width, tile, height, lanes), name="tiles_lanes")
    # The stream of a tile is rounded up to whole transfers; words past what the host computes are padding.
    res = design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    design.check(design.example_inputs(seed=1), simulator=simulator, build_dir=build_dir, bubbles=0.3,
                 backpressure=0.3, seed=1)


def gaussian_lanes(lanes: int, width: int):
    """Issue 9, bug 3: seed 002's gaussian with every stage and both streams unrolled by `lanes` (RoundUp)."""
    a = gaussian.algorithm()
    x, y, xo, yo, xi, yi = _vars()
    a.output.bound(x, 0, width).bound(y, 0, width)
    a.hw_output.compute_root().tile(x, y, xo, yo, xi, yi, width, width).hw_accelerate(xi, xo)
    a.blur_unnormalized.update().unroll(a.win.x).unroll(a.win.y).unroll(x, lanes, R)
    a.blur_unnormalized.unroll(x, lanes, R).compute_at(a.hw_output, xo)
    a.blur.unroll(x, lanes, R).compute_at(a.hw_output, xo)
    a.hw_output.unroll(xi, lanes, R)
    a.hw_input.compute_root().stream_to_accelerator().unroll(x, lanes, R)
    return a.output


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_gaussian_four_lanes_over_a_width_lanes_do_not_divide(simulator, compile_shared, build_dir):
    design = compile_shared(gaussian_lanes(4, 64), name="gaussian_l4")
    assert design.program.nest.buffer("hw_input").box[0] == (0, 68)  # 66 columns rounded up as Halide does
    rng = np.random.default_rng(3)
    image = rng.integers(0, 255, size=(66, 68), endpoint=True).astype(np.uint8)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles == design.report["ideal_cycles"] + 2 + 4  # 4: the sum's extra stages


# ---- mistakes that used to crash or pass silently ----------------------------------------------------------

def _two_stage():
    x, y, xo, yo, xi, yi = _vars()
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, hw_output, output = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_output"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    mid.compute_at(hw_output, xo)
    return {"x": x, "y": y, "xo": xo, "xi": xi, "inp": inp, "hw_input": hw_input, "mid": mid, "hw_output": hw_output,
            "output": output}


def _refusal(output) -> str:
    with pytest.raises(hl.HalideError) as err:
        hl.compile(output, name="e")
    return str(err.value)


def test_stream_to_accelerator_on_the_output_is_refused():
    p = _two_stage()
    p["hw_input"].compute_root().stream_to_accelerator()
    p["output"].stream_to_accelerator()
    at = _here(1)
    assert _refusal(p["output"]) == (
        f"{at}: Func 'output': stream_to_accelerator() marks a Func the host computes and streams into the "
        "accelerator, but 'output' is computed from the accelerator's output 'hw_output'; remove the call (the "
        "accelerator's output is streamed back by hw_accelerate), and stream the Func the accelerator reads "
        "instead (e.g. hw_input.compute_root().stream_to_accelerator())"
    )
    p = _two_stage()
    p["hw_input"].compute_root().stream_to_accelerator()
    hl.compile(p["output"], name="fixed")  # the fix works


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("compute", ["xo", "xi"])
def test_a_stream_stored_at_the_accelerator_loop(compute, simulator, compile_shared, build_dir):
    # The reference system's conv_layer_mobile: hw_input.stream_to_accelerator() with
    # hw_input.store_at(hw_output, xo).compute_at(hw_output, xo): the stream kept in a memory there; its CoreIR
    # branch computes the stream at xi. Either way the host streams it and memories buffer it.
    p = _two_stage()
    p["hw_input"].stream_to_accelerator()
    p["hw_input"].store_at(p["hw_output"], p["xo"]).compute_at(p["hw_output"], p[compute])
    design = compile_shared(p["output"], name="stream_stored_at_xo")
    design.check(design.example_inputs(), simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


def _host_side_extra(stream_extra: bool):
    """The accelerator's output plus a host Func `extra` of the input, optionally marked streamed."""
    p = _two_stage()
    x, y = p["x"], p["y"]
    p["hw_input"].compute_root().stream_to_accelerator()
    extra, final = hl.Func("extra"), hl.Func("final")
    extra[x, y] = p["inp"][x, y] * 2
    final[x, y] = p["output"][x, y] + extra[x, y]
    final.bound(x, 0, 8).bound(y, 0, 8)
    extra.compute_root()
    if stream_extra:
        extra.stream_to_accelerator()
    return final, _here(1)


def test_stream_to_accelerator_on_a_func_the_accelerator_does_not_read_is_refused():
    final, at = _host_side_extra(True)
    assert _refusal(final) == (
        f"{at}: Func 'extra' is streamed to the accelerator (stream_to_accelerator()) but no Func inside the "
        "accelerator (output 'hw_output') reads it; remove the call, or read 'extra' inside the accelerator"
    )
    hl.compile(_host_side_extra(False)[0], name="fixed")  # the fix works


@pytest.mark.parametrize(("func", "where"), [
    ("output", "on the host, outside the accelerator"),
    ("mid", "inside the accelerator (compute_at(hw_output, xo)), where buffers are memory tiles and registers"),
])
def test_store_in_glb_outside_the_glb_level_is_refused(func, where):
    p = _two_stage()
    p["hw_input"].compute_root().stream_to_accelerator()
    p[func].store_in(hl.MemoryType.GLB)
    at = _here(1)
    assert _refusal(p["output"]) == (
        f"{at}: Func '{func}': store_in(MemoryType.GLB): '{func}' is computed {where}; the GLB holds only the "
        "accelerator's tile copies (the hw_accelerate Func, e.g. hw_output.in_(), and copies of its inputs "
        "computed at its GLB tile loop, e.g. hw_input.in_()); remove the call"
    )


def test_split_into_two_loops_of_one_name_is_refused_at_the_call():
    p = _two_stage()
    xi = p["xi"]
    with pytest.raises(hl.HalideError) as err:
        p["hw_output"].split(xi, xi, xi, 4)
    assert str(err.value) == (
        f"{_here(2)}: In schedule for hw_output, can't split xi into xi and xi because the new Vars have the same "
        "name.\nVars: xi yi xo yo __outermost\n(in split(xi, xi, xi, 4); name the inner loop anew, e.g. "
        "split(xi, xi, xii, 4))"
    )
    p["hw_output"].split(xi, xi, hl.Var("xii"), 4)  # the fix works
    p["hw_input"].compute_root().stream_to_accelerator()
    hl.compile(p["output"], name="fixed")


# ---- the command line: a mistake is one line naming the argument, and status 2 -----------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["compile", "{none_app}", "-o", "{out}"],
     ("error: app none_app: build(8, 8) returned NoneType, not (output_func, {input_name: array}); end build() with "
      "e.g. return output, {\"input\": image}")),
    (["compile", "{missing}", "-o", "{out}"],
     "error: app file '{missing}' does not exist; give the path of a Python file with NAME, DEFAULT_SIZE and "
     "build(width, height), or one of the apps " + ", ".join(apps.APPS)),
    (["compile", "gaussian", "--size", "0", "0", "-o", "{out}"],
     "error: --size 0 0: an output size is two positive integers W H, e.g. --size 64 64"),
    (["sim", "gaussian", "--lanes", "0"],
     "error: --lanes 0: the pixels per cycle are a positive integer, e.g. --lanes 2"),
    (["bench", "gaussian", "--sizes", "abc"],
     ("error: --sizes abc: 'abc' is not an input size; give positive sizes as N or WxH, comma-separated, e.g. "
      "--sizes 64,256,1920x1080")),
    (["bench", "gaussian", "--sizes", "64,0"],
     ("error: --sizes 64,0: '0' is not an input size; give positive sizes as N or WxH, comma-separated, e.g. "
      "--sizes 64,256,1920x1080")),
])
def test_cli_mistakes(tmp_path, capsys, args, message):
    from mainspring.cli import main

    none_app = tmp_path / "none_app.py"
    none_app.write_text('NAME = "none_app"\nDEFAULT_SIZE = (8, 8)\n\n\ndef build(w, h):\n    return None\n')
    names = {"none_app": str(none_app), "missing": str(tmp_path / "missing.py"), "out": str(tmp_path / "o")}
    def fill(text: str) -> str:
        for k, v in names.items():
            text = text.replace("{" + k + "}", v)
        return text

    assert main([fill(a) for a in args]) == 2
    assert capsys.readouterr().err.strip() == fill(message)


def test_simulate_takes_a_timeout(build_dir):
    from mainspring.sim import require_simulator
    from mainspring.sim.errors import SimulationTimeout

    require_simulator("icarus")
    design = hl.compile(two_taps_across_rows(), name="tiles_timeout")
    inputs = {"input": np.arange(10, dtype=np.uint16).reshape(2, 5)}
    with pytest.raises(SimulationTimeout, match=r"timed out after 5 cycles: .* pass a larger timeout_cycles to "
                                                r"simulate\(\) or check\(\)"):
        design.check(inputs, simulator="icarus", build_dir=build_dir, timeout_cycles=5)
    assert design.check(inputs, simulator="icarus", build_dir=build_dir).cycles == 15  # the default suffices


def _coreir_branch():
    """The reference system's CoreIR/HLS branch spells the schedule with Halide-HLS's calls:
    hw_output.accelerate({padded}, xi, xo) and f.linebuffer() (harris_generator.cpp)."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    padded, gx, gy, lxy, box = (hl.Func(n) for n in ("padded", "gx", "gy", "lxy", "box"))
    padded[x, y] = hl.i16(inp[x, y])
    gx[x, y] = padded[x + 2, y] - padded[x, y]
    gy[x, y] = padded[x, y + 2] - padded[x, y]
    lxy[x, y] = gx[x, y] * gy[x, y] >> 4
    box[x, y] = lxy[x, y] + lxy[x + 1, y] + lxy[x, y + 1]
    hw_output, output = hl.Func("hw_output"), hl.Func("output")
    hw_output[x, y] = box[x, y]
    output[x, y] = hw_output[x, y]
    xo, yo, xi, yi = (hl.Var(n) for n in ("xo", "yo", "xi", "yi"))
    output.bound(x, 0, 12).bound(y, 0, 10)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 12, 10).accelerate([padded], xi, xo)
    for f in (gx, gy, lxy, box):
        f.linebuffer()
    return output, inp


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_coreir_branchs_accelerate_and_linebuffer(simulator, compile_shared, build_dir):
    output, _ = _coreir_branch()
    design = compile_shared(output, name="coreir_branch")
    assert {b.name for b in design.program.nest.buffers} >= {"gx", "gy", "lxy", "box"}  # line buffers, not inline
    design.check({"input": random_image(15, 13, seed=9)}, simulator=simulator, build_dir=build_dir)


def test_accelerate_takes_funcs():
    _, inp = _coreir_branch()
    x, y, xo, xi = hl.Var("x"), hl.Var("y"), hl.Var("xo"), hl.Var("xi")
    f = hl.Func("f")
    f[x, y] = inp[x, y]
    with pytest.raises(hl.ScheduleError, match=r"f.accelerate\(inputs, \.\.\.\): the inputs are the Funcs the "
                                               r"accelerator streams in .*not ImageParam"):
        f.accelerate([inp], xi, xo)
    with pytest.raises(hl.ScheduleError, match=r"taps \(constant inputs of Halide-HLS\) are not supported"):
        f.accelerate([], xi, xo, {"k": 3})
