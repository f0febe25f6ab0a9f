"""The error catalogue (tests/errors/catalogue.py): each mistake fails with its pinned message, the message names
the Func and the user's line (or the case records the gap), and the fix the message suggests compiles."""

from __future__ import annotations

import re
import subprocess
import sys
import traceback
from pathlib import Path

import numpy as np
import pytest

import mainspring as hl

from catalogue import ROOT, SIM_BUILD, STAGES, CommandFailed, cases, locations, normalise

CASES = cases()
IDS = [c.id for c in CASES]


def _failure(c):
    with pytest.raises(CommandFailed if c.stage == "command line" else c.error) as err:
        c.mistake()
    return err.value


# A Func's name where a message names that Func: quoted, after "Func ", in code (acc.update(0), acc[...],
# repeat_edge(acc), "of acc:"), or Halide's "for acc in x"; not inside a longer word ("accelerator's" holds "acc"),
# nor the same word in prose (a Func "a" and the article in "a RAM (a memory tile ...)").
def _names(func: str, message: str) -> bool:
    for m in re.finditer(r"(?<![\w$.])" + re.escape(func) + r"(?![\w$])", message):
        before, after = message[:m.start()], message[m.end():]
        if (before[-1:] in ("'", '"') or before.endswith("Func ") or re.match(r"['\"\[(),:;]|\.\w", after)
                or (before.endswith("for ") and after.startswith(" in "))):
            return True
    return False


def _raise_site(exc: BaseException) -> str:
    """The repository file of the frame that raised, e.g. hwlower/region.py."""
    path = traceback.extract_tb(exc.__traceback__)[-1].filename
    return Path(path).resolve().relative_to(ROOT).as_posix()


def test_the_catalogue_is_large_and_named_uniquely():
    assert len(CASES) >= 80, len(CASES)
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_message(c):
    exc = _failure(c)
    got = normalise(str(exc), c)
    if c.regex:
        assert re.fullmatch(c.message, got), f"{got!r}\ndoes not match\n{c.message!r}"
    else:
        assert got == c.message
    if c.stage != "command line":
        assert _raise_site(exc).startswith(STAGES[c.stage]), _raise_site(exc)


def test_a_name_is_matched_as_a_name():
    assert _names("acc", "Func 'acc': ...") and _names("acc", 'In update definition of Func "acc":')
    assert _names("mid", "In schedule for mid, could not find") and _names("mid", "add mid.compute_root()")
    assert _names("output", "Bounds given for output in x") and _names("hw_input", "repeat_edge(hw_input) needs")
    assert not _names("acc", "the accelerator's loops are fixed") and not _names("acc", "r.acc.x")
    assert not _names("a", "a Func is computed where a use of it is") and not _names("a", "a RAM (a memory tile)")
    assert not _names("hw_output", "hw_output_copy")


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_gaps_are_on_record(c):
    """What a message lacks is listed in `gaps` (a finding), and nothing else: a message improved later is
    noticed here, so its case stops reporting a gap."""
    missing = set()
    if c.func is not None and not _names(c.func, c.message):
        missing.add("func")
    named = re.findall(r"Func ['\"]([\w$]+)['\"]", c.message)
    assert c.func is not None or not named, f"the message names Func {named[0]!r}: give the case func={named[0]!r}"
    if c.stage != "command line" and not any(key in c.message for key in locations(c)):
        missing.add("location")
    declared = set(c.gaps) - {"fix"}  # a fix that does not work is judged by hand: the note says why
    assert missing == declared, f"the message lacks {sorted(missing)}, the case declares {sorted(c.gaps)}"
    assert c.fix is not None or "fix" in c.gaps
    if c.gaps:
        assert c.note, "a gap is a finding: say what the message should add"


# What a fix returns where its mistake was refused in compile, in a run or by a command: the design, the run's
# result, or the command's output.
_COMPILED = (hl.Design, hl.SimulationResult)
_REACHED = {"hardware": _COMPILED, "memories": _COMPILED, "autoschedule": _COMPILED,
            "simulation": (*_COMPILED, np.ndarray), "command line": (str,)}  # a command's output


@pytest.mark.parametrize("c", [c for c in CASES if c.fix is not None], ids=[c.id for c in CASES if c.fix])
def test_fix_works(c):
    if c.simulate:
        from mainspring.sim import require_simulator

        require_simulator("icarus")
    result = c.fix()
    if c.stage in _REACHED:  # the fix runs past where the mistake stopped, not only up to it
        assert isinstance(result, _REACHED[c.stage]), type(result)
    if c.simulate and isinstance(result, hl.Design):
        result = result.check(result.example_inputs(), simulator="icarus", build_dir=SIM_BUILD)
    if c.simulate:
        assert isinstance(result, hl.SimulationResult), type(result)


def test_docs_are_up_to_date():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import errors_doc
    finally:
        sys.path.pop(0)
    want = errors_doc.render(CASES)
    have = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    assert have == want, "docs/errors.md is stale: run .venv/bin/python scripts/errors_doc.py"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert errors_doc.readme(readme, CASES) == readme, "README.md's refusals are stale: run scripts/errors_doc.py"


def test_every_gap_names_a_case_and_a_reason():
    from halide_accepts import GAPS

    assert set(GAPS) <= set(IDS), sorted(set(GAPS) - set(IDS))
    assert all(reason and "\n" not in reason for reason in GAPS.values())


def test_the_doc_script_runs():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "errors_doc.py"), "--check"], cwd=ROOT, check=False,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
