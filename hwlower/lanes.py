"""Lanes: several pixels per cycle. Which stages compute (and which streams carry) how many pixels of x per
cycle, and the check that every consumer in the accelerator reads its producers' lanes one to one.

A stage's lanes along x come from `unroll(x, k)` of its innermost pure loop (a split whose inner loop is
unrolled): each firing computes k consecutive pixels of x. An accelerator input's lanes come from the same
call on the input Func (`hw_input.unroll(x, k)`): the host streams k consecutive words per transfer. A consumer
that reads `c` pixels of its producer's x per firing, from a producer making `k` per firing, works when k
divides c: each of its lanes then always reads the same lane of the producer (a box of iterations for each
port), and when c > k the static schedule paces it to the producer (a 2-lane output over a 1-lane stream fires
every other cycle). A producer with more lanes than its readers take is narrowed to what they take (narrow.py);
what remains (a stream of more words per transfer than its reader takes, k not dividing c) is refused with the
unroll to add, change or remove.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.schedule import ForType, Fuse, Split, StageSchedule, TailStrategy

from .ir import Affine, Loop, LoopNest, Op
from .loops import StageLoops


@dataclass(frozen=True, slots=True)
class Lanes:
    """The pixels of x one firing of a stage computes (or one transfer of an input stream carries)."""

    who: str  # "Func 'blur'", "Func 'blur'.update(0)", "accelerator input 'hw_input'"
    handle: str  # how the user names the stage in a schedule call: "blur", "blur.update(0)"
    var: str  # the stage's loop over x, as the schedule names it ("x", "xi")
    k: int
    call: str | None = None  # "blur.unroll(x, 2)", the call that made the lanes
    loc: str | None = None  # where that call is
    tail: TailStrategy = TailStrategy.Auto

    def described(self) -> str:
        return f"{self.call} at {self.loc}" if self.call else "no unroll of x"

    def suggestion(self, k: int) -> str:
        new = f"{self.handle}.unroll({self.var}, {k})"
        return f"change {self.call} to {new}" if self.call else f"add {new}"


def stage_lanes(who: str, handle: str, x_arg: str, s: StageLoops, schedule: StageSchedule) -> Lanes:
    """The lanes of a stage along its first pure dimension `x_arg` (after `replay`)."""
    unrolled = {lp.dim: lp.extent for lp in s.loops if lp.unrolled}
    terms = dict(s.var_exprs[x_arg].terms) if x_arg in s.var_exprs else {}
    time = [(c, d) for d, c in terms.items() if d not in unrolled]
    if not time:
        return Lanes(who, handle, x_arg, 1)
    k, var = min(time)
    # a fused loop that hardware runs as two loops keeps the name of the fuse (loops.py), its inner loop's role
    inner_of = {dv.fused: dv.inner for dv in schedule.directives if isinstance(dv, Fuse)}
    split = next((dv for dv in schedule.directives if isinstance(dv, Split) and dv.outer == inner_of.get(var, var)
                  and dv.inner in unrolled and terms.get(dv.inner) == 1), None)
    if split is None or k == 1:
        return Lanes(who, handle, var, 1)
    mark = next(dv for dv in schedule.directives if isinstance(dv, ForType) and dv.var == split.inner)
    tail = "" if split.tail is TailStrategy.Auto else f", hl.TailStrategy.{split.tail.name}"
    call = f"{handle}.{mark.kind}({split.old}, {split.factor}{tail})"
    return Lanes(who, handle, split.old, k, call, str(mark.loc), split.tail)


def input_lanes(name: str, args: list[str], s: StageLoops, schedule: StageSchedule,
                handle: str | None = None, reorderable: bool = True) -> Lanes:
    """The lanes of accelerator input `name` (a stream of its box in storage order, `args[0]` fastest);
    `handle`: how the user names it. A transfer carries consecutive words of the box: leading dimensions
    unrolled whole (`hw_input.unroll(c)` of 3 channels), then at most one dimension unrolled by a factor
    (`.unroll(x, 3)`: with the channels, 9 words per transfer, the generators' "big parrot with unroll")."""
    who = f"accelerator input '{name}'"
    name = handle or name
    words, lanes = 1, Lanes(who, name, args[0], 1)
    for pos, arg in enumerate(args):
        terms = dict(s.var_exprs[arg].terms) if arg in s.var_exprs else {}
        whole = [lp for lp in s.loops if lp.unrolled and lp.dim == arg and terms == {arg: 1}]
        if whole:  # this dimension unrolled whole: a transfer carries all of it
            mark = next(dv for dv in schedule.directives if isinstance(dv, ForType) and dv.var == arg)
            words *= whole[0].extent
            if lanes.k == 1 and whole[0].extent > 1:
                lanes = Lanes(who, name, arg, whole[0].extent, f"{name}.{mark.kind}({arg})", str(mark.loc))
            continue
        part = stage_lanes(who, name, arg, s, schedule)
        if part.k > 1:
            words *= part.k
            lanes = part if lanes.k == 1 else lanes
        _check_unrolls(who, name, args, args[:pos + 1], s, schedule, reorderable)
        break
    return replace(lanes, k=words) if words != lanes.k else lanes


def _check_unrolls(who: str, name: str, args: list[str], streamed: list[str], s: StageLoops,
                   schedule: StageSchedule, reorderable: bool) -> None:
    """Refuse an unrolled loop of an input that is not part of its transfers' consecutive words (`reorderable`:
    its schedule may change its stream order; not with a GLB, stream_order.py)."""
    for lp in s.loops:
        used = [a for a in streamed if a in s.var_exprs and lp.dim in dict(s.var_exprs[a].terms)]
        if lp.unrolled and lp.extent > 1 and not used:
            mark = next(dv for dv in schedule.directives if isinstance(dv, ForType) and dv.var == lp.dim)
            split = next((sp for sp in schedule.directives if isinstance(sp, Split) and sp.inner == lp.dim), None)
            call = f"{split.old}, {split.factor}" if split else lp.dim
            raise ScheduleError(
                f"{mark.loc}: {who}: {name}.{mark.kind}({call}): the host streams an accelerator input in "
                + (f"stream order ({', '.join(args)}: its storage order, or the order its reorder_storage or its "
                   "loops' reorder give)" if reorderable else f"storage order ({', '.join(args)})")
                + ", several consecutive words per transfer: its leading dimensions unrolled whole, then one unrolled "
                f"by a factor, e.g. {name}.unroll({args[0]}, <lanes>), or remove {name}.{mark.kind}({call}) to stream "
                "it a word per transfer (its unrolled consumers then read it from its buffer)")


def output_lanes(nest: LoopNest) -> int:
    """The words per transfer of the output stream: its op's lanes, which are its innermost loops (a pure output's
    are moved there, hwlower/loops.py `lanes_innermost`, as are the loops of the copy out of one whose updates run
    serially, ops.py `_copy_op`)."""
    (loops, _), = [(lp, o) for lp, o in nest.ops() if o.store.buffer == nest.output]
    flags = [lp.unrolled for lp in loops]
    first = flags.index(True) if True in flags else len(flags)
    assert all(flags[first:]), f"output {nest.output}: unrolled loops not innermost {[lp.var for lp in loops]}"
    k = 1
    for lp in loops[first:]:
        k *= lp.extent
    return k


def check_rates(nest: LoopNest, ops: dict[str, Lanes], inputs: dict[str, Lanes]) -> None:
    """Raise ScheduleError where a consumer's lanes would not each read one lane of its producer: the producer's
    lanes k do not divide the c pixels of its x the consumer reads per firing (after narrow.py)."""
    producer: dict[str, Lanes] = dict(inputs)
    for _, op in nest.ops():
        if op.stage == 0:
            producer[op.store.buffer] = ops[op.name]
    for loops, op in nest.ops():
        # A RAM update (a scatter) has no x of its own: each of its serial loops must read one lane.
        xloop = x_loop(loops, op.store.index[0]) if op.store.index else ""
        if xloop is None:
            continue
        mine = ops[op.name]
        for port in op.loads:
            if not port.access.index:  # the RAM element a scatter updates
                continue
            src = producer.get(port.access.buffer)
            terms = dict(port.access.index[0].terms)
            c = terms.get(xloop, 0)
            if src is not None and src.k > 1:
                _check_serial_steps(mine, src, loops, xloop, terms, port.access.buffer)
            # k | c: each lane of the consumer always reads the same lane of the producer; when c > k the
            # schedule paces the consumer to the producer (narrow.py narrowed the producers it could).
            if src is None or c <= 0 or c % src.k == 0:
                continue
            _rate_error(mine, src, c, port.access.buffer)


def _check_serial_steps(mine: Lanes, src: Lanes, loops: tuple[Loop, ...], xloop: str, terms: dict[str, int],
                        buffer: str) -> None:
    """A serial loop that moves along x by a step the producer's lanes do not divide would read another lane
    in each iteration (a different memory each time): refused, as its read set is not a box of any one lane."""
    for lp in loops:
        step = terms.get(lp.var, 0)
        if lp.unrolled or lp.var == xloop or lp.extent == 1 or step % src.k == 0:
            continue
        loc = mine.loc or src.loc
        dim = _shown(re.sub(r"^.*\.s\d+\.", "", lp.var))
        raise ScheduleError(
            f"{loc}: {mine.who} reads '{buffer}', which has {src.k} lanes ({src.described()}), along x in its "
            f"serial loop {dim} (a step of {step} per iteration): each iteration would read another lane. "
            f"Unroll that loop ({mine.handle}.unroll({dim})), or give '{buffer}' one lane."
        )


def x_loop(loops: tuple[Loop, ...], index: Affine) -> str | None:
    used = dict(index.terms)
    for lp in reversed(loops):
        if not lp.unrolled and used.get(lp.var):
            return lp.var
    return None


def _px(n: int) -> str:
    return f"{n} pixel{'s' if n != 1 else ''}"


def _rate_error(mine: Lanes, src: Lanes, c: int, buffer: str) -> None:
    loc = mine.loc if mine.call else src.loc
    stream = src.who.startswith("accelerator input")
    makes = "streams" if stream else "computes"
    if c > src.k:
        fix = src.suggestion(c) + f" so that '{buffer}' keeps pace"
        if (src.k * mine.k) % c == 0 and mine.call:
            slower = src.k * mine.k // c
            fix += (f", or {'remove ' + mine.call if slower == 1 else mine.suggestion(slower)} so that "
                    f"{mine.who} reads '{buffer}' at its pace")
    elif (src.k * mine.k) % c == 0:
        fix = mine.suggestion(src.k * mine.k // c) + f" so that it keeps pace with '{buffer}'"
        g = math.gcd(src.k, c)
        if stream and src.call:  # the host may stream fewer words per transfer
            fewer = "remove " + src.call if g == 1 else src.suggestion(g)
            fix += f", or {fewer} so that '{buffer}' streams at its pace"
    else:
        fix = "unroll x of both by factors that make these rates equal"
    raise ScheduleError(
        f"{loc}: {mine.who} computes {_px(mine.k)} per cycle ({mine.described()}), so it reads {_px(c)} of "
        f"'{buffer}' along x per cycle, but {src.who} {makes} {src.k} per cycle ({src.described()}): each lane of a "
        f"consumer reads one lane of its producer, so the producer's lanes must divide what the consumer reads "
        f"per cycle. Fix: {fix}."
    )


def check_folded_update(who: str, update: Lanes, pure: Lanes) -> None:
    """An update folded into its Func's pure op runs in the pure op's lanes: an unroll of its x must agree."""
    if update.k in (1, pure.k):
        return
    raise ScheduleError(
        f"{update.loc}: {update.who} computes {_px(update.k)} per cycle ({update.call}) but the pure "
        f"definition of {who} computes {pure.k} ({pure.described()}): an unrolled update is folded into its "
        f"pure definition's loops, so their lanes must match. Fix: {pure.suggestion(update.k)}."
    )


def check_independent_lanes(who: str, handle: str, loops: tuple[Loop, ...], op: Op, schedule: StageSchedule) -> None:
    """Lanes of an update that reads its own Func must not read what another lane of the same firing writes (a
    scan such as f(r.x, y) = f(r.x - 1, y) + g(r.x, y) with r.x unrolled): each lane's value must depend only
    on values written in earlier cycles, i.e. every output point's reduction is independent of the other lanes'."""
    import itertools

    import islpy as isl

    lanes = [lp for lp in loops if lp.unrolled]
    if not lanes:
        return
    time = [lp for lp in loops if not lp.unrolled]
    names = {lp.var: f"t{k}" for k, lp in enumerate(time)}
    bounds = " and ".join([f"0 <= {names[lp.var]} < {lp.extent}" for lp in time] or ["true"])
    points = list(itertools.product(*(range(lp.min, lp.min + lp.extent) for lp in lanes)))

    def at(a: Affine, lane: tuple[int, ...]) -> str:
        env = {lp.var: v for lp, v in zip(lanes, lane)}
        parts = [f"{c}*{names[v]}" for v, c in a.terms if v in names]
        return " + ".join(parts + [str(a.const + sum(c * env[v] for v, c in a.terms if v in env))])

    for port in op.loads:
        if port.access.buffer != op.store.buffer:
            continue
        for la, lb in itertools.permutations(points, 2):
            same = " and ".join(f"{at(r, la)} = {at(w, lb)}" for r, w in zip(port.access.index, op.store.index))
            hit = isl.Set(f"{{ [{', '.join(names.values())}] : {bounds} and {same} }}")
            if hit.is_empty():
                continue
            raise ScheduleError(
                f"{who}: {_unroll_call(handle, schedule, lanes)} makes lanes that depend on each other: lane "
                f"{list(la)} reads the value of '{op.store.buffer}' that lane {list(lb)} computes in the same cycle "
                "(a scan: each iteration reads the previous one's result). Unrolled lanes must be independent: keep "
                "this loop serial, or unroll a loop whose iterations do not read each other (e.g. the pure "
                "variable of a scan along another dimension)."
            )


def _unroll_call(handle: str, schedule: StageSchedule, lanes: list[Loop]) -> str:
    """The user's call that unrolled one of `lanes` (loop names end with the schedule's dim name)."""
    for dv in reversed(schedule.directives):
        if isinstance(dv, ForType) and not dv.made and any(lp.var.endswith("." + dv.var) for lp in lanes):
            split = next((sp for sp in schedule.directives if isinstance(sp, Split) and sp.inner == dv.var), None)
            args = f"{_shown(split.old)}, {split.factor}" if split else _shown(dv.var)
            return f"{handle}.{dv.kind}({args}) at {dv.loc}"
    return f"unrolling {', '.join(lp.var for lp in lanes)}"


def _shown(dim: str) -> str:
    return dim.replace("$", ".")  # RVar loops are named r$x
