"""resnet_layer_gen_generator.cpp (resnet_output_stationary in the reference's CI) and conv_layer_mobile."""

import numpy as np
import pytest
from porting import params, rand_image, run

import mainspring as hl

u8, u16, i16 = hl.u8, hl.u16, hl.i16


def resnet(in_img=28, pad=1, ksize=3, stride=1, k_ic=8, k_oc=3, unroll_pure=True, hw_kernel_bound_w=False,
           out_order="default", update_order="default", inner_bounds=True):
    imgsize = (in_img + 2 * pad - ksize) // stride + 1
    x, y, z, w = hl.Var("x"), hl.Var("y"), hl.Var("z"), hl.Var("w")
    input = hl.ImageParam(hl.Int(16), 3, "input")
    kernel = hl.ImageParam(hl.Int(16), 4, "kernel")
    conv = hl.Func("conv")
    r = hl.RDom([(0, ksize), (0, ksize), (0, k_ic)])
    conv[x, y, w] = i16(0)
    hw_input, clamp_input, hw_kernel = hl.Func("hw_input"), hl.Func("clamp_input"), hl.Func("hw_kernel")
    clamp_input[z, x, y] = input[z, hl.clamp(x - pad, 0, in_img - 1), hl.clamp(y - pad, 0, in_img - 1)]
    hw_kernel[z, w, x, y] = i16(kernel[z, w, x, y])
    hw_input[z, x, y] = i16(clamp_input[z, x, y])
    conv[x, y, w] += hw_kernel[r.z, w, r.x, r.y] * hw_input[r.z, stride * x + r.x, stride * y + r.y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y, w] = i16(hl.max(0, conv[x, y, w]))
    output = hl.Func("output")
    output[x, y, w] = hw_output[x, y, w]

    output.bound(x, 0, imgsize)
    output.bound(y, 0, imgsize)
    output.bound(w, 0, k_oc)
    if inner_bounds:
        hw_output.bound(w, 0, k_oc)
        hw_kernel.bound(z, 0, k_ic)
        hw_input.bound(z, 0, k_ic)
    if hw_kernel_bound_w:
        hw_kernel.bound(w, 0, k_oc)
    xi, yi, xo, yo = hl.Var("xi"), hl.Var("yi"), hl.Var("xo"), hl.Var("yo")
    hw_output.compute_root()
    if out_order == "w_inner":  # output channels per transfer (the CoreIR branch's commented-out unroll(w, k_oc))
        hw_output.tile(x, y, xo, yo, xi, yi, imgsize, imgsize).hw_accelerate(xi, xo).reorder(w, xi, yi, xo, yo)
        hw_output.unroll(w, k_oc)
    else:
        hw_output.tile(x, y, xo, yo, xi, yi, imgsize, imgsize).hw_accelerate(xi, xo).reorder(xi, yi, w, xo, yo)
    hw_kernel.reorder_storage(z, w, x, y).reorder(z, w, x, y)
    hw_input.reorder_storage(z, x, y).reorder(z, x, y)
    conv.reorder(w, x, y).reorder_storage(w, x, y)
    if update_order == "rz_first":
        conv.update().reorder(r.z, w, x, y, r.x, r.y)
    elif update_order == "rxy_inner":  # the window inside the pixel loops (output stationary)
        conv.update().reorder(w, r.z, r.x, r.y, x, y)
    else:
        conv.update().reorder(w, r.z, x, y, r.x, r.y)
    if unroll_pure:
        conv.unroll(w, k_oc)
    conv.update().unroll(w, k_oc).unroll(r.z, k_ic)
    conv.compute_at(hw_output, xo)
    hw_input.stream_to_accelerator()
    hw_kernel.stream_to_accelerator()
    rng = np.random.default_rng(15)
    img = rng.integers(-128, 128, size=(in_img, in_img, k_ic)).astype(np.int16)      # input(z, x, y) -> [y, x, z]
    ker = rng.integers(-8, 8, size=(ksize, ksize, k_oc, k_ic)).astype(np.int16)     # kernel(z, w, x, y)
    return output, {"input": img, "kernel": ker}


def resnet_small():
    return resnet(in_img=6)


def resnet_default():
    return resnet(in_img=28)


def resnet_bound_kernel_w():
    return resnet(in_img=6, hw_kernel_bound_w=True)


def resnet_stride2():
    return resnet(in_img=8, stride=2)


def resnet_no_pure_unroll():
    return resnet(in_img=6, unroll_pure=False)


def resnet_ic4_oc2():
    return resnet(in_img=6, k_ic=4, k_oc=2)


