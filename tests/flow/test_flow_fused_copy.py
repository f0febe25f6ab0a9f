"""`hl.compile([a, b])` of Funcs accelerated alike fuses a copy of them into one Tuple Func (frontend/fuse_outputs.py):
the user's program stays as written, so a and b realized or compiled alone afterwards are what they were before,
and what Halide computes."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS

W, H = 12, 8


def _algorithm(m):
    """a = the sum of two neighbours of `shifted`, b = half their difference, each read through an accelerated copy
    Func; `m` is mainspring or Halide."""
    x, y = m.Var("x"), m.Var("y")
    image = m.ImageParam(m.UInt(8), 2, "input")
    hw_input, shifted, hw_sum, hw_diff, a, b = (m.Func(n) for n in ("hw_input", "shifted", "hw_sum", "hw_diff",
                                                                     "a", "b"))
    hw_input[x, y] = image[x, y]
    shifted[x, y] = m.cast(m.UInt(16), hw_input[x, y]) + hw_input[x + 1, y + 1]
    hw_sum[x, y] = shifted[x, y] + shifted[x + 1, y]
    hw_diff[x, y] = m.cast(m.UInt(8), m.absd(shifted[x, y + 1], shifted[x, y]) / 2)
    a[x, y] = hw_sum[x, y]
    b[x, y] = hw_diff[x, y]
    return image, (hw_input, shifted, hw_sum, hw_diff), (a, b)


def _scheduled():
    _, (hw_input, _inlined, hw_sum, hw_diff), (a, b) = _algorithm(hl)
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    for f in (a, b):
        f.bound(x, 0, W).bound(y, 0, H)
    # accelerated alike, `shifted` inlined into both: a and b can each be realized alone (Halide's check)
    hw_sum.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_diff.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return (a, b), (hw_sum, hw_diff)


def _image() -> np.ndarray:
    return np.random.default_rng(26).integers(0, 256, (H + 2, W + 2)).astype(np.uint8)


def _alone(f: hl.Func) -> np.ndarray:
    return np.asarray(hl.Pipeline(f).realize([W, H], {"input": hl.Buffer(_image())}))


def _program(funcs) -> list:
    """What the user wrote of each Func: its definitions and its schedule."""
    return [(list(f.function().definitions), f.function().placement) for f in funcs]


@functools.cache
def _compiled():
    """The outputs, their accelerated Funcs, and (before, after) compiling both: each output realized alone, the
    Verilog and memory JSON of `a` compiled alone, the Funcs' definitions and schedules; and the design of both."""
    (a, b), accelerated = _scheduled()

    def state():
        alone = hl.compile(a, name="fused_copy_a")
        return [_alone(a), _alone(b)], (alone.verilog, alone.memory_text), _program((a, b) + accelerated), alone

    before = state()
    both = hl.compile([a, b], name="fused_copy_ab")
    return before, state(), both


@pytest.mark.xdist_group("fused_copy")
def test_compiling_both_leaves_the_program_as_written(halide):
    before, after, both = _compiled()
    assert both.program.output == "hw_outputs" and after[3].program.output == "hw_sum"
    assert all(np.array_equal(p, q) for p, q in zip(before[0], after[0], strict=True))
    assert before[1] == after[1]  # `a` compiled alone: the same design, byte for byte
    for (defs0, place0), (defs1, place1) in zip(before[2], after[2], strict=True):
        assert all(d is e for d, e in zip(defs0, defs1, strict=True)) and place0 == place1
    image, _, (a, b) = _algorithm(halide)
    image.set(halide.Buffer(np.ascontiguousarray(_image())))
    for f, ours in zip((a, b), after[0], strict=True):
        assert np.array_equal(np.asarray(f.realize([W, H])), ours)


@pytest.mark.xdist_group("fused_copy")  # one compile (`_compiled`) for this file's tests
@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_both_and_one_alone_are_bit_exact(simulator, build_dir):
    _before, after, both = _compiled()
    both_outputs = both.check({"input": _image()}, simulator=simulator, build_dir=build_dir).outputs
    alone = after[3].check({"input": _image()}, simulator=simulator, build_dir=build_dir).output
    assert all(np.array_equal(p, q) for p, q in zip(both_outputs, after[0], strict=True))
    assert np.array_equal(alone, after[0][0])
