"""Algorithms written as a newcomer writes them for a CPU, with no schedule, that the autoscheduler once refused
or compiled into a frame-sized buffer (session 18's probes): each scheduled by `apply_autoscheduler` with its
defaults, bit-exact on both simulators, near its ideal cycles, its storage near the minimum."""

import pytest

import mainspring as hl

from conftest import SIMULATORS


def _demosaic(width, height):
    """Half-resolution colour planes taken from a Bayer mosaic, upsampled back: `r` only copies the image (at 2 *
    x, 2 * y), `g` reads it at two points; with no copy Funcs of the whole image (`r` looked like one), `g` read
    the image directly and the autoscheduler refused. Its stream, read at 2 * x by the half-resolution planes, is
    paced to them (memories/stream_pacing.py): 10 words of 192 at 16x12 (133 when it ran at a word a cycle)."""
    raw = hl.ImageParam(hl.UInt(16), 2, "raw")
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    r, g, b, out = hl.Func("r"), hl.Func("g"), hl.Func("b"), hl.Func("rgb")
    r[x, y] = raw[2 * x, 2 * y]
    g[x, y] = (raw[2 * x + 1, 2 * y] + raw[2 * x, 2 * y + 1]) >> 1
    b[x, y] = raw[2 * x + 1, 2 * y + 1]
    out[x, y, c] = hl.select(c == 0, r[x / 2, y / 2], c == 1, g[x / 2, y / 2], b[x / 2, y / 2])
    out.set_estimates([(0, width), (0, height), (0, 3)])
    return out


def _detail(width, height):
    """A Laplacian-pyramid level: the image minus its blurred, downsampled and upsampled self. All inlined, the
    output read the image at x and at 2 * (x / 2) (refused: no split of its loop makes both affine); the
    downsample `dn`, read at x / 2, is buffered."""
    image = hl.ImageParam(hl.UInt(16), 2, "image")
    x, y = hl.Var("x"), hl.Var("y")
    bl, dn, up, detail = hl.Func("bl"), hl.Func("dn"), hl.Func("up"), hl.Func("detail")
    bl[x, y] = (image[x, y] + image[x + 1, y] + image[x, y + 1] + image[x + 1, y + 1]) >> 2
    dn[x, y] = bl[2 * x, 2 * y]
    up[x, y] = dn[x / 2, y / 2]
    detail[x, y] = image[x, y] - up[x, y]
    detail.set_estimates([(0, width), (0, height)])
    return detail


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
# demosaic: its output takes a pixel's 3 planes a cycle (autoschedule_planes.py `_apart_from_reads`: 213 cycles for
# 632), 3 output words where a plane a cycle held 1
@pytest.mark.parametrize(("algorithm", "size", "most_words"), [(_demosaic, (16, 12), 45), (_detail, (32, 16), 60)])
def test_a_newcomers_algorithm_is_scheduled_and_bit_exact(algorithm, size, most_words, simulator, build_dir,
                                                          compile_shared):
    out = algorithm(*size)
    source = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring")).schedule_source
    design = compile_shared(out, name=algorithm.__name__.strip("_"))
    words = sum(b["words"] for b in design.report["buffers"])
    assert words <= most_words, (words, source)
    res = design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir)
    # or no more than its fill over the ideal (demosaic, 192 cycles of ideal: 213, its first output at 21)
    ideal = design.report["ideal_cycles"]
    assert res.cycles <= max(1.1 * ideal, ideal + design.report["first_output_cycle"]), (res.cycles, ideal)


def test_the_downsample_read_at_a_divided_coordinate_is_buffered():
    source = hl.Pipeline(_detail(32, 16)).apply_autoscheduler(
        hl.CGRA(), hl.AutoschedulerParams("Mainspring")).schedule_source
    assert 'funcs["dn"].compute_at(' in source and 'funcs["up"].compute_at(' not in source
