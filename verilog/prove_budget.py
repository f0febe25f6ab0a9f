"""The kernel prover's clock: budgets in work done, not in seconds of the wall, so a verdict does not depend on load.

A kernel gets TIME_LIMIT budget seconds (`prove.py`). A budget second buys UNITS_PER_SECOND of z3's resource
count (its `rlimit`: steps of the solver, counted the same on a busy machine as on an idle one) or
POINTS_PER_SECOND inputs evaluated by the enumeration (`prove_enumerate`). `now()` is the work done so far in
this process, read in budget seconds: z3's count is one per process (every solver adds to it), so each check's
limit is what the kernel has left, and what it spent moves the clock on. Work in Python (rewriting terms,
cutting shared subterms) is bounded by the terms' size and not counted; Yosys's run has a wall-clock limit only as
a guard against a hang (YOSYS_LIMIT, far above its few seconds).

Calibrated on the development machine (2 cores, loaded by other workers): z3 counts 2.0-2.6 million units a CPU
second, so a budget second is about a CPU second of z3, and the 30 s limit gives z3 what it had on an idle
machine before; the enumeration evaluates about a million points a CPU second.

Why: with wall-clock limits a kernel near the limit was proved on an idle machine and left unproved on a busy one
(probe17b's `k_hw_output_s0`: proved in 28.6 s, unproved at 30.0 s in the next run), and a compile's report, and
which tests ran long, changed with the load.
"""

from __future__ import annotations

import z3

UNITS_PER_SECOND = 2_500_000  # z3 resource units a budget second buys
POINTS_PER_SECOND = 1_000_000  # inputs the enumeration evaluates in a budget second
YOSYS_LIMIT = 300.0  # wall-clock seconds for one Yosys run: a guard against a hang, not a budget

# z3's resource count as last read (one count per process) and the inputs evaluated so far
_DONE = {"units": 0, "points": 0}


def now() -> float:
    """Work done so far, in budget seconds."""
    return _DONE["units"] / UNITS_PER_SECOND + _DONE["points"] / POINTS_PER_SECOND


def units(seconds: float) -> int:
    """The z3 resource limit for a check of `seconds` budget seconds (at least one unit)."""
    return max(1, int(seconds * UNITS_PER_SECOND))


def spent(solver: z3.Solver) -> None:
    """Move the clock to z3's count after a check of `solver`."""
    stats = solver.statistics()
    count = [stats.get_key_value(k) for k in stats.keys() if k == "rlimit count"]  # noqa: SIM118 (not a dict)
    if count:
        _DONE["units"] = max(_DONE["units"], int(count[0]))


def evaluated(points: int) -> None:
    """Move the clock on by `points` inputs evaluated."""
    _DONE["points"] += points
