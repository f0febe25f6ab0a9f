"""The report of a design with a GLB level: the host loop over GLB tiles, transfers, overlap, halo overhead.

Cycle figures are predicted from the static schedule of the array and a model of the GLB's handshakes
(`predict`); the simulation measures the same quantities (`SimulationResult.cycles`, `.tile_cycles`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .memories import MemoryPlan
from .memories.glb import GlbPlan, addresses
from .memories.ir import Controller


def glb_report(glb: GlbPlan, plan: MemoryPlan, image_words: int, array_ideal: int) -> dict:
    """`array_ideal`: the busiest op's firings in one run of the array (one memory tile), the streams included."""
    ins = [b for b in glb.buffers if b.role == "input"]
    (out,) = [b for b in glb.buffers if b.role == "output"]
    tiles = len(glb.tiles)
    tile_cycles = glb.mem_tiles * plan.cycles
    run = predict(glb, plan)
    loaded = sum(b.words for b in ins) * tiles
    streamed = plan.input_words * glb.mem_tiles * tiles
    # Per GLB tile, the busiest of: the host's loads (one word a cycle per input), its read-back (an upsample's
    # output outnumbers its input) and the array's busiest op over the memory tiles (each reads its halo again).
    ideal = max(*(b.host.moves for b in ins), out.host.moves, glb.mem_tiles * array_ideal)
    return {
        "predicted_cycles": run.cycles,
        "ideal_cycles": ideal * tiles,
        "tiles": tiles,
        "tile_cycles": tile_cycles,  # the array's cycles per GLB tile when it never waits
        "predicted_tile_cycles": run.tile_cycles,  # per GLB tile: first word into the array .. last word out
        "mem_tiles_per_glb_tile": glb.mem_tiles,
        "halo_overhead": round(loaded / image_words - 1, 6) if image_words else 0.0,
        "array_halo_overhead": round(streamed / loaded - 1, 6) if loaded else 0.0,
        "host_transfer_cycles": (max(b.host.moves for b in ins) + out.host.moves) * tiles,
        "transfers_overlap_compute": glb.double_buffered,
        "glb": {
            "double_buffered": glb.double_buffered,
            "streamed": all(b.streams for b in glb.buffers),
            "words_used": glb.words_used,
            "banks_used": glb.banks_used,
            "bank_words": glb.bank_words,
            "lanes": max(b.lanes for b in glb.buffers),
            "buffers": [{"name": b.name, "role": b.role, "tile_words": b.words, "copies": b.copies,
                         "streamed": b.streams} for b in glb.buffers],
        },
    }


@dataclass(frozen=True, slots=True)
class Run:
    cycles: int  # the host's first input word .. its last output word read back, both included
    tile_cycles: list[int]  # per GLB tile: the array's first input word taken .. its last output word written


_NEVER = -(1 << 60)  # no bound


