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


SMALL = {
    "harris": (harris, {"size": 8}, (14, 14), [8, 8]),
    "gaussian": (gaussian, {"mywidth": 8, "myheight": 6, "host_tiles_x": 2, "host_tiles_y": 1}, (8, 18), [16, 6]),
    "unsharp": (unsharp, {"size": 14}, (3, 14, 14), [8, 8, 3]),
}
