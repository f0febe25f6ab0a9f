"""Build the polyhedral model of a loop nest: iteration domains, access maps and exact value flows.

Statements are the nest's ops plus two kinds of host pseudo-statements: `host.<buffer>` writes each input
buffer (its box, x fastest; a stream of k lanes as k-word transfers, the word in a transfer its lane dim), and
`host.out` reads the output buffer after it, so the value
flows into it are exactly the final values that are streamed out.

isl names: a statement's full domain (every enclosing loop, unrolled ones included, outermost first) is the
tuple `F<k>`; its time-only domain (unrolled loops fixed to one lane and dropped) is `S<k>`. Flows are between
time-only tuples of one lane each, because each lane of an unrolled loop is a separate hardware port.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from mainspring.frontend import ir as fir
from mainspring.hwlower.ir import Affine, Loop, LoopNest, Op

from .ir import Dim, InternalRead
from .isl_text import dataflow, isl_map, isl_set, isl_union_map

HOST_OUT = "host.out"


@dataclass(frozen=True, eq=False)
class Stmt:
    name: str
    index: int  # program order, host inputs first, host.out last
    op: Op | None
    buffer: str | None  # host statements: the buffer streamed
    loops: tuple[Dim, ...]  # every enclosing loop, outermost first
    unrolled: tuple[bool, ...]
    position: tuple[int, ...]  # child index at each nesting level (len(loops) + 1 entries)
    latency: int
    # (load, cycles): loads read that many cycles after the op fires (a retimed accumulation reads its own
    # element in its kernel's last stage); every other load reads as it fires
    read_offsets: tuple[tuple[str, int], ...] = ()

    def read_offset(self, load: str) -> int:
        """Cycles from the op's firing to the read of its load `load`."""
        return dict(self.read_offsets).get(load, 0)

    @property
    def full_name(self) -> str:
        return f"F{self.index}"

    @property
    def time_name(self) -> str:
        return f"S{self.index}"

    @property
    def is_host(self) -> bool:
        return self.op is None

    @property
    def stream(self) -> str:
        """The buffer a host statement streams."""
        assert self.buffer is not None, f"'{self.name}' is an op, not a host statement"
        return self.buffer

    @property
    def time_dims(self) -> tuple[Dim, ...]:
        return tuple(d for d, u in zip(self.loops, self.unrolled) if not u)

    @property
    def lane_dims(self) -> tuple[Dim, ...]:
        return tuple(d for d, u in zip(self.loops, self.unrolled) if u)

    def lanes(self) -> list[tuple[int, ...]]:
        return list(itertools.product(*(range(d.min, d.min + d.extent) for d in self.lane_dims)))

    def full_vars(self) -> dict[str, str]:
        return {d.var: f"i{k}" for k, d in enumerate(self.loops)}

    def full_set(self) -> isl.Set:
        names = [f"i{k}" for k in range(len(self.loops))]
        return isl_set(f"{{ {self.full_name}[{', '.join(names)}] : {_bounds(names, self.loops)} }}")

    def time_set(self) -> isl.Set:
        return time_set(self.time_name, self.time_dims)

    def lane_projection(self, tuple_name: str, lane: tuple[int, ...]) -> isl.Map:
        """{ <tuple_name>[all loops] -> S<k>[time loops] : lane loops == lane }."""
        names = [f"i{k}" for k in range(len(self.loops))]
        time = [n for n, u in zip(names, self.unrolled) if not u]
        fixed = [f"{n} = {v}" for n, v in zip([n for n, u in zip(names, self.unrolled) if u], lane)]
        cond = " and ".join([_bounds(names, self.loops)] + fixed)
        return isl_map(f"{{ {tuple_name}[{', '.join(names)}] -> {self.time_name}[{', '.join(time)}] : {cond} }}")