def _cycles(c: Controller) -> np.ndarray:
    """The cycles in which an op's controller fires, in order."""
    def affine(strides: tuple[int, ...]) -> np.ndarray:
        at = np.zeros(1, dtype=np.int64)
        for e, s in zip(c.extent, strides):
            at = (np.arange(e, dtype=np.int64)[:, None] * s + at[None, :]).ravel()
        return at

    first = affine(c.cycle_stride) + c.cycle_starting_addr
    if c.then is None:
        return first
    # a two-piece controller: the outermost dim's steps from then.steps on fire on the second piece's schedule
    outer = np.repeat(np.arange(c.extent[-1], dtype=np.int64), len(first) // c.extent[-1])
    second = affine(c.then.rates) + c.then.start - c.then.rates[-1] * c.then.steps
    return np.where(outer < c.then.steps, first, second)


def predict(glb: GlbPlan, plan: MemoryPlan) -> Run:
    """Cycles when nothing stalls (every host stream offers a word per cycle, the host always takes the output),
    by the same rules as the RTL (verilog/glb.py, ms_glb_buffer; verilog/top.py, the array's enable), cycle
    for cycle. Time 0 is the host's first transfer.

    - The host loads a GLB input tile a step of its controller per cycle (a word, or a skipped step: a halo word
      an earlier memory tile already read) into a copy, once the array has finished the tile the copy held (it
      reads that tile's last word in cycle r: the copy is free from r + 1).
    - A GLB copy's reader reads word n in the first cycle the writer has made the step it waits for
      (`GlbBuffer.wait`; the tile's last read: the last step) in an earlier cycle and its output register is
      free (empty, or taken in that cycle); the consumer takes the word a cycle later at the soonest.
    - The array advances one cycle of its static schedule per cycle its enable is high: when every input the
      schedule takes in that cycle is in its GLB register and the output it writes, if any, has a copy. So
      schedule cycle v (counted over all memory tiles and GLB tiles) runs in cycle A(v) = max(A(v - 1) + 1,
      bound(v)): a take of read n waits for the writer's step wait[n] + 2 (written, read into the register,
      taken); a GLB tile's first write waits for its output copy (free a cycle after the host read back the
      copy's previous tile). A stays one cycle ahead of the host at most: its first cycle may run in the cycle
      before the first transfer.
    - The host reads the output back a word per cycle as the words are written (the same rule), the last one
      taken a cycle after it is read."""
    ins = sorted((b for b in glb.buffers if b.role == "input"), key=lambda b: b.name)
    (out,) = [b for b in glb.buffers if b.role == "output"]
    period, mems = plan.cycles, glb.mem_tiles
    tile_span = period * mems  # schedule cycles per GLB tile

    def per_tile(fires: np.ndarray) -> np.ndarray:
        return (np.arange(mems, dtype=np.int64)[:, None] * period + fires[None, :]).ravel()

    def waits(b) -> np.ndarray:
        w = addresses(b.wait).copy()
        w[-1] = b.writer.transfers - 1  # the tile's last read waits for the full copy
        return w

    takes = {b.name: per_tile(_cycles(plan.op(f"host.{b.array_stream}").controller)) for b in ins}
    wait = {b.name: waits(b) for b in glb.buffers}
    out_buf = plan.buffer(out.array_stream)
    (first_port, *_) = [p for p in out_buf.write_ports if p.name in out_buf.output_ports]
    writes = per_tile(_cycles(first_port.controller))
    for b in ins:
        assert len(takes[b.name]) == b.array.transfers, f"GLB {b.name}: the array's takes are not its reads"
    assert len(writes) == out.array.transfers, f"GLB {out.name}: the array's writes are not the GLB's"

    load_end = {b.name: -1 for b in ins}  # the host's last write of the previous tile
    freed: dict[str, list[int]] = {b.name: [] for b in glb.buffers}  # per tile: its copy's last read
    last_take = {b.name: _NEVER for b in ins}
    lag = -1  # A(v) - v so far (A(v) >= v - 1: the first cycle may run before the first transfer)
    back = _NEVER  # the host's last read-back step so far
    tile_cycles = []
    for t in range(len(glb.tiles)):
        base = t * tile_span
        at, bound = [], []
        start = {}
        for b in ins:
            s = load_end[b.name] + 1
            if t >= b.copies:
                s = max(s, freed[b.name][t - b.copies] + 1)
            start[b.name] = s
            load_end[b.name] = s + b.writer.transfers - 1
            at.append(base + takes[b.name])
            bound.append(s + wait[b.name] + 2)
        first_write = _NEVER if t < out.copies else freed[out.name][t - out.copies] + 1
        out_bound = np.full(len(writes), _NEVER, dtype=np.int64)
        out_bound[0] = first_write
        at.append(base + writes)
        bound.append(out_bound)
        v, c = np.concatenate(at), np.concatenate(bound)
        order = np.argsort(v, kind="stable")
        vs = v[order]
        lags = np.maximum(np.maximum.accumulate(c[order] - vs), lag)
        lag = int(lags[-1])
        last_same = np.searchsorted(vs, vs, side="right") - 1  # one cycle for every event of a schedule cycle
        when = np.empty_like(v)
        when[order] = vs + lags[last_same]
        pieces = np.split(when, np.cumsum([len(x) for x in at])[:-1])
        for b, took in zip(ins, pieces):
            before = int(took[-2]) if len(took) > 1 else last_take[b.name]
            freed[b.name].append(max(before, load_end[b.name] + 1))
            last_take[b.name] = int(took[-1])
        wrote = pieces[-1]
        n = np.arange(out.reader.transfers, dtype=np.int64)
        steps = n + np.maximum(np.maximum.accumulate(wrote[wait[out.name]] + 1 - n), back + 1)
        back = int(steps[-1])
        freed[out.name].append(back)
        tile_cycles.append(int(wrote[-1]) - int(pieces[0][0]) + 1)
    return Run(back + 2, tile_cycles)
