"""Render a MemoryPlan as the memory JSON the verilog stage reads (deterministic: sorted keys, names only).

Schema (format "mainspring-memories/2"; semantics of every field in `memories.ir`):

    {
      "format": "mainspring-memories/2",
      "nest": str,
      "target": {"mem_tile_words", "mem_tile_read_ports", "mem_tile_write_ports", "word_bits",
                 "register_max_delay", "pe_latency", "max_ii"},           # ints
      "schedule": {
        "strategy": "fused" | "fused_ii<k>" | "sequential",
        "cycles": int,                 # cycles until the last op's value is written
        "input_words": int,            # words the host streams in (one transfer per cycle from cycle 0)
        "first_output_cycle": int,     # write cycle of the first streamed-out value
        "ops": {<op name>: {           # host pseudo-ops "host.<buffer>" have "host": true
          "func": str, "stage": int, "host": bool,
          "dims": [{"var", "min", "extent"}],  # time loops, outermost first (a host stream: its transfers)
          "lanes": [{"var", "min", "extent"}], # unrolled loops (duplicated compute, same cycle); a host stream
                                               # of k words per transfer: [{"<buffer>.d0.lane", 0, k}]
                                               # lane index = the lanes in order, the last fastest; a stream's
                                               # word of lane i sits in bits [w*(i+1)-1 : w*i] of its data
          "rates": [int], "delay": int, "latency": int,   # fire = delay + sum(rates[k] * (t[k] - min[k]))
          "read_offsets": {<load>: int},       # only when some load reads after the firing cycle
          "then": {"steps", "start", "rates"},  # only for a two-piece schedule: t[0] - min[0] >= steps fire at
                                               # start + rates . (t - first of that piece), outermost first
          "controller": <controller>,          # when it fires (innermost first, no data fields)
          "internal_reads": [{"load", "lane": [int], "source_lane": [int]}],   # chained lanes
          "coords": [{"name", "lane", "words", "offset",   # only when the op reads coordinates as values:
                      "controller": <coord controller>,     # coordinate = offset + data (no wrap)
                      "tile_offsets"}]}}  # only under host tiles: per tile, added to the coordinate
      },
      "buffers": {<buffer name>: {
        "type": str, "bits": int, "box": [[min, extent]] (x first),
        "role": "input" | "output" | "internal",
        "level": "wire" | "register" | "mem_tile",
        "capacity": {"min_words": int,   # exact max live values (barvinok)
                     "words": int},      # storage: write ports + registers + bank SRAM words and read registers
        "write_ports": [{"name", "op", "lane", "controller": <write controller>}],   # data = element address
                                             # one per lane of the op (lanes nobody reads have none); an
                                             # input's write ports are its stream's lanes
        "output_ports": [write port name],   # streamed out to the host: one per lane of the output op, packed
                                             # by lane index into one transfer per firing
        "read_ports": [{"name", "op", "load", "lane", "source": write port, "domain": [dim],
                        "delay": int | null,   # constant cycles after the source's write; null: addressed
                        "steps": int | null,   # write taps (delay null or not): the source's writes after this
                                               # value's; both null: an addressed bank read
                        "tap": element name,  # write port (delay 0), register or bank read port
                        "controller": <read controller>}],  # cycles = firing cycles; data = element address
        "registers": [{"name", "source": element, "root": write port or addressed bank read port, "delay": int,
                       "gated": bool}],   # gated: shifts in the root's write cycles (a bank read port's: its
                                          # last load of each run of one address); delay counts them
        "init": int | [int],             # RAMs only (memories/ram.py): every element before its first update
                                         # (one constant, or each element's, x fastest)
        "banks": [{"name", "kind": "delay_line" | "addressed" | "ram", "words": int (SRAM words),
                   "tiles": int, "slices": int, "root": write port | null,
                   "gated": bool,        # delay lines whose delays count the root's writes
                   "in_registers": true, # only when set: an addressed bank held in registers (tiles 0)
                   "host": bank, "base": int,  # only when set: a bank on another bank's tile (tiles 0), its
                                         # words from base on (memories/shared_tiles.py)
                   "write_ports": [<bank port>], "read_ports": [<bank port>]}]}}
    }
    <controller> = {"dimensionality": int, "extent": [int], "cycle_starting_addr": int, "cycle_stride": [int],
                    plus "write_data_starting_addr"/"write_data_stride" (write ports),
                    "read_data_starting_addr"/"read_data_stride" (read ports) or
                    "coord_data_starting_addr"/"coord_data_stride" (coordinates),
                    plus, only for a two-piece schedule, "then": {"steps", "start", "rates"}: the outermost
                    dim's iterations from "steps" on fire at start + rates . (i - i_first)}   # lists innermost first
    <bank port> = {"name", "op", "lane", "domain": [dim], "source": element | null, "delay": int | null,
                   "load": str | null, "region": [first word, words],   # address = first + (data mod words)
                   "shared": [lane],   # addressed read ports: the op's other lanes served (same words, same cycles)
                   "shares": bank read port,   # only when set: the tile read port it uses in cycles of its own
                   "controller": <write or read controller>}
    a bank port's dim may have "step" (absent: 1): it touches min, min + step, ... (a downsample's values)
"""

