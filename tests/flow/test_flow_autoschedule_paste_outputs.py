"""The schedule_source of several outputs is pasteable (issue 11): it names only the user's Funcs and Vars and calls
a user can write (its first, `hl.Pipeline([...]).fuse_outputs()`, makes the Tuple Func the autoscheduler plans;
mainspring/autoschedule_outputs.py), so pasted and called on a fresh, unscheduled copy of the algorithm it gives
the autoscheduled design byte for byte (memory JSON, compute JSON, Verilog). For every kind of several outputs the
autoscheduler accepts: independent (in one word, or in two words a pixel), one read by another, a reduction (over
a named RDom, or an unnamed one, whose RVars the source names by stage), and in host tiles. The new designs here
(the unnamed RDom, the host tiles) are also simulated on both simulators; the others are in
test_flow_autoschedule_output_reads.py, _several_outputs.py and _output_words.py."""

import json
import re

import numpy as np
import pytest
from test_flow_autoschedule_output_reads import ALGORITHMS as READS

import mainspring as hl

from conftest import SIMULATORS

W, H = 23, 9


def _blur(x, y, image):
    blur_x, blur = hl.funcs("blur_x blur")
    blur_x[x, y] = hl.u16(image[x, y]) + image[x + 1, y] + image[x + 2, y]
    blur[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 9
    return blur


def blur_and_gradient():
    """Two outputs no Func reads, of one word together."""
    x, y = hl.vars("x y")
    blur = _blur(x, y, hl.ImageParam(hl.UInt(8), 2, "input"))
    blurred, gradient = hl.funcs("blurred gradient")
    blurred[x, y] = blur[x, y]
    gradient[x, y] = hl.u8(hl.absd(blur[x + 1, y], blur[x, y]) / 2)
    return [blurred, gradient]


def two_words():
    """Two u32 outputs: two words a pixel side by side on the output port (frontend/output_words.py)."""
    x, y = hl.vars("x y")
    blur = _blur(x, y, hl.ImageParam(hl.UInt(8), 2, "input"))
    big, shifted = hl.funcs("big shifted")
    big[x, y] = hl.u32(blur[x, y]) * 100003
    shifted[x, y] = (hl.u32(blur[x + 1, y]) << 20) | blur[x, y]
    return [big, shifted]


def unnamed_sum_and_max():
    """A 3x2 sum over an unnamed RDom (its RVars named by counter) and a 1x3 maximum read from it."""
    x, y = hl.vars("x y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    total, peak = hl.funcs("total peak")
    r = hl.RDom([(0, 3), (0, 2)])
    total[x, y] = hl.u16(0)
    total[x, y] += hl.u16(image[x + r.x, y + r.y])
    peak[x, y] = hl.u8(hl.max(total[x, y], total[x + 1, y], total[x + 2, y]) / 6)
    return [total, peak]


DIRECT = ("blur_and_gradient", "two_words")
ALGORITHMS = {"blur_and_gradient": blur_and_gradient, "two_words": two_words,
              "unnamed_sum_and_max": unnamed_sum_and_max} | READS


def _fresh(kind: str, size=(W, H)) -> list:
    outputs = ALGORITHMS[kind]()
    for f in outputs:
        f.set_estimates([(0, size[0]), (0, size[1])])
    return outputs


def _scheduled(kind: str, lanes: int, size=(W, H), **extra) -> tuple[list, str]:
    outputs = _fresh(kind, size)
    params = hl.AutoschedulerParams("Mainspring", {"lanes": str(lanes)} | {k: str(v) for k, v in extra.items()})
    return outputs, hl.Pipeline(outputs).apply_autoscheduler(hl.CGRA(), params).schedule_source


def _pasted(kind: str, source: str, name: str, size=(W, H)):
    """The design of a fresh, unscheduled copy of `kind` scheduled by `source` as a user pastes it."""
    fresh = _fresh(kind, size)  # with no Func the autoscheduler made
    pipe = hl.Pipeline(fresh)
    assert "hw_outputs" not in pipe.funcs()
    namespace: dict = {}
    exec(source, namespace)  # as pasted into the user's file
    namespace["schedule"](pipe.funcs(), pipe.vars())
    design = hl.compile(fresh, name=name)
    assert [o.name for o in design.outputs] == [f.name() for f in fresh]
    return design


def _texts(design) -> tuple[str, str, str]:
    return design.memory_text, json.dumps(design.compute_doc, sort_keys=True), design.verilog


@pytest.mark.parametrize("lanes", [1, 2])
@pytest.mark.parametrize("kind", sorted(ALGORITHMS))
def test_the_pasted_source_gives_the_same_design_on_a_fresh_copy(kind, lanes):
    outputs, source = _scheduled(kind, lanes)
    auto = hl.compile(outputs, name=f"paste_{kind}")
    fresh = hl.Pipeline(ALGORITHMS[kind]()).funcs()
    named = set(re.findall(r'funcs\["(\w+)"\]', source.split("fuse_outputs()")[0]))
    assert named <= set(fresh)  # the user's Funcs, up to the rewrite if there is one
    # outputs no Func reads, none a reduction: scheduled alike, which compile fuses itself; else the rewrite first
    assert ("hw_outputs" in source) == ("fuse_outputs()" in source) == (kind not in DIRECT)
    assert _texts(_pasted(kind, source, f"paste_{kind}")) == _texts(auto)


@pytest.mark.parametrize("kind", ["blur_and_edge", "blur_and_gradient"])
def test_the_pasted_source_of_host_tiles_gives_the_same_design(kind):
    # a frame over the memory-tile budget: host tiles of the outputs' Tuple Func (the GLB is refused for several
    # outputs: errors_autoschedule.py's glb_for_several_outputs)
    outputs, source = _scheduled(kind, 1, (1100, 6), max_mem_tiles=1)
    assert "host tiles of" in source
    auto = hl.compile(outputs, name="paste_host_tiles")
    assert auto.report["mem_tiles"] <= 1
    assert _texts(_pasted(kind, source, "paste_host_tiles", (1100, 6))) == _texts(auto)


def _numpy_sum_and_max(a: np.ndarray) -> list[np.ndarray]:
    c = a.astype(np.int64)
    total = sum(c[j:j + H, i:i + W + 2] for i in range(3) for j in range(2))
    peak = np.maximum(np.maximum(total[:, :W], total[:, 1:W + 1]), total[:, 2:W + 2]) // 6
    return [total[:, :W].astype(np.uint16), peak.astype(np.uint8)]


@pytest.mark.parametrize("lanes", [1, 2])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_unnamed_reduction_output_read_by_another_is_bit_exact(lanes, simulator, compile_shared, build_dir):
    outputs, source = _scheduled("unnamed_sum_and_max", lanes)
    assert 'vars["total_value.update(0).x"]' in source  # its RVars by stage: no counter's name
    design = compile_shared(outputs, name=f"paste_unnamed_{lanes}")
    image = np.random.default_rng(27).integers(0, 256, (H + 1, W + 6)).astype(np.uint8)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    for got, want in zip(res.outputs, _numpy_sum_and_max(image), strict=True):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    rep = design.report
    assert rep["predicted_cycles"] <= 1.1 * rep["ideal_cycles"], (rep["predicted_cycles"], rep["ideal_cycles"])


@pytest.mark.parametrize("kind", ["blur_and_edge", "blur_and_gradient"])
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_host_tiles_of_several_outputs_are_bit_exact(kind, simulator, compile_shared, build_dir):
    outputs, _ = _scheduled(kind, 1, (1100, 6), max_mem_tiles=1)
    design = compile_shared(outputs, name=f"paste_host_tiles_{kind}")
    image = np.random.default_rng(28).integers(0, 256, (8, 1103)).astype(np.uint8)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    c = image.astype(np.int64)
    bx = c[:, :-2] + c[:, 1:-1] + c[:, 2:]
    blur = (bx[:-2] + bx[1:-1] + bx[2:]) // 9
    step = np.abs(blur[:, 1:1101] - blur[:, :1100]) // (2 if kind == "blur_and_gradient" else 1)
    for got, want in zip(res.outputs, [blur[:, :1100].astype(np.uint16), step.astype(np.uint8)], strict=True):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert res.cycles == design.report["predicted_cycles"]


def _pair():
    x, y = hl.vars("x y")
    image = hl.ImageParam(hl.UInt(8), 2, "im")
    pair = hl.Func("pair")
    pair[x, y] = (image[x, y] + image[x + 1, y], hl.u16(image[x, y]) * 3)
    pair.set_estimates([(0, 8), (0, 6)])
    return pair


def test_the_pasted_source_of_a_tuple_output_gives_the_same_design():
    # a Tuple output is scheduled whole: its source names the user's Tuple Func, with no rewrite to begin with
    # (bit-exact on both simulators: test_flow_several_outputs.py's test_an_autoscheduled_tuple_output_is_bit_exact)
    pair = _pair()
    source = hl.Pipeline(pair).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring")).schedule_source
    assert "fuse_outputs" not in source and 'funcs["pair"].compute_root()' in source
    auto = hl.compile(pair, name="paste_pair")
    fresh = _pair()
    pipe = hl.Pipeline(fresh)
    namespace: dict = {}
    exec(source, namespace)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    assert _texts(hl.compile(fresh, name="paste_pair")) == _texts(auto)
