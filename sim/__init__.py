"""Simulation harness: stream frames through a generated design on Verilator or Icarus, bit-exactly.

    from mainspring.sim import OutputSpec, StreamSpec, run
    result = run(["add.v"], "add2",
                 inputs={"a": StreamSpec(a, width=16), "b": StreamSpec(b, width=16)},
                 output=OutputSpec("out", width=16, count=len(a)),
                 simulator="icarus", bubbles=0.3, backpressure=0.3, seed=7)
    result.words, result.cycles

The design's top-level ports follow the stream contract in README.md (next to this file). A generated
Verilog test bench streams the words from memories loaded once, with random bubbles and back-pressure drawn
in HDL; Python only starts the simulator (through cocotb's runner) and reads the files it writes.
"""

from .errors import BuildError, SimulationError, SimulationTimeout, SimulatorUnavailable, StreamProtocolError
from .runner import DRAIN_CYCLES, Bench, build, run
from .spec import OutputSpec, SimResult, StreamSpec
from .toolchain import SIMULATORS, in_ci, require_simulator, require_tool, simulator_problem

__all__ = [
    "run", "build", "Bench", "DRAIN_CYCLES",
    "StreamSpec", "OutputSpec", "SimResult",
    "SimulationError", "SimulationTimeout", "StreamProtocolError", "BuildError", "SimulatorUnavailable",
    "SIMULATORS", "require_simulator", "require_tool", "simulator_problem", "in_ci",
]
