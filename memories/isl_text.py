"""isl objects read from their text, cached by the text.

The stages ask isl many small questions about the same few maps and sets, and reading isl's notation is a large
share of their cost (a third of a millisecond a map). islpy objects behave as immutable values (every operation
returns a new object), so one object per text can be handed to every caller, within a compile and across the
compiles of a process.
"""

from __future__ import annotations

import functools

import islpy as isl


@functools.lru_cache(maxsize=16384)
def isl_map(text: str) -> isl.Map:
    return isl.Map(text)


@functools.lru_cache(maxsize=16384)
def isl_set(text: str) -> isl.Set:
    return isl.Set(text)


@functools.lru_cache(maxsize=1024)
def isl_union_map(text: str) -> isl.UnionMap:
    return isl.UnionMap(text)
