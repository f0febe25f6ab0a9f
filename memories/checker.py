"""Prove with isl that a memory plan computes the nest's values: the verifier run after `analyze`.

It trusts nothing the scheduler or mapper computed on the way: it rebuilds cycles and addresses from the plan's
plain facts (op schedules, port controllers, tap delays) and the exact value flows of the nest, and checks
1. every read happens at or after its value's write cycle (firing + latency);
2. every read port delivers exactly the value the flow says: a tap's delay equals the read's distance from the
   write in cycles, and a write tap's steps the root's writes before the read cycle minus the value's number;
   registers add one cycle (or write) each, delay-line ports follow their root stream;
3. in every bank, each read finds its value at its address (in its port's region) and no write to that address
   happens between the value's write and its read as the bank's kind defines it (read-first delay lines,
   forwarding addressed banks), and no port or op is used twice in one cycle, nor a tile given more ports or
   words than it has (bank read ports sharing a tile read port read in disjoint cycles). A chained bank's write
   port writes what its feeding read port is proven to load (memories/bank_values.py). Two banks sharing a
   tile (memories/shared_tiles.py) take apart words and port pairs of it.
   An addressed bank read port iterating before its op's box fires from cycle 0 on, in its iteration order.
4. a RAM (memories/ram.py) is written in its update op's write cycles, read at the elements its readers' loads
   name, and only after its last write.
A failure raises MemoryCheckError naming the buffer and the first violating point.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import NoReturn

import islpy as isl

from mainspring.hwlower.ir import LoopNest

from . import bank_values, checker_ram, checker_tiles
from .errors import MemoryCheckError
from .ir import (
    CONTROLLERS_PER_TILE_READ_PORT,
    Bank,
    BankPort,
    BufferPlan,
    Controller,
    Dim,
    MemoryPlan,
    OpSchedule,
    ReadPort,
    Steady,
)
from .isl_text import isl_map, isl_set
from .iteration_boxes import box_set
from .polyhedral import Flow, Program, build_program, point_values
from .timing import bounds, cycle_expr, dense_rates, formula_map, linear_map, piece_map, writes_before


def check_plan(nest: LoopNest, plan: MemoryPlan, prog: Program | None = None) -> None:
    """Raise MemoryCheckError unless `plan` is a correct schedule and mapping of `nest`."""
    ops = {s.op: s for s in plan.ops}
    if prog is None:
        prog = build_program(nest, lambda op: ops[op.name].latency if op.name in ops else 0,
                             {s.op: dict(s.read_offsets) for s in plan.ops})
    _check_ops(prog, plan, ops)
    # Dependences first: a wrong delay is best reported as the read it breaks.
    rams = [b for b in plan.buffers if b.init is not None]
    for buf in rams:
        checker_ram.check_ram(buf, prog, ops, plan.target)
    plain = [b for b in plan.buffers if b.init is None]
    for buf in plain:
        for f in prog.flows:
            if f.buffer == buf.name and not f.streamed_out:
                _check_dependence(buf, f, ops)
    for buf in plain:
        flows = [f for f in prog.flows if f.buffer == buf.name]
        _check_streams(buf, flows, prog, ops)
        for f in flows:
            if not f.streamed_out:
                _check_read_ports(buf, f, ops)
        _check_elements(buf)
        for bank in buf.banks:
            _check_bank(buf, bank, plan, prog, ops)
    _check_coords(plan, prog, ops)
    _check_period(plan)


def _fail(buf: str, message: str) -> NoReturn:
    raise MemoryCheckError(f"memories check: buffer '{buf}': {message}")


def _lane(lane: tuple[int, ...]) -> str:
    return f" lane {list(lane)}" if lane else ""


def _at(dims: tuple[Dim, ...], values: list[int]) -> str:
    if not values:
        return "[" + ", ".join(f"{d.var} in {d.min}..{d.min + d.extent - 1}" for d in dims) + "]"
    return "[" + ", ".join(f"{d.var}={v}" for d, v in zip(dims, values)) + "]"


# ---- cycles and addresses from plain facts --------------------------------------------------------------

def _op_cycles(s: OpSchedule, name: str, extra: int = 0) -> isl.Map:
    return piece_map(name, s.dims, s.rates, s.delay + extra, _then(s, extra))


def _then(s: OpSchedule, extra: int) -> Steady | None:
    return None if s.then is None else Steady(s.then.steps, s.then.start + extra, s.then.rates)


@functools.lru_cache(maxsize=4096)
def _ctrl_map(name: str, dims: tuple[Dim, ...], c: Controller, data: bool) -> isl.Map:
    """{ name[t] -> [cycle or address] } of a controller iterating the op coordinates `dims`."""
    n = len(dims)
    start, strides = (c.data_starting_addr, c.data_stride) if data else (c.cycle_starting_addr, c.cycle_stride)
    terms = [f"{strides[k]}*floor((t{n - 1 - k} - {d.min})/{d.step})"
             for k, d in ((k, dims[n - 1 - k]) for k in range(n))]
    ts = ", ".join(f"t{k}" for k in range(n))
    whole = isl_map(f"{{ {name}[{ts}] -> [{' + '.join(terms + [str(start)])}] : {bounds(dims)} }}")
    if data or c.then is None:
        return whole
    # a two-piece controller: its outermost dim's steps from `then.steps` on at the second piece's strides
    d0, split = dims[0], dims[0].min + dims[0].step * c.then.steps
    rest = [f"{c.then.rates[k]}*floor((t{n - 1 - k} - {d.min})/{d.step})"
            for k, d in ((k, dims[n - 1 - k]) for k in range(n - 1))]
    outer = f"{c.then.rates[n - 1]}*(floor((t0 - {d0.min})/{d0.step}) - {c.then.steps})"
    second = isl_map(f"{{ {name}[{ts}] -> [{' + '.join(rest + [outer, str(c.then.start)])}] : {bounds(dims)} "
                     f"and t0 >= {split} }}")
    return whole.intersect_domain(isl_set(f"{{ {name}[{ts}] : t0 < {split} }}")).union(second).coalesce()


def _follow(buf: str, port: str, name: str, dims: tuple[Dim, ...], c: Controller, op: OpSchedule,
            extra: int, before: bool = False) -> None:
    """The controller must access in the cycle op fires + extra, at every iteration of `dims`; with `before`
    (an addressed bank read port rooting registers), also at iterations before the op's box, in the cycles its
    schedule's formula gives them (words its registers deliver later)."""
    if tuple(c.extent) != (tuple(d.extent for d in reversed(dims)) or (1,)):
        _fail(buf, f"port {port} iterates extents {list(c.extent)}, not its domain {_at(dims, [])}")
    formula = formula_map(name, op.dims, op.rates, op.delay + extra, _then(op, extra)) if before \
        else _op_cycles(op, name, extra)
    own = formula.intersect_domain(_ctrl_map(name, dims, c, False).domain())
    ctrl = _ctrl_map(name, dims, c, False)
    differ = ctrl.subtract(own).domain().union(own.subtract(ctrl).domain())
    if not differ.is_empty():
        _fail(buf, f"port {port} does not follow op '{op.op}' fired + {extra} cycles, first at "
                   f"{_at(dims, point_values(differ.lexmin()))}")
    if before:
        _in_order(buf, port, dims, ctrl)


