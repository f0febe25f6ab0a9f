"""The cocotb flow's simulation speed against a bare Verilator harness, on one app and frame.

    .venv/bin/python scripts/sim_speed.py [APP] [--size W H] [--repeats N]

Compiles APP (default gaussian, at 1920x1080), checks it bit-exactly on Verilator through the cocotb flow
(`design.check`, which also builds the bench or reuses its cached build), then times the same frame through
the cocotb flow (`Bench.run`) and through a bare Verilator harness built from the same sources and flags
(mainspring/sim/bare.py), alternately, `--repeats` times each, and prints the best rates and their ratio. Both
runs must give the same words and cycles. The ratio is the issue-12 figure in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from unittest import mock


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("app", nargs="?", default="gaussian")
    parser.add_argument("--size", nargs=2, type=int, metavar=("W", "H"), default=(1920, 1080))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)

    from mainspring import apps, compile, sim  # noqa: A004 - mainspring's compile
    from mainspring.sim import bare

    mod = apps.load(args.app)
    out, inputs = apps.build(mod, *args.size, 1, False)
    design = compile(out, name=mod.NAME, target=apps.target(mod))
    _say(f"checking {mod.NAME} at {args.size[0]}x{args.size[1]} on Verilator through cocotb")
    # The design decides what the simulator gets (streams, output, parameters, sources): record its call.
    with mock.patch.object(sim, "run", wraps=sim.run) as spy:
        design.check(inputs, simulator="verilator")
    (sources, top, streams, output, params), kw = spy.call_args
    bench = sim.build(sources, top, streams, output, params, simulator="verilator", build_dir=kw["build_dir"],
                      marks=kw["marks"])
    _say("building the bare harness and timing both")
    figures = bare.measure(bench, streams, output, params, repeats=args.repeats,
                           timeout_cycles=kw["timeout_cycles"], drain_cycles=kw["drain_cycles"])
    print(report(f"{mod.NAME} {args.size[0]}x{args.size[1]}", figures))
    return 0


def report(what: str, figures) -> str:
    """The figures as lines of text: cycles, each harness's time and rate, the ratio (wall and CPU)."""
    lines = [f"{what}: {figures.cocotb.cycles:,} cycles, best of the runs"]
    for which in ("cocotb", "bare"):
        t = getattr(figures, which)
        lines.append(f"  {which:6}  wall {t.wall:6.2f} s  {figures.rate(which) / 1e6:5.2f} M cycles/s   "
                     f"cpu {t.cpu:6.2f} s  {figures.rate(which, 'cpu') / 1e6:5.2f} M cycles/s")
    lines.append(f"  cocotb / bare: {figures.ratio():.2f}x wall, {figures.ratio('cpu'):.2f}x cpu")
    return "\n".join(lines)


def _say(msg: str) -> None:
    print(f"[sim_speed {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
