"""Automl17's programs (session 33): DNN layers and channel programs written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set: conv_layer_mobile's algorithm (a depthwise 3x3 of 4 channels, pointwise products pw(k, x, y, c), their
sum over c, ReLU; copy Funcs hw_input and hw_output as its generator writes them), and a 3x3 stride-2 convolution of
one channel to 2 output planes with its weights a 3-D ImageParam.

The findings fixed (autoschedule_planes.py): a planar stream read at its readers' own planes (the depthwise stage's
c) stayed plane after plane wherever a Func made a pixel's channels before x (mobile's pw_conv(k, x, y, c)), so the
sums over c swept the frame per input plane and held a frame of 3 planes: conv_layer_mobile at 16x16 took 1,786 cycles
(its hand design's) for 324 transfers of a pixel's 4 planes; now 332, at the minimum storage, for 56 PEs (the hand
design's 15 under max_pes 15). A Func firing less often than the streams transfer (a stride-2 convolution) kept its
planes serial, and the output, plane after plane, held its second plane whole: 244 cycles for 165 and 153 words for
118 at 7x5, now 183 and 57 for 55. An output whose planes no read moves with (a channel concat `cat(x, y, c) =
select(c == 0, box(x, y), max3(x, y))`) took them one after another at one lane, its stream held: 170 cycles for 130,
691 words for 133 in 9 memory tiles at 13x5; now a pixel's planes a cycle, 112 for 105 and 68 words at the minimum,
for 38 PEs against 21 (max_pes 30: the serial design). The budget's new cut (the planar stream plane after plane,
its Funcs' planes kept) comes before the cut with no planes: a MobileNet block at max_pes 100, 348 cycles for 273 and
150 words for 142 in 5 memory tiles (90 PEs), where the cut with no planes took 413, 253 for 200 in 7 (84 PEs; the
full unroll takes 218). Figures: BENCHMARKS.md "Helper automl17, session 33"."""

from probe_common import estimate, vars_of


def mobile(m, w, h, cin=4, cout=3):
    """conv_layer_mobile's algorithm (shared/h2h/conv_layer_mobile_generator.cpp) at cin input and cout output
    channels, its constant weights Funcs and copy Funcs as the generator writes them."""
    x, y, c, k = vars_of(m, "x y c k")
    inp = m.ImageParam(m.UInt(8), 3, "input")
    filter_dw, filter_pw = m.Func("filter_dw"), m.Func("filter_pw")
    filter_dw[x, y, c] = m.u16(1)
    filter_pw[c, k] = m.u16(3)
    hw_input, dw_conv, pw_conv = m.Func("hw_input"), m.Func("dw_conv"), m.Func("pw_conv")
    pwr, hw_output, out = m.Func("pw_conv_reduction"), m.Func("hw_output"), m.Func("output")
    r_dw = m.RDom([(0, 3), (0, 3)], "r_dw")
    r_pw = m.RDom([(0, cin)], "r_pw")
    hw_input[x, y, c] = m.u16(inp[x, y, c])
    dw_conv[x, y, c] = m.i16(0)
    dw_conv[x, y, c] += m.i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
    pw_conv[k, x, y, c] = m.i16(0)
    pw_conv[k, x, y, c] += m.i16(filter_pw[k, c] * dw_conv[x, y, c])
    pwr[k, x, y] = m.i16(0)
    pwr[k, x, y] += m.i16(pw_conv[k, x, y, r_pw.x])
    hw_output[x, y, k] = m.max(0, pwr[k, x, y])
    out[x, y, k] = m.u8(hw_output[x, y, k])
    estimate(out, w, h, cout)
    return out, {"input": inp}


def mobile_3in_4out(m, w, h):
    return mobile(m, w, h, cin=3, cout=4)


def conv_stride2(m, w, h):
    """3x3 stride-2 convolution of one channel to 2 planes k, weights a 3-D i8 ImageParam w(dx, dy, k), i32."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    wts = m.ImageParam(m.Int(8), 3, "wts")
    x, y, k = vars_of(m, "x y k")
    r = m.RDom([(0, 3), (0, 3)], "r")
    conv, out = m.Func("conv"), m.Func("out")
    conv[x, y, k] = m.i32(0)
    conv[x, y, k] += m.i32(wts[r.x, r.y, k]) * m.i32(inp[2 * x + r.x, 2 * y + r.y])
    out[x, y, k] = m.u8(m.clamp(conv[x, y, k] >> 6, 0, 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp, "wts": wts}


def concat_channels(m, w, h):
    """Channel concat: a 3x3 box of channel 0 and a 3x3 max of channel 1 as the 2 planes of the output (automl16's,
    at one lane)."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    x, y, c = vars_of(m, "x y c")
    box, mx, cat = m.Func("box"), m.Func("mx"), m.Func("cat")
    box[x, y] = m.u8(sum(m.u16(inp[x + i, y + j, 0]) for i in range(3) for j in range(3)) // 9)
    mx[x, y] = m.max(*[inp[x + i, y + j, 1] for i in range(3) for j in range(3)])
    cat[x, y, c] = m.select(c == 0, box[x, y], mx[x, y])
    estimate(cat, w, h, 2)
    return cat, {"inp": inp}


def mobilenet_block(m, w, h):
    """Depthwise 3x3 over 3 channels, weights c + 1, ReLU, then pointwise to 2 channels with its weights selects on
    k, i32."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    x, y, c, k = vars_of(m, "x y c k")
    r = m.RDom([(0, 3), (0, 3)], "r")
    q = m.RDom([(0, 3)], "q")
    dw, relu, pw, out = m.Func("dw"), m.Func("dw_relu"), m.Func("pw"), m.Func("out")
    dw[x, y, c] = m.i32(0)
    dw[x, y, c] += m.i32(inp[x + r.x, y + r.y, c]) * (c + 1)
    relu[x, y, c] = m.clamp(dw[x, y, c] >> 4, 0, 255)
    pw[x, y, k] = m.i32(0)
    pw[x, y, k] += relu[x, y, q.x] * m.select(k == 0, q.x + 1, 3 - q.x)
    out[x, y, k] = m.u8(m.clamp(pw[x, y, k] >> 2, 0, 255))
    estimate(out, w, h, 2)
    return out, {"inp": inp}


# (algorithm, size, autoscheduler keys[, bounds])
AUTO = {"mobile_3in_4out_5x3": (mobile_3in_4out, (5, 3), {}),
        "conv_stride2_7x5": (conv_stride2, (7, 5), {}),
        "concat_channels_13x5": (concat_channels, (13, 5), {}),
        "mobilenet_block_11x5_max_pes_100": (mobilenet_block, (11, 5), {"max_pes": "100"}),
        # the input's line buffer 6 words over its minimum at 2 lanes (48 for 42)
        "conv_stride2_7x5_l2": (conv_stride2, (7, 5), {"lanes": "2"}, {"words_over_min": 6})}

# compiled by test_automl17.py only: h2h_conv_layer_mobile's automatic designs at 8x6 are simulated by
# tests/flow/test_flow_autoschedule_apps.py (by default on both simulators, under max_pes 15 on Icarus)
COMPILED = {"mobile_7x5": (mobile, (7, 5), {}),
            "mobile_7x5_max_pes_15": (mobile, (7, 5), {"max_pes": "15"})}
