"""Which cases of a breadth family run on Verilator as well as on Icarus.

The breadth families (hand probes, automatic-schedule probes, sweeps over variants of one algorithm) run hundreds of
schedules that produce the same few kinds of hardware: every case runs on Icarus, the stricter of the two (four
states: a word read before it is written shows as x and fails the comparison), and one case in `SHARE`, chosen by a
hash of its name so that the choice is stable and spread over the family, runs on Verilator too. The newer families
name their Verilator cases by hand (hand_probes.HandProbe's `verilator`). Feature tests, the apps, the fuzz seeds
and the independent ports run every design on both simulators.

`MAINSPRING_EVERY_SIMULATOR=1` runs every case of these families on Verilator too (about 300 more builds, some
5 minutes on two cores): before a release, or after a change to the Verilog a feature test does not reach."""

from __future__ import annotations

import os
import zlib

SHARE = 4


def on_verilator(case: str) -> bool:
    """Whether breadth case `case` (its test id without the simulator) also runs on Verilator."""
    if os.environ.get("MAINSPRING_EVERY_SIMULATOR") == "1":
        return True
    return zlib.crc32(case.encode()) % SHARE == 0
