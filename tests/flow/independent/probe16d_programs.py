"""Probe16's last hand schedules: lanes (2, 3 and 4 pixels a cycle) over stencils and GLB levels, harris and conv
layer pieces, 1-D outputs (row and column sums), strided and reversed reads, integer division and wide types, a
scalar Param, and Funcs of no dimensions read by a whole image; in module m (`mainspring`, or `halide`), returning
(output, {name: ImageParam}, size)."""

from probe16_programs import _funcs, _hw, _input, _vars
from probe16b_programs import _tiled
from probe16c_programs import _box3


def _lanes(m, k, size, tile=None):
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi = _tiled(m, output, hw_output, hw_input, size, tile, (bx,))
        hw_output.unroll(xi, k)
        bx.unroll(x, k)
        hw_input.unroll(x, k)
    return output, {"input": inp}, list(size)


def box_two_lanes(m):
    """The 3x3 box at 2 pixels a cycle (output, blur_x and the input unrolled by 2), host tiles of 8x4."""
    return _lanes(m, 2, (16, 8), (8, 4))


def box_four_lanes(m):
    """The same at 4 lanes over one 16x4 tile."""
    return _lanes(m, 4, (16, 4))


def box_three_lanes_odd_tiles(m):
    """3 lanes over tiles of 6x3 on a 12x6 image."""
    return _lanes(m, 3, (12, 6), (6, 3))


def glb_three_lanes(m):
    """A GLB level (tiles 12x6) over memory tiles 6x3 at 3 lanes."""
    inp, x, y, hw_input, bx, hw_output, output = _box3(m)
    if _hw(m):
        xo, yo, xi, yi, xio, yio, xii, yii = _vars(m, "xo yo xi yi xio yio xii yii")
        output.bound(x, 0, 12).bound(y, 0, 6)
        g = hw_output.in_()
        g.compute_root().tile(x, y, xo, yo, xi, yi, 12, 6).hw_accelerate(xi, xo).store_in(m.MemoryType.GLB)
        hw_output.compute_at(g, xo).tile(x, y, xio, yio, xii, yii, 6, 3).unroll(xii, 3)
        bx.compute_at(hw_output, xio).unroll(x, 3)
        hw_input.in_().in_().compute_at(hw_output, xio).unroll(x, 3)
        hw_input.in_().compute_at(g, xo).store_in(m.MemoryType.GLB)
        hw_input.compute_root().accelerator_input()
    return output, {"input": inp}, [12, 6]


def harris_response(m):
    """harris in i16/i32: Sobel-like gradients, their products boxed 3x3, det - trace^2 / 16 thresholded."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, gx, gy, lxx, lyy, lxy, hw_output, output = _funcs(
        m, "hw_input grad_x grad_y lxx lyy lxy hw_output output")
    hw_input[x, y] = m.i16(inp[x, y])
    gx[x, y] = hw_input[x + 2, y + 1] - hw_input[x, y + 1]
    gy[x, y] = hw_input[x + 1, y + 2] - hw_input[x + 1, y]
    prods = ((lxx, gx, gx), (lyy, gy, gy), (lxy, gx, gy))
    for f, a, b in prods:
        f[x, y] = m.i32(a[x, y]) * m.i32(b[x, y]) >> 4
    # by position, not f.name(): Halide renames a Func whose name another Func of the process took ("lxx$1")
    bxx, byy, bxy = (sum(f[x + i, y + j] for i in range(3) for j in range(3)) for f, _, _ in prods)
    det = bxx * byy - bxy * bxy
    tr = bxx + byy
    hw_output[x, y] = m.select(det - (tr * tr >> 4) > 100, m.u8(255), m.u8(0))
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(gx, gy, lxx, lyy, lxy))
    return output, {"input": inp}, [6, 4]


def conv_layer_channels(m):
    """A conv layer piece: output(k, x, y) over 2 output channels, 3 input channels and a 2x2 window, the input
    channels' reduction unrolled, the weights a constant Func."""
    inp = m.ImageParam(m.UInt(8), 3, "input")
    k, x, y, c = m.Var("k"), m.Var("x"), m.Var("y"), m.Var("c")
    hw_input, w, conv, hw_output, output = _funcs(m, "hw_input w conv hw_output output")
    hw_input[c, x, y] = m.u16(inp[x, y, c])
    w[k, c, x, y] = m.u16((k * 3 + c * 5 + x + 2 * y) % 7)
    r = m.RDom([m.Range(0, 3), m.Range(0, 2), m.Range(0, 2)], "r")
    conv[k, x, y] = m.u16(0)
    conv[k, x, y] += w[k, r.x, r.y, r.z] * hw_input[r.x, x + r.y, y + r.z]
    hw_output[k, x, y] = m.u8(conv[k, x, y] >> 3)
    output[x, y, k] = hw_output[k, x, y]
    if _hw(m):
        xo, yo, xi, yi = _vars(m, "xo yo xi yi")
        output.bound(x, 0, 4).bound(y, 0, 3).bound(k, 0, 2)
        hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 3).reorder(k, xi, yi, xo, yo).hw_accelerate(xi, xo)
        conv.compute_at(hw_output, xo).update().unroll(r.x)
        w.compute_at(hw_output, xo)
        hw_input.compute_root().reorder(c, x, y).stream_to_accelerator()
    return output, {"input": inp}, [4, 3, 2]


