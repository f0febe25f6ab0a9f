"""Halide-to-Hardware's unit-test generators (../shared/h2h/*.cpp) as Python Generators, line for line from the
C++: the Clockwork branch of the schedule when `hardware`, the CPU branch otherwise (real Halide has no
hw_accelerate). Each class is written against a module `h` (mainspring or halide). One deviation from the C++:
the generators hard-code their tile size in `generate`; here it is a GeneratorParam `size` whose default is the
C++ constant, so the tests run small tiles."""

from __future__ import annotations


def pointwise(h, hardware: bool):
    class PointwiseMultiplication(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        myunroll = h.GeneratorParam(1)
        myunroll_E64 = h.GeneratorParam(8)  # noqa: N815 - the C++ name
        myunroll_E64_MB = h.GeneratorParam(16)  # noqa: N815 - the C++ name
        size = h.GeneratorParam(64)

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            hw_input, hw_output = h.Func("hw_input"), h.Func("hw_output")
            mult = h.Func("mult")
            hw_input[x, y] = h.cast(h.UInt(16), self.input[x, y])
            mult[x, y] = hw_input[x, y] * 2
            hw_output[x, y] = mult[x, y]
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                mult.compute_root()
                return
            xi, yi, xo, yo = h.vars("xi yi xo yo")
            unroll = self.myunroll  # the C++ reads E64_MODE_ON from the environment; the default mode here
            self.output.bound(x, 0, self.size)
            self.output.bound(y, 0, self.size)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, self.size, self.size).hw_accelerate(xi, xo)
            hw_output.unroll(xi, unroll)
            mult.compute_at(hw_output, xo).unroll(x, unroll)
            hw_input.stream_to_accelerator()
            hw_input.unroll(x, unroll)  # the C++'s hw_input.in().unroll(x, unroll): Halide refuses it (inline)

    return h.generator(name="pointwise")(PointwiseMultiplication)


