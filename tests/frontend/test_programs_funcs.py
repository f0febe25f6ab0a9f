"""Small programs over Funcs (boundary conditions, RDom updates, scans, inline reductions, stencils, wrappers,
Params, implicit initialisation, 1-D/2-D/3-D outputs), run with Halide and with mainspring, compared bit for bit.

Each program takes the module (`halide` or `mainspring`) as `hl` plus input arrays and returns
`np.asarray(f.realize(...))`: the same source runs under both. Schedules are Halide's business only (the
reference ignores them), so some programs carry one to show that they are accepted and change nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(7)
IMG = RNG.integers(0, 256, size=(10, 12), dtype=np.uint8)
IMG16 = RNG.integers(0, 1 << 16, size=(10, 12)).astype(np.uint16)
SMALL = RNG.integers(0, 256, size=(5, 7), dtype=np.uint8)
RGB = RNG.integers(0, 256, size=(3, 6, 8), dtype=np.uint8)  # channels, rows, columns (c is Halide's dim 2)


def image(hl, arr, name="input"):
    t = {np.dtype(np.uint8): hl.UInt(8), np.dtype(np.uint16): hl.UInt(16), np.dtype(np.int16): hl.Int(16),
         np.dtype(np.int32): hl.Int(32)}[arr.dtype]
    p = hl.ImageParam(t, arr.ndim, name)
    p.set(hl.Buffer(arr))
    return p


def size_of(arr):
    return [arr.shape[1], arr.shape[0]]


# ---- boundary conditions ---------------------------------------------------------------------------

def p_repeat_edge_blur(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    clamped = hl.BoundaryConditions.repeat_edge(image(hl, a))
    f = hl.Func("f")
    f[x, y] = (hl.u16(clamped[x - 2, y]) + clamped[x + 3, y - 1] + clamped[x, y + 4]) / 3
    return np.asarray(f.realize(size_of(a)))


def p_constant_exterior_wraps_value(hl, a):
    # The exterior value goes through select's coercion: 300 beside a uint8 image is (uint8)44.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    f = hl.Func("f")
    f[x, y] = hl.BoundaryConditions.constant_exterior(A, 300)[x - 3, y + 2] + \
        hl.BoundaryConditions.constant_exterior(A, 7)[x + 1, y - 1]
    return np.asarray(f.realize(size_of(a)))


def p_mirror_image(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    m = hl.BoundaryConditions.mirror_image(image(hl, a))
    f = hl.Func("f")
    f[x, y] = m[x * 3 - 20, y * 2 - 9]  # reaches more than one period away
    return np.asarray(f.realize([20, 15]))


def p_mirror_interior(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    m = hl.BoundaryConditions.mirror_interior(image(hl, a))
    f = hl.Func("f")
    f[x, y] = m[x * 3 - 20, y * 2 - 9]
    return np.asarray(f.realize([20, 15]))


def p_repeat_image(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    m = hl.BoundaryConditions.repeat_image(image(hl, a))
    f = hl.Func("f")
    f[x, y] = m[x * 3 - 20, y * 2 - 9]
    return np.asarray(f.realize([20, 15]))


def p_repeat_image_of_a_func(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    g = hl.Func("g")
    g[x, y] = hl.u16(image(hl, a)[x, y]) + x
    m = hl.BoundaryConditions.repeat_image(g, [(1, 5), (2, 3)])
    f = hl.Func("f")
    f[x, y] = m[x - 7, y - 4]
    return np.asarray(f.realize([16, 11]))


def p_boundary_on_func_with_partial_bounds(hl, a):
    # A Func source needs explicit bounds; with fewer bounds than dimensions the rest are unbounded.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    g = hl.Func("g")
    g[x, y] = A[hl.clamp(x, 0, a.shape[1] - 1), hl.clamp(y, 0, a.shape[0] - 1)] / 2 + x
    e = hl.BoundaryConditions.repeat_edge(g, [(2, 5)])
    m = hl.BoundaryConditions.mirror_image(g, [hl.Range(1, 4), hl.Range(0, 3)])
    f = hl.Func("f")
    f[x, y] = e[x - 3, y] + m[x - 2, y + 1]
    return np.asarray(f.realize([12, 6]))


def p_boundary_on_buffer(hl, a):
    # A Buffer can be read directly and wrapped in a boundary condition, as in Halide.
    x, y = hl.Var("x"), hl.Var("y")
    buf = hl.Buffer(a)
    e = hl.BoundaryConditions.repeat_edge(buf)
    f = hl.Func("f")
    f[x, y] = e[x - 1, y + 1] + buf[hl.clamp(x, 0, a.shape[1] - 1), 0]
    return np.asarray(f.realize([a.shape[1] + 2, a.shape[0]]))


# ---- RDom updates, scans, reductions ------------------------------------------------------------

def p_rdom_update_scatter(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    r = hl.RDom([hl.Range(1, 4)])
    f = hl.Func("f")
    f[x, y] = hl.u16(A[x, y])
    f[r.x * 2, y] = f[r.x * 2, y] * 3 + A[r.x, y]  # writes at computed places, reads A at the rvar
    return np.asarray(f.realize(size_of(a)))


def p_scan_cumulative_sum(hl, a):
    # A scan over x: each step reads the previous one (an update reading its own Func at r.x - 1).
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    r = hl.RDom([hl.Range(1, a.shape[1] - 1)])
    f = hl.Func("f")
    f[x, y] = hl.u16(A[x, y])
    f[r.x, y] = f[r.x - 1, y] + A[r.x, y]
    return np.asarray(f.realize(size_of(a)))


def p_scan_2d_rdom_order(hl, a):
    # A 2-D RDom iterates r.x innermost; the result depends on that order.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    r = hl.RDom([hl.Range(1, a.shape[1] - 1), hl.Range(1, a.shape[0] - 1)])
    f = hl.Func("f")
    f[x, y] = hl.i32(A[x, y])
    f[r.x, r.y] = (f[r.x - 1, r.y] * 3 - f[r.x, r.y - 1] + f[r.x - 1, r.y - 1]) % 1000
    return np.asarray(f.realize(size_of(a)))


def p_big_rdom_pure_lhs(hl, a):
    # A commutative update over many RDom points (scattered at once), then an order-dependent one.
    x = hl.Var("x")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, a.shape[1]), hl.Range(0, a.shape[0])])
    f = hl.Func("f")
    f[x] = hl.u32(x)
    f[x] = f[x] + hl.u32(A[r.x, r.y]) * hl.u32(r.x * r.y + x)
    f[x] = f[x] * 3 + hl.u32(r.y - r.x)
    return np.asarray(f.realize([5]))


def p_histogram(hl, a):
    x = hl.Var("x")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, a.shape[1]), hl.Range(0, a.shape[0])])
    hist = hl.Func("hist")
    hist[x] = hl.u16(0)
    hist[hl.i32(A[r.x, r.y])] += hl.u16(1)
    return np.asarray(hist.realize([256]))


def p_histogram_equalize(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, a.shape[1]), hl.Range(0, a.shape[0])], "r")
    hist = hl.Func("hist")
    hist[x] = 0
    hist[hl.i32(A[r.x, r.y])] += 1
    ri = hl.RDom([hl.Range(1, 255)], "ri")
    cdf = hl.Func("cdf")
    cdf[x] = hist[x]
    cdf[ri.x] = cdf[ri.x - 1] + hist[ri.x]
    f = hl.Func("f")
    f[x, y] = hl.u8(cdf[hl.i32(A[x, y])] * 255 / (a.shape[0] * a.shape[1]))
    return np.asarray(f.realize(size_of(a)))


def p_histogram_realized_smaller(hl, a):
    # Writes of an output's update outside the realized region are not part of the result (Halide's output
    # buffer only holds the region asked for).
    x = hl.Var("x")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, a.shape[1]), hl.Range(0, a.shape[0])])
    hist = hl.Func("hist")
    hist[x] = 0
    hist[hl.i32(A[r.x, r.y]) / 2] += 1
    return np.asarray(hist.realize([64]))


def p_inline_sum_box(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.repeat_edge(image(hl, a))
    r = hl.RDom([hl.Range(-1, 3), hl.Range(-1, 3)])
    f = hl.Func("f")
    f[x, y] = hl.u8(hl.sum(hl.u16(e[x + r.x, y + r.y])) / 9)
    return np.asarray(f.realize(size_of(a)))


def p_inline_max_min(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.mirror_interior(image(hl, a))
    r = hl.RDom([hl.Range(-2, 5), hl.Range(-1, 3)])
    f = hl.Func("f")
    f[x, y] = hl.maximum(e[x + r.x, y + r.y]) - hl.minimum(e[x + r.x, y + r.y])
    return np.asarray(f.realize(size_of(a)))


def p_inline_product_and_sum_wrap(hl, a):
    # Inline reductions keep the type of their argument, so a uint8 sum wraps.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, 3)])
    f = hl.Func("f")
    f[x, y] = hl.product(A[r.x, y] | 1) + hl.sum(A[x, r.x] + x) + hl.sum(r, r.x * y, "named")
    return np.asarray(f.realize([a.shape[1], a.shape[0] - 2]))


def p_rdom_bounds_from_params(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    lo = hl.Param(hl.Int(32), "lo", 2)
    n = hl.Param(hl.Int(32), "n", 3)
    r = hl.RDom([hl.Range(lo, n)])
    f = hl.Func("f")
    f[x, y] = hl.u32(0)
    f[x, y] += hl.u32(A[r.x, y]) * hl.u32(x + 1)
    return np.asarray(f.realize([4, a.shape[0]]))


def p_rdom_over_input_shape(hl, a):
    x = hl.Var("x")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, A.width()), hl.Range(0, A.height())])
    f = hl.Func("f")
    f[x] = hl.u32(x)
    f[x] = f[x] + hl.u32(A[r.x, r.y]) * hl.u32(r.x + r.y)
    return np.asarray(f.realize([3]))


# ---- implicit initialisation and pure updates --------------------------------------------------

def p_update_ops_implicit_init(hl, a):
    # f[...] += e on a Func with no definition first defines it as 0 (1 for *=) of e's type.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    f, g, h = hl.Func("f"), hl.Func("g"), hl.Func("h")
    f[x, y] += A[x, y]
    g[x, y] *= hl.u16(A[x, y]) + 2
    h[x, y] -= A[x, y] / 3
    out = hl.Func("out")
    out[x, y] = hl.u16(f[x, y]) + g[x, y] + h[x, y]
    return np.asarray(out.realize(size_of(a)))


def p_update_ops_on_defined(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    f = hl.Func("f")
    f[x, y] = hl.i16(A[x, y])
    f[x, y] += 5
    f[x, y] -= hl.i16(x)
    f[x, y] *= 3
    f[x, y] = f[x, y] / 2 + hl.i16(y)
    return np.asarray(f.realize(size_of(a)))


def p_implicit_init_with_rdom_lhs(hl, a):
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, 6)])
    f = hl.Func("f")
    f[r.x] += hl.u16(A[r.x, 0])  # pure definition f[_0] = 0 is implicit
    return np.asarray(f.realize([8]))


def p_update_at_constant_and_mixed(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, 4)])
    f = hl.Func("f")
    f[x, y] = hl.u8(x + y)
    f[0, y] = A[0, y]
    f[x, 2] = hl.u8(7)
    f[x, r.x] = f[x, r.x] + A[x, r.x]
    return np.asarray(f.realize([6, 5]))


# ---- multi-stage pipelines, wrappers, shapes ---------------------------------------------------

def p_three_stage_stencil(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.repeat_edge(image(hl, a))
    bx, by, sharp = hl.Func("blur_x"), hl.Func("blur_y"), hl.Func("sharpen")
    bx[x, y] = (hl.u16(e[x - 1, y]) + 2 * hl.u16(e[x, y]) + e[x + 1, y]) / 4
    by[x, y] = (bx[x, y - 1] + 2 * bx[x, y] + bx[x, y + 1]) / 4
    sharp[x, y] = hl.u8(hl.clamp(2 * hl.i32(e[x, y]) - hl.i32(by[x, y]), 0, 255))
    bx.compute_root()
    by.compute_at(sharp, y)
    return np.asarray(sharp.realize(size_of(a)))


def p_stencil_chain_no_boundary(hl, a):
    # Without a boundary condition the output is smaller than the input: the reads stay inside it.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    s1, s2 = hl.Func("s1"), hl.Func("s2")
    s1[x, y] = hl.u16(A[x, y]) + A[x + 1, y] + A[x, y + 1]
    s2[x, y] = s1[x, y] + s1[x + 2, y + 1] - s1[x + 1, y]
    return np.asarray(s2.realize([a.shape[1] - 3, a.shape[0] - 2]))


def p_in_wrappers(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    f, g, h = hl.Func("f"), hl.Func("g"), hl.Func("h")
    f[x, y] = A[x, y] / 2
    g[x, y] = f[x, y] + f[x + 1, y]
    h[x, y] = g[x, y] + f[x, y] * 2
    f.in_(g).compute_root()
    f.in_().compute_root()
    return np.asarray(h.realize([a.shape[1] - 1, a.shape[0]]))


def p_image_in_wrappers(hl, a):
    # ImageParam.in_(): every Func reads the wrapper (scheduled, it changes nothing); in_(g): only g does.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    f, g, h = hl.Func("f"), hl.Func("g"), hl.Func("h")
    f[x, y] = A[x, y] / 2
    g[x, y] = f[x, y] + A[x + 1, y]
    h[x, y] = g[x, y] + A[x, y] * 2
    A.in_(g).compute_root()
    A.in_().compute_root()
    return np.asarray(h.realize([a.shape[1] - 1, a.shape[0]]))


def p_in_wrapper_of_updated_func(hl, a):
    # The update of g reads g itself, not its wrapper.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    g = hl.Func("g")
    g[x, y] = hl.u16(A[x, y])
    g[x, y] += 7
    w = g.in_()
    h = hl.Func("h")
    h[x, y] = w[x, y] * 2 + g[x, y]
    return np.asarray(h.realize(size_of(a)))


def p_func_args_of_narrow_types(hl, a):
    # Narrow (and Bool) arguments are cast to Int(32), as in Halide; a negative int8 index reads below 0.
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    f = hl.Func("f")
    f[x, y] = hl.u16(x) * 3 + y
    g = hl.Func("g")
    g[x, y] = f[A[x, y] / 32, x > 3] + f[hl.i8(x) - 3, hl.u16(y)]
    return np.asarray(g.realize(size_of(a)))


def p_input_with_nonzero_min(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    buf = hl.Buffer(a)
    buf.set_min([2, 3])
    p = hl.ImageParam(hl.UInt(8), 2, "p")
    p.set(buf)
    e = hl.BoundaryConditions.repeat_edge(p)
    f = hl.Func("f")
    f[x, y] = e[x, y] + p[hl.clamp(x, 2, a.shape[1] + 1), 3]
    return np.asarray(f.realize([a.shape[1] + 4, a.shape[0] + 4]))


def p_bool_param(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    flip = hl.Param(hl.Bool(), "flip", True)
    f = hl.Func("f")
    f[x, y] = hl.select(flip, 255 - A[x, y], A[x, y])
    return np.asarray(f.realize(size_of(a)))


def p_realize_1d(hl):
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.u8(x * 37 + 3)
    return np.asarray(f.realize([300]))


def p_realize_3d_rgb(hl, a):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A = image(hl, a)
    gray = hl.Func("gray")
    gray[x, y] = hl.u8((77 * hl.u16(A[x, y, 0]) + 150 * hl.u16(A[x, y, 1]) + 29 * hl.u16(A[x, y, 2])) >> 8)
    f = hl.Func("f")
    f[x, y, c] = hl.select(c == 1, gray[x, y], A[x, y, c] / 2 + hl.mux(c, [hl.u8(1), hl.u8(2), hl.u8(3)]))
    return np.asarray(f.realize([a.shape[2], a.shape[1], 3]))


def p_realize_3d_update(hl, a):
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    A = image(hl, a)
    r = hl.RDom([hl.Range(0, 3)])
    f = hl.Func("f")
    f[x, y, c] = hl.u16(A[x, y, c])
    f[x, y, r.x] = f[x, y, r.x] + f[x, y, (r.x + 1) % 3]
    return np.asarray(f.realize([a.shape[2], a.shape[1], 3]))


def p_same_name_vars_are_one_variable(hl, a):
    # Two Vars with the same name are the same variable; two Funcs with the same name are distinct Funcs.
    A = image(hl, a)
    f1, f2 = hl.Func("f"), hl.Func("f")
    f1[hl.Var("x"), hl.Var("y")] = A[hl.Var("x"), hl.Var("y")] / 2
    f2[hl.Var("x"), hl.Var("y")] = f1[hl.Var("y"), hl.Var("x")] + 1
    return np.asarray(f2.realize([a.shape[0], a.shape[1]]))


def p_input_shape_in_exprs(hl, a):
    x, y = hl.Var("x"), hl.Var("y")
    A = image(hl, a)
    f = hl.Func("f")
    f[x, y] = A[A.width() - 1 - x, hl.clamp(y * 2, 0, A.height() - 1)] + hl.u16(A.width())
    return np.asarray(f.realize(size_of(a)))


def p_harris_like(hl, a):
    # A 9-stage integer corner response (Harris with fixed-point arithmetic).
    x, y = hl.Var("x"), hl.Var("y")
    e = hl.BoundaryConditions.repeat_edge(image(hl, a))
    gray = hl.Func("gray")
    gray[x, y] = hl.i32(e[x, y])
    ix, iy = hl.Func("ix"), hl.Func("iy")
    ix[x, y] = (gray[x + 1, y - 1] + 2 * gray[x + 1, y] + gray[x + 1, y + 1]
                - gray[x - 1, y - 1] - 2 * gray[x - 1, y] - gray[x - 1, y + 1]) / 8
    iy[x, y] = (gray[x - 1, y + 1] + 2 * gray[x, y + 1] + gray[x + 1, y + 1]
                - gray[x - 1, y - 1] - 2 * gray[x, y - 1] - gray[x + 1, y - 1]) / 8
    ixx, iyy, ixy = hl.Func("ixx"), hl.Func("iyy"), hl.Func("ixy")
    ixx[x, y] = ix[x, y] * ix[x, y] / 64
    iyy[x, y] = iy[x, y] * iy[x, y] / 64
    ixy[x, y] = ix[x, y] * iy[x, y] / 64
    r = hl.RDom([hl.Range(-1, 3), hl.Range(-1, 3)])
    sxx, syy, sxy = hl.Func("sxx"), hl.Func("syy"), hl.Func("sxy")
    sxx[x, y] = hl.sum(ixx[x + r.x, y + r.y])
    syy[x, y] = hl.sum(iyy[x + r.x, y + r.y])
    sxy[x, y] = hl.sum(ixy[x + r.x, y + r.y])
    det = sxx[x, y] * syy[x, y] - sxy[x, y] * sxy[x, y]
    trace = sxx[x, y] + syy[x, y]
    out = hl.Func("out")
    out[x, y] = det / 16 - trace * trace / 256
    return np.asarray(out.realize(size_of(a)))


def p_unroll_channels_without_bound(hl, a):
    # unroll(c) of a root Func whose c extent bounds inference fixes at 3 (the output is bounded in c only).
    c, x, y = hl.Var("c"), hl.Var("x"), hl.Var("y")
    inp = image(hl, a)  # numpy [c, y, x]: Halide's dims x, y, c
    f, out = hl.Func("f"), hl.Func("out")
    f[c, x, y] = hl.u16(inp[x, y, c]) * 3
    out[x, y, c] = hl.u8(f[c, x, y] + f[2 - c, x, y])
    out.bound(c, 0, 3)
    f.compute_root().unroll(c)
    return np.asarray(out.realize([a.shape[2], a.shape[1], 3]))


def p_table_sized_by_func_values(hl, a):
    # A table read at a Func's value: Halide bounds the Func's values from its definition (u16(...) >> 8 is in
    # [0, 255]), so the table is realized over [1, 255] and its division by zero at 0 never happens.
    x, y = hl.Var("x"), hl.Var("y")
    inp = image(hl, a)
    gray, table, out = hl.Func("gray"), hl.Func("table"), hl.Func("out")
    gray[x, y] = hl.u16(hl.u16(inp[x, y]) * 200) >> 8
    table[x] = hl.u16(hl.u32(65535) / hl.u32(x))
    out[x, y] = table[hl.max(gray[x, y], hl.u16(1))]
    gray.compute_root()
    table.compute_root()
    return np.asarray(out.realize(size_of(a)))


# ---- implicit variables -------------------------------------------------------------------------

def p_implicit_vars(hl, a):
    # `_` stands for a Func's remaining dimensions: f is 3-D, g and h read it with one or two explicit arguments.
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    f, g, h = hl.Func("f"), hl.Func("g"), hl.Func("h")
    f[x, y, c] = hl.u16(image(hl, a)[x, y, c]) + c
    g[x, hl._] = f[x, hl._] * 2 + f[x + 1, hl._]
    h[x, y, hl._] = g[x, y, hl._] + g[x, y + 1, hl._]  # 2-D here: _ is one variable
    return np.asarray(h.realize([6, 4, 3]))


def p_implicit_vars_of_nothing(hl, a):
    # On a 2-D Func read with both arguments, _ stands for no variable (the reference system's up_sample).
    x, y = hl.Var("x"), hl.Var("y")
    f, g = hl.Func("f"), hl.Func("g")
    f[x, y] = hl.u16(image(hl, a)[x, y])
    g[x, y, hl._] = f[x / 2, y, hl._] / 4 + 3 * f[x / 2 + 1, y, hl._] / 4
    return np.asarray(g.realize([10, 6]))


def p_implicit_vars_on_an_image(hl, a):
    # An ImageParam read with `_` too: all its dimensions, or those after the explicit ones.
    x = hl.Var("x")
    im = image(hl, a)
    f, g = hl.Func("f"), hl.Func("g")
    f[hl._] = hl.u16(im[hl._]) + 1
    g[x, hl._] = f[x, hl._] * 3 + hl.u16(im[x + 1, hl._])
    return np.asarray(g.realize([6, 4, 3]))


def p_compute_at_an_unscheduled_update(hl, a):
    # conv has an update and no schedule: Halide cannot inline it, computes it at out's innermost loop with loops
    # of its own, so Funcs may be computed at those (Halide-to-Hardware's cpu_accel_partition: kernel at conv.x).
    x, y = hl.Var("x"), hl.Var("y")
    g, kernel, conv, out = hl.Func("g"), hl.Func("kernel"), hl.Func("conv"), hl.Func("out")
    r = hl.RDom([(0, 3), (0, 2)])
    g[x, y] = hl.u16(image(hl, a)[x, y]) * 2 + 1
    kernel[x, y] = x + 3 * y
    conv[x, y] += g[x + r.x, y + r.y] * hl.u16(kernel[r.x, r.y])
    out[x, y] = conv[x, y] >> 1
    kernel.compute_at(conv, x)
    g.compute_at(conv, y)
    conv.update().unroll(r.x)
    return np.asarray(out.realize([8, 6]))


PROGRAMS = {
    "implicit_vars": (p_implicit_vars, RGB),
    "implicit_vars_on_an_image": (p_implicit_vars_on_an_image, RGB),
    "implicit_vars_of_nothing": (p_implicit_vars_of_nothing, IMG),
    "unroll_channels_without_bound": (p_unroll_channels_without_bound, RGB),
    "table_sized_by_func_values": (p_table_sized_by_func_values, IMG),
    "repeat_edge_blur": (p_repeat_edge_blur, IMG),
    "constant_exterior_wraps_value": (p_constant_exterior_wraps_value, IMG),
    "mirror_image": (p_mirror_image, SMALL),
    "mirror_interior": (p_mirror_interior, SMALL),
    "repeat_image": (p_repeat_image, SMALL),
    "repeat_image_of_a_func": (p_repeat_image_of_a_func, SMALL),
    "boundary_on_func_with_partial_bounds": (p_boundary_on_func_with_partial_bounds, IMG),
    "boundary_on_buffer": (p_boundary_on_buffer, SMALL),
    "rdom_update_scatter": (p_rdom_update_scatter, IMG),
    "scan_cumulative_sum": (p_scan_cumulative_sum, IMG),
    "scan_2d_rdom_order": (p_scan_2d_rdom_order, IMG),
    "big_rdom_pure_lhs": (p_big_rdom_pure_lhs, RNG.integers(0, 256, size=(30, 40), dtype=np.uint8)),
    "histogram": (p_histogram, IMG),
    "histogram_equalize": (p_histogram_equalize, IMG),
    "histogram_realized_smaller": (p_histogram_realized_smaller, IMG),
    "inline_sum_box": (p_inline_sum_box, IMG),
    "inline_max_min": (p_inline_max_min, SMALL),
    "inline_product_and_sum_wrap": (p_inline_product_and_sum_wrap, IMG),
    "rdom_bounds_from_params": (p_rdom_bounds_from_params, IMG),
    "rdom_over_input_shape": (p_rdom_over_input_shape, SMALL),
    "update_ops_implicit_init": (p_update_ops_implicit_init, IMG),
    "update_ops_on_defined": (p_update_ops_on_defined, IMG),
    "implicit_init_with_rdom_lhs": (p_implicit_init_with_rdom_lhs, IMG),
    "update_at_constant_and_mixed": (p_update_at_constant_and_mixed, IMG),
    "three_stage_stencil": (p_three_stage_stencil, IMG),
    "stencil_chain_no_boundary": (p_stencil_chain_no_boundary, IMG),
    "in_wrappers": (p_in_wrappers, IMG),
    "in_wrapper_of_updated_func": (p_in_wrapper_of_updated_func, IMG),
    "func_args_of_narrow_types": (p_func_args_of_narrow_types, IMG),
    "input_with_nonzero_min": (p_input_with_nonzero_min, SMALL),
    "bool_param": (p_bool_param, SMALL),
    "realize_1d": (p_realize_1d,),
    "realize_3d_rgb": (p_realize_3d_rgb, RGB),
    "realize_3d_update": (p_realize_3d_update, RGB),
    "same_name_vars_are_one_variable": (p_same_name_vars_are_one_variable, IMG),
    "input_shape_in_exprs": (p_input_shape_in_exprs, IMG),
    "harris_like": (p_harris_like, IMG),
    "image_in_wrappers": (p_image_in_wrappers, IMG),
    "compute_at_an_unscheduled_update": (p_compute_at_an_unscheduled_update, IMG),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_halide(name, same_as_halide):
    program, *inputs = PROGRAMS[name]
    same_as_halide(program, *inputs)
