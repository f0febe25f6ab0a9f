"""Strip-mining for an upsample: the loops over a dimension that an index divides by a constant d (x / 2) are
split so that the quotient is affine in them (`strip_mine`, used by the `ops` pass for every op of the
accelerator). Without lanes the loop over x splits into d-long steps; with lanes along x (L pixels per cycle,
x = L * xo + xi) the split that makes x / d affine depends on L: lanes of whole steps (L a multiple of d, 4 over
x / 2) split into L / d steps of d lanes, each step's lanes reading one word (each lane's port its own constant
offset); lanes a divisor of d (2 over x / 4) split the serial loop into steps of d / L iterations; lanes equal to
d need no split (x / d = xo). Lanes that are neither (2 over x / 3: quotients 0 0, 0 1, 1 1 in successive cycles)
split the serial loop into runs of d / gcd(L, d) iterations, in which each lane selects its word among the run's
few (lane_quotients.py); where they are too many `uneven_lanes` explains the refusal."""

from __future__ import annotations

import math

from mainspring.frontend import ir
from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.func import Function
from mainspring.frontend.schedule import StageSchedule

from .ir import Affine
from .lane_quotients import MAX_CHOICES, lane_choices
from .lanes import Lanes, stage_lanes
from .loops import StageLoop, StageLoops


def strip_mine(s: StageLoops, args: tuple[ir.Expr, ...], chains: dict[int, tuple[int, ...]], f: Function,
                loc: str, round_up: bool = False, schedule: StageSchedule | None = None,
                handle: str = "") -> StageLoops:
    """Split the loop over each dimension that an upsample divides by d into L.strip_o and L.strip_i of extent
    d (L = d * L.strip_o + L.strip_i), in every op of the accelerator, so that x / d is affine (L.strip_o) and
    all loop nests keep the same shape for the scheduler (memories/schedule.py knows these names). With lanes
    along the dimension, the loop split is the one that makes x / d affine (`_step_split`). A dimension read at
    a chain of divisors (`chains`: (2, 4) for x / 2 and x / 4) splits in nested steps, the inner step loop again
    by each smaller divisor (`_nested`). `round_up`: the accelerator's output, whose loop rounds up to whole
    steps (bounds inference gave its producers the values the last step reads; the host keeps the tile).
    `schedule` and `handle` (the stage's, as the user names it) name the unroll a refusal of lanes changes."""
    split: dict[str, tuple[int, int, int]] = {}  # loop -> (its factor, the step d, the pixels of x per run)
    nested: dict[str, tuple[int, ...]] = {}  # loop -> the factors its inner step loop splits by, outermost first
    unrolled = {lp.dim: lp.extent for lp in s.loops if lp.unrolled}
    for i, a in enumerate(args):
        if i in chains and isinstance(a, ir.Var) and a.name in s.var_exprs:
            chain = chains[i]
            at = _step_split(s.var_exprs[a.name].terms, unrolled, chain[-1], len(chain) == 1)
            terms = s.var_exprs[a.name].terms
            lane = next((v for v, c in terms if c == 1 and v in unrolled and len(terms) == 2), None)
            if at is not None:
                run = chain[-1] if at[0] in unrolled or lane is None else at[1] * unrolled[lane]
                split[at[0]] = (at[1], chain[-1], run)
            if len(chain) > 1 and (factors := _chain_factors(chain, at, unrolled, lane)) is None and \
                    (uneven := _uneven_chain(chain, terms, unrolled)) is not None:
                # lanes neither a divisor of the least nor whole steps of the greatest (3 over x / 2 and x / 4):
                # runs whose every quotient each lane selects among a few words (lane_quotients.py), not nested
                split[uneven[0]] = (uneven[1], chain[-1], uneven[1] * unrolled[lane or ""])
                continue
            if len(chain) > 1 and factors is None:
                assert schedule is not None
                lanes = stage_lanes(handle, handle, a.name, s, schedule)
                raise ScheduleError(_chain_lanes(chain, a.name, lanes, f, loc))
            if len(chain) > 1 and factors:
                if at is not None and factors[0]:
                    nested[at[0]] = factors[0]
                if lane is not None and factors[1]:  # x = L * xo + xi, xi unrolled: lanes of the smaller steps
                    nested[f"{lane}.lanes"] = factors[1]
    s = _split(s, split, f, loc, round_up)
    for v, steps in nested.items():
        # x = 4 * x.strip_o + x.strip_i, then x.strip_i = 2 * x.strip_i.strip_o + ...; lanes split as they are
        loop = v.removesuffix(".lanes") if v.endswith(".lanes") else f"{v}.strip_i"
        for m in steps:
            s = _split(s, {loop: (m, m, m)}, f, loc, round_up)
            loop = f"{loop}.strip_i"
    return s


