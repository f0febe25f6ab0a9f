"""The `mainspring` command: compile an app to RTL, simulate it against the reference, benchmark the apps.

APP is an app of `mainspring.apps` (`mainspring compile --help` lists them) or the path of a Python file that
follows the app convention (see `mainspring/apps/__init__.py`: NAME, DEFAULT_SIZE, build(width, height)), or
that holds one `@hl.generator` class (`-p NAME=VALUE` sets its GeneratorParams).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from . import apps
from .compiler import STEPS
from .frontend.errors import HalideError, MismatchError


def _progress(msg: str) -> None:
    print(f"[mainspring {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _build(app: str, size, lanes: int = 1, auto: bool = False, params=()):
    """(module, output, inputs, size); for a generator file the output is the Generator, inputs and size None."""
    if size is not None and min(size) < 1:
        raise HalideError(f"--size {size[0]} {size[1]}: an output size is two positive integers W H, e.g. "
                          "--size 64 64")
    if lanes < 1:
        raise HalideError(f"--lanes {lanes}: the pixels per cycle are a positive integer, e.g. --lanes 2")
    mod = apps.load(app)
    if isinstance(mod, apps.GeneratorApp):
        for flag, given in (("--size", size is not None), ("--lanes", lanes != 1)):
            if given:
                raise HalideError(f"{flag}: {app} is a Generator, whose generate() fixes its size and lanes; pass "
                                  "GeneratorParams instead, e.g. -p lanes=2")
        return mod, mod.instance(_generator_params(params), auto), None, None
    if params:
        raise HalideError(f"-p {params[0]}: app {mod.NAME} is not a Generator and takes no GeneratorParams; use "
                          "--size and --lanes, or write the app as an @hl.generator class")
    w, h = size or mod.DEFAULT_SIZE
    out, inputs = apps.build(mod, w, h, lanes, auto)
    return mod, out, inputs, (w, h)


def _generator_params(params) -> dict[str, str]:
    out = {}
    for p in params:
        key, eq, value = p.partition("=")
        if not eq or not key:
            raise HalideError(f"-p {p}: a GeneratorParam is given as NAME=VALUE, e.g. -p schedule=2")
        out[key] = value
    return out


def _at(size) -> str:
    return f" at {size[0]}x{size[1]}" if size else ""


def cmd_compile(args) -> int:
    from .compiler import compile  # noqa: A004 - mainspring's compile

    mod, out, _, size = _build(args.app, args.size, args.lanes, args.auto, args.param)
    _progress(f"compiling {mod.NAME}{_at(size)}")
    design = compile(out, name=mod.NAME, target=apps.target(mod), dump_after=args.dump_after)
    path = design.save(args.output)
    _progress(f"wrote {path}")
    print(json.dumps(design.report, indent=1, sort_keys=True))
    return 0


def cmd_sim(args) -> int:
    from .compiler import compile  # noqa: A004 - mainspring's compile

    mod, out, inputs, size = _build(args.app, args.size, args.lanes, args.auto, args.param)
    _progress(f"compiling {mod.NAME}{_at(size)}")
    design = compile(out, name=mod.NAME, target=apps.target(mod))
    if inputs is None:  # a Generator: its example inputs
        inputs = design.example_inputs(args.seed)
    _progress(f"simulating on {args.simulator} (the first build of a design takes a while on Verilator)")
    try:
        res = design.check(inputs, simulator=args.simulator, bubbles=args.bubbles, backpressure=args.backpressure,
                           seed=args.seed)
    except MismatchError as e:
        print(f"MISMATCH: {e}")
        return 1
    rep = design.report
    w, h = size or res.output.shape[::-1][:2]  # a Generator's: its output's
    print(f"{mod.NAME} {w}x{h} on {args.simulator}: bit-exact against the reference "
          f"({res.output.size} output pixels)")
    print(f"  cycles {res.cycles} (predicted {res.predicted_cycles}, ideal {rep['ideal_cycles']}, "
          f"first output at cycle {rep['first_output_cycle']})")
    print(f"  PEs {rep['pes']}, memory tiles {rep['mem_tiles']}, registers {rep['registers']}, "
          f"compile {rep['compile_seconds']} s, simulation {res.sim_seconds:.1f} s")
    piped = {op: n for op, n in rep["kernel_latency"].items() if n}
    print(f"  kernel latency (cycles from loads to store): "
          f"{', '.join(f'{op} {n}' for op, n in sorted(piped.items())) or 'none'}")
    for b in rep["buffers"]:
        print(f"  buffer {b['name']}: {b['level']}, {b['words']} words (minimum {b['min_words']})")
    for note in rep.get("notes", []):  # schedule calls the hardware runs otherwise than written
        print(f"  note: {note}")
    for why in rep["ii_limits"]:
        print(f"  schedule {rep['schedule']}: {why}")
    if "glb" in rep:
        g = rep["glb"]
        overlap = "overlapping" if rep["transfers_overlap_compute"] else "not overlapping"
        print(f"  GLB: {rep['tiles']} tile(s) of {rep['mem_tiles_per_glb_tile']} memory tile(s); tile cycles "
              f"{sorted(set(res.tile_cycles))} (predicted {sorted(set(rep['predicted_tile_cycles']))}, "
              f"{rep['tile_cycles']} when the array never waits); host transfers "
              f"{rep['host_transfer_cycles']} cycles, {overlap} compute; halo overhead "
              f"{100 * rep['halo_overhead']:.2f}%")
        for b in g["buffers"]:
            print(f"  GLB buffer {b['name']}: {b['role']}, {b['tile_words']} words x {b['copies']}")
    elif rep["tiles"] > 1:
        print(f"  host tiles {rep['tiles']} of {rep['tile_cycles']} cycles; halo overhead "
              f"{100 * rep['halo_overhead']:.2f}%")
    return 0


def cmd_prove(args) -> int:
    from .compiler import compile  # noqa: A004 - mainspring's compile
    from .verilog.prove import prove_design
    from .verilog.prove_coreir import prove_coreir_design

    mod, out, _, size = _build(args.app, args.size, args.lanes, params=args.param)
    _progress(f"compiling {mod.NAME}{_at(size)}")
    design = compile(out, name=mod.NAME, target=apps.target(mod))
    _progress(f"proving its kernels (at most {args.timeout:g} budget seconds each)")
    print("Kernels against their Halide expressions")
    proofs = prove_design(design, timeout=args.timeout, progress=lambda p: print(f"  {p}", flush=True))
    _progress("proving CoreIR's Verilog of each kernel's compute JSON module equal to ours")
    print("CoreIR rendering")
    renders = prove_coreir_design(design, timeout=args.timeout, progress=lambda p: print(f"  {p}", flush=True))
    proved = sum(p.status == "proved" for p in proofs)
    disproved = sum(p.status == "disproved" for p in proofs)
    count = lambda status: sum(r.status == status for r in renders)  # noqa: E731
    print(f"{mod.NAME}: {proved} of {len(proofs)} kernels proved, {len(proofs) - proved - disproved} unproved, "
          f"{disproved} disproved; CoreIR's rendering equal to ours for {count('equal')} of {len(renders)}, "
          f"{count('unproved')} unproved, {count('not checked')} not checked, {count('different')} different")
    return 1 if disproved or count("different") else 0


def cmd_bench(args) -> int:
    from .bench import run_bench

    return run_bench(args.apps or None, args.sizes, yosys=not args.no_yosys, progress=_progress,
                     simulator=None if args.simulate == "none" else args.simulate, auto=args.auto)


def cmd_fuzz(args) -> int:
    from .fuzz import run_fuzz

    if args.cases < 1 or args.jobs < 1:
        raise HalideError(f"--cases {args.cases} --jobs {args.jobs}: both are positive integers")
    failures = run_fuzz(args.cases, args.seed, simulator=args.simulator, jobs=args.jobs, save=args.save,
                        progress=_progress, shrink_failures=not args.no_shrink, case_limit=args.case_timeout,
                        auto=args.auto)
    for f in failures:
        print(f"FAIL case {f.case.seed} ({f.kind}): {f.detail.splitlines()[0] if f.detail else ''}")
    below = sum(f.kind == "quality" for f in failures)  # bit-exact, but short of near-ideal cycles or storage
    print(f"{args.cases - len(failures)} passed, " + (f"{below} below quality, " if args.auto else "")
          + f"{len(failures) - below} failed")
    return 1 if failures else 0


def cmd_sweep(args) -> int:
    from .bench import parse_sizes
    from .sweep import grid as sweep_grid
    from .sweep import parse_ints, parse_tiles, run_sweep

    if args.workers is not None and args.workers < 1:
        raise HalideError(f"--workers {args.workers}: the local worker processes are a positive integer")
    points = sweep_grid(args.apps, parse_sizes(args.sizes), parse_ints("--lanes", args.lanes),
                        parse_tiles(args.glb_tiles) if args.glb_tiles else None,
                        parse_ints("--mem-tile-words", args.mem_tile_words) if args.mem_tile_words else None,
                        args.simulator)
    rows = run_sweep(points, args.output, cluster=args.cluster, workers=args.workers, progress=_progress)
    failed = [r for r in rows if r.get("error")]
    _progress(f"wrote {args.output}/sweep.csv and {args.output}/pareto.svg")
    print(f"{len(rows) - len(failed)} of {len(rows)} points done, {len(failed)} failed")
    return 1 if failed else 0  # the table is whole; the status says a point failed


def cmd_show(args) -> int:
    from .compiler import compile  # noqa: A004 - mainspring's compile

    mod, out, _, size = _build(args.app, args.size, args.lanes, args.auto, args.param)
    _progress(f"compiling {mod.NAME}{_at(size)}")
    design = compile(out, name=mod.NAME, target=apps.target(mod))
    index = design.show(args.output)
    _progress(f"wrote the pictures and {index}")
    print(index)
    return 0


def _app_arguments(parser, lanes: bool = True, auto: bool = True) -> None:
    """The arguments naming an app and how to build it, shared by compile, sim, prove and show."""
    parser.add_argument("app")
    parser.add_argument("--size", nargs=2, type=int, metavar=("W", "H"), help="output size")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a GeneratorParam of an app file holding an @hl.generator class (repeatable)")
    if lanes:
        parser.add_argument("--lanes", type=int, default=1, help="pixels per cycle (apps whose build() takes lanes)")
    if auto:
        parser.add_argument("--auto", action="store_true", help="schedule the app's algorithm automatically (apps "
                            "whose build() takes auto: every app of mainspring.apps)")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mainspring", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile", help="compile an app and write its files")
    _app_arguments(c)
    c.add_argument("-o", "--output", required=True, help="output directory")
    c.add_argument("--dump-after", choices=STEPS, metavar="STEP",
                   help=f"print the result of a step: {', '.join(STEPS)}")
    c.set_defaults(fn=cmd_compile)
    s = sub.add_parser("sim", help="compile an app, simulate it and check it bit for bit")
    _app_arguments(s)
    s.add_argument("--simulator", default="verilator", choices=("verilator", "icarus"))
    s.add_argument("--bubbles", type=float, default=0.0)
    s.add_argument("--backpressure", type=float, default=0.0)
    s.add_argument("--seed", type=int, default=0)
    s.set_defaults(fn=cmd_sim)
    v = sub.add_parser("prove", help="compile an app and prove each kernel's Verilog equal to its expression, "
                       "and CoreIR's Verilog of each kernel equal to ours")
    _app_arguments(v, auto=False)
    v.add_argument("--timeout", type=float, default=30.0,
                   help="budget seconds per kernel (z3's work, about a CPU second each) before it is left unproved")
    v.set_defaults(fn=cmd_prove)
    g = sub.add_parser("show", help="compile an app and draw it: pipeline, memory hierarchy, schedule, index.html")
    _app_arguments(g)
    g.add_argument("-o", "--output", required=True, help="output directory")
    g.set_defaults(fn=cmd_show)
    _batch_parsers(sub)
    return p


def _batch_parsers(sub) -> None:
    """The commands over many designs: bench, fuzz, sweep."""
    b = sub.add_parser("bench", help="a table of figures per app")
    b.add_argument("apps", nargs="*")
    b.add_argument("--sizes", default="64,1920x1080", help="comma-separated input sizes, e.g. 64,256,1920x1080")
    b.add_argument("--no-yosys", action="store_true")
    b.add_argument("--simulate", default="none", choices=("none", "verilator", "icarus"),
                   help="also simulate each design bit-exactly: `bit_exact` and the simulator's speed (`sim_mcps`)")
    b.add_argument("--auto", action="store_true",
                   help="a second row per app and size: its automatic schedule (`schedule`, `auto_s`)")
    b.set_defaults(fn=cmd_bench)
    f = sub.add_parser("fuzz", help="random pipelines and schedules, simulated and compared with the reference")
    f.add_argument("--cases", type=int, default=100)
    f.add_argument("--seed", type=int, default=0, help="the first case's seed (case k uses seed + k)")
    f.add_argument("--simulator", default="icarus", choices=("verilator", "icarus"))
    f.add_argument("--jobs", type=int, default=1, help="cases run in parallel")
    f.add_argument("--save", default="fuzz-failures", help="directory for each failure as a runnable program")
    f.add_argument("--no-shrink", action="store_true", help="report failures as generated")
    f.add_argument("--case-timeout", type=float, default=120.0, help="seconds after which a case is a failure")
    f.add_argument("--auto", action="store_true", help="algorithms written with no schedule, scheduled by "
                   "apply_autoscheduler; a bit-exact case short of near-ideal cycles or minimal storage is a "
                   "'quality' finding")
    f.set_defaults(fn=cmd_fuzz)
    w = sub.add_parser("sweep", help="compile (and simulate) every point of a grid on Dask: a CSV and a Pareto "
                       "picture of PEs against cycles")
    w.add_argument("apps", nargs="+", metavar="APP")
    w.add_argument("--sizes", default="64", help="comma-separated input sizes, e.g. 64,256,1920x1080")
    w.add_argument("--lanes", default="1", help="comma-separated pixels per cycle, e.g. 1,2,4")
    w.add_argument("--glb-tiles", help="comma-separated GLB output tiles WxH (apps whose build() takes glb_tile)")
    w.add_argument("--mem-tile-words", help="comma-separated memory-tile sizes (hl.CGRA(mem_tile_words=...))")
    w.add_argument("--simulator", default="verilator", choices=("verilator", "icarus", "none"))
    w.add_argument("--cluster", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786 (default: "
                   "a local cluster of processes)")
    w.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    w.add_argument("-o", "--output", required=True, help="output directory (sweep.csv, pareto.svg)")
    w.set_defaults(fn=cmd_sweep)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.fn(args)
    except HalideError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