@dataclass(frozen=True, eq=False)
class Access:
    stmt: Stmt
    name: str  # "store" or the load port's name
    buffer: str
    index: tuple[Affine, ...]  # over the statement's loop vars, x first
    is_write: bool
    guard: tuple[tuple[Affine, int, int], ...] = ()  # a load used only where lo <= e <= hi (hwlower.ir.Access)

    def map(self, tuple_name: str) -> isl.Map:
        """{ <tuple_name>[all loops] -> <buffer>[index] } over the statement's full domain (a guarded load's
        iterations only where its guard holds: elsewhere its value is never used)."""
        env = self.stmt.full_vars()
        names = [f"i{k}" for k in range(len(self.stmt.loops))]
        idx = ", ".join(affine_str(a, env) for a in self.index)
        where = [_bounds(names, self.stmt.loops)]
        where += [f"{lo} <= {affine_str(e, env)} <= {hi}" for e, lo, hi in self.guard]
        return isl_map(f"{{ {tuple_name}[{', '.join(names)}] -> B[{idx}] : {' and '.join(where)} }}")


@dataclass(frozen=True, eq=False)
class Flow:
    """Values written by one lane of a store and read by one lane of a load (or streamed out)."""

    buffer: str
    src: Stmt
    src_lane: tuple[int, ...]
    dst: Stmt
    load: str  # the load port's name ("host" for host.out)
    dst_lane: tuple[int, ...]
    rel: isl.Map  # { S<src>[t] -> S<dst>[t] }, exact: each read instance has exactly one source

    @property
    def streamed_out(self) -> bool:
        return self.dst.name == HOST_OUT

    @property
    def read_offset(self) -> int:
        """Cycles from the reader's firing to its read (`Stmt.read_offsets`)."""
        return 0 if self.streamed_out else self.dst.read_offset(self.load)


@dataclass(frozen=True, eq=False)
class Program:
    nest: LoopNest
    stmts: tuple[Stmt, ...]
    accesses: tuple[Access, ...]  # affine ones: a RAM update's store and its read of the old value have none
    flows: tuple[Flow, ...]
    internal: tuple[InternalRead, ...]
    # RAM buffers (`hwlower.ir.Buffer.init`): from each op updating it at computed coordinates to the next, and
    # from the last to each lane of each load of its readers, every update instance to every read instance (the
    # element is known only at run time, so each read follows the last update). Orders for the schedule, not
    # value flows: no tap serves them (memories/ram.py tells the orders between updates by their dst storing it).
    orders: tuple[Flow, ...] = ()

    def stmt(self, name: str) -> Stmt:
        for s in self.stmts:
            if s.name == name:
                return s
        raise KeyError(name)


def affine_str(a: Affine, env: dict[str, str]) -> str:
    parts = [f"{c}*{env[v]}" for v, c in a.terms]
    return " + ".join(parts + [str(a.const)])


def time_set(name: str, dims: tuple[Dim, ...]) -> isl.Set:
    names = [f"t{k}" for k in range(len(dims))]
    return isl_set(f"{{ {name}[{', '.join(names)}] : {_bounds(names, dims)} }}")


def _bounds(names: list[str], dims: tuple[Dim, ...]) -> str:
    return " and ".join([f"{d.min} <= {n} < {d.min + d.extent}" for n, d in zip(names, dims)] or ["true"])


def default_latency(op: Op, pe_latency: int) -> int:
    """0 for an op that only moves a value (a bare load, constant or Param: no PE), 1 for a RAM update (it reads
    the old value in its firing cycle and writes the new one in the next: memories/ram.py), one more than the PE
    latency for a RAM read at computed coordinates, else the PE latency."""
    if op.scatter:
        return 1
    if op.lookup:  # the RAM answers the address a cycle later; the value follows (memories/ram.py)
        return pe_latency + 1
    v = op.value
    return 0 if isinstance(v, (fir.Const, fir.Call)) and not getattr(v, "args", ()) else pe_latency


