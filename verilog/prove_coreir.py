"""Prove CoreIR's own Verilog of each compute JSON module equal to our kernel module, for every input.

The compute JSON is the contract of the compute stage: our Verilog (`kernel`) renders it, and so can CoreIR
(`coreir -l commonlib`, the pinned `coreir` PyPI package). This module checks that both renderings mean the
same thing, so the JSON does not mean one thing to us and another to the reference flow.

Each kernel module is rendered as its own top: a JSON document holding that module alone, written with the
compute JSON's own printer, which CoreIR renders with the `coreir` helper modules it instantiates. (The design's
JSON keeps the last kernel as its top, so the files `compile` writes do not change; one module per document
also keeps a kernel CoreIR cannot load, such as one with our `mainspring.rom`, from hiding the others.)
Yosys builds a miter of the two (`miter -equiv -flatten -make_outputs`: CoreIR's module, with its helper
modules, renamed `<module>__coreir`; ours, cut from the design's Verilog, `<module>__ours`) and optimises it
(`opt`: constants folded and equal cells merged, which leaves nothing of two equal renderings but a constant
`trigger`); z3 reads the miter back (`prove_netlist.read_netlist`) and looks for inputs that raise `trigger`,
some output differing, bit-blasting whatever is left. None: equal. Some: different, with the inputs and both
outputs. No answer in the time limit: unproved. (The z3 route without `opt`, comparing the two netlists term
for term, took z3 seconds on harris's cim kernel and 30 s without an answer on a 32-bit division by -3: Yosys
folds our shift by a constant wire into a slice where CoreIR's constant is a cell, so the multipliers' operands
differ as terms.) A module with a generator of the `mainspring` namespace (the combinational ROM: CoreIR's
`memory.rom2` is clocked) or one the `coreir` command fails on is not checked, with the reason.

Verdicts are cached (`prove_cache`, kind `coreir`) by a hash of the module's JSON, our module's text and the
CoreIR and Yosys versions, so a cached verdict skips CoreIR, Yosys and z3; unproved verdicts and missing tools
are not remembered.
"""

from __future__ import annotations

import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import z3

from mainspring.compute_json.coreir_json import dumps_coreir_json
from mainspring.compute_json.coreir_tools import coreir_command, render_with_coreir

from .kernel import combinational_view
from .prove import Counterexample
from .prove_budget import YOSYS_LIMIT, spent, units
from .prove_cache import ProofCache, cache_key, default_cache_dir, yosys_version
from .prove_netlist import Netlist, NetlistError, module_text, read_netlist, run_yosys
from .prove_widen import widened

TIME_LIMIT = 30.0  # budget seconds of z3 per module (`prove_budget`); Yosys has a wall-clock hang guard
COREIR_SUFFIX, OURS_SUFFIX = "__coreir", "__ours"  # the two modules, renamed apart for the miter
MITER = "ms_coreir_miter"
# z3 on what is left of the miter: bit-blasted, so operands spelt differently on the two sides meet as bits.
BLAST = ("simplify", "propagate-values", "bit-blast", "aig", "sat")


@dataclass(frozen=True, slots=True)
class CoreIRProof:
    """One kernel module: CoreIR's rendering of its JSON compared with ours. `counterexample.expected` holds our
    module's outputs, `.got` CoreIR's."""

    module: str
    status: str  # "equal", "different", "unproved" or "not checked"
    seconds: float
    reason: str = ""  # different / unproved / not checked: why
    counterexample: Counterexample | None = None
    cached: bool = False
    source: str = ""  # the Func and op the kernel computes (JSON metadata)

    def __str__(self) -> str:
        what = {"equal": "CoreIR's Verilog equal to ours",
                "different": f"CoreIR's Verilog DIFFERENT: {self.counterexample or self.reason}",
                "unproved": f"CoreIR's Verilog unproved ({self.reason})",
                "not checked": f"not checked ({self.reason})"}[self.status]
        return f"{self.module}: {what} in {self.seconds:.2f} s{' (cached)' if self.cached else ''}"


class CannotRender(Exception):
    """CoreIR cannot render the module (the reason says why)."""


def module_document(doc: dict, module: str) -> str:
    """The CoreIR JSON text of `module` of compute JSON `doc` alone, as its top."""
    body = doc["namespaces"]["global"]["modules"][module]
    return dumps_coreir_json({"top": f"global.{module}", "namespaces": {"global": {"modules": {module: body}}}})


