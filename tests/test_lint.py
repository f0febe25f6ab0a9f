"""The tree is clean under the ruff rules selected in pyproject's [tool.ruff.lint] (line length 120)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    # The venv's ruff (the test extra pins it: a newer ruff may select or change rules). `.` from the root
    # covers the stage folders themselves; ruff does not follow the mainspring/<stage> links into them again.
    p = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                       cwd=ROOT, capture_output=True, text=True, check=False)
    assert p.returncode == 0, f"ruff found problems (`ruff check --fix` fixes the safe ones):\n{p.stdout}{p.stderr}"