def build_program(nest: LoopNest, latency: Callable[[Op], int],
                  read_offsets: Mapping[str, Mapping[str, int]] | None = None) -> Program:
    """Model `nest`: statements, accesses and the exact value flows of every buffer; `read_offsets`: by op
    name, the loads read that many cycles after the op fires (`Stmt.read_offsets`)."""
    stmts, accesses = _statements(nest, latency, read_offsets or {})
    flows: list[Flow] = []
    internal: list[InternalRead] = []
    orders: list[Flow] = []
    for buf in nest.buffers:
        mine = [a for a in accesses if a.buffer == buf.name]
        if buf.init is not None:
            orders += _ram_orders(buf.name, mine, stmts)
            continue
        f, i = _buffer_flows(buf.name, mine, stmts)
        flows += f
        internal += i
    return Program(nest, tuple(stmts), tuple(accesses), tuple(flows), tuple(internal), tuple(orders))


def _ram_orders(buf: str, readers: list[Access], stmts: list[Stmt]) -> list[Flow]:
    """Each update of RAM `buf` after the one before it (in program order), and its readers after the last."""
    writers = [s for s in stmts if s.op is not None and s.op.scatter and s.op.store.buffer == buf]
    out = []
    for w, nxt in itertools.pairwise(writers):  # the next update's steps after every write of this one
        assert nxt.op is not None, "a RAM's update is an op"
        old = [p.name for p in nxt.op.loads if not p.access.index and p.access.buffer == buf]
        out.append(Flow(buf, w, (), nxt, old[0] if old else "", (), isl.Map.from_domain_and_range(
            w.time_set(), nxt.time_set())))
    for a in readers:
        assert not a.is_write and a.stmt not in writers, f"hwlower contract: RAM {buf} is stored by {a.stmt.name}"
        for lane in a.stmt.lanes():
            rel = isl.Map.from_domain_and_range(writers[-1].time_set(), a.stmt.time_set())
            out.append(Flow(buf, writers[-1], (), a.stmt, a.name, lane, rel))
    return out


def _statements(nest: LoopNest, latency: Callable[[Op], int],
                read_offsets: Mapping[str, Mapping[str, int]]) -> tuple[list[Stmt], list[Access]]:
    stmts: list[Stmt] = []
    accesses: list[Access] = []
    for name in nest.inputs:
        s = _host_stmt(nest, f"host.{name}", name, len(stmts), 0, nest.stream_lanes(name), nest.lane_dim(name),
                       nest.x_words(name))
        stmts.append(s)
        accesses.append(Access(s, "store", name, _identity_index(nest, s), True))

    def walk(nodes: Sequence[Loop | Op], loops: tuple[Loop, ...], pos: tuple[int, ...]) -> None:
        first = 0 if loops else 1  # top-level position 0 is the host's input streams
        for k, n in enumerate(nodes, first):
            if isinstance(n, Loop):
                walk(n.body, loops + (n,), pos + (k,))
                continue
            dims = tuple(Dim(lp.var, lp.min, lp.extent, lp.strip) for lp in loops)
            offsets = tuple(sorted((load, c) for load, c in read_offsets.get(n.name, {}).items() if c))
            assert not (offsets and n.scatter), f"hwlower contract: RAM update {n.name} reads as it fires"
            s = Stmt(n.name, len(stmts), n, None, dims, tuple(lp.unrolled for lp in loops), pos + (k,), latency(n),
                     offsets)
            stmts.append(s)
            # A RAM update's store and old value are at computed coordinates: no affine access (see orders).
            accesses.extend(Access(s, lp.name, lp.access.buffer, lp.access.index, False, lp.access.guard)
                            for lp in n.loads
                            if lp.access.index or not n.scatter)
            if not n.scatter:
                accesses.append(Access(s, "store", n.store.buffer, n.store.index, True))

    walk(nest.body, (), ())
    sink = _host_stmt(nest, HOST_OUT, nest.output, len(stmts), len(nest.body) + 1)
    stmts.append(sink)
    accesses.append(Access(sink, "host", nest.output, _identity_index(nest, sink), False))
    return stmts, accesses


