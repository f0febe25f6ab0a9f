"""A histogram's reduction unrolled or split (session 29, issue 8): Halide accepts `hist.update().unroll(r.x, 3)`
over 8 columns (an RVar's default tail, GuardWithIf, skips the step past the domain) and an unroll of a histogram
of 4 bins (lanes of registers). Bins in registers add each unrolled step into each bin as one tree (the lanes no
longer read each other's bin); an update that is no accumulation runs its unroll serially, with a note, as a RAM
does (a RAM's unroll(r.x, 3) runs r.x as one serial loop, its split dropped). A serial split that does not divide
r.x guards its last step (hwlower/rvar_tails.py): its reads are guarded and it writes the box's first element with
its own value. Each design bit-exact on both simulators on images that hit one bin everywhere (forwarding between
steps that update one element, the guarded step's element among them), and its reference equal to Halide 21."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS

# (bins, how r.x is scheduled, the update): "unroll3" unroll(r.x, 3); "split3" a serial split by 3
CASES = {
    "bins4_unroll3": (4, "unroll3", "count"),
    "bins4_unroll3_chain": (4, "unroll3", "chain"),
    "bins256_unroll3": (256, "unroll3", "count"),
    "bins256_split3_max": (256, "split3", "max"),
    "bins16_split3_weighted": (16, "split3", "weighted"),
}
W, H = 8, 3


def _histogram(m, bins: int, schedule: str, kind: str):
    """A histogram of the input's upper bits (clamped to `bins` bins) over a W x H image, starting at 1."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    hw_input, hist, hw_output, output = (m.Func(n) for n in ("hw_input", "hist", "hw_output", "output"))
    hw_input[x, y] = m.u16(inp[x, y])
    r = m.RDom([m.Range(0, W), m.Range(0, H)], "r")
    hist[b] = m.u16(1)
    at = m.clamp(m.i32(hw_input[r.x, r.y] >> (9 - bins.bit_length())), 0, bins - 1)
    if kind == "count":
        hist[at] += 1
    elif kind == "weighted":
        hist[at] += (hw_input[r.x, r.y] & 3) + 1
    elif kind == "chain":  # not an accumulation
        hist[at] = hist[at] * 3 + (hw_input[r.x, r.y] & 1)
    else:
        hist[at] = m.max(hist[at], hw_input[r.x, r.y])
    hw_output[b] = hist[b]
    output[b] = hw_output[b]
    if m is hl:
        bo, bi = m.Var("bo"), m.Var("bi")
        output.bound(b, 0, bins)
        hw_output.compute_root().split(b, bo, bi, bins).hw_accelerate(bi, bo)
        hist.compute_at(hw_output, bo)
        hw_input.compute_root().stream_to_accelerator()
    if schedule == "unroll3":
        hist.update().unroll(r.x, 3)
    else:
        hist.update().split(r.x, m.RVar("rxo"), m.RVar("rxi"), 3)
    return output, inp


def _images():
    return {"random": random_image(W, H, seed=29), "zeros": np.zeros((H, W), np.uint8),
            "top": np.full((H, W), 255, np.uint8)}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("case", list(CASES))
def test_a_histogram_unrolled_or_split_not_dividing_is_bit_exact(case, simulator, compile_shared, build_dir):
    bins, schedule, kind = CASES[case]
    design = compile_shared(_histogram(hl, bins, schedule, kind)[0], name=f"hist_{case}")
    serial = [n for n in design.report.get("notes", []) if "runs serially" in n]
    if (bins > 4 and schedule == "unroll3") or kind == "chain":
        (note,) = serial
        assert note.startswith("hist.update(0).unroll(r.x, 3) at ") and ("is a RAM" in note) == (bins > 4), note
    else:
        assert not serial
    for image in _images().values():
        res = design.check({"input": image}, simulator=simulator, build_dir=build_dir)
        assert res.cycles == res.predicted_cycles


@pytest.mark.parametrize("case", list(CASES))
def test_the_reference_of_an_unrolled_histogram_is_halides(case, halide):
    bins, schedule, kind = CASES[case]
    out, _ = _histogram(hl, bins, schedule, kind)
    ref = hl.compile(out, name=f"hist_{case}")
    for image in _images().values():
        hout, hinp = _histogram(halide, bins, schedule, kind)
        hinp.set(halide.Buffer(np.ascontiguousarray(image)))
        want = np.asarray(hout.realize([bins]))
        got = ref.reference_output({"input": image})
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_registers_add_the_unrolled_steps_as_a_tree_and_a_ram_runs_them_serially():
    """4 bins with r.x unrolled by 3: no loop over the unrolled steps is left (one tree per bin), and r.x runs in
    ceil(8 / 3) firings per row; 256 bins: r.x is one serial loop of its 8 steps (the split of the unroll
    dropped with it, so no step past the image)."""
    from mainspring.hwlower import format_program

    lanes = hl.compile(_histogram(hl, 4, "unroll3", "count")[0], name="hist_bins4_unroll3")
    text = format_program(lanes.program)
    assert "r$x.ui" not in text and "for (hist.s1.r$x, 0, 3)" in text, text
    ram = hl.compile(_histogram(hl, 256, "unroll3", "count")[0], name="hist_bins256_unroll3")
    assert "for (hist.s1.r$x, 0, 8)" in format_program(ram.program)
