"""memories on the loop nests hwlower produces for the apps."""

import time

import pytest

from mainspring.memories import analyze


def lowered(name):
    from mainspring.apps import load
    from mainspring.frontend.pipeline import Pipeline
    from mainspring.hwlower.lower import lower

    app = load(name)
    out, _ = app.build()
    return lower(Pipeline(out), app.NAME).nest


@pytest.mark.parametrize(("name", "line_buffers", "min_words"), [
    ("brighten", 0, {}),
    ("gaussian", 1, {"hw_input": 131}),
    ("cascade", 2, {"hw_input": 131, "blur1": 127}),
    ("harris", 5, {"hw_input": 131, "cim": 123}),
])
def test_apps_stream_at_one_pixel_per_cycle(name, line_buffers, min_words):
    nest = lowered(name)
    start = time.perf_counter()
    plan = analyze(nest)
    print(f"\n{name}: analysis {1e3 * (time.perf_counter() - start):.0f} ms, {plan.cycles} cycles, "
          f"{sum(b.tiles * b.slices for buf in plan.buffers for b in buf.banks)} tiles, "
          f"{sum(len(buf.registers) for buf in plan.buffers)} registers")
    assert plan.strategy == "fused" and plan.cycles - plan.input_words <= 8
    assert sum(1 for b in plan.buffers if b.banks) == line_buffers
    assert {b: plan.buffer(b).min_words for b in min_words} == min_words
    assert [(b.name, b.words) for b in plan.buffers] == [(b.name, b.min_words) for b in plan.buffers]  # exact
