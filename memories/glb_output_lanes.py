"""The GLB output's lanes must be a block: the GLB stores one transfer per entry, so the k values the array output
writes a cycle (its unrolled loops) must be consecutive words of the tile (lanes of x, or of channels and x stored
innermost: glb.storage_order), or a block of consecutive words along each dimension (rows, x and y:
glb_blocks.py). Lanes a step apart within a dimension (`split(xii, xa, xb, 2).unroll(xa)`) are neither; refuse
them with the fix that builds (probe20, session 35: a 3-channel output through the GLB with its channels unrolled
in the memory tiles reached an internal assert)."""

from __future__ import annotations

from collections.abc import Sequence

from mainspring.frontend.errors import ScheduleError
from mainspring.hwlower.ir import Affine, Loop


def lanes_consecutive(loops: Sequence[Loop], index: Sequence[Affine], strides: Sequence[int]) -> bool:
    """Whether the unrolled loops of `loops` (outermost first, storing at `index` into a tile of word `strides`)
    write consecutive words, innermost lane first."""
    return _first_apart(loops, index, strides) is None


def _first_apart(loops: Sequence[Loop], index: Sequence[Affine], strides: Sequence[int]) -> tuple[Loop, int] | None:
    run = 1
    for lp in reversed([lp for lp in loops if lp.unrolled]):
        stride = sum(dict(a.terms).get(lp.var, 0) * s for a, s in zip(index, strides))
        if stride != run:
            return lp, stride
        run *= lp.extent
    return None


def check_output_lanes(loops: Sequence[Loop], index: Sequence[Affine], strides: Sequence[int], who: str) -> None:
    """Refuse an array output whose unrolled loops (`loops`, outermost first, storing at `index` into a tile of
    word `strides`) do not write consecutive words, innermost lane first."""
    apart = _first_apart(loops, index, strides)
    if apart is None:
        return
    lp, stride = apart
    parts = lp.var.split(".")
    func, dim = parts[0], parts[-1]
    call = f"{func}.unroll({dim})"
    if dim in ("ui", "vi") and len(parts) > 3:  # unroll(d, k) splits d into d and d.ui (hwlower/loops.py)
        dim = parts[-2]
        call = f"{func}.{'unroll' if parts[-1] == 'ui' else 'vectorize'}({dim}, {lp.extent})"
    raise ScheduleError(
        f"{who}: Func '{func}' writes {lp.extent} lanes of '{dim}' a cycle ({call}), words "
        f"{abs(stride)} apart in the GLB tile, but each GLB entry holds one cycle's lanes as a block of "
        f"consecutive words along each dimension: remove {call} (and the GLB copy's unroll of it), so that "
        f"'{dim}' is computed in turn, or leave the GLB out (hw_accelerate on '{func}' itself)")
