"""The compute_json driver: a kernel to an optimised graph of PE ops, step by named step."""

from __future__ import annotations

import sys
from typing import TextIO

import networkx as nx

from mainspring.frontend.errors import HalideError

from .assign_stages import assign_stages
from .balance_chains import balance_chains
from .divide_by_constants import divide_by_constants
from .eliminate_common_subexpressions import eliminate_common_subexpressions
from .fold_constants import fold_constants
from .graph import format_graph, verify
from .kernel import Kernel
from .lower import lower_kernel
from .lower_dividers import lower_dividers
from .narrow_32_bit_ops import narrow_32_bit_ops
from .shifts_for_powers_of_two import shifts_for_powers_of_two

# (name, pass) after `lower_kernel`, in order. The strength reductions run after folding so a divisor
# that only folding makes constant still becomes a shift or a multiply; the next two clean up the constants
# and sign masks the rewrites create; 32-bit ops whose values fit 16 bits are narrowed once the dividers are
# lowered, before that clean-up (which folds the extensions the narrowing leaves); chains are balanced last,
# on the graph that will be built.
PASSES = (
    ("fold_constants", fold_constants),
    ("eliminate_common_subexpressions", eliminate_common_subexpressions),
    ("shifts_for_powers_of_two", shifts_for_powers_of_two),
    ("divide_by_constants", divide_by_constants),
    ("lower_dividers", lower_dividers),
    ("narrow_32_bit_ops", narrow_32_bit_ops),
    ("fold_constants", fold_constants),
    ("eliminate_common_subexpressions", eliminate_common_subexpressions),
    ("balance_chains", balance_chains),
)
# Last, for a target: the pipeline stages of `hl.CGRA(pe_ops_per_stage=K)` (assign_stages.py).
STEP_NAMES = ("lower_kernel",) + tuple(name for name, _ in PASSES) + ("assign_stages",)


def compile_kernel(kernel: Kernel, dump_after: str | None = None, out: TextIO | None = None,
                   ops_per_stage: int | None = None, pe_bits: int = 16,
                   late: frozenset[str] = frozenset()) -> nx.MultiDiGraph:
    """The optimised compute graph of `kernel`; `dump_after` names a step whose result is printed to `out`
    (stderr by default) each time it runs. The graph is verified after every step. With `ops_per_stage` (K),
    its nodes are levelised into pipeline stages of at most K PE ops of `pe_bits` bits on any path; the input
    ports in `late` (an accumulation's own element) are read in the last stage (assign_stages)."""
    if dump_after is not None and dump_after not in STEP_NAMES:
        raise HalideError(f"dump_after={dump_after!r}: unknown compute_json step; the steps are "
                          f"{', '.join(STEP_NAMES)}")
    g = lower_kernel(kernel)
    if late:
        g.graph["late"] = tuple(sorted(late))
    _after("lower_kernel", g, dump_after, out)
    for name, run in PASSES:
        g = narrow_32_bit_ops(g, pe_bits) if run is narrow_32_bit_ops else run(g)
        _after(name, g, dump_after, out)
    verify(g, lowered=True)
    assert tuple(sorted(late)) == g.graph.get("late", ()), "the passes keep the graph's late ports"
    if ops_per_stage is not None:
        g = assign_stages(g, ops_per_stage, pe_bits)
        _after("assign_stages", g, dump_after, out)
    return g


def _after(name: str, g: nx.MultiDiGraph, dump_after: str | None, out: TextIO | None) -> None:
    verify(g)
    if name == dump_after:
        print(f"// after {name}\n{format_graph(g)}", file=out or sys.stderr)
