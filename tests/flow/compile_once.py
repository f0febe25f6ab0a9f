"""One compile per design and worker for the tests that check one design on both simulators.

`compiled(name, build, *args, target=..., **kw)` compiles `build(*args, **kw)`'s output once per worker and
returns (design, inputs); a Design is reusable by both simulators. `together(group)` marks the test's
parametrisations with one xdist group, so that under `-n 2` they run one after another on one worker (see
tests/conftest.py) and the second finds the design in the cache. The cache keeps the last few designs only: a
group's tests run back to back."""

import functools

import pytest

import mainspring as hl


@functools.lru_cache(maxsize=2)
def compiled(name: str, build, *args, target=None, **kw):
    out, inputs = build(*args, **kw)
    design = hl.compile(out, name=name) if target is None else hl.compile(out, name=name, target=target)
    return design, inputs


def together(group: str):
    return pytest.mark.xdist_group(group)


def grouped(prefix: str, values) -> list:
    """pytest params over `values`, each value's tests in its own group (`prefix_value`): a design per value."""
    return [pytest.param(v, marks=pytest.mark.xdist_group(f"{prefix}_{v}")) for v in values]
