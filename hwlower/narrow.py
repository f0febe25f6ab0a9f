"""Narrowing: a producer whose consumers read fewer of its pixels per firing than its lanes make runs in fewer
lanes, the most every reader can take.

Halide accepts any combination of unrolls on a producer and its consumers: an unroll changes how a Func is
computed, never its values. Here a stage's lanes are its pixels per cycle, and the static schedule steps each op
no faster than its producers make what it reads (`memories/op_pacing.py`, `keep_pace`). Two cases remain:

- A consumer reading `c` pixels of x per firing from a producer of `k` lanes where k divides c (a 2-lane blur over
  a 1-lane stream, c = 2, k = 1): each of its lanes always reads the same lane of the producer, so every flow is
  a box of iterations and the consumer is simply paced to the producer (one firing every c / k of its cycles).
- k does not divide c (demosaic's full-resolution output at 2 pixels per cycle reads 1 pixel of a
  half-resolution plane per firing, c = 1, but the plane was unrolled by 2): a consumer's lane would read another
  lane of the producer at each step, a strided set no port controller walks. The producer's lanes are more than
  any reader takes, so it computes gcd(k, c) pixels per firing: its unrolled loop of x becomes a serial loop of
  k / g steps around g lanes (the same iterations in the same order: an unrolled loop keeps its sequential
  meaning). It then runs at its readers' pace with fewer PEs, and the pipeline's rate, which its slowest stage
  sets, is unchanged.

Narrowing runs from consumers back to producers (a narrowed op reads fewer pixels of its own producers) until
nothing changes. Accelerator inputs are not narrowed: their lanes are the host's words per transfer, which the
user chose (`lanes.check_rates` refuses the mismatch with the fix); nor are RAM updates and lookups or the
accelerator output. Of a Func with several ops, other Funcs read the last stage (an update in its own loops,
`f(r.x, y) = ...` with r.x unrolled, writes its lanes as they are), and its updates read the pure definition.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from mainspring.frontend import ir

from .fold import map_calls
from .ir import Access, Affine, CoordPort, LoadPort, Loop, LoopNest, Op
from .lanes import MAX_PORTS, Lanes, x_loop


def narrow_lanes(nest: LoopNest, lanes: dict[str, Lanes], inputs: dict[str, Lanes]) -> tuple[LoopNest,
                                                                                             dict[str, Lanes]]:
    """The nest with every internal producer narrowed to the lanes its readers take, and the ops' lanes."""
    lanes = dict(lanes)
    while True:
        want = _wanted(nest, lanes, inputs)
        if not want:
            return nest, lanes
        for name, g in sorted(want.items()):
            nest = _narrow(nest, name, lanes[name].k, g)
            lanes[name] = replace(lanes[name], k=g)


def _reads(nest: LoopNest, quotients: bool = False) -> list[tuple[Op, int, Op | None, str]]:
    """(consumer op, c, producer op or None for a stream, buffer): c pixels of the producer's x per firing; with
    `quotients`, also reads that other loops than the consumer's x move (`_quotient_steps`)."""
    ops = nest.ops()
    stores: dict[str, list[Op]] = {}
    for _, op in ops:
        stores.setdefault(op.store.buffer, []).append(op)
    out = []
    for loops, op in ops:
        xloop = x_loop(loops, op.store.index[0]) if op.store.index else None
        for port in op.loads:
            writers = stores.get(port.access.buffer, [])
            if op in writers:  # an update reads its Func's pure definition (check_rates' producer)
                writers = [w for w in writers if w.stage == 0 and op.stage > 0]
            if xloop is None or not port.access.index or (op.store.buffer == port.access.buffer and not writers):
                continue
            c = dict(port.access.index[0].terms).get(xloop, 0) or \
                (_quotient_steps(loops, port.access.index[0]) if quotients else 0)
            if c > 0:
                # other Funcs read a Func's last stage (an update in its own loops, f(r.x, y) = ... with r.x
                # unrolled, writes its lanes as they are): that stage is the one to narrow
                out.append((op, c, max(writers, key=lambda w: w.stage) if writers else None, port.access.buffer))
    return out


def _wanted(nest: LoopNest, lanes: dict[str, Lanes], inputs: dict[str, Lanes]) -> dict[str, int]:
    """Producer op -> the lanes every reader can take, for the producers that have more and can run in them."""
    floor = _floors(nest, _reads(nest), lanes, inputs)
    want: dict[str, int] = {}
    for _, c, src, _ in _reads(nest, quotients=True):
        if src is None:
            continue
        k = want.get(src.name, lanes[src.name].k)
        g = math.gcd(k, c)
        if g < k and floor[src.name] <= g and g % floor[src.name] == 0:
            want[src.name] = g
    return want


