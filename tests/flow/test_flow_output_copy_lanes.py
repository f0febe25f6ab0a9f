"""The accelerator output with a serial update of its own (`hw_output(x, y) += ...` over an RDom not unrolled)
accumulates in an internal buffer and streams out after (hwlower/output_copy.py). The copy out runs the pure loops
with the unrolled ones innermost (each transfer one firing's lanes side by side), and the pure definition, which
only initialises the internal buffer, runs its lanes along y serially and takes the first update's loops where its
lanes along x are not the update's, so the serial update reads it in boxes: the split form
`split(yi, yio, yii, 2).reorder(yii, xi, yio).unroll(yii)` failed inside memories/ ("not a union of boxes"),
`unroll(yi, 2)` outside xi and `unroll(xi, 2)` were refused (the latter asked for the update to keep pace); all
compile, as Halide accepts them (session 21)."""

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image

from conftest import SIMULATORS


def _serial_sum(width: int, height: int, taps: int, over: str, lanes: str, host: bool, init: bool = False):
    """hw_output(x, y) = 0 (or hw_input(x, y) with `init`); hw_output(x, y) += (r + 1) * hw_input(x + r, y) (or at
    y + r) over `taps`, one accelerator tile of the output (or host tiles of half of it), its lanes: "x"
    (unroll(xi, 2)), "y" (unroll(yi, 2), xi inside), "ysplit" (yii unrolled innermost), "tile" (2x2 unrolled),
    "tile_update" (2x2, the update unrolled by 2 along x)."""
    x, y, xo, yo, xi, yi, yio, yii, xii = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi", "yio", "yii",
                                                                "xii"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_output", "output"))
    hw_input[x, y] = input_[x, y]
    r = hl.RDom([(0, taps)])
    hw_output[x, y] = hw_input[x, y] if init else hl.u16(0)
    tap = hw_input[x + r.x, y] if over == "x" else hw_input[x, y + r.x]
    hw_output[x, y] += tap * hl.u16(r.x + 1)
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, width).bound(y, 0, height)
    tw, th = (width // 2, height // 2) if host else (width, height)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, tw, th).hw_accelerate(xi, xo)
    if lanes == "x":
        hw_output.unroll(xi, 2)
    elif lanes == "y":
        hw_output.unroll(yi, 2)
    elif lanes == "ysplit":
        hw_output.split(yi, yio, yii, 2).reorder(yii, xi, yio).unroll(yii)
    else:
        hw_output.split(xi, xi, xii, 2).split(yi, yi, yii, 2).reorder(xii, yii, xi, yi).unroll(xii).unroll(yii)
    if lanes == "tile_update":
        hw_output.update(0).unroll(x, 2)
    hw_input.compute_root().stream_to_accelerator()
    return output


CASES = [(8, 4, 2, "x", "ysplit", False, False), (8, 4, 2, "x", "y", False, False),
         (12, 6, 3, "y", "ysplit", True, False), (12, 6, 2, "y", "y", True, True),
         (12, 6, 3, "x", "tile_update", False, False), (12, 6, 2, "x", "tile", True, True),
         (8, 4, 3, "y", "x", False, True)]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("width", "height", "taps", "over", "lanes", "host", "init"), CASES,
                         ids=["-".join(map(str, c)) for c in CASES])
def test_an_output_with_a_serial_update_streams_its_lanes(width, height, taps, over, lanes, host, init, simulator,
                                                          compile_shared, build_dir):
    design = compile_shared(_serial_sum(width, height, taps, over, lanes, host, init),
                            name=f"copy_lanes_{width}x{height}_{taps}{over}_{lanes}{'_host' if host else ''}"
                                 f"{'_init' if init else ''}")
    assert design.program.output_lanes == (4 if lanes.startswith("tile") else 2)
    assert any(b["name"] == "hw_output_acc" for b in design.report["buffers"]), design.report["buffers"]
    if lanes == "y":  # the copy's rows moved inside xi (the split form has them there already)
        assert any("innermost" in n for n in design.report["notes"]), design.report["notes"]
    image = random_image(width + taps, height + taps, dtype=np.uint16, seed=width * taps)
    res = design.check({"input": image}, simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
    assert np.asarray(design.reference_output({"input": image})).any()
    assert res.cycles >= design.report["ideal_cycles"]
