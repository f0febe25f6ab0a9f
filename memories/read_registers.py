"""Registers after a bank read port: addressed reads that take another read's words some cycles later.

Why: camera_pipeline's green planes are read at x - 1, x and x + 1 of three rows in every cycle; along a row
the tap at x - 1 takes the word the tap at x + 1 took four cycles before (two iterations of x, two cycles each).
Eight addressed reads a cycle need copies of the rows on four tiles; one read per row and registers after its
bank read port need three, and banks by row parity (`banks`) then hold each row once.

Decided from the access maps, for the addressed reads of one op, lane and box from one write stream: read D is
read R delayed by k cycles when, for a time dim d and s > 0, D's element at iteration i is R's at i - s along d
(their indices differ only by s times R's coefficients of d), k = s * rate(d) cycles. R's bank read port then
iterates s more steps of d before its box: D's first s iterations of d (a row's start) take words R's box never
reads. It is folded only when those earlier iterations fit in cycles of their own (the extended controller
fires in increasing cycles along its iterations, a controller counting down its gaps, from cycle 0 on) and D's
values are written before R reads them there (D's least delay from its write is more than k). The
trial is kept by `mapping` only when it stores fewer words in no more tiles; `checker` proves every register's
word from its root's reads.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from . import mapping as mp
from .ir import BankPort, Dim, Register
from .polyhedral import Access, Program
from .schedule import Schedule, flow_delay

MAX_DELAY = 8  # cycles of registers after a bank read port at most (each register is a word of storage)


@dataclass(frozen=True)
class Folded:
    """The addressed reads banks serve (each root with its box extended before and the delayed reads' values
    in its flow), and each delayed read port's (root read port, cycles, time dim, iterations of it)."""

    roots: list[mp.Read]
    delayed: dict[str, tuple[str, int, int, int]]


def delayed_reads(prog: Program, sched: Schedule, reads: list[mp.Read]) -> dict[str, tuple[str, int, int, int]]:
    """read port -> (the read port it delays, cycles, time dim, iterations of it): the reads whose (cycle,
    element) pairs are another's delayed, each to the read farthest ahead of it (itself delayed by none)."""
    # Only unguarded reads of one op, lane, box, write stream and read offset whose indices differ in their
    # constants alone can delay one another: pairs are looked for within those groups. Within a group the
    # indices' terms are one, so the reads d can delay are those whose constants are d's plus s times a time
    # dim's coefficients, for the few s of at most `MAX_DELAY` cycles: looked up by constants (unsharp's
    # schedule 4 has some 300 addressed reads, 90,000 pairs, asked about one by one before).
    first: dict[tuple, Access] = {}
    for a in prog.accesses:
        first.setdefault((a.stmt, a.name), a)
    loads = {r: first[(r.flow.dst, r.flow.load)] for r in reads}
    groups: dict[tuple, dict[tuple[int, ...], list[tuple[int, mp.Read]]]] = {}
    for j, r in enumerate(reads):
        if not loads[r].guard:
            groups.setdefault(_group(r, loads[r]), {}).setdefault(_consts(loads[r]), []).append((j, r))
    best: dict[str, tuple[str, int, int, int]] = {}
    for d in reads:
        by_consts = groups.get(_group(d, loads[d]), {}) if not loads[d].guard else {}
        for _, r in sorted((c for key in _ahead(sched, d, loads[d]) for c in by_consts.get(key, [])),
                           key=lambda c: c[0]):
            got = _shift(sched, d, r, loads[d], loads[r]) if r is not d else None
            if got is not None and (d.port.name not in best or got[0] > best[d.port.name][1]):
                best[d.port.name] = (r.port.name, *got)
    return {name: v for name, v in best.items() if v[0] not in best}


def _consts(load: Access) -> tuple[int, ...]:
    return tuple(a.const for a in load.index)


