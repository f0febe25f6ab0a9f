"""Every app compiled, simulated on both simulators and compared bit for bit with the reference
(passes: the whole compile driver, then sim)."""

import functools
import math

import numpy as np
import pytest

from mainspring import apps
from mainspring.compiler import compile  # noqa: A004 - mainspring's compile

SIMULATORS = ("icarus", "verilator")

# The GLB app has its own end-to-end tests (test_flow_glb.py): its whole run includes the host's transfers.
BORDER = {name: 64 - apps.load(name).DEFAULT_SIZE[0] for name in apps.SINGLE_LEVEL}


def _together(names):
    """An app's tests at its default size share its design (`_design` caches it): one xdist group per app."""
    return [pytest.param(n, marks=pytest.mark.xdist_group(f"apps_{n}")) for n in names]


# The medium size on one simulator each, alternating (Verilator for harris, the longest on Icarus): every app is
# bit-exact on both at its default size, and both simulators still run medium-size frames.
MEDIUM = [pytest.param(n, s, id=f"{n}-{s}") for n, s in zip(apps.SINGLE_LEVEL, SIMULATORS * len(apps.SINGLE_LEVEL))]


@functools.lru_cache(maxsize=2)
def _design(name, width=None, height=None):
    mod = apps.load(name)
    w, h = (width, height) if width else mod.DEFAULT_SIZE
    out, inputs = mod.build(w, h)
    return compile(out, name=mod.NAME, target=apps.target(mod)), inputs


def _pipeline_depth(design) -> int:
    return design.report["first_output_cycle"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("name", _together(apps.SINGLE_LEVEL))
def test_app_bit_exact_with_and_without_stalls(name, simulator, build_dir):
    design, inputs = _design(name)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles == design.report["predicted_cycles"]
    ideal = design.report["ideal_cycles"]
    assert res.cycles - ideal <= _pipeline_depth(design) + math.ceil(0.01 * ideal)
    stalled = design.check(inputs, simulator=simulator, build_dir=build_dir, bubbles=0.3, backpressure=0.3, seed=5)
    assert stalled.cycles > res.cycles
    assert np.array_equal(stalled.output, res.output)


@pytest.mark.parametrize(("name", "simulator"), MEDIUM, indirect=["simulator"])
def test_app_medium_size(name, simulator, build_dir):
    design, inputs = _design(name, 256 - BORDER[name], 256 - BORDER[name])
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.output.shape == (256 - BORDER[name],) * 2
    assert res.cycles == res.predicted_cycles


@pytest.mark.slow
@pytest.mark.parametrize("simulator", ["verilator"], indirect=True)
@pytest.mark.parametrize("name", apps.SINGLE_LEVEL)
def test_app_full_hd_on_verilator(name, simulator, build_dir):
    design, inputs = _design(name, 1920 - BORDER[name], 1080 - BORDER[name])
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.output.shape == (1080 - BORDER[name], 1920 - BORDER[name])
    ideal = design.report["ideal_cycles"]
    assert ideal == 1920 * 1080
    assert res.cycles - ideal <= _pipeline_depth(design) + math.ceil(0.01 * ideal)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.xdist_group("apps_gaussian")
def test_frame_after_frame_without_reset(simulator, build_dir):
    """After a frame the design restarts by itself: two frames stream through one run, no reset between."""
    from mainspring import sim
    from mainspring.design import library_path
    from mainspring.verilog.names import signal

    design, inputs = _design("gaussian")
    other = {"input": np.ascontiguousarray(inputs["input"][::-1, ::-1])}
    (w1, e1), (w2, e2) = design._stream_words(inputs), design._stream_words(other)
    assert not np.array_equal(e1, e2)
    src = build_dir / "src" / "frames"
    src.mkdir(parents=True, exist_ok=True)
    (src / "gaussian.v").write_text(design.verilog)
    streams = {signal(k): sim.StreamSpec(np.concatenate([w1[k], w2[k]]), width=16) for k in w1}
    out = sim.OutputSpec("hw_output", width=16, count=2 * len(e1))
    res = sim.run([src / "gaussian.v", library_path()], "gaussian", streams, out, simulator=simulator,
                  build_dir=build_dir, bubbles=0.2, backpressure=0.2, seed=11)
    assert np.array_equal(np.asarray(res.words, dtype=np.int64), np.concatenate([e1, e2]))
