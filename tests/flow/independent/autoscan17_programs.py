"""Autoscan17's programs (session 33): scans and whole-frame reductions written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set.

The findings fixed:
- an integral image as one 2-D scan (`s(r.x, r.y) += s(r.x - 1, r.y) + s(r.x, r.y - 1) - s(r.x - 1, r.y - 1)`) at
  2 lanes stayed two ops (a row of sums stored twice: 29 words for 18 and 28 cycles for 25 at 9x5, 3,849 words for
  1,925 at 1920x1080): the update's x runs from 1 and the pure definition's from 0, so the lanes of the two did not
  line up, and the update's span stopped short of the buffer at both ends (x over 1..8 of a buffer rounded up to
  0..9) or ran past it (a GuardWithIf tail). hwlower/scans.py now merges them (15 words, 26 cycles; 1,925 words).
- a row scan of u32 sums (`s(r.x, y) = s(r.x - 1, y) + u32(in(r.x, y))`, or `+=` of `s(r.x - 1, y)`) at 1 lane took
  2 cycles a pixel (91 cycles for 45 at 9x5; 4,147,201 at 1920x1080): the 32-bit add takes two PE stages and each
  step read the one before it from the kernel's first. compiler.py `_accumulates` reads a scan's carried operand in
  the kernel's last stage, as an accumulation's own element (46 cycles; 2,073,601).
- a whole-frame sum over an RDom of the image's size (`RDom([(0, inp.width()), (0, inp.height())])`) was refused
  (its bounds are Params): the autoscheduler binds the image's size (`inp.dim(i).set_bounds`, autoschedule_images),
  the pipeline's definitions read such an RDom with constant bounds (frontend/bound_domains.py), and the frame scan
  takes the map's lanes (55 cycles for 50 at 9x5, 2 lanes, as with constant bounds).
- a whole-frame sum that is itself the output, a Func of no dimensions (`total[()] += u32(inp(r.x, r.y))`), stayed at
  one lane ("no x to take lanes along"): its frame scan's r.x is unrolled by the lanes asked, as an internal
  total's is (autoschedule_lanes.frame_scan), its stream k pixels a transfer (zerod32's frame_sum 9x5 at 2 lanes:
  46 -> 26 cycles; 1920x1080: 2,073,601 -> 1,036,801). A point that sweeps no stream (a maximum of a blur) keeps
  one lane and says why.
- a sum per channel of a planar image (`tot(c) += u32(inp(r.x, r.y, c))`, the output `out(x, y, c)` scaled by it)
  over more than 64 points was taken for a pixel's channels: r.x unrolled (43 PEs, 558 cycles for 216 at 12x6),
  its stream held whole (423 words, 18 memory tiles), the output's planes innermost. Such a sweep (a stream read at
  RVars alone in two coordinates or more) now stays serial on a stream of its own (autoschedule_reduce.sweeps,
  autoschedule_buffers._scanned), and a Func of planes alone (`tot(c)`) no longer puts the output's planes
  innermost (autoschedule_planes.planes_inner): plane after plane, each plane's sum ahead of its map (6 PEs, 293
  cycles, 80 words, 1 memory tile; 64x32: 71 -> 8 PEs, 12,292 -> 8,198 cycles, 6,217 -> 2,056 words, the reads
  of the sum without each plane's first step cut into boxes by memories/iteration_boxes._peel). At 2 lanes the
  output stayed at one (its stream's first dimension taken for a pixel's channels, unrolled whole: compile refused
  it); the sweep per plane is a frame scan now (autoschedule_lanes.frame_scan, r.x unrolled by 2): 149 cycles for
  108, 84 words (32x8: 517 cycles, 1,029 at one lane).
Figures: BENCHMARKS.md "Helper autoscan17, session 33"."""

from autoprobe16_programs import integral2d
from probe_common import vars_of
from zerod32_programs import copied_mean


def row_scan_u32(m, w, h):
    """A running sum along each row in u32: `s(r.x, y) = s(r.x - 1, y) + u32(inp(r.x, y))`."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = vars_of(m, "x y")
    s = m.Func("s")
    s[x, y] = m.u32(inp[x, y])
    r = m.RDom([(1, w - 1)], "r")
    s[r.x, y] = s[r.x - 1, y] + m.u32(inp[r.x, y])
    s.set_estimates([(0, w), (0, h)])
    return s, {"inp": inp}


def row_scan_u32_own(m, w, h):
    """The same running sum written `s(r.x, y) += s(r.x - 1, y)` (it reads the element it stores)."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = vars_of(m, "x y")
    s = m.Func("s")
    s[x, y] = m.u32(inp[x, y])
    r = m.RDom([(1, w - 1)], "r")
    s[r.x, y] += s[r.x - 1, y]
    s.set_estimates([(0, w), (0, h)])
    return s, {"inp": inp}


def threshold_sized(m, w, h):
    """A threshold at the frame's mean, its sum over an RDom of the image's size (`inp.width()`, `inp.height()`)."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y = vars_of(m, "x y")
    r = m.RDom([(0, inp.width()), (0, inp.height())], "r")
    total, out = m.Func("total"), m.Func("out")
    total[()] = m.u32(0)
    total[()] += m.u32(inp[r.x, r.y])
    out[x, y] = m.select(m.u32(inp[x, y]) * (w * h) > total[()], m.u8(255), m.u8(0))
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def channel_gain(m, w, h):
    """Each plane of a planar RGB image scaled by its mean: `tot(c) += u32(inp(r.x, r.y, c))`, `out(x, y, c) =
    u8(min(inp(x, y, c) * w * h / (tot(c) + 1), 255))`."""
    inp = m.ImageParam(m.UInt(8), 3, "inp")
    x, y, c = vars_of(m, "x y c")
    r = m.RDom([(0, w), (0, h)], "r")
    tot, out = m.Func("tot"), m.Func("out")
    tot[c] = m.u32(0)
    tot[c] += m.u32(inp[r.x, r.y, c])
    out[x, y, c] = m.u8(m.min(m.u32(inp[x, y, c]) * (w * h) / (tot[c] + 1), 255))
    out.set_estimates([(0, w), (0, h), (0, 3)])
    return out, {"inp": inp}


AUTO = {
    "integral2d_9x5_l2": (integral2d, (9, 5), {"lanes": "2"}),
    "integral2d_10x6_l2": (integral2d, (10, 6), {"lanes": "2"}),
    "integral2d_10x5_l3": (integral2d, (10, 5), {"lanes": "3"}),  # x from 1 at 3 lanes: 21 cycles for 20, 19 words
    "row_scan_u32_9x5": (row_scan_u32, (9, 5), {}),
    "row_scan_u32_own_9x5": (row_scan_u32_own, (9, 5), {}),
    "row_scan_u32_9x5_l2": (row_scan_u32, (9, 5), {"lanes": "2"}),
    "threshold_sized_9x5_l2": (threshold_sized, (9, 5), {"lanes": "2"}),
    "copied_mean_8x6_l2": (copied_mean, (8, 6), {"lanes": "2"}),
    "channel_gain_12x6": (channel_gain, (12, 6), {}),
    "channel_gain_12x6_l2": (channel_gain, (12, 6), {"lanes": "2"}),
}
