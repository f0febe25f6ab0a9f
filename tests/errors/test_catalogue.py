"""The error catalogue (tests/errors/catalogue.py): each mistake fails with its pinned message, the message names
the Func and the user's line (or the case records the gap), and the fix the message suggests compiles."""

from __future__ import annotations

import re
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

import mainspring as hl

from catalogue import ROOT, SIM_BUILD, STAGES, CommandFailed, cases, locations, normalise

CASES = cases()
IDS = [c.id for c in CASES]


def _failure(c):
    with pytest.raises((hl.HalideError, CommandFailed)) as err:
        c.mistake()
    return err.value


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


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_gaps_are_on_record(c):
    """What a message lacks is listed in `gaps` (a finding), and nothing else: a message improved later is
    noticed here, so its case stops reporting a gap."""
    missing = set()
    if c.func is not None and c.func not in c.message:
        missing.add("func")
    if c.stage != "command line" and not any(key in c.message for key in locations(c)):
        missing.add("location")
    declared = set(c.gaps) - {"fix"}  # a fix that does not work is judged by hand: the note says why
    assert missing == declared, f"the message lacks {sorted(missing)}, the case declares {sorted(c.gaps)}"
    assert c.fix is not None or "fix" in c.gaps
    if c.gaps:
        assert c.note, "a gap is a finding: say what the message should add"


@pytest.mark.parametrize("c", [c for c in CASES if c.fix is not None], ids=[c.id for c in CASES if c.fix])
def test_fix_works(c):
    if c.simulate:
        from mainspring.sim import require_simulator

        require_simulator("icarus")
    result = c.fix()
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


def test_the_doc_script_runs():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "errors_doc.py"), "--check"], cwd=ROOT, check=False,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
