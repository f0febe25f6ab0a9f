"""`mainspring fuzz`: differential testing of the whole flow on random pipelines and hardware schedules.

Each case is a random stencil pipeline (taps of earlier stages at small offsets, pointwise operators over the
integer types, reductions unrolled or serial, Funcs inlined or buffered) with a random valid hardware schedule
(host tiles, k pixels per cycle with RoundUp tails, one such case in three with each stage and the output unrolled
by k or not, the input at one word per transfer: mixed lanes); one in five ends in a table its last stage's pixels
update at a computed coordinate (a histogram, a max or a sum per bin: lanes of registers or a RAM) instead of an
image, and one in six has a stage turned into a 2x downsample or upsample (a multi-rate pipeline; one in two of
those without a Func read at two rates through seed 002's GLB level, in tiles of whole steps or any size), and one
in four a schedule variant (store_at, a column-major output, accelerator_input, seed 002's GLB level: one such case in
three at 2 or 3 lanes, every level unrolled with RoundUp over memory tiles of any width), and one in six reads
a 3-D input whose channels stream whole in each transfer; one in eight computes in Int(8); one in six reads its
stages through a boundary condition (clamp, repeat_edge, constant_exterior, mirror_image, mirror_interior); one
scatter case in three reads its table back at each pixel's bin (a RAM read at computed coordinates); chains of two
upsamples by different divisors along x, and rfactor in the forms tests/flow/test_flow_rfactor.py compiles;
then session 20's kinds (mainspring/fuzz_wide.py, one in twelve each): stencils up to 5x5, 32- and 8-bit inputs
and 8-bit casts in the middle, a scalar Param, a second input image, stages computed at the output's row loop or
at a reader's, the output's rows unrolled, split or reordered, storage at the host's loops, explicit bounds;
then session 38's (mainspring/fuzz_blocks.py, from a random stream of their own): 2x2 input blocks, a GLB output's
rows unrolled, the output's fused loop split at the accelerator, `output.bound_extent` alone; then session 39's
(mainspring/fuzz_outputs.py, a stream of their own too): two outputs (a Tuple hw_output, or a copy computed with
it), partial RDom unrolls, Tuple stages, the GLB level without an input copy, read back along y, or with sliding
windows, and sliding windows in one level.
A case is written as Python source, so that a failure is a
runnable program. For each case:
1. the NumPy reference is compared with Halide 21 on the algorithm alone (when `halide` is installed);
2. the design is compiled, simulated with random stalls and compared word for word with the reference.
Failures: a mismatch (reference or hardware), a crash, a hang, or a refusal that the README does not document.
A failure is shrunk (fewer stages, smaller images, no tiles or lanes) while it fails the same way.
"""

from __future__ import annotations

import dataclasses
import random
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fuzz_blocks import simpler_blocks, with_blocks
from .fuzz_case import (
    Case,
    Stage,
    resampled,
    with_channels,
    with_coordinate_tiles,
    with_divided_start,
    with_divided_taps,
    with_edges,
    with_glb_edges,
    with_glb_lanes,
    with_glb_resampled,
    with_intrinsics,
    with_memory_tiles,
    with_mixed_lanes,
    with_predicates,
    with_ram,
    with_reduction_splits,
    with_rfactor,
    with_second_lookup,
    with_tails,
    with_upsample_chains,
    with_variant,
)
from .fuzz_outputs import simpler_outputs, with_outputs
from .fuzz_source import _TYPES, _definition, _scatter, source  # noqa: F401 - fuzz_auto writes its cases with them
from .fuzz_wide import simpler_wide, with_wide

