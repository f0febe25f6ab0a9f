"""The one rule that turns a user's name (a Func's, a Param's, an image's, `input.extent.0`) into a Verilog
identifier: every stage that names a port or signal after a user's name (hwlower's load and coordinate ports,
compute_json's configuration ports, verilog's signals) uses it, so the names they make for one thing agree."""

from __future__ import annotations

import re


def verilog_identifier(name: str) -> str:
    """`name` with each character Verilog rejects made '_', runs of '_' made one and none at either end, and `n_`
    before it unless it starts with a letter (`in.put` -> `in_put`, `3gain` -> `n_3gain`)."""
    s = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", name)).strip("_")
    return s if s[:1].isalpha() else f"n_{s}"
