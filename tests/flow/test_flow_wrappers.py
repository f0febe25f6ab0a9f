"""Halide's consumer-specific copies inside the accelerator, bit for bit on both simulators: `f.clone_in(g)` (g
reads a copy of f with f's definitions and its schedule so far, scheduled apart from then on) and
`f.in_([g, h])` (one wrapper that both read)."""

from __future__ import annotations

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS


def _pipeline(size=8):
    """hw_input -> f (two taps, plus an update) read by g and h; h (also reading g) is the accelerator's output."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f, g, h, output = (hl.Func(n) for n in ("hw_input", "f", "g", "h", "output"))
    hw_input[x, y] = image[x, y]
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    f[x, y] += hl.u16(3)
    g[x, y] = f[x, y] * 2 + f[x, y + 1]
    h[x, y] = f[x + 1, y] + g[x, y]
    output[x, y] = h[x, y]
    output.bound(x, 0, size).bound(y, 0, size)
    h.compute_root().tile(x, y, xo, yo, xi, yi, size, size).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return {"f": f, "g": g, "h": h, "hw_input": hw_input, "output": output, "xo": xo, "x": x}


def _inputs(size=8):
    return {"input": (np.arange((size + 2) * (size + 1)) * 37 % 65521).astype(np.uint16).reshape(size + 1, size + 2)}


def _buffers(design) -> list[str]:
    return sorted(b["name"] for b in design.report["buffers"])


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_clone_is_buffered_apart_from_its_original(simulator, build_dir, compile_shared):
    p = _pipeline()
    p["f"].compute_at(p["h"], p["xo"])
    clone = p["f"].clone_in(p["g"])
    p["f"].unroll(p["x"], 2)  # after the clone: reaches f only, as in Halide
    clone.compute_at(p["h"], p["xo"])
    p["g"].compute_at(p["h"], p["xo"])
    assert clone.name() == "f_clone_in_g"
    design = compile_shared(p["output"], name="clone_apart")
    assert _buffers(design) == ["f", "f_clone_in_g", "g", "h", "hw_input"]
    res = design.check(_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_clone_for_two_consumers_takes_its_originals_schedule_so_far(simulator, build_dir, compile_shared):
    p = _pipeline()
    p["f"].compute_at(p["h"], p["xo"])
    clone = p["f"].clone_in([p["g"], p["h"]])  # computed where f was; f itself has no reader left
    assert clone.name() == "f_clone" and p["f"].clone_in([p["h"], p["g"]]).name() == "f_clone"
    design = compile_shared(p["output"], name="clone_shared")
    assert _buffers(design) == ["f_clone", "h", "hw_input"]
    res = design.check(_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_one_wrapper_for_two_consumers(simulator, build_dir, compile_shared):
    p = _pipeline()
    p["f"].compute_at(p["h"], p["xo"])
    wrapper = p["f"].in_([p["g"], p["h"]])
    assert wrapper.name() == "f_in_g_h" and p["f"].in_([p["h"], p["g"]]).name() == "f_in_g_h"
    wrapper.compute_at(p["h"], p["xo"])
    p["g"].compute_at(p["h"], p["xo"])
    design = compile_shared(p["output"], name="wrapper_shared")
    assert _buffers(design) == ["f", "f_in_g_h", "g", "h", "hw_input"]
    res = design.check(_inputs(), simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
