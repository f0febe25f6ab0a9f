"""How fast each op steps its loops given its producers' rates: at their pace (`keep_pace`), and a constant's init
at its reader's (`pace_constants`). Rates only: `schedule` solves the delays."""

from __future__ import annotations

from .polyhedral import HOST_OUT, Program, Stmt
from .stream_pacing import injective, source_steps, spaced_out


def _ops(prog: Program) -> list[Stmt]:
    return [s for s in prog.stmts if s.name != HOST_OUT]


def keep_pace(prog: Program, rates: dict[str, tuple[int, ...]], fixed: set[str], spaced: bool = False) -> None:
    """Slow each op down to its producers' pace: a step of its loop k must not be faster than the producers
    take to make what that step reads next (a 2x downsample steps x every 2 cycles and y every 2 rows of its
    input, so it starts a row after its input, not half a frame after). In program order: producers first.
    `spaced`: where its inner steps at their producers' pace leave no room for its outer ones at their rates (10
    lanes over x / 3 step a row of f's 10 words at 3 a step, and their rows come every 3 cycles), its outer steps
    spaced out too, else it runs ahead and waits with f's plane held (34 words for 4). Not always fewer words
    (an upsample so paced holds the frame): `schedule` weighs the two."""
    for s in _ops(prog):
        if s.name in fixed or s.name not in rates:
            continue
        need = list(rates[s.name])
        for f in prog.flows:
            if f.dst is not s or f.src.name not in rates:
                continue
            for k, step in enumerate(source_steps(f)):
                if step is not None:
                    need[k] = max(need[k], sum(q * d for q, d in zip(rates[f.src.name], step)))
        if spaced and not injective(need, s.time_dims):
            need = spaced_out(need, s.time_dims)
        if tuple(need) != rates[s.name] and injective(need, s.time_dims):
            rates[s.name] = tuple(need)


def pace_constants(prog: Program, rates: dict[str, tuple[int, ...]], fixed: set[str]) -> None:
    """Slow each op that reads nothing (a constant init) to the pace its one reader steps its values at: mobile's
    `pw_conv_reduction(k, x, y) = 0` then stores each pixel's zeros as the first sweep over channel planes
    reaches it, a constant delay before it (a tap, where at one firing per cycle it runs ahead and every value
    waits in an addressed memory for its sweep). It still finishes before its reader needs it."""
    for s in _ops(prog):
        if s.name in fixed or s.name not in rates or any(f.dst is s for f in prog.flows):
            continue
        reads = [f for f in prog.flows if f.src is s and not f.streamed_out]
        if not reads or len({f.dst.name for f in reads}) != 1 or reads[0].dst.name not in rates:
            continue
        pace = list(rates[s.name])
        for f in reads:
            for k, step in enumerate(source_steps(f)):
                moved = [j for j, v in enumerate(step or []) if v]
                if step is not None and len(moved) == 1 and step[moved[0]] == 1:
                    pace[moved[0]] = max(pace[moved[0]], rates[f.dst.name][k])
        if tuple(pace) != rates[s.name] and injective(pace, s.time_dims):
            rates[s.name] = tuple(pace)