def row_sums(m):
    """A 1-D output: each row's sum over 8 columns, hw_output(y) split by 2 (hw_accelerate(yi, yo))."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 8)], "r")
    hw_output[y] = m.u16(0)
    hw_output[y] += hw_input[r.x, y]
    output[y] = hw_output[y]
    if _hw(m):
        yo, yi = _vars(m, "yo yi")
        output.bound(y, 0, 6)
        hw_output.compute_root().split(y, yo, yi, 2).hw_accelerate(yi, yo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [6]


def column_sums(m):
    """A 1-D output over x: each column's sum over 4 rows, r.y serial."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    r = m.RDom([m.Range(0, 4)], "r")
    hw_output[x] = m.u16(0)
    hw_output[x] += hw_input[x, r.x]
    output[x] = m.u8(hw_output[x] >> 2)
    if _hw(m):
        xo, xi = _vars(m, "xo xi")
        output.bound(x, 0, 8)
        hw_output.compute_root().split(x, xo, xi, 8).hw_accelerate(xi, xo)
        hw_input.compute_root().stream_to_accelerator()
    return output, {"input": inp}, [8]


def strided_nearest_downsample(m):
    """hw_output(x, y) = hw_input(2x, 2y + 1): every other pixel of every other row."""
    inp, x, y, hw_input = _input(m)
    hw_output, output = _funcs(m, "hw_output output")
    hw_output[x, y] = m.u8(hw_input[2 * x, 2 * y + 1] ^ 0x5a)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (4, 3))
    return output, {"input": inp}, [4, 3]


def mirrored_rows(m):
    """Each row read backwards (hw_input(7 - x, y)) through a buffered copy."""
    inp, x, y, hw_input = _input(m)
    cp, hw_output, output = _funcs(m, "cp hw_output output")
    cp[x, y] = hw_input[x, y] + 1
    hw_output[x, y] = m.u8(cp[7 - x, y])
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (8, 3), inner=(cp,))
    return output, {"input": inp}, [8, 3]


def transpose_tile(m):
    """hw_output(x, y) = hw_input(y, x) over a 4x4 tile (a full buffer of the tile)."""
    inp, x, y, hw_input = _input(m)
    cp, hw_output, output = _funcs(m, "cp hw_output output")
    cp[x, y] = hw_input[x, y]
    hw_output[x, y] = m.u8(cp[y, x])
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (4, 4), inner=(cp,))
    return output, {"input": inp}, [4, 4]


def division_and_modulo(m):
    """Signed division and modulo by 7 and by -3 (Euclidean, as Halide), in i16 and i32."""
    inp = m.ImageParam(m.UInt(8), 2, "input")
    x, y = m.Var("x"), m.Var("y")
    hw_input, hw_output, output = _funcs(m, "hw_input hw_output output")
    hw_input[x, y] = m.i16(inp[x, y]) - 128
    v = hw_input[x, y]
    hw_output[x, y] = m.u8((v / 7 + v % 7 + m.i32(v) / -3 + m.i32(v) % -3) & 0xff)
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4))
    return output, {"input": inp}, [6, 4]


def threshold_param(m):
    """A scalar Param threshold (configuration) selecting between two stencils."""
    inp, x, y, hw_input = _input(m)
    th = m.Param(m.UInt(16), "threshold", 300)
    hw_output, output = _funcs(m, "hw_output output")
    s = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
    hw_output[x, y] = m.select(s > th, m.u8(s >> 2), m.u8(hw_input[x, y]))
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4))
    return output, {"input": inp}, [6, 4]


def normalize_by_frame_max(m):
    """Two passes in the accelerator: the frame's max (a Func of no dimensions computed at xo), then every pixel
    scaled by it."""
    inp, x, y, hw_input = _input(m)
    peak, hw_output, output = _funcs(m, "peak hw_output output")
    r = m.RDom([m.Range(0, 6), m.Range(0, 4)], "r")
    peak[()] = m.maximum(hw_input[r.x, r.y])
    hw_output[x, y] = m.u8(m.u32(hw_input[x, y]) * 255 / m.max(m.u32(peak[()]), 1))
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(peak,))
    return output, {"input": inp}, [6, 4]


def bool_mask_edges(m):
    """A Bool Func (is an edge) computed and buffered, read by a 2-tap count."""
    inp, x, y, hw_input = _input(m)
    edge, hw_output, output = _funcs(m, "edge hw_output output")
    edge[x, y] = m.absd(hw_input[x + 1, y], hw_input[x, y]) > 20
    hw_output[x, y] = m.u8(edge[x, y]) + m.u8(edge[x, y + 1]) * 2
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiled(m, output, hw_output, hw_input, (6, 4), inner=(edge,))
    return output, {"input": inp}, [6, 4]


CASES = {f.__name__: f for f in (
    box_two_lanes, box_four_lanes, box_three_lanes_odd_tiles, glb_three_lanes, harris_response, conv_layer_channels,
    row_sums, column_sums, strided_nearest_downsample, mirrored_rows, transpose_tile, division_and_modulo,
    threshold_param, normalize_by_frame_max, bool_mask_edges,
)}
# large designs (99 PEs; a frame's two passes), simulated on Icarus alone (test_probes.py)
ICARUS_ONLY = ("harris_response", "normalize_by_frame_max")