def _in_order(buf: str, port: str, dims: tuple[Dim, ...], ctrl: isl.Map) -> None:
    """A port iterating before its op's box fires in cycles the op's box does not vouch for: the controller
    (ms_ctrl_when) finds its first firing by comparing the cycle with its start once, then counts down the gaps,
    so they must be at or after cycle 0 and increase along its iterations (distinct is not enough)."""
    early = ctrl.intersect_range(isl_set("{ [c] : c < 0 }")).domain()
    if not early.is_empty():
        _fail(buf, f"port {port} fires before cycle 0 at {_at(dims, point_values(early.lexmin()))}")
    dom = ctrl.domain()
    order = _pairs(dom.lex_lt_set(dom), ctrl, ctrl).intersect_range(isl_set("{ [a, b] : a >= b }")).domain()
    if not order.is_empty():
        bad = point_values(order.lexmin())
        _fail(buf, f"port {port} fires at {_at(dims, bad[len(dims):])} no later than at "
                   f"{_at(dims, bad[:len(dims)])}, before it in its iteration order")


def _pairs(rel: isl.Map, left: isl.Map, right: isl.Map) -> isl.Map:
    """{ [p -> c] -> [left(p), right(c)] } over the pairs of `rel`."""
    return rel.domain_map().apply_range(left).flat_range_product(rel.range_map().apply_range(right))