def coreir_verilog(doc: dict, module: str) -> str:
    """CoreIR's Verilog of `module` of compute JSON `doc`: the module and the `coreir` modules it instantiates.
    Raises CannotRender when CoreIR lacks a generator the module uses or the `coreir` command fails."""
    body = doc["namespaces"]["global"]["modules"][module]
    ours = sorted({i["genref"] for i in body["instances"].values() if i.get("genref", "").startswith("mainspring.")})
    if ours:
        raise CannotRender(f"CoreIR has no generator {', '.join(ours)} (ours: a combinational ROM; CoreIR's "
                           "memory.rom2 is clocked)")
    if coreir_command() is None:
        raise CannotRender("the coreir command is missing (pip install coreir==2.0.156)")
    with tempfile.TemporaryDirectory(prefix="ms-coreir-") as tmp:
        path = Path(tmp) / f"{module}.json"
        path.write_text(module_document(doc, module), encoding="utf-8")
        try:
            return render_with_coreir(path, Path(tmp) / f"{module}.v").read_text(encoding="utf-8")
        except RuntimeError as e:
            lines = [ln for ln in str(e).splitlines()[1:] if ln.strip() and "DYING" not in ln]
            raise CannotRender(f"coreir failed: {' '.join(lines[:2])[:300]}") from None


def compare_renderings(module: str, coreir_text: str, our_text: str, port_types: dict[str, str] | None = None,
                       timeout: float = TIME_LIMIT) -> CoreIRProof:
    """Compare `module` of `coreir_text` (CoreIR's Verilog, helper modules included) with `module` of
    `our_text` (a design's Verilog or the module alone) for every input. `port_types` (port -> Halide type, as
    the JSON's metadata gives them) shows the counterexample's values signed where the type is."""
    start = time.perf_counter()

    def done(status: str, reason: str = "", cex: Counterexample | None = None) -> CoreIRProof:
        return CoreIRProof(module, status, round(time.perf_counter() - start, 3), reason, cex)

    try:
        # A narrowed kernel as the function it computes when its stage registers lose nothing (which `prove`
        # proves under its input ranges): CoreIR's rendering has no ranges.
        ours = _renamed(widened(combinational_view(module_text(our_text, module))), module, OURS_SUFFIX)
        theirs = _renamed(coreir_text, module, COREIR_SUFFIX)
        if _ports(theirs, module + COREIR_SUFFIX) != _ports(ours, module + OURS_SUFFIX):
            return done("different", f"CoreIR's ports {_ports(theirs, module + COREIR_SUFFIX)} are not ours "
                                     f"{_ports(ours, module + OURS_SUFFIX)}")
        miter = read_netlist(_miter(module, ours, theirs, YOSYS_LIMIT), MITER, timeout=YOSYS_LIMIT)
    except NetlistError as e:
        return done("unproved", str(e))
    # Inputs as bit-vector constants rather than Yosys's functions of a state, so that z3 can bit-blast.
    free = [(t, z3.BitVec(p, t.size())) for p, t in miter.inputs.items()]
    miter = Netlist(dict(zip(miter.inputs, (v for _, v in free))),
                    {p: z3.substitute(t, *free) if free else t for p, t in miter.outputs.items()})
    solver = z3.Then(*BLAST).solver()
    solver.set("rlimit", units(timeout))  # z3's work, not wall time: the verdict does not depend on load
    solver.add(miter.outputs["trigger"] == 1)
    verdict = solver.check()
    spent(solver)
    if verdict == z3.unsat:
        return done("equal")
    if verdict == z3.sat:
        return done("different", "outputs differ", _counterexample(miter, solver.model(), port_types or {}))
    return done("unproved", f"z3 found no answer in the time limit ({solver.reason_unknown()})")


def _renamed(text: str, module: str, suffix: str) -> str:
    renamed, n = re.subn(rf"^module {re.escape(module)}\b", f"module {module}{suffix}", text, flags=re.MULTILINE)
    if n != 1:
        raise NetlistError(f"{n} modules named {module} in {'CoreIR' if suffix == COREIR_SUFFIX else 'our'} Verilog")
    return renamed


_PORT = re.compile(r"^\s*(input|output)\s+(?:wire\s+)?(?:\[(\d+):0\]\s*)?(\w+)", re.MULTILINE)


def _ports(text: str, module: str) -> dict[str, tuple[str, int]]:
    """Port -> (direction, width) of `module` (both printers put one port per line in the header)."""
    header = module_text(text, module).split(");", 1)[0]
    return {m.group(3): (m.group(1), int(m.group(2) or 0) + 1) for m in _PORT.finditer(header)}


