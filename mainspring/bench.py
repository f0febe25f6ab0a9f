"""`mainspring bench`: per app and size, compile time, cycles against the ideal, storage against the exact
minimum, PEs, memory tiles, registers, the longest kernel latency and (at small sizes) Yosys cells, counted two
ways: `cells` keeps memories as memories (a technology-independent count of the design as the CGRA would hold it),
`flat_cells` is issue 12's area flow, `read_verilog; synth -flatten -top TOP; stat`, in which memories become
flip-flops (like for like with the hand-written baselines in tests/verilog/baseline/; `flip_flops` counts them),
and `logic_levels` is the longest path between flip-flops or ports, in gates, under issue 12's timing flow
(`LEVELS_FLOW`). With `--simulate verilator|icarus` each design is also checked bit-exactly (`bit_exact`) and
the simulator's speed reported (`sim_mcps`, M cycles per second)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time

DEFAULT_INPUT = 64

_YOSYS = ("read_verilog {files}; hierarchy -top {top}; proc; {latch}flatten; opt; wreduce; alumacc; share; opt; "
          "memory -nomap; opt_clean; techmap; opt -fast; stat")


# Seconds one Yosys flow may take. A bench measures many designs in one run; on a loaded machine a large design's
# synthesis can pass this, and its cells are then left blank rather than losing the other rows' figures.
YOSYS_TIMEOUT_S = 1200.0


def yosys_figures(name: str, verilog: str, library: str) -> dict:
    """Cells with memories kept as memories, and whether any latch was inferred; None each without yosys or past
    YOSYS_TIMEOUT_S."""
    if shutil.which("yosys") is None:
        return {"cells": None, "latches": None}
    with tempfile.TemporaryDirectory() as d:
        top = os.path.join(d, f"{name}.v")
        with open(top, "w") as fh:
            fh.write(verilog)
        script = _YOSYS.format(files=f"{top} {library}", top=name, latch="select -assert-none t:$dlatch t:$_DLATCH*; ")
        try:
            p = subprocess.run(["yosys", "-q", "-p", script, "-p", "tee -o " + os.path.join(d, "stat.txt") + " stat"],
                               capture_output=True, text=True, timeout=YOSYS_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            return {"cells": None, "latches": None}
        if p.returncode != 0:
            return {"cells": None, "latches": "latch" in (p.stdout + p.stderr).lower() or None}
        with open(os.path.join(d, "stat.txt")) as fh:
            text = fh.read()
    m = re.findall(r"Number of cells:\s+(\d+)", text)
    return {"cells": int(m[-1]) if m else None, "latches": 0}


FLAT_FLOW = "read_verilog {files}; synth -flatten -top {top}; tee -o {stat} stat"


# Issue 12's timing flow (../shared/baselines/README.md): generic gates, then the longest topological path
# between flip-flops or ports (`ltp -noff`), in gates.
LEVELS_FLOW = ("read_verilog {files}; synth -flatten -top {top} -run :fine; opt -fast -full; techmap; opt -fast; "
               "abc -fast; opt -fast; tee -o {stat} ltp -noff")


def _yosys_report(flow: str, files: list[str], top: str) -> str | None:
    """What `flow` writes to its {stat} file, or None without yosys, when it fails or past YOSYS_TIMEOUT_S."""
    if shutil.which("yosys") is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        stat = os.path.join(d, "stat.txt")
        try:
            p = subprocess.run(["yosys", "-q", "-p", flow.format(files=" ".join(files), top=top, stat=stat)],
                               capture_output=True, text=True, timeout=YOSYS_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            return None
        if p.returncode != 0:
            return None
        with open(stat) as fh:
            return fh.read()


def flat_figures(files: list[str], top: str) -> dict:
    """`flat_cells` and `flip_flops` (its flip-flop cells) of `top` under `FLAT_FLOW`; None each without yosys."""
    text = _yosys_report(FLAT_FLOW, files, top)
    cells = re.findall(r"Number of cells:\s+(\d+)", text or "")
    # The last stat is the top's, flattened: every cell type with its count, flip-flops named $_*DFF*_.
    last = (text or "").rsplit("Number of cells:", 1)[-1]
    ffs = sum(int(n) for kind, n in re.findall(r"^\s+(\$_\w*DFF\w*_)\s+(\d+)$", last, re.MULTILINE))
    return {"flat_cells": int(cells[-1]) if cells else None, "flip_flops": ffs if cells else None}


def flat_cells(files: list[str], top: str) -> int | None:
    """Cells of `top` under the flattened generic synthesis (`FLAT_FLOW`: memories become flip-flops), or None
    without yosys or when it fails."""
    return flat_figures(files, top)["flat_cells"]


def logic_levels(files: list[str], top: str) -> int | None:
    """The longest path of `top` between flip-flops or ports in gates (`LEVELS_FLOW`), or None without yosys."""
    m = re.findall(r"Longest topological path in \S+ \(length=(\d+)\)", _yosys_report(LEVELS_FLOW, files, top) or "")
    return int(m[-1]) if m else None


def _with_design(name: str, verilog: str, library: str, measure) -> object:
    """`measure([files], top)` of a design's Verilog (its top and kernels) with the library."""
    with tempfile.TemporaryDirectory() as d:
        top = os.path.join(d, f"{name}.v")
        with open(top, "w") as fh:
            fh.write(verilog)
        return measure([top, library], name)


