"""scripts/mullapudi.py, which writes BENCHMARKS.md's side-by-side table of Halide's Mullapudi2016 CPU schedule and
mainspring's automatic hardware schedule (issue 11): the same app source builds both pipelines, and both
schedulers group gaussian's blur at the output's tile loop."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_gaussian_row_names_both_schedules(halide, capsys):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import mullapudi
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    (ours, _), (theirs, _) = mullapudi.schedules("gaussian")
    assert mullapudi.mainspring_groups(ours) == (["blur_unnormalized"], "1920x1080")
    at, root, tile = mullapudi.halide_groups(theirs)
    at, root = ([re.sub(r"_\d+$", "", f) for f in fs] for fs in (at, root))  # Halide renames a name other tests took
    assert at == ["blur_unnormalized"] and root == ["kernel"] and tile == "64x1"
