"""Halide's specialize and specialize_fail (frontend/specialize.py): the accelerator is built with the generic
schedule, whose values every version shares; specialize_fail's message fails the design's runs, its reference and
its simulations, where no specialization holds, as Halide's pipeline fails when it runs."""

import numpy as np
import pytest

import mainspring as hl

from conftest import SIMULATORS


def _blur(h, hardware: bool, specialized: bool = True):
    """A 3-tap blur times a gain Param, specialized on the gain as a CPU schedule would be (vectorized when the
    gain is at least 2, unrolled when it is 1), with specialize_fail for any other gain (unless not
    `specialized`)."""
    x, y, xo, yo, xi, yi = (h.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    image, gain = h.ImageParam(h.UInt(16), 2, "image"), h.Param(h.UInt(16), "gain")
    hw_input, blur, hw_output, output = (h.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = image[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y] * 2 + hw_input[x + 2, y]
    hw_output[x, y] = blur[x, y] * gain
    output[x, y] = hw_output[x, y]
    if specialized:
        blur.specialize(gain >= 2).vectorize(x, 4)
        blur.specialize(gain == 1).unroll(x, 2)
        blur.specialize_fail("the gain must be at least 1")
    if hardware:
        output.bound(x, 0, 8).bound(y, 0, 4)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
        blur.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    else:
        blur.compute_root()  # Halide refuses specializations of an inlined Func
    return output, image, gain


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_specialized_design_is_built_with_the_generic_schedule_and_checks_specialize_fail(simulator, build_dir,
                                                                                          halide, compile_shared):
    output, _, _ = _blur(hl, True)
    design = compile_shared(output, name="specialized")
    generic = compile_shared(_blur(hl, True, specialized=False)[0], name="specialized")
    assert design.verilog == generic.verilog  # the specializations change nothing in hardware
    frame = np.random.default_rng(5).integers(0, 4096, (4, 10), dtype=np.uint16)
    theirs, h_image, h_gain = _blur(halide, False)
    for gain in (1, 3):
        res = design.check({"image": frame, "gain": gain}, simulator=simulator, build_dir=build_dir)
        h_image.set(halide.Buffer(frame))
        h_gain.set(gain)
        want = theirs.realize([8, 4])
        assert np.array_equal(res.output, np.array(want))
    with pytest.raises(hl.HalideError, match=r"specialize_fail.* was chosen: the gain must be at least 1$"):
        design.check({"image": frame, "gain": 0}, simulator=simulator, build_dir=build_dir)
    h_gain.set(0)
    with pytest.raises(Exception, match="the gain must be at least 1"):  # Halide raises its own error type
        theirs.realize([8, 4])