def conv_3_3(h, hardware: bool):
    class ConvolutionKernel(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        size = h.GeneratorParam(64)
        ksize = 3

        def generate(self):
            tilesize_x = tilesize_y = self.size - self.ksize + 1
            x, y = h.Var("x"), h.Var("y")
            kernel, conv = h.Func("kernel"), h.Func("conv")
            r = h.RDom([h.Range(0, self.ksize), h.Range(0, self.ksize)])
            kernel[x, y] = 0
            kernel[0, 0] = 11
            kernel[0, 1] = 12
            kernel[0, 2] = 13
            kernel[1, 0] = 0
            kernel[1, 1] = 0
            kernel[1, 2] = 16
            kernel[2, 0] = 17
            kernel[2, 1] = 18
            kernel[2, 2] = 19
            conv[x, y] = h.u16(0)
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.u16(self.input[x, y])
            conv[x, y] += h.u16(kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
            hw_output = h.Func("hw_output")
            hw_output[x, y] = conv[x, y]
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                kernel.compute_at(self.output, x)
                conv.update().unroll(r.x).unroll(r.y)
                return
            xi, yi, xo, yo = h.vars("xi yi xo yo")
            self.output.bound(x, 0, tilesize_x)
            self.output.bound(y, 0, tilesize_y)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, tilesize_x, tilesize_y).hw_accelerate(xi, xo)
            kernel.compute_at(hw_output, xo)
            conv.compute_at(hw_output, xo)
            conv.update().unroll(r.x, self.ksize).unroll(r.y, self.ksize)
            hw_input.stream_to_accelerator()

    return h.generator(name="conv_3_3")(ConvolutionKernel)


def accumulation(h, hardware: bool):
    ksize = 3

    class MemTestAccumulation(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        size = h.GeneratorParam(64)

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            kernel, conv = h.Func("kernel"), h.Func("conv")
            r = h.RDom([h.Range(0, ksize), h.Range(0, ksize)], "r")
            kernel[x] = x
            conv[x, y] = h.u16(0)
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.u16(self.input[x, y])
            conv[x, y] += h.u16(kernel[r.x + 3 * r.y]) * hw_input[x + r.x, y + r.y]
            hw_output = h.Func("hw_output")
            hw_output[x, y] = h.u8(conv[x, y])
            self.output[x, y] = h.u8(hw_output[x, y])
            if not hardware:
                self.output.compute_root()
                return
            xi, yi, xo, yo = h.vars("xi yi xo yo")
            self.output.bound(x, 0, self.size - ksize + 1)
            self.output.bound(y, 0, self.size - ksize + 1)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, self.size - ksize + 1, self.size - ksize + 1) \
                .hw_accelerate(xi, xo)
            conv.store_at(hw_output, xo).compute_at(hw_output, xo)
            kernel.compute_at(conv, x)
            kernel.unroll(x, 9)
            hw_input.stream_to_accelerator()

    return h.generator(name="accumulation")(MemTestAccumulation)


def up_sample(h, hardware: bool):
    class NearestNeighborKernel(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        size = h.GeneratorParam(124)

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            nearest_neighbor = h.Func("nearest_neighbor")
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.cast(h.UInt(16), self.input[x + 1, y + 1])
            upx = h.Func("upx")  # the C++ also declares an unused upy
            upx[x, y, h._] = hw_input[(x / 2) - 1 + 2 * (x % 2), y, h._] / 4 + 3 * hw_input[x / 2, y, h._] / 4
            nearest_neighbor[x, y, h._] = upx[x, (y / 2) - 1 + 2 * (y % 2), h._] / 4 + 3 * upx[x, y / 2, h._] / 4
            hw_output = h.Func("hw_output")
            hw_output[x, y] = nearest_neighbor[x, y]
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                nearest_neighbor.compute_root()
                return
            xi, yi, xo, yo = h.vars("xi yi xo yo")
            osize = self.size
            self.output.bound(x, 0, osize)
            self.output.bound(y, 0, osize)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, osize, osize).hw_accelerate(xi, xo)
            hw_input.stream_to_accelerator()

    return h.generator(name="up_sample")(NearestNeighborKernel)


def down_sample(h, hardware: bool):
    class MaxPoolKernel(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        size = h.GeneratorParam(32)

        def generate(self):
            stride = 2
            x, y = h.Var("x"), h.Var("y")
            max_pool = h.Func("max_pool")
            r = h.RDom([h.Range(0, stride), h.Range(0, stride)])
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.u16(self.input[x, y])
            max_pool[x, y] = h.maximum(hw_input[x * stride + r.x, y * stride + r.y])
            hw_output = h.Func("hw_output")
            hw_output[x, y] = max_pool[x, y]
            self.output[x, y] = h.u8(hw_output[x, y])
            if not hardware:
                max_pool.compute_root()
                return
            xi, yi, xo, yo = h.vars("xi yi xo yo")
            self.output.bound(x, 0, self.size)
            self.output.bound(y, 0, self.size)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, self.size, self.size).hw_accelerate(xi, xo)
            max_pool.compute_at(hw_output, xo)
            hw_input.stream_to_accelerator()

    return h.generator(name="down_sample")(MaxPoolKernel)


def rom(h, hardware: bool):
    gamma, contrast = 1.0, 1.0

    class UnitTestROM(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        size = h.GeneratorParam(64)

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.cast(h.Int(16), self.input[x, y]) * h.i16(7)  # large rom (1024)
            curve, lookup = h.Func("curve"), h.Func("lookup")
            xf = x / h.f32(1024.0)
            g = h.pow(xf, h.f32(1.0 / gamma))
            b = h.f32(2.0) - h.f32(2.0 ** (contrast / 100.0))
            a = h.f32(2.0) - h.f32(2.0) * b
            val = h.select(g > 0.5, 1.0 - (a * (1.0 - g) * (1.0 - g) + b * (1.0 - g)), a * g * g + b * g)
            curve[x] = h.cast(h.UInt(16), h.clamp(val * 256.0, 0.0, 255.0))
            in_val = h.clamp(hw_input[x, y], h.i16(0), h.i16(1023))
            lookup[x, y] = curve[in_val]
            hw_output = h.Func("hw_output")
            hw_output[x, y] = lookup[x, y]
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                self.output.compute_root()
                return
            xi, yi, xo, yo = h.vars("xi yi xo yo")
            self.output.bound(x, 0, self.size)
            self.output.bound(y, 0, self.size)
            hw_output.compute_root()
            hw_output.tile(x, y, xo, yo, xi, yi, self.size, self.size).hw_accelerate(xi, xo)
            curve.compute_at(hw_output, yi).unroll(x)  # synthesize curve to a ROM
            hw_input.stream_to_accelerator()

    return h.generator(name="rom")(UnitTestROM)


def histogram(h, hardware: bool):
    class MemTestHistogram(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 1)
        size = h.GeneratorParam(64)  # the C++'s inimgsize

        def generate(self):
            inimgsize = self.size
            x, y, b = h.Var("x"), h.Var("y"), h.Var("b")
            hw_input = h.Func("hw_input")
            hw_input[x, y] = h.u16(self.input[x, y])
            bin_, hist = h.Func("bin"), h.Func("histogram")
            width = height = inimgsize
            r = h.RDom([h.Range(0, width), h.Range(0, height)])
            bin_[x, y] = h.clamp(h.i32(hw_input[x, y] & 0xF), 0, 15)  # take the lower 4 bits
            hist[b] = h.u16(0)
            hist[bin_[r.x, r.y]] += h.u16(1)
            hw_output = h.Func("hw_output")
            hw_output[b] = hist[b]
            self.output[b] = h.u8(hw_output[b])
            if not hardware:
                self.output.compute_root()
                return
            bo, bi = h.Var("bo"), h.Var("bi")
            hist.bound_extent(b, 16)
            self.output.bound(b, 0, 16)
            hw_output.compute_root()
            hw_output.split(b, bo, bi, 16).hw_accelerate(bi, bo)
            bin_.compute_at(hw_output, bo)
            hw_input.stream_to_accelerator()

    return h.generator(name="histogram")(MemTestHistogram)


def three_level_memory(h, hardware: bool):
    class ThreeLevelMemory(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        size = h.GeneratorParam(62)  # the C++'s tilesize; its GLB tile is 4x4 of them

        def generate(self):
            x, y = h.Var("x"), h.Var("y")
            kernel, conv = h.Func("kernel"), h.Func("conv")
            r = h.RDom([h.Range(0, 3), h.Range(0, 3)])
            kernel[x, y] = 1
            hw_input = h.Func("hw_input")
            input_host, input_gb = h.Func("input_host"), h.Func("input_gb")
            input_host[x, y] = h.u16(self.input[x, y])  # store this in the host
            input_gb[x, y] = input_host[x, y]  # store this in the gb
            hw_input[x, y] = input_gb[x, y]  # store this in a mem tile
            conv[x, y] += hw_input[x + r.x, y + r.y]
            hw_output, output_gb = h.Func("hw_output"), h.Func("output_gb")
            output_gb[x, y] = conv[x, y]
            hw_output[x, y] = output_gb[x, y]
            self.output[x, y] = h.cast(h.UInt(8), hw_output[x, y])
            if not hardware:
                return
            x_host, y_host, x_gb, y_gb, x_cgra, y_cgra = h.vars("x_host y_host x_gb y_gb x_cgra y_cgra")
            xi, yi = h.Var("xi"), h.Var("yi")
            tilesize = self.size
            gbsize = tilesize * 4
            hw_output.compute_root()
            self.output.bound(x, 0, gbsize)  # 1 glb tile
            self.output.bound(y, 0, gbsize)
            hw_output.tile(x, y, x_host, y_host, xi, yi, gbsize, gbsize).hw_accelerate(xi, x_host)
            output_gb.compute_at(hw_output, x_host)  # global buffer
            output_gb.tile(x, y, x_gb, y_gb, x_cgra, y_cgra, tilesize, tilesize)
            conv.update().unroll(r.x).unroll(r.y)
            conv.compute_at(output_gb, x_gb)  # memtile
            kernel.compute_at(output_gb, x_gb)
            input_host.compute_root()  # host buffer
            input_host.accelerator_input()
            input_gb.compute_at(hw_output, x_host)  # global buffer
            hw_input.compute_at(output_gb, x_gb)  # mem tile

    return h.generator(name="three_level_memory")(ThreeLevelMemory)


# name -> (port, small GeneratorParams, input shape (rows, columns) for them, output extent(s) for Halide)
SMALL = {
    "pointwise": (pointwise, {"size": 8}, (8, 8), [8, 8]),
    "pointwise_unrolled": (pointwise, {"size": 8, "myunroll": 2}, (8, 8), [8, 8]),
    "conv_3_3": (conv_3_3, {"size": 10}, (10, 10), [8, 8]),
    "accumulation": (accumulation, {"size": 10}, (10, 10), [8, 8]),
    "up_sample": (up_sample, {"size": 8}, (6, 6), [8, 8]),
    "down_sample": (down_sample, {"size": 6}, (12, 12), [6, 6]),
    "rom": (rom, {"size": 8}, (8, 8), [8, 8]),
    "histogram": (histogram, {"size": 8}, (8, 8), [16]),
    "three_level_memory": (three_level_memory, {"size": 4}, (18, 18), [16, 16]),
}
