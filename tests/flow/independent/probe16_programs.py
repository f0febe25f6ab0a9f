"""Probe16's programs (session 32), each written in module m (`mainspring`, or `halide`, which gets no hardware
schedule) and returning (output, {name: ImageParam}, size): Funcs of no dimensions as the accelerator's output (a
frame sum accelerated at Halide's root loop), upsamples over a split or GLB-tiled x at 1 and 2 lanes, and hand
schedules after the Halide-to-Hardware generators (/work/shared/h2h) in the spirit of seed 002's advice."""


def _hw(m):
    return m.__name__ == "mainspring"


def _vars(m, names):
    return [m.Var(n) for n in names.split()]


def _funcs(m, names):
    return [m.Func(n) for n in names.split()]


def _input(m, t=None):
    inp = m.ImageParam(t or m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    (hw_input,) = _funcs(m, "hw_input")
    hw_input[x, y] = m.u16(inp[x, y])
    return inp, x, y, hw_input


def _whole(m, hw_output, hw_input, inner=()):
    """hw_output (of no dimensions) accelerated at its only loop level, Halide's root."""
    root = m.Var.outermost()
    hw_output.compute_root().hw_accelerate(root, root)
    for f in inner:
        f.compute_at(hw_output, root)
    hw_input.compute_root().stream_to_accelerator()


# ---- Funcs of no dimensions ------------------------------------------------------------------------------------

def frame_sum(m):
    """total() = the sum of an 8x4 frame, serially over its RDom; the host's output is a u8 of it."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 8), m.Range(0, 4)], "r")
    hw_output[()] = m.u16(0)
    hw_output[()] += hw_input[r.x, r.y]
    output[()] = m.u8(hw_output[()] >> 5)
    if _hw(m):
        _whole(m, hw_output, hw_input)
    return output, {"input": inp}, []


def frame_sum_rows_unrolled(m):
    """A frame sum with r.x unrolled: the 6 pixels of a row summed per step, a row per cycle."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 5)], "r")
    hw_output[()] = m.u16(0)
    hw_output[()] += hw_input[r.x, r.y]
    output[()] = hw_output[()]
    if _hw(m):
        _whole(m, hw_output, hw_input)
        hw_output.update().unroll(r.x)
        hw_input.unroll(x, 6)
    return output, {"input": inp}, []


def inline_sum_of_a_stencil(m):
    """total() = sum(blur_x over 6x4) as an inline reduction (m.sum), blur_x buffered at the root loop."""
    inp, x, y, hw_input = _input(m)
    bx, hw_output, output = _funcs(m, "blur_x hw_output output")
    bx[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    hw_output[()] = m.sum(m.u32(bx[r.x, r.y]))
    output[()] = hw_output[()]
    if _hw(m):
        _whole(m, hw_output, hw_input, (bx,))
    return output, {"input": inp}, []


def max_of_a_frame(m):
    """The brightest pixel of a 7x3 frame (m.maximum), kept 0-D through the host's output."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 7), m.Range(0, 3)], "r")
    hw_output[()] = m.maximum(hw_input[r.x, r.y] * 3 + r.x)
    output[()] = m.u8(hw_output[()] >> 2)
    if _hw(m):
        _whole(m, hw_output, hw_input)
    return output, {"input": inp}, []


# ---- upsamples over a split x ------------------------------------------------------------------------------------

def _upsample(m, w=16, h=8):
    inp, x, y, hw_input = _input(m)
    f, up, hw_output, output = _funcs(m, "f up hw_output output")
    f[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    up[x, y] = f[x / 2, y / 2]
    hw_output[x, y] = m.u8(up[x, y] >> 1)
    output[x, y] = hw_output[x, y]
    return inp, x, y, hw_input, f, up, hw_output, output


def _up_split(m, tile, split, lanes=(1, 1, 1, 1)):
    """lanes: of hw_output (along its split's inner part), up, f and hw_input."""
    inp, x, y, hw_input, f, up, hw_output, output = _upsample(m)
    if _hw(m):
        xo, yo, xi, yi, xs = _vars(m, "xo yo xi yi xs")
        output.bound(x, 0, 16).bound(y, 0, 8)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *tile).hw_accelerate(xi, xo)
        hw_output.split(xi, xi, xs, split)
        for fn, v, k in zip((hw_output, up, f, hw_input), (xs, x, x, x), lanes, strict=True):
            if k > 1:
                fn.unroll(v, k)
        f.compute_at(hw_output, xo)
        up.compute_at(hw_output, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [16, 8]


def up_split_by_8(m):
    """up(x, y) = f(x / 2, y / 2), hw_output.split(xi, xi, xs, 8) over host tiles of 8x4."""
    return _up_split(m, (8, 4), 8)


def up_split_by_3(m):
    """The split (3) does not divide the upsample's step or the tile (8): a RoundUp tail past each tile."""
    return _up_split(m, (8, 8), 3)


def up_split_two_lanes(m):
    """Split by 4, the inner part unrolled by 2, up at 2 lanes, the low-resolution f and the input at 1."""
    return _up_split(m, (16, 8), 4, lanes=(2, 2, 1, 1))


def up_split_lanes_of_whole_steps(m):
    """Split by 4, the inner part unrolled whole (4 lanes), up at 4 lanes, f and the input at 2."""
    return _up_split(m, (16, 8), 4, lanes=(4, 4, 2, 2))


def _up_glb(m, glb_tile, mem_tile, split=None, lanes=1, w=16, h=8):
    inp, x, y, hw_input, f, up, hw_output, output = _upsample(m)
    if _hw(m):
        xo, yo, xi, yi, xio, yio, xii, yii, xs = _vars(m, "xo yo xi yi xio yio xii yii xs")
        output.bound(x, 0, w).bound(y, 0, h)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, *glb_tile).hw_accelerate(xi, xo)
        g.store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, *mem_tile)
        inner = xii
        if split:
            hw_output.split(xii, xii, xs, split)
            inner = xs
        for fn in (f, up):
            fn.compute_at(hw_output, xio)
        copy = hw_input.in_().in_()
        copy.compute_at(hw_output, xio)
        if lanes > 1:
            hw_output.unroll(inner, lanes)
            for fn in (f, up, copy):
                fn.unroll(x, lanes)
        hw_input.in_().compute_at(g, xo)
        hw_input.in_().store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [w, h]


def up_glb_tile_in_tile(m):
    """GLB tiles of 16x8, memory tiles of 8x4 inside them, the memory tile's x split by 4."""
    return _up_glb(m, (16, 8), (8, 4), split=4)


def up_glb_two_lanes(m):
    """The same at 2 lanes (the split's inner part unrolled), over two GLB tiles of 8x8."""
    return _up_glb(m, (8, 8), (8, 4), split=4, lanes=2)


def up_glb_uneven(m):
    """GLB tiles of 12x8 over a 24x8 image, memory tiles of 6x4 (odd halves of the upsample's steps)."""
    return _up_glb(m, (12, 8), (6, 4), w=24)


CASES = {f.__name__: f for f in (
    frame_sum, frame_sum_rows_unrolled, inline_sum_of_a_stencil, max_of_a_frame,
    up_split_by_8, up_split_by_3, up_split_two_lanes, up_split_lanes_of_whole_steps,
    up_glb_tile_in_tile, up_glb_two_lanes, up_glb_uneven,
)}
