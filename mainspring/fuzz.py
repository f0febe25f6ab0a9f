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
upsamples by different divisors along x, and rfactor in the forms tests/flow/test_flow_rfactor.py compiles.
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

from .fuzz_case import (
    INTRINSICS,
    Case,
    Stage,
    footer,
    resampled,
    rfactor_lines,
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
    with_tails,
    with_upsample_chains,
    with_variant,
)

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
)

_TYPES = {"u8": "UInt(8)", "i8": "Int(8)", "u16": "UInt(16)", "i16": "Int(16)", "u32": "UInt(32)", "i32": "Int(32)"}
_BINOPS = ("+", "-", "*", "min", "max", "absd", "avg", "select")


@dataclass
class Outcome:
    case: Any  # a Case, or fuzz_auto's AutoCase
    # "ok", "refused", "mismatch", "reference", "crash", "hang", "slow", "refusal"; with --auto "quality", "budget"
    kind: str
    detail: str = ""
    cycles: int | None = None
    source: str = field(default="", repr=False)

    @property
    def failed(self) -> bool:
        return self.kind not in ("ok", "refused")


# ---- generation -----------------------------------------------------------------------------------------

def generate(seed: int) -> Case:
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
    case = with_tails(rng, with_mixed_lanes(rng, with_predicates(rng, with_intrinsics(rng, case))))
    case = with_memory_tiles(rng, with_coordinate_tiles(rng, with_reduction_splits(rng, case)))
    case = with_glb_edges(rng, with_ram(rng, case))
    case = with_divided_start(rng, with_divided_taps(rng, with_glb_lanes(rng, case)))
    return with_glb_resampled(rng, with_upsample_chains(rng, with_rfactor(rng, case)))  # drawn last, as above


# ---- the program as Python source ----------------------------------------------------------------------

def source(case: Case) -> str:
    """A runnable program: `algorithm(hl)` runs under mainspring and Halide alike; `schedule` is the hardware's."""
    w = case.work
    mixed = f" mixed {dict(case.mixed)}" if case.mixed else ""
    mixed += f" tail {case.tail}" if case.tail != "RoundUp" else ""
    head = f"{case.width}x{case.height}, tile {case.tile}, {case.lanes} lane(s){mixed}"
    lines = [
        f'"""mainspring fuzz case {case.seed}: {head}."""',
        "import mainspring",
        "",
        "",
        "def algorithm(hl):",
        '    x, y = hl.Var("x"), hl.Var("y")',
        f'    input_ = hl.ImageParam(hl.{_TYPES[case.in_type]}, {3 if case.channels else 2}, "input")',
        '    hw_input = hl.Func("hw_input")',
        ('    c = hl.Var("c")\n'
         f"    hw_input[c, x, y] = hl.{w}(input_[x, y, c])" if case.channels else
         f"    hw_input[x, y] = hl.{w}(input_[x, y])"),
    ]
    names = ["hw_input"] + [s.name for s in case.stages]
    for s in case.stages:
        lines.append(f'    {s.name} = hl.Func("{s.name}")')
        lines += [f"    {ln}" for ln in _definition(s, names, w, case.channels, case)]
        if case.edges and case.edges != "clamp":
            value = f"hl.{w}(3), " if case.edges == "constant_exterior" else ""
            lines.append(f"    {s.name}_e = hl.BoundaryConditions.{case.edges}({s.name}, {value}"
                         f"[(0, {case.width}), (0, {case.height})])")
    last = case.stages[-1].name
    if case.bins:
        lines += _scatter(case, last)
    else:
        lines += [
            '    hw_output = hl.Func("hw_output")',
            f"    hw_output[x, y] = {last}[x, y]",
            '    output = hl.Func("output")',
            "    output[x, y] = hw_output[x, y]",
        ]
    lines += [
        "    return locals()",
        "",
        "",
        "def schedule(hl, a):",
        '    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))',
    ]
    lines += _glb_schedule(case) if case.variant == "glb" else _schedule(case)
    lines += ["", "", *footer(f"fuzz_{case.seed}", case)]
    return "\n".join(lines) + "\n"


