"""The cocotb side of a run: start it, wait for the test bench's `ms_done` on timers, nothing per cycle.

Loaded inside the simulator by cocotb (COCOTB_TEST_MODULES); the Python parent reads the files the bench
wrote. The clock runs in the bench's HDL and stops at `ms_done`, so this coroutine only wakes every
PROGRESS_CYCLES cycles: it checks `ms_done` and writes the cycles simulated so far to `progress.txt`, which the
parent polls to report progress on long runs. Once the clock has stopped, the simulator jumps straight to the
next wake. The bench enforces its own cycle limit (+ms_timeout); the limit here only guards against a bench
that never raises ms_done at all (a harness bug), so that no run can hang forever.
"""

import os

import cocotb
from cocotb.triggers import Timer
from cocotb.utils import get_sim_time

CLOCK_NS = 10             # the bench's clock period (bench.CLOCK_NS)
PROGRESS_CYCLES = 1 << 16  # ~20 ms on Verilator, ~2 s on Icarus
_GUARD_CYCLES = 10_000     # beyond the bench's own limit: reset, drain and dump take a few cycles


def _report(cycles: int, done: bool) -> None:
    with open("progress.tmp", "w") as fh:  # progress.PROGRESS_FILE, written whole
        fh.write(f"{cycles}{' done' if done else ''}\n")
    os.replace("progress.tmp", "progress.txt")  # the parent never reads half a file


@cocotb.test()
async def run_bench(dut):
    limit = int(cocotb.plusargs.get("ms_timeout", 1_000_000)) + int(cocotb.plusargs.get("ms_drain", 0))
    limit += _GUARD_CYCLES
    waited = 0
    while dut.ms_done.value != 1 and waited < limit:
        await Timer(CLOCK_NS * PROGRESS_CYCLES, unit="ns")
        waited += PROGRESS_CYCLES
        # once done, the clock has stopped: the time since is not cycles run, and the parent prints no more
        _report(int(get_sim_time("ns")) // CLOCK_NS, dut.ms_done.value == 1)
    assert dut.ms_done.value == 1, f"the test bench never raised ms_done within {limit} cycles (a harness bug)"