def _first(viol: isl.Set) -> list[int] | None:
    return None if viol.is_empty() else point_values(viol.lexmin())


# ---- ops and streams ------------------------------------------------------------------------------------

def _check_ops(prog: Program, plan: MemoryPlan, ops: dict[str, OpSchedule]) -> None:
    hosts = [ops[s.name].delay for s in prog.stmts if s.is_host and s.name in ops and s.name != "host.out"]
    first = min(hosts, default=0)  # the run's first word: at cycle 0
    for s in prog.stmts:
        if s.name == "host.out":
            continue
        o = ops.get(s.name)
        if o is None or o.dims != s.time_dims or o.lanes != s.lane_dims or len(o.rates) != len(o.dims):
            raise MemoryCheckError(f"memories check: op '{s.name}' has no schedule over its loops {s.time_dims}")
        # a stream read only in a second pass starts late (memories/late_streams.py); the first starts at cycle 0
        if s.is_host and (o.delay < 0 or first != 0 or o.latency != 0 or not _in_stream_order(o)):
            raise MemoryCheckError(f"memories check: op '{s.name}' is not the host's stream (words in box order, x "
                                   f"fastest, from cycle 0, or later than another stream): delay {o.delay}, "
                                   f"rates {o.rates}")
        if o.delay < 0:
            raise MemoryCheckError(f"memories check: op '{s.name}' fires before cycle 0 (delay {o.delay})")
        if not _op_cycles(o, s.time_name).is_injective():
            raise MemoryCheckError(f"memories check: op '{s.name}' fires twice in one cycle (rates {o.rates})")


def _check_coords(plan: MemoryPlan, prog: Program, ops: dict[str, OpSchedule]) -> None:
    """A coordinate's counter advances only when it fires, so it must fire exactly when its op does (both pieces
    of a two-piece schedule): else the op reads another iteration's coordinate."""
    names = {s.name: s.time_name for s in prog.stmts}
    for c in plan.coords:
        o = ops[c.op]
        _follow(f"coordinate {c.name} of {c.op}", c.name, names[c.op], o.dims, c.controller, o, 0)


def _check_period(plan: MemoryPlan) -> None:
    """Invocations (host tiles, frames) follow each other every plan.cycles cycles: an op or a stream word past
    that would belong to the next invocation (the host streams every word of a box, read or not)."""
    for o in plan.ops:
        if o.last_cycle + o.latency >= plan.cycles:
            raise MemoryCheckError(f"memories check: op '{o.op}' ends at cycle {o.last_cycle + o.latency}, "
                                   f"after the invocation's {plan.cycles} cycles")


def _in_stream_order(o: OpSchedule) -> bool:
    """The host's words fire in box order (x fastest), at most one per cycle: one per cycle (dense), or paced
    slower for an upsample's consumer."""
    for k, q in enumerate(o.rates):
        inner = sum(r * (d.extent - 1) for r, d in zip(o.rates[k + 1:], o.dims[k + 1:]))
        if q < 1 or q <= inner:
            return False
    return True


def _check_streams(buf: BufferPlan, flows: list[Flow], prog: Program, ops: dict[str, OpSchedule]) -> None:
    ports = {(p.op, p.lane): p for p in buf.write_ports}
    for p in buf.write_ports:
        op = ops[p.op]
        _follow(buf.name, p.name, prog.stmt(p.op).time_name, op.dims, p.controller, op, op.latency)
    for f in flows:
        src = ports.get((f.src.name, f.src_lane))
        if src is None:
            _fail(buf.name, f"op '{f.src.name}'{_lane(f.src_lane)} writes values that are read but has no write port")
        if f.streamed_out and src.name not in buf.output_ports:
            _fail(buf.name, f"write port {src.name} writes final output values but is not streamed out")


