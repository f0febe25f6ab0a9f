"""Chained banks: a stream read at several ages, each bank holding only the ages its reads take.

Why: camera_pipeline's green planes are read a row, two rows and three rows after they are written (one root read
a row, registers giving its other columns). A tile has two read ports, so the addressed banks before this kept
every word in one bank for the oldest read and a replica of the youngest row in another: a row stored twice.
Chained, the reads ordered by age fill banks of a tile's read ports, youngest first, and bank k + 1 is written from
bank k's oldest read port in the cycles that port loads each word for the last time (its iterations of the dims
its load index does not use fixed at their last value): each word is in one bank at a time, moving on as it ages.
Values the next bank's reads take that the feeding port never loads (the row above the first output row) come
from the stream through the tile's second write port.

Decided from the access maps, for addressed reads of one write stream: a bank's values are the elements its
reads load (over their read ports' boxes, before-box iterations of a root of registers included), each identified
by the stream iteration writing it; the chain is refused (`MemoryMappingError`) unless the feeding port's last
loads and the stream's remaining values are boxes and every read comes after its value's write. `mapping` keeps it
only when it stores fewer words in no more tiles; `checker` proves it (a chained write port's values are those
its feeding read port is proven to load).
"""

from __future__ import annotations

import math

import islpy as isl

from mainspring.target import CGRA

from . import circular
from . import mapping as mp
from . import port_controllers as pc
from .errors import MemoryMappingError
from .ir import Bank, BankPort, Controller, Dim
from .iteration_boxes import box_set, strided_hull
from .polyhedral import Access, Program, Stmt, affine_str
from .schedule import Schedule, flow_delay
from .timing import bounds, cycle_expr


def chained_banks(prog: Program, sched: Schedule, target: CGRA, buf: str, reads: list[mp.Read],
                  wports: mp.WritePorts, slices: int, first: int) -> tuple[list[Bank], dict[str, str]]:
    """A `mapping._Banker`: the reads of one write stream by age, youngest first, in banks of a tile's read ports,
    each bank after the first written from the one before's oldest read port."""
    srcs = {(r.flow.src.index, r.flow.src_lane): (r.flow.src, r.flow.src_lane) for r in reads}
    same = mp.same_words(reads)
    per = target.mem_tile_read_ports
    if len(srcs) != 1 or len(same) <= per:
        raise MemoryMappingError(f"buffer '{buf}': no chain of banks (one write stream, more reads than a tile's)")
    ((src, lane),) = srcs.values()
    ages = {r: flow_delay(r.flow, sched)[0] for r in same}
    order = sorted(same, key=lambda r: (ages[r], list(same).index(r)))
    banks: list[Bank] = []
    served: dict[str, str] = {}
    feeder: tuple[mp.Read, BankPort] | None = None
    for j in range(0, len(order), per):
        chunk = order[j: j + per]
        bank = _bank(prog, sched, target, buf, chunk, same, wports, slices, (src, lane), feeder,
                     f"{buf}.bank{first + len(banks)}")
        banks.append(bank)
        ports = dict(zip(chunk, bank.read_ports))
        served |= {o.port.name: ports[r].name for r in chunk for o in same[r]}
        feeder = (chunk[-1], ports[chunk[-1]])
    return banks, served


def _bank(prog: Program, sched: Schedule, target: CGRA, buf: str, chunk: list[mp.Read],
          same: dict[mp.Read, list[mp.Read]], wports: mp.WritePorts, slices: int,
          stream: tuple[Stmt, tuple[int, ...]], feeder: tuple[mp.Read, BankPort] | None, name: str) -> Bank:
    src, lane = stream
    if feeder is None:
        hull, writes, words = mp.region_layout(prog, sched, buf, chunk, [(lane, src)])
        wps = [BankPort(f"{name}.w{k}", "write", s.name, ln, box, ctrl, source=wports[(s.name, ln)].name,
                        region=(0, words)) for k, (s, ln, box, ctrl) in enumerate(writes)]
    else:
        hull, wps, words = _fed(prog, sched, buf, chunk, wports, stream, feeder, name)
    rps = [BankPort(f"{name}.r{k}", "read", r.port.op, r.port.lane, r.port.domain,
                    mp.read_controller(prog, sched, buf, r, hull), load=r.port.load, region=(0, words),
                    shared=tuple(o.port.lane for o in same[r][1:])) for k, r in enumerate(chunk)]
    return Bank(name, "addressed", words, math.ceil(words / target.mem_tile_words), slices, tuple(wps), tuple(rps))


