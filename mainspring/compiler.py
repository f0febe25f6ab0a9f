"""The compile driver: a straight line of named steps from a scheduled pipeline to RTL.

    lower      hwlower: the accelerated region as a hardware program: a loop nest of ops with affine loads and
               stores, the host's invocations and streams (its own steps: region ... lower)
    compute    compute_json: one CoreIR kernel per op, pipelined in stages of `pe_ops_per_stage` PE ops
    schedule   memories: static schedule (each op's latency: its kernel's stages), exact buffer sizes,
               mapping to registers and memory tiles, checked
    verilog    verilog: the RTL, generated from the memory JSON and the compute JSON

`compile(..., dump_after=STEP)` prints the result of a step (`mainspring compile APP --dump-after lower`).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace

import networkx as nx

from .compute_json import compile_kernel, count_ops, dumps_coreir_json, to_coreir_json
from .compute_json.buffer_ranges import buffer_intervals, kernel_inputs, stream_intervals
from .compute_json.pipeline import STEP_NAMES as COMPUTE_STEPS
from .compute_json.widths import annotate_widths
from .design import Design
from .frontend.compute_with import check_compute_levels
from .frontend.errors import HalideError, ScheduleError, did_you_mean, user_location
from .frontend.func import Func
from .frontend.fuse_outputs import fuse_accelerated_outputs
from .frontend.generator import Generator, generator_output
from .frontend.outputs import Output, packed_outputs
from .frontend.param_domains import bound_param_domains
from .frontend.pipeline import Pipeline
from .frontend.stream_staging import staged_streams
from .frontend.stream_wrapper import stream_wrapper_lanes
from .hwlower import STEP_NAMES as LOWER_STEPS
from .hwlower import HwProgram, lower
from .hwlower.fused_splits import split_fused_loops
from .hwlower.glb_input_level import copy_output_through_glb
from .hwlower.image_names import named_by_place
from .hwlower.ir import Op
from .hwlower.scan_lanes import chain_scans
from .ideal import ideal_cycles
from .memories import STEP_NAMES as MEMORY_STEPS
from .memories import MemoryMappingError, MemoryPlan, analyze, from_json, to_json
from .memories.errors import OverCapacity
from .memories.glb import plan_glb
from .memories.glb_verify import verify_glb
from .memories.polyhedral import default_latency
from .report_glb import glb_report
from .target import CGRA
from .verilog.glb import glb_design_verilog
from .verilog.names import address_module, kernel_module, op_kernels
from .verilog.prove import proof_report, prove_ops
from .verilog.top import RtlLimitError, design_verilog
from .verilog.top_widths import storage_bits
from .verilog.verify import verify_verilog

# Every step `--dump-after` can print, in the order they run: each hwlower pass (the last, `lower`, prints the
# hardware program), each compute_json pass (per kernel), the CoreIR JSON, memories' steps (the static schedule
# is `rates`) and memory JSON (schedule), the Verilog.
STEPS = LOWER_STEPS + tuple(dict.fromkeys(COMPUTE_STEPS)) + ("compute",) + MEMORY_STEPS + ("schedule", "verilog")


def compile(output: Func | Generator, name: str = "accelerator",  # noqa: A001 - the public name
            target: CGRA | None = None, dump_after: str | None = None, out=None, prove: bool = True,
            check: bool = True) -> Design:
    """Compile the accelerated region of `output`'s pipeline for `target`; the result simulates and saves.
    `output` is the output Func, or a Generator instance (its generate() runs first; its context's target).
    `prove`: prove every kernel's Verilog equal to its expression (`verilog.prove`, cached by kernel); the
    report lists the kernels left unproved, and a disproved kernel raises KernelDisproved. `check`: check the
    memory plan (memories/checker.py) and parse the Verilog back (verilog/verify.py), internal invariants that
    raise AssertionError; the autoscheduler weighs its candidates' figures without them (about 40% of a compile),
    and the design it picks is compiled with them."""
    if dump_after is not None and dump_after not in STEPS:
        raise HalideError(f"{user_location()}: --dump-after {dump_after} (dump_after=): unknown step; the steps "
                          f"are {', '.join(STEPS)}{did_you_mean(str(dump_after), STEPS)}")
    if not isinstance(name, str) or not name.isidentifier():
        raise HalideError(f"{user_location()}: compile(name={name!r}): the design name must be a Python/Verilog "
                          "identifier, e.g. name=\"my_design\"")
    if name in VERILOG_KEYWORDS:
        raise HalideError(f"{user_location()}: compile(name={name!r}): '{name}' is a Verilog keyword, which the "
                          f"simulators refuse as a module name; choose another, e.g. name=\"{name}_top\"")
    start = time.perf_counter()
    output, target = generator_output(output, target)
    target = target or CGRA()
    pipe = Pipeline(output)
    # hw_input.in_().unroll(x, k) beside stream_to_accelerator(): the stream's lanes (a copy of the user's Funcs)
    pipe = stream_wrapper_lanes(pipe) or pipe
    # a stencil reading a stream's words in turn through more than 2 reads: a staging copy at its lanes (a copy)
    pipe = staged_streams(pipe) or pipe
    # an RDom over ranged Params: its widest domain, guarded by the Params' values (a copy of the user's Funcs)
    pipe = bound_param_domains(pipe) or pipe
    # outputs each accelerated alike: one accelerator computes them all (a fused copy of the user's Funcs)
    pipe = fuse_accelerated_outputs(pipe) or pipe
    # a GLB input level with no GLB output: the output's tiles pass through the GLB too (a copy of the user's Funcs)
    pipe = copy_output_through_glb(pipe) or pipe
    # a fused loop split at the accelerator's boundary: the same tiles as splits of its dimensions (a copy)
    pipe = split_fused_loops(pipe) or pipe
    packed = packed_outputs(pipe)
    outputs: tuple[Output, ...] = ()
    if packed is not None:  # several outputs (or a Tuple's elements): the host packs them into one output
        check_compute_levels(pipe)  # (packed, the outputs are read inline by the packing Func)
        sink, outputs = packed
        pipe = Pipeline(sink, tuples_whole=True)
    pipe.check_schedule(compute_levels=packed is None)
    dump = lambda step, text: _dump(step, dump_after, text, out)  # noqa: E731
    pipe, program, chained = _lower(pipe, name, dump)
    streams = stream_intervals(pipe, program.inputs)
    compute_doc, pe_counts, latencies, offsets = _compute(program, target,
                                                          dump_after if dump_after in COMPUTE_STEPS else None, out,
                                                          streams)
    _dump("compute", dump_after, lambda: dumps_coreir_json(compute_doc), out)
    try:
        plan = analyze(program.nest, target, latencies, check=check, dump=dump, read_offsets=offsets)
    except MemoryMappingError as e:
        if e.subject is None:
            raise
        raise ScheduleError(f"{program.located(e.subject)}: {e}") from None
    except OverCapacity as e:  # a bound, before the exact count (which can take minutes on a large frame)
        raise ScheduleError(
            f"{user_location()}: design '{name}' needs at least {e.tiles} memory tiles but the target has "
            f"{target.num_mem_tiles} ('{e.buffer}' alone holds at least {e.values} values at once): reduce "
            f"unrolling or buffering, or compile for a larger target, e.g. hl.CGRA(num_mem_tiles={e.tiles}) or more"
        ) from None
    glb = None
    if program.glb is not None:
        glb = plan_glb(program, target)
        verify_glb(glb, program)
        plan = replace(plan, glb=glb)
    memory_json = to_json(plan)
    memory_text = json.dumps(memory_json, sort_keys=True, indent=1) + "\n"
    _dump("schedule", dump_after, lambda: memory_text, out)
    try:
        verilog = _render(name, memory_text, compute_doc)
    except RtlLimitError as e:
        raise ScheduleError(f"{program.located(e.subject)}: {e}") from None
    _dump("verilog", dump_after, lambda: verilog, out)
    if check:
        verify_verilog(name, verilog)
    proofs = _proofs(program, verilog, prove, streams)
    report = _report(program, plan, pe_counts, target, time.perf_counter() - start, storage_bits(plan, compute_doc))
    if outputs:  # several outputs: where each lies in the packed output word
        report["outputs"] = [{"name": o.name, "type": str(o.field.type), "bits": [o.field.offset, o.field.width]}
                             | ({} if o.word is None else {"word": o.word}) for o in outputs]
    if program.notes or chained:  # schedule calls the hardware runs otherwise than written (update_lanes.py)
        report["notes"] = [*chained, *program.notes]
    report.update(proofs)
    if glb is not None:
        report.update(glb_report(glb, plan, sum(_size(s.image_box) for s in program.inputs),
                                 report["ideal_cycles"] // len(program.tiles)))
    _check_fits(name, report, target)
    return Design(name, pipe, program, plan, memory_json, memory_text, compute_doc, verilog, report, target, glb,
                  outputs)


def _lower(pipe: Pipeline, name: str, dump) -> tuple[Pipeline, HwProgram, tuple[str, ...]]:
    """pipe's hardware program, with the notes of the lanes the compiler added: with an unrolled scan, first over
    the copy where its lanes chain (hwlower/scan_lanes.py), else (or where the hardware refuses that copy) over
    pipe as written, whose scan then runs its lanes serially with a note naming the fix."""
    chained = chain_scans(pipe)
    if chained is not None:
        copied = named_by_place(chained[0])  # (the hardware's names of unnamed images' Funcs: deterministic)
        held: list = []  # the copy's dumps, printed only if the copy lowers (else the fallback prints its own)
        try:
            program = lower(copied, name, lambda step, text: held.append((step, text)))
        except HalideError:
            pass
        else:
            for step, text in held:
                dump(step, text)
            return copied, program, chained[1]
    pipe = named_by_place(pipe)
    return pipe, lower(pipe, name, dump), ()


def _render(name: str, memory_text: str, compute_doc: dict) -> str:
    """The RTL, from the typed plans read back from the memory JSON as written (the JSON is the contract)."""
    doc = json.loads(memory_text)
    plan = from_json(doc)
    if plan.glb is not None:
        return glb_design_verilog(name, plan, plan.glb, compute_doc)
    return design_verilog(name, plan, compute_doc)


# Verilog-2005 and SystemVerilog-2017 keywords (Verilator reads the RTL as SystemVerilog): no module name.
VERILOG_KEYWORDS = frozenset("""
    accept_on alias always always_comb always_ff always_latch and assert assign assume automatic before begin bind
    bins binsof bit break buf bufif0 bufif1 byte case casex casez cell chandle checker class clocking cmos config
    const constraint context continue cover covergroup coverpoint cross deassign default defparam design disable
    dist do edge else end endcase endchecker endclass endclocking endconfig endfunction endgenerate endgroup
    endinterface endmodule endpackage endprimitive endprogram endproperty endsequence endspecify endtable endtask
    enum event eventually expect export extends extern final first_match for force foreach forever fork forkjoin
    function generate genvar global highz0 highz1 if iff ifnone ignore_bins illegal_bins implements implies import
    incdir include initial inout input inside instance int integer interconnect interface intersect join join_any
    join_none large let liblist library local localparam logic longint macromodule matches medium modport module
    nand negedge nettype new nexttime nmos nor noshowcancelled not notif0 notif1 null or output package packed
    parameter pmos posedge primitive priority program property protected pull0 pull1 pulldown pullup
    pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase randsequence rcmos real realtime ref reg
    reject_on release repeat restrict return rnmos rpmos rtran rtranif0 rtranif1 s_always s_eventually s_nexttime
    s_until s_until_with scalared sequence shortint shortreal showcancelled signed small soft solve specify
    specparam static string strong strong0 strong1 struct super supply0 supply1 sync_accept_on sync_reject_on
    table tagged task this throughout time timeprecision timeunit tran tranif0 tranif1 tri tri0 tri1 triand trior
    trireg type typedef union unique unique0 unsigned until until_with untyped use uwire var vectored virtual void
    wait wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor xor
""".split())


def _proofs(program: HwProgram, verilog: str, prove: bool, streams: dict) -> dict:
    if prove:
        return proof_report(prove_ops(program.nest, verilog, streams=streams))
    modules = dict.fromkeys(k.name for _, op in program.nest.ops() for k in op_kernels(op, program.nest))
    return {"kernels_proved": 0,
            "kernels_unproved": [{"kernel": m, "reason": "not attempted: compile(prove=False)"} for m in modules]}


def _dump(step: str, wanted: str | None, text, out) -> None:
    if step == wanted:
        print(f"// after {step}\n{text()}", file=out or sys.stdout, end="")


def _compute(program: HwProgram, target: CGRA, dump_after: str | None = None,
             out=None, streams: dict | None = None) -> tuple[dict, dict, dict[str, int], dict[str, dict[str, int]]]:
    """The compute JSON, each op's PE counts, each op's latency: its kernel's stages less one, plus the
    target's `pe_latency` registers after the last (0 for an op that only moves a value, `default_latency`), and
    the loads each op reads after it fires: a retimed accumulation's own element, read in its last stage.
    Each kernel gets the ranges of its ports and the widths its stage registers need (`annotate_widths`), from
    the values of the buffers it loads (`buffer_intervals`; `streams`: the input streams')."""
    nest = program.nest
    graphs = kernel_graphs(program, target, dump_after, out)
    counts = {}
    latencies = {}
    offsets: dict[str, dict[str, int]] = {}
    for _, op in nest.ops():
        mine = [g for o, g, _ in graphs if o is op]
        stages = max(g.graph.get("stages", 1) for g in mine)
        for g in mine:
            count = count_ops(g, target.word_bits)
            counts[op.name] = counts[op.name] + count if op.name in counts else count
        late = {p for g in mine for p in g.graph.get("late", ())}
        if late and stages > 1:
            offsets[op.name] = dict.fromkeys(sorted(late), stages - 1)
        moves = default_latency(op, target.pe_latency) == 0 and stages == 1
        # A RAM update writes a cycle after its address is out (the RAM reads the old word then, memories/ram.py);
        # a RAM lookup's word comes a cycle after its address.
        latencies[op.name] = stages if op.scatter else default_latency(op, target.pe_latency) if moves else \
            stages - 1 + target.pe_latency + (1 if op.lookup else 0)
    buffers = buffer_intervals(nest, [(op, g) for op, g, value in graphs if value], streams or {})
    modules: dict[str, dict] = {}
    for op, g, _ in graphs:
        doc = to_coreir_json(annotate_widths(g, kernel_inputs(op, nest, buffers)))
        modules.update(doc["namespaces"]["global"]["modules"])
    last = kernel_module(program.nest.ops()[-1][1].name)
    return {"top": f"global.{last}", "namespaces": {"global": {"modules": modules}}}, counts, latencies, offsets


def kernel_graphs(program: HwProgram, target: CGRA, dump_after: str | None = None,
                  out=None) -> list[tuple[Op, nx.MultiDiGraph, bool]]:
    """(op, its kernel's compiled graph, whether it is the op's value kernel) for each kernel of each op, in
    program order, pipelined for `target` (`hl.CGRA(pe_ops_per_stage=K)`).

    A RAM update reads and writes its word a cycle apart (memories/ram.py): its address kernel is pipelined (the
    RAM reads the old word when the address is out, its last stage) and its value kernel, combining the old word,
    stays whole. The address of a RAM read at computed coordinates, which the RAM takes as the op fires, stays
    whole too. An accumulation over a serial loop, whose next step reads what this one writes, is retimed: its
    operand is pipelined and its own element, read in the last stage, is combined there (assign_stages), so the
    steps still run one a cycle. Chained lanes (a reduction's unrolled part) and RAM lookups stay whole."""
    out_graphs = []
    for loops, op in program.nest.ops():
        own = _accumulates(loops, op)
        retimed = bool(own) and not op.lookup and not op.scatter and not _chained(loops, op)
        for kernel in op_kernels(op, program.nest):  # a RAM update or lookup has two: its value and its address
            address = kernel.name == address_module(op.name)
            ram_side = address if not op.scatter else not address  # a lookup's address, an update's value
            whole = ram_side or (bool(own) and not retimed and not op.scatter) or _scan_lanes(loops, op)
            g = compile_kernel(kernel, dump_after, out or sys.stdout, None if whole else target.pe_ops_per_stage,
                               target.word_bits, frozenset(own) if retimed and not whole else frozenset())
            out_graphs.append((op, g, not address))
    return out_graphs


def _accumulates(loops, op) -> tuple[str, ...]:
    """The loads of the element op writes, if a serial loop around it leaves that element in place: each step of
    that loop reads the previous step's result (a reduction that is not unrolled); else the loads of the element
    the firing before wrote, a scan's carried operand: a row scan's `s(r.x - 1, y)` (a 32-bit add's two PE stages
    took two cycles a pixel, the kernel's last stage reads it now), a scan merged with its pure definition
    (hwlower/scans.py) in host tiles one firing wide, whose select of the first row's value is on that path;
    else none."""
    own = tuple(p.name for p in op.loads if p.access.buffer == op.store.buffer and p.access.index == op.store.index)
    used = {v for a in op.store.index for v, _ in a.terms}
    if own and any(not lp.unrolled and lp.extent > 1 and lp.var not in used for lp in loops):
        return own
    return tuple(p.name for p in op.loads if p.access.buffer == op.store.buffer and _carried(loops, op, p.access))


def _carried(loops, op, access) -> bool:
    """Whether `access` reads op's buffer at a constant offset from the element it stores that the firing just
    before this one wrote (the scan's step is carried by the innermost serial loop of more than one step)."""
    serial = [lp for lp in loops if not lp.unrolled and lp.extent > 1]
    if not serial or any(a.terms != w.terms for a, w in zip(access.index, op.store.index)):
        return False
    inner = serial[-1].var
    delta = [a.const - w.const for a, w in zip(access.index, op.store.index)]
    moved = [dict(w.terms).get(inner, 0) for w in op.store.index]
    return any(delta) and all(d == -m for d, m in zip(delta, moved))


def _chained(loops, op) -> bool:
    """Whether op's lanes read each other's results in the same cycle: an unrolled loop leaves op's element in
    place (its lanes update one element in turn), or a scan runs along the lanes (each reads the one before)."""
    used = {v for a in op.store.index for v, _ in a.terms}
    return any(lp.unrolled and lp.extent > 1 and lp.var not in used for lp in loops) or _scan_lanes(loops, op)


def _scan_lanes(loops, op) -> bool:
    """Whether op reads its own buffer at a constant offset along a dimension that its lanes walk."""
    lanes = {lp.var for lp in loops if lp.unrolled and lp.extent > 1}
    return any(p.access.buffer == op.store.buffer and a.terms == w.terms and a.const != w.const
               and any(v in lanes for v, _ in w.terms)
               for p in op.loads for a, w in zip(p.access.index, op.store.index))


def _report(program: HwProgram, plan: MemoryPlan, pe_counts: dict, target: CGRA, seconds: float,
            bits: dict[str, int]) -> dict:
    tiles = len(program.tiles)
    streamed = plan.input_words * tiles
    ideal = ideal_cycles(program.nest, plan, tiles)
    image = sum(_size(s.image_box) for s in program.inputs)
    # a register bank's words and its read ports' output registers are registers, on no memory tile
    registers = sum(len(b.registers) + sum(k.words + sum(p.output_registers for p in k.read_ports)
                                           for k in b.banks if k.in_registers) for b in plan.buffers)
    mem_tiles = sum(bank.tiles * bank.slices for b in plan.buffers for bank in b.banks)
    roms = _rom_copies(program, pe_counts, target)
    mem_tiles += sum(k * -(-words // target.mem_tile_words) * -(-bits // target.word_bits) for words, bits, k in roms)
    return {
        "name": program.nest.name,
        # Tiles follow each other every plan.cycles; the run ends at the last tile's last output word.
        "predicted_cycles": (tiles - 1) * plan.cycles + plan.last_output_cycle + 1,
        "ideal_cycles": ideal,
        "tiles": tiles,
        "tile_cycles": plan.cycles,
        "halo_overhead": round(streamed / image - 1, 6) if image else 0.0,
        "first_output_cycle": plan.first_output_cycle,
        "compile_seconds": round(seconds, 3),
        "pes": sum(c.pe_ops * program.nest.op_lanes(n) for n, c in pe_counts.items()),  # a kernel per lane
        "const_words": sum(c.const_words * program.nest.op_lanes(n) for n, c in pe_counts.items()),
        "dividers": sum(c.dividers * program.nest.op_lanes(n) for n, c in pe_counts.items()),
        "mem_tiles": mem_tiles,
        "rom_words": sum(words * k for words, _, k in roms),
        "registers": registers,
        # Cycles from each op's loads to its store: its kernel's pipeline stages (hl.CGRA(pe_ops_per_stage=K)).
        "kernel_latency": {s.op: s.latency for s in plan.ops if not s.host},
        "schedule": plan.strategy,
        "ii_limits": list(plan.ii_limits),  # what keeps the ops from firing once per cycle (memories/ii_limit.py)
        "buffers": [
            # `bits`: the words' bits, registers at the width their values need (verilog.top_widths)
            {"name": b.name, "level": b.level, "words": b.words, "bits": bits[b.name], "min_words": b.min_words}
            for b in plan.buffers
        ],
    }


def _rom_copies(program: HwProgram, pe_counts: dict, target: CGRA) -> list[tuple[int, int, int]]:
    """(words, bits, copies) of each ROM (a constant table read at computed coordinates). Every kernel lane reads
    it at each of its ROM nodes' addresses in the same cycle, and a memory tile serves as many addresses a cycle as
    it has read ports, so the table is stored in as many alike tiles as its reads need: 2 lanes of `curve(p)`
    share one tile, 3 lanes take two."""
    sizes: dict[str, tuple[int, int]] = {}
    reads: dict[str, int] = {}
    for n, c in pe_counts.items():
        for table, size in c.roms.items():
            sizes[table] = size
            reads[table] = reads.get(table, 0) + c.rom_reads[table] * program.nest.op_lanes(n)
    return [(*sizes[t], -(-reads[t] // target.mem_tile_read_ports)) for t in sorted(sizes)]


def _size(box) -> int:
    n = 1
    for lo, hi in box:
        n *= hi - lo + 1
    return n


def _check_fits(name: str, report: dict, target: CGRA) -> None:
    for what, key, knob in (("PEs", "pes", "num_pes"), ("memory tiles", "mem_tiles", "num_mem_tiles")):
        have = getattr(target, knob)
        if report[key] > have:
            raise ScheduleError(
                f"{user_location()}: design '{name}' needs {report[key]} {what} but the target has {have}: "
                "reduce unrolling or "
                f"buffering, or compile for a larger target, e.g. hl.CGRA({knob}={report[key]})"
            )
