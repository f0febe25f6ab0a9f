"""The report of a design with a GLB level: the host loop over GLB tiles, transfers, overlap, halo overhead.

Cycle figures are predicted from the static schedule of the array and a model of the GLB's handshakes
(`predict_cycles`); the simulation measures the same quantities (`SimulationResult.cycles`, `.tile_cycles`).
"""

from __future__ import annotations

from .memories import MemoryPlan
from .memories.glb import GlbPlan


def glb_report(glb: GlbPlan, plan: MemoryPlan, image_words: int) -> dict:
    ins = [b for b in glb.buffers if b.role == "input"]
    (out,) = [b for b in glb.buffers if b.role == "output"]
    tiles = len(glb.tiles)
    tile_cycles = glb.mem_tiles * plan.cycles
    total = predict_cycles(glb, plan)
    loaded = sum(b.words for b in ins) * tiles
    streamed = plan.input_words * glb.mem_tiles * tiles
    return {
        "predicted_cycles": total,
        "ideal_cycles": max(b.transfers for b in ins) * tiles,
        "tiles": tiles,
        "tile_cycles": tile_cycles,
        "mem_tiles_per_glb_tile": glb.mem_tiles,
        "halo_overhead": round(loaded / image_words - 1, 6) if image_words else 0.0,
        "array_halo_overhead": round(streamed / loaded - 1, 6) if loaded else 0.0,
        "host_transfer_cycles": (max(b.transfers for b in ins) + out.transfers) * tiles,
        "transfers_overlap_compute": glb.double_buffered,
        "glb": {
            "double_buffered": glb.double_buffered,
            "words_used": glb.words_used,
            "banks_used": glb.banks_used,
            "bank_words": glb.bank_words,
            "lanes": max(b.lanes for b in glb.buffers),
            "buffers": [{"name": b.name, "role": b.role, "tile_words": b.words, "copies": b.copies}
                        for b in glb.buffers],
        },
    }


def predict_cycles(glb: GlbPlan, plan: MemoryPlan) -> int:
    """Cycles from the host's first input word to its last output word read back, when nothing stalls.

    Three stages per GLB tile, each one transfer per cycle: the host loads the input tiles (all input streams in
    parallel), the array runs its memory tiles back to back, the host reads the output tile back. A stage
    starts a tile when the previous stage has finished it and the buffer copy it writes is free (with two
    copies, the host loads tile t+1 and reads back tile t-1 while the array computes tile t)."""
    ins = [b for b in glb.buffers if b.role == "input"]
    (out,) = [b for b in glb.buffers if b.role == "output"]
    load, run, back = max(b.transfers for b in ins), glb.mem_tiles * plan.cycles, out.transfers
    last_read = max(s.last_cycle for s in plan.ops if s.host) + (glb.mem_tiles - 1) * plan.cycles
    copies = 2 if glb.double_buffered else 1
    first_output = plan.first_output_cycle
    load_end, in_free, run_end, back_end = [], [], [], []
    for t in range(len(glb.tiles)):
        start = max(load_end[t - 1] if t else 0, in_free[t - copies] if t >= copies else 0)
        load_end.append(start + load)
        # The array takes its first word a cycle after the copy fills (the GLB's read register); it writes its
        # first output `first_output` cycles later, once the output copy has been read back (its last word is
        # taken in back_end - 1, and the copy is free from then).
        begin = max(load_end[t] + 1, run_end[t - 1] if t else 0,
                    back_end[t - copies] - 1 - first_output if t >= copies else 0)
        # The GLB reads the tile's last input word (freeing the copy) as the array takes the one before it.
        in_free.append(begin + last_read)
        run_end.append(begin + run)
        first = max(run_end[t] + 1, back_end[t - 1] if t else 0)
        back_end.append(first + back)
    return back_end[-1]