# Refusals the README documents as not supported yet: a case refused for one of these is out of scope.
DOCUMENTED_REFUSALS = (
    r"lanes that read values other lanes",  # scans whose lanes read each other in one cycle
    r"needs .* PEs but the target has",  # a design larger than the array
    r"at \([^)]*r\$\w+ / \d+\), which is not an affine",  # a reduction's loop reading an upsample at r / 2
    # tiles over a Func read both at y / 2 and at an undivided y where hwlower/rate_streams.py cannot give each
    # rate its own stream or buffer: memory tiles under a GLB level (catalogue read_at_two_rates_in_host_tiles),
    # a Func inside that itself reads through a division (host tiles over an input or a plain Func compile)
    r"its reads move at different rates from tile to tile",
    # (host tiles over an upsample at any phase or size compile since session 14; GLB tiles and memory tiles of
    # them since session 15, fuzz 134105)
    # (the input's lanes with Halide's Auto tail over an extent they do not divide, streamed twice for a boundary
    # condition, round up since session 41: fuzz 170488, tests/flow/fuzz_cases/edge_copy_of_an_input_with_...)
    # an input streamed in rows or 2 x 2 blocks (fuzz_blocks.py) read a row a firing by two Funcs (README's refusal
    # rows_read_twice; fuzz 176004; over an odd count of rows it rounds up since session 39, stream_turns.py)
    r"streams 2 values of y per transfer .*so it must take the words of each transfer in turn",
    # ... and its words of x read a pixel a firing at more than 2 taps (catalogue errors_lanes.py: paced readers;
    # fuzz 176322, 176615)
    (r"streams 2 per cycle \(hw_input\.unroll\(x, 2, hl\.TailStrategy\.RoundUp\) .*the consumer must read them in "
    r"turn, (over whole steps of 2 iterations|which it does through at most 2 reads)"),
    # ... or read by an upsample at x / 2, each step another lane (catalogue upsample_reads_across_lanes; fuzz 177321)
    r"reads 'hw_input', which has 2 lanes \(hw_input\.unroll\(x, 2, .*along x at a quotient that moves by 1 per step",
    # the GLB input's copies two rows per transfer (fuzz_blocks.py) over memory tiles an odd count of rows apart
    # (catalogue glb_rows_in_odd_memory_tiles; fuzz 176558)
    r"holds 2 rows per GLB entry \(its stream's lanes along y\), so each memory tile must read it over whole entries",
)

_BINOPS = ("+", "-", "*", "min", "max", "absd", "avg", "select")


@dataclass
class Outcome:
    case: Any  # a Case, or fuzz_auto's AutoCase
    # "ok", "refused", "mismatch", "reference", "crash", "hang", "slow", "refusal", "shape" (outputs of another
    # shape than the case's); with --auto "quality", "budget"
    kind: str
    detail: str = ""
    cycles: int | None = None
    source: str = field(default="", repr=False)

    @property
    def failed(self) -> bool:
        return self.kind not in ("ok", "refused")


# ---- generation -----------------------------------------------------------------------------------------

