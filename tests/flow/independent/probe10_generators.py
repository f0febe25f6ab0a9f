"""Two reference generators written again from the C++ (../../../../shared/h2h) for probe10 (session 26), with
the schedules the other ports leave out and their sizes as GeneratorParams: gaussian_generator.cpp's schedules
1, 2 (GLB tiles of memory tiles), 6 and 7 (`tile(x, y, xi, xo, yi, yo, ...)`, the C++'s own argument order),
and harris_generator.cpp's schedules 1-8. `make(h)` builds the class in module h (`mainspring` or `halide`);
in Halide the hardware schedule is left out."""

import math


def _hardware(h) -> bool:
    return h.__name__ == "mainspring"


def _gauss_algorithm(h, input_):
    x, y = h.Var("x"), h.Var("y")
    win = h.RDom([h.Range(0, 3), h.Range(0, 3)], "win")
    f = {n: h.Func(n) for n in ("hw_input", "kernel_f", "kernel", "blur_unnormalized", "blur", "hw_output")}
    f["hw_input"][x, y] = h.cast(h.UInt(16), input_[x, y])
    sigma = 1.5
    f["kernel_f"][x] = h.exp(-x * x / (2 * sigma * sigma)) / h.f32(math.sqrt(2 * math.pi) * sigma)
    total = None
    for i in range(3):
        for j in range(3):
            term = f["kernel_f"][i - 1] * f["kernel_f"][j - 1]
            total = term if total is None else total + term
    f["kernel"][x, y] = h.cast(h.UInt(16), f["kernel_f"][x - 1] * f["kernel_f"][y - 1] * 256.0 / total)
    f["blur_unnormalized"][x, y] = h.cast(h.UInt(16), 0)
    f["blur_unnormalized"][x, y] += f["kernel"][win.x, win.y] * f["hw_input"][x + win.x, y + win.y]
    f["blur"][x, y] = f["blur_unnormalized"][x, y] / 256
    f["hw_output"][x, y] = f["blur"][x, y]
    return x, y, win, f


def _gauss_glb(h, gen, x, y, win, f):
    """Schedules 1 (two lanes, the C++'s `unroll(xi, 2)` without a tail strategy) and 2 (one lane)."""
    xo, yo, xi, yi = (h.Var(n) for n in ("xo", "yo", "xi", "yi"))
    s, u = int(gen.schedule), int(gen.unroll)
    tail = (h.TailStrategy.RoundUp,) if gen.roundup else ()
    tw = int(gen.tile)
    th = int(gen.tile_h) or tw
    gw, gh = tw * int(gen.ntiles), th * int(gen.ntiles)
    gen.output.bound(x, 0, int(gen.nhost) * gw).bound(y, 0, int(gen.nhost) * gh)
    out, bu = f["hw_output"].in_(), f["blur_unnormalized"]
    out.compute_root()
    out.tile(x, y, xo, yo, xi, yi, gw, gh).hw_accelerate(xi, xo)
    f["hw_output"].tile(x, y, xo, yo, xi, yi, tw, th)
    f["hw_output"].compute_at(out, xo)
    f["hw_output"].store_in(h.MemoryType.GLB)
    bu.update().unroll(win.x, 3).unroll(win.y, 3)
    bu.compute_at(f["hw_output"], xo)
    f["blur"].compute_at(f["hw_output"], xo)
    f["hw_input"].in_().compute_at(out, xo)
    f["hw_input"].in_().store_in(h.MemoryType.GLB)
    if s == 1:
        out.unroll(xi, u, *tail)
        f["hw_output"].unroll(xi, u, *tail)
        bu.update().unroll(x, u, *tail)
        f["blur"].unroll(x, u, *tail)
        f["hw_input"].in_().unroll(x, u, *tail)
    f["hw_input"].compute_root().accelerator_input()