def _chain_factors(chain: tuple[int, ...], at: tuple[str, int] | None, unrolled: dict[str, int],
                   lane: str | None) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The factors the inner step loop of the split `at` (for the chain's last divisor) splits by in turn, so
    that each smaller divisor's quotient is affine, and those its lanes split by: without lanes, or with lanes of
    whole steps (the lanes split), the smaller divisors themselves; with k lanes dividing the greatest (the serial
    loop split by d / k), the smaller divisors above k over k, and the lanes by those below k that divide k (4
    lanes over x / 2 and x / 8: x = 8 * xo.strip_o + 4 * xo.strip_i + xi, x / 2 = 4 * xo.strip_o + 2 *
    xo.strip_i + xi / 2, xi split by 2 as lanes of whole steps). None for other lanes: their quotients at the
    smaller divisors are affine in no split. Lanes `lane` as many as the greatest divisor need no serial split (x /
    4 = xo over 4 lanes), only the lanes' (x / 2 = 2 * xo + xi / 2)."""
    if at is None and lane is not None and unrolled[lane] == chain[-1]:
        at, k = (lane, 0), chain[-1]
    else:
        k = 1 if at is None or at[0] in unrolled or at[1] == chain[-1] else chain[-1] // at[1]
    if at is None or any(c % k and k % c for c in chain):
        return None
    return (tuple(c // k for c in reversed(chain[:-1]) if c > k),
            tuple(c for c in reversed(chain[:-1]) if c < k and k % c == 0))


def _uneven_chain(chain: tuple[int, ...], terms: tuple[tuple[str, int], ...],
                  unrolled: dict[str, int]) -> tuple[str, int] | None:
    """(the serial loop, its run) for lanes along a dimension read at a chain of divisors that neither divide the
    least nor are whole steps of the greatest: the run of the greatest's uneven split (`_step_split`), whose pixels
    are then whole steps of every divisor (each divides the greatest), where each lane selects among at most
    MAX_CHOICES words at every divisor; None otherwise."""
    at = _step_split(terms, unrolled, chain[-1])
    lanes = [unrolled[v] for v, c in terms if c == 1 and v in unrolled]
    if at is None or at[0] in unrolled or len(lanes) != 1:
        return None
    if any(lane_choices(lanes[0], c, at[1]) > MAX_CHOICES for c in chain):
        return None
    return at


def _chain_lanes(chain: tuple[int, ...], v: str, lanes: Lanes, f: Function, loc: str) -> str:
    """The refusal of lanes along a dimension read at a chain of divisors that are neither a divisor of the least
    nor whole steps of the greatest, with the unroll that works."""
    run = chain[-1] // math.gcd(lanes.k, chain[-1])
    words = max(lane_choices(lanes.k, c, run) for c in chain)
    many = (f", and in runs of {run} cycles each lane would select among up to {words} words (lane_quotients.py: "
            f"at most {MAX_CHOICES})") if words > MAX_CHOICES else ""
    return (f"{loc}: Func '{f.name}' reads its dimension {v} at a chain of divisors "
            f"({', '.join(f'{v} / {c}' for c in chain)}), which the accelerator runs in steps of {chain[-1]} split "
            f"into nested steps of {', then '.join(map(str, reversed(chain[:-1])))}, but its {lanes.k} lanes "
            f"along {lanes.var} ({lanes.described()}) are neither a divisor of {chain[0]} nor a multiple of "
            f"{chain[-1]} above it, so a quotient moves unevenly from lane to lane{many}; "
            f"{lanes.suggestion(chain[0])} (or unroll "
            f"by {2 * chain[-1]})")


def _split(s: StageLoops, split: dict[str, tuple[int, int, int]], f: Function, loc: str,
           round_up: bool) -> StageLoops:
    """s with each loop of `split` split by its factor; the halves of a loop that is itself the inner half of a
    split (a nested step) are both inner, so the scheduler sees one outer digit and inner ones below it."""
    loops, exprs = [], dict(s.var_exprs)
    for lp in s.loops:
        m, d, run = split.get(lp.dim, (0, 0, 0))
        if m and lp.unrolled:  # lanes of whole steps: (L / d) steps of d lanes, all in one cycle
            loops += [StageLoop(f"{lp.dim}.strip_o", lp.extent // m, True, lp.is_rvar),
                      StageLoop(f"{lp.dim}.strip_i", m, True, lp.is_rvar)]
            exprs = _substituted(exprs, lp.dim, m)
            continue
        if not m or lp.extent == 1:
            loops.append(lp)
            continue
        if lp.extent % m and not round_up:
            each = f" ({m} iterations of {run // m} lanes)" if m != run else ""
            raise ScheduleError(
                f"{loc}: Func '{f.name}': an upsample divides the index of dimension {lp.dim} by {d}, so the "
                f"accelerator runs that loop in steps of {run}{each}, but '{f.name}' runs it {lp.extent} times; make "
                f"its extent a multiple of {m} (bound the output to a multiple of {run})"
            )
        outer = "inner" if lp.strip == "inner" else "outer"
        loops += [StageLoop(f"{lp.dim}.strip_o", -(-lp.extent // m), False, lp.is_rvar, outer),
                  StageLoop(f"{lp.dim}.strip_i", m, False, lp.is_rvar, "inner")]
        exprs = _substituted(exprs, lp.dim, m)
    return StageLoops(tuple(loops), exprs)


def _step_split(terms: tuple[tuple[str, int], ...], unrolled: dict[str, int], d: int,
                uneven: bool = True) -> tuple[str, int] | None:
    """(the loop to split, its factor) that makes x / d affine, for x = `terms`: a loop x alone, by d (unrolled
    whole, as lanes of whole steps); lanes xi (unrolled, L of them) on x = L * xo + xi, where L is a multiple of d
    and more than d, the lanes by d (xi = d * xi.strip_o + xi.strip_i: 4 lanes over x / 2 read 2 * xo +
    xi.strip_o, each pair of lanes one word), and where L divides d and is less, the serial loop by d / L (2 lanes
    over x / 4: xo = 2 * xo.strip_o + xo.strip_i, x / 4 = xo.strip_o). None otherwise: lanes equal to d need no
    split (x / d = xo); lanes that are neither (2 over x / 3) the serial loop by d / gcd(L, d), runs in which
    each lane selects among a few words (lane_quotients.py `lane_choices`), None past MAX_CHOICES or, for a chain of
    divisors (`uneven` False), at all (refused naming the chain)."""
    if len(terms) == 1 and terms[0][1] == 1:  # a loop alone; unrolled whole, it is lanes of whole steps or none
        v = terms[0][0]
        return (v, d) if v not in unrolled or (unrolled[v] % d == 0 and unrolled[v] > d) else None
    lanes = [v for v, c in terms if c == 1 and v in unrolled]
    if len(terms) != 2 or len(lanes) != 1:
        return None
    (serial, c), = [(v, c) for v, c in terms if v != lanes[0]]
    k = unrolled[lanes[0]]
    if c != k or serial in unrolled:
        return None
    if k % d == 0 and k > d:
        return lanes[0], d
    if d % k == 0 and k < d:
        return serial, d // k
    if not uneven or k == d or lane_choices(k, d) > MAX_CHOICES:
        return None
    # neither (2 lanes over x / 3): runs of d / gcd(k, d) iterations, in which the lanes' quotients repeat
    # (lane_quotients.py reads each run's few words and selects)
    return serial, d // math.gcd(k, d)


def _substituted(exprs: dict[str, Affine], dim: str, m: int) -> dict[str, Affine]:
    """exprs with loop `dim` replaced by m * dim.strip_o + dim.strip_i."""
    out = dict(exprs)
    for v, e in exprs.items():
        c = dict(e.terms).get(dim, 0)
        if c:
            moved = {t: k for t, k in e.terms if t != dim}
            moved[f"{dim}.strip_o"], moved[f"{dim}.strip_i"] = c * m, c
            out[v] = Affine.make(moved, e.const)
    return out


def uneven_lanes(s: StageLoops, args: tuple[ir.Expr, ...], steps: dict[int, int], schedule: StageSchedule,
                 handle: str, output: bool = False) -> str:
    """Why an index divided by an upsample's d is affine in no loop when the stage's lanes along that dimension
    are neither a multiple nor a divisor of d, with the unroll that works; "" when they are (`s`: the stage's
    loops before `strip_mine`; `output`: the accelerator's output, which no Func inside reads)."""
    for i, a in enumerate(args):
        if i not in steps or not isinstance(a, ir.Var) or a.name not in s.var_exprs:
            continue
        d, lanes = steps[i], stage_lanes(handle, handle, a.name, s, schedule)
        words = lane_choices(lanes.k, d)  # the words each lane chooses among per run (lane_quotients.py)
        if lanes.k < 2 or lanes.k % d == 0 or d % lanes.k == 0 or not lanes.call or words <= MAX_CHOICES:
            continue
        seen = [" ".join(str((lanes.k * t + j) // d) for j in range(lanes.k)) for t in range(2)]
        readers = "" if output else ", and its readers' lanes alike"
        most = max(k for k in range(2, lanes.k) if k % d and d % k and lane_choices(k, d) <= MAX_CHOICES)
        return (f"its {lanes.k} lanes along {a.name} ({lanes.call}) are neither whole steps of the upsample's {d} nor "
                f"a divisor of {d}, so each lane's quotient moves unevenly from cycle to cycle ({a.name} / {d} over "
                f"{lanes.k} lanes: {', '.join(seen)}, ...): each lane would select among up to {words} words per run "
                f"of {d // math.gcd(lanes.k, d)} cycles (a compare and a select each, in every lane), and the "
                f"accelerator selects among at most {MAX_CHOICES} (so at most {most} lanes that are neither); make "
                f"the lanes a multiple of {d} or a divisor of {d}: {lanes.suggestion(d)}{readers}")
    return ""


def other_divisors(value: ir.Expr, args: tuple[ir.Expr, ...], chains: dict[int, tuple[int, ...]], fname: str,
                   lanes: dict[str, int] | None = None) -> str:
    """Why a read at v / e is affine in no loop when the stage's loop over v runs in steps of another d (the
    stage reads f at x / 2 and g at x / 3: one loop steps by one divisor), with the fix that works: the read at
    v / e upsampled on the host and streamed in; "" when every quotient of a stepped variable is by its step."""
    dims = {a.name: i for i, a in enumerate(args) if isinstance(a, ir.Var)}
    reads: dict[tuple[str, int], ir.Call] = {}  # (variable, divisor) -> the first read dividing it so
    periodic: set[tuple[str, int]] = set()  # quotients taken modulo (`(x / 2) % 10`): no run of the lcm serves them
    for c in ir.walk(value):
        if not (isinstance(c, ir.Call) and isinstance(c.callee, Function)):
            continue
        nodes = [m for a in c.args for m in ir.walk(a)]
        remainders = {id(n.a) for n in nodes if isinstance(n, ir.BinOp) and n.op == "mod"}
        for n in nodes:
            if isinstance(n, ir.BinOp) and n.op == "div" and isinstance(n.b, ir.Const) and \
                    isinstance(n.b.value, int) and n.b.value > 1:
                names = {v.name for v in ir.walk(n.a) if isinstance(v, (ir.Var, ir.RVar))}
                if len(names) == 1 and (v := next(iter(names))) in dims and dims[v] in chains:
                    reads.setdefault((v, n.b.value), c)
                    if id(n) in remainders:
                        periodic.add((v, n.b.value))
    for (v, e), c in reads.items():
        d = chains[dims[v]][-1]
        lcm = len(chains[dims[v]]) == 1 and d % e == 0 and d != e and (v, e) not in periodic  # (runs: steps.py)
        k = (lanes or {}).get(v, 1)  # (k lanes: runs of d / gcd(k, d) iterations, as strip_mine splits them)
        words = lane_choices(k, e, d // math.gcd(k, d))
        if e in chains[dims[v]] or (lcm and words <= MAX_CHOICES):
            continue  # (a chain of divisors: nested steps make each affine; runs of their lcm: each a select)
        assert isinstance(c.callee, Function)
        g, own = c.callee.name, ", ".join(a.name for a in args if isinstance(a, ir.Var))
        first = reads.get((v, d))
        why = f" (for {v} / {d}: its read {ir.user_text(first)})" if first is not None else ""
        at = f"{d // math.gcd(k, d)} iterations of {k} lanes (the lcm of its divisors is {d})" if k > 1 else \
            f"{d} (the lcm of its divisors)"
        because = (f"runs its loop over {v} in runs of {at}, in which {v} / {e} "
                   f"would select among up to {words} words, and the accelerator selects among at most "
                   f"{MAX_CHOICES} (lane_quotients.py)") if lcm else \
            (f"runs its loop over {v} in steps of {d}{why}, and one loop steps by one divisor, so {v} / {e} is "
             f"affine in no split of it (upsamples by {d} and by {e} read at one resolution)")
        return (f"'{fname}' {because}; "
                f"upsample the read at {v} / {e} on the host and stream it in: {g}_up({own}) = "
                f"{ir.user_text(c)}; {g}_up.compute_root().stream_to_accelerator() ('{g}' computed on the host: "
                f"compute_root), and read {g}_up({own}) in '{fname}'")
    return ""
