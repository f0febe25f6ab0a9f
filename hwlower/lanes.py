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
unrolls to add, change or remove: all of them down the pipeline (lane_chains.py), so that the fix compiles.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from mainspring.frontend.errors import ScheduleError
from mainspring.frontend.schedule import ForType, Fuse, Split, StageSchedule, TailStrategy

from .ir import Affine, Loop, LoopNest, Op
from .lane_chains import agreeing_lanes, x_loop
from .loops import StageLoops

# Reads of a buffer a consumer may step through its producer's lanes (lane_steps.py): each read splits into one
# per lane, which a memory tile's two read ports serve as delay lines; a 3x3 stencil's nine taps made eighteen reads,
# mapped as banks of copies (1,348 words for 307 in seed 002's gaussian over a 2-word stream): such a consumer keeps
# its refusal.
MAX_PORTS = 2


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
    dim: str = "x"  # the dimension the lanes run along: the stage's first (an input's first in stream order)
    serial: int = 1  # the lanes of the user's unroll of `var` that run serially (a scan's, update_lanes.serial_scan)
    # an input's lanes along y (`dim`) that each carry words of x too: those x lanes (a block per transfer)
    across: Lanes | None = None

    @property
    def words(self) -> int:
        """Words per transfer: the lanes, times the words of x each carries in a block."""
        return self.k * (self.across.k if self.across else 1)

    def described(self) -> str:
        return f"{self.call} at {self.loc}" if self.call else f"no unroll of {self.dim}"

    def suggestion(self, k: int) -> str:
        new = f"{self.handle}.unroll({_shown(self.var)}, {k})"
        if self.serial > 1:  # (written already: its lanes run at k once the stages around it make as many)
            old = f"{self.handle}.unroll({_shown(self.var)}, {self.serial})"
            return "" if self.serial == k else f"change {old} to {new}"
        return f"change {self.call} to {new}" if self.call else f"add {new}"


def stage_lanes(who: str, handle: str, x_arg: str, s: StageLoops, schedule: StageSchedule) -> Lanes:
    """The lanes of a stage along its first pure dimension `x_arg` (after `replay`)."""
    unrolled = {lp.dim: lp.extent for lp in s.loops if lp.unrolled}
    terms = dict(s.var_exprs[x_arg].terms) if x_arg in s.var_exprs else {}
    time = [(c, d) for d, c in terms.items() if d not in unrolled]
    if not time:
        return Lanes(who, handle, x_arg, 1, dim=x_arg)
    k, var = min(time)
    # a fused loop that hardware runs as two loops keeps the name of the fuse (loops.py), its inner loop's role
    inner_of = {dv.fused: dv.inner for dv in schedule.directives if isinstance(dv, Fuse)}
    split = next((dv for dv in schedule.directives if isinstance(dv, Split) and dv.outer == inner_of.get(var, var)
                  and dv.inner in unrolled and terms.get(dv.inner) == 1), None)
    if split is None or k == 1:
        # the user's unroll of x's loop, run serially (a scan's lanes over a pure definition of fewer lanes)
        made = next((dv for dv in schedule.directives if isinstance(dv, Split) and dv.inner == var and any(
            isinstance(m, ForType) and m.var == var and m.kind == "unroll" for m in schedule.directives)), None)
        return Lanes(who, handle, made.old if made else var, 1, dim=x_arg, serial=made.factor if made else 1)
    mark = next(dv for dv in schedule.directives if isinstance(dv, ForType) and dv.var == split.inner)
    return replace(_unroll_lanes(who, handle, split, mark, x_arg), k=k)


def _unroll_lanes(who: str, handle: str, split: Split, mark: ForType, dim: str) -> Lanes:
    tail = "" if split.tail is TailStrategy.Auto else f", hl.TailStrategy.{split.tail.name}"
    call = f"{handle}.{mark.kind}({_shown(split.old)}, {split.factor}{tail})"
    return Lanes(who, handle, split.old, split.factor, call, str(mark.loc), split.tail, dim)


