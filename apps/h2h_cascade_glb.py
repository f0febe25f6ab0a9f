"""The reference system's `cascade` generator with its GLB schedule (GeneratorParam schedule = 2): see
h2h_cascade. The generator's 360x360 GLB tile is larger than the 60x60 output and shrinks to it."""

from __future__ import annotations

from . import h2h_cascade

NAME = "h2h_cascade_glb"
DEFAULT_SIZE = h2h_cascade.DEFAULT_SIZE


def build(width: int = 60, height: int = 60, auto: bool = False):
    return h2h_cascade.build(width, height, schedule=2, auto=auto)
