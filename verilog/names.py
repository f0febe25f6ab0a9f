"""How the top names and finds the parts of a design: Verilog identifiers for the memory JSON's elements, each
op's kernel modules (its value, and the address of a RAM update or lookup) and their ports, and lanes' slots."""

from __future__ import annotations

from mainspring.compute_json.kernel import Kernel, address_kernel, kernel_from_op
from mainspring.frontend.identifiers import verilog_identifier
from mainspring.hwlower.ir import LoopNest, Op
from mainspring.memories.ir import OpSchedule

from .kernel import PIPELINE_PORTS, kernel_stages


def signal(name: str) -> str:
    """A Verilog identifier for an element name of the memory JSON (e.g. hw_input.w0.reg1)."""
    return verilog_identifier(name)


def kernel_ports(compute: dict) -> dict[str, dict[str, tuple[str, int]]]:
    """kernel module -> port -> (direction, width) from the CoreIR module types, and a pipelined kernel's clock,
    reset and enable (`PIPELINE_PORTS`: the top's own signals of those names)."""
    out: dict[str, dict[str, tuple[str, int]]] = {}
    for mname, mod in compute["namespaces"]["global"]["modules"].items():
        ports = {p: ("input", 1) for p in PIPELINE_PORTS if kernel_stages(compute, mname) > 1}
        for pname, ptype in mod["type"][1]:
            if isinstance(ptype, list) and ptype[0] == "Array":
                width, bit = ptype[1], ptype[2]
            else:
                width, bit = 1, ptype
            ports[pname] = ("input" if bit == "BitIn" else "output", width)
        out[mname] = ports
    return out


def lane_count(op: OpSchedule) -> int:
    """The lanes of an op: the iterations of its unrolled loops."""
    n = 1
    for d in op.lanes:
        n *= d.extent
    return n


def lane_index(op: OpSchedule, lane: tuple[int, ...]) -> int:
    """The position of `lane` among the op's lanes (its unrolled loops in order, the last fastest): the word's
    slot in a stream transfer, lane 0 in the low bits."""
    k = 0
    for d, v in zip(op.lanes, lane):
        k = k * d.extent + (v - d.min)
    return k


def kernel_module(op_name: str) -> str:
    return signal(f"k_{op_name}").replace("__", "_")


def address_module(op_name: str) -> str:
    """The kernel computing the address a RAM update (`hwlower.ir.Op.scatter`) reads and writes, or the one a
    RAM read at computed coordinates (`Op.lookup`) reads."""
    return f"{kernel_module(op_name)}_at"


def op_kernels(op: Op, nest: LoopNest) -> list[Kernel]:
    """The compute kernels of an op, named as the top instantiates them: its value, and for a RAM update
    (`Op.scatter`) the address it reads and writes, for a RAM read at computed coordinates (`Op.lookup`) the
    address it reads."""
    kernels = [kernel_from_op(op, name=kernel_module(op.name))]
    if op.scatter:
        kernels.append(address_kernel(op, nest.buffer(op.store.buffer).box, name=address_module(op.name)))
    elif op.lookup:
        (ram,) = [p.access.buffer for p in op.loads if not p.access.index]
        kernels.append(address_kernel(op, nest.buffer(ram).box, name=address_module(op.name)))
    return kernels


def lane_suffix(op: OpSchedule, lane: tuple[int, ...]) -> str:
    """The suffix of a lane's signals and instances ("" for an op of one lane)."""
    return f"_l{lane_index(op, lane)}" if op.lanes else ""