def _fed(prog: Program, sched: Schedule, buf: str, chunk: list[mp.Read], wports: mp.WritePorts,
         stream: tuple[Stmt, tuple[int, ...]], feeder: tuple[mp.Read, BankPort],
         name: str) -> tuple[mp.Elements, list[BankPort], int]:
    """(elements, write ports, circular words) of a bank written from `feeder`'s last loads, and from the stream
    for the values its reads take that the feeder never loads."""
    src, lane = stream
    f, fport = feeder
    fed = last_loads(prog, f)
    if fed is None:
        raise MemoryMappingError(f"buffer '{buf}': read port {f.port.name}'s last loads are not a box")
    fed_values = values(prog, f, fed)
    need = None
    for r in chunk:
        got = values(prog, r, r.port.domain)
        _after(sched, buf, f, fed_values, r, got)
        need = got.range() if need is None else need.union(got.range())
    assert need is not None, "a bank has reads"
    if fed_values.range().intersect(need).is_empty():
        # nothing to feed: its write port would only overwrite the stream's words (unsized: it has no flows)
        raise MemoryMappingError(f"buffer '{buf}': read port {f.port.name} loads none of the values "
                                 "its next bank reads")
    rest = need.subtract(fed_values.range())
    store = next(a for a in prog.accesses if a.stmt is src and a.is_write)
    boxes: list[tuple[Dim, ...]] = []
    if not rest.is_empty():
        box = strided_hull(rest, src.time_dims)
        if not box_set(src.time_name, box).is_equal(rest):
            raise MemoryMappingError(f"buffer '{buf}': the values the feeder never loads are not a box")
        boxes.append(box)
    load = _load(prog, f)
    hull = mp.merge_elements([mp.element_hull(load.index, f.flow.dst, f.port.lane, fed)]
                                   + [mp.element_hull(store.index, src, lane, b) for b in boxes])
    tf, ts = sched.timing[f.port.op], sched.timing[src.name]
    start = tf.delay + f.flow.read_offset + pc.box_offset(fed, f.flow.dst.time_dims, tf.rates)
    chain = pc.controller(fed, tf.rates, start,
                          mp.element_address(prog, buf, load.index, f.flow.dst, f.port.lane, fed, hull))
    writes: list[_Stream] = [(f.flow.dst.time_name, fed, tf.rates, start, chain,
               [fed_values.apply_range(r.flow.rel) for r in chunk])]
    for box in boxes:
        ctrl = pc.controller(box, ts.rates, ts.delay + src.latency + pc.box_offset(box, src.time_dims, ts.rates),
                             mp.element_address(prog, buf, store.index, src, lane, box, hull))
        writes.append((src.time_name, box, ts.rates, ctrl.cycle_starting_addr, ctrl,
                       [r.flow.rel.intersect_domain(box_set(src.time_name, box)) for r in chunk]))
    words = _words(buf, chunk, sched, writes)
    wps = [BankPort(f"{name}.w0", "write", f.port.op, f.port.lane, fed, chain, source=fport.name, region=(0, words))]
    wps += [BankPort(f"{name}.w{1 + k}", "write", src.name, lane, box, w[4], source=wports[(src.name, lane)].name,
                     region=(0, words)) for k, (box, w) in enumerate(zip(boxes, writes[1:]))]
    return hull, wps, words


