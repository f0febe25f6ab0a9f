"""Bounds and lowering of the accelerated region to the hardware program: a loop-nest IR of ops with affine
loads and stores, the host's invocations, its streams and the GLB level.

`lower(pipeline, name)` runs the named passes of `lower.PASSES` and gives an `HwProgram` (`program.py`), checked
by `verify_program` after the last pass; `format_program` prints it (`--dump-after lower`).
"""

from .ir import Access, Affine, Buffer, CoordPort, LoadPort, Loop, LoopNest, Op, Rom
from .lower import PASSES, STEP_NAMES, lower
from .printer import format_nest, format_program
from .program import GlbProgram, HostStream, HwProgram, Tile
from .verify import verify_nest, verify_program

__all__ = [
    "lower", "PASSES", "STEP_NAMES", "HwProgram", "GlbProgram", "HostStream", "Tile", "format_program",
    "format_nest", "verify_nest", "verify_program",
    "Access", "Affine", "Buffer", "CoordPort", "LoadPort", "Loop", "LoopNest", "Op", "Rom",
]