def _check_dependence(buf: BufferPlan, f: Flow, ops: dict[str, OpSchedule]) -> None:
    src, dst = ops[f.src.name], ops[f.dst.name]
    both = _pairs(f.rel, _op_cycles(src, f.src.time_name, src.latency),
                  _op_cycles(dst, f.dst.time_name, f.read_offset))
    bad = _first(both.intersect_range(isl_set("{ [w, r] : r < w }")).domain())
    if bad is not None:
        n = len(f.src.time_dims)
        _fail(buf.name, f"op '{f.dst.name}' load '{f.load}'{_lane(f.dst_lane)} at {_at(f.dst.time_dims, bad[n:])} "
                        f"(cycle {dst.cycle(tuple(bad[n:]))}) reads the value op '{f.src.name}' writes at "
                        f"{_at(f.src.time_dims, bad[:n])} in cycle {src.cycle(tuple(bad[:n])) + src.latency}: "
                        "read before write")


def _check_read_ports(buf: BufferPlan, f: Flow, ops: dict[str, OpSchedule]) -> None:
    src, dst = ops[f.src.name], ops[f.dst.name]
    wname = next(p.name for p in buf.write_ports if (p.op, p.lane) == (f.src.name, f.src_lane))
    mine = [p for p in buf.read_ports if (p.op, p.load, p.lane, p.source) == (f.dst.name, f.load, f.dst_lane, wname)]
    covered = isl.Set.empty(f.rel.range().get_space())
    for p in mine:
        dom = box_set(f.dst.time_name, p.domain)
        if not covered.intersect(dom).is_empty():
            _fail(buf.name, f"read ports of op '{f.dst.name}' load '{f.load}' overlap at {p.name}")
        covered = covered.union(dom)
        if p.delay is not None:
            rel = f.rel.intersect_range(dom)
            both = _pairs(rel, _op_cycles(src, f.src.time_name, src.latency),
                          _op_cycles(dst, f.dst.time_name, f.read_offset))
            bad = _first(both.intersect_range(isl_set(f"{{ [w, r] : r - w != {p.delay} }}")).domain())
            if bad is not None:
                n = len(f.src.time_dims)
                _fail(buf.name, f"read port {p.name} (tap {p.tap}, delay {p.delay}) at "
                                f"{_at(f.dst.time_dims, bad[n:])} in cycle {dst.cycle(tuple(bad[n:]))} must deliver "
                                f"the value op '{f.src.name}' writes at {_at(f.src.time_dims, bad[:n])} in cycle "
                                f"{src.cycle(tuple(bad[:n])) + src.latency}, but the tap delivers another value")
        if p.steps is not None:
            _check_steps(buf, p, f.rel.intersect_range(dom), src, dst, f)
        _follow(buf.name, p.name, f.dst.time_name, p.domain, p.controller, dst, f.read_offset)
    missing = f.rel.range().subtract(covered)
    if not missing.is_empty():
        _fail(buf.name, f"op '{f.dst.name}' load '{f.load}'{_lane(f.dst_lane)} has no read port at "
                        f"{_at(f.dst.time_dims, point_values(missing.lexmin()))}")


def _check_steps(buf: BufferPlan, p: ReadPort, rel: isl.Map, src: OpSchedule, dst: OpSchedule, f: Flow) -> None:
    """A write tap: each read of value number v happens in a cycle before which the root wrote v + steps."""
    written = _op_cycles(src, f.src.time_name, src.latency)
    read = rel.apply_range(_op_cycles(dst, f.dst.time_name, f.read_offset))
    steps = read.apply_range(writes_before(written, src.dims)).apply_domain(linear_map(f.src.time_name, src.dims))
    wrong = steps.deltas().subtract(isl_set(f"{{ [{p.steps}] }}"))
    if not wrong.is_empty():
        _fail(buf.name, f"read port {p.name} (write tap {p.tap}, {p.steps} writes) reads some values "
                        f"{point_values(wrong.lexmin())[0]} writes after theirs")


# ---- taps, registers and banks --------------------------------------------------------------------------