def generate(seed: int, wide: bool = True) -> Case:
    """Seed `seed`'s case; `wide`: with fuzz_wide.py's kinds (fuzz --auto's algorithms are drawn without them)."""
    rng = random.Random(seed)
    in_type = rng.choice(("u8", "u16", "i16"))
    work = rng.choice(("u16", "i16", "u32", "i32", "u8"))
    stages: list[Stage] = []
    for k in range(rng.randint(1, 3)):
        kind = rng.choice(("stencil", "stencil", "pointwise", "reduce", "coord", "rom"))
        src = rng.randint(-1, k - 1)
        if kind == "stencil":
            n = rng.randint(1, 3)
            taps = tuple((rng.randint(-1, k - 1), rng.randint(0, 2), rng.randint(0, 2)) for _ in range(n))
            stages.append(Stage(f"f{k}", kind, taps, tuple(rng.choice(_BINOPS) for _ in range(n - 1)),
                                inline=rng.random() < 0.25))
        elif kind == "rom":  # a constant table read at a clamped pixel value: a ROM
            stages.append(Stage(f"f{k}", kind, ((src, 0, 0),), ("rom",), rng.randint(2, 5),
                                inline=rng.random() < 0.25))
        elif kind == "coord":  # coordinates as values: select on x, a ramp in y
            stages.append(Stage(f"f{k}", kind, ((src, 0, 0),), ("coord",), rng.randint(1, 4),
                                inline=rng.random() < 0.25))
        elif kind == "pointwise":
            op = rng.choice((">>", "*", "+", "/", "%", "<<"))
            const = rng.randint(1, 3) if op in (">>", "<<") else rng.randint(2, 7)
            stages.append(Stage(f"f{k}", kind, ((src, 0, 0),), (op,), const, inline=rng.random() < 0.25))
        else:
            ext = (rng.randint(1, 3), rng.randint(1, 2))
            stages.append(Stage(f"f{k}", kind, ((src, 0, 0),), ("+",), rng.randint(1, 3), ext,
                                unrolled=rng.random() < 0.7))
    width, height = rng.randint(3, 12), rng.randint(1, 6)
    tile = None
    if rng.random() < 0.35 and all(s.kind != "coord" for s in stages):  # a tile counts coordinates from its own
        tile = (rng.randint(2, width), rng.randint(1, height))
    lanes = rng.choice((1, 1, 2, 3))
    if lanes > 1 and any(s.kind == "reduce" and not s.unrolled for s in stages):
        lanes = 1
    stalls = rng.choice((0.0, 0.2, 0.4))
    # Drawn last, so that the other cases of a seed stay as they were before scatter cases existed.
    # (not in u32: Halide 21 finds no bounds for a u32 cast to i32, even clamped, and refuses such an update)
    case = Case(seed, in_type, work, tuple(stages), width, height, tile, lanes, stalls)
    if rng.random() < 0.2 and work != "u32":
        bins = rng.choice((3, 4, 8, 16, 40, 100, 256))
        case = dataclasses.replace(case, tile=None, lanes=1, bins=bins, scatter=rng.choice(("count", "max", "sum")))
    case = with_channels(rng, with_variant(rng, resampled(rng, case)))
    # One case in eight computes in Int(8) (drawn last, so the other cases stay as they were).
    case = dataclasses.replace(case, work="i8") if rng.random() < 1 / 8 else case
    case = with_edges(rng, case)
    # One scatter case in three reads its table back at each pixel's bin (drawn last, as above).
    case = dataclasses.replace(case, lookup=True) if case.bins and rng.random() < 1 / 3 else case
    case = with_second_lookup(rng, case)
    case = with_tails(rng, with_mixed_lanes(rng, with_predicates(rng, with_intrinsics(rng, case))))
    case = with_memory_tiles(rng, with_coordinate_tiles(rng, with_reduction_splits(rng, case)))
    case = with_glb_edges(rng, with_ram(rng, case))
    case = with_divided_start(rng, with_divided_taps(rng, with_glb_lanes(rng, case)))
    case = with_glb_resampled(rng, with_upsample_chains(rng, with_rfactor(rng, case)))  # drawn last, as above
    if not wide:
        return case
    # session 20's kinds, drawn last (fuzz_wide.py), then session 38's and 39's, each from a stream of their own
    # (fuzz_blocks.py, fuzz_outputs.py)
    return with_outputs(seed, with_blocks(seed, with_wide(rng, case)))


# ---- running a case -------------------------------------------------------------------------------------

def run_case(case: Case, simulator: str = "icarus", halide=None, build_dir=None) -> Outcome:
    import numpy as np

    import mainspring
    from mainspring.frontend.errors import HalideError, MismatchError

    text = source(case)
    env: dict = {}
    exec(compile(text, f"<fuzz case {case.seed}>", "exec"), env)  # exec: our own generated program
    try:
        a = env["algorithm"](mainspring)
        env["schedule"](mainspring, a)
        outputs = [a["output"], a["output2"]] if case.outputs else a["output"]
        design = mainspring.compile(outputs, name=f"fuzz_{case.seed}")
    except HalideError as e:
        documented = any(re.search(p, str(e)) for p in DOCUMENTED_REFUSALS)
        return Outcome(case, "refused" if documented else "refusal", str(e), source=text)
    except Exception:  # noqa: BLE001 - a crash of the compiler is what the fuzzer looks for
        return Outcome(case, "crash", traceback.format_exc(limit=6), source=text)
    inputs = design.example_inputs(case.seed)
    # Halide leaves signed 32-bit overflow undefined (its simplifier assumes none; we wrap): a product or a left
    # shift in Int(32) of 16-bit values may overflow, so such programs are not compared with Halide.
    if halide is not None and not (case.work == "i32" and re.search(r"\*|<<", text)):
        bad = _against_halide(env, halide, design, inputs, case)
        if bad:
            return Outcome(case, "reference", bad, source=text)
    try:
        res = design.check(inputs, simulator=simulator, bubbles=case.stalls, backpressure=case.stalls,
                           seed=case.seed, build_dir=build_dir)
    except MismatchError as e:
        return Outcome(case, "mismatch", str(e), source=text)
    except Exception as e:  # noqa: BLE001 - any other failure is a finding, reported
        kind = "hang" if type(e).__name__ in ("SimulationTimeout", "StreamProtocolError") else "crash"
        return Outcome(case, kind, f"{type(e).__name__}: {e}"[:2000], source=text)
    shape = (case.bins,) if case.bins and not case.lookup else (case.height, case.width)
    shapes = [np.asarray(out).shape for out in (res.outputs if case.outputs else (res.output,))]
    if any(got != shape for got in shapes):  # the shrinker's candidates may leave a Tuple as the only output
        return Outcome(case, "shape", f"output shapes {shapes} where the case asks {shape}", source=text)
    return Outcome(case, "ok", cycles=res.cycles, source=text)