def x_unrolls(handle: str, x_arg: str, schedules: list[StageSchedule]) -> list[Lanes]:
    """The unrolls of x (`x_arg`) in a Func's definitions (pure first, then its updates), as the schedules give
    them: where its updates fold into one op with the pure definition, a fix changes them all together."""
    out = []
    for i, sched in enumerate(schedules):
        who = handle if i == 0 else f"{handle}.update({i - 1})"
        for mark in sched.directives:
            split = next((sp for sp in sched.directives if isinstance(sp, Split) and sp.inner == mark.var
                          and sp.old == x_arg), None) if isinstance(mark, ForType) else None
            if split is not None and isinstance(mark, ForType) and mark.kind in ("unroll", "vectorize"):
                out.append(_unroll_lanes(who, who, split, mark, x_arg))
    return out


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
        if part.k > 1 and pos == 0 and len(args) > 1 and (block := _block(who, name, args, part, s, schedule,
                                                                          reorderable)) is not None:
            return block
        if part.k > 1:
            words *= part.k
            lanes = part if lanes.k == 1 else lanes
        elif pos == 0 and words == 1 and len(args) > 1:
            # x streamed a word at a time: the host may send consecutive values of the next dimension side by side
            # (hw_input.unroll(y, 2): rows 2t and 2t + 1 per transfer, the output rate of Halide-to-Hardware's y)
            along = stage_lanes(who, name, args[1], s, schedule)
            if along.k > 1:
                _check_unrolls(who, name, args, args[:2], s, schedule, reorderable)
                return replace(along, dim=args[1])
        _check_unrolls(who, name, args, args[:pos + 1], s, schedule, reorderable)
        break
    return replace(lanes, k=words, dim=args[0])


def _block(who: str, name: str, args: list[str], x: Lanes, s: StageLoops, schedule: StageSchedule,
           reorderable: bool) -> Lanes | None:
    """The lanes of an input unrolled along x by part (`x`) and along y by part too (`hw_input.unroll(x, 2)
    .unroll(y, 2)`): rows side by side, each carrying x's words, a block per transfer; None if y is not so
    unrolled."""
    along = stage_lanes(who, name, args[1], s, schedule)
    if along.k == 1:
        return None
    if not reorderable:
        # (the GLB's entries hold a transfer of one dimension's lanes, memories/glb_rows.py)
        raise ScheduleError(
            f"{along.loc}: {who}: {along.call}: with a GLB level, a GLB input's entries hold its stream's lanes "
            f"along one dimension, but {name} is unrolled along {args[0]} too ({x.call} at {x.loc}): a block of "
            f"{x.k} x {along.k} words per transfer streams only without a GLB level. Fix: remove {along.call} "
            f"to stream {x.k} words of {args[0]} per transfer (or remove {x.call} to stream {along.k} rows per "
            "transfer)")
    _check_unrolls(who, name, args, args[:2], s, schedule, reorderable)
    return replace(along, dim=args[1], across=x)


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
                f"by a factor, e.g. {name}.unroll({args[0]}, <lanes>) (or "
                f"{name}.unroll({args[1] if len(args) > 1 else args[0]}, <lanes>): values of it side by side, each "
                f"a word of {args[0]} or, with {args[0]} unrolled by a factor too, a block of them), or "
                f"remove {name}.{mark.kind}({call}) to stream it a word per transfer (its unrolled consumers then read "
                "it from its buffer)")


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