def _schedule(case: Case) -> list[str]:
    """The body of `schedule(hl, a)`: one accelerator tile per host tile, every stage buffered at its loop."""
    lines: list[str] = []
    if case.bins and not case.lookup:
        lines += [f'    a["output"].bound(a["b"], 0, {case.bins})',
                  f'    a["hw_output"].compute_root().split(a["b"], xo, xi, {case.bins}).hw_accelerate(xi, xo)']
    else:
        tx, ty = case.tile or (case.width, case.height)
        lines += [f'    a["output"].bound(x, 0, {case.width}).bound(y, 0, {case.height})',
                  '    a["hw_output"].compute_root()',
                  f'    a["hw_output"].tile(x, y, xo, yo, xi, yi, {tx}, {ty}).hw_accelerate(xi, xo)']
    ru = "" if case.tail == "Auto" else f", hl.TailStrategy.{case.tail}"
    for s in case.stages:
        r = f'a["r_{s.name}"]'
        if s.split == "serial":
            lines.append(f'    a["{s.name}"].update().split({r}.x, hl.RVar("rxo"), hl.RVar("rxi"), 2)')
        elif s.split == "inner":
            lines.append(f'    a["{s.name}"].update().unroll({r}.x, 2)' + (f".unroll({r}.y)" if s.unrolled else ""))
        elif s.rfactor:
            lines += rfactor_lines(s)
        elif s.kind == "reduce" and s.unrolled:
            lines.append(f'    a["{s.name}"].update().unroll({r}.x).unroll({r}.y)')
        if not s.inline:
            lines.append(f'    a["{s.name}"].compute_at(a["hw_output"], xo)')
            if case.variant == "store_at":
                lines.append(f'    a["{s.name}"].store_at(a["hw_output"], xo)')
            if case.lanes_of(s.name) > 1:
                lines.append(f'    a["{s.name}"].unroll(x, {case.lanes_of(s.name)}{ru})')
                if s.kind == "reduce":
                    lines.append(f'    a["{s.name}"].update().unroll(x, {case.lanes_of(s.name)}{ru})')
    if case.ram_unroll:  # the RAM's scatter, unrolled: it runs serially
        lines.append('    a["hist"].update(0).unroll(a["r"].x)')
    if case.variant == "accelerator_input":
        lines.append('    a["hw_input"].compute_root().accelerator_input()')
    else:
        lines.append('    a["hw_input"].compute_root().stream_to_accelerator()')
    if case.channels:  # the channels of a pixel in each transfer
        lines.append('    a["hw_input"].unroll(a["c"])')
    if case.variant == "column_major":  # the output streams y fastest
        lines.append('    a["hw_output"].reorder(yi, xi)')
    for name, var in (("hw_output", "xi"), ("hw_input", "x")):
        if case.lanes_of(name) > 1:
            lines.append(f'    a["{name}"].unroll({var}, {case.lanes_of(name)}{ru})')
    return lines


def _glb_schedule(case: Case) -> list[str]:
    """Seed 002's three levels: the host's tiles (the case's tile) through the GLB, in the case's memory tiles."""
    tx, ty = case.tile or (case.width, case.height)
    mx, my = case.mem_tile or (tx, ty)
    # lanes: every level unrolled by them, RoundUp (tests/flow/independent/test_variations.py `_glb_blur`)
    def u(var: str) -> str:
        return f".unroll({var}, {case.lanes}, hl.TailStrategy.RoundUp)" if case.lanes > 1 else ""

    lines = [f'    a["output"].bound(x, 0, {case.width}).bound(y, 0, {case.height})',
             '    glb = a["hw_output"].in_()',
             f'    glb.compute_root().tile(x, y, xo, yo, xi, yi, {tx}, {ty}).hw_accelerate(xi, xo)',
             f'    glb{u("xi")}.store_in(hl.MemoryType.GLB)',
             '    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))',
             f'    a["hw_output"].tile(x, y, xio, yio, xii, yii, {mx}, {my}).compute_at(glb, xo){u("xii")}']
    for s in case.stages:
        if s.kind == "reduce" and s.unrolled:
            lines.append(f'    a["{s.name}"].update().unroll(a["r_{s.name}"].x).unroll(a["r_{s.name}"].y)')
        if not s.inline:
            lines.append(f'    a["{s.name}"].compute_at(a["hw_output"], xio){u("x")}')
            if s.kind == "reduce" and case.lanes > 1:
                lines.append(f'    a["{s.name}"].update(){u("x")}')
    return lines + [f'    a["hw_input"].in_().in_().compute_at(a["hw_output"], xio){u("x")}',
                    f'    a["hw_input"].in_().compute_at(glb, xo){u("x")}.store_in(hl.MemoryType.GLB)',
                    '    a["hw_input"].compute_root().accelerator_input()']