from __future__ import annotations

import dataclasses
import json

from mainspring.target import CGRA

from .ir import (
    Bank,
    BankPort,
    BufferPlan,
    Controller,
    CoordGen,
    Dim,
    InternalRead,
    MemoryPlan,
    OpSchedule,
    ReadPort,
    Register,
    Steady,
    WritePort,
)

FORMAT = "mainspring-memories/2"
# The target's fields memories reads, as the memory JSON names them (its key, the CGRA's field).
_TARGET_FIELDS = (("mem_tile_words", "mem_tile_words"), ("mem_tile_read_ports", "mem_tile_read_ports"),
                  ("mem_tile_write_ports", "mem_tile_write_ports"), ("word_bits", "word_bits"),
                  ("register_max_delay", "register_delay_limit"), ("pe_latency", "pe_latency"),
                  ("max_ii", "max_ii"))


def to_json(plan: MemoryPlan) -> dict:
    """The memory JSON of `plan` as plain dicts and lists (with its "glb" section when it has a GLB level)."""
    return _with_glb({
        "format": FORMAT,
        "nest": plan.nest,
        "target": {key: getattr(plan.target, field) for key, field in _TARGET_FIELDS},
        "schedule": {
            "strategy": plan.strategy,
            "cycles": plan.cycles,
            "input_words": plan.input_words,
            "first_output_cycle": plan.first_output_cycle,
            "ops": {s.op: _op(s, plan) for s in plan.ops},
        },
        "buffers": {b.name: _buffer(b) for b in plan.buffers},
    }, plan)


def _with_glb(doc: dict, plan: MemoryPlan) -> dict:
    from .glb import glb_json

    if plan.glb is not None:
        doc["glb"] = glb_json(plan.glb)
    return doc


def dumps(plan: MemoryPlan) -> str:
    """The memory JSON as text: byte-identical for the same plan, across runs and processes."""
    return json.dumps(to_json(plan), sort_keys=True, indent=1) + "\n"


def _op(s: OpSchedule, plan: MemoryPlan) -> dict:
    out = {
        "func": s.func, "stage": s.stage, "host": s.host,
        "dims": [_dim(d) for d in s.dims], "lanes": [_dim(d) for d in s.lanes],
        "rates": list(s.rates), "delay": s.delay, "latency": s.latency,
        "controller": _controller(s.controller, None),
        "internal_reads": [{"load": r.load, "lane": list(r.lane), "source_lane": list(r.source_lane)}
                           for r in plan.internal_reads if r.op == s.op],
    }
    if s.read_offsets:
        out["read_offsets"] = dict(s.read_offsets)
    if s.then is not None:
        out["then"] = _steady(s.then)
    coords = [{"name": c.name, "lane": list(c.lane), "words": c.words, "offset": c.offset,
               "controller": _controller(c.controller, "coord")}
              | ({"tile_offsets": list(c.tile_offsets)} if c.tile_offsets else {})
              for c in plan.coords if c.op == s.op]
    if coords:  # only ops that read coordinates have the key (older designs' JSON is unchanged)
        out["coords"] = coords
    return out


