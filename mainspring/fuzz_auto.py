"""`mainspring fuzz --auto`: the fuzzer's algorithms written with no schedule at all, scheduled by
`apply_autoscheduler` (mainspring/autoschedule.py), then compiled, simulated and compared with the reference.

Each case is one of `fuzz.generate`'s algorithms (stencils, pointwise ops over six integer types, reductions,
ROMs, coordinates as values, tables updated at computed coordinates, 2x down- and upsamples, 3-D inputs of 2 or
3 channels), written in one of two styles:
- "copy": seed 002's copy Funcs (`hw_input(x, y) = input(x, y)`, `output(x, y) = hw_output(x, y)`);
- "plain": as for a CPU, the stages reading the ImageParams directly, the last stage the output;
one in four also reads a second image, the `lanes` key asks for 1 to 3 pixels per cycle, and one in three of the
copy-style cases of 2-D images without a table asks for seed 002's GLB level (`use_glb`, and a random `glb_tile`
where tiles are built: pipelines without coordinates as values nor a Func read at two rates). One in four of the
cases without the GLB level has budgets (mainspring/autoschedule_budget.py): `max_pes` a fraction (all, three
quarters or half) of the PEs of the design the autoscheduler makes without them, and one in two of those also
`max_mem_tiles`, the memory tiles of that design. The budgets are resolved by compiling that design when the case
first runs (`resolve_budget`), so a seed gives the same case every time. One in two of the other cases of 2-D
frames at least 6 wide without a table is forced to tile: its target's memory tiles hold a third of the frame's
width (`tile_words`) and `max_mem_tiles` is one under the memory tiles of the one-tile design for that target (resolved
likewise; resampling frames too, in tiles of whole steps); a refusal naming that budget is documented (a frame
the autoscheduler cannot tile narrow enough).
Besides the fuzzer's failures (a mismatch, a crash, a hang, a refusal: the autoscheduler must pick a schedule that
compiles; a design over its budgets, "budget"), a case that runs bit-exact but misses the target is a "quality"
finding (under budgets, fewer lanes or serial reductions are the trade asked for: the cycles are judged against the
design's own ideal):
- the schedule's ideal is above the algorithm's (`expected_ideal`: the busiest image, output or table update at
  the lanes asked for);
- the predicted cycles are more than 5% above that ideal plus the pipeline's depth (its first output cycle);
- a buffer holds more words than its exact minimum, beyond two per lane (port registers, RoundUp's padding) or a
  a RAM's registers (three, and one per further lane reading it).
"""

from __future__ import annotations

import dataclasses
import random
import re
import traceback
from dataclasses import dataclass

from . import fuzz
from .fuzz import Case, Outcome, Stage
from .fuzz_case import footer, read_at_two_rates

SLACK = 0.05  # cycles may exceed the ideal by this fraction, plus the pipeline's depth
GLB_LATENCY = 4  # cycles a GLB tile adds to the pipeline's depth (its load and read-back ahead of and after the array)


# use_glb "true" asked of a frame the GLB level cannot hold (the autoscheduler says why and what to change)
GLB_REFUSALS = (r'use_glb="true": .* reads at coordinates divided by \d+ \(an upsample\)',)


@dataclass(frozen=True)
class AutoCase:
    base: Case  # the algorithm: stages, types, sizes, table, channels (its schedule fields are not used)
    style: str  # "copy" (hw_input / hw_output copy Funcs) or "plain" (the images read directly)
    lanes: int = 1  # the "lanes" key of AutoschedulerParams
    glb: bool = False  # use_glb "true" (copy style, one pixel per word)
    glb_tile: tuple[int, int] | None = None  # and this GLB tile (no coordinates as values nor two rates)
    budget: float | None = None  # max_pes as this fraction of the PEs of the design without budgets
    tiles_budget: bool = False  # and max_mem_tiles, the memory tiles of that design
    max_pes: int | None = None  # the budgets resolved (resolve_budget)
    max_mem_tiles: int | None = None
    tile_words: int | None = None  # forced tiling: the target's mem_tile_words (and max_mem_tiles, resolved)

    @property
    def seed(self) -> int:
        return self.base.seed

    @property
    def images(self) -> tuple[str, ...]:
        return ("input", "other") if any(t[0] == -2 for s in self.base.stages for t in s.taps) else ("input",)


