"""Bounds and lowering of the accelerated region to a loop-nest IR of ops with affine loads and stores.

`lower(pipeline, name)` gives a `Lowered` (the loop nest `hwlower.ir.LoopNest`, the region, the host tiles and
the GLB level); `format_lowered` prints it (`--dump-after lower`).
"""

from .ir import Access, Affine, Buffer, CoordPort, LoadPort, Loop, LoopNest, Op
from .lower import GlbLowered, Lowered, lower
from .printer import format_lowered, format_nest

__all__ = [
    "lower", "Lowered", "GlbLowered", "format_lowered", "format_nest",
    "Access", "Affine", "Buffer", "CoordPort", "LoadPort", "Loop", "LoopNest", "Op",
]
