"""One compile per design and worker for the tests that check one design on both simulators.

`compiled(name, build, *args, target=..., **kw)` compiles `build(*args, **kw)`'s output once per worker and
returns (design, inputs); a Design is reusable by both simulators. `together(group)` marks the test's
parametrisations with one xdist group, so that under `-n 2` they run one after another on one worker (see
tests/conftest.py) and the second finds the design in the cache. The cache keeps the last few designs only: a
group's tests run back to back. `at_generator_size(app)`: an app at its DEFAULT_SIZE, for tests in several files
(group GENERATOR_SIZE, which xdist schedules as one across files). The fixture `compile_shared` (conftest.py)
is `hl.compile` for a test run on both simulators whose designs do not depend on the simulator: the second run
gets the first's designs (see `shared_compiler`)."""

import collections
import functools
import itertools
import re

import pytest

import mainspring as hl


@functools.lru_cache(maxsize=2)
def compiled(name: str, build, *args, target=None, **kw):
    out, inputs = build(*args, **kw)
    design = hl.compile(out, name=name) if target is None else hl.compile(out, name=name, target=target)
    return design, inputs


# The xdist group of the tests that read a design from `at_generator_size`, in whichever file: one worker, one
# compile (the resnet layer at 28x28 was compiled four times in three files).
GENERATOR_SIZE = "generator_size"


@functools.lru_cache(maxsize=1)
def at_generator_size(app: str):
    """(design, inputs): `app` built at its DEFAULT_SIZE and compiled for its target, as `mainspring compile` does."""
    from mainspring import apps

    mod = apps.load(app)
    out, inputs = mod.build(*mod.DEFAULT_SIZE)
    target = apps.target(mod)
    design = hl.compile(out, name=mod.NAME) if target is None else hl.compile(out, name=mod.NAME, target=target)
    return design, inputs


def together(group: str):
    return pytest.mark.xdist_group(group)


def grouped(prefix: str, values) -> list:
    """pytest params over `values`, each value's tests in its own group (`prefix_value`): a design per value."""
    return [pytest.param(v, marks=pytest.mark.xdist_group(f"{prefix}_{v}")) for v in values]


# (test and parametrisation but the simulator, n-th compile of the run, name, keywords) -> Design: a few runs'
# designs, the two simulators' runs of a test being one xdist group (conftest.py), so back to back.
_SHARED: collections.OrderedDict = collections.OrderedDict()


def design_key(item) -> str:
    """A test's parametrisation without its simulator (the runs that compile the same designs): an xdist group
    name, so without '@' or brackets."""
    ids = getattr(getattr(item, "callspec", None), "id", "")  # pytest's ids: the same in every worker
    rest = "-".join(part for part in ids.split("-") if part not in ("icarus", "verilator"))
    return re.sub(r"[\[\]@\s]", "_", f"{item.module.__name__}.{item.originalname}({rest})")


def shared_compiler(item):
    """`hl.compile(out, name=..., **kw)` where the n-th call of this test's run returns the n-th design of the
    other simulator's run when it compiled the same name with the same keywords (its `out` being the same
    program: the test builds it without reading the simulator)."""
    key, calls = design_key(item), itertools.count()

    def compile_(out, name: str, **kw):
        k = (key, next(calls), name, repr(sorted(kw.items())))
        if k not in _SHARED:
            _SHARED[k] = hl.compile(out, name=name, **kw)
            while len(_SHARED) > 8:
                _SHARED.popitem(last=False)
        _SHARED.move_to_end(k)
        return _SHARED[k]

    return compile_