def _miter(module: str, ours: str, theirs: str, timeout: float) -> str:
    """Yosys's flattened, optimised miter of our module (gold) and CoreIR's (gate), as Verilog: inputs `in_P`,
    outputs `gold_P`, `gate_P` and `trigger` (some output differs)."""
    script = (f"read_verilog ours.v; read_verilog coreir.v; hierarchy; proc; flatten; memory; opt_clean; "
              f"miter -equiv -flatten -make_outputs {module}{OURS_SUFFIX} {module}{COREIR_SUFFIX} {MITER}; "
              f"hierarchy -top {MITER}; opt; write_verilog -noattr {MITER}.v")
    return run_yosys({"ours.v": ours, "coreir.v": theirs}, script, f"{MITER}.v", timeout, f"the miter of {module}")


def _counterexample(miter: Netlist, model: z3.ModelRef, types: dict[str, str]) -> Counterexample:
    def value(name: str, port: str) -> int:
        term = miter.inputs[name] if name in miter.inputs else miter.outputs[name]
        v = model.eval(term, model_completion=True).as_long()
        signed = types.get(port, "").startswith("int")
        return v - (1 << term.size()) if signed and v >> (term.size() - 1) else v

    ports = lambda prefix, d: [n[len(prefix):] for n in d if n.startswith(prefix)]  # noqa: E731
    return Counterexample({p: value(f"in_{p}", p) for p in ports("in_", miter.inputs)},
                          {p: value(f"gold_{p}", p) for p in ports("gold_", miter.outputs)},
                          {p: value(f"gate_{p}", p) for p in ports("gate_", miter.outputs)})


def _coreir_version() -> str:
    from importlib import metadata

    try:
        return "coreir " + metadata.version("coreir")
    except metadata.PackageNotFoundError:
        return f"coreir at {coreir_command()}"


def prove_coreir_module(doc: dict, module: str, verilog: str, cache: ProofCache | None = None,
                        timeout: float = TIME_LIMIT) -> CoreIRProof:
    """CoreIR's rendering of `module` of compute JSON `doc` against the module of `verilog` (the design's)."""
    cache = cache or ProofCache(None)
    meta = doc["namespaces"]["global"]["modules"][module].get("metadata", {}).get("mainspring", {})
    source = meta.get("source", "")
    try:
        ours = combinational_view(module_text(verilog, module))
    except NetlistError as e:
        return CoreIRProof(module, "unproved", 0.0, str(e), source=source)
    key = cache_key("coreir", _coreir_version(), yosys_version(), module_document(doc, module), ours)
    hit = cache.get("coreir", key)
    if hit is not None:
        cex = Counterexample(**hit["counterexample"]) if hit.get("counterexample") else None
        return CoreIRProof(module, hit["status"], hit["seconds"], hit["reason"], cex, cached=True, source=source)
    start = time.perf_counter()
    try:
        theirs = coreir_verilog(doc, module)
    except CannotRender as e:
        proof = CoreIRProof(module, "not checked", round(time.perf_counter() - start, 3), str(e), source=source)
        if coreir_command() is not None:  # a missing tool is this machine's, not the module's
            cache.put("coreir", key, _to_entry(proof))
        return proof
    proof = compare_renderings(module, theirs, ours, meta.get("port_types"), timeout)
    proof = CoreIRProof(module, proof.status, round(time.perf_counter() - start, 3), proof.reason,
                        proof.counterexample, source=source)
    if proof.status != "unproved":
        cache.put("coreir", key, _to_entry(proof))
    return proof


def _to_entry(p: CoreIRProof) -> dict:
    cex = p.counterexample
    return {"status": p.status, "seconds": p.seconds, "reason": p.reason,
            "counterexample": None if cex is None else {"inputs": cex.inputs, "expected": cex.expected,
                                                         "got": cex.got}}


def prove_coreir_design(design, cache_dir: Path | str | None = None, timeout: float = TIME_LIMIT,
                        progress=None) -> list[CoreIRProof]:
    """CoreIR's rendering of every kernel module of a compiled design's compute JSON, each compared with the
    design's own module; `cache_dir=None`: `build/prove` (or MAINSPRING_PROVE_CACHE); `progress` is called
    with each result."""
    cache = ProofCache(cache_dir if cache_dir is not None else default_cache_dir())
    proofs = []
    for module in design.compute_doc["namespaces"]["global"]["modules"]:
        proofs.append(prove_coreir_module(design.compute_doc, module, design.verilog, cache, timeout))
        if progress is not None:
            progress(proofs[-1])
    return proofs
