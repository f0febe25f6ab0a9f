"""Measure the GLB figures of BENCHMARKS.md: the three-level gaussian through GLB tiles, simulated on Verilator.

    .venv/bin/python tests/flow/bench_glb.py [--lanes 1,2,4] [--size 1920x1080] [--tile 240x216] [--no-sim]

Prints, per lane count: compile time, GLB tiles, halo overhead, the predicted and measured whole run, the sum
of the measured tile cycles, the predicted and measured cycles of each GLB tile, and the array's cycles per GLB
tile when it never waits over ceil(words streamed from the GLB into the array / k).
"""

from __future__ import annotations

import argparse
import time

import mainspring as hl
from mainspring.apps import gaussian_glb


def measure(width: int, height: int, tile: tuple[int, int], lanes: int, simulate: bool) -> dict:
    out, inputs = gaussian_glb.build(width, height, glb_tile=tile, lanes=lanes)
    start = time.perf_counter()
    design = hl.compile(out, name=f"gaussian_glb_k{lanes}")
    seconds = time.perf_counter() - start
    r = design.report
    nest = design.program.nest
    streamed = design.plan.input_words * r["mem_tiles_per_glb_tile"]
    row = {"lanes": lanes, "compile_s": round(seconds, 2), "tiles": r["tiles"],
           "halo": f"{100 * r['halo_overhead']:.2f}%", "predicted": r["predicted_cycles"],
           "tile_cycles": r["tile_cycles"], "over_stream": r["tile_cycles"] - -(-streamed // nest.input_lanes),
           "predicted_tile": sorted(set(r["predicted_tile_cycles"])),
           "depth": r["first_output_cycle"], "pes": r["pes"], "mem_tiles": r["mem_tiles"],
           "double_buffered": r["transfers_overlap_compute"]}
    if simulate:
        res = design.check(inputs, simulator="verilator")
        row.update(measured=res.cycles, sum_tiles=sum(res.tile_cycles),
                   total_over_tiles=f"{100 * (res.cycles / sum(res.tile_cycles) - 1):.2f}%",
                   measured_tile=sorted(set(res.tile_cycles)), sim_s=round(res.sim_seconds, 1))
    return row


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--lanes", default="1,2,4")
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--tile", default="240x216")
    p.add_argument("--no-sim", action="store_true")
    a = p.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    tile = tuple(int(v) for v in a.tile.split("x"))
    for k in (int(v) for v in a.lanes.split(",")):
        print(measure(w, h, tile, k, not a.no_sim), flush=True)


if __name__ == "__main__":
    main()