def check_rates(nest: LoopNest, ops: dict[str, Lanes], inputs: dict[str, Lanes],
                scheduled: dict[str, Lanes] | None = None, unrolls: dict[str, list[Lanes]] | None = None,
                steps: Mapping[tuple[str, str], str | None] | None = None) -> None:
    """Raise ScheduleError where a consumer's lanes would not each read one lane of its producer: the producer's
    lanes k do not divide the c pixels of its x the consumer reads per firing (after narrow.py; `scheduled`: the
    ops' lanes as their schedules give them, before narrowing, which a fix changes; `unrolls`: each Func's
    unrolls of x, `x_unrolls`; `steps`: lane_steps.py's, the reads it served, else why it did not)."""
    steps = steps or {}
    producer: dict[str, tuple[str, Lanes]] = {b: (b, ln) for b, ln in inputs.items()}
    # other Funcs read a Func's last stage: an update that runs in its own loops (f(r.x, y) = ... with r.x
    # unrolled) writes its lanes as they are, which each reader must read whole too
    last: dict[str, tuple[int, str, Lanes]] = {}
    for _, op in nest.ops():
        if op.stage == 0:
            producer[op.store.buffer] = (op.name, ops[op.name])
        if op.stage > last.get(op.store.buffer, (0, "", None))[0] and ops[op.name].k > 1:
            last[op.store.buffer] = (op.stage, op.name, ops[op.name])
    for loops, op in nest.ops():
        # A RAM update (a scatter) has no x of its own: each of its serial loops must read one lane.
        xloop = x_loop(loops, op.store.index[0]) if op.store.index else ""
        if xloop is None:
            continue
        mine = ops[op.name]
        for port in op.loads:
            if not port.access.index:  # the RAM element a scatter updates
                continue
            src_name, src = producer.get(port.access.buffer, ("", None))
            if port.access.buffer in last and op.store.buffer != port.access.buffer:
                _, src_name, src = last[port.access.buffer]
            terms = dict(port.access.index[0].terms)
            c = terms.get(xloop, 0)
            if steps.get((op.name, port.access.buffer), ()) is None:
                continue  # lane_steps.py split its loop to read the producer's lanes in turn
            if src is not None and src.k > 1:
                _check_serial_steps(mine, src, loops, xloop, terms, port.access.buffer, _held(nest, src_name, inputs))
            # k | c: each lane of the consumer always reads the same lane of the producer; when c > k the
            # schedule paces the consumer to the producer (narrow.py narrowed the producers it could).
            if src is None or c <= 0 or c % src.k == 0:
                continue
            fixes = _Fixes(nest, ops, inputs, scheduled or ops, unrolls or {})
            _rate_error(mine, src, c, port.access.buffer, fixes.named(op.name, src_name),
                        steps.get((op.name, port.access.buffer)))


def _held(nest: LoopNest, name: str, inputs: dict[str, Lanes]) -> list[tuple[str, Lanes]]:
    """The streams of lanes op `name` reads through more than MAX_PORTS reads: at one lane it would not read them in
    turn (narrow.py does not narrow it so), so a fix giving it one lane streams them a word per transfer too."""
    ports = Counter(p.access.buffer for _, op in nest.ops() if op.name == name for p in op.loads)
    return [(b, inputs[b]) for b in sorted(ports) if b in inputs and inputs[b].k > 1 and inputs[b].call
            and ports[b] > MAX_PORTS]


def _check_serial_steps(mine: Lanes, src: Lanes, loops: tuple[Loop, ...], xloop: str, terms: dict[str, int],
                        buffer: str, held: list[tuple[str, Lanes]]) -> None:
    """A serial loop that moves along x by a step the producer's lanes do not divide would read another lane
    in each iteration (a different memory each time): refused, as its read set is not a box of any one lane.
    `held`: the streams the producer reads through more than MAX_PORTS reads (`_held`)."""
    for lp in loops:
        step = terms.get(lp.var, 0)
        if lp.unrolled or lp.var == xloop or lp.extent == 1 or step % src.k == 0:
            continue
        loc, stream = mine.loc or src.loc, src.who.startswith("accelerator input")
        dim = _shown(re.sub(r"^.*\.s\d+\.", "", lp.var))
        if lp.strip and src.call:  # an upsample's strip-mined loop, which the user did not write: no unroll of it
            raise ScheduleError(
                f"{loc}: {mine.who} reads '{buffer}', which has {src.k} lanes ({src.described()}), along {src.dim} "
                f"at a quotient that moves by {step} per step of the upsample: each step would read another lane. Fix: "
                f"remove {src.call} so that '{buffer}' {'streams' if stream else 'computes'} one lane"
                + "".join(f", and remove {h.call} so that '{b}' streams one word per transfer (a Func of one lane "
                          f"reads a stream's words in turn through at most {MAX_PORTS} reads)" for b, h in held) + "."
            )
        raise ScheduleError(
            f"{loc}: {mine.who} reads '{buffer}', which has {src.k} lanes ({src.described()}), along {src.dim} in its "
            f"serial loop {dim} (a step of {step} per iteration): each iteration would read another lane. "
            f"Unroll that loop ({mine.handle}.unroll({dim})), or "
            + (f"remove {src.call} so that '{buffer}' streams one lane." if stream and src.call
               else f"give '{buffer}' one lane.")
        )


def _px(n: int) -> str:
    return f"{n} pixel{'s' if n != 1 else ''}"