# ---------------------------------------------------------------- conv_layer_mobile
def conv_layer_mobile(size=16, num_in_ch=4, num_out_ch=3, k_inner=False, inner_bounds=True):
    x, y, c, k = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("k")
    input = hl.ImageParam(hl.UInt(8), 3, "input")
    hw_input, hw_output = hl.Func("hw_input"), hl.Func("hw_output")
    filter_dw, filter_pw, bias_dw, bias_pw = hl.Func("filter_dw"), hl.Func("filter_pw"), hl.Func("bias_dw"), \
        hl.Func("bias_pw")
    filter_dw[x, y, c] = u16(1)
    filter_pw[c, k] = u16(3)
    bias_dw[c] = u16(0)
    bias_pw[k] = u16(0)
    dw_conv, pw_conv, pw_conv_reduction = hl.Func("dw_conv"), hl.Func("pw_conv"), hl.Func("pw_conv_reduction")
    r_dw = hl.RDom([(0, 3), (0, 3)])
    r_pw = hl.RDom([(0, num_in_ch)])
    hw_input[x, y, c] = u16(input[x, y, c])
    dw_conv[x, y, c] = i16(0)
    dw_conv[x, y, c] += i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw_conv[k, x, y, c] = i16(0)
    pw_conv[k, x, y, c] += i16(filter_pw[k, c] * dw_conv[x, y, c])
    pw_conv_reduction[k, x, y] = i16(0)
    pw_conv_reduction[k, x, y] += i16(pw_conv[k, x, y, r_pw.x])
    hw_output[x, y, k] = hl.max(0, pw_conv_reduction[k, x, y])
    output = hl.Func("output")
    output[x, y, k] = u8(hw_output[x, y, k])

    output.bound(x, 0, size)
    output.bound(y, 0, size)
    output.bound(k, 0, num_out_ch)
    if inner_bounds:
        pw_conv_reduction.bound(x, 0, size)
        pw_conv_reduction.bound(y, 0, size)
        pw_conv.bound(c, 0, num_in_ch)
    xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
    hw_output.compute_root()
    if k_inner:  # the CoreIR branch's order: output channels innermost, stored channel-first
        hw_output.tile(x, y, xo, yo, xi, yi, size, size).reorder(k, xi, yi, xo, yo).reorder_storage(k, x, y) \
            .hw_accelerate(xi, xo)
    else:
        hw_output.tile(x, y, xo, yo, xi, yi, size, size).reorder(xi, yi, k, xo, yo).hw_accelerate(xi, xo)
    filter_dw.compute_at(hw_output, xo).unroll(x).unroll(y).unroll(c)
    filter_pw.compute_at(hw_output, xo).unroll(c).unroll(k)
    bias_dw.compute_at(hw_output, xo).unroll(c)
    bias_pw.compute_at(hw_output, xo).unroll(k)
    pw_conv_reduction.update().reorder(k, x, y, r_pw.x).unroll(k)
    pw_conv_reduction.compute_at(hw_output, xo).store_at(hw_output, xo)
    pw_conv.compute_at(hw_output, xo).store_at(hw_output, xo).reorder(c, x, y, k)
    pw_conv.update().unroll(c).unroll(k)
    dw_conv.compute_at(hw_output, xo).reorder(x, y, c)
    dw_conv.update().reorder(r_dw.x, r_dw.y, x, y, c).unroll(r_dw.x).unroll(r_dw.y).unroll(c)
    hw_input.stream_to_accelerator()
    img = rand_image(size + 2, size + 2, seed=16, channels=num_in_ch)     # input(x, y, c) -> [c, y, x]
    return output, {"input": img}


def conv_layer_mobile_default():
    return conv_layer_mobile(16)


def conv_layer_mobile_small():
    return conv_layer_mobile(6)


def resnet_stride2_12():
    return resnet(in_img=12, stride=2)


def resnet_w_inner_output():
    return resnet(in_img=6, out_order="w_inner")


def resnet_rz_outer_of_w():
    return resnet(in_img=6, update_order="rz_first")


def resnet_output_stationary():
    return resnet(in_img=6, update_order="rxy_inner")


def conv_layer_mobile_k_inner():
    return conv_layer_mobile(6, k_inner=True)


def resnet_no_inner_bounds():  # bounds inference gives z (from r.z) and w (from the output)
    return resnet(in_img=6, inner_bounds=False)


def conv_layer_mobile_no_inner_bounds():
    return conv_layer_mobile(6, inner_bounds=False)


def conv_layer_mobile_3in_4out():
    return conv_layer_mobile(6, num_in_ch=3, num_out_ch=4)


def resnet_ksize1_pad0():
    return resnet(in_img=6, pad=0, ksize=1)


def resnet_pad0():
    return resnet(in_img=8, pad=0)


CASES = {f.__name__: f for f in (
    resnet_small, resnet_default, resnet_bound_kernel_w, resnet_stride2, resnet_no_pure_unroll, resnet_ic4_oc2,
    resnet_w_inner_output, resnet_rz_outer_of_w, resnet_output_stationary,
    conv_layer_mobile_default, conv_layer_mobile_small, conv_layer_mobile_k_inner, resnet_no_inner_bounds,
    conv_layer_mobile_no_inner_bounds, conv_layer_mobile_3in_4out, resnet_ksize1_pad0, resnet_pad0)}
XFAIL: dict = {}
SLOW = ("resnet_default", "resnet_stride2", "conv_layer_mobile_small", "resnet_rz_outer_of_w",
        "conv_layer_mobile_3in_4out", "resnet_stride2_12")


@pytest.mark.parametrize("case,simulator", params(CASES, XFAIL, SLOW), indirect=["simulator"])
def test_dnn(case, simulator):
    run(case, CASES[case], simulator)


@pytest.mark.slow
@pytest.mark.xdist_group("resnet_stride2")  # with test_dnn's resnet_stride2: its compile, timed, is this one's
def test_resnet_stride2_compiles_within_a_minute():
    from porting import compile_design
    design, _ = compile_design("resnet_stride2", resnet_stride2)
    assert design.compile_seconds < 60
