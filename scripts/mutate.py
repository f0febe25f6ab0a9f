"""Mutation testing: apply sampled one-line mutants to the compiler's stages and check that the tests catch each.

    .venv/bin/python scripts/mutate.py [--mutants N] [--seed S] [--folders hwlower memories verilog]
                                       [--tests "pytest arguments"] [--timeout SECONDS] [--list] [--no-baseline]

A mutant changes one operator, comparison or off-by-one constant on one line of code (never a comment or a
docstring). Each is applied alone, the tests run, and the file is restored. A mutant is killed when the tests
fail or time out; a survivor is printed with its diff, to be killed by a new test or explained. The share killed
is what BENCHMARKS.md reports, with the first failing test of each kill. `--list` prints the sampled mutants
without running anything (to apply one by hand); the sample depends on the seed and on the candidates, so line
numbers move as the code changes.

The tests first run once unmutated (they must pass: a failing baseline would count every mutant killed). Proof
verdicts are cached by kernel text (verilog/prove_cache.py), not by the prover's code, so no run shares the
cache the next one reads: each mutant gets a copy of the baseline's verdicts (a mutant that changes a kernel
changes its key, so it is proved afresh), a mutant of the prover itself (verilog/prove*.py) an empty cache.
Run it on a clone of the repository, never where someone is editing: it rewrites the stages' files.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROVER = re.compile(r"^verilog/prove\w*\.py:")  # the modules whose verdicts the proof cache remembers
DEFAULT_TESTS = ("-m 'not slow' -x -q -p no:cacheprovider -n 2 tests/hwlower tests/memories "
                 "tests/flow/test_flow_apps.py tests/flow/test_flow_correctness.py tests/flow/test_flow_h2h.py")

# (pattern, replacement): each applies to one occurrence on a line.
MUTATIONS = (
    (r" \+ 1\b", " + 2"), (r" - 1\b", " - 2"), (r" \+ 1\b", ""), (r" - 1\b", ""),
    (r" <= ", " < "), (r" < ", " <= "), (r" >= ", " > "), (r" > ", " >= "),
    (r" == ", " != "), (r" != ", " == "), (r" and ", " or "), (r" or ", " and "),
    (r"\bmax\(", "min("), (r"\bmin\(", "max("), (r" \+ ", " - "), (r" \* ", " + "), (r" // ", " / "),
)


def code_lines(path: Path) -> list[int]:
    """Line numbers outside docstrings and comments."""
    out, in_doc = [], False
    for k, line in enumerate(path.read_text().splitlines()):
        s = line.strip()
        quotes = s.count('"""')
        if in_doc:
            in_doc = quotes % 2 == 0
            continue
        if quotes % 2 == 1:
            in_doc = True
            continue
        if quotes or not s or s.startswith(("#", "import ", "from ")):
            continue
        out.append(k)
    return out


def candidates(folders: list[str]) -> list[tuple[Path, int, int, str]]:
    """(file, line, occurrence start, mutated line) for every applicable mutation."""
    out = []
    for folder in folders:
        for path in sorted((ROOT / folder).glob("*.py")):
            lines = path.read_text().splitlines()
            for k in code_lines(path):
                code = lines[k].split("#")[0]
                for pattern, repl in MUTATIONS:
                    for m in re.finditer(pattern, code):
                        if code.count('"', 0, m.start()) % 2 or code.count("'", 0, m.start()) % 2:
                            continue  # inside a string
                        mutated = lines[k][:m.start()] + re.sub(pattern, repl, lines[k][m.start():], count=1)
                        out.append((path, k, m.start(), mutated))
    return out


def run_tests(tests: str, timeout: float, cache: Path) -> tuple[str, str]:
    """The verdict ("survived", "killed", "killed (timeout)") and the first failing test, proofs cached in
    `cache`."""
    cmd = f"{sys.executable} -m pytest {tests}"
    env = dict(os.environ, MAINSPRING_PROVE_CACHE=str(cache))
    try:
        p = subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False,
                           env=env)
    except subprocess.TimeoutExpired:
        return "killed (timeout)", ""
    if p.returncode == 0:
        return "survived", ""
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", p.stdout, re.MULTILINE)
    last = (p.stdout + p.stderr).strip().splitlines() or [""]
    return "killed", failed.group(1) if failed else last[-1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mutants", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--folders", nargs="+", default=["hwlower", "memories", "verilog"])
    ap.add_argument("--tests", default=DEFAULT_TESTS)
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--list", action="store_true", help="print the sampled mutants and exit")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated run (proofs then start empty)")
    args = ap.parse_args(argv)
    pool = candidates(args.folders)
    chosen = random.Random(args.seed).sample(pool, min(args.mutants, len(pool)))
    if args.list:
        for path, k, _, mutated in chosen:
            before = path.read_text().splitlines()[k]
            print(f"{path.relative_to(ROOT)}:{k + 1}\n    - {before.strip()}\n    + {mutated.strip()}")
        print(f"{len(chosen)} mutants (from {len(pool)} candidates, seed {args.seed})")
        return 0
    work = Path(tempfile.mkdtemp(prefix="mutate-"))
    baseline = work / "baseline"
    try:
        if not args.no_baseline:
            start = time.time()
            verdict, failed = run_tests(args.tests, args.timeout, baseline)
            print(f"baseline (unmutated) {time.time() - start:6.0f} s: {'passed' if verdict == 'survived' else verdict}"
                  f"{' at ' + failed if failed else ''}", flush=True)
            if verdict != "survived":
                print("the tests fail without a mutant: fix them (or choose --tests) first")
                return 1
        killed = 0
        for path, k, _, mutated in chosen:
            original = path.read_text()
            lines = original.splitlines(keepends=True)
            before = lines[k]
            lines[k] = mutated + ("\n" if before.endswith("\n") else "")
            where = f"{path.relative_to(ROOT)}:{k + 1}"
            cache = work / "mutant"
            shutil.rmtree(cache, ignore_errors=True)
            if baseline.is_dir() and not PROVER.search(where):
                shutil.copytree(baseline, cache)
            start = time.time()
            try:
                path.write_text("".join(lines))
                verdict, failed = run_tests(args.tests, args.timeout, cache)
            finally:
                path.write_text(original)
            killed += verdict.startswith("killed")
            by = f"  by {failed}" if failed else ""
            print(f"{verdict:<17} {time.time() - start:6.0f} s  {where}{by}\n    - {before.strip()}\n"
                  f"    + {mutated.strip()}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{killed} of {len(chosen)} mutants killed (from {len(pool)} candidates, seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