@dataclass(frozen=True, slots=True)
class _Fixes:
    """The unrolls that make a refused consumer and producer agree, each with the changes it forces on the stages
    after it (lane_chains.py), so that a suggested fix compiles as it is written."""

    nest: LoopNest
    ops: dict[str, Lanes]
    inputs: dict[str, Lanes]
    scheduled: dict[str, Lanes]
    unrolls: dict[str, list[Lanes]]
    mine: str = ""  # the consumer's op
    src: str = ""  # its producer's op, or the stream

    def named(self, mine: str, src: str) -> _Fixes:
        return replace(self, mine=mine, src=src)

    def narrower_stream(self, k: int, c: int, mine: int, buffer: str) -> str | None:
        """The stream `src` (k words per transfer, read c per firing by `mine`'s lanes) at fewer words than k but
        more than gcd(k, c) (which the other fix offers), its consumer `mine` reading them all per firing: the
        divisor of k that changes the fewest stages after it (the larger on a tie), or None."""
        fixes = []
        for d in range(k - 1, math.gcd(k, c), -1):
            if k % d or (mine * d) % c:
                continue
            proposal = {self.src: d, self.mine: mine * d // c}
            now = agreeing_lanes(self.nest, self._lanes(), proposal)
            text = self.fix(self.src, d, f"'{buffer}' streams at its pace", proposal)
            if now is not None and text is not None:
                fixes.append((sum(now[n] != ln for n, ln in self._lanes().items()), -d, text))
        return min(fixes)[2] if fixes else None

    def _lanes(self) -> dict[str, int]:
        return {n: ln.k for n, ln in {**self.inputs, **self.ops}.items()}

    def fix(self, lead: str, k: int | None, reason: str, proposal: dict[str, int] | None = None) -> str | None:
        """Give `lead` k lanes (so that `reason`; None: the lanes nearest its own that agree; `proposal`: with other
        stages' lanes besides), and every stage after it the lanes that then agree; None if `lead` at k cannot agree
        with its own producers."""
        now = agreeing_lanes(self.nest, self._lanes(), proposal or ({} if k is None else {lead: k}))
        if now is None:
            return None
        calls: dict[str, str] = {}  # op or stream -> its changes; a Func's ops share one call
        ops = [op for _, op in self.nest.ops()]
        for name in [*self.inputs, *(op.name for op in ops)]:
            user = self.inputs.get(name) or self.scheduled.get(name) or self.ops[name]
            change = f"remove {user.call}" if now[name] == 1 and user.call else user.suggestion(now[name])
            if now[name] != self.ops.get(name, user).k and now[name] != user.k and change and \
                    change not in calls.values():
                func = next((op.func for op in ops if op.name == name), "")
                # one op for the whole Func: its updates fold into the pure definition, whose unrolls must agree
                alike = [u for u in self.unrolls.get(func, []) if u.call != user.call and u.k not in (1, now[name])]
                if sum(op.func == func for op in ops) == 1 and alike:
                    change = _listed([change, *(f"remove {u.call}" if now[name] == 1 else u.suggestion(now[name])
                                                for u in alike)])
                calls[name] = change
        text = f"{calls.pop(lead)} so that {reason}" if lead in calls else ""
        if calls:
            then = f"{_listed(list(calls.values()))} so that the stages after it keep pace in turn"
            text += f", and {then}" if text else then
        return text


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _rate_error(mine: Lanes, src: Lanes, c: int, buffer: str, fixes: _Fixes,
                in_turn: str | None = None) -> None:
    loc = mine.loc if mine.call else src.loc
    stream = src.who.startswith("accelerator input")
    makes = "streams" if stream else "computes"
    options: list[str | None] = []
    if c > src.k:
        options.append(fixes.fix(fixes.src, c, f"'{buffer}' keeps pace"))
        if (src.k * mine.k) % c == 0 and mine.call:
            options.append(fixes.fix(fixes.mine, src.k * mine.k // c, f"{mine.who} reads '{buffer}' at its pace"))
    else:
        faster = (src.k * mine.k) % c == 0  # else the lanes nearest its own that read whole lanes of the producer
        options.append(fixes.fix(fixes.mine, src.k * mine.k // c if faster else None,
                                 f"it {'keeps pace with' if faster else 'reads whole lanes of'} '{buffer}'"))
        if stream and src.call:  # the host may stream fewer words per transfer
            options.append(fixes.fix(fixes.src, math.gcd(src.k, c), f"'{buffer}' streams at its pace"))
            narrower = fixes.narrower_stream(src.k, c, mine.k, buffer)
            options.append(narrower if narrower not in options else None)
    fix = ", or ".join(o for o in options if o) or fixes.fix(fixes.mine, None, f"it reads whole lanes of '{buffer}'")
    assert fix, f"{mine.who}: no lanes agree with '{buffer}'"  # a consumer alone always can (lane_chains.py)
    raise ScheduleError(
        f"{loc}: {mine.who} computes {_px(mine.k)} per cycle ({mine.described()}), so it reads {_px(c)} of "
        f"'{buffer}' along {src.dim} per cycle, but {src.who} {makes} {src.k} per cycle ({src.described()}): each lane "
        f"of a consumer reads one lane of its producer, so the producer's lanes must divide what the consumer reads "
        f"per cycle{in_turn or ''}. Fix: {fix}."
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


def check_independent_lanes(who: str, handle: str, loops: tuple[Loop, ...], op: Op, schedule: StageSchedule,
                            chains: bool = False) -> None:
    """Lanes of an update that reads its own Func must not read what another lane of the same firing writes (a
    scan such as f(r.x, y) = f(r.x - 1, y) + g(r.x, y) with r.x unrolled): each lane's value must depend only
    on values written in earlier cycles, i.e. every output point's reduction is independent of the other lanes'.
    With `chains` (the Func's pure definition has as many lanes), a lane may read an earlier lane's element in
    every firing: the lanes chain, each kernel's input wired to the earlier one's output (verilog/top.py)."""
    import itertools

    import islpy as isl

    lanes = [lp for lp in loops if lp.unrolled]
    if not lanes:
        return
    time = [lp for lp in loops if not lp.unrolled]
    names = {lp.var: f"t{k}" for k, lp in enumerate(time)}
    bounds = " and ".join([f"0 <= {names[lp.var]} < {lp.extent}" for lp in time] or ["true"])
    points = list(itertools.product(*(range(lp.min, lp.min + lp.extent) for lp in lanes)))
    every = isl.Set(f"{{ [{', '.join(names.values())}] : {bounds} }}")  # every firing

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
            one = all(at(w, la) == at(w, lb) for w in op.store.index)  # both lanes update one element
            if chains and not one and lb < la and hit.is_equal(every):
                continue  # a scan along the lanes: each reads an earlier lane's result of its firing (chained)
            if not one and la < lb and len(lanes) == 1 and not _guarded_tail(op):
                # an earlier lane reads the element a later one overwrites in its firing: its value from before, as
                # in Halide's order (the op loads before it stores; session 36, tests/flow/test_scan22.py). Not
                # with a guarded tail, whose step past the domain would read past the Func's box (rvar_tails.py)
                continue
            # (each step of a reduction reads the one before it: the later lane reads the earlier one's result)
            reader, writer = (max(la, lb), min(la, lb)) if one else (la, lb)
            why = ("a reduction's steps that update one element: only +, min and max of the element and a term "
                   "that does not read it combine into one tree" if one else
                   "a scan: each iteration reads the previous one's result")
            reads = f"reads the value of '{op.store.buffer}' that lane {list(writer)} computes in the same cycle"
            if not one and reader < writer:  # (the later lane overwrites the element after the read: its old value)
                reads = (f"reads the element of '{op.store.buffer}' that lane {list(writer)} overwrites in the same "
                         "cycle, before it does")
                why = "each iteration reads the element a later iteration overwrites: the value from before it"
            fix = ("write the update as such an accumulation" if one else
                   "unroll a loop whose iterations do not read each other (e.g. the pure variable of a scan along "
                   "another dimension)")
            raise ScheduleError(
                f"{who}: {_unroll_call(handle, schedule, lanes)} makes lanes that depend on each other: lane "
                f"{list(reader)} {reads} ({why}). Unrolled lanes must be independent: keep this loop serial, or {fix}."
            )


def _guarded_tail(op: Op) -> bool:
    """Whether op reads through a guard (an RVar's guarded tail, or an edge tap in a reduction)."""
    return any(port.access.guard for port in op.loads)


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