def flat_cells_of(name: str, verilog: str, library: str) -> int | None:
    """`flat_cells` of a design's Verilog (its top and kernels) with the library."""
    return _with_design(name, verilog, library, flat_cells)  # type: ignore[return-value]


def parse_sizes(spec: str) -> list[tuple[int, int]]:
    """`--sizes`: comma-separated input sizes, N (square) or WxH, each positive."""
    return parse_pairs("--sizes", spec, "an input size", "64,256,1920x1080")


def parse_pairs(option: str, spec: str, what: str, example: str) -> list[tuple[int, int]]:
    """A comma-separated list of positive sizes N (square) or WxH given to `option`."""
    from .frontend.errors import HalideError

    out = []
    for raw in spec.split(","):
        part = raw.strip()
        m = re.fullmatch(r"(\d+)(?:x(\d+))?", part)
        if m is None or int(m.group(1)) < 1 or int(m.group(2) or m.group(1)) < 1:
            raise HalideError(f"{option} {spec}: '{part}' is not {what}; give positive sizes as N or WxH, "
                              f"comma-separated, e.g. {option} {example}")
        out.append((int(m.group(1)), int(m.group(2) or m.group(1))))
    return out


def output_for_input(mod, in_w: int, in_h: int) -> tuple[int, int]:
    """The output size `mod` is built at for an input of in_w x in_h: the input less the app's border (measured at
    its default size), or `mod.output_size`."""
    from .apps import build

    if hasattr(mod, "output_size"):  # apps whose output is not the input less a border (an upsample)
        return tuple(mod.output_size(in_w, in_h))  # type: ignore[return-value]
    _, default_inputs = build(mod, *mod.DEFAULT_SIZE)
    in_shape = max(default_inputs.values(), key=lambda a: a.size).shape
    return in_w - (in_shape[1] - mod.DEFAULT_SIZE[0]), in_h - (in_shape[0] - mod.DEFAULT_SIZE[1])


def build_for_input(mod, in_w: int, in_h: int, lanes: int = 1, glb_tile: tuple[int, int] | None = None):
    """`mod` built for an input of in_w x in_h (the sizes `bench` and `sweep` take): (output_func, inputs), at
    `output_for_input`'s size."""
    from .apps import build

    return build(mod, *output_for_input(mod, in_w, in_h), lanes, glb_tile=glb_tile)


def storage_words(report: dict) -> tuple[int, int]:
    """(words, min_words) of a design's report over its buffers that are storage (not wires)."""
    kept = [b for b in report["buffers"] if b["level"] != "wire"]
    return sum(b["words"] for b in kept), sum(b["min_words"] for b in kept)


def storage_bits(report: dict) -> int:
    """The bits of `storage_words`' words: memory tile words at their buffer's bits, registers at the bits their
    values need (value-range narrowing, `verilog.top_widths`)."""
    return sum(b["bits"] for b in report["buffers"] if b["level"] != "wire")


def memory_bits(plan) -> int:
    """Bits of the memory tiles' SRAM the design's buffers use (each bank's words times its value's bits)."""
    return sum(bank.words * b.bits for b in plan.buffers for bank in b.banks if not bank.in_registers)


CELLS_MAX_INPUT = 256 * 256  # Yosys's cells are counted up to this many input pixels (larger designs take long)


def cells_figures(design, in_w: int, in_h: int, flat: bool = False) -> dict:
    """Yosys's cells and latches of a design built for an in_w x in_h input, and with `flat=True` its
    `flat_cells`, `flip_flops` and `logic_levels`; {} above CELLS_MAX_INPUT."""
    from .design import library_path

    if in_w * in_h > CELLS_MAX_INPUT:
        return {}
    library = str(library_path())
    out = yosys_figures(design.name, design.verilog, library)
    if flat:
        out.update(_with_design(design.name, design.verilog, library, flat_figures))  # type: ignore[arg-type]
        out["logic_levels"] = _with_design(design.name, design.verilog, library, logic_levels)
    return out


