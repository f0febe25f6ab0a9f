"""Session 39's fuzz draws (mainspring/fuzz_outputs.py, from a random stream of their own): two outputs (a Tuple
hw_output, or a copy Func computed with hw_output), partial RDom unrolls, Tuple stages (one word, or two past 32
bits), seed 002's GLB level with no GLB input copy, read back along y, with sliding windows or a second input, and
sliding windows in one level. A seed of each kind, simulated on both simulators (and its reference compared with
Halide 21 where installed); the kinds leave the cases of the sessions before as they were; the shrinker takes each
away."""

from __future__ import annotations

import dataclasses
from unittest import mock

import pytest

from mainspring import fuzz, fuzz_outputs

SIMULATORS = ("icarus", "verilator")

# kind -> (seed, a line of the case's source that makes it that kind)
DRAWS = {
    "outputs_tuple": (179745, "hw_output[x, y] = (hl."),  # at 2 lanes
    "outputs_compute_with": (179350, '.compute_with(a["hw_output"], xo)'),
    "partial_x": (179968, '.update().unroll(a["r_f'),
    "partial_y": (179640, '.update().unroll(a["r_f'),
    "tuple_stage_word": (179181, "[0] + hl."),  # at 2 lanes
    "tuple_stage_wide": (179407, "[0] + hl.u32("),  # a u32 value and its half: two words
    "glb_input_loaded": (179793, 'a["hw_input"].compute_root().accelerator_input()'),
    "glb_read_along_y": (179127, "glb.reorder(yi, xi)"),
    "glb_sliding_copy": (179092, 'in_().in_().store_at(a["hw_output"], xio).compute_at(a["hw_output"], yii)'),
    "glb_sliding": (179820, 'store_at(a["hw_output"], xio).compute_at(a["hw_output"], yii)'),  # at 3 lanes
    "sliding": (179072, 'store_at(a["hw_output"], xo).compute_at(a["hw_output"], yi)'),  # at 2 lanes
    # hw_input with its GLB copy, hw_input2 loaded into the GLB as it is
    "glb_second_input": (179531, 'a["hw_input2"].compute_root().accelerator_input()'),
}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("name", DRAWS)
def test_the_session_39_draws_are_bit_exact(name, simulator, build_dir):
    seed, line = DRAWS[name]
    case = fuzz.generate(seed)
    text = fuzz.source(case)
    assert name in fuzz_outputs.outputs_kinds(case) and line in text
    if name == "glb_input_loaded":
        assert "store_in(hl.MemoryType.GLB)" not in text.split('a["hw_input"].in_().in_()')[1]
    got = fuzz.run_case(case, simulator, fuzz._halide() if simulator == "icarus" else None, build_dir=build_dir)
    assert got.kind == "ok", f"{got.kind}: {got.detail}\n{got.source}"


def test_the_session_39_kinds_leave_older_draws_alone():
    """Drawn from a stream of their own: a case is its session-38 draw with only these kinds added."""
    drawn = {k: fuzz.generate(k) for k in range(179000, 179400)}
    kinds = {kind for c in drawn.values() for kind in fuzz_outputs.outputs_kinds(c)}
    assert kinds == set(DRAWS)
    with mock.patch.object(fuzz, "with_outputs", lambda _, case: case):  # the generator as it was before them
        before = {k: fuzz.generate(k) for k in drawn}
    off = {"outputs": "", "glb_more": "", "sliding": False}
    for k, c in drawn.items():
        plain = dataclasses.replace(c, **off, stages=tuple(dataclasses.replace(s, partial="", pair="")
                                                           for s in c.stages))
        plain = dataclasses.replace(plain, second="") if c.variant == "glb" else plain  # (fuzz_wide.py: not in GLB)
        assert plain == before[k]
    assert sum(c != before[k] for k, c in drawn.items()) < len(drawn) / 3  # a modest share of the cases


@pytest.mark.parametrize("name", DRAWS)
def test_the_shrinker_takes_each_kind_away(name):
    case = fuzz.generate(DRAWS[name][0])
    fewer = [fuzz_outputs.outputs_kinds(c) for c in fuzz._simpler(case)]
    assert any(name not in kinds for kinds in fewer)
