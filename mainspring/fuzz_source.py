"""The fuzz case (`mainspring fuzz`) as a runnable Python program: the algorithm (`algorithm(hl)`, run under
mainspring and Halide alike), the hardware schedule (mainspring/fuzz_schedule.py) and a main that checks it."""

from __future__ import annotations

import re

from .fuzz_case import INTRINSICS, Case, Stage, footer
from .fuzz_outputs import output_lines, paired, paired_read
from .fuzz_schedule import glb_schedule_lines, schedule_lines

_TYPES = {"u8": "UInt(8)", "i8": "Int(8)", "u16": "UInt(16)", "i16": "Int(16)", "u32": "UInt(32)", "i32": "Int(32)"}


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
    if case.param:  # a scalar run-time value, its default given (fuzz_wide.py)
        lines.append(f'    k = hl.Param(hl.{_TYPES[w]}, "k", {case.param})')
    if case.second:  # a second image, its own copy (fuzz_wide.py)
        lines += [f'    input2_ = hl.ImageParam(hl.{_TYPES[case.second]}, 2, "input2")',
                  '    hw_input2 = hl.Func("hw_input2")', f"    hw_input2[x, y] = hl.{w}(input2_[x, y])"]
    names = ["hw_input"] + [s.name for s in case.stages]
    for s in case.stages:
        lines.append(f'    {s.name} = hl.Func("{s.name}")')
        lines += [f"    {ln}" for ln in paired(_wrapped(_definition(s, names, w, case.channels, case), s, w), s)]
        if case.edges and case.edges != "clamp":
            value = f"hl.{w}(3), " if case.edges == "constant_exterior" else ""
            lines.append(f"    {s.name}_e = hl.BoundaryConditions.{case.edges}({s.name}, {value}"
                         f"[(0, {case.width}), (0, {case.height})])")
    last = case.stages[-1].name
    if case.bins:
        lines += _scatter(case, last)
    else:
        first = f"hl.{w}({last}[x, y] + hw_input2[x, y + 1])" if case.second else f"{last}[x, y]"
        lines += output_lines(case, last, first) if case.outputs else [
            '    hw_output = hl.Func("hw_output")',
            f"    hw_output[x, y] = {first}",
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
    lines += glb_schedule_lines(case) if case.variant == "glb" else schedule_lines(case)
    lines += ["", "", *footer(f"fuzz_{case.seed}", case)]
    return "\n".join(lines) + "\n"


def _wrapped(lines: list[str], s: Stage, w: str) -> list[str]:
    """The definition with its last line's value cast through `s.narrow` and back, plus the Param `k` if
    `s.param` (fuzz_wide.py)."""
    if not s.narrow and not s.param:
        return lines
    head, op, value = re.fullmatch(r"(\S+\[x, y\]) (\+?=) (.*)", lines[-1]).groups()  # type: ignore[union-attr]
    if s.narrow:
        value = f"hl.{w}(hl.{s.narrow}({value}))"
    if s.param:
        value = f"{value} + k"
    return lines[:-1] + [f"{head} {op} {value}"]


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
        f"    hw_output[x, y] = hist[hl.clamp(hl.i32({last}[x, y]), 0, {n - 1})] + {last}[x, y]"
        + (f" + hist[hl.clamp({n - 1} - hl.i32({last}[x, y]), 0, {n - 1})]" if case.lookups == 2 else ""),
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
        return paired_read(case, src, f"{names[src + 1]}[{'' if ch is None else f'{ch}, '}{xs}, {ys}]")

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