# (time name, box, rates, cycle at the box's min corner, controller, its flows to each read of the bank)
_Stream = tuple[str, tuple[Dim, ...], tuple[int, ...], int, Controller, list[isl.Map]]


def _words(buf: str, chunk: list[mp.Read], sched: Schedule, writes: list[_Stream]) -> int:
    """The circular words of the bank's write streams, each with its flows to the chunk's reads."""
    streams = []
    for name, box, rates, start, ctrl, rels in writes:
        flows = tuple((str(rel), r.flow.dst.time_name, r.flow.dst.time_dims, sched.timing[r.flow.dst.name].rates,
                       sched.timing[r.flow.dst.name].delay + r.flow.read_offset)
                      for rel, r in zip(rels, chunk) if not rel.is_empty())
        if flows:
            streams.append((name, len(box), box, rates, start, ctrl, flows))
    return circular.circular_words(buf, tuple(streams))


def _after(sched: Schedule, buf: str, f: mp.Read, fed_values: isl.Map, r: mp.Read, got: isl.Map) -> None:
    """Every load of `r` comes after the feeder's last load of its value (the chained write's cycle)."""
    tf, tr = sched.timing[f.port.op], sched.timing[r.port.op]
    # the op's cycle formula, also at a root's iterations before the op's box
    wc, rc = (_cycles(s.flow.dst, t.rates, t.delay + s.flow.read_offset) for s, t in ((f, tf), (r, tr)))
    # { feeder iteration -> reader iteration } loading one value, as cycles
    pairs = fed_values.apply_range(got.reverse())
    early = pairs.domain_map().apply_range(wc).flat_range_product(pairs.range_map().apply_range(rc))
    if not early.range().intersect(isl.Set("{ [w, c] : c <= w }")).is_empty():
        raise MemoryMappingError(f"buffer '{buf}': read port {r.port.name} loads a value before its feeder's last load")


def _cycles(s: Stmt, rates: tuple[int, ...], offset: int) -> isl.Map:
    ts = ", ".join(f"t{k}" for k in range(len(s.time_dims)))
    return isl.Map(f"{{ {s.time_name}[{ts}] -> [{cycle_expr(s.time_dims, rates, offset)}] }}")


def last_loads(prog: Program, r: mp.Read) -> tuple[Dim, ...] | None:
    """The box of r's iterations that load an element for the last time (None: not a box)."""
    loads = _load_map(prog, r, r.port.domain)
    last = loads.reverse().lexmax().range()
    box = strided_hull(last, r.flow.dst.time_dims)
    return box if box_set(r.flow.dst.time_name, box).is_equal(last) else None


def values(prog: Program, r: mp.Read, box: tuple[Dim, ...]) -> isl.Map:
    """{ r's iteration in `box` -> the source's iteration writing the element it loads there }."""
    src = r.flow.src
    store = next(a for a in prog.accesses if a.stmt is src and a.is_write)
    writes = _index_map(src, store, r.flow.src_lane, src.time_dims)
    return _load_map(prog, r, box).apply_range(writes.reverse())


def _load_map(prog: Program, r: mp.Read, box: tuple[Dim, ...]) -> isl.Map:
    return _index_map(r.flow.dst, _load(prog, r), r.port.lane, box)


def _index_map(s: Stmt, a: Access, lane: tuple[int, ...], box: tuple[Dim, ...]) -> isl.Map:
    """{ S[t] -> B[index] } of access `a` in one lane, t over `box` (which may reach before the stmt's loops)."""
    ts = [f"t{k}" for k in range(len(box))]
    env = {d.var: t for d, t in zip(s.time_dims, ts)} | {d.var: str(v) for d, v in zip(s.lane_dims, lane)}
    idx = ", ".join(affine_str(e, env) for e in a.index)
    return isl.Map(f"{{ {s.time_name}[{', '.join(ts)}] -> B[{idx}] : {bounds(box)} }}")


def _load(prog: Program, r: mp.Read) -> Access:
    return next(a for a in prog.accesses if a.stmt is r.flow.dst and a.name == r.flow.load)