def _check_elements(buf: BufferPlan) -> None:
    """Every tap element delivers its root stream at the delay the read ports rely on: (root, gated, delay)."""
    wires = {p.name for p in buf.write_ports}
    addressed = {p.name for b in buf.banks if b.kind == "addressed" for p in b.read_ports}
    delay: dict[str, tuple[str | None, bool, int | None]] = {}  # element -> (root, gated, delay)
    for b in buf.banks:
        if b.kind == "delay_line":
            delay |= {p.name: (b.root, b.gated, p.delay) for p in b.read_ports}
        if b.kind == "addressed":  # the root of registers after it (`_register_values` proves their words)
            delay |= {p.name: (p.name, False, 0) for p in b.read_ports}

    def delivers(element: str | None, want: tuple[str | None, bool, int | None]) -> bool:
        if element is None:  # a bank write port fed by nothing
            return False
        if element in addressed:  # the root of gated registers too (the word of each run it loads)
            return element == want[0] and want[2] == 0
        return element == want[0] and want[2] == 0 if element in wires else delay.get(element) == want

    for r in buf.registers:
        if not delivers(r.source, (r.root, r.gated, r.delay - 1)):
            _fail(buf.name, f"register {r.name} (delay {r.delay} after {r.root}) is fed by {r.source} = "
                            f"{delay.get(r.source)}")
        delay[r.name] = (r.root, r.gated, r.delay)
    for p in buf.read_ports:
        root = delay.get(p.tap, (None, False, None))
        if p.delay is None and p.steps is None and p.tap not in addressed and root[0] not in addressed:
            _fail(buf.name, f"read port {p.name} reads an addressed bank through {p.tap}, neither a bank read port "
                            "nor a register after one")
        want = (p.source, p.steps is not None, p.delay if p.steps is None else p.steps)
        if (p.delay is not None or p.steps is not None) and not delivers(p.tap, want):
            _fail(buf.name, f"read port {p.name} expects {p.source} delayed {want[2]} "
                            f"{'writes' if want[1] else 'cycles'} from {p.tap}, which delivers {delay.get(p.tap)}")
    for b in buf.banks:
        if b.kind == "delay_line":
            for w in b.write_ports:
                if not delivers(w.source, (b.root, b.gated, w.delay)):
                    _fail(buf.name, f"bank {b.name} is fed by {w.source}, not {b.root} delayed {w.delay}")


def _check_bank(buf: BufferPlan, bank: Bank, plan: MemoryPlan, prog: Program, ops: dict[str, OpSchedule]) -> None:
    t = plan.target
    if len(bank.write_ports) > t.mem_tile_write_ports or len(bank.tile_read_ports) > t.mem_tile_read_ports:
        reads = len(bank.tile_read_ports)
        _fail(buf.name, f"bank {bank.name} has {len(bank.write_ports)} write and {reads} read ports; a tile has "
                        f"{t.mem_tile_write_ports} and {t.mem_tile_read_ports}")
    if bank.in_registers:
        if bank.kind != "addressed" or bank.tiles:
            _fail(buf.name, f"register bank {bank.name} must be an addressed bank on no tile, not {bank.kind} on "
                            f"{bank.tiles} tiles")
    elif bank.host is not None:
        checker_tiles.check_guest(buf, bank, plan)
    elif bank.words > bank.tiles * t.mem_tile_words or bank.words < 1:
        _fail(buf.name, f"bank {bank.name} holds {bank.words} words in {bank.tiles} tiles of {t.mem_tile_words}")
    checker_tiles.check_direct(buf, bank)
    names = {}
    for k, p in enumerate(bank.write_ports + bank.read_ports):
        names[p.name] = f"P{k}"
        op = ops[p.op]
        first, words = p.region
        if first < 0 or words < 1 or first + words > bank.words:
            _fail(buf.name, f"bank port {p.name} addresses words {first}..{first + words - 1} of {bank.words}")
        if bank.gated and p.kind == "read" and p.domain != op.dims:
            _fail(buf.name, f"gated delay-line port {p.name} must read after every write of {bank.root} (it holds "
                            f"its word until the next), not only over {_at(p.domain, [])}")
        fed = _chained_source(buf, bank, p) if p.kind == "write" else None
        _follow(buf.name, p.name, names[p.name], p.domain, p.controller, op, _port_shift(bank, p, op, fed),
                before=bank.kind == "addressed" and (p.kind == "read" or fed is not None))
        if not _ctrl_map(names[p.name], p.domain, p.controller, False).is_injective():
            _fail(buf.name, f"bank port {p.name} is used more than once in a cycle")
    _check_shared_tile_ports(buf, bank, names)
    loaded = bank_values.fed_values(buf, bank, prog, ops) if bank.kind == "addressed" else {}
    for r in bank.read_ports:
        covered = None
        for w, expected in _expected_values(buf, bank, r, prog, names, loaded):
            _check_bank_read(buf, bank, r, w, expected, names)
            covered = expected.domain() if covered is None else covered.union(expected.domain())
        if bank.kind == "addressed":
            _check_registers_served(buf, bank, r, prog, names, ops, loaded)
            _check_served(buf, bank, r, prog, names[r.name], covered)