def _buffer(b: BufferPlan) -> dict:
    # only RAMs have the key (other designs' JSON is unchanged)
    ram = {} if b.init is None else {"init": b.init if isinstance(b.init, int) else list(b.init)}
    return ram | {
        "type": b.type, "bits": b.bits, "box": [list(x) for x in b.box], "role": b.role, "level": b.level,
        "capacity": {"min_words": b.min_words, "words": b.words},
        "write_ports": [_write_port(p) for p in b.write_ports],
        "output_ports": list(b.output_ports),
        "read_ports": [_read_port(p) for p in b.read_ports],
        "registers": [dataclasses.asdict(r) for r in b.registers],
        "banks": [_bank(k) for k in b.banks],
    }


def _write_port(p: WritePort) -> dict:
    return {"name": p.name, "op": p.op, "lane": list(p.lane), "controller": _controller(p.controller, "write")}


def _read_port(p: ReadPort) -> dict:
    return {"name": p.name, "op": p.op, "load": p.load, "lane": list(p.lane), "source": p.source,
            "domain": [_dim(d) for d in p.domain], "delay": p.delay, "steps": p.steps, "tap": p.tap,
            "controller": _controller(p.controller, "read")}


def _bank(k: Bank) -> dict:
    return {"name": k.name, "kind": k.kind, "words": k.words, "tiles": k.tiles, "slices": k.slices,
            "root": k.root, "gated": k.gated, "write_ports": [_bank_port(p) for p in k.write_ports],
            "read_ports": [_bank_port(p) for p in k.read_ports]} | (
        # only where set: the JSON of every design without register banks stays as it was
        {"in_registers": True} if k.in_registers else {}) | (
        {"host": k.host, "base": k.base} if k.host is not None else {})


def _bank_port(p: BankPort) -> dict:
    return {"name": p.name, "op": p.op, "lane": list(p.lane), "domain": [_dim(d) for d in p.domain],
            "source": p.source, "delay": p.delay, "load": p.load, "region": list(p.region),
            "shared": [list(v) for v in p.shared], "controller": _controller(p.controller, p.kind)} | (
        # only where set: the JSON of every design without banks by residue stays as it was
        {"shares": p.shares} if p.shares is not None else {}) | ({"direct": True} if p.direct else {})


def _controller(c: Controller, kind: str | None) -> dict:
    out = {"dimensionality": c.dimensionality, "extent": list(c.extent),
           "cycle_starting_addr": c.cycle_starting_addr, "cycle_stride": list(c.cycle_stride)}
    if kind is not None:
        out[f"{kind}_data_starting_addr"] = c.data_starting_addr
        out[f"{kind}_data_stride"] = list(c.data_stride)
    if c.then is not None:
        out["then"] = _steady(c.then)
    return out


def _steady(t: Steady) -> dict:
    return {"steps": t.steps, "start": t.start, "rates": list(t.rates)}


def _steady_from(t: dict | None) -> Steady | None:
    return None if t is None else Steady(t["steps"], t["start"], tuple(t["rates"]))


def _dim(d: Dim) -> dict:
    # "step" only where it is not 1: the JSON of every design without strided ports stays as it was
    return {"var": d.var, "min": d.min, "extent": d.extent} | ({"step": d.step} if d.step != 1 else {})


# ---- reading it back: the typed plan the verilog stage renders from ---------------------------------------