def _against_halide(env, halide, design, inputs, case: Case) -> str:
    """The reference against Halide 21 on the algorithm alone, over the same input."""
    import numpy as np

    mine = design.reference_outputs(inputs)
    a = env["algorithm"](halide)
    alive = []  # a halide.Buffer over a NumPy array does not keep the array alive once set: they stay until realize
    for name in ("input", "input2")[:1 + bool(getattr(case, "second", ""))]:
        buf = inputs[name]
        # Halide's bounds of a mirrored index are its whole range, ours exact: it may ask for more of the input
        # than the design reads. A margin of other values around the input: any that Halide's output uses shows
        # as a difference.
        pad = 4
        arr = np.asarray(buf)
        wide = np.random.default_rng(case.seed).integers(0, 100, [n + 2 * pad for n in arr.shape]).astype(arr.dtype)
        wide[tuple(slice(pad, pad + n) for n in arr.shape)] = arr
        hb = halide.Buffer(np.ascontiguousarray(wide))
        hb.set_min([buf.dim(i).min() - pad for i in range(buf.dimensions())])
        a[f"{name}_"].set(hb)
        alive.append((wide, hb))
    try:
        size = [case.bins] if case.bins and not case.lookup else [case.width, case.height]
        if case.outputs:  # a Realization of both outputs
            every = [np.asarray(b) for b in halide.Pipeline([a["output"], a["output2"]]).realize(size)]
        else:
            every = [np.asarray(a["output"].realize(size))]
    except Exception as e:  # noqa: BLE001 - Halide refusing a program the reference runs is a finding
        return f"Halide 21 refuses the algorithm, which the reference runs: {e}"
    for k, (theirs, ours) in enumerate(zip(every, mine, strict=True)):
        if theirs.shape != ours.shape or not np.array_equal(theirs, ours):
            diff = np.argwhere(theirs != ours)[:5].tolist() if theirs.shape == ours.shape else theirs.shape
            return f"reference{f' output {k}' if case.outputs else ''} differs from Halide 21 at (y, x) {diff}"
    return ""


# ---- shrinking ------------------------------------------------------------------------------------------

def shrink(outcome: Outcome, simulator: str, halide=None, budget: int = 60, limit: float | None = None,
           auto: bool = False) -> Outcome:
    """The smallest case found that fails the same way (greedy: fewer stages, smaller, simpler schedule)."""
    _, run, simpler, _ = _mode(auto)
    best = outcome
    tries = 0
    progress = True
    while progress and tries < budget:
        progress = False
        for cand in simpler(best.case):
            tries += 1
            got = run_limited(cand, simulator, halide, limit, auto) if limit else run(cand, simulator, halide)
            if got.kind == best.kind:
                best, progress = got, True
                break
            if tries >= budget:
                break
    return best


def _mode(auto: bool):
    """(generate, run_case, simpler, source) of the fuzzer, or of its unscheduled mode (`fuzz --auto`)."""
    if auto:
        from . import fuzz_auto

        return fuzz_auto.generate, fuzz_auto.run_case, fuzz_auto.simpler, fuzz_auto.source
    return generate, run_case, _simpler, source


