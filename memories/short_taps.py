"""Short taps of a stream that writes many values its readers never take, read from a small addressed bank.

A tap a few cycles after the previous one is a run of registers (memories/delay_lines.py), each holding every
value of the stream for a cycle. Where the stream writes values no reader takes (a reduction's running sums, of
which only the last is read: resnet_layer_gen's conv writes 9 partial sums a pixel and hw_output reads the
finished one 3 cycles later), a bank written with only the values the reads take holds fewer words: a 1-word
bank in registers for a 3-register chain. `mapping._far_taps_addressed` tries only taps a delay line would serve
and compares tiles as if every bank took its tile, so it never takes these; here, after the other searches, each
write port's taps from a short delay on are tried as addressed reads, and the mapping is kept where, with its
small banks in registers as they end (`mapping.small_banks_in_registers`), it stores fewer words on no more
tiles. Being last, no later search compares against it.
"""

from __future__ import annotations

import dataclasses

from mainspring.target import CGRA

from . import mapping as mp
from .ir import Bank
from .polyhedral import Program
from .schedule import Schedule


def short_taps_addressed(prog: Program, sched: Schedule, target: CGRA, name: str, reads: list[mp.Read],
                         wports: mp.WritePorts, slices: int, best: mp.Organised) -> mp.Organised:
    """`best`, or the mapping with a write port's taps from a short delay on read from addressed banks, where
    that stores fewer words on no more tiles once small banks are registers."""
    def final(org: mp.Organised) -> tuple[int, int]:
        return mp.organised_tiles(mp.small_banks_in_registers(target, org)), mp.organised_words(wports, org)

    for wp in wports.values():
        delays = sorted({r.port.delay for r in reads if r.port.source == wp.name and r.port.delay is not None
                         and 2 <= r.port.delay <= target.register_delay_limit})
        for d in delays:
            trial = [mp.Read(dataclasses.replace(r.port, delay=None), r.flow)
                     if r.port.source == wp.name and r.port.delay is not None and r.port.delay >= d else r
                     for r in reads]
            got = [g for g in (mp.try_organise(prog, sched, target, name, trial, wports, slices, banker)
                               for banker in (None, _stream_banks)) if g is not None]
            if not got:
                continue
            (tiles, words), (was_tiles, was_words) = min(final(g) for g in got), final(best)
            if tiles <= was_tiles and words < was_words:
                best, reads = min(got, key=final), trial
                break
    return best


def _stream_banks(prog: Program, sched: Schedule, target: CGRA, buf: str, reads: list[mp.Read],
                  wports: mp.WritePorts, slices: int, first: int) -> tuple[list[Bank], dict[str, str]]:
    """Addressed banks of one write stream each: the values of two streams (two lanes' running sums read at
    different iterations of one load) stored linear over their hull would keep a frame apart."""
    srcs = sorted({(r.flow.src.index, r.flow.src_lane): r.flow.src for r in reads}.items())
    return mp.grouped_banks(prog, sched, target, buf, reads, wports, slices, first, [[s] for s in srcs])