def _quotient_steps(loops: tuple[Loop, ...], index: Affine) -> int:
    """1 where a read takes one pixel of its producer's x a firing that other serial loops than the consumer's own x
    move by single pixels (`up(x, y) = f(x / 2, y / 2)` at one lane: x's strip-mined outer loop steps f's x by 1):
    a producer of more lanes would have each step read another lane, so it runs in one (session 40); else 0."""
    terms = dict(index.terms)
    if any(lp.unrolled and lp.extent > 1 and terms.get(lp.var) for lp in loops):
        return 0
    steps = [terms[lp.var] for lp in loops if not lp.unrolled and lp.extent > 1 and terms.get(lp.var)]
    return 1 if steps and min(steps) > 0 and math.gcd(*steps) == 1 else 0


def _floors(nest: LoopNest, reads: list[tuple[Op, int, Op | None, str]], lanes: dict[str, Lanes],
            inputs: dict[str, Lanes]) -> dict[str, int]:
    """Each op's fewest lanes (a divisor of its lanes) at which every lane still reads one lane of each producer
    at the producer's own fewest: a stream's lanes are fixed, and so are an op's that cannot be narrowed. In
    program order, producers first."""
    floor: dict[str, int] = {}
    sole = sole_readers(nest)
    for loops, op in nest.ops():
        k = lanes[op.name].k
        if not _narrowable(nest, loops, op, k):
            floor[op.name] = k
            continue
        ports = Counter(p.access.buffer for p in op.loads)
        # (c, the producer's fewest lanes, whether a narrowed op may read them in turn: a stream's, lane_steps.py)
        mine = [(c, inputs[b].k, ports[b] <= MAX_PORTS and b in sole) if src is None else
                (c, floor.get(src.name, lanes[src.name].k), False)
                for o, c, src, b in reads if o is op and (src is not None or b in inputs)]
        # an op that may run past its last pixel reads in turn over any count of them (lane_steps.py `_grown`)
        pixels = 0 if roundable(nest, op) else _pixels(loops, op, k)
        floor[op.name] = next((g for g in range(1, k) if k % g == 0 and _whole(g, k, pixels, mine)), k)
    return floor


