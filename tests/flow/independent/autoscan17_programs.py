"""Autoscan17's programs (session 33): scans and whole-frame reductions written with no schedule, as issue 11's
acceptance programs are, each in module m (`mainspring` or `halide`) returning (output, {name: ImageParam}) with
estimates set.

The findings fixed:
- an integral image as one 2-D scan (`s(r.x, r.y) += s(r.x - 1, r.y) + s(r.x, r.y - 1) - s(r.x - 1, r.y - 1)`) at
  2 lanes stayed two ops (a row of sums stored twice: 29 words for 18 and 28 cycles for 25 at 9x5, 3,849 words for
  1,925 at 1920x1080): the update's x runs from 1 and the pure definition's from 0, so the lanes of the two did not
  line up, and the update's span stopped short of the buffer at both ends (x over 1..8 of a buffer rounded up to
  0..9) or ran past it (a GuardWithIf tail). hwlower/scans.py now merges them (15 words, 26 cycles; 1,925 words).
Figures: BENCHMARKS.md "Helper autoscan17, session 33"."""

from autoprobe16_programs import integral2d

AUTO = {
    "integral2d_9x5_l2": (integral2d, (9, 5), {"lanes": "2"}),
    "integral2d_10x6_l2": (integral2d, (10, 6), {"lanes": "2"}),
}
