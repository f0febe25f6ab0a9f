"""Automatic hardware schedules (mainspring/autoschedule.py, issue 11's first slice): algorithms written with no
schedule at all, scheduled by `Pipeline(output).apply_autoscheduler(...)`, compile, simulate bit-exact at near
ideal cycles and minimal storage, and the printed schedule reproduces the design byte for byte."""

import inspect
import json

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps import APPS
from mainspring.apps.common import random_image

from conftest import SIMULATORS


def _blur_chain():
    """Seed 002's style: image copies in and out, a separable blur (x inline, y a reduction), a Func read by
    two consumers, a pointwise Func."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    f = {n: hl.Func(n) for n in ("hw_input", "blur_x", "blur", "edge", "mix", "hw_output", "output")}
    f["hw_input"][x, y] = hl.u16(inp[x, y])
    r = hl.RDom([hl.Range(0, 3)], "r")
    f["blur_x"][x, y] = f["hw_input"][x, y] + f["hw_input"][x + 1, y] * 2 + f["hw_input"][x + 2, y]
    f["blur"][x, y] = hl.u16(0)
    f["blur"][x, y] += f["blur_x"][x, y + r.x]
    f["edge"][x, y] = hl.absd(f["blur"][x + 1, y], f["blur"][x, y])
    f["mix"][x, y] = f["blur"][x, y] / 16 + f["edge"][x, y]
    f["hw_output"][x, y] = f["mix"][x, y]
    f["output"][x, y] = hl.u8(f["hw_output"][x, y])
    return f["output"]


def _auto(out, size=(24, 12), **extra):
    out.set_estimates([(0, size[0]), (0, size[1])])
    params = hl.AutoschedulerParams("Mainspring", {k: str(v) for k, v in extra.items()})
    return hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), params)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("lanes", [1, 2])
def test_an_unscheduled_algorithm_compiles_at_ideal_rate_and_minimal_storage(lanes, simulator, compile_shared,
                                                                             build_dir):
    out = _blur_chain()
    result = _auto(out, lanes=lanes)
    src = result.schedule_source
    assert 'funcs["blur"].compute_at(funcs["hw_output"], xo)' in src  # updates, and read at two places
    assert 'funcs["blur_x"].compute_at(funcs["hw_output"], xo)' in src  # read 3 times per value through r.x
    assert 'funcs["edge"]' not in src and 'funcs["mix"]' not in src  # read once, at one place: inlined
    design = compile_shared(out, name=f"auto_chain_{lanes}")
    rep = design.report
    for b in rep["buffers"]:
        assert b["words"] <= b["min_words"] + 2 * lanes, b  # RoundUp's padding words at 2 lanes
    assert rep["predicted_cycles"] - rep["ideal_cycles"] <= rep["first_output_cycle"]
    res = design.check({"input": random_image(28, 16, seed=3)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_the_schedule_source_gives_the_same_design_byte_for_byte():
    out = _blur_chain()
    source = _auto(out, lanes=2).schedule_source
    first = hl.compile(out, name="auto_chain")
    again = _blur_chain()
    again.set_estimates([(0, 24), (0, 12)])
    namespace: dict = {}
    exec(source, namespace)
    pipe = hl.Pipeline(again)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    second = hl.compile(again, name="auto_chain")
    assert second.verilog == first.verilog and second.memory_text == first.memory_text


def test_an_output_that_is_not_a_copy_is_accelerated_itself(build_dir):
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, output = hl.Func("hw_input"), hl.Func("output")
    hw_input[x, y] = inp[x, y]
    output[x, y] = hw_input[x, y] + hw_input[x + 1, y + 1]
    source = _auto(output, size=(10, 6)).schedule_source
    assert 'funcs["output"].compute_root().tile(' in source
    design = hl.compile(output, name="auto_out")
    design.check({"input": random_image(11, 7, seed=4, dtype="uint16")}, simulator="icarus", build_dir=build_dir)


def _plain_blur():
    """An algorithm as a Halide user writes it for a CPU: no copy Funcs, the images read directly."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
    blur_x[x, y] = (hl.u16(inp[x, y]) + inp[x + 1, y] + inp[x + 2, y]) / 3
    blur_y[x, y] = hl.u8((blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 3)
    return blur_y


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_algorithm_without_image_copies_streams_its_images_through_wrappers(simulator, compile_shared, build_dir):
    out = _plain_blur()
    source = _auto(out, size=(20, 10), lanes=2).schedule_source
    assert 'funcs["input"].in_().compute_root().stream_to_accelerator()' in source
    assert 'funcs["blur_y"].compute_root().tile(' in source  # the output itself is accelerated
    design = compile_shared(out, name="auto_plain")
    rep = design.report
    assert all(b["words"] <= b["min_words"] for b in rep["buffers"]), rep["buffers"]
    res = design.check({"input": random_image(22, 12, seed=6)}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= rep["ideal_cycles"] + rep["first_output_cycle"]
    again = _plain_blur()
    again.set_estimates([(0, 20), (0, 10)])
    namespace: dict = {}
    exec(source, namespace)  # on a fresh copy of the algorithm: the schedule makes the wrapper itself
    pipe = hl.Pipeline(again)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    assert hl.compile(again, name="auto_plain").verilog == design.verilog  # a real second compile


@pytest.mark.parametrize("estimates", [False, True])
def test_a_boundary_condition_on_an_image_read_directly(estimates, build_dir):
    # A CPU-style blur over BoundaryConditions.repeat_edge(input): the clamp reads the image's min and extent,
    # bound by the schedule to the image's estimates, or to the output's size (dim(i).set_bounds).
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    if estimates:
        inp.set_estimates([(0, 16), (0, 8)])
    clamped = hl.BoundaryConditions.repeat_edge(inp)
    bx, by = hl.Func("bx"), hl.Func("by")
    bx[x, y] = hl.u16(clamped[x - 1, y]) + clamped[x, y] + clamped[x + 1, y]
    by[x, y] = hl.u8((bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9)
    source = _auto(by, size=(16, 8)).schedule_source
    assert 'funcs["input"].dim(0).set_bounds(0, 16)' in source and 'funcs["input"].dim(1).set_bounds(0, 8)' in source
    design = hl.compile(by, name="auto_edges")
    rep = design.report
    assert all(b["words"] <= b["min_words"] for b in rep["buffers"]), rep["buffers"]
    res = design.check(design.example_inputs(7), simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= rep["ideal_cycles"] + rep["first_output_cycle"]


def _plain(kind: str):
    """Algorithms with no copy Funcs and no schedule: (output, its estimates)."""
    x, y, b = hl.Var("x"), hl.Var("y"), hl.Var("b")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    if kind == "histogram":  # a RAM, read out by the output (the accelerated Func)
        hist, out = hl.Func("hist"), hl.Func("out")
        r = hl.RDom([hl.Range(0, 12), hl.Range(0, 6)], "r")
        hist[b] = hl.u16(0)
        hist[hl.clamp(hl.i32(inp[r.x, r.y]), 0, 255)] += hl.u16(1)
        out[b] = hist[b]
        return out, [(0, 256)]
    if kind == "weights":  # a constant weights table, a serial-looking RDom the scheduler unrolls
        k, conv, out = hl.Func("k"), hl.Func("conv"), hl.Func("out")
        k[x, y] = hl.u16(1)
        k[1, 1] = hl.u16(4)
        rr = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)], "rr")
        conv[x, y] = hl.u16(0)
        conv[x, y] += hl.u16(inp[x + rr.x, y + rr.y]) * k[rr.x, rr.y]
        out[x, y] = hl.u8(conv[x, y] >> 4)
        return out, [(0, 12), (0, 6)]
    if kind == "two_images":
        other = hl.ImageParam(hl.UInt(8), 2, "other")
        out = hl.Func("out")
        out[x, y] = hl.u8((hl.u16(inp[x, y]) + other[x, y] + other[x + 1, y]) / 3)
        return out, [(0, 12), (0, 6)]
    out = hl.Func("out")  # a 2x2 max pool
    out[x, y] = hl.max(hl.max(inp[2 * x, 2 * y], inp[2 * x + 1, 2 * y]),
                       hl.max(inp[2 * x, 2 * y + 1], inp[2 * x + 1, 2 * y + 1]))
    return out, [(0, 12), (0, 6)]


@pytest.mark.parametrize("kind", ["histogram", "weights", "two_images", "max_pool"])
def test_plain_algorithms_compile_bit_exact_at_minimal_storage(kind, build_dir):
    out, estimates = _plain(kind)
    out.set_estimates(estimates)
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    design = hl.compile(out, name=f"plain_{kind}")
    rep = design.report
    assert all(b["words"] <= b["min_words"] + 3 for b in rep["buffers"]), rep["buffers"]
    res = design.check(design.example_inputs(2), simulator="icarus", build_dir=build_dir, bubbles=0.2,
                       backpressure=0.2)
    assert res.cycles >= res.predicted_cycles


@pytest.mark.parametrize(("extra", "message"), [
    ({"lane": "2"}, "unknown key 'lane'; the keys are lanes: pixels per cycle"),
    ({"lanes": "two"}, "lanes='two' is not valid; lanes: pixels per cycle, a positive integer"),
    ({"use_glb": "maybe"}, "use_glb='maybe' is not valid"),
    ({"glb_tile": "12"}, "glb_tile='12' is not valid; glb_tile: \"WxH\""),
    ({"use_glb": "false", "glb_tile": "8x8"}, "a GLB tile needs the GLB; drop glb_tile, or set use_glb to \"true\""),
])
def test_bad_parameters_name_the_valid_ones(extra, message):
    with pytest.raises(hl.HalideError, match=message.replace("(", r"\(")):
        _auto(_blur_chain(), **extra)


@pytest.mark.parametrize(("lanes", "tile"), [(1, "12x6"), (2, "12x6"), (1, None), (2, "10x5")])
def test_use_glb_builds_seed_002s_three_levels(lanes, tile, build_dir):
    # Host, GLB tiles (the last of a row or column shifted inward) and memory tiles, bit-exact; each tile streams
    # its halo, so the ideal is the tiles' (the report's), which the design reaches but for each tile's fill.
    out = _blur_chain()
    extra = {"use_glb": "true", "lanes": lanes} | ({"glb_tile": tile} if tile else {})
    source = _auto(out, **extra).schedule_source
    assert "glb.store_in(hl.MemoryType.GLB)" in source
    assert 'funcs["hw_input"].in_().compute_at(glb, xo).store_in(hl.MemoryType.GLB)' in source
    design = hl.compile(out, name=f"auto_glb_{lanes}")
    rep = design.report
    assert rep["tiles"] == (1 if tile is None else 4 if tile == "12x6" else 9)
    assert all(b["words"] <= b["min_words"] for b in rep["buffers"]), rep["buffers"]
    assert rep["predicted_cycles"] <= rep["ideal_cycles"] * 1.05 + rep["tiles"] * (rep["first_output_cycle"] + 4)
    res = design.check(design.example_inputs(3), simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_use_glb_copies_the_output_value_and_tiles_that_shift():
    # an output that copies no Func first becomes a copy of its value (gaps20: test_flow_autoschedule_output_copy.py)
    src = _auto(_plain_blur(), size=(20, 10), use_glb="true").schedule_source
    assert 'hl.Pipeline(funcs["blur_y"]).copy_output()' in src and 'funcs["blur_y_value"].in_()' in src

    def selecting():  # reads its coordinate as a value: every run of the array counts its own (tile_coordinates)
        x, y = hl.Var("x"), hl.Var("y")
        inp = hl.ImageParam(hl.UInt(8), 2, "input")
        hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
        hw_input[x, y] = inp[x, y]
        hw_output[x, y] = hl.select(x < 3, hw_input[x, y], hw_input[x + 1, y])
        output[x, y] = hw_output[x, y]
        return output

    assert "GLB tiles of 8 x 8 over 8 x 8" in _auto(selecting(), size=(8, 8), use_glb="true").schedule_source
    output = selecting()
    assert "GLB tiles of 4 x 4 over 8 x 8" in _auto(output, size=(8, 8), glb_tile="4x4").schedule_source
    design = hl.compile(output, name="auto_glb_select")
    design.check(design.example_inputs(2), simulator="icarus")


def test_missing_estimates_and_missing_images_are_explained():
    out = _blur_chain()
    with pytest.raises(hl.HalideError, match=r"the output 'output' has no estimate for x; give the size it is "
                                             r"computed at: output.set_estimates\(\[\(0, 64\), \(0, 64\)\]\)"):
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring"))
    with pytest.raises(hl.HalideError, match="unknown autoscheduler 'Mullapudi2016'"):
        hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mullapudi2016"))


def test_no_schedule_within_the_budget_is_explained():
    with pytest.raises(hl.HalideError, match=r"no schedule of 'output' fits max_pes=4 and max_mem_tiles=128: the "
                                             r"smallest tried \(one lane, reductions serial\) needs 9 PEs and 1 memory "
                                             r"tile; raise the budget \(max_pes=\"9\", max_mem_tiles=\"128\"\)"):
        _auto(_blur_chain(), lanes=2, max_pes=4)


@pytest.mark.parametrize(("extra", "lanes"), [({"max_pes": 25}, 2), ({"max_pes": 30, "lanes": 4}, 3),
                                              ({"max_mem_tiles": 1, "lanes": 4}, 1)])
def test_lanes_from_the_pe_and_memory_tile_budgets(extra, lanes, build_dir):
    # Without `lanes`, as many as fit max_pes; with it, the most up to it that fit both budgets.
    out = _blur_chain()
    result = _auto(out, **extra)
    assert result.lanes == lanes
    design = hl.compile(out, name=f"auto_budget_{lanes}")
    rep = design.report
    assert rep["pes"] <= extra.get("max_pes", 384) and rep["mem_tiles"] <= extra.get("max_mem_tiles", 128)
    assert -(-27 // lanes) * 14 <= rep["ideal_cycles"] <= -(-28 // lanes) * 14  # the input, 27x14 with its halo
    design.check(design.example_inputs(4), simulator="icarus", build_dir=build_dir)


def _conv5():
    """A 5x5 convolution with a weights table: 25 products unrolled, or fewer per step."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    k, conv, out = hl.Func("k"), hl.Func("conv"), hl.Func("out")
    k[x, y] = hl.u16(x + 2 * y + 1)
    r = hl.RDom([hl.Range(0, 5), hl.Range(0, 5)], "r")
    conv[x, y] = hl.u16(0)
    conv[x, y] += hl.u16(inp[x + r.x, y + r.y]) * k[r.x, r.y]
    out[x, y] = hl.u8(conv[x, y] >> 6)
    return out


def _conv5_unnamed():
    """_conv5 over an RDom made without a name (the frontend's counter names it: r0, r1, ... over the process)."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    k, conv, out = hl.Func("k"), hl.Func("conv"), hl.Func("out")
    k[x, y] = hl.u16(x + 2 * y + 1)
    r = hl.RDom([hl.Range(0, 5), hl.Range(0, 5)])
    conv[x, y] = hl.u16(0)
    conv[x, y] += hl.u16(inp[x + r.x, y + r.y]) * k[r.x, r.y]
    out[x, y] = hl.u8(conv[x, y] >> 6)
    return out


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_the_schedule_source_of_an_unnamed_rdom_gives_the_same_design_after_other_rdoms(simulator, build_dir,
                                                                                       compile_shared):
    # Under the budget the window unrolls along x and runs serial along y, whose loop and coordinate port are
    # named after the RDom: before session 26 by the counter (`coord_r4_y` in the copy, `coord_r0_y` first).
    out = _conv5_unnamed()
    source = _auto(out, size=(10, 6), lanes=1, max_pes=30).schedule_source
    assert '.unroll(vars["conv.update(0).x"])' in source and 'vars["conv.update(0).y"]' not in source
    first = compile_shared(out, name="auto_conv5_unnamed")
    others = [hl.RDom([hl.Range(0, 2)]) for _ in range(3)]  # unrelated RDoms, each taking a name of the counter
    assert len({r.x.name() for r in others}) == 3
    again = _conv5_unnamed()
    again.set_estimates([(0, 10), (0, 6)])
    namespace: dict = {}
    exec(source, namespace)
    pipe = hl.Pipeline(again)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    second = compile_shared(again, name="auto_conv5_unnamed")
    assert "coord_r0_y" in first.verilog
    assert second.verilog == first.verilog and second.memory_text == first.memory_text
    assert json.dumps(second.compute_doc, sort_keys=True) == json.dumps(first.compute_doc, sort_keys=True)
    res = second.check(second.example_inputs(5), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize(("max_pes", "unrolls", "steps"), [(200, '.unroll("r$x").unroll("r$y")', 1),
                                                          (30, '.unroll("r$x")', 5), (10, None, 25)])
def test_a_reduction_unrolls_partially_to_meet_the_pe_budget(max_pes, unrolls, steps, build_dir):
    out = _conv5()
    source = _auto(out, size=(10, 6), lanes=1, max_pes=max_pes).schedule_source
    assert (unrolls in source) if unrolls else ".update(0).unroll" not in source
    design = hl.compile(out, name="auto_conv5")
    rep = design.report
    assert rep["pes"] <= max_pes
    assert rep["ideal_cycles"] >= 60 * steps  # a step of the serial RVars per cycle
    res = design.check(design.example_inputs(5), simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= rep["ideal_cycles"] * 1.05 + rep["first_output_cycle"]


@pytest.mark.parametrize("app", ["gaussian", "cascade", "harris"])
def test_automatic_schedules_match_the_hand_schedules(app):
    # The apps' algorithms scheduled automatically give the hand schedules' figures exactly (BENCHMARKS.md).
    from mainspring import apps

    mod = apps.load(app)
    figures = []
    for auto in (False, True):
        out, _ = apps.build(mod, 30, 16, auto=auto)
        rep = hl.compile(out, name=app).report
        figures.append((rep["predicted_cycles"], rep["pes"], rep["mem_tiles"], rep["registers"],
                        sum(b["words"] for b in rep["buffers"] if b["level"] != "wire")))
    assert figures[0] == figures[1]


@pytest.mark.parametrize("app", APPS)
def test_every_apps_schedule_source_gives_its_design_byte_for_byte(app, monkeypatch):
    # The printed schedule, run on a fresh copy of the app's algorithm instead of the autoscheduler, gives the
    # same Verilog and memory JSON.
    from mainspring import apps
    from mainspring.frontend.pipeline import Pipeline

    mod = apps.load(app)
    sources = []
    real = Pipeline.apply_autoscheduler

    def record(self, target, params):
        got = real(self, target, params)
        sources.append(got.schedule_source)
        return got

    monkeypatch.setattr(Pipeline, "apply_autoscheduler", record)
    out, _ = apps.build(mod, 24, 12, auto=True)
    first = hl.compile(out, name=app, target=apps.target(mod), prove=False)

    def replay(self, target, params):
        namespace: dict = {}
        exec(sources[0], namespace)
        namespace["schedule"](self.funcs(), self.vars())
        return hl.AutoSchedulerResults("Mainspring", sources[0])

    monkeypatch.setattr(Pipeline, "apply_autoscheduler", replay)
    out, _ = apps.build(mod, 24, 12, auto=True)
    second = hl.compile(out, name=app, target=apps.target(mod), prove=False)
    assert second.verilog == first.verilog and second.memory_text == first.memory_text


@pytest.mark.parametrize("app", ["h2h_unsharp", "h2h_camera_pipeline"])
def test_automatic_schedules_of_channel_pipelines_reach_the_hand_schedules(app, build_dir):
    # Outputs of a pixel's 3 channels per transfer (hw_output(c, x, y), the output a copy in another order): the
    # automatic schedule reaches the hand schedule's cycles within 5% with at most its PEs and memory tiles
    # (BENCHMARKS.md), bit-exact.
    from mainspring import apps

    mod = apps.load(app)
    reports = []
    for auto in (False, True):
        out, inputs = apps.build(mod, 30, 16, auto=auto)
        # The hand design gives its figures only (test_flow_h2h.py and test_flow_channels.py prove its kernels).
        design = hl.compile(out, name=f"{app}_auto" if auto else app, target=apps.target(mod), prove=auto)
        reports.append(design.report)
    hand, auto = reports
    assert auto["predicted_cycles"] <= hand["predicted_cycles"] * 1.05
    # camera_pipeline's demosaic: g_r and g_b, buffers of taps, are inlined as its hand schedule has them, as the
    # models find them cheaper so (mainspring/autoschedule_inline.py): their readers' taps of the green planes
    # fold into one read a row and registers (memories/read_registers.py); buffered, they took 2 tiles each.
    assert auto["pes"] <= hand["pes"] and auto["mem_tiles"] <= hand["mem_tiles"]
    res = design.check(inputs, simulator="icarus", build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_harris_scheduled_automatically(simulator, compile_shared, build_dir):
    from mainspring import apps

    out, inputs = apps.build(apps.load("harris"), 20, 12, auto=True)
    design = compile_shared(out, name="harris_auto")
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


def test_auto_on_an_app_without_an_unscheduled_algorithm(tmp_path):
    # Every app of mainspring.apps offers one now; a user's app file may not.
    from mainspring import apps

    path = tmp_path / "mine.py"
    path.write_text('import mainspring as hl\nNAME = "mine"\nDEFAULT_SIZE = (8, 8)\n\n\n'
                    "def build(width, height):\n    raise AssertionError('not called')\n")
    with pytest.raises(hl.HalideError, match=r"--auto: app mine's build\(\) takes no auto parameter .*"
                                             r"`auto=False` parameter"):
        apps.build(apps.load(str(path)), 20, 12, auto=True)
    assert all("auto" in inspect.signature(apps.load(a).build).parameters for a in apps.APPS)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_planes_that_read_their_channel_stay_inside_the_tile(simulator, compile_shared, build_dir):
    """output(x, y, c) = select(c == 0, gray, c == 1, 255 - gray, gray / 2), CPU-style planes: the channel loop
    runs inside the accelerator's tile (a host loop over planes would give each tile its own c, which the
    hardware cannot count), so the design is one tile that reads its channel as a value; innermost, as no read
    moves with it (a pixel's planes one after another: `gray` keeps a few words, not the frame)."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    inp = hl.ImageParam(hl.UInt(8), 3, "input")
    gray, output = hl.Func("gray"), hl.Func("output")
    gray[x, y] = (77 * hl.u16(inp[x, y, 0]) + 150 * hl.u16(inp[x, y, 1]) + 29 * hl.u16(inp[x, y, 2])) >> 8
    output[x, y, c] = hl.u8(hl.select(c == 0, gray[x, y], c == 1, 255 - gray[x, y], gray[x, y] / 2))
    output.set_estimates([(0, 8), (0, 6), (0, 3)])
    source = hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring")).schedule_source
    assert '.reorder(vars["c"], xi, yi, xo, yo)' in source
    design = compile_shared(output, name="auto_planes")
    assert design.report["tiles"] == 1 and sum(b["words"] for b in design.report["buffers"]) <= 12
    img = np.random.default_rng(3).integers(0, 256, size=(3, 6, 8), dtype=np.uint8)
    res = design.check({"input": img}, simulator=simulator, build_dir=build_dir)
    assert res.cycles == design.report["predicted_cycles"]


def _scaled_blur(style: str):
    """A 3-tap blur of `scaled`, computed pixel by pixel from the image: `scaled` reads the image itself ("sole"),
    a copy Func ("copy"), the image at two points ("two_points"), at half resolution ("upsample"), or computes in
    32 bits ("wide")."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    scaled, blur = hl.Func("scaled"), hl.Func("blur")
    src = inp
    if style == "copy":
        src = hl.Func("hw_input")
        src[x, y] = hl.u16(inp[x, y])
    if style == "two_points":
        scaled[x, y] = hl.i16(inp[x, y]) * 3 - hl.i16(inp[x + 1, y])
    elif style == "wide":
        scaled[x, y] = hl.i32(src[x, y]) * 300 - 7
    elif style == "upsample":  # streamed as computed, 2 words for each of the image's
        scaled[x, y] = hl.i16(src[x / 2, y]) * 3 - 5
    else:
        scaled[x, y] = hl.i16(src[x, y]) * 3 - 5
    blur[x, y] = (scaled[x, y] + scaled[x + 1, y + 1] + scaled[x, y + 2]) / 4
    blur.set_estimates([(0, 16), (0, 8)])
    return blur


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_images_sole_reader_computed_pixel_by_pixel_streams_from_the_host(simulator, compile_shared, build_dir):
    # `scaled` reads the image alone, at one point, in 16 bits: the host streams it instead of the image (a word a
    # pixel either way), so the array spends no PE on its product; the same algorithm reading a copy Func keeps
    # `scaled` on the array (the user's stage), at as many cycles and more PEs. Bit-exact against the reference.
    sole, copy = _scaled_blur("sole"), _scaled_blur("copy")
    source = _auto(sole, size=(16, 8)).schedule_source
    assert 'funcs["scaled"].compute_root().stream_to_accelerator()  # computed by the host from the image' in source
    assert 'funcs["scaled"].compute_root()' not in _auto(copy, size=(16, 8)).schedule_source
    design, kept = compile_shared(sole, name="auto_sole_reader"), compile_shared(copy, name="auto_copy_reader")
    assert design.report["predicted_cycles"] <= kept.report["predicted_cycles"]  # a kernel shorter, if anything
    assert design.report["pes"] < kept.report["pes"]
    res = design.check(design.example_inputs(4), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("style", ["two_points", "wide", "upsample"])
def test_an_images_reader_of_neighbours_or_wider_than_a_word_stays_on_the_array(style):
    source = _auto(_scaled_blur(style), size=(16, 8)).schedule_source
    assert 'funcs["input"].in_().compute_root().stream_to_accelerator()' in source
    assert 'funcs["scaled"].compute_root().stream_to_accelerator()' not in source


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_sole_reader_beside_another_images_copy_streams_from_the_host(simulator, compile_shared, build_dir):
    # With a copy Func of one image the images are not wrapped: `fb` reads its image itself, alone and at one point,
    # and is streamed as the host computes it, beside the copy `hw_a`, at 2 lanes.
    x, y = hl.Var("x"), hl.Var("y")
    a, b = hl.ImageParam(hl.UInt(8), 2, "a"), hl.ImageParam(hl.UInt(8), 2, "b")
    hw_a, fb, hw_output, output = (hl.Func(n) for n in ("hw_a", "fb", "hw_output", "output"))
    hw_a[x, y] = hl.u16(a[x, y])
    fb[x, y] = hl.u16(b[x, y]) * 5
    hw_output[x, y] = hw_a[x, y] + hw_a[x + 1, y] + fb[x, y + 1]
    output[x, y] = hl.u8(hw_output[x, y])
    source = _auto(output, size=(12, 6), lanes=2).schedule_source
    assert 'funcs["fb"].compute_root().stream_to_accelerator()  # computed by the host from the image' in source
    assert 'funcs["hw_a"].compute_root().stream_to_accelerator()' in source
    design = compile_shared(output, name="auto_sole_beside_copy")
    res = design.check(design.example_inputs(7), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles <= design.report["ideal_cycles"] + design.report["first_output_cycle"]


@pytest.mark.parametrize("max_pes", [None, 600])
def test_a_buffer_of_taps_is_inlined_where_the_models_find_it_cheaper(max_pes, monkeypatch):
    # camera_pipeline's g_r and g_b (each read at 4 taps by the demosaic, computed from the green planes at 3
    # taps): inlined, the memory-tile model counts fewer tiles (the green planes hold the rows their taps need
    # anyway) and the PEs counted on the lowered design stay within the target's 1024: inlined, as the hand
    # schedule has them (mainspring/autoschedule_inline.py). Under max_pes=600, which the inlined design's PEs
    # exceed, not both are inlined (both stayed buffered until session 34's lane_constants made g_r inlined with
    # g_b buffered fit).
    from mainspring import apps

    if max_pes is not None:
        real = hl.AutoschedulerParams
        monkeypatch.setattr(hl, "AutoschedulerParams", lambda name: real(name, {"max_pes": str(max_pes)}))
    mod = apps.load("h2h_camera_pipeline")
    out, _ = apps.build(mod, 12, 8, auto=True)
    design = hl.compile(out, name="camera_inlined", target=apps.target(mod), prove=False)
    names = {b["name"] for b in design.report["buffers"]}
    assert names >= {"g_gr", "g_gb", "r_r", "b_b"}
    if max_pes is None:
        assert not names & {"g_r", "g_b"} and design.report["pes"] > 600
    else:
        assert names & {"g_r", "g_b"} and design.report["pes"] <= max_pes