def _whole(g: int, k: int, pixels: int, reads: list[tuple[int, int, bool]]) -> bool:
    """Whether an op of k lanes over `pixels` of x, narrowed to g, reads whole lanes of each producer (c pixels a
    firing at k lanes; f: its lanes; `turns`: it may read them in turn): c * g / k pixels a firing, which f divides,
    or which it reads in turn over whole steps of its loop's pixels / g firings."""
    return all(c * g % k == 0 and ((c * g // k) % f == 0 or (turns and (pixels // g) % (f // math.gcd(
        f, c * g // k)) == 0)) for c, f, turns in reads)


def roundable(nest: LoopNest, op: Op) -> bool:
    """Whether op's loop over x may run past its last iteration to read a stream's lanes in turn (lane_steps.py
    `_grown`): not the output's (its extra values would stream out), nor a RAM's update or lookup, nor an op of a
    Func with other ops (they would have to agree on the buffer's grown box)."""
    if op.store.buffer == nest.output or op.scatter or op.lookup:
        return False
    return sum(o.store.buffer == op.store.buffer for _, o in nest.ops()) == 1


def _pixels(loops: tuple[Loop, ...], op: Op, k: int) -> int:
    """The pixels of x op's lane loop and its serial parent compute (0 if they are not x = k * xo + xi)."""
    lane = _lane_loop(loops, op, k)
    at = loops.index(lane) if lane is not None else 0
    return k * loops[at - 1].extent if at and not loops[at - 1].unrolled else 0


def sole_readers(nest: LoopNest) -> dict[str, str]:
    """Buffer -> the op that reads it, for the buffers one op reads."""
    readers: dict[str, set[str]] = {}
    for _, op in nest.ops():
        for port in op.loads:
            readers.setdefault(port.access.buffer, set()).add(op.name)
    return {b: next(iter(ops)) for b, ops in readers.items() if len(ops) == 1}


def _narrowable(nest: LoopNest, loops: tuple[Loop, ...], op: Op, k: int) -> bool:
    return op.store.buffer != nest.output and not op.scatter and not op.lookup and _lane_loop(loops, op, k) is not None


def _lane_loop(loops: tuple[Loop, ...], op: Op, k: int) -> Loop | None:
    """The unrolled loop among op's `loops` that makes its k lanes of x (x moves by one per iteration), holding
    only op."""
    terms = dict(op.store.index[0].terms) if op.store.index else {}
    for lp in reversed(loops):
        if lp.unrolled and lp.extent == k and terms.get(lp.var) == 1:
            return lp if _only(lp, op) else None
    return None


def _only(node: Loop | Op, op: Op) -> bool:
    return node is op if isinstance(node, Op) else all(_only(n, op) for n in node.body)


def _narrow(nest: LoopNest, name: str, k: int, g: int) -> LoopNest:
    """Op `name` at g lanes of x instead of k: as if its Func were unrolled by g. Its lane loop's serial parent
    (x = k * xo + xi) becomes one serial loop of the steps of g (x = g * xo' + xi'), so the op's loops look like a
    Func's that was unrolled by g (the scheduler aligns ops by their loops); failing that, the lane loop becomes a
    serial loop of k / g steps around g lanes."""
    (loops, op), = [(lp, o) for lp, o in nest.ops() if o.name == name]
    lane = _lane_loop(loops, op, k)
    assert lane is not None and k % g == 0, f"{name}: no lane loop of {k} to narrow to {g}"
    at = loops.index(lane)
    outer = loops[at - 1] if at else None
    if outer is not None and outer.body == (lane,) and _merges(op, outer.var, lane.var, k) \
            and not outer.strip and not lane.strip and not outer.unrolled:
        const = k * outer.min + lane.min
        body = _substitute(lane.body, _Resplit(outer.var, lane.var, k, g, const))
        inner = body if g == 1 else (Loop(lane.var, 0, g, body, unrolled=True),)
        return replace(nest, body=_replace_node(nest.body, outer, Loop(outer.var, 0, outer.extent * k // g, inner)))
    serial = f"{lane.var}.serial"
    body = _substitute(lane.body, _Resplit(serial, lane.var, 0, g, lane.min))
    new = Loop(serial, 0, k // g, body if g == 1 else (Loop(lane.var, 0, g, body, unrolled=True),), strip=lane.strip)
    return replace(nest, body=_replace_node(nest.body, lane, new))


@dataclass(frozen=True, slots=True)
class _Resplit:
    """x = k * outer + lane + const (k = 0: x = lane + const, outer new) becomes g * outer + lane' + const over the
    new loops (g = 1: outer alone)."""

    outer: str
    lane: str
    k: int
    g: int
    const: int

    def __call__(self, a: Affine) -> Affine:
        terms = dict(a.terms)
        c = terms.pop(self.lane, 0)
        assert terms.pop(self.outer, 0) == self.k * c, (a, self)
        terms[self.outer] = self.g * c
        if self.g > 1:
            terms[self.lane] = c
        return Affine.make(terms, a.const + c * self.const)


def _merges(op: Op, outer: str, lane: str, k: int) -> bool:
    """Every index of op moves along outer k times as far as along lane (both only through x = k * outer + lane)."""
    return all(dict(a.terms).get(outer, 0) == k * dict(a.terms).get(lane, 0) for a in _affines(op))


def _affines(op: Op) -> list[Affine]:
    out = list(op.store.index) + [q.value for q in op.coords]
    for p in op.loads:
        out += list(p.access.index) + [e for e, _, _ in p.access.guard]
    return out


def _replace_node(nodes: tuple[Loop | Op, ...], old: Loop, new: Loop) -> tuple[Loop | Op, ...]:
    out: list[Loop | Op] = []
    for n in nodes:
        if n is old:
            out.append(new)
        elif isinstance(n, Loop):
            body = _replace_node(n.body, old, new)
            out.append(n if all(a is b for a, b in zip(body, n.body)) else replace(n, body=body))
        else:
            out.append(n)
    return tuple(out)


def _substitute(nodes: tuple[Loop | Op, ...], sub: Callable[[Affine], Affine]) -> tuple[Loop | Op, ...]:
    return tuple(replace(n, body=_substitute(n.body, sub)) if isinstance(n, Loop) else _op(n, sub) for n in nodes)


def _access(a: Access, sub: Callable[[Affine], Affine]) -> Access:
    return Access(a.buffer, tuple(sub(i) for i in a.index), tuple((sub(e), lo, hi) for e, lo, hi in a.guard))


def _op(op: Op, sub: Callable[[Affine], Affine]) -> Op:
    """op with its loop variables substituted in every index, guard and coordinate."""
    ports: dict[int, LoadPort | CoordPort] = {}
    for p in op.loads:
        ports[id(p)] = LoadPort(p.name, _access(p.access, sub))
    for q in op.coords:
        ports[id(q)] = replace(q, value=sub(q.value))

    def swap(c: ir.Call) -> ir.Expr | None:
        new = ports.get(id(c.callee))
        return None if new is None else ir.Call(c.type, new, c.args)

    value = map_calls(op.value, swap, {})
    loads = tuple(p2 for p in op.loads for p2 in [ports[id(p)]] if isinstance(p2, LoadPort))
    coords = tuple(q2 for q in op.coords for q2 in [ports[id(q)]] if isinstance(q2, CoordPort))
    return replace(op, store=_access(op.store, sub), loads=loads, value=value, coords=coords)