def _chained_source(buf: BufferPlan, bank: Bank, w: BankPort) -> BankPort | None:
    """The read port of another addressed bank feeding addressed bank write port w (None: the stream of w's op and
    lane feeds it): w must write in cycles its feeder loads, at the feeder's iterations, so that the word it
    writes is the one the feeder loads there (verilog/top.py wires the feeder's output register to it)."""
    if bank.kind != "addressed":
        return None
    if any(p.name == w.source and (p.op, p.lane) == (w.op, w.lane) for p in buf.write_ports):
        return None
    fed = bank_values.feeder(buf, w)
    if fed is None or (fed.op, fed.lane) != (w.op, w.lane) or fed in bank.read_ports:
        _fail(buf.name, f"bank {bank.name} write port {w.name} is fed by {w.source}, neither the write port of op "
                        f"'{w.op}'{_lane(w.lane)} nor a read port of another addressed bank of that op and lane")
    mine, its = (_ctrl_map("C", p.domain, p.controller, False) for p in (w, fed))
    if not mine.is_subset(its):
        bad = point_values(mine.subtract(its).domain().lexmin())
        _fail(buf.name, f"bank {bank.name} write port {w.name} at {_at(w.domain, bad)} writes in a cycle its feeder "
                        f"{fed.name} does not load at that iteration")
    return fed


def _check_shared_tile_ports(buf: BufferPlan, bank: Bank, names: dict[str, str]) -> None:
    """Bank read ports sharing a tile read port (and its output register) read in disjoint cycles, an addressed
    bank's, at most a tile read port's controllers on each."""
    tile_ports = {p.name for p in bank.tile_read_ports}
    for p in bank.read_ports:
        if p.shares is not None and (bank.kind != "addressed" or p.shares not in tile_ports):
            _fail(buf.name, f"bank {bank.name} read port {p.name} shares {p.shares}, not a tile read port of this "
                            "addressed bank")
    for owner, ports in _sharing(bank).items():
        if len(ports) > CONTROLLERS_PER_TILE_READ_PORT:
            _fail(buf.name, f"bank {bank.name}: tile read port {owner} serves {len(ports)} bank read ports; a tile "
                            f"read port has {CONTROLLERS_PER_TILE_READ_PORT} controllers")
    clash = shared_collision(bank)
    if clash is not None:
        port, owner, cycle = clash
        _fail(buf.name, f"bank {bank.name}: {port} reads through tile read port {owner} in cycle {cycle}, when "
                        "another of its bank read ports reads")


def _sharing(bank: Bank) -> dict[str, list[BankPort]]:
    """Each tile read port's bank read ports: its own, then those sharing it."""
    users = {p.name: [p] for p in bank.tile_read_ports}
    for p in bank.read_ports:
        if p.shares in users:
            users[p.shares].append(p)
    return users


def shared_collision(bank: Bank) -> tuple[str, str, int] | None:
    """(bank read port, the tile read port it shares, the first cycle) where two bank read ports on one tile read
    port read in the same cycle, or None (also asked by mapping, of an organisation it tries)."""
    for owner, ports in _sharing(bank).items():
        busy = None
        for p in ports:
            cycles = _ctrl_map("S", p.domain, p.controller, False).range()
            if busy is not None and not busy.intersect(cycles).is_empty():
                return p.name, owner, point_values(busy.intersect(cycles).lexmin())[0]
            busy = cycles if busy is None else busy.union(cycles)
    return None