def from_json(doc: dict) -> MemoryPlan:
    """The MemoryPlan a memory JSON describes (the inverse of `to_json`, the "glb" section by `glb_from_json`)."""
    from .glb import glb_from_json

    if doc.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} memory JSON (format {doc.get('format')!r})")
    sched = doc["schedule"]
    ops = tuple(_op_from(name, o) for name, o in sched["ops"].items())
    internal = tuple(InternalRead(name, r["load"], tuple(r["lane"]), tuple(r["source_lane"]))
                     for name, o in sched["ops"].items() for r in o["internal_reads"])
    coords = tuple(CoordGen(name, c["name"], tuple(c["lane"]), _controller_from(c["controller"]), c["words"],
                            c["offset"], tuple(c.get("tile_offsets", ())))
                   for name, o in sched["ops"].items() for c in o.get("coords", ()))
    return MemoryPlan(
        nest=doc["nest"], target=CGRA(**{field: doc["target"][key] for key, field in _TARGET_FIELDS}),
        strategy=sched["strategy"], ops=ops,
        internal_reads=internal, buffers=tuple(_buffer_from(name, b) for name, b in doc["buffers"].items()),
        cycles=sched["cycles"], input_words=sched["input_words"], first_output_cycle=sched["first_output_cycle"],
        coords=coords, glb=glb_from_json(doc["glb"]) if "glb" in doc else None,
    )


def _op_from(name: str, o: dict) -> OpSchedule:
    return OpSchedule(name, o["func"], o["stage"], _dims(o["dims"]), _dims(o["lanes"]), tuple(o["rates"]),
                      o["delay"], o["latency"], o["host"], tuple(sorted(o.get("read_offsets", {}).items())),
                      _steady_from(o.get("then")))


def _buffer_from(name: str, b: dict) -> BufferPlan:
    return BufferPlan(
        name=name, type=b["type"], bits=b["bits"], box=tuple(tuple(x) for x in b["box"]), role=b["role"],
        level=b["level"], min_words=b["capacity"]["min_words"], words=b["capacity"]["words"],
        write_ports=tuple(WritePort(p["name"], name, p["op"], tuple(p["lane"]), _controller_from(p["controller"]))
                          for p in b["write_ports"]),
        read_ports=tuple(ReadPort(p["name"], name, p["op"], p["load"], tuple(p["lane"]), p["source"],
                                  _dims(p["domain"]), p["delay"], p["tap"], _controller_from(p["controller"]),
                                  p["steps"]) for p in b["read_ports"]),
        registers=tuple(Register(**r) for r in b["registers"]),
        banks=tuple(_bank_from(k) for k in b["banks"]),
        output_ports=tuple(b["output_ports"]),
        init=tuple(b["init"]) if isinstance(b.get("init"), list) else b.get("init"),
    )


def _bank_from(k: dict) -> Bank:
    def ports(kind: str) -> tuple[BankPort, ...]:
        return tuple(BankPort(p["name"], kind, p["op"], tuple(p["lane"]), _dims(p["domain"]),
                              _controller_from(p["controller"]), p["source"], p["delay"], p["load"],
                              tuple(p["region"]), tuple(tuple(v) for v in p["shared"]), p.get("shares"),
                              p.get("direct", False))
                     for p in k[f"{kind}_ports"])

    return Bank(k["name"], k["kind"], k["words"], k["tiles"], k["slices"], ports("write"), ports("read"), k["root"],
                k["gated"], k.get("in_registers", False), k.get("host"), k.get("base", 0))


def _controller_from(c: dict) -> Controller:
    (start,) = [c[k] for k in c if k.endswith("_data_starting_addr")] or [0]
    (stride,) = [c[k] for k in c if k.endswith("_data_stride")] or [()]
    return Controller(tuple(c["extent"]), c["cycle_starting_addr"], tuple(c["cycle_stride"]), start, tuple(stride),
                      _steady_from(c.get("then")))


def _dims(ds: list) -> tuple[Dim, ...]:
    return tuple(Dim(d["var"], d["min"], d["extent"], step=d.get("step", 1)) for d in ds)
