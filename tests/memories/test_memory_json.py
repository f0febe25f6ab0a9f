"""memories.memory_json: the schema's fields, deterministic bytes, and a golden file for a small gaussian.

Refresh the golden file after an intended change with MAINSPRING_UPDATE_GOLDEN=1 and review the diff.
"""

import json
import os
import pathlib
import subprocess
import sys

from mainspring.memories import analyze, dumps, to_json

import memories_nests as N

GOLDEN = pathlib.Path(__file__).parent / "golden" / "gaussian_8x8.memory.json"


def test_controllers_use_the_memory_tile_field_names():
    j = to_json(analyze(N.gaussian()))
    buf = j["buffers"]["hw_input"]
    w = buf["write_ports"][0]["controller"]
    assert w == {"dimensionality": 2, "extent": [64, 64], "cycle_starting_addr": 0, "cycle_stride": [1, 64],
                 "write_data_starting_addr": 0, "write_data_stride": [1, 64]}
    lines = buf["banks"][0]
    taps = [p["controller"] for p in lines["read_ports"]]
    assert [c["cycle_starting_addr"] for c in taps] == [1, 1]  # the cycle after each of the stream's writes
    assert all("read_data_starting_addr" in c and "read_data_stride" in c for c in taps)
    assert [p["region"] for p in lines["write_ports"] + lines["read_ports"]] == [[0, 61], [61, 61]] * 2
    assert lines["gated"] and all(r["gated"] for r in buf["registers"])
    assert [(p["delay"], p["steps"]) for p in buf["read_ports"]][:3] == [(130, 130), (129, 129), (128, 128)]
    assert buf["capacity"] == {"min_words": 131, "words": 131} and buf["level"] == "mem_tile"
    op = j["schedule"]["ops"]["blur_unnormalized_s0"]
    assert (op["rates"], op["delay"], op["latency"]) == ([64, 1], 130, 1)
    assert op["controller"] == {"dimensionality": 2, "extent": [62, 62], "cycle_starting_addr": 130,
                                "cycle_stride": [1, 64]}


def test_internal_lane_chains_are_listed_with_their_op():
    j = to_json(analyze(N.unrolled_box()))
    chain = j["schedule"]["ops"]["sum_s1"]["internal_reads"]
    assert len(chain) == 8 and {"load", "lane", "source_lane"} == set(chain[0])


def test_the_json_is_byte_identical_across_processes():
    code = (f"import sys; sys.path.insert(0, {str(pathlib.Path(__file__).parent)!r}); import memories_nests as N; "
            "from mainspring.memories import analyze, dumps; sys.stdout.write(dumps(analyze(N.gaussian(8, 8))))")
    seed = str(int(os.environ.get("PYTHONHASHSEED", "0") or 0) + 12345)  # another set iteration order
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=seed)).stdout
    assert child == dumps(analyze(N.gaussian(8, 8)))
    assert json.loads(child)["format"] == "mainspring-memories/2"


def test_golden_gaussian_8x8(golden):
    golden(GOLDEN, dumps(analyze(N.gaussian(8, 8))))


def _by_name(items, key):
    return sorted(items, key=lambda o: getattr(o, key))


def test_the_json_reads_back_as_the_plan_it_was_written_from():
    # The verilog stage renders from the plan read back from the JSON text: nothing may be lost on the way.
    from mainspring.memories import from_json

    for make in (N.gaussian, N.cascade, N.unrolled_box, N.sequential_reduction):
        plan = analyze(make())
        back = from_json(json.loads(dumps(plan)))
        assert dumps(back) == dumps(plan)
        assert _by_name(back.ops, "op") == _by_name(plan.ops, "op")  # the JSON keys ops by name
        assert _by_name(back.buffers, "name") == _by_name(plan.buffers, "name")
        assert (back.target, back.cycles, back.internal_reads) == (plan.target, plan.cycles, plan.internal_reads)


def test_reading_back_refuses_another_format():
    import pytest

    from mainspring.memories import from_json

    with pytest.raises(ValueError, match="not a mainspring-memories/2 memory JSON"):
        from_json({"format": "mainspring-memories/1"})