def _ahead(sched: Schedule, d: mp.Read, ld: Access) -> set[tuple[int, ...]]:
    """The constants of the loads (with ld's terms) that `_shift` may find d delays: ld's plus s times a time
    dim's coefficients, s > 0 a multiple of the dim's step, within `MAX_DELAY` cycles."""
    rates = sched.timing[d.port.op].rates
    base = _consts(ld)
    terms = [dict(a.terms) for a in ld.index]
    out = set()
    for k, dim in enumerate(d.port.domain):
        coef = [t.get(dim.var, 0) for t in terms]
        if rates[k] > 0 and any(coef):
            out |= {tuple(b + s * c for b, c in zip(base, coef))
                    for s in range(dim.step, MAX_DELAY // rates[k] + 1, dim.step)}
    return out


def _group(r: mp.Read, load: Access) -> tuple:
    return (r.port.op, r.port.lane, r.port.domain, r.flow.src, r.flow.src_lane, r.flow.read_offset,
            tuple(a.terms for a in load.index))


def _shift(sched: Schedule, d: mp.Read, r: mp.Read, ld: Access, lr: Access) -> tuple[int, int, int] | None:
    """(k cycles, time dim, s iterations) when read d (its load `ld`) takes read r's (`lr`) element of s
    iterations before, else None. d and r are of one `_group`: their indices differ in their constants only."""
    rates = sched.timing[d.port.op].rates
    diffs = [b.const - a.const for a, b in zip(ld.index, lr.index)]
    terms = [dict(a.terms) for a in lr.index]  # once per pair: unsharp's schedule 4 asks about 280,000 pairs
    for k, dim in enumerate(d.port.domain):
        coef = [t.get(dim.var, 0) for t in terms]
        if dim.extent < 2 or not any(coef):
            continue
        # R's index at i - s e_d is R's index at i minus s * coef: D's constants must be that, for one s > 0
        s = next(df // c for df, c in zip(diffs, coef) if c)
        if s > 0 and s % dim.step == 0 and all(df == s * c for df, c in zip(diffs, coef)) \
                and 0 < s * rates[k] <= MAX_DELAY:
            return s * rates[k], k, s
    return None


def fold(prog: Program, sched: Schedule, reads: list[mp.Read]) -> Folded | None:
    """The reads with each delayed one served by registers after its root's bank read port (None: none folds)."""
    found = delayed_reads(prog, sched, reads)
    by_name = {r.port.name: r for r in reads}
    extend: dict[str, dict[int, int]] = {}  # root -> time dim -> iterations before its box
    kept: dict[str, tuple[str, int, int, int]] = {}
    for name, (root, k, dim, s) in sorted(found.items()):
        d = by_name[name]
        if flow_delay(d.flow, sched)[0] <= k:
            continue  # the root would read the value before it is written
        extend.setdefault(root, {})
        extend[root][dim] = max(extend[root].get(dim, 0), s)
        kept[name] = (root, k, dim, s)
    roots = []
    for r in reads:
        if r.port.name in kept:
            continue
        if r.port.name not in extend:
            roots.append(r)
            continue
        box = tuple(dataclasses.replace(dm, min=dm.min - extend[r.port.name].get(j, 0),
                                        extent=dm.extent + extend[r.port.name].get(j, 0) // dm.step)
                    for j, dm in enumerate(r.port.domain))
        if not _own_cycles(sched, r, box):
            return None
        rel = r.flow.rel
        for name, (root, *_) in kept.items():
            if root == r.port.name:
                rel = rel.union(by_name[name].flow.rel)  # their values, read at their own cycles: the lifetimes
        roots.append(mp.Read(dataclasses.replace(r.port, domain=box), dataclasses.replace(r.flow, rel=rel)))
    return Folded(roots, kept) if kept else None


def _own_cycles(sched: Schedule, r: mp.Read, box: tuple[Dim, ...]) -> bool:
    """The read over the extended box fires in increasing cycles along its iterations (a controller counts down
    the gaps), none before cycle 0."""
    t = sched.timing[r.port.op]
    return cycles_increase(r.flow.dst.time_dims, t.rates, t.delay + r.flow.read_offset, box)


def cycles_increase(dims: tuple[Dim, ...], rates: tuple[int, ...], start: int, box: tuple[Dim, ...]) -> bool:
    """Whether the cycle `start + rates . (t - dims' mins)` increases strictly along the box's iterations in loop
    order and is never negative there. Closed form (isl took 40 ms a question on a 1080p frame's boxes): two
    iterations first differing at loop k differ in cycle by at least rates[k] * step[k] less the most the later
    loops can take back, each |rate| * step * (extent - 1)."""
    if any(b.extent <= 0 for b in box):
        return True  # no iterations: nothing fires
    spans = [abs(q) * b.step * (b.extent - 1) for q, b in zip(rates, box)]
    for k, (q, b) in enumerate(zip(rates, box)):
        if b.extent > 1 and q * b.step <= sum(spans[k + 1:]):
            return False
    first = start + sum(min(q * (b.min - d.min), q * (b.min + b.step * (b.extent - 1) - d.min))
                        for q, b, d in zip(rates, box, dims))
    return first >= 0


def chains(folded: Folded, served: dict[str, str],
           ports: dict[str, BankPort]) -> tuple[list[Register], dict[str, str]]:
    """Registers after each root's bank read port (one chain per bank read port, shared by the reads it serves)
    and the register delivering each delayed read port. A chain is gated (memories/ir.py `last_of_runs`) when it takes
    fewer registers: a read s iterations of dim d behind its root takes s / step words of the root's, fewer
    than its s * rate(d) cycles when the op fires every other cycle or the root loads each word in a run of
    iterations (camera's green planes: x / 2 over a strip of 2, delays of 2 and 4 cycles are 1 and 2 words)."""
    by_port: dict[str, list[tuple[str, int, int, int]]] = {}
    for name, (root, k, dim, s) in sorted(folded.delayed.items()):
        by_port.setdefault(served[root], []).append((name, k, dim, s))
    registers: list[Register] = []
    taps: dict[str, str] = {}
    for bp in sorted(by_port):
        delays = {name: k for name, k, _, _ in by_port[bp]}
        words = _run_delays(ports[bp], by_port[bp])
        gated = words is not None and max(words.values()) < max(delays.values())
        got = words if gated and words is not None else delays
        registers += [Register(f"{bp}.reg{j}", bp if j == 1 else f"{bp}.reg{j - 1}", bp, j, gated)
                      for j in range(1, max(got.values()) + 1)]
        taps |= {name: f"{bp}.reg{k}" for name, k in got.items()}
    return registers, taps


def _run_delays(port: BankPort, delayed: list[tuple[str, int, int, int]]) -> dict[str, int] | None:
    """read port -> the runs of one word (`ir.last_of_runs`) of the root's it is behind, when every delayed read
    of the chain is behind along the innermost dim the root's address moves along (the dims inside it make the
    runs); else None."""
    n = len(port.domain)
    inner = max((k for k in range(n) if port.controller.data_stride[n - 1 - k] != 0), default=None)
    if inner is None or any(dim != inner or s % port.domain[dim].step for _, _, dim, s in delayed):
        return None
    return {name: s // port.domain[dim].step for name, _, dim, s in delayed}