def _check_served(buf: BufferPlan, bank: Bank, r: BankPort, prog: Program, name: str,
                  covered: isl.Set | None) -> None:
    """Every value an addressed read port loads comes from a write port of its region (the checks above only
    look at the write ports that are there)."""
    dom = box_set(name, r.domain)
    for f in prog.flows:
        if f.buffer == buf.name and f.dst.name == r.op and f.load == r.load and f.dst_lane in (r.lane, *r.shared):
            need = f.rel.range().set_tuple_name(name).intersect(dom)
            left = need if covered is None else need.subtract(covered)
            if not left.is_empty():
                _fail(buf.name, f"bank {bank.name} read port {r.name} at {_at(r.domain, point_values(left.lexmin()))} "
                                "needs a value no write port of its region writes")


def _check_registers_served(buf: BufferPlan, bank: Bank, r: BankPort, prog: Program, names: dict[str, str],
                            ops: dict[str, OpSchedule], fed: bank_values.Fed) -> None:
    """The words the registers after addressed bank read port r deliver are found there, each written by a write
    port of r's region (a chained bank's feeder is trusted for these values only so)."""
    rn = names[r.name]
    wanted = list(bank_values.register_values(buf, r, prog, rn, ops))
    covered = None
    for w, expected in bank_values.through(bank, r, wanted, names, fed):
        _check_bank_read(buf, bank, r, w, expected, names)
        covered = expected.domain() if covered is None else covered.union(expected.domain())
    for _, m in wanted:
        left = m.domain() if covered is None else m.domain().subtract(covered)
        if not left.is_empty():
            _fail(buf.name, f"bank {bank.name} read port {r.name} at {_at(r.domain, point_values(left.lexmin()))} "
                            "loads a word for its registers that no write port of its region writes")


def _port_shift(bank: Bank, p: BankPort, op: OpSchedule, fed: BankPort | None = None) -> int:
    """Cycles after its op fires in which a port writes, or a read port loads its output register (a chained
    bank's write port writes as its feeding read port `fed` loads)."""
    if bank.kind == "addressed":
        if fed is not None:
            return op.read_offset(fed.load or "")
        return op.latency if p.kind == "write" else op.read_offset(p.load or "")
    if bank.gated:  # the root's write cycles; reads load in the cycle after each
        return op.latency + (1 if p.kind == "read" else 0)
    assert p.delay is not None, f"delay-line port {p.name} has no delay"
    return op.latency + p.delay


def _expected_values(buf: BufferPlan, bank: Bank, r: BankPort, prog: Program, names: dict[str, str],
                     fed: bank_values.Fed) -> Iterator[tuple[BankPort, isl.Map]]:
    """(write port, { read iteration -> write iteration }) for the values `r` must return (`fed`: an addressed
    bank's `bank_values.fed_values`)."""
    if bank.kind == "delay_line":
        mine = [w for w in bank.write_ports if w.region == r.region]
        if len(mine) != 1:
            _fail(buf.name, f"bank {bank.name} read port {r.name} shares its region {r.region} with "
                            f"{len(mine)} write ports, not one")
        (w,) = mine
        ts = ", ".join(f"t{k}" for k in range(len(r.domain)))
        us = ", ".join(f"u{k}" for k in range(len(w.domain)))
        cond = f"{bounds(r.domain)} and {bounds(w.domain, 'u')}"
        if bank.gated:  # read number i loads the value of number i + 1 - delay, written at number value + w.delay
            assert r.delay is not None and w.delay is not None, f"delay-line ports {r.name}, {w.name} have no delay"
            lr = cycle_expr(r.domain, dense_rates(r.domain), 0)
            lw = cycle_expr(w.domain, dense_rates(w.domain), 0, "u")
            cond += f" and {lw} = {lr} + {1 - r.delay + w.delay} and {lw} >= {w.delay}"
        else:
            cond += " and " + " and ".join([f"u{k} = t{k}" for k in range(len(r.domain))] or ["true"])
        yield w, isl_map(f"{{ {names[r.name]}[{ts}] -> {names[w.name]}[{us}] : {cond} }}")
        return
    yield from bank_values.through(bank, r, bank_values.flow_values(buf, r, prog, names[r.name]), names, fed)


