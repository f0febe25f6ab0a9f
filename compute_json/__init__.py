"""compute_json: compile a kernel's expressions into a dataflow graph of PE ops and write it as CoreIR JSON.

Pipeline (`compile_kernel`): `lower_kernel` (IR -> PE ops), then the passes of `pipeline.PASSES`; the graph's
semantics are at the top of `graph.py`. `to_coreir_json`/`write_coreir_json` emit it; `count_ops` reports its
size in 16-bit PE operations; `evaluate_graph`/`evaluate_kernel` run a graph or a kernel on NumPy arrays.
"""

from .coreir_json import dumps_coreir_json, to_coreir_json, write_coreir_json
from .coreir_tools import load_with_coreir, render_with_coreir
from .divide_by_constants import divide_by_constants
from .eliminate_common_subexpressions import eliminate_common_subexpressions
from .evaluate import evaluate_graph, evaluate_kernel
from .fold_constants import fold_constants
from .graph import OPS, format_graph, verify
from .kernel import Kernel, PortRef, address_kernel, kernel_from_op, read_port
from .lower import lower_kernel
from .lower_dividers import lower_dividers
from .narrow_32_bit_ops import narrow_32_bit_ops
from .pipeline import PASSES, STEP_NAMES, compile_kernel
from .report import OpCount, count_ops
from .shifts_for_powers_of_two import shifts_for_powers_of_two


def kernel_json(kernel: Kernel) -> str:
    """The CoreIR JSON text of a kernel (compile, then emit)."""
    return dumps_coreir_json(to_coreir_json(compile_kernel(kernel)))


__all__ = [
    "Kernel", "PortRef", "address_kernel", "kernel_from_op", "read_port",
    "compile_kernel", "PASSES", "STEP_NAMES", "lower_kernel", "fold_constants", "eliminate_common_subexpressions",
    "shifts_for_powers_of_two", "divide_by_constants", "lower_dividers",
    "narrow_32_bit_ops",
    "OPS", "format_graph", "verify", "evaluate_graph", "evaluate_kernel", "OpCount", "count_ops",
    "to_coreir_json", "dumps_coreir_json", "write_coreir_json", "kernel_json", "load_with_coreir",
    "render_with_coreir",
]