def generate(seed: int) -> AutoCase:
    base = fuzz.generate(seed, wide=False)
    rng = random.Random(f"auto {seed}")  # a str seed: deterministic across processes
    base = dataclasses.replace(base, tile=None, lanes=1, variant="", edges="", lookup=False)
    if rng.random() < 0.25:
        base = _with_second_image(rng, base)
    case = AutoCase(base, rng.choice(("copy", "plain")), rng.choice((1, 1, 2, 3)))
    # One in three of the cases the GLB level is built for asks for it (drawn last: the others stay as they were).
    if rng.random() < 0.35 and case.style == "copy" and not base.bins and not base.channels:
        tile = (rng.randint(2, base.width), rng.randint(1, base.height))
        # tiles only where each runs the same hardware on a shifted footprint (the autoscheduler keeps one GLB tile
        # for coordinates as values, and refuses a glb_tile along an axis read at two rates); a tile over a
        # resampling at another phase than the first grows to the first's (hwlower/tiling.py)
        single = all(s.kind != "coord" for s in base.stages) and not read_at_two_rates(base)
        case = dataclasses.replace(case, glb=True, glb_tile=tile if single else None)
    # Budgets, from a generator of their own: the cases above stay as they were.
    budget = random.Random(f"auto budget {seed}")
    if budget.random() < 0.25 and not case.glb:
        case = dataclasses.replace(case, budget=budget.choice((1.0, 0.75, 0.5)), tiles_budget=budget.random() < 0.5)
    # Forced tiling, from a generator of its own too.
    tiles = random.Random(f"auto tiles {seed}")
    # (resampling frames too since session 16: tiles of whole steps, autoschedule_steps.py)
    if (tiles.random() < 0.5 and not case.glb and case.budget is None and not base.bins
            and base.width >= 6 and base.height > 1):
        case = dataclasses.replace(case, tile_words=base.width // 3)
    return case


def resolve_budget(case: AutoCase) -> AutoCase:
    """The case with its budgets as numbers: the fraction of the PEs (and the memory tiles) of the design the
    autoscheduler makes without budgets, compiled without proofs."""
    if case.tile_words is not None and case.max_mem_tiles is None:
        # the one-tile design: the target's small memory tiles, as many as it needs
        tiles = _figures(case, lambda hl: hl.CGRA(mem_tile_words=case.tile_words, num_mem_tiles=1 << 20))["mem_tiles"]
        return dataclasses.replace(case, max_mem_tiles=tiles - 1) if tiles > 1 else case
    if case.budget is None or case.max_pes is not None:
        return case
    rep = _figures(dataclasses.replace(case, budget=None, tiles_budget=False))
    return dataclasses.replace(case, max_pes=max(1, int(rep["pes"] * case.budget)),
                               max_mem_tiles=max(1, rep["mem_tiles"]) if case.tiles_budget else None)


def _figures(case: AutoCase, target=None) -> dict:
    """The report of the case's design without proofs (`target(hl)`: instead of the case's target)."""
    import mainspring

    env: dict = {}
    exec(compile(source(case), f"<fuzz --auto case {case.seed}>", "exec"), env)  # exec: our own generated program
    if target is not None:
        env["target"] = target
    a = env["algorithm"](mainspring)
    env["schedule"](mainspring, a)
    return mainspring.compile(a["output"], name=f"fuzz_auto_{case.seed}", target=env["target"](mainspring),
                              prove=False).report


def _with_second_image(rng: random.Random, case: Case) -> Case:
    """A second image read beside the first: one more tap of a stencil stage, or a last stage adding it to the
    previous one."""
    k = rng.randrange(len(case.stages))
    s = case.stages[k]
    tap = (-2, rng.randint(0, 2), rng.randint(0, 2))
    if s.kind == "stencil":
        s = dataclasses.replace(s, taps=s.taps + (tap,), ops=s.ops + (rng.choice(fuzz._BINOPS),))
        return dataclasses.replace(case, stages=case.stages[:k] + (s,) + case.stages[k + 1:])
    n = len(case.stages)
    last = Stage(f"f{n}", "stencil", ((n - 1, 0, 0), tap), (rng.choice(fuzz._BINOPS),))
    return dataclasses.replace(case, stages=case.stages + (last,))


# ---- the program as Python source ----------------------------------------------------------------------

def source(case: AutoCase) -> str:
    """A runnable program: `algorithm(hl)` has no schedule; `schedule` asks the autoscheduler for one."""
    b, w = case.base, case.base.work
    t = fuzz._TYPES[b.in_type]
    dims = 3 if b.channels else 2
    lines = [
        (f'"""mainspring fuzz --auto case {b.seed}: {b.width}x{b.height}, {case.style} style, lanes {case.lanes}'
         f'{_budget_note(case)}."""'),
        "import mainspring",
        "",
        "",
        "def algorithm(hl):",
        '    x, y = hl.Var("x"), hl.Var("y")',
        f'    input_ = hl.ImageParam(hl.{t}, {dims}, "input")',
    ]
    if "other" in case.images:
        lines.append(f'    other = hl.ImageParam(hl.{t}, 2, "other")')
    if case.style == "copy":
        lines += ['    hw_input = hl.Func("hw_input")',
                  ('    c = hl.Var("c")\n'
                   f"    hw_input[c, x, y] = hl.{w}(input_[x, y, c])" if b.channels else
                   f"    hw_input[x, y] = hl.{w}(input_[x, y])")]
        if "other" in case.images:
            lines += ['    hw_other = hl.Func("hw_other")', f"    hw_other[x, y] = hl.{w}(other[x, y])"]
    names = ["hw_input"] + [s.name for s in b.stages]

    def reader(src: int, xs: str, ys: str, ch: int | None) -> str:
        if src >= 0:
            return f"{names[src + 1]}[{xs}, {ys}]"
        if case.style == "copy":
            return f"hw_other[{xs}, {ys}]" if src == -2 else f"hw_input[{'' if ch is None else f'{ch}, '}{xs}, {ys}]"
        if src == -2:
            return f"hl.{w}(other[{xs}, {ys}])"
        return f"hl.{w}(input_[{xs}, {ys}{'' if ch is None else f', {ch}'}])"

    for s in b.stages:
        lines.append(f'    {s.name} = hl.Func("{s.name}")')
        lines += [f"    {ln}" for ln in fuzz._definition(s, names, w, b.channels, reader=reader)]
    lines += _ending(case, b.stages[-1].name)
    estimates = f"[(0, {b.bins})]" if b.bins else f"[(0, {b.width}), (0, {b.height})]"
    lines += [
        "    return locals()",
        "",
        "",
        "def schedule(hl, a):",
        f'    a["output"].set_estimates({estimates})',
        f'    params = hl.AutoschedulerParams("Mainspring", {_keys(case)})',
        '    return hl.Pipeline(a["output"]).apply_autoscheduler(target(hl), params)',
        "",
        "",
        "def target(hl):",
        f"    return hl.CGRA({'' if case.tile_words is None else f'mem_tile_words={case.tile_words}'})",
        "",
        "",
    ]
    return "\n".join(lines + footer(f"fuzz_auto_{b.seed}", b, "target(mainspring)")) + "\n"


def _budget_note(case: AutoCase) -> str:
    if case.tile_words is not None:
        return f", memory tiles of {case.tile_words} words, max_mem_tiles one under the one-tile design's"
    if case.budget is None:
        return ""
    tiles = ", max_mem_tiles its memory tiles" if case.tiles_budget else ""
    return f", max_pes {case.budget:.0%} of the PEs without budgets{tiles}"


def _keys(case: AutoCase) -> str:
    keys = {"lanes": str(case.lanes)}
    if case.max_pes is not None:
        keys["max_pes"] = str(case.max_pes)
    if case.max_mem_tiles is not None:
        keys["max_mem_tiles"] = str(case.max_mem_tiles)
    if case.glb:
        keys["use_glb"] = "true"
    if case.glb_tile:
        keys["glb_tile"] = f"{case.glb_tile[0]}x{case.glb_tile[1]}"
    return repr(keys).replace("'", '"')


def _ending(case: AutoCase, last: str) -> list[str]:
    """The output: a table the last stage's pixels update, or the last stage copied out (copy style) or the last
    stage itself (plain style)."""
    b = case.base
    if b.bins:
        lines = fuzz._scatter(b, last, scheduled=False)
        if case.style == "plain":  # the table read out by the output itself
            lines = [ln for ln in lines if "hw_output" not in ln] + ["    output[b] = hist[b]"]
        return lines
    if case.style == "plain":
        return [f"    output = {last}"]
    return ['    hw_output = hl.Func("hw_output")', f"    hw_output[x, y] = {last}[x, y]",
            '    output = hl.Func("output")', "    output[x, y] = hw_output[x, y]"]


# ---- running a case -------------------------------------------------------------------------------------

def run_case(case: AutoCase, simulator: str = "icarus", halide=None, build_dir=None) -> Outcome:
    """Schedule, compile, simulate and judge one case (`halide` is not used: `fuzz` compares the reference on
    these algorithms)."""
    import mainspring
    from mainspring.frontend.errors import HalideError, MismatchError

    env: dict = {}
    text = source(case)
    try:
        case = resolve_budget(case)
        text = source(case)
        exec(compile(text, f"<fuzz --auto case {case.seed}>", "exec"), env)  # exec: our own generated program
        a = env["algorithm"](mainspring)
        result = env["schedule"](mainspring, a)
        design = mainspring.compile(a["output"], name=f"fuzz_auto_{case.seed}", target=env["target"](mainspring))
    except HalideError as e:
        documented = any(re.search(p, str(e)) for p in fuzz.DOCUMENTED_REFUSALS + GLB_REFUSALS) or (
            # a budget below the design without budgets may be below every design: the error says by how much
            (case.budget or 1) < 1 and re.search(r"no schedule of '\w+' fits max_pes=", str(e)) is not None) or (
            # forced tiling: a frame that cannot be tiled narrow enough, the figures said
            case.tile_words is not None and re.search(r"max_mem_tiles|memory tiles", str(e)) is not None)
        return Outcome(case, "refused" if documented else "refusal", str(e), source=text)
    except Exception:  # noqa: BLE001 - a crash of the autoscheduler or the compiler is what we look for
        return Outcome(case, "crash", traceback.format_exc(limit=6), source=text)
    inputs = design.example_inputs(case.seed)
    stalls = case.base.stalls
    try:
        res = design.check(inputs, simulator=simulator, bubbles=stalls, backpressure=stalls, seed=case.seed,
                           build_dir=build_dir)
    except MismatchError as e:
        return Outcome(case, "mismatch", str(e), source=text)
    except Exception as e:  # noqa: BLE001 - any other failure is a finding, reported
        kind = "hang" if type(e).__name__ in ("SimulationTimeout", "StreamProtocolError") else "crash"
        return Outcome(case, kind, f"{type(e).__name__}: {e}"[:2000], source=text)
    over = _over_budget(case, design.report)
    if over:
        return Outcome(case, "budget", over, cycles=res.cycles, source=text)
    reached = result.note or case.budget or case.tile_words  # the lanes reached, not those asked for, count
    short = quality(case, design.report, inputs, result.lanes if reached else case.lanes)
    if not short and not stalls and res.cycles != res.predicted_cycles:
        short = [f"simulated {res.cycles} cycles without stalls, predicted {res.predicted_cycles}"]
    kind = "quality" if short else "ok"
    return Outcome(case, kind, "; ".join(short), cycles=res.cycles, source=text)


def _over_budget(case: AutoCase, rep: dict) -> str:
    """What of the design exceeds the case's budgets, or ""."""
    over = [f"{rep[key]} {what}, over max_{key}={cap}" for key, what, cap in (
        ("pes", "PEs", case.max_pes), ("mem_tiles", "memory tiles", case.max_mem_tiles)) if cap is not None and
        rep[key] > cap]
    return "; ".join(over)


def expected_ideal(case: AutoCase, inputs: dict, lanes: int) -> int:
    """The algorithm's ideal cycles at `lanes` pixels per cycle, whatever the schedule: the busiest of the images
    (a pixel's channels in one transfer), the output, or a table's updates and readout (one per cycle, so one lane)."""
    import numpy as np

    b, k = case.base, 1 if case.base.bins else lanes
    up = any(s.kind == "up" for s in b.stages)
    # An upsampled output runs in whole steps of 2 (an odd extent rounds up, as a RoundUp split would).
    w, h = (b.width + b.width % 2, b.height + b.height % 2) if up else (b.width, b.height)
    counts = [-(-w // k) * h] if not b.bins else [_table_phases(b)]
    # An upsample by 2 reads its source at half the output's rate: the images stream at half its lanes.
    k_in = max(1, k // 2) if up else k
    for buf in inputs.values():
        shape = np.asarray(buf).shape  # (y, x) or (c, y, x)
        counts.append(-(-shape[-1] // k_in) * shape[-2])
    return max(counts)


def _table_phases(b) -> int:
    """A table's ideal cycles: the updates (a pixel a cycle) and the readout of its bins, and for a RAM (more than 64
    bins) its first pass over the bins (initialised from the image), its second scatter over a row, each after the
    last step of the one before, sharing that cycle (mainspring/ideal.py). A second pure update runs with the
    readout, a bin a cycle."""
    passes = [b.bins] * (b.ram_init == "divided") + [b.width * b.height] + [b.width] * (b.ram_next == "scatter")
    return sum(passes + [b.bins]) - len(passes)


def quality(case: AutoCase, rep: dict, inputs: dict, lanes: int) -> list[str]:
    """What the design misses of near-ideal cycles at minimal storage (empty when it reaches both). `lanes`: the
    pixels per cycle asked for, or those the autoscheduler reached where it says why it cannot reach more."""
    short = []
    ideal = expected_ideal(case, inputs, lanes)
    depth = max(rep["first_output_cycle"], 0)
    if case.glb:  # each GLB tile streams its halo, fills its pipeline and starts: the tiles asked for cost it
        ideal, depth = max(ideal, rep["ideal_cycles"]), (depth + GLB_LATENCY) * rep["tiles"]
    if case.budget is not None or case.tile_words is not None:
        # the budgets trade cycles (serial reductions, host tiles) for PEs and memory tiles
        ideal, depth = max(ideal, rep["ideal_cycles"]), depth * rep.get("tiles", 1)
    if rep["ideal_cycles"] > ideal:
        short.append(f"the schedule's ideal is {rep['ideal_cycles']} cycles, the algorithm's {ideal}")
    if rep["predicted_cycles"] > ideal * (1 + SLACK) + depth:
        short.append(f"{rep['predicted_cycles']} cycles, over {ideal} ideal + 5% + {depth} pipeline depth")
    for buf in rep["buffers"]:
        if buf["level"] == "wire":
            continue
        # a RAM's registers (its updates' read, a write port per update, a read register per lane); a lane's port
        # registers
        ram = 2 + lanes + bool(case.base.ram_next)
        slack = ram if case.base.bins and buf["min_words"] >= case.base.bins else 2 * lanes
        if buf["words"] > buf["min_words"] + slack:
            short.append(f"buffer {buf['name']}: {buf['words']} words, minimum {buf['min_words']}")
    return short


# ---- shrinking ------------------------------------------------------------------------------------------

def simpler(c: AutoCase):
    """Smaller cases of the same style: the fuzzer's simplifications of the algorithm, then one lane."""
    for base in fuzz._simpler(c.base):
        if base.tile is None and base.lanes == 1:
            tile = c.glb_tile and (min(c.glb_tile[0], base.width), min(c.glb_tile[1], base.height))
            # the budgets resolved again on the smaller algorithm
            yield dataclasses.replace(c, base=base, glb_tile=tile, max_pes=None, max_mem_tiles=None)
    if c.lanes > 1:
        yield dataclasses.replace(c, lanes=1)
    if c.glb:
        yield dataclasses.replace(c, glb=False, glb_tile=None)
    if c.budget is not None:
        yield dataclasses.replace(c, budget=None, tiles_budget=False, max_pes=None, max_mem_tiles=None)
    if c.tile_words is not None:
        yield dataclasses.replace(c, tile_words=None, max_mem_tiles=None)


def stage_sources(c: AutoCase) -> set[int]:
    """The sources the stages read (-1 the input, -2 the second image): for tests of generation."""
    return {t[0] for s in c.base.stages for t in s.taps}


__all__ = ["AutoCase", "Stage", "expected_ideal", "generate", "quality", "resolve_budget", "run_case", "simpler",
           "source"]
