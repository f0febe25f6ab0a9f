"""Automl16's findings (session 32; the programs, bit-exact on both simulators, are in automl16_programs.py and run
by test_autoprobes.py): the schedules that the fixes give, without compiling."""

import automl16_programs as programs

import mainspring as hl


def _source(case: str) -> str:
    algorithm, size, keys = programs.AUTO[case]
    out = algorithm(hl, *size)[0]
    return hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys)).schedule_source


def test_weights_streamed_and_read_at_the_output_plane_let_the_convolution_unroll_it():
    """conv(x, y, k) += w(r.x, r.y, r.z, k) * in(x + r.x, y + r.y, r.z): w is read at no pixel, so each lane of k
    reads its own weights; k is unrolled in both definitions and the output takes the planes together."""
    source = _source("conv_param_11x5")
    assert 'funcs["conv"].unroll(vars["k"])' in source and 'funcs["conv"].update(0).unroll(vars["k"])' in source
    assert '.reorder(vars["k"], xi, yi, xo, yo).unroll(vars["k"])' in source


def test_a_depthwise_convolution_streams_its_input_channels_first_and_unrolls_its_channels():
    source = _source("depthwise3_13x5")
    assert 'funcs["dw"].update(0).unroll(vars["c"])' in source
    assert 'funcs["inp"].in_().reorder(hl.Var("_2"), hl.Var("_0"), hl.Var("_1")).unroll(hl.Var("_2"))' in source


def test_an_output_reading_its_input_at_its_own_plane_takes_the_planes_together():
    """out(x, y, c) = in(x + 1, y + 1, c) + dw(x, y, c) >> 4: the stream carries a pixel's 3 planes a transfer, dw
    and the output unroll c (337 cycles at 13x5 before, plane after plane; 127 now, 135 words for 132)."""
    source = _source("dw_residual_13x5")
    assert '.reorder(vars["c"], xi, yi, xo, yo).unroll(vars["c"])' in source
    assert 'funcs["inp"].in_().reorder(hl.Var("_2"), hl.Var("_0"), hl.Var("_1")).unroll(hl.Var("_2"))' in source


def test_a_mobilenet_block_unrolls_the_depthwise_channels_and_the_pointwise_outputs():
    source = _source("mobilenet_11x5")
    assert 'funcs["dw"].update(0).unroll(vars["c"])' in source and 'funcs["pw"].update(0).unroll(vars["k"])' in source
    assert 'funcs["pw"].update(0).unroll("q$x")' in source
