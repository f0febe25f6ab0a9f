"""Prove each compute kernel's Verilog equal to its Halide expression, for every input in its assumed ranges.

For one kernel (`prove_kernel`): Yosys reads the module's Verilog and z3 gets its outputs as bit-vector terms of
its inputs (`prove_netlist`); the op's frontend expression is translated over the same input terms from Halide's
semantics (`prove_reference`); divisions by constants are replaced by their multiply-high lowering after that
lowering is proved equal to the division once per (width, divisor, signedness, div/mod) (`prove_lemmas`); both
sides rewritten into integer polynomials where nothing wraps are first compared as terms (`prove_exact`); when the
outputs' equality does not follow at once from that or from their shared subterms cut, both sides are tried again
with their wrap-around arithmetic in one canonical polynomial form and the subterms still spelt differently proved
equal pair by pair (`prove_polynomial`); then z3 looks for inputs on which some output differs, or leaves the range
the module states of it (inputs of very few points evaluated at once, `prove_enumerate`; else first with their
shared subterms cut, `prove_cut`; when that gets no answer and the inputs hold few points, at every input, before
the canonical form). Inputs range over their types, or over the ranges the module assumes (`kernel_widths`: the top
holds values in registers narrowed to them, each register's range bounded by interval arithmetic,
`prove_intervals`, or else by z3); `prove_ranges` checks each assumption against what the loaded buffer holds: the
outputs its writers are proved to keep to, or an input stream's values. None: proved.
Some: disproved, with the inputs, the expected and the computed values. No answer within the time limit (budget
seconds of z3's work and enumerated points, `prove_budget`: the same on a busy machine): unproved, with the reason.
Proved and disproved verdicts are cached by a hash of the module's text and the expression (`prove_cache`).
The kernel modules are combinational but for their pipeline's stage registers, which are read as wires
(`kernel.combinational_view`: a balanced pipeline computes its function `stages - 1` cycles later; the PE
output registers are in the top), so outputs are compared as they are; a module with other state is refused
as unproved.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import z3

from mainspring.compute_json.kernel import Kernel
from mainspring.compute_json.widths import needed_bits
from mainspring.frontend import ir
from mainspring.hwlower.ir import LoopNest, Rom

from .kernel import combinational_view
from .kernel_widths import parse_ranges
from .names import op_kernels
from .prove_budget import YOSYS_LIMIT, now, spent, units
from .prove_cache import ProofCache, cache_key, default_cache_dir
from .prove_cut import cut_shared
from .prove_enumerate import LIMIT, exhausted
from .prove_exact import Exact
from .prove_intervals import bound, leaf_intervals
from .prove_intervals import within as interval_within
from .prove_lemmas import prove_division_lemma
from .prove_netlist import Netlist, NetlistError, module_text, read_netlist
from .prove_polynomial import Canonical, swept
from .prove_ranges import unmet_assumptions
from .prove_reference import UNSIGNED_DIVISIONS, Reference, Unsupported, narrowed_divisions, post_order
from .prove_split import MOST as MOST_CASES
from .prove_split import split_proves
from .prove_widen import Narrowed, cut, narrowed, widened

TIME_LIMIT = 30.0  # budget seconds per kernel, lemmas included (`prove_budget`: z3 work, not wall time)


class KernelDisproved(AssertionError):
    """A kernel's Verilog computes something else than its expression: a compiler bug, not the user's."""

    def __init__(self, proofs: list[KernelProof]):
        self.proofs = proofs
        super().__init__("\n".join(str(p) for p in proofs))


@dataclass(frozen=True, slots=True)
class Counterexample:
    """Input port values on which the module's outputs differ from the expression's (values of the port types)."""

    inputs: dict[str, int]
    expected: dict[str, int]
    got: dict[str, int]

    def __str__(self) -> str:
        show = lambda d: ", ".join(f"{k}={v}" for k, v in d.items())  # noqa: E731
        return f"inputs {show(self.inputs)}: expected {show(self.expected)}, got {show(self.got)}"


@dataclass(frozen=True, slots=True)
class KernelProof:
    module: str
    status: str  # "proved", "unproved" or "disproved"
    seconds: float
    reason: str = ""  # unproved: why; disproved: what differs
    counterexample: Counterexample | None = None
    lemmas: tuple[str, ...] = ()  # the division lemmas the proof used
    cached: bool = False
    source: str = ""  # the Func and op the kernel computes

    def __str__(self) -> str:
        what = {"proved": "proved", "unproved": f"unproved ({self.reason})",
                "disproved": f"DISPROVED: {self.counterexample or self.reason}"}[self.status]
        lemmas = f" using {len(self.lemmas)} division lemma(s)" if self.lemmas and self.status == "proved" else ""
        return f"{self.module}: {what}{lemmas} in {self.seconds:.2f} s{' (cached)' if self.cached else ''}"


def prove_kernel(kernel: Kernel, verilog: str, cache: ProofCache | None = None,
                 timeout: float = TIME_LIMIT, retry: bool = False) -> KernelProof:
    """Prove module `kernel.name` of `verilog` (a design's Verilog or the module alone) equal to `kernel`.
    A kernel left unproved within `timeout` is remembered too (so that every compile does not spend the time
    again), under that timeout; `retry` tries it again (`mainspring prove`)."""
    cache = cache or ProofCache(None)
    try:
        text = combinational_view(module_text(verilog, kernel.name))
    except NetlistError as e:
        return KernelProof(kernel.name, "unproved", 0.0, str(e), source=kernel.source)
    key = cache_key("kernel", text, _describe(kernel))
    hit = cache.get("kernels", key)
    if hit is not None:
        return _from_entry(kernel, hit)
    gave_up = cache_key(key, f"unproved within {timeout:g} budget seconds")
    hit = None if retry else cache.get("unproved", gave_up)
    if hit is not None:
        return _from_entry(kernel, hit)
    start = time.perf_counter()
    proof = _prove(kernel, text, cache, now() + timeout)
    proof = KernelProof(kernel.name, proof.status, round(time.perf_counter() - start, 3), proof.reason,
                        proof.counterexample, proof.lemmas, source=kernel.source)
    # An unproved kernel may prove with more time or on a less busy machine: kept apart, retried on demand.
    cache.put("kernels" if proof.status != "unproved" else "unproved",
              key if proof.status != "unproved" else gave_up, _to_entry(proof))
    return proof


def _prove(kernel: Kernel, text: str, cache: ProofCache, deadline: float) -> KernelProof:
    """The kernel's verdict: a narrowed one (`prove_widen`) is its widened view when its stage registers hold
    their ranges, so both are proved; when either fails, the narrowed module itself is compared, for inputs it
    gets wrong (the widened view may differ from it there)."""
    try:
        assumed, promised = parse_ranges(text)
        regs = narrowed(text)
        held, outputs_held = _registers_hold_their_ranges(kernel, text, regs, assumed, promised, deadline)
        wide = widened(text) if regs else text
    except NetlistError as e:
        return KernelProof(kernel.name, "unproved", 0.0, str(e))
    proof = _compare(kernel, wide, assumed, {} if outputs_held else promised, cache, deadline)
    if regs and "disproved" in (proof.status, held.status if held else ""):
        direct = _compare(kernel, text, assumed, promised, cache, deadline)
        if direct.status != "unproved":
            return direct
    return held if held is not None and proof.status == "proved" else proof


def _compare(kernel: Kernel, text: str, assumed: dict, promised: dict, cache: ProofCache,
             deadline: float) -> KernelProof:
    """Module `text` against the kernel's expression, for inputs in their `assumed` ranges, outputs in their
    `promised` ones."""
    try:
        netlist = narrowed_inputs(read_netlist(text, kernel.name, timeout=YOSYS_LIMIT), assumed)
        netlist = Netlist(netlist.inputs, {p: narrowed_divisions(t) for p, t in netlist.outputs.items()})
        _check_ports(kernel, netlist)
        _check_range_ports(kernel, assumed, promised)
        reference = Reference(netlist.inputs)
        expected = {port: reference.term(e) for port, e in kernel.outputs}
    except (NetlistError, Unsupported) as e:
        return KernelProof(kernel.name, "unproved", 0.0, str(e))
    lemmas = [prove_division_lemma(lm, cache, _left(deadline)) for lm in sorted(reference.lemmas, key=str)]
    if any(r.status == "disproved" for r in lemmas):
        # The lowering is wrong somewhere: compare with plain division, to show inputs the kernel gets wrong.
        reference = Reference(netlist.inputs, use_lemmas=False)
        expected = {port: reference.term(e) for port, e in kernel.outputs}
        lemmas = []
    unproved = [r for r in lemmas if r.status != "proved"]
    if unproved:
        return KernelProof(kernel.name, "unproved", 0.0, f"division lemma {unproved[0].lemma} not proved "
                                                         f"({unproved[0].detail})")
    used = tuple(str(r.lemma) for r in lemmas)
    types = dict(kernel.inputs) | {p: e.type for p, e in kernel.outputs}
    within = {side: [in_range(terms[p], types[p], iv) for p, iv in ranges.items()]
              for side, terms, ranges in (("in", netlist.inputs, assumed), ("out", netlist.outputs, promised))}
    ranges = {p: _meet(assumed.get(p, (int(t.min()), int(t.max()))), reference.bounds.get(p))
              for p, t in kernel.inputs}
    return _solve(kernel, netlist, reference, expected, deadline, used, within, ranges)


def narrowed_inputs(netlist: Netlist, assumed: dict[str, tuple[int, int]]) -> Netlist:
    """The netlist with each input whose assumed range fits fewer bits written as the extension of a narrower
    variable (what the range implies: `widths.needed_bits`): the same function on those inputs, and the
    reference is built over the same terms, so z3 meets fewer free bits."""
    pairs = []
    for port, iv in sorted(assumed.items()):
        term = netlist.inputs[port]
        bits, signed = needed_bits(iv, term.size())
        if bits < term.size():
            low = z3.BitVec(f"{port}_low", bits)
            pairs += _leaves(term, (z3.SignExt if signed else z3.ZeroExt)(term.size() - bits, low))
    if not pairs:
        return netlist
    return Netlist({p: z3.substitute(t, *pairs) for p, t in netlist.inputs.items()},
                   {p: z3.simplify(z3.substitute(t, *pairs)) for p, t in netlist.outputs.items()})


def _leaves(term: z3.BitVecRef, value: z3.BitVecRef) -> list[tuple[z3.BitVecRef, z3.BitVecRef]]:
    """Pairs (leaf, its bits of `value`) that make `term` equal `value`: Yosys gives a port as one free function
    of the state, or as the concatenation of several (its bits as the module splits them), MSB first."""
    parts = term.children() if z3.is_app_of(term, z3.Z3_OP_CONCAT) else [term]
    if not all(p.num_args() == 1 and p.decl().kind() == z3.Z3_OP_UNINTERPRETED for p in parts):
        return []  # not free bits: the input keeps its term (its range is still assumed)
    out, hi = [], term.size()
    for p in parts:
        out.append((p, z3.Extract(hi - 1, hi - p.size(), value)))
        hi -= p.size()
    return out


def _registers_hold_their_ranges(kernel: Kernel, text: str, regs: list[Narrowed], assumed: dict, promised: dict,
                                 deadline: float) -> tuple[KernelProof | None, bool]:
    """(None, ...) when every narrowed stage register's value lies in its interval (`prove_widen`: then the module
    computes its widened view); else (the kernel's verdict, False). Proved on the cut view: from the inputs'
    ranges and the cut registers' intervals, each register's value (the logic of one stage) stays in its own.
    The second item: the outputs' `promised` ranges are proved there too (`_outputs_held`)."""
    if not regs:
        return None, False
    netlist = read_netlist(cut(text, regs), kernel.name, timeout=YOSYS_LIMIT)
    types = dict(kernel.inputs)
    ext = lambda n: (z3.SignExt if n.signed else z3.ZeroExt)(n.width - n.bits, netlist.inputs[n.held])  # noqa: E731
    given = [*[in_range(netlist.inputs[p], types[p], iv) for p, iv in assumed.items()],
             *[_within(ext(n), n) for n in regs]]
    left = _unbounded(netlist, regs, assumed)
    if not left:
        return None, _outputs_held(kernel, netlist, given, promised, deadline)
    solver, verdict = _check([*given, z3.Or([z3.Not(_within(netlist.outputs[f"ms_root_{k}"], n))
                                             for k, n in left])], deadline)
    if verdict == z3.unsat:
        return None, _outputs_held(kernel, netlist, given, promised, deadline)
    if verdict == z3.sat:
        model = solver.model()
        bad = [n for k, n in left if not z3.is_true(model.eval(_within(netlist.outputs[f"ms_root_{k}"], n),
                                                                          model_completion=True))]
        reason = (f"{bad[0].root} leaves [{bad[0].lo}, {bad[0].hi}], the range its {bad[0].bits}-bit register "
                  f"{bad[0].held} keeps")
        return KernelProof(kernel.name, "disproved", 0.0, reason), False
    return KernelProof(kernel.name, "unproved", 0.0, "z3 found no answer in the time limit for the narrowed "
                                                     f"registers' ranges ({solver.reason_unknown()})"), False


def _unbounded(netlist: Netlist, regs: list[Narrowed], assumed: dict) -> list[tuple[int, Narrowed]]:
    """The registers (by index) whose values interval arithmetic does not keep within their intervals, from the
    inputs' assumed ranges and the cut registers' intervals (`prove_intervals`); those z3 is asked about."""
    leaves: dict[int, tuple[int, int]] = {}
    for p, iv in assumed.items():
        leaves |= leaf_intervals(netlist.inputs[p], iv)
    for n in regs:  # its bits: the low bits of a value in [lo, hi]
        leaves |= leaf_intervals(netlist.inputs[n.held], (n.lo, n.hi))
    memo: dict[int, tuple[int, int]] = {}
    return [(k, n) for k, n in enumerate(regs)
            if not interval_within(bound(netlist.outputs[f"ms_root_{k}"], leaves, memo), n.width, n.lo, n.hi)]


def _outputs_held(kernel: Kernel, netlist: Netlist, given: list, promised: dict, deadline: float) -> bool:
    """Whether each output lies in its promised range on the cut view, its registers anywhere in their intervals
    (which they hold): then it does in the module. The last stage's registers bound what the output adds up,
    where over the whole module z3 would have to rediscover those bounds through the sums: sobel's |gx| + |gy|
    within [0, 2040] took it past 30 s, here 0.01 s. Only z3's quick try: False leaves the ranges to `_solve`,
    as before (the cut view may be too loose for them)."""
    types = {p: e.type for p, e in kernel.outputs}
    if not promised or not set(promised) <= set(types) & set(netlist.outputs):
        return False
    outside = z3.Or([z3.Not(in_range(netlist.outputs[p], types[p], iv)) for p, iv in promised.items()])
    _, verdict = _check([*given, outside], min(deadline, now() + QUICK_LIMIT))
    return verdict == z3.unsat


def _within(term: z3.BitVecRef, n: Narrowed) -> z3.BoolRef:
    lo, hi = (z3.BitVecVal(v, term.size()) for v in (n.lo, n.hi))
    return z3.And(lo <= term, term <= hi) if n.lo < 0 else z3.And(z3.ULE(lo, term), z3.ULE(term, hi))


def in_range(term: z3.BitVecRef, t, iv: tuple[int, int]) -> z3.BoolRef:
    """`term`, a value of Halide type `t`, lies in [lo, hi]."""
    lo, hi = (z3.BitVecVal(v, term.size()) for v in iv)
    return z3.And(lo <= term, term <= hi) if t.is_int() else z3.And(z3.ULE(lo, term), z3.ULE(term, hi))


def _meet(iv: tuple[int, int], bound: tuple[int, int] | None) -> tuple[int, int]:
    """The values of `iv` within `bound` (a table's box: values outside it fail a precondition of the goal)."""
    return iv if bound is None else (max(iv[0], bound[0]), min(iv[1], bound[1]))


def _check_range_ports(kernel: Kernel, assumed: dict, promised: dict) -> None:
    """The ranges the module states name its ports."""
    ins, outs = {p for p, _ in kernel.inputs}, {p for p, _ in kernel.outputs}
    if not set(assumed) <= ins or not set(promised) <= outs:
        raise NetlistError(f"the module states ranges of {sorted(set(assumed) - ins) + sorted(set(promised) - outs)}, "
                           "which are not its ports")


def _solve(kernel: Kernel, netlist: Netlist, reference: Reference, expected: dict, deadline: float,
           used: tuple[str, ...], within: dict[str, list], ranges: dict[str, tuple[int, int]]) -> KernelProof:
    """Look for inputs in their assumed ranges on which an output differs from its expression or leaves its
    stated range. Inputs whose `ranges` hold very few points are all evaluated (`prove_enumerate`). Else the
    outputs' equality is first tried with the subterms both sides share cut (`prove_cut`); when that proves it,
    only the ranges are left to the whole check. Else, when the inputs hold few enough points, the whole check is
    decided at every input; else it gets a short quick try, then the equality is tried in canonical form, then the
    check left to z3 (and tried at every input again, for the ranges alone)."""
    given = [*reference.preconditions, *within["in"]]
    ports = sorted(expected)
    whole = [*given, z3.Or([expected[p] != netlist.outputs[p] for p in ports] + [z3.Not(c) for c in within["out"]])]
    # So few points that evaluating them all costs less than a quick try that gets no answer (vignette's 126,208:
    # 0.1 s, where the shared subterms' try spent its 2 s)
    found = _exhaust(whole, netlist, ranges, deadline, FEW_POINTS)
    if found is not None:
        return _decided(kernel, netlist, expected, whole, found, deadline, used)
    outs, exps = [netlist.outputs[p] for p in ports], [expected[p] for p in ports]
    exact = _exact_terms(outs, exps)
    cut_verdict = z3.unsat if exact is not None and all(a.eq(b) for a, b in zip(*exact)) else z3.unknown
    if cut_verdict != z3.unsat:
        ours, theirs = cut_shared(outs, exps)
        _, cut_verdict = _check([*given, z3.Or([a != b for a, b in zip(ours, theirs)])],
                                min(deadline, now() + QUICK_LIMIT), quick_only=True)
    if cut_verdict != z3.unsat and exact is not None:
        # what the integer polynomials leave differing, with their shared subterms cut: a short try
        ours, theirs = cut_shared(*exact)
        _, cut_verdict = _check([*given, z3.Or([a != b for a, b in zip(ours, theirs)])],
                                min(deadline, now() + QUICK_LIMIT / 4), quick_only=True)
    if cut_verdict != z3.unsat:
        # Inputs holding few points are all evaluated first: at most a few seconds, where the canonical check's
        # tries can spend more and leave the goal to z3 still (range_weighted's 3 absd-weighted taps divided by
        # their weights: 14 s of failed tries, then the enumeration; 30 s and unproved on a loaded machine).
        found = _exhaust(whole, netlist, ranges, deadline)
        if found is not None:
            return _decided(kernel, netlist, expected, whole, found, deadline, used)
        # A coordinate or channel of few values pins table reads to constants: tried before the longer tries
        if _split(given, netlist, ranges, outs, exps, deadline, FEW_CASES):
            return _solve_ranges(kernel, netlist, expected, given, within, ranges, deadline, used)
        # The cut can lose what makes the outputs equal, which the whole goal keeps: a short try at it before the
        # canonical tries (sobel's magnitude at 3 lanes: 6 s of failed tries, then z3 proved the whole in 0.1 s)
        solver, verdict = _check(whole, min(deadline, now() + QUICK_LIMIT / 4), quick_only=True)
        if verdict != z3.unknown:
            return _verdict(kernel, netlist, expected, solver, verdict, used)
        cut_verdict = _canonical_check(given, [netlist.outputs[p] for p in ports], [expected[p] for p in ports],
                                       deadline)
        if cut_verdict != z3.unsat and _split(given, netlist, ranges, outs, exps, deadline, MOST_CASES):
            cut_verdict = z3.unsat
    if cut_verdict == z3.unsat:
        return _solve_ranges(kernel, netlist, expected, given, within, ranges, deadline, used)
    goal = [*given, z3.Or([expected[p] != netlist.outputs[p] for p in expected] + [z3.Not(c) for c in within["out"]])]
    solver, verdict = _check(goal, deadline, exhaust=lambda: _exhaust(goal, netlist, ranges, deadline))
    return _verdict(kernel, netlist, expected, solver, verdict, used)


def _solve_ranges(kernel: Kernel, netlist: Netlist, expected: dict, given: list, within: dict[str, list],
                  ranges: dict, deadline: float, used: tuple[str, ...]) -> KernelProof:
    """The verdict once the outputs are proved equal to their expressions: whether they keep to their ranges."""
    if not within["out"]:
        return KernelProof(kernel.name, "proved", 0.0, lemmas=used)
    goal = [*given, z3.Or([z3.Not(c) for c in within["out"]])]
    solver, verdict = _check(goal, deadline, exhaust=lambda: _exhaust(goal, netlist, ranges, deadline))
    return _verdict(kernel, netlist, expected, solver, verdict, used)


def _split(given: list, netlist: Netlist, ranges: dict, ours: list, theirs: list, deadline: float, most: int) -> bool:
    """The outputs proved equal case by case (`prove_split`, ways of at most `most` cases, SPLIT_LIMIT seconds):
    each case's outputs one term in integer form, or, in a way of few cases, proved so by z3's short try at them,
    cut (a way of many cases whose cases need z3 would spend the budget a kernel's last check has)."""
    def case(given: list, ours: list, theirs: list, ways_cases: int) -> bool:
        exact = _exact_terms(ours, theirs)
        if exact is not None and all(a.eq(b) for a, b in zip(*exact)):
            return True
        if ways_cases > FEW_CASES:
            return False
        ours, theirs = cut_shared(*(exact or (ours, theirs)))
        return _check([*given, z3.Or([a != b for a, b in zip(ours, theirs)])], min(deadline, now() + CASE_LIMIT),
                      quick_only=True)[1] == z3.unsat

    return split_proves(given, netlist.inputs, ranges, ours, theirs, case, min(deadline, now() + SPLIT_LIMIT), most)


def _verdict(kernel: Kernel, netlist: Netlist, expected: dict, solver: z3.Solver, verdict: z3.CheckSatResult,
             used: tuple[str, ...]) -> KernelProof:
    """The kernel's verdict from z3's answer on its goal (inputs where an output differs or leaves its range)."""
    if verdict == z3.unsat:
        return KernelProof(kernel.name, "proved", 0.0, lemmas=used)
    if verdict == z3.sat:
        cex = _counterexample(kernel, netlist, expected, solver.model())
        return KernelProof(kernel.name, "disproved", 0.0, "outputs differ", cex, used)
    return KernelProof(kernel.name, "unproved", 0.0, f"z3 found no answer in the time limit "
                                                     f"({solver.reason_unknown()})", lemmas=used)


# Not cut in the canonical check: bit selects, extensions and products of a shared term are cut through, to the
# term, so that the sides keep using one variable (a u8 gray level on one, zero-extended to u16 on the other).
KEEP = frozenset({z3.Z3_OP_CONCAT, z3.Z3_OP_EXTRACT, z3.Z3_OP_ZERO_EXT, z3.Z3_OP_SIGN_EXT, z3.Z3_OP_BMUL})


def _exact_terms(ours: list, theirs: list) -> tuple[list, list] | None:
    """Both sides' arithmetic rewritten into integer polynomials where nothing wraps (`prove_exact`: the same
    functions); when they are one term the outputs are equal. A sum narrowed to 16 bits against its 32-bit
    expression (conv_param's 18 products, dog's rows shifted right): no answer in 30 s before, one term in
    under a second now. None when a chain is too deep to rewrite recursively."""
    exact = Exact()
    try:
        return [exact.term(z3.simplify(t)) for t in ours], [exact.term(z3.simplify(t)) for t in theirs]
    except RecursionError:
        return None


def _canonical_check(given: list, ours: list, theirs: list, deadline: float) -> z3.CheckSatResult:
    """z3's quick try at the outputs' equality with both sides' wrap-around arithmetic rewritten into one
    canonical polynomial form (`prove_polynomial`: the same functions) and their shared subterms then cut: first
    with min and max written over their operands in one order (a chain meets a tree: opening's 3x3 minimum, 22 s
    -> 1.3 s), then, where that met a min or max, without (the forms bilateral_lut's sweep proves equal in time)."""
    verdict = z3.unknown
    for extrema in (True, False):
        canonical = Canonical(extrema)
        try:
            left, right = [canonical.term(t) for t in ours], [canonical.term(t) for t in theirs]
        except RecursionError:  # a chain too deep to rewrite recursively: left to z3 as it stands
            return z3.unknown
        verdict = _canonical_try(given, left, right, deadline)
        if verdict == z3.unsat or not canonical.extrema:
            return verdict
    return verdict


def _canonical_try(given: list, ours: list, theirs: list, deadline: float) -> z3.CheckSatResult:
    verdict = _swept_check(given, ours, theirs, deadline, QUICK_LIMIT, SWEEP_LIMIT, cut_first=True)
    if verdict == z3.unsat or not _divides(ours):
        return verdict
    # The subterms cut first are free variables to the sweep: a pair equal only through what they stand for is
    # proved on the whole terms, each pair given longer. Bilateral_lut's u32 division of its weighted sum by its
    # weights (32 - |c - n| on one side, its max with 0 cut on the other) went from no answer in 30 s to 3 s.
    # Only where a division is met: z3 bit-blasts the rest when the sweep fails (vignette's tables: 4 s more).
    return _swept_check(given, [z3.simplify(t) for t in ours], [z3.simplify(t) for t in theirs], deadline,
                        2 * QUICK_LIMIT, QUICK_LIMIT, cut_first=False)


def _divides(terms: list) -> bool:
    return any(t.decl().kind() in UNSIGNED_DIVISIONS for t in post_order(*terms))


def _swept_check(given: list, ours: list, theirs: list, deadline: float, limit: float, pair_limit: float,
                 cut_first: bool) -> z3.CheckSatResult:
    """`swept` (`prove_polynomial`) within `limit` seconds, `pair_limit` a pair, then z3's quick try at the
    outputs' equality; their shared subterms cut before the sweep or after it."""
    if cut_first:
        ours, theirs = cut_shared(ours, theirs, KEEP)
    until = min(deadline, now() + limit)  # for all the pairs together
    ours = swept(given, ours, theirs, lambda goal: _check(goal, min(until, now() + pair_limit),
                                                          quick_only=True)[1] == z3.unsat)
    if not cut_first:
        ours, theirs = cut_shared(ours, theirs, KEEP)
    if all(a.eq(b) for a, b in zip(ours, theirs)):
        return z3.unsat
    _, verdict = _check([*given, z3.Or([a != b for a, b in zip(ours, theirs)])],
                        min(deadline, now() + QUICK_LIMIT), quick_only=True)
    return verdict


def _decided(kernel: Kernel, netlist: Netlist, expected: dict, goal: list, found: bool | list, deadline: float,
             used: tuple[str, ...]) -> KernelProof:
    """The verdict the enumeration `found` (`_exhaust`): proved, or the point it pins, modelled by z3."""
    if found is True:
        return KernelProof(kernel.name, "proved", 0.0, lemmas=used)
    solver, verdict = _check([*goal, *found], deadline)
    assert verdict != z3.unsat, f"{kernel.name}: z3 finds no model at the point the enumeration found"
    return _verdict(kernel, netlist, expected, solver, verdict, used)


def _exhaust(goal: list, netlist: Netlist, ranges: dict, deadline: float, most: int = LIMIT) -> bool | list | None:
    found = exhausted(goal, netlist.inputs, ranges, deadline, most)
    if isinstance(found, dict):  # a point where the goal holds: pinned, z3 models it and the counterexample shows it
        return [netlist.inputs[p] == z3.BitVecVal(v, netlist.inputs[p].size()) for p, v in found.items()]
    return found


QUICK_LIMIT = 2.0  # seconds of z3's bit-vector solver before its default one
FEW_POINTS = 1 << 18  # inputs' points enumerated before any quick try: a fraction of a second
SWEEP_LIMIT = 0.5  # seconds for each pair of differing subterms `prove_polynomial.swept` tries
SPLIT_LIMIT = 5.0  # seconds for all the cases of `prove_split` together
FEW_CASES = 16  # cases of a split tried before the canonical form's tries (coordinates, channels)
CASE_LIMIT = 0.1  # seconds of z3 for a case whose outputs are not one term


def _check(goal: list, deadline: float, quick_only: bool = False,
           exhaust: Callable[[], bool | dict | None] | None = None) -> tuple[z3.Solver, z3.CheckSatResult]:
    """Whether `goal` has a model: first by z3's bit-vector solver (QF_BV: it bit-blasts at once) for up to
    QUICK_LIMIT seconds, then, with no answer, by its default solver until `deadline`, as before the bit-vector
    one was tried (so a kernel may take QUICK_LIMIT longer). The bit-vector solver decides a 1,024-entry ROM lookup
    (the camera's curve) in 0.02 s where the default solver took 13-20 s, and a kernel narrowed to 16-bit ops
    (compute_json/narrow_32_bit_ops.py) against its 32-bit expression in under a second where the default one
    took 36-55 s (interleaved RGB to YUV). `quick_only`: no default solver; `exhaust`, tried between the two:
    True when it finds the goal has no model, or constraints that pin a model it found (then z3 gives it)."""
    budget = _left(deadline)
    quick = z3.SolverFor("QF_BV")
    quick.set("rlimit", units(min(QUICK_LIMIT, budget)))
    quick.add(*goal)
    verdict = quick.check()
    spent(quick)
    if verdict != z3.unknown or quick_only:
        return quick, verdict
    found = exhaust() if exhaust is not None else None
    if found is True:
        return quick, z3.unsat
    solver = z3.Solver()
    solver.set("rlimit", units(_left(deadline)))
    solver.add(*goal, *(found or []))
    verdict = solver.check()
    spent(solver)
    return solver, verdict


def _left(deadline: float) -> float:
    """Budget seconds left before `deadline` (`prove_budget.now`)."""
    return max(0.001, deadline - now())


def _check_ports(kernel: Kernel, netlist: Netlist) -> None:
    want_in = {p: t.bits() for p, t in kernel.inputs}
    want_out = {p: e.type.bits() for p, e in kernel.outputs}
    have_in = {p: t.size() for p, t in netlist.inputs.items()}
    have_out = {p: t.size() for p, t in netlist.outputs.items()}
    if (want_in, want_out) != (have_in, have_out):
        raise NetlistError(f"the module's ports {have_in} -> {have_out} are not the kernel's {want_in} -> {want_out}")


def _counterexample(kernel: Kernel, netlist: Netlist, expected: dict, model: z3.ModelRef) -> Counterexample:
    def value(term, t) -> int:
        v = model.eval(term, model_completion=True).as_long()
        return v - (1 << t.bits()) if t.is_int() and v >> (t.bits() - 1) else v

    types = {p: e.type for p, e in kernel.outputs}
    return Counterexample(
        {p: value(netlist.inputs[p], t) for p, t in kernel.inputs},
        {p: value(expected[p], types[p]) for p in expected},
        {p: value(netlist.outputs[p], types[p]) for p in expected},
    )


def _describe(kernel: Kernel) -> str:
    """Everything about the kernel a verdict depends on, as text (ROM tables included: the printer omits them)."""
    lines = [f"in {p} {t}" for p, t in kernel.inputs]
    for port, expr in kernel.outputs:
        lines.append(f"out {port} {expr.type} = {ir.to_string(expr)}")
        roms = {id(n.callee): n.callee for n in ir.walk(expr) if isinstance(n, ir.Call) and isinstance(n.callee, Rom)}
        lines += [f"rom {r.name} {r.box} {r.values}" for r in roms.values()]
    return "\n".join(lines)


def _to_entry(p: KernelProof) -> dict:
    cex = p.counterexample
    return {"status": p.status, "seconds": p.seconds, "reason": p.reason, "lemmas": list(p.lemmas),
            "counterexample": None if cex is None else {"inputs": cex.inputs, "expected": cex.expected,
                                                         "got": cex.got}}


def _from_entry(kernel: Kernel, e: dict) -> KernelProof:
    cex = Counterexample(**e["counterexample"]) if e.get("counterexample") else None
    return KernelProof(kernel.name, e["status"], e["seconds"], e["reason"], cex, tuple(e["lemmas"]), cached=True,
                       source=kernel.source)


def prove_ops(nest: LoopNest, verilog: str, cache_dir: Path | str | None = None, timeout: float = TIME_LIMIT,
              progress=None, retry: bool = False, streams: dict | None = None) -> list[KernelProof]:
    """Prove the kernels of every op of `nest` (`top.op_kernels`, as `compile` names their modules) against
    `verilog`, the design's Verilog; a kernel that several ops share is proved once; then each range a kernel
    assumes of an input against what the buffer holds (`prove_ranges`; `streams`: the input streams' values,
    else their types' ranges). `cache_dir=None`: `build/prove` (or MAINSPRING_PROVE_CACHE); `progress` is
    called with each result."""
    cache = ProofCache(cache_dir if cache_dir is not None else default_cache_dir())
    proofs: dict[str, KernelProof] = {}
    for _, op in nest.ops():
        for kernel in op_kernels(op, nest):
            if kernel.name not in proofs:
                proofs[kernel.name] = prove_kernel(kernel, verilog, cache, timeout, retry)
                if progress is not None:
                    progress(proofs[kernel.name])
    for name, reason in unmet_assumptions(nest, verilog, streams or {}).items():
        proofs[name] = KernelProof(name, "disproved", proofs[name].seconds, reason, source=proofs[name].source)
    return list(proofs.values())


def prove_design(design, cache_dir: Path | str | None = None, timeout: float = TIME_LIMIT,
                 progress=None, retry: bool = True) -> list[KernelProof]:
    """Prove every compute kernel of a compiled design (see `prove_ops`), trying again the kernels an earlier
    run left unproved."""
    from mainspring.compute_json.buffer_ranges import stream_intervals

    streams = stream_intervals(design.pipe, design.program.inputs)
    return prove_ops(design.program.nest, design.verilog, cache_dir, timeout, progress, retry, streams)


def proof_report(proofs: list[KernelProof]) -> dict:
    """The design report's entry: how many kernels are proved and which are not, with the reason; raises
    KernelDisproved (with each counterexample) when a kernel computes something else than its expression."""
    disproved = [p for p in proofs if p.status == "disproved"]
    if disproved:
        raise KernelDisproved(disproved)
    return {
        "kernels_proved": sum(p.status == "proved" for p in proofs),
        "kernels_unproved": [{"kernel": p.module, "reason": p.reason} for p in proofs if p.status == "unproved"],
    }