def _host_stmt(nest: LoopNest, name: str, buffer: str, index: int, top: int, lanes: int = 1, along: int = 0,
               words: int = 1) -> Stmt:
    box = nest.buffer(buffer).box
    if along:
        # lanes along a later dimension: its transfers where it was, its lanes innermost (d = k * t + lane); a
        # block (`words` of x in each) splits x likewise, its lanes innermost of all (x fastest in a transfer)
        split = {along: lanes // words} | ({0: words} if words > 1 else {})
        for j, k in split.items():
            assert box[j][1] % k == 0, f"hwlower contract: stream {buffer} of {k} lanes along d{j} over {box}"
        rows = [Dim(f"{buffer}.d{j}", 0, box[j][1] // split[j]) if j in split else Dim(f"{buffer}.d{j}", *box[j])
                for j in reversed(range(len(box)))]
        rows += [Dim(f"{buffer}.d{j}.lane", 0, split[j]) for j in sorted(split, reverse=True)]
        flags = (False,) * len(box) + (True,) * len(split)
        return Stmt(name, index, None, buffer, tuple(rows), flags, (top,) + (0,) * len(rows), 0)
    shape = transfer_shape(box, lanes, buffer)
    # Loops outermost first: the box's last dimension outermost, x innermost (the stream order). A dimension a
    # transfer covers whole is an unrolled loop; the one it covers in part is split into transfers and lanes
    # (x = lanes * d0 + d0.lane + min); the transfer's words are its lanes in loop order, the last fastest.
    dims: list[Dim] = []
    unrolled: list[bool] = []
    for j in reversed(range(len(box))):
        lo, extent = box[j]
        if j >= len(shape) or (shape[j] == 1 and j == len(shape) - 1 and lanes == 1):
            dims.append(Dim(f"{buffer}.d{j}", lo, extent))
            unrolled.append(False)
        elif j < len(shape) - 1:
            dims.append(Dim(f"{buffer}.d{j}", lo, extent))
            unrolled.append(True)
        else:
            dims += [Dim(f"{buffer}.d{j}", 0, extent // shape[j]), Dim(f"{buffer}.d{j}.lane", 0, shape[j])]
            unrolled += [False, True]
    return Stmt(name, index, None, buffer, tuple(dims), tuple(unrolled), (top,) + (0,) * len(dims), 0)


def transfer_shape(box: tuple[tuple[int, int], ...], lanes: int, buffer: str) -> list[int]:
    """The words of each box dimension (d0 first) in one transfer of `lanes` consecutive words of a stream:
    leading dimensions whole, then a part of the next; ends at the dimension the transfer ends in."""
    shape: list[int] = []
    left = lanes
    for _, extent in box:
        if left <= extent or len(shape) == len(box) - 1:
            assert extent % left == 0, f"hwlower contract: stream {buffer} of {lanes} lanes over a box {box}"
            return shape + [left]
        assert left % extent == 0, f"hwlower contract: stream {buffer} of {lanes} lanes over a box {box}"
        shape.append(extent)
        left //= extent
    return shape + [left]


def _identity_index(nest: LoopNest, s: Stmt) -> tuple[Affine, ...]:
    box = nest.buffer(s.stream).box
    index: list[Affine] = []
    # the loops of d_j in turn: one, or a transfer's split with its lane (after it, or innermost: _host_stmt)
    lanes = {d.var: d for d in s.loops if d.var.endswith(".lane")}
    loops = [d for d in s.loops if d.var not in lanes]
    for j in reversed(range(len(box))):
        d = loops.pop(0)
        if f"{d.var}.lane" in lanes:
            lane = lanes[f"{d.var}.lane"]
            index.append(Affine.make({d.var: lane.extent, lane.var: 1}, box[j][0]))
        else:
            index.append(Affine.make({d.var: 1}, 0))
    return tuple(reversed(index))


def _order(s: Stmt, after: int, depth: int) -> str:
    """The program-order schedule of one access: [p0, i0, p1, i1, ..., pn, after], padded with zeros."""
    names = [f"i{k}" for k in range(len(s.loops))]
    vec: list[str] = []
    for k, n in enumerate(names):
        vec += [str(s.position[k]), n]
    vec += [str(s.position[len(names)]), str(after)]
    vec += ["0"] * (2 * depth + 2 - len(vec))
    return f"[{', '.join(names)}] -> [{', '.join(vec)}]"


def _buffer_flows(buf: str, accs: list[Access], stmts: list[Stmt]) -> tuple[list[Flow], list[InternalRead]]:
    depth = max(len(s.loops) for s in stmts)
    tag = {id(a): f"A{k}" for k, a in enumerate(accs)}
    by_tag = {tag[id(a)]: a for a in accs}
    empty = isl_union_map("{ }")
    sinks, sources, order = empty, empty, empty
    for a in accs:
        um = isl.UnionMap.from_map(a.map(tag[id(a)]))
        # Reads of an instance happen before its write, so the order has a last entry 0 (read) / 1 (write).
        o = isl_union_map(f"{{ {tag[id(a)]}{_order(a.stmt, int(a.is_write), depth)} }}")
        order = order.union(o.intersect_domain(um.domain()))
        if a.is_write:
            sources = sources.union(um)
        else:
            sinks = sinks.union(um)
    if sinks.is_empty() or sources.is_empty():
        _check_sourced(buf, sinks, by_tag)
        return [], []
    dependences, no_source = dataflow(sinks, sources, order)
    _check_sourced(buf, no_source, by_tag)
    flows: list[Flow] = []
    internal: list[InternalRead] = []
    for m in dependences:
        w, r = by_tag[m.get_tuple_name(isl.dim_type.in_)], by_tag[m.get_tuple_name(isl.dim_type.out)]
        f, i = _split_lanes(buf, m, w, r, tag)
        flows += f
        internal += i
    flows.sort(key=lambda f: (f.dst.index, f.load, f.dst_lane, f.src.index, f.src_lane))
    return flows, internal


def _check_sourced(buf: str, no_source: isl.UnionMap, by_tag: dict[str, Access]) -> None:
    for m in maps_of(no_source):
        a = by_tag[m.get_tuple_name(isl.dim_type.in_)]
        if a.stmt.name == HOST_OUT:
            continue  # elements of the output never written stay undefined, as in Halide
        point = m.domain().lexmin()
        raise AssertionError(
            f"hwlower contract: op '{a.stmt.name}' load '{a.name}' reads element(s) of buffer '{buf}' that no op "
            f"writes and that are not streamed in, first at {_point_str(a.stmt.loops, point)}"
        )


def _split_lanes(buf: str, m: isl.Map, w: Access, r: Access,
                 tag: dict[int, str]) -> tuple[list[Flow], list[InternalRead]]:
    flows: list[Flow] = []
    internal: list[InternalRead] = []
    for rl in r.stmt.lanes():
        into = m.apply_range(r.stmt.lane_projection(tag[id(r)], rl))
        if into.is_empty():
            continue
        for wl in w.stmt.lanes():
            rel = into.apply_domain(w.stmt.lane_projection(tag[id(w)], wl))
            if rel.is_empty():
                continue
            if w.stmt is r.stmt:
                same = rel.intersect(isl.Map.identity(rel.get_space()))
                if not same.is_empty():
                    assert not r.stmt.read_offset(r.name), f"{r.stmt.name}: chained lanes read as they fire"
                    internal.append(InternalRead(r.stmt.name, r.name, rl, wl))
                    rel = rel.subtract(same)
                    if rel.is_empty():
                        continue
            flows.append(Flow(buf, w.stmt, wl, r.stmt, r.name, rl, rel.coalesce()))
    return flows, internal


def _point_str(dims: tuple[Dim, ...], point: isl.Set) -> str:
    vals = point_values(point)
    return ", ".join(f"{d.var}={v}" for d, v in zip(dims, vals))


def maps_of(um: isl.UnionMap) -> list[isl.Map]:
    lst = um.get_map_list()
    return [lst.get_at(k) for k in range(lst.n_map())]


def point_values(single: isl.Set) -> list[int]:
    """The coordinates of a set holding one point (e.g. a lexmin)."""
    p = single.sample_point()
    return [p.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(single.dim(isl.dim_type.set))]