def _scatter(case: Case, last: str, scheduled: bool = True) -> list[str]:
    """A table of `case.bins` elements updated at the last stage's pixels, read out as the output (or read at
    each pixel's bin: `case.lookup`). `scheduled`: the table-initialising Func computed at the root (not in fuzz
    --auto's algorithms, which have no schedule)."""
    w, n = case.work, case.bins
    at = f"hl.clamp(hl.i32({last}[r.x, r.y]), 0, {n - 1})"
    update = {"count": f"hist[{at}] += hl.{w}(1)",
              "max": f"hist[{at}] = hl.max(hist[{at}], hl.{w}(r.x + r.y))",
              "sum": f"hist[{at}] = hist[{at}] + {last}[r.x, r.y] / hl.{w}(2)"}[case.scatter]
    init = {"": f"hl.{w}({3 if case.scatter == 'max' else 0})", "coords": f"hl.{w}(b * 3 % 50)",
            "table": "init_t[b]", "divided": f"{last}[b % 4, 0]"}[case.ram_init]
    then = {"": [], "pure": [f"    hist[b] = hist[b] / hl.{w}(2) + hl.{w}(b % 5)"],
            "scatter": [f'    r2 = hl.RDom([hl.Range(0, {case.width})], "r2")',
                        f"    hist[hl.clamp({n - 1} - hl.i32({last}[r2.x, 0]), 0, {n - 1})] += hl.{w}(2)"]}
    return [
        '    b = hl.Var("b")',
        f'    r = hl.RDom([hl.Range(0, {case.width}), hl.Range(0, {case.height})], "r")',
        *(['    init_t = hl.Func("init_t")', f"    init_t[b] = hl.{w}((b * 7) % 23)"]
          + (["    init_t.compute_root()"] if scheduled else []) if case.ram_init == "table" else []),
        '    hist = hl.Func("hist")',
        f"    hist[b] = {init}",
        f"    {update}",
        *then[case.ram_next],
    ] + ([
        '    hw_output = hl.Func("hw_output")',
        f"    hw_output[x, y] = hist[hl.clamp(hl.i32({last}[x, y]), 0, {n - 1})] + {last}[x, y]",
        '    output = hl.Func("output")',
        "    output[x, y] = hw_output[x, y]",
    ] if case.lookup else [
        '    hw_output = hl.Func("hw_output")',
        "    hw_output[b] = hist[b]",
        '    output = hl.Func("output")',
        "    output[b] = hw_output[b]",
    ])


