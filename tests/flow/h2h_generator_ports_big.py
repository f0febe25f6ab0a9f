"""Halide-to-Hardware's paper apps (../shared/h2h/*.cpp) as Python Generators, line for line from the C++'s
Clockwork branch (`hardware`), written against a module `h` (mainspring or halide). Without `hardware` they have
no schedule (the C++'s CPU branches tile at the full size, which a small test image does not have). Deviations:
sizes the C++ hard-codes in `generate` are GeneratorParams with the C++ constant as default."""

from __future__ import annotations

import math


def harris(h, hardware: bool):
    block_size, shiftk, threshold = 3, 4, 1

    class HarrisCornerDetector(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        schedule = h.GeneratorParam(0)
        size = h.GeneratorParam(58)  # the C++'s tileSize_x, tileSize_y

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            xo, yo, xi, yi = h.Var("xo"), h.Var("yo"), h.Var("xi"), h.Var("yi")
            padded, padded16 = h.Func("padded"), h.Func("padded16")
            padded[x, y] = self.input[x + 3, y + 3]
            padded16[x, y] = h.cast(h.Int(16), padded[x, y])
            grad_x_unclamp, grad_y_unclamp = h.Func("grad_x_unclamp"), h.Func("grad_y_unclamp")
            grad_x, grad_y = h.Func("grad_x"), h.Func("grad_y")
            kernel_x, kernel_y = h.Func("kernel_x"), h.Func("kernel_y")
            r = h.RDom([h.Range(-1, 3), h.Range(-1, 3)])
            kernel_x[x, y] = h.i16(0)
            for (i, j), w in {(-1, -1): -1, (-1, 0): -2, (-1, 1): -1, (1, -1): 1, (1, 0): 2, (1, 1): 1}.items():
                kernel_x[i, j] = h.i16(w)
            kernel_y[x, y] = h.i16(0)
            for (i, j), w in {(-1, 1): 1, (0, 1): 2, (1, 1): 1, (-1, -1): -1, (0, -1): -2, (1, -1): -1}.items():
                kernel_y[i, j] = h.i16(w)
            grad_x_unclamp[x, y] = h.i16(0)
            grad_x_unclamp[x, y] += padded16[x + r.x, y + r.y] * h.i16(kernel_x[r.x, r.y])
            grad_y_unclamp[x, y] = h.i16(0)
            grad_y_unclamp[x, y] += padded16[x + r.x, y + r.y] * h.i16(kernel_y[r.x, r.y])
            grad_x[x, y] = h.clamp(grad_x_unclamp[x, y], -180, 180)  # 180^2 cannot overflow 15 bits
            grad_y[x, y] = h.clamp(grad_y_unclamp[x, y], -180, 180)
            lxx, lyy, lxy = h.Func("lxx"), h.Func("lyy"), h.Func("lxy")
            lxx[x, y] = h.cast(h.Int(16), grad_x[x, y]) * h.cast(h.Int(16), grad_x[x, y]) >> 6
            lyy[x, y] = h.cast(h.Int(16), grad_y[x, y]) * h.cast(h.Int(16), grad_y[x, y]) >> 6
            lxy[x, y] = h.cast(h.Int(16), grad_x[x, y]) * h.cast(h.Int(16), grad_y[x, y]) >> 6
            lgxx, lgyy, lgxy = h.Func("lgxx"), h.Func("lgyy"), h.Func("lgxy")
            box = h.RDom([h.Range(-(block_size // 2), block_size), h.Range(-(block_size // 2), block_size)])
            lgxx[x, y] += lxx[x + box.x, y + box.y]
            lgyy[x, y] += lyy[x + box.x, y + box.y]
            lgxy[x, y] += lxy[x + box.x, y + box.y]
            lgxx8, lgyy8, lgxy8 = lgxx[x, y] >> 6, lgyy[x, y] >> 6, lgxy[x, y] >> 6
            cim = h.Func("cim")
            det = lgxx8 * lgyy8 - lgxy8 * lgxy8
            cim[x, y] = det - ((lgxx8 + lgyy8) * (lgxx8 + lgyy8) >> shiftk)
            c = cim[x, y]
            is_max = ((c > cim[x - 1, y - 1]) & (c > cim[x, y - 1]) & (c > cim[x + 1, y - 1]) & (c > cim[x - 1, y])
                      & (c > cim[x + 1, y]) & (c > cim[x - 1, y + 1]) & (c > cim[x, y + 1])
                      & (c > cim[x + 1, y + 1]))
            cim_output, hw_output = h.Func("cim_output"), h.Func("hw_output")
            cim_output[x, y] = h.cast(h.Int(16), h.select(is_max & (c >= threshold), 255, 0))
            hw_output[x, y] = cim_output[x, y]
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                return
            hw_output.compute_root()
            # the default schedule (the C++'s else: schedule 5 with all buffers, one pixel per cycle)
            hw_output.tile(x, y, xo, yo, xi, yi, self.size, self.size).hw_accelerate(xi, xo)
            for f in (lxx, lyy, lxy, lgxx, lgyy, lgxy, cim, cim_output, kernel_x, kernel_y):
                f.compute_at(hw_output, xo)
            kernel_x.unroll(x).unroll(y)
            kernel_y.unroll(x).unroll(y)
            grad_x_unclamp.compute_at(hw_output, xo)
            grad_y_unclamp.compute_at(hw_output, xo)
            grad_x_unclamp.update().unroll(r.x).unroll(r.y)
            grad_y_unclamp.update().unroll(r.x).unroll(r.y)
            lgxx.update().unroll(box.x).unroll(box.y)
            lgyy.update().unroll(box.x).unroll(box.y)
            lgxy.update().unroll(box.x).unroll(box.y)
            padded16.stream_to_accelerator()
            self.output.bound(x, 0, self.size)
            self.output.bound(y, 0, self.size)

    return h.generator(name="harris")(HarrisCornerDetector)


def gaussian(h, hardware: bool):
    block_size = 3

    class GaussianBlur(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        schedule = h.GeneratorParam(3)
        mywidth = h.GeneratorParam(62)
        myunroll = h.GeneratorParam(2)
        myheight = h.GeneratorParam(196)  # the C++'s tileHeight
        host_tiles_x = h.GeneratorParam(16)  # the C++'s numHostTilesX
        host_tiles_y = h.GeneratorParam(20)  # the C++'s numHostTilesY

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            xo, yo, xi, yi = h.Var("xo"), h.Var("yo"), h.Var("xi"), h.Var("yi")
            win = h.RDom([h.Range(0, block_size), h.Range(0, block_size)])
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.cast(h.UInt(16), self.input[x, y])
            kernel_f = h.Func("kernel_f")
            sigma = 1.5
            kernel_f[x] = h.exp(-x * x / (2 * sigma * sigma)) / h.f32(math.sqrt(2 * math.pi) * sigma)
            kernel = h.Func("kernel")
            sum_kernel: list = []
            for i in range(block_size):
                for j in range(block_size):
                    term = kernel_f[i - block_size // 2] * kernel_f[j - block_size // 2]
                    sum_kernel.append(term if not sum_kernel else term + sum_kernel[-1])
            kernel[x, y] = h.cast(h.UInt(16), kernel_f[x - block_size // 2] * kernel_f[y - block_size // 2]
                                  * 256.0 / sum_kernel[-1])
            blur_unnormalized, blur = h.Func("blur_unnormalized"), h.Func("blur")
            blur_unnormalized[x, y] = h.cast(h.UInt(16), 0)
            blur_unnormalized[x, y] += kernel[win.x, win.y] * hw_input[x + win.x, y + win.y]
            blur[x, y] = blur_unnormalized[x, y] / 256
            hw_output = h.Func("hw_output")
            hw_output[x, y] = blur[x, y]
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                return
            assert self.schedule == 3, "ported: the default schedule"
            unroll, tile_width, tile_height = self.myunroll, self.mywidth, self.myheight
            glb_width, glb_height = tile_width, tile_height
            self.output.bound(x, 0, self.host_tiles_x * glb_width)
            self.output.bound(y, 0, self.host_tiles_y * glb_height)
            hw_output.in_().compute_root()
            hw_output.in_().tile(x, y, xo, yo, xi, yi, glb_width, glb_height).hw_accelerate(xi, xo)
            hw_output.in_().unroll(xi, unroll, h.TailStrategy.RoundUp)
            hw_output.in_().store_in(h.MemoryType.GLB)
            xii, yii, xio, yio = h.Var("xii"), h.Var("yii"), h.Var("xio"), h.Var("yio")
            hw_output.tile(x, y, xio, yio, xii, yii, tile_width, tile_height)
            hw_output.compute_at(hw_output.in_(), xo)
            hw_output.unroll(xii, unroll, h.TailStrategy.RoundUp)
            blur.compute_at(hw_output, xio)
            blur.unroll(x, unroll, h.TailStrategy.RoundUp)
            blur_unnormalized.update().unroll(win.x, block_size).unroll(win.y, block_size)
            blur_unnormalized.update().unroll(x, unroll, h.TailStrategy.RoundUp)
            blur_unnormalized.unroll(x, unroll, h.TailStrategy.RoundUp)
            blur_unnormalized.compute_at(hw_output, xio)
            hw_input.in_().in_().compute_at(hw_output, xio)  # represents the mem tile
            hw_input.in_().in_().unroll(x, unroll, h.TailStrategy.RoundUp)
            hw_input.in_().compute_at(hw_output.in_(), xo)
            hw_input.in_().store_in(h.MemoryType.GLB)
            hw_input.in_().unroll(x, unroll, h.TailStrategy.RoundUp)
            hw_input.compute_root().accelerator_input()

    return h.generator(name="gaussian")(GaussianBlur)



def unsharp(h, hardware: bool):
    block_size = 7

    def mul1(a, b):
        return h.i16((h.i32(a) * h.i32(b)) >> 8)

    class UnsharpFilter(h.Generator):
        input = h.InputBuffer(h.UInt(8), 3)
        output = h.OutputBuffer(h.UInt(8), 3)
        schedule = h.GeneratorParam(0)
        myunroll = h.GeneratorParam(3)
        mywidth = h.GeneratorParam(126)
        size = h.GeneratorParam(64)  # the C++'s 64 in tilesize = 64 - blockSize + 1

        def generate(self):
            tilesize = self.size - block_size + 1
            c, x, y = h.Var("c"), h.Var("x"), h.Var("y")
            xo, yo, xi, yi = h.Var("xo"), h.Var("yo"), h.Var("xi"), h.Var("yi")
            kernel_f = h.Func("kernel_f")
            sigma = 1.5
            kernel_f[x] = h.exp(-1.0 * x * x / (2 * sigma * sigma)) / h.f32(math.sqrt(2 * math.pi) * sigma)
            kernel = h.Func("kernel")
            sum_kernel: list = []
            for i in range(block_size):
                for j in range(block_size):
                    term = kernel_f[i - block_size // 2] * kernel_f[j - block_size // 2]
                    sum_kernel.append(term if not sum_kernel else term + sum_kernel[-1])
            kernel[x, y] = h.cast(h.UInt(16), kernel_f[x] * kernel_f[y] * 256.0 / sum_kernel[-1])
            hw_input = h.Func("hw_input")
            hw_input[c, x, y] = h.cast(h.UInt(16), self.input[x + block_size // 2, y + block_size // 2, c])
            gray = h.Func("gray")
            gray[x, y] = h.cast(h.UInt(16), (77 * h.cast(h.UInt(16), hw_input[0, x, y])
                                             + 150 * h.cast(h.UInt(16), hw_input[1, x, y])
                                             + 29 * h.cast(h.UInt(16), hw_input[2, x, y])) >> 8)
            blur_unnormalized, blur = h.Func("blur_unnormalized"), h.Func("blur")
            win = h.RDom([h.Range(-(block_size // 2), block_size), h.Range(-(block_size // 2), block_size)])
            blur_unnormalized[x, y] += h.u16(kernel[win.x, win.y] * gray[x + win.x, y + win.y])
            blur[x, y] = h.u16(h.clamp(h.u8(blur_unnormalized[x, y] / 256), 0, 255))
            sharpen = h.Func("sharpen")
            sharpen[x, y] = h.u16(h.clamp(2 * h.i16(gray[x, y]) - h.i16(blur[x, y]), 0, 255))
            ratio, rom_div_lookup = h.Func("ratio"), h.Func("rom_div_lookup")
            rom_div_lookup[x] = h.u16(h.u32(1 << 8) / h.u32(x))
            divisor, reciprocal = h.Func("divisor"), h.Func("reciprocal")
            divisor[x, y] = h.max(gray[x, y], h.u16(1))  # take max so no div by 0
            reciprocal[x, y] = rom_div_lookup[divisor[x, y]]
            ratio[x, y] = sharpen[x, y] * reciprocal[x, y]
            hw_output = h.Func("hw_output")
            hw_output[c, x, y] = mul1(ratio[x, y], hw_input[c, x, y])
            self.output[x, y, c] = h.u8(hw_output[c, x, y])
            self.output.bound(c, 0, 3)
            if not hardware:
                return
            # the default schedule (the C++'s else)
            self.output.bound(x, 0, tilesize)
            self.output.bound(y, 0, tilesize)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, tilesize, tilesize).reorder(xi, yi, xo, yo).hw_accelerate(xi, xo)
            hw_output.unroll(c)  # hw output bound
            hw_input.unroll(c)  # the C++'s hw_input.in().unroll(c): Halide refuses it (an inline wrapper)
            ratio.compute_at(hw_output, xo)
            reciprocal.compute_at(hw_output, xo)  # we don't want this memory
            rom_div_lookup.compute_at(hw_output, xo).unroll(x)  # synthesize lookup to a ROM (8.8 output)
            sharpen.compute_at(hw_output, xo)
            blur_unnormalized.compute_at(hw_output, xo)
            blur_unnormalized.update().unroll(win.x).unroll(win.y)
            gray.fifo_depth(hw_output, tilesize * 9)  # hw input bounds
            gray.compute_at(hw_output, xo)
            hw_input.stream_to_accelerator()

    return h.generator(name="unsharp")(UnsharpFilter)



def resnet_layer_gen(h, hardware: bool):
    class ResnetKernel(h.Generator):
        input = h.InputBuffer(h.Int(16), 3)
        kernel = h.InputBuffer(h.Int(16), 4)
        output = h.OutputBuffer(h.Int(16), 3)
        in_img = h.GeneratorParam(28)
        pad = h.GeneratorParam(1)
        ksize = h.GeneratorParam(3)
        stride = h.GeneratorParam(1)
        k_ic = h.GeneratorParam(8)
        k_oc = h.GeneratorParam(3)

        def generate(self):
            imgsize = (self.in_img + 2 * self.pad - self.ksize) // self.stride + 1
            x, y, z, w = h.Var("x"), h.Var("y"), h.Var("z"), h.Var("w")
            conv = h.Func("conv")
            r = h.RDom([h.Range(0, self.ksize), h.Range(0, self.ksize), h.Range(0, self.k_ic)])
            conv[x, y, w] = h.i16(0)
            hw_input, clamp_input = h.Func("hw_input"), h.Func("clamp_input")
            clamp_input[z, x, y] = self.input[z, h.clamp(x - self.pad, 0, self.in_img - 1),
                                              h.clamp(y - self.pad, 0, self.in_img - 1)]
            hw_kernel = h.Func("hw_kernel")
            hw_kernel[z, w, x, y] = h.i16(self.kernel[z, w, x, y])
            hw_input[z, x, y] = h.i16(clamp_input[z, x, y])
            conv[x, y, w] += hw_kernel[r.z, w, r.x, r.y] * hw_input[r.z, self.stride * x + r.x,
                                                                    self.stride * y + r.y]
            hw_output = h.Func("hw_output")
            hw_output[x, y, w] = h.i16(h.max(0, conv[x, y, w]))
            self.output[x, y, w] = hw_output[x, y, w]
            if not hardware:
                conv.compute_root()
                conv.update().unroll(r.x, 3).unroll(r.y, 3)
                return
            self.output.bound(x, 0, imgsize)
            self.output.bound(y, 0, imgsize)
            self.output.bound(w, 0, self.k_oc)
            hw_output.bound(w, 0, self.k_oc)
            hw_kernel.bound(z, 0, self.k_ic)
            hw_input.bound(z, 0, self.k_ic)
            xi, yi, xo, yo = h.Var("xi"), h.Var("yi"), h.Var("xo"), h.Var("yo")
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, imgsize, imgsize).hw_accelerate(xi, xo) \
                .reorder(xi, yi, w, xo, yo)
            hw_kernel.reorder_storage(z, w, x, y).reorder(z, w, x, y)
            hw_input.reorder_storage(z, x, y).reorder(z, x, y)
            conv.reorder(w, x, y).reorder_storage(w, x, y)
            conv.update().reorder(w, r.z, x, y, r.x, r.y)
            conv.unroll(w, self.k_oc)
            conv.update().unroll(w, self.k_oc).unroll(r.z, self.k_ic)  # channel weight stationary
            conv.compute_at(hw_output, xo)
            hw_input.stream_to_accelerator()
            hw_kernel.stream_to_accelerator()

    return h.generator(name="resnet_layer_gen")(ResnetKernel)


def conv_layer_mobile(h, hardware: bool):
    class ConvolutionLayer(h.Generator):
        input = h.InputBuffer(h.UInt(8), 3)
        output = h.OutputBuffer(h.UInt(8), 3)
        size = h.GeneratorParam(16)  # the C++'s output and tile size

        def generate(self):
            num_in_ch, num_out_ch, size = 4, 3, self.size
            hw_input, hw_output = h.Func("hw_input"), h.Func("hw_output")
            x, y, c, k = h.Var("x"), h.Var("y"), h.Var("c"), h.Var("k")
            filter_dw, filter_pw = h.Func("filter_dw"), h.Func("filter_pw")
            bias_dw, bias_pw = h.Func("bias_dw"), h.Func("bias_pw")
            filter_dw[x, y, c] = h.u16(1)
            filter_pw[c, k] = h.u16(3)
            bias_dw[c] = h.u16(0)
            bias_pw[k] = h.u16(0)
            dw_conv, pw_conv = h.Func("dw_conv"), h.Func("pw_conv")
            pw_conv_reduction = h.Func("pw_conv_reduction")
            r_dw = h.RDom([h.Range(0, 3), h.Range(0, 3)])
            r_pw = h.RDom([h.Range(0, num_in_ch)])
            hw_input[x, y, c] = h.u16(self.input[x, y, c])
            dw_conv[x, y, c] = h.i16(0)
            dw_conv[x, y, c] += h.i16(filter_dw[r_dw.x, r_dw.y, c] * hw_input[x + r_dw.x, y + r_dw.y, c])
            pw_conv[k, x, y, c] = h.i16(0)
            pw_conv[k, x, y, c] += h.i16(filter_pw[k, c] * dw_conv[x, y, c])
            pw_conv_reduction[k, x, y] = h.i16(0)
            pw_conv_reduction[k, x, y] += h.i16(pw_conv[k, x, y, r_pw.x])
            hw_output[x, y, k] = h.max(0, pw_conv_reduction[k, x, y])
            self.output[x, y, k] = h.u8(hw_output[x, y, k])
            if not hardware:
                return
            self.output.bound(x, 0, size)
            self.output.bound(y, 0, size)
            self.output.bound(k, 0, num_out_ch)  # output channel
            pw_conv_reduction.bound(x, 0, size)
            pw_conv_reduction.bound(y, 0, size)
            pw_conv.bound(c, 0, num_in_ch)
            xo, xi, yo, yi = h.Var("xo"), h.Var("xi"), h.Var("yo"), h.Var("yi")
            hw_output.compute_root()
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

    return h.generator(name="conv_layer_mobile")(ConvolutionLayer)


def bayer_demosaic(h, x, y, c, interleave_x, interleave_y, planes: tuple):
    """camera_pipeline's demosaic, line for line from the C++ (tests/flow/independent/test_camera.py's port calls it
    too): `planes` are the Funcs g_gr, r_r, b_b, g_gb (defined) and b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b
    (defined here); the Bayer planes interleaved into RGB, `demosaicked`(x, y, c)."""
    g_gr, r_r, b_b, g_gb, b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b = planes

    def avg(a, b):
        return (a + b) >> 1

    gv_r, gvd_r = avg(g_gb[x, y - 1], g_gb[x, y]), h.absd(g_gb[x, y - 1], g_gb[x, y])
    gh_r, ghd_r = avg(g_gr[x + 1, y], g_gr[x, y]), h.absd(g_gr[x + 1, y], g_gr[x, y])
    g_r[x, y] = h.select(ghd_r < gvd_r, gh_r, gv_r)
    gv_b, gvd_b = avg(g_gr[x, y + 1], g_gr[x, y]), h.absd(g_gr[x, y + 1], g_gr[x, y])
    gh_b, ghd_b = avg(g_gb[x - 1, y], g_gb[x, y]), h.absd(g_gb[x - 1, y], g_gb[x, y])
    g_b[x, y] = h.select(ghd_b < gvd_b, gh_b, gv_b)
    correction = g_gr[x, y] - avg(g_r[x, y], g_r[x - 1, y])
    r_gr[x, y] = correction + avg(r_r[x - 1, y], r_r[x, y])
    correction = g_gr[x, y] - avg(g_b[x, y], g_b[x, y - 1])
    b_gr[x, y] = correction + avg(b_b[x, y], b_b[x, y - 1])
    correction = g_gb[x, y] - avg(g_r[x, y], g_r[x, y + 1])
    r_gb[x, y] = correction + avg(r_r[x, y], r_r[x, y + 1])
    correction = g_gb[x, y] - avg(g_b[x, y], g_b[x + 1, y])
    b_gb[x, y] = correction + avg(b_b[x, y], b_b[x + 1, y])
    correction = g_b[x, y] - avg(g_r[x, y], g_r[x - 1, y + 1])
    rp_b = correction + avg(r_r[x, y], r_r[x - 1, y + 1])
    rpd_b = h.absd(r_r[x, y], r_r[x - 1, y + 1])
    correction = g_b[x, y] - avg(g_r[x - 1, y], g_r[x, y + 1])
    rn_b = correction + avg(r_r[x - 1, y], r_r[x, y + 1])
    rnd_b = h.absd(r_r[x - 1, y], r_r[x, y + 1])
    r_b[x, y] = h.select(rpd_b < rnd_b, rp_b, rn_b)
    correction = g_r[x, y] - avg(g_b[x, y], g_b[x + 1, y - 1])
    bp_r = correction + avg(b_b[x, y], b_b[x + 1, y - 1])
    bpd_r = h.absd(b_b[x, y], b_b[x + 1, y - 1])
    correction = g_r[x, y] - avg(g_b[x + 1, y], g_b[x, y - 1])
    bn_r = correction + avg(b_b[x + 1, y], b_b[x, y - 1])
    bnd_r = h.absd(b_b[x + 1, y], b_b[x, y - 1])
    b_r[x, y] = h.select(bpd_r < bnd_r, bp_r, bn_r)
    r = interleave_y(interleave_x(r_gr, r_r), interleave_x(r_b, r_gb))
    g = interleave_y(interleave_x(g_gr, g_r), interleave_x(g_b, g_gb))
    b = interleave_y(interleave_x(b_gr, b_r), interleave_x(b_b, b_gb))
    demosaicked = h.Func("demosaicked")
    demosaicked[x, y, c] = h.select(c == 0, r[x, y], c == 1, g[x, y], b[x, y])
    return demosaicked


def camera_pipeline(h, hardware: bool):
    block_size = 9
    x, y, c, xo, yo, xi, yi = h.Var("x"), h.Var("y"), h.Var("c"), h.Var("xo"), h.Var("yo"), h.Var("xi"), h.Var("yi")
    matrix = [[549, -103, 7, -10221], [-96, 373, 62, -7254], [-31, -261, 883, -5563]]

    def interleave_x(a, b):
        out = h.Func("interleave_x")
        out[x, y] = h.select((x % 2) == 0, a[x / 2, y], b[x / 2, y])
        return out

    def interleave_y(a, b):
        out = h.Func("interleave_y")
        out[x, y] = h.select((y % 2) == 0, a[x, y / 2], b[x, y / 2])
        return out

    def hot_pixel_suppression(input_):
        denoised = h.Func("denoised")
        max_value = h.max(h.max(input_[x - 2, y], input_[x + 2, y]), h.max(input_[x, y - 2], input_[x, y + 2]))
        denoised[x, y] = h.clamp(input_[x, y], 0, max_value)
        return denoised

    def mul1(a, b):
        return h.i16((h.i32(a) * h.i32(b)) >> 8)

    def color_correct(input_, m):
        ir = h.clamp(input_[x, y, 0], 0, 10000)
        ig = h.clamp(input_[x, y, 1], 0, 10000)
        ib = h.clamp(input_[x, y, 2], 0, 10000)
        r = (m[0][3] >> 8) + mul1(m[0][0], ir) + mul1(m[0][1], ig) + mul1(m[0][2], ib)
        g = (m[1][3] >> 8) + mul1(m[1][0], ir) + mul1(m[1][1], ig) + mul1(m[1][2], ib)
        b = (m[2][3] >> 8) + mul1(m[2][0], ir) + mul1(m[2][1], ig) + mul1(m[2][2], ib)
        corrected = h.Func("corrected")
        corrected[x, y, c] = h.select(c == 0, r, c == 1, g, b)
        return corrected

    def apply_curve(input_, curve):
        curved = h.Func("curved")
        in_val = h.clamp(input_[x, y, c], h.u16(0), h.u16(1023))
        curved[x, y, c] = curve[h.u16(in_val)]
        return curved

    class CameraPipeline(h.Generator):
        input = h.InputBuffer(h.UInt(16), 2)
        output = h.OutputBuffer(h.UInt(8), 3)
        gamma = h.GeneratorParam(2.0)
        contrast = h.GeneratorParam(50.0)
        schedule = h.GeneratorParam(0)
        width = h.GeneratorParam(0)
        myunroll = h.GeneratorParam(2)
        size = h.GeneratorParam(64)  # the C++'s 64 in its tile size 64 - blockSize + 1

        def generate(self):
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.u16(self.input[x + (block_size - 1) // 2, y + (block_size - 1) // 2])
            denoised = hot_pixel_suppression(hw_input)
            r_r, g_gr, g_gb, b_b = h.Func("r_r"), h.Func("g_gr"), h.Func("g_gb"), h.Func("b_b")
            g_gr[x, y] = denoised[2 * x, 2 * y]
            r_r[x, y] = denoised[2 * x + 1, 2 * y]
            b_b[x, y] = denoised[2 * x, 2 * y + 1]
            g_gb[x, y] = denoised[2 * x + 1, 2 * y + 1]
            b_r, g_r, b_gr, r_gr = h.Func("b_r"), h.Func("g_r"), h.Func("b_gr"), h.Func("r_gr")
            b_gb, r_gb, r_b, g_b = h.Func("b_gb"), h.Func("r_gb"), h.Func("r_b"), h.Func("g_b")
            demosaicked = bayer_demosaic(h, x, y, c, interleave_x, interleave_y,
                                         (g_gr, r_r, b_b, g_gb, b_r, g_r, b_gr, r_gr, b_gb, r_gb, r_b, g_b))
            color_corrected = color_correct(demosaicked, matrix)
            curve = h.Func("curve")
            xf = h.clamp(h.cast(h.Float(32), x) / 1024.0, 0.0, 1.0)
            g = h.pow(xf, h.f32(1.0 / self.gamma))
            b = h.f32(2.0 - 2.0 ** (self.contrast / 100.0))
            a = 2.0 - 2.0 * b
            val = h.select(g > 0.5, 1.0 - (a * (1.0 - g) * (1.0 - g) + b * (1.0 - g)), a * g * g + b * g)
            curve[x] = h.u16(h.clamp(val * 256.0, 0.0, 255.0))
            hw_output = h.Func("hw_output")
            curve_out = apply_curve(color_corrected, curve)
            hw_output[c, x, y] = curve_out[x, y, c]
            self.output[x, y, c] = h.u8(hw_output[c, x, y])
            self.output.bound(c, 0, 3)
            if not hardware:
                return
            tile = self.size - block_size + 1  # the default schedule (the C++'s else)
            self.output.bound(x, 0, tile)
            self.output.bound(y, 0, tile)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, tile, tile).reorder(c, xi, yi, xo, yo).reorder_storage(c, x, y) \
                .hw_accelerate(xi, xo)
            hw_output.unroll(c)
            curve_out.compute_at(hw_output, xo)
            curve_out.unroll(c)
            color_corrected.compute_at(hw_output, xo)
            color_corrected.unroll(c)
            demosaicked.compute_at(hw_output, xo)
            demosaicked.unroll(c)
            denoised.compute_at(hw_output, xo)
            for f in (g_gr, r_r, b_b, g_gb):
                f.compute_at(hw_output, xo)
            curve.compute_at(hw_output, xo).unroll(x)  # synthesize curve to a ROM
            hw_input.stream_to_accelerator()

    return h.generator(name="camera_pipeline")(CameraPipeline)

SMALL = {
    "harris": (harris, {"size": 8}, (14, 14), [8, 8]),
    "gaussian": (gaussian, {"mywidth": 8, "myheight": 6, "host_tiles_x": 2, "host_tiles_y": 1}, (8, 18), [16, 6]),
    "resnet_layer_gen": (resnet_layer_gen, {"in_img": 6, "k_ic": 2, "k_oc": 2},
                         {"input": ((6, 6, 2), "int16", -64, 64), "kernel": ((3, 3, 2, 2), "int16", -16, 16)},
                         [6, 6, 2]),
    "conv_layer_mobile": (conv_layer_mobile, {"size": 6}, (4, 8, 8), [6, 6, 3]),
    "camera_pipeline": (camera_pipeline, {"size": 16}, {"input": ((18, 18), "uint16", 0, 1024)}, [8, 8, 3]),
    "unsharp": (unsharp, {"size": 14}, (3, 14, 14), [8, 8, 3]),
}
