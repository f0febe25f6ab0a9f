"""Independent ports of the reference generators (../../../../shared/h2h), written from the C++ alone.

`run(build, simulator)`: build() -> (output_func, inputs[, target]); compile, simulate, compare bit for bit."""

import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
BUILD = ROOT / "build" / "test-sim-independent"
SIMULATORS = ("icarus", "verilator")

_DESIGNS: dict = {}


def rand_image(w, h, seed=0, dtype=np.uint8, hi=256, channels=None):
    rng = np.random.default_rng(seed)
    shape = (h, w) if channels is None else (channels, h, w)
    return rng.integers(0, hi, size=shape).astype(dtype)


def compile_design(key, build):
    import mainspring as hl

    if key not in _DESIGNS:
        res = build()
        out, inputs = res[0], res[1]
        target = res[2] if len(res) > 2 else None
        t = time.time()
        design = hl.compile(out, name=key.split("[")[0], target=target) if target is not None else \
            hl.compile(out, name=key.split("[")[0])
        design.compile_seconds = time.time() - t
        _DESIGNS[key] = (design, inputs)
    return _DESIGNS[key]


def run(key, build, simulator, max_cycle_ratio=None):
    """Compile (cached per key) and check bit for bit on `simulator`; return (design, result)."""
    design, inputs = compile_design(key, build)
    BUILD.mkdir(parents=True, exist_ok=True)
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    if max_cycle_ratio is not None:
        ideal = design.report["ideal_cycles"]
        assert res.cycles <= max_cycle_ratio * ideal, (res.cycles, ideal)
    return design, res


def params(builders: dict, xfail: dict | None = None, slow=(), icarus_only=(), share: bool = False):
    """pytest params over (case, simulator): xfail[case] = reason (strict), slow cases marked slow. A case's
    simulators share one xdist group, so they run on one worker and compile the case once (`compile_design`).
    `share`: a breadth family, whose cases run on Verilator only in the share tests/flow/simulator_share.py picks."""
    from simulator_share import on_verilator

    out = []
    for name in builders:
        for sim in SIMULATORS:
            if sim != "icarus" and (name in icarus_only or (share and not on_verilator(name))):
                continue
            marks = [pytest.mark.xdist_group(name)]
            if xfail and name in xfail:
                marks.append(pytest.mark.xfail(strict=True, reason=xfail[name]))
            if name in slow:
                marks.append(pytest.mark.slow)
            out.append(pytest.param(name, sim, marks=marks, id=f"{name}-{sim}"))
    return out
