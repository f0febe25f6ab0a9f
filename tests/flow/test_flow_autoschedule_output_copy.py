"""use_glb="true" (or a glb_tile) on an algorithm written for a CPU, whose output is its last stage and copies no Func
(issue 8, gaps20): the autoscheduler moves the output's value into `<output>_value`, of which the output becomes a
copy (mainspring/autoschedule_copy.py), so seed 002's GLB level has tiles to copy. The design is bit-exact on Icarus
and equal to Halide 21's realize of the algorithm as written; the schedule's source, which begins with mainspring's
`hl.Pipeline(funcs["blur"]).copy_output()`, pasted onto a fresh copy gives the same design."""

from __future__ import annotations

import re

import numpy as np

import mainspring as hl

W, H = 8, 6


def _algorithm(h):
    """A horizontal 3-tap sum, the image read directly, the output the last stage (no copy Funcs)."""
    x, y = h.Var("x"), h.Var("y")
    inp = h.ImageParam(h.UInt(16), 2, "input")
    blur = h.Func("blur")
    blur[x, y] = inp[x, y] + inp[x + 1, y] + inp[x + 2, y]
    return blur, inp


def _autoscheduled():
    blur, _ = _algorithm(hl)
    blur.set_estimates([(0, W), (0, H)])
    params = hl.AutoschedulerParams("Mainspring", {"glb_tile": "4x3"})
    result = hl.Pipeline(blur).apply_autoscheduler(hl.CGRA(), params)
    return blur, result


def _files(design: hl.Design) -> dict:
    out = dict(design.files())
    out["blur.report.json"] = re.sub(r'"compile_seconds": [0-9.]+', "", out["blur.report.json"])
    return out


def test_a_glb_level_over_an_output_that_copies_no_func_is_bit_exact(build_dir):
    blur, result = _autoscheduled()
    assert 'copied = hl.Pipeline(funcs["blur"]).copy_output()' in result.schedule_source
    assert 'glb = funcs["blur_value"].in_()' in result.schedule_source
    design = hl.compile(blur, name="blur")
    image = (np.arange((W + 2) * H).reshape(H, W + 2) * 37 % 1009).astype(np.uint16)
    inputs = {"input": hl.Buffer(image)}
    design.check(inputs, simulator="icarus", build_dir=build_dir)
    import halide

    out, inp = _algorithm(halide)
    kept = halide.Buffer(image)
    inp.set(kept)
    np.testing.assert_array_equal(design.reference_output(inputs), np.asarray(out.realize([W, H])))

    again, _ = _algorithm(hl)  # pasted into the user's file and called on a fresh copy
    namespace: dict = {}
    exec(result.schedule_source, namespace)
    pipe = hl.Pipeline(again)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    assert _files(hl.compile(again, name="blur")) == _files(design)


def test_copy_output_keeps_the_values_and_makes_the_output_a_copy():
    blur, inp = _algorithm(hl)
    image = (np.arange((W + 2) * H).reshape(H, W + 2) % 251).astype(np.uint16)
    inp.set(hl.Buffer(image))
    want = np.asarray(blur.realize([W, H]))
    copied = hl.Pipeline(blur).copy_output()
    assert sorted(copied.funcs()) == ["blur", "blur_value", "input"]
    np.testing.assert_array_equal(np.asarray(blur.realize([W, H])), want)