def _definition(s: Stage, names: list[str], w: str, channels: int = 0, case: Case | None = None,
                reader=None) -> list[str]:
    """The stage's definition as source lines; `reader(src, xs, ys, channel)` spells a read of a source (another
    program style reads the images directly), by default a read of the stage or of hw_input; `case`: the case
    whose boundary condition (`Case.edges`) the stage's taps read through."""
    def read(src: int, xs: str, ys: str, k: int = 0) -> str:
        ch = (k + int(s.name[1:])) % channels if channels and src == -1 else None  # a channel of hw_input
        if reader is not None:
            return reader(src, xs, ys, ch)
        return f"{names[src + 1]}[{'' if ch is None else f'{ch}, '}{xs}, {ys}]"

    def tap(t) -> str:
        src, dx, dy = t
        if case is not None and case.edges and src >= 0:  # through the boundary condition, from offset -1
            xs, ys = _offset("x", dx - 1), _offset("y", dy - 1)
            if case.edges == "clamp":
                return (f"{names[src + 1]}[hl.clamp({xs}, 0, {case.width - 1}), "
                        f"hl.clamp({ys}, 0, {case.height - 1})]")
            return f"{names[src + 1]}_e[{xs}, {ys}]"
        return read(src, _offset("x", dx), _offset("y", dy), dx + 2 * dy)

    src = s.taps[0][0]
    if s.kind == "down":  # a 2x2 average of the source at twice the resolution
        a, b = read(src, "2 * x", "2 * y"), read(src, "2 * x + 1", "2 * y + 1", 1)
        return [f"{s.name}[x, y] = hl.{w}(({a} + {b}) >> 1)"]
    if s.kind == "up":  # an upsample (x / 2, y / 2 by default): each source pixel blended with its right neighbour
        dx, dy = (f"x / {s.by[0]}", f"y / {s.by[1]}" if s.by[1] > 1 else "y")
        a, b = read(src, dx, dy), read(src, f"{dx} + 1", dy, 1)
        return [f"{s.name}[x, y] = hl.{w}(({a} + {b}) >> 1)"]
    if s.kind == "pointwise":
        return [f"{s.name}[x, y] = {tap(s.taps[0])} {s.ops[0]} hl.{w}({s.const})"]
    if s.kind == "rom":
        t = tap(s.taps[0])
        return [f'{s.name}_table = hl.Func("{s.name}_table")',
                f"{s.name}_table[x] = hl.{w}(x * {s.const} % 11)",
                f"{s.name}[x, y] = {t} + {s.name}_table[hl.i32(hl.clamp({t}, 0, 15))]"]
    if s.kind == "coord":
        t = tap(s.taps[0])
        return [f"{s.name}[x, y] = hl.select(x < {s.const}, {t}, {t} + hl.{w}(y * {s.const} - x))"]
    if s.kind == "reduce":
        (ex, ey) = s.extent
        d = f" / {s.divided}" if s.divided > 1 else ""
        operand = read(src, f"(x + r_{s.name}.x){d}", f"(y + r_{s.name}.y){d}") if d else \
            read(src, f"x + r_{s.name}.x", f"y + r_{s.name}.y")
        where = [f"r_{s.name}.where(r_{s.name}.x + r_{s.name}.y != {s.where})"] if s.where >= 0 else []
        return [f'r_{s.name} = hl.RDom([hl.Range(0, {ex}), hl.Range(0, {ey})], "r_{s.name}")', *where,
                f"{s.name}[x, y] = hl.{w}(0)",
                f"{s.name}[x, y] += {operand} * hl.{w}({s.const})"]
    expr = tap(s.taps[0])
    for op, t in zip(s.ops, s.taps[1:]):  # each step cast back to the working type (absd is unsigned)
        b = tap(t)
        if op in ("min", "max", "absd"):
            expr = f"hl.{w}(hl.{op}({expr}, {b}))"
        elif op == "lerp":  # the second tap's bits as the weight
            expr = f"hl.lerp(hl.{w}({expr}), {b}, hl.cast(hl.UInt({w.lstrip('ui')}), {b}))"
        elif op in INTRINSICS:
            expr = f"hl.{op}(hl.{w}({expr}), {b})"
        elif op == "avg":
            expr = f"(({expr}) + {b}) >> 1"
        elif op == "select":
            expr = f"hl.select({b} > {expr}, {b}, {expr} + 1)"
        else:
            expr = f"({expr}) {op} {b}"
    if s.kind == "stencil" and len(s.taps) == 1:
        expr = f"{expr} + hl.{w}(1)"
    return [f"{s.name}[x, y] = hl.{w}({expr})"]


def _offset(v: str, d: int) -> str:
    return v if d == 0 else f"{v} + {d}" if d > 0 else f"{v} - {-d}"


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
        design = mainspring.compile(a["output"], name=f"fuzz_{case.seed}")
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
    want = np.asarray(res.output)
    assert want.shape == ((case.bins,) if case.bins and not case.lookup else (case.height, case.width))
    return Outcome(case, "ok", cycles=res.cycles, source=text)


def _against_halide(env, halide, design, inputs, case: Case) -> str:
    """The reference against Halide 21 on the algorithm alone, over the same input."""
    import numpy as np

    mine = design.reference_output(inputs)
    a = env["algorithm"](halide)
    buf = inputs["input"]
    # Halide's bounds of a mirrored index are its whole range, ours exact: it may ask for more of the input than
    # the design reads. A margin of other values around the input: any that Halide's output uses shows as a
    # difference.
    pad = 4
    arr = np.asarray(buf)
    wide = np.random.default_rng(case.seed).integers(0, 100, [n + 2 * pad for n in arr.shape]).astype(arr.dtype)
    wide[tuple(slice(pad, pad + n) for n in arr.shape)] = arr
    hb = halide.Buffer(np.ascontiguousarray(wide))
    hb.set_min([buf.dim(i).min() - pad for i in range(buf.dimensions())])
    a["input_"].set(hb)
    try:
        size = [case.bins] if case.bins and not case.lookup else [case.width, case.height]
        theirs = np.asarray(a["output"].realize(size))
    except Exception as e:  # noqa: BLE001 - Halide refusing a program the reference runs is a finding
        return f"Halide 21 refuses the algorithm, which the reference runs: {e}"
    if theirs.shape != mine.shape or not np.array_equal(theirs, mine):
        diff = np.argwhere(theirs != mine)[:5].tolist() if theirs.shape == mine.shape else theirs.shape
        return f"reference differs from Halide 21 at (y, x) {diff}"
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
