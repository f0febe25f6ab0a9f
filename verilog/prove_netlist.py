"""A kernel module's meaning as z3 bit-vector terms, read from its Verilog by Yosys (not by our own parser).

Yosys elaborates the module (`proc; flatten; memory`: a ROM's `initial` table becomes a mux tree of
constants; no `opt`, whose rewrites, such as a multiply by 24 into a multiply by 3 and a shift, leave terms
that no longer meet the reference's and cost z3 its time limit) and writes it as SMT-LIB 2 (`write_smt2`):
one uninterpreted sort for the module's state, input ports as functions of the state, every other signal a
`define-fun` over them. We parse that text with z3 and read back, for each port, the term `|K_n port|` of one
free state: the inputs are then (concatenations of) free variables and each output a term over them. The
kernels are combinational; a register or a writable memory in the module would make the comparison
meaningless, so it is refused.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import z3

_PORT = re.compile(r"^; yosys-smt2-(input|output) (\S+) (\d+)$", re.MULTILINE)
_STATE = re.compile(r"^; yosys-smt2-(register|memory|anyinit|clock) ", re.MULTILINE)


class NetlistError(Exception):
    """Yosys could not read the module, or it is not a combinational kernel (the reason says which)."""


@dataclass(frozen=True, slots=True)
class Netlist:
    """Port name -> z3 bit-vector term of one module, inputs and outputs in the order Yosys lists them."""

    inputs: dict[str, z3.BitVecRef]
    outputs: dict[str, z3.BitVecRef]


def module_text(verilog: str, module: str) -> str:
    """The text of `module` in a file of several modules (a design's Verilog)."""
    match = re.search(rf"^module {re.escape(module)} \(.*?^endmodule\b", verilog, re.MULTILINE | re.DOTALL)
    if match is None:
        raise NetlistError(f"no module {module} in the design's Verilog")
    return match.group(0) + "\n"


def run_yosys(files: dict[str, str], script: str, result: str, timeout: float, what: str) -> str:
    """Run Yosys's `script` over `files` (name -> Verilog text) in a scratch folder; the text of `result`, a file
    the script writes. `what` names the job in errors."""
    yosys = shutil.which("yosys")
    if yosys is None:
        raise NetlistError("yosys is not on PATH (apt-get install yosys)")
    with tempfile.TemporaryDirectory(prefix="ms-prove-") as tmp:
        for name, text in files.items():
            Path(tmp, name).write_text(text, encoding="utf-8")
        try:
            run = subprocess.run([yosys, "-q", "-p", script], cwd=tmp, capture_output=True, text=True,
                                 timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise NetlistError(f"yosys took longer than {timeout:.0f} s ({what})") from None
        if run.returncode:
            raise NetlistError(f"yosys failed on {what}: {(run.stderr or run.stdout).strip()[-500:]}")
        return Path(tmp, result).read_text(encoding="utf-8")


def yosys_smt2(text: str, module: str, timeout: float) -> str:
    """Yosys's SMT-LIB 2 description of `module` (Verilog `text`)."""
    script = (f"read_verilog {module}.v; hierarchy -check -top {module}; proc; flatten; memory; opt_clean; "
              f"write_smt2 {module}.smt2")
    return run_yosys({f"{module}.v": text}, script, f"{module}.smt2", timeout, module)


def read_netlist(text: str, module: str, timeout: float = 30.0) -> Netlist:
    """The port terms of `module` (its Verilog `text`, combinational) as Yosys elaborates it."""
    smt2 = yosys_smt2(text, module, timeout)
    state = _STATE.search(smt2)
    if state is not None:
        raise NetlistError(f"module {module} has state (a yosys-smt2-{state.group(1)}): only combinational "
                           "kernels are compared with their expression")
    ports = [(m.group(1), m.group(2)) for m in _PORT.finditer(smt2)]
    # Asking z3 to parse `(= t t)` for each port term t hands back the terms with every define-fun expanded.
    query = [smt2, f"(declare-fun ms_prove_state () |{module}_s|)"]
    query += [f"(assert (= (|{module}_n {p}| ms_prove_state) (|{module}_n {p}| ms_prove_state)))" for _, p in ports]
    terms = [_as_bitvector(a.arg(0)) for a in z3.parse_smt2_string("\n".join(query))]
    inputs = {p: t for (d, p), t in zip(ports, terms) if d == "input"}
    outputs = {p: t for (d, p), t in zip(ports, terms) if d == "output"}
    return Netlist(inputs, outputs)


def _as_bitvector(term: z3.ExprRef) -> z3.BitVecRef:
    """Yosys writes 1-bit signals as Bool; the reference has them as 1-bit vectors."""
    if z3.is_bool(term):
        return z3.If(term, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
    return term