def _check_bank_read(buf: BufferPlan, bank: Bank, r: BankPort, w: BankPort, expected: isl.Map,
                     names: dict[str, str]) -> None:
    """Read port `r` of `bank` finds each value it is `expected` to read from write port `w` (read -> write
    iterations), at its address, not overwritten since by any write port of the bank."""
    # A proof that passed is kept by everything it reads (the ports are plain values, `expected` by its text): a
    # process compiles the same design again (the autoscheduler's budget, then the user; a pasted schedule).
    key = (bank.kind, r, w, bank.write_ports, expected.to_str(),
           tuple(names[p.name] for p in (r, w, *bank.write_ports)))
    if key not in _READS_PROVED:
        _prove_bank_read(buf, bank, r, w, expected, names)
        if len(_READS_PROVED) >= 16384:
            _READS_PROVED.clear()
        _READS_PROVED.add(key)


_READS_PROVED: set[tuple] = set()


def _prove_bank_read(buf: BufferPlan, bank: Bank, r: BankPort, w: BankPort, expected: isl.Map,
                     names: dict[str, str]) -> None:
    rn, wn = names[r.name], names[w.name]
    w_dom = _ctrl_map(wn, w.domain, w.controller, False).domain()
    unwritten = expected.subtract_range(w_dom)
    if not unwritten.is_empty():
        pt = point_values(unwritten.domain().lexmin())
        _fail(buf.name, f"bank {bank.name} read port {r.name} at {_at(r.domain, pt)} needs a value its write port "
                        f"{w.name} never writes")
    rc, ra = _ctrl_map(rn, r.domain, r.controller, False), _ctrl_map(rn, r.domain, r.controller, True)
    wc, wa = _ctrl_map(wn, w.domain, w.controller, False), _ctrl_map(wn, w.domain, w.controller, True)
    # [read -> write] -> [write cycle, read cycle, write address, read address]
    quad = _pairs(expected.reverse(), wc, rc).flat_range_product(_pairs(expected.reverse(), wa, ra))
    # Delay lines read first, a cycle before the load: a write then is not seen. Addressed banks forward it.
    early, last = (1, "rc - 2") if bank.kind == "delay_line" else (0, "rc - 1")
    same = f"{_phys('wa', w)} = {_phys('ra', r)}"
    bad = _first(quad.intersect_range(isl_set(
        f"{{ [wc, rc, wa, ra] : rc <= wc + {early} or not ({same}) }}")).domain())
    if bad is not None:
        _fail(buf.name, f"bank {bank.name} read port {r.name} at {_at(r.domain, bad[len(w.domain):])} does not find "
                        f"the value written by {w.name} at {_at(w.domain, bad[:len(w.domain)])} (read not after "
                        f"the write, or at another address)")
    for other in bank.write_ports:
        on = names[other.name]
        oc = _ctrl_map(on, other.domain, other.controller, False)
        oa = _ctrl_map(on, other.domain, other.controller, True)
        clobber = quad.wrap().flat_product(oc.flat_range_product(oa).wrap())
        k = len(w.domain) + len(r.domain)
        tail = [f"v{j}" for j in range(len(other.domain))]
        space = [f"u{j}" for j in range(k)] + ["wc", "rc", "wa", "ra"] + tail + ["oc", "oa"]
        after = "wc < oc" if other is w else "wc <= oc"  # another port writing the same word in one cycle too
        cond = f"{after} <= {last} and {_phys('oa', other)} = {_phys('ra', r)}"
        bad = _first(clobber.intersect(isl_set(f"{{ [{', '.join(space)}] : {cond} }}")))
        if bad is not None:
            _fail(buf.name, f"bank {bank.name} ({bank.words} words): the value {w.name} writes at "
                            f"{_at(w.domain, bad[:len(w.domain)])} is overwritten by {other.name} at "
                            f"{_at(other.domain, bad[k + 4:k + 4 + len(other.domain)])} (cycle {bad[-2]}) before "
                            f"read port {r.name} reads it at {_at(r.domain, bad[len(w.domain):k])} "
                            f"(cycle {bad[k + 1]})")


def _phys(addr: str, p: BankPort) -> str:
    """The SRAM word a port's address selects: its region's first word plus the address modulo the region."""
    return f"(({addr}) mod {p.region[1]}) + {p.region[0]}"


# ---- RAMs (memories/ram.py) ------------------------------------------------------------------------------
