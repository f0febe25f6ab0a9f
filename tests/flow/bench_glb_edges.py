"""Measure the figures of BENCHMARKS.md's section on boundary conditions under a GLB level: edge_pipelines.py's
pipeline through GLB tiles of memory tiles, with a boundary condition on grad (computed inside) and without one
(the same taps), simulated on Verilator.

    .venv/bin/python tests/flow/bench_glb_edges.py [--size 64x64] [--glb 32x32] [--mem 16x16] [--lanes 1,2]

Prints, per case and lanes: compile time, GLB tiles, memory tiles per GLB tile, the ideal cycles (the array's
input streams over every run, halo included), the predicted and measured cycles, PEs, and the words of storage
with the exact minimum.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import mainspring as hl
from mainspring.bench import storage_words

from edge_pipelines import through_glb  # beside this script (its folder is the script's sys.path[0])

CASES = ("none", "repeat_edge", "mirror_interior", "clamp")


def measure(case: str, size: tuple[int, int], glb: tuple[int, int], mem: tuple[int, int], lanes: int) -> dict:
    out, inputs = through_glb(case, size, glb, mem, lanes)
    start = time.perf_counter()
    design = hl.compile(out, name=f"bench_glb_edges_{case}_k{lanes}")
    seconds = time.perf_counter() - start
    r = design.report
    words, least = storage_words(r)
    res = design.check(inputs, simulator="verilator", build_dir=Path("build/bench"))
    return {"case": case, "lanes": lanes, "compile_s": round(seconds, 2), "glb_tiles": r["tiles"],
            "mem_tiles": r["mem_tiles_per_glb_tile"], "ideal": r["ideal_cycles"], "predicted": r["predicted_cycles"],
            "cycles": res.cycles, "pes": r["pes"], "words": words, "min_words": least}


def main() -> None:
    ap = argparse.ArgumentParser()

    def pair(s: str) -> tuple[int, int]:
        w, h = s.split("x")
        return int(w), int(h)

    ap.add_argument("--size", type=pair, default=(64, 64))
    ap.add_argument("--glb", type=pair, default=(32, 32))
    ap.add_argument("--mem", type=pair, default=(16, 16))
    ap.add_argument("--lanes", default="1,2")
    args = ap.parse_args()
    for lanes in (int(k) for k in args.lanes.split(",")):
        for case in CASES:
            print(measure(case, args.size, args.glb, args.mem, lanes), flush=True)


if __name__ == "__main__":
    main()
