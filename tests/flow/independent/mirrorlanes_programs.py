"""Algorithms reading the image through mirror_image, mirror_interior or repeat_image along x, with no schedule,
for the autoscheduler's `lanes` key (session 29), also under GLB tiles; AUTO lists the cases test_autoprobes.py runs.
Each is written in module m (`mainspring` or Halide 21). hwlower streams such an input extended by the host and reads
it at the affine x inside (hwlower/edges.py), so its rate is that x's; they had stayed at one lane ("a computed
coordinate along x"). A Func computed inside read through a mirror keeps one lane and the note."""

from probe_common import xy


def emboss_mirror_image(m, w, h):
    """A 3x3 emboss (i16) of the image read through mirror_image in x and y."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_image(inp)
    out = m.Func("emboss")
    out[x, y] = (m.i16(c[x + 1, y + 1]) + c[x + 1, y] + c[x, y + 1]) - (m.i16(c[x - 1, y - 1]) + c[x - 1, y] +
                                                                         c[x, y - 1])
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def wrap_blur(m, w, h):
    """A 1-2-1 blur along x (u16) of the image tiled by repeat_image: the first column reads the last."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_image(inp, [(0, w), (0, h)])
    out = m.Func("wrap_blur")
    out[x, y] = m.u16(c[x - 1, y]) + 2 * m.u16(c[x, y]) + c[x + 1, y]
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def mirror_blur_xy(m, w, h):
    """A 5-tap blur along x then a 3-tap one along y (u16) of the image through mirror_interior."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    c = m.BoundaryConditions.mirror_interior(inp, [(0, w), (0, h)])
    bx, out = m.Func("bx"), m.Func("mirror_blur_xy")
    bx[x, y] = m.u16(c[x - 2, y]) + c[x - 1, y] + c[x, y] + c[x + 1, y] + c[x + 2, y]
    out[x, y] = (bx[x, y - 1] + 2 * bx[x, y] + bx[x, y + 1]) >> 3
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def blur_of_mirrored_blur(m, w, h):
    """A 1-2-1 blur along x of a Func computed inside (a 1-2-1 blur of the image) read through mirror_image."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = xy(m)
    c = m.BoundaryConditions.repeat_edge(inp, [(0, w), (0, h)])
    bx, out = m.Func("bx"), m.Func("blur_of_mirrored_blur")
    bx[x, y] = m.u16(c[x - 1, y]) + 2 * m.u16(c[x, y]) + c[x + 1, y]
    mb = m.BoundaryConditions.mirror_image(bx, [(0, w), (0, h)])
    out[x, y] = (mb[x - 1, y] + 2 * mb[x, y] + mb[x + 1, y]) >> 4
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def emboss_copied(m, w, h):
    """emboss_mirror_image written to a copy (the GLB level holds copies of the accelerator's output tile)."""
    emboss, images = emboss_mirror_image(m, w, h)
    x, y = xy(m)
    out = m.Func("emboss_out")
    out[x, y] = emboss[x, y]
    out.set_estimates([(0, w), (0, h)])
    return out, images


# (algorithm, size, autoscheduler keys), for test_autoprobes.py
AUTO = {"emboss_mirror_image_17x9_l3": (emboss_mirror_image, (17, 9), {"lanes": "3"}),
        "wrap_blur_16x6_l4": (wrap_blur, (16, 6), {"lanes": "4"}),
        "mirror_blur_xy_19x7_l4": (mirror_blur_xy, (19, 7), {"lanes": "4"}),
        "emboss_copied_24x10_l4_glb12x5": (emboss_copied, (24, 10), {"lanes": "4", "glb_tile": "12x5"})}

# A line buffer's rows hold whole transfers: 19 mirrored columns at 3 lanes take 21 (48 words for 43). So each of
# a design's two buffered rows may hold (lanes - 1) words past its minimum (test_autoprobes.py's storage bound).
WHOLE_TRANSFER_ROWS = 2