def make_gaussian(h):
    class Gaussian(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        schedule = h.GeneratorParam(1)
        tile = h.GeneratorParam(10)
        tile_h = h.GeneratorParam(0)  # 0: square tiles, as the C++
        ntiles = h.GeneratorParam(2)
        nhost = h.GeneratorParam(2)
        unroll = h.GeneratorParam(2)
        insize = h.GeneratorParam(16)
        roundup = h.GeneratorParam(False)  # the fix of a tail the unroll factor does not divide

        def generate(self):
            x, y, win, f = _gauss_algorithm(h, self.input)
            self.output[x, y] = h.cast(h.UInt(8), f["hw_output"][x, y])
            s = int(self.schedule)
            if s in (1, 2):
                if _hardware(h):
                    _gauss_glb(h, self, x, y, win, f)
                else:
                    gw = int(self.tile) * int(self.ntiles) * int(self.nhost)
                    gh = (int(self.tile_h) or int(self.tile)) * int(self.ntiles) * int(self.nhost)
                    self.output.bound(x, 0, gw).bound(y, 0, gh)
                return
            n = int(self.insize) - 3 + 1
            self.output.bound(x, 0, n).bound(y, 0, n)
            if not _hardware(h):
                return
            xo, yo, xi, yi = (h.Var(v) for v in ("xo", "yo", "xi", "yi"))
            # the C++'s order: tile(x, y, xi, xo, yi, yo, ...) names the outer x loop xi and the inner x loop yi
            f["hw_output"].compute_root().tile(x, y, xi, xo, yi, yo, n, n)
            if s == 6:
                f["hw_output"].reorder(xi, yi, xo, yo)
            f["hw_output"].hw_accelerate(xi, xo)
            if s == 7:
                f["blur_unnormalized"].update().unroll(win.x).unroll(win.y)
            f["hw_input"].stream_to_accelerator()

    return h.generator(name="probe10_gaussian")(Gaussian)


KERNEL_X = ((-1, -1, -1), (-1, 0, -2), (-1, 1, -1), (1, -1, 1), (1, 0, 2), (1, 1, 1))
KERNEL_Y = ((-1, 1, 1), (0, 1, 2), (1, 1, 1), (-1, -1, -1), (0, -1, -2), (1, -1, -1))


def _sobel(h, s, p, x, y, f):
    r = h.RDom([h.Range(-1, 3), h.Range(-1, 3)], "r")
    gxu, gyu = f["grad_x_unclamp"], f["grad_y_unclamp"]
    if s in (1, 2):
        gxu[x, y] = h.cast(h.Int(16), -p[x - 1, y - 1] + p[x + 1, y - 1] - 2 * p[x - 1, y] + 2 * p[x + 1, y]
                           - p[x - 1, y + 1] + p[x + 1, y + 1])
        gyu[x, y] = h.cast(h.Int(16), p[x - 1, y + 1] - p[x - 1, y - 1] + 2 * p[x, y + 1] - 2 * p[x, y - 1]
                           + p[x + 1, y + 1] - p[x + 1, y - 1])
        return r
    for k, taps in ((f["kernel_x"], KERNEL_X), (f["kernel_y"], KERNEL_Y)):
        k[x, y] = h.i16(0)
        for a, b, v in taps:
            k[a, b] = h.i16(v)
    for g, k in ((gxu, f["kernel_x"]), (gyu, f["kernel_y"])):
        g[x, y] = h.i16(0)
        g[x, y] += p[x + r.x, y + r.y] * h.i16(k[r.x, r.y])
    return r


def _harris_algorithm(h, s, input_):
    x, y = h.Var("x"), h.Var("y")
    names = ("padded", "padded16", "grad_x_unclamp", "grad_y_unclamp", "grad_x", "grad_y", "kernel_x",
             "kernel_y", "lxx", "lyy", "lxy", "lgxx", "lgyy", "lgxy", "cim", "cim_output", "hw_output")
    f = {n: h.Func(n) for n in names}
    f["padded"][x, y] = input_[x + 3, y + 3]
    f["padded16"][x, y] = h.cast(h.Int(16), f["padded"][x, y])
    r = _sobel(h, s, f["padded16"], x, y, f)
    f["grad_x"][x, y] = h.clamp(f["grad_x_unclamp"][x, y], -180, 180)
    f["grad_y"][x, y] = h.clamp(f["grad_y_unclamp"][x, y], -180, 180)
    gx, gy = h.cast(h.Int(16), f["grad_x"][x, y]), h.cast(h.Int(16), f["grad_y"][x, y])
    f["lxx"][x, y] = gx * gx >> 6
    f["lyy"][x, y] = gy * gy >> 6
    f["lxy"][x, y] = gx * gy >> 6
    box = h.RDom([h.Range(-1, 3), h.Range(-1, 3)], "box")
    for lg, lf in (("lgxx", "lxx"), ("lgyy", "lyy"), ("lgxy", "lxy")):
        if s in (1, 2):
            f[lg][x, y] = sum((f[lf][x + i, y + j] for j in (-1, 0, 1) for i in (-1, 0, 1)), h.i16(0))
        else:
            f[lg][x, y] += f[lf][x + box.x, y + box.y]
    a, b, c = f["lgxx"][x, y] >> 6, f["lgyy"][x, y] >> 6, f["lgxy"][x, y] >> 6
    f["cim"][x, y] = a * b - c * c - ((a + b) * (a + b) >> 4)
    cim = f["cim"]
    is_max = cim[x, y] >= 1
    for i, j in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
        is_max = is_max & (cim[x, y] > cim[x + i, y + j])
    f["cim_output"][x, y] = h.cast(h.Int(16), h.select(is_max, 255, 0))
    f["hw_output"][x, y] = f["cim_output"][x, y]
    return x, y, r, box, f


BUFFERED = ("grad_x", "grad_y", "lxx", "lyy", "lxy", "lgxx", "lgyy", "lgxy", "cim", "cim_output")
LANES = ("grad_x_unclamp", "grad_y_unclamp", "lxx", "lyy", "lxy", "lgxx", "lgyy", "lgxy", "cim", "cim_output")


def _harris_unrolls(h, s, x, y, r, box, f):
    """The kernels' and the reductions' unrolls of schedules 3-8."""
    rom = (h.MemoryType.ROM,) if s in (3, 4) else ()
    for k in ("kernel_x", "kernel_y"):
        if rom:
            f[k].store_in(*rom)
        if s == 3:
            f[k].unroll(x, 3).unroll(y, 3)
        else:
            f[k].unroll(x).unroll(y)
    lg = [f[n] for n in ("lgxx", "lgyy", "lgxy")]
    grads = [f["grad_x_unclamp"].update(), f["grad_y_unclamp"].update()]
    if s in (3, 4):
        for g in lg:
            g.unroll(x, 3).unroll(y, 3)
    if s == 4:
        for st in grads:
            st.unroll(r.x)
        for g in lg:
            g.update().unroll(box.x)
    elif s > 4:
        lanes = (x, 2) if s == 6 else None
        for st in grads:
            st.unroll(r.x).unroll(r.y)
            if lanes:
                st.unroll(*lanes)
        for g in lg:
            g.update().unroll(box.x).unroll(box.y)
            if lanes:
                g.update().unroll(*lanes)


def _harris_schedule(h, gen, x, y, r, box, f):
    s, t = int(gen.schedule), int(gen.tile)
    xo, yo, xi, yi = (h.Var(n) for n in ("xo", "yo", "xi", "yi"))
    out = f["cim"] if s == 8 else f["hw_output"]
    f["hw_output"].compute_root()
    tile = {7: (t + 6) * 2 - 6, 8: t + 2}.get(s, t)
    out.compute_root().tile(x, y, xo, yo, xi, yi, tile, tile).hw_accelerate(xi, xo)
    placed = {1: (), 2: ("lgxx", "lgyy", "lgxy"), 6: LANES, 8: BUFFERED[:8]}.get(s, BUFFERED)
    for n in placed:
        f[n].compute_at(out, xo)
    if s > 2:
        f["kernel_x"].compute_at(out, xo)
        f["kernel_y"].compute_at(out, xo)
        _harris_unrolls(h, s, x, y, r, box, f)
    if s == 6:
        f["hw_output"].unroll(xi, 2)
        # the C++ unrolls the stream as `padded16.in().unroll(x, 2)`; mainspring streams padded16 itself
        (f["padded16"] if gen.unroll_streamed else f["padded16"].in_()).unroll(x, 2)
        for n in LANES:
            f[n].unroll(x, 2)
    f["padded16"].stream_to_accelerator()


def make_harris(h):
    class Harris(h.Generator):
        input = h.InputBuffer(h.UInt(8), 2)
        output = h.OutputBuffer(h.UInt(8), 2)
        schedule = h.GeneratorParam(3)
        tile = h.GeneratorParam(58)
        unroll_streamed = h.GeneratorParam(False)  # the fix of schedule 6's unroll of the stream's in_()

        def generate(self):
            s = int(self.schedule)
            x, y, r, box, f = _harris_algorithm(h, s, self.input)
            self.output[x, y] = h.cast(h.UInt(8), f["hw_output"][x, y])
            size = (int(self.tile) + 6) * 2 - 6 if s == 7 else int(self.tile)
            self.output.bound(x, 0, size).bound(y, 0, size)
            if _hardware(h):
                _harris_schedule(h, self, x, y, r, box, f)

    return h.generator(name="probe10_harris")(Harris)
