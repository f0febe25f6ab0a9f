"""memories: polyhedral analysis, static schedule, buffer capacity, physical mapping and checker.

Input: a `hwlower.ir.LoopNest`. Output: a `MemoryPlan` of plain frozen dataclasses (`memories.ir`) and its
JSON (`memories.memory_json`). Steps, one module each: polyhedral (domains, access maps, value flows) ->
schedule (rates and delays) -> capacity (exact live values) -> mapping (wires, registers, memory tiles,
port controllers) -> checker (isl proof of the result).
"""

from .analyze import STEP_NAMES, analyze
from .checker import check_plan
from .errors import MemoryCheckError, MemoryMappingError
from .ir import (
    Bank,
    BankPort,
    BufferPlan,
    Controller,
    CoordGen,
    Dim,
    InternalRead,
    MemoryPlan,
    OpSchedule,
    ReadPort,
    Register,
    WritePort,
)
from .memory_json import dumps, from_json, to_json

__all__ = [
    "analyze", "STEP_NAMES", "check_plan", "to_json", "from_json", "dumps",
    "MemoryCheckError", "MemoryMappingError",
    "Bank", "BankPort", "BufferPlan", "Controller", "CoordGen", "Dim", "InternalRead", "MemoryPlan", "OpSchedule",
    "ReadPort", "Register", "WritePort",
]
