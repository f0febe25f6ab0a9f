"""The cocotb side of a run: drive the clock, wait for the test bench's `ms_done`, nothing per cycle.

Loaded inside the simulator by cocotb (COCOTB_TEST_MODULES); the Python parent reads the files the bench
wrote. The bench enforces its own cycle limit (+ms_timeout); the timer here only guards against a bench
that never raises ms_done at all (a harness bug), so that no run can hang forever.
"""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import First, RisingEdge, Timer

CLOCK_NS = 10
_GUARD_CYCLES = 10_000  # beyond the bench's own limit: reset, drain and dump take a few cycles


@cocotb.test()
async def run_bench(dut):
    limit = int(cocotb.plusargs.get("ms_timeout", 1_000_000)) + int(cocotb.plusargs.get("ms_drain", 0))
    # impl="gpi": the clock toggles in C++, ~5x faster than a Python coroutine (TOOLCHAIN.md).
    Clock(dut.clk, CLOCK_NS, unit="ns", impl="gpi").start(start_high=False)
    await First(RisingEdge(dut.ms_done), Timer(CLOCK_NS * (limit + _GUARD_CYCLES), unit="ns"))
    assert dut.ms_done.value == 1, (
        f"the test bench never raised ms_done within {limit + _GUARD_CYCLES} cycles (a harness bug)"
    )
