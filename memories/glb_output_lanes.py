"""The GLB output's lanes must be consecutive words of its tile: the GLB stores a tile x fastest and moves one
entry of k consecutive words per transfer, so the k values the array output writes a cycle (its unrolled loops)
must lie side by side along x. An unroll of another dimension (channels, rows) writes words a plane or a row apart,
which no entry holds; refuse it with the fix that builds (probe20, session 35: a 3-channel output through the GLB
with its channels unrolled in the memory tiles reached an internal assert)."""

from __future__ import annotations

from collections.abc import Sequence

from mainspring.frontend.errors import ScheduleError
from mainspring.hwlower.ir import Affine, Loop


def check_output_lanes(loops: Sequence[Loop], index: Sequence[Affine], strides: Sequence[int], who: str) -> None:
    """Refuse an array output whose unrolled loops (`loops`, outermost first, storing at `index` into a tile of
    word `strides`) do not write consecutive words, innermost lane first."""
    run = 1
    for lp in reversed([lp for lp in loops if lp.unrolled]):
        stride = sum(dict(a.terms).get(lp.var, 0) * s for a, s in zip(index, strides))
        if stride != run:
            parts = lp.var.split(".")
            func, dim = parts[0], parts[-1]
            call = f"{func}.unroll({dim})"
            if dim in ("ui", "vi") and len(parts) > 3:  # unroll(d, k) splits d into d and d.ui (hwlower/loops.py)
                dim = parts[-2]
                call = f"{func}.{'unroll' if parts[-1] == 'ui' else 'vectorize'}({dim}, {lp.extent})"
            raise ScheduleError(
                f"{who}: Func '{func}' writes {lp.extent} lanes of '{dim}' a cycle ({call}), words "
                f"{abs(stride)} apart in the GLB tile, but the GLB stores its tile x fastest and moves entries of "
                f"consecutive words of x: remove {call} (and the GLB copy's unroll of it), so that "
                f"'{dim}' is computed in turn and only x is unrolled, or leave the GLB out (hw_accelerate on "
                f"'{func}' itself)")
        run *= lp.extent