def _simpler(c: Case):
    rep = dataclasses.replace
    if len(c.stages) > 1:
        keep = c.stages[:-1]
        yield rep(c, stages=keep)
    if c.tile is not None:
        yield rep(c, tile=None)
    if c.lanes > 1:
        yield rep(c, lanes=1, mixed=())
    if c.mixed:
        yield rep(c, mixed=())
    if c.stalls:
        yield rep(c, stalls=0.0)
    if c.ram_init or c.ram_next or c.ram_unroll:
        yield rep(c, ram_init="", ram_next="", ram_unroll=False)
    if c.width > 2:
        yield rep(c, width=c.width - 1, tile=_fit(c.tile, c.width - 1, c.height))
    if c.height > 1:
        yield rep(c, height=c.height - 1, tile=_fit(c.tile, c.width, c.height - 1))
    for k, s in enumerate(c.stages):
        if len(s.taps) > 1:
            yield rep(c, stages=c.stages[:k] + (rep(s, taps=s.taps[:-1], ops=s.ops[:-1]),) + c.stages[k + 1:])
        if s.inline:
            yield rep(c, stages=c.stages[:k] + (rep(s, inline=False),) + c.stages[k + 1:])
    yield from simpler_wide(c)
    yield from simpler_blocks(c)
    yield from simpler_outputs(c)


def _fit(tile, w, h):
    return None if tile is None else (min(tile[0], w), min(tile[1], h))


# ---- the command ----------------------------------------------------------------------------------------

def _worker(args) -> Outcome:
    seed, simulator, use_halide, limit, auto = args
    return run_limited(_mode(auto)[0](seed), simulator, _halide() if use_halide else None, limit, auto)


class _CaseTimeout(BaseException):  # not an Exception: run_case's crash handlers must not catch it
    pass


def run_limited(case, simulator: str, halide, limit: float | None, auto: bool = False) -> Outcome:
    """run_case, with a case taking longer than `limit` seconds (a compile that does not finish) a "slow"
    failure."""
    import signal

    _, run, _, text = _mode(auto)
    if not limit:
        return run(case, simulator, halide)

    def expire(signum, frame):
        raise _CaseTimeout()

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return run(case, simulator, halide)
    except _CaseTimeout:
        return Outcome(case, "slow", f"the case took over {limit} s (compile and simulation)", source=text(case))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _halide():
    try:
        import halide
    except ImportError:
        return None
    return halide


def run_fuzz(cases: int, seed: int, simulator: str = "icarus", jobs: int = 1, save: str | None = None,
             progress=print, shrink_failures: bool = True, case_limit: float | None = 120.0,
             auto: bool = False) -> list[Outcome]:
    """Run `cases` cases from `seed` on; return the failures (shrunk), saving each as a program under `save`.
    With `auto`, the cases are unscheduled algorithms given to the autoscheduler (mainspring/fuzz_auto.py)."""
    from concurrent.futures import ProcessPoolExecutor

    use_halide = _halide() is not None and not auto
    work = [(seed + k, simulator, use_halide, case_limit, auto) for k in range(cases)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(_worker, work))
    else:
        outcomes = [_worker(w) for w in work]
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.kind] = counts.get(o.kind, 0) + 1
    failures = [o for o in outcomes if o.failed]
    progress(f"fuzz{' --auto' if auto else ''}: {cases} cases from seed {seed} on {simulator}"
             f"{'' if use_halide or auto else ' (no halide: reference not compared)'}: "
             + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    for o in outcomes:  # out of scope, not failures: say which documented refusal, so a reader can check it
        if o.kind == "refused":
            progress(f"fuzz: case {o.case.seed} refused (documented): {_last_clause(o.detail)}")
    shrunk = []
    for o in failures:
        small = shrink(o, simulator, None if auto else _halide(), limit=case_limit, auto=auto) if shrink_failures else o
        shrunk.append(small)
        progress(f"fuzz: case {o.case.seed} {o.kind}: {small.detail.splitlines()[0] if small.detail else ''}")
        if save:
            path = Path(save) / f"fuzz_{'auto_' if auto else ''}{o.case.seed}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"# {small.kind}: " + "\n# ".join(small.detail.splitlines()[:6]) + "\n" + small.source)
            progress(f"fuzz: saved {path}")
    return shrunk


def _last_clause(detail: str) -> str:
    """A refusal's first line without its source location (`file.py:12: `, `<fuzz --auto case 7>:24: `), cut to
    200 characters."""
    line = detail.splitlines()[0] if detail else ""
    line = re.sub(r"^(<[^>]*>|\S+\.py):\d+: ", "", line)
    return line if len(line) <= 200 else line[:197] + "..."
