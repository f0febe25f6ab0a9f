"""memories.live_sweep (NumPy) against the exact counts it replaced: the isl point sweep and barvinok's count,
buffer by buffer, on a spread of small designs (stencils, lanes 1-3, up/down/down-up resampling, GLB tiles)."""

import sys

import pytest

import mainspring as hl
from mainspring import apps
from mainspring.memories import analyze as _analyze  # noqa: F401  (loads the module patched below)
from mainspring.memories import capacity as C
from mainspring.memories.live_sweep import sweep_max_live

import memories_nests as N


def _three_ways(prog, sched, buffer):
    maps = C.live_maps(prog, sched, buffer)
    if maps is None or prog.nest.buffer(buffer).init is not None:
        return C.buffer_capacity(prog, sched, buffer), None
    fast = sweep_max_live(*maps[:3])
    return fast, (C.point_sweep(*maps[:3]), C.count_live(*maps))


@pytest.fixture
def checked(monkeypatch):
    """Every buffer_capacity call of a compile also counts the old two ways; returns the (fast, old) pairs."""
    seen = []

    def capacity(prog, sched, buffer):
        fast, old = _three_ways(prog, sched, buffer)
        seen.append((buffer, fast, old))
        return fast

    monkeypatch.setattr(sys.modules["mainspring.memories.analyze"], "buffer_capacity", capacity)
    return seen


def _assert_same(seen):
    compared = [(b, fast, old) for b, fast, old in seen if old is not None]
    assert compared, "the design has buffers to count"
    assert [(b, fast, fast) for b, fast, _ in compared] == [(b, *old) for b, _, old in compared]
    assert max(fast for _, fast, _ in compared) > 1, "some buffer stores values: the comparison is not trivial"


@pytest.mark.parametrize("nest", ["gaussian", "cascade", "sequential_reduction", "downsample", "scan", "spaced_taps",
                                  "late_read", "gaussian_lanes", "coordinates"])
def test_the_sweep_counts_what_the_point_sweep_and_barvinok_count(nest):
    from mainspring import CGRA
    from mainspring.memories.polyhedral import build_program, default_latency
    from mainspring.memories.schedule import schedule

    n = getattr(N, nest)()
    prog = build_program(n, lambda op: default_latency(op, 1))
    sched = schedule(prog, CGRA())
    seen = [(b.name, *_three_ways(prog, sched, b.name)) for b in n.buffers]
    _assert_same(seen)


@pytest.mark.parametrize(("app", "size", "kw"), [
    ("gaussian", (30, 10), {"lanes": 1}), ("gaussian", (30, 10), {"lanes": 2}), ("gaussian", (30, 9), {"lanes": 3}),
    ("cascade", (28, 8), {"lanes": 2}), ("harris", (26, 8), {"lanes": 1}), ("upsample", (20, 6), {}),
    ("h2h_up_sample", (20, 6), {}), ("h2h_down_sample", (16, 8), {}),
    ("gaussian_glb", (30, 30), {"glb_tile": (14, 14)}), ("h2h_cascade_glb", (20, 20), {}),
    ("h2h_three_level_memory", None, {}),
])
def test_apps_count_the_same_three_ways(app, size, kw, checked):
    mod = apps.load(app)
    out, _ = mod.build(*size, **kw) if size else mod.build()
    hl.compile(out, name=f"sweep_{app}", target=apps.target(mod), prove=False)
    _assert_same(checked)


def _resampled(kind):
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    src, mid, hw_output, output = (hl.Func(n) for n in ("hw_input", "mid", "hw_output", "output"))
    src[x, y] = inp[x, y]
    if kind == "down_up":
        down = hl.Func("down")
        down[x, y] = (src[2 * x, 2 * y] + src[2 * x + 1, 2 * y + 1]) >> 1
        mid[x, y] = (down[x / 2, y / 2] + down[x / 2 + 1, y / 2 + 1]) >> 1
    elif kind == "up":
        mid[x, y] = (src[x / 2, y / 2] + src[x / 2 + 1, y / 2 + 1]) >> 1
    else:
        mid[x, y] = src[2 * x, 2 * y] + src[2 * x + 1, 2 * y + 1] + src[2 * x + 2, 2 * y + 2]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    return output


@pytest.mark.parametrize(("kind", "size", "lanes"), [
    ("down_up", (64, 6), 1), ("down_up", (62, 5), 2), ("up", (30, 6), 1), ("up", (32, 6), 2), ("down_3", (40, 6), 1),
    ("down_3", (40, 6), 2),
])
def test_autoscheduled_resampling_counts_the_same_three_ways(kind, size, lanes, checked):
    out = _resampled(kind)
    out.set_estimates([(0, size[0]), (0, size[1])])
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(num_pes=1 << 20),
                                         hl.AutoschedulerParams("Mainspring", {"lanes": str(lanes)}))
    hl.compile(out, name=f"sweep_{kind}", target=hl.CGRA(mem_tile_words=64, num_mem_tiles=1 << 20, num_pes=1 << 20),
               prove=False)
    _assert_same(checked)


def test_the_1080p_down_up_compiles_in_seconds():
    # Its paced group counts flat cycles: barvinok's count of `down` alone ran past 10 minutes (session 17/18);
    # the sweep takes about a second (3 s for the whole compile on a shared machine). 60 s leaves room for load.
    import time

    out = _resampled("down_up")
    out.set_estimates([(0, 1920), (0, 1080)])
    hl.Pipeline(out).apply_autoscheduler(hl.CGRA(num_pes=1 << 20), hl.AutoschedulerParams("Mainspring", {"lanes": "1"}))
    start = time.perf_counter()
    design = hl.compile(out, name="down_up_1080p",
                        target=hl.CGRA(mem_tile_words=256, num_mem_tiles=1 << 20, num_pes=1 << 20), prove=False)
    assert time.perf_counter() - start < 60
    # 16 since autoprobe39 (session 39): the upsample of `down` inlined where it stores fewer words
    # (autoschedule_resampled.py: 3,852 words for 4,810, at the same cycles, 7 PEs for 5); it was 20
    assert design.report["mem_tiles"] == 16
