"""Storage at the exact minimum where streams are read sparsely (session 10): a downsample's input, taps that
read few of a stream's values. Each design is bit-exact on both simulators and its words pinned against the
exact count of live values (`min_words`): a bank read port's output register holds its value in the cycle the
SRAM word is rewritten, so an addressed bank stores its minimum plus one word per read port."""

import pytest

import mainspring as hl

from conftest import SIMULATORS


def _schedule(output, width: int, height: int):
    output.set_estimates([(0, width), (0, height)])
    hl.Pipeline(output).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", {"lanes": "1"}))
    return output


def downsample(width: int = 16, height: int = 3):
    """fuzz --auto seed 91001's algorithm: even pixels of even rows and odd pixels of odd rows, averaged."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(8), 2, "input")
    f0 = hl.Func("f0")
    f0[x, y] = hl.i16((hl.i16(image[2 * x, 2 * y]) + hl.i16(image[2 * x + 1, 2 * y + 1])) >> 1)
    return _schedule(f0, width, height)


def plane_then_plane(width: int = 2, height: int = 1):
    """fuzz --auto seed 91028's: a 3-D image read at two planes, its second plane a row later (streamed plane
    after plane until the automatic schedule streamed such images channels first)."""
    x, y = hl.Var("x"), hl.Var("y")
    image = hl.ImageParam(hl.UInt(16), 3, "input")
    f0 = hl.Func("f0")
    f0[x, y] = hl.select(x < 4, hl.i32(image[x, y, 0]), hl.i32(image[x, y, 0]) + hl.i32(y * 4 - x))
    f1 = hl.Func("f1")
    f1[x, y] = hl.i32(hl.saturating_sub(hl.i32(f0[x + 1, y]), hl.i32(image[x + 2, y + 1, 1])))
    return _schedule(f1, width, height)


def channel_taps(width: int = 2, height: int = 1):
    """fuzz --auto seed 91029's: a stream of two channels, one read where it arrives, the other two rows back."""
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    image = hl.ImageParam(hl.UInt(16), 3, "input")
    hw_input = hl.Func("hw_input")
    hw_input[c, x, y] = hl.i8(image[x, y, c])
    f0 = hl.Func("f0")
    f0[x, y] = hl.i8(hl.min(hw_input[1, x, y + 2], hw_input[2, x + 2, y]))
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = f0[x, y]
    output = hl.Func("output")
    output[x, y] = hw_output[x, y]
    return _schedule(output, width, height)


def _addressed_reads(buf) -> int:
    return sum(len(b.read_ports) for b in buf.banks if b.kind == "addressed")


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_downsample_stores_only_the_pixels_it_reads(simulator, build_dir, compile_shared):
    design = compile_shared(downsample(), name="storage_downsample")
    buf = design.plan.buffer("input_im_global_wrapper")
    (bank,) = buf.banks
    # The odd pixels of odd rows are read as they arrive (a wire); the even pixels of even rows wait a row, in a
    # bank written with only those, at consecutive addresses (a delay line of the row would hold all 32 pixels).
    (w,) = bank.write_ports
    assert bank.kind == "addressed" and [(d.extent, d.step) for d in w.domain] == [(3, 2), (16, 2)]
    assert [r.delay for r in buf.read_ports] == [None, 0]
    assert buf.words == buf.min_words + _addressed_reads(buf) == 17 + 1
    cycles = design.report["predicted_cycles"]
    res = design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir)
    assert res.cycles == cycles


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize(("build", "name"), [(channel_taps, "hw_input")])
def test_a_far_tap_over_few_values_is_an_addressed_bank_of_those(build, name, simulator, build_dir, compile_shared):
    design = compile_shared(build(), name=f"storage_{build.__name__}")
    buf = design.plan.buffer(name)
    (bank,) = buf.banks  # a delay line would hold every value of the stream for the whole delay
    assert bank.kind == "addressed" and bank.words == 2 and _addressed_reads(buf) == 1
    # the write ports (one per channel of the stream), the two values read far and the one read as it arrives
    assert buf.words == len(buf.write_ports) + 2 + 1 and buf.words <= buf.min_words + len(buf.write_ports)
    design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_an_image_read_at_two_planes_streams_a_pixels_planes_together(simulator, build_dir, compile_shared):
    """Seed 91028 again: channels first, both planes of a pixel in one transfer, so the ideal is the pixels'
    count (it was twice that plane after plane)."""
    design = compile_shared(plane_then_plane(), name="storage_planes_together")
    assert dict(design.program.nest.lanes)["input_im_global_wrapper"] == 2
    assert design.report["ideal_cycles"] == 6
    design.check(design.example_inputs(5), simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)