def bench_one(mod, in_w: int, in_h: int, yosys: bool, simulator: str | None = None, auto: bool = False) -> dict:
    """One row: the app's hand schedule, or with `auto` its automatic one (`schedule`, and `auto_s`: the seconds
    of building the algorithm and `apply_autoscheduler`, the scheduler's own figure)."""
    from . import apps
    from .compiler import compile  # noqa: A004 - mainspring's compile

    size = output_for_input(mod, in_w, in_h)  # (outside `auto_s`: it builds the hand schedule to measure a border)
    start = time.perf_counter()
    out, inputs = apps.build(mod, *size, auto=auto)
    scheduled = time.perf_counter() - start
    start = time.perf_counter()
    design = compile(out, name=mod.NAME, target=apps.target(mod))
    seconds = time.perf_counter() - start
    rep = design.report
    words, min_words = storage_words(rep)
    row = {
        "app": mod.NAME, "input": f"{in_w}x{in_h}", "compile_s": round(seconds, 2),
        "cycles": rep["predicted_cycles"], "ideal": rep["ideal_cycles"],
        "over_ideal": rep["predicted_cycles"] - rep["ideal_cycles"],
        "words": words, "bits": storage_bits(rep), "min_words": min_words,
        "pes": rep["pes"], "mem_tiles": rep["mem_tiles"], "registers": rep["registers"],
        "memory_bits": memory_bits(design.plan),
        "latency": max(rep["kernel_latency"].values(), default=0),
        "tiles": rep["tiles"], "halo": f"{100 * rep['halo_overhead']:.1f}%",
        "schedule": "auto" if auto else "hand", "auto_s": round(scheduled, 3) if auto else None,
    }
    if yosys:
        row.update(cells_figures(design, in_w, in_h, flat=True))
    if simulator is not None:
        row.update(simulation_figures(design, inputs, simulator))
    return row


def simulation_figures(design, inputs: dict, simulator: str) -> dict:
    """`bit_exact` (the check against the reference raises otherwise, with the first differing pixels) and the
    simulator's speed in M cycles per second of its run (`sim_mcps`: the model's build excluded, cocotb's and the
    simulator's start included, so small frames understate it)."""
    res = design.check(inputs, simulator=simulator)  # raises with the first differing pixels
    # Three significant digits: a small design's run on a loaded machine is well under 0.001 M cycles per second.
    mcps = res.cycles / max(res.sim_seconds, 1e-9) / 1e6
    return {"bit_exact": "yes", "sim_mcps": float(f"{mcps:.3g}")}


def run_bench(apps_wanted, sizes: str, yosys: bool = True, progress=print, simulator: str | None = None,
              auto: bool = False) -> int:
    """The table, one row per app and size; with `auto` a second row per app and size, its automatic schedule (of
    the apps whose build() offers an unscheduled algorithm: issue 11's figures against the hand schedules)."""
    from . import apps
    from .frontend.errors import HalideError

    rows = []
    grid = parse_sizes(sizes)
    mods = [apps.load(name) for name in apps_wanted or apps.APPS]
    for name, mod in zip(apps_wanted or apps.APPS, mods):
        for w, h in grid:
            for schedule in ("hand", "auto") if auto and apps.offers_auto(mod) else ("hand",):
                progress(f"bench {name} at {w}x{h}" + (f" ({schedule} schedule)" if auto else ""))
                try:
                    rows.append(bench_one(mod, w, h, yosys, simulator, auto=schedule == "auto"))
                except HalideError as e:  # one design that does not fit must not hide the others' figures
                    progress(f"bench {name} at {w}x{h}: {e}")
                    rows.append({"app": mod.NAME, "input": f"{w}x{h}", "schedule": schedule, "compile_s": "error"})
    cols = ["app", "input"] + (["schedule", "auto_s"] if auto else []) + [
            "compile_s", "cycles", "ideal", "over_ideal", "tiles", "halo", "words", "bits", "min_words",
            "pes", "mem_tiles", "registers", "memory_bits", "latency", "cells", "flat_cells", "flip_flops",
            "logic_levels", "latches"] + (["bit_exact", "sim_mcps"] if simulator else [])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join("" if r.get(c) is None else str(r.get(c)) for c in cols) + " |")
    return 1 if any(r["compile_s"] == "error" for r in rows) else 0  # the table is whole; the status says a row failed
