"""Verilog for compute kernels, generated from their CoreIR JSON (what `compute_json` writes).

One Verilog-2005 module per kernel: ports named and ordered as the JSON module's ports, one wire per CoreIR
instance named after the instance (so names are stable and match the JSON), in dependency order, each with the
generator it implements in a comment. It is combinational unless its JSON metadata gives it pipeline stages:
then it has `clk`, `rst_n` and `en` inputs first and a register (reset to 0, held while `en` is low) on each
connection per stage it crosses, shared by the driver's readers (`r1`, `r2`, ... after the driver's name); an
input port sits in stage 0 unless the metadata's `input_stage` names it (a retimed accumulation's own element,
read in the last stage: no register before its combine). A
value whose range needs fewer bits (the metadata's `narrow`, or an input's assumed range: `kernel_widths`) keeps
only those in its registers, and its readers take the last one through a wire that extends it back (`..._x`).
Bits nothing reads are gathered into one `unused_*` wire so that `verilator --lint-only -Wall` stays quiet
without pragmas. The text depends only on the JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from mainspring.compute_json.kernel import RESERVED_NAMES

from .kernel_generators import Generator, Shape, instantiate
from .kernel_widths import extended, range_lines, stage_narrowing

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(slots=True)
class _Net:
    """A wire of the module: an instance's output or an operand that needed a name of its own."""

    name: str
    shape: Shape
    expression: str
    comment: str


@dataclass(slots=True)
class _Module:
    name: str
    ports: list[tuple[str, str, Shape]]  # (name, "input"/"output", shape)
    port_types: dict[str, str]
    source: str  # where the kernel comes from (JSON metadata), or ""
    exprs: dict[str, str]  # output port -> its Halide expression (JSON metadata)
    nets: list[_Net] = field(default_factory=list)
    outputs: list[tuple[str, str]] = field(default_factory=list)  # (port, expression)
    unused: list[str] = field(default_factory=list)  # bit selects nothing reads
    decls: list[str] = field(default_factory=list)  # module-level lines of generators (ROM tables)
    stages: int = 1
    registers: list[tuple[str, str, Shape]] = field(default_factory=list)  # (register, what it takes, shape)
    ranges: list[str] = field(default_factory=list)  # the comments stating its value ranges (kernel_widths)


def kernel_verilog(doc: dict, module: str | None = None) -> str:
    """The Verilog text of `module` (default: the top) of CoreIR JSON document `doc` (a dict, as loaded)."""
    name, body = _find_module(doc, module)
    return _print(_Elaboration(name, body).run())


def write_kernel_verilog(json_path, verilog_path=None) -> Path:
    """Read CoreIR JSON from `json_path` and write its top module's Verilog to `verilog_path` (default: next
    to the JSON, named after the module, which `verilator -Wall` expects); return the Verilog path."""
    doc = json.loads(Path(json_path).read_text(encoding="utf-8"))
    name, _ = _find_module(doc, None)
    out = Path(verilog_path) if verilog_path else Path(json_path).with_name(f"{name}.v")
    out.write_text(kernel_verilog(doc), encoding="utf-8", newline="\n")
    return out


def _find_module(doc: dict, module: str | None) -> tuple[str, dict]:
    ref = module if module is not None else doc.get("top", "")
    namespace, _, name = ref.rpartition(".")
    namespace = namespace or "global"
    modules = doc.get("namespaces", {}).get(namespace, {}).get("modules", {})
    if name not in modules:
        raise ValueError(f"CoreIR JSON has no module {ref!r} (modules in {namespace}: {', '.join(sorted(modules))})")
    if not _IDENTIFIER.match(name) or name in RESERVED_NAMES:
        raise ValueError(f"module name {name!r} is not usable as a Verilog identifier")
    return name, modules[name]


def _shape_of(name: str, t) -> tuple[str, Shape]:
    """Direction and shape of a CoreIR port type: "BitIn", "Bit" or ["Array", n, "BitIn"|"Bit"]."""
    if not _IDENTIFIER.match(name) or name in RESERVED_NAMES:
        raise ValueError(f"port name {name!r} is not usable as a Verilog identifier")
    if t in ("BitIn", "Bit"):
        return ("input" if t == "BitIn" else "output"), Shape(1, bit=True)
    if isinstance(t, list) and len(t) == 3 and t[0] == "Array" and t[2] in ("BitIn", "Bit"):
        return ("input" if t[2] == "BitIn" else "output"), Shape(t[1])
    raise ValueError(f"port '{name}': type {t!r} is not a bit or a flat bit array")


@dataclass(frozen=True, slots=True)
class _End:
    """One end of a connection: `owner` is "self" or an instance; `bit` selects one bit (None: all)."""

    owner: str
    port: str
    bit: int | None

    def __str__(self) -> str:
        return f"{self.owner}.{self.port}" + ("" if self.bit is None else f".{self.bit}")

    @staticmethod
    def parse(path: str) -> _End:
        parts = path.split(".")
        if len(parts) not in (2, 3) or (len(parts) == 3 and not parts[2].isdigit()):
            raise ValueError(f"connection end {path!r}: only whole ports and single bits are supported")
        return _End(parts[0], parts[1], int(parts[2]) if len(parts) == 3 else None)


class _Elaboration:
    """Resolve the JSON module into nets: which driver feeds each input bit, in what order to declare them."""

    def __init__(self, name: str, body: dict):
        self.name = name
        self.body = body
        self.ports: dict[str, tuple[str, Shape]] = {}
        for port, t in body["type"][1]:
            self.ports[port] = _shape_of(port, t)
        meta = body.get("metadata", {}).get("mainspring", {})
        self.module = _Module(name, [(p, d, s) for p, (d, s) in self.ports.items()], meta.get("port_types", {}),
                              meta.get("source", ""), meta.get("outputs", {}))
        self.generators: dict[str, Generator] = {
            inst: instantiate(inst, spec["genref"], spec.get("genargs", {}), spec.get("modargs", {}))
            for inst, spec in sorted(body.get("instances", {}).items())
        }
        self.wire = self._wire_names()
        self.sinks: dict[tuple[str, str], dict[int | None, _End]] = {}
        self.used: dict[str, set[int]] = {}  # identifier -> bits read
        self.stage: dict[str, int] = meta.get("stage", {})  # instance -> pipeline stage (constants: none)
        self.input_stage: dict[str, int] = meta.get("input_stage", {})  # input ports read after stage 0
        self.module.stages = meta.get("stages", 1)
        # Values narrowed by their ranges (instance or input port -> (bits, signed)): their stage registers keep
        # those bits; `whole` maps such a register to the wire that extends it back to its width.
        self.narrow = stage_narrowing(meta, {p: s.width for p, (d, s) in self.ports.items() if d == "input"})
        self.whole: dict[str, str] = {}
        self.module.ranges = range_lines(meta)
        self.delayed: dict[tuple[str, int], str] = {}  # (driver, registers) -> the register holding it

    def _wire_names(self) -> dict[str, str]:
        names, taken = {}, set(self.ports)
        for inst in self.generators:
            if not _IDENTIFIER.match(inst):
                raise ValueError(f"instance name {inst!r} is not a Verilog identifier")
            name = inst
            while name in taken or name in RESERVED_NAMES:
                name += "_w"  # a port (or keyword) took the instance's name
            names[inst] = name
            taken.add(name)
        return names

    def run(self) -> _Module:
        for a, b in self.body.get("connections", []):
            self._connect(_End.parse(a), _End.parse(b))
        for inst in self._order():
            gen = self.generators[inst]
            operands = {key: self._operand(inst, key, shape, gen) for key, shape in sorted(gen.inputs.items())}
            genref = self.body["instances"][inst]["genref"]
            self.module.decls.extend(gen.decls)
            self.module.nets.append(_Net(self.wire[inst], gen.out, gen.expression(operands), genref))
        for port, (direction, shape) in self.ports.items():
            if direction == "output":
                self.module.outputs.append((port, self._sink_expression(("self", port), shape, None)))
        self.module.unused = self._unused_bits()
        return self.module

    def _shape(self, end: _End) -> tuple[bool, Shape]:
        """Whether `end` drives (an input port of the module, an instance's output) and its shape."""
        if end.owner == "self":
            if end.port not in self.ports:
                raise ValueError(f"connection to unknown port self.{end.port}")
            direction, shape = self.ports[end.port]
            return direction == "input", shape
        gen = self.generators.get(end.owner)
        if gen is None:
            raise ValueError(f"connection to unknown instance {end.owner!r}")
        if end.port == "out":
            return True, gen.out
        if end.port not in gen.inputs:
            raise ValueError(f"instance {end.owner!r} has no port {end.port!r}")
        return False, gen.inputs[end.port]

    def _connect(self, a: _End, b: _End) -> None:
        (a_drives, a_shape), (b_drives, b_shape) = self._shape(a), self._shape(b)
        if a_drives == b_drives:
            raise ValueError(f"connection {a} - {b} joins two {'drivers' if a_drives else 'sinks'}")
        driver, sink = (a, b) if a_drives else (b, a)
        d_width = 1 if driver.bit is not None else (a_shape if a_drives else b_shape).width
        s_width = 1 if sink.bit is not None else (b_shape if a_drives else a_shape).width
        if d_width != s_width:
            raise ValueError(f"connection {driver} -> {sink}: widths {d_width} and {s_width} differ")
        bits = self.sinks.setdefault((sink.owner, sink.port), {})
        if sink.bit in bits or (sink.bit is None and bits) or None in bits:
            raise ValueError(f"{sink.owner}.{sink.port} has more than one driver")
        bits[sink.bit] = driver

    def _order(self) -> list[str]:
        """Instances with every instance they read before them; ties by name (a stable text)."""
        needs = {inst: set() for inst in self.generators}
        for (owner, _), bits in self.sinks.items():
            if owner != "self":
                needs[owner] |= {d.owner for d in bits.values() if d.owner != "self"}
        order: list[str] = []
        done: set[str] = set()
        while len(order) < len(needs):
            ready = sorted(i for i in needs if i not in done and needs[i] <= done)
            if not ready:
                raise ValueError(f"combinational loop among {sorted(set(needs) - done)}")
            order.extend(ready)
            done.update(ready)
        return order

    def _driver_name(self, end: _End, sink_owner: str) -> str:
        """The identifier holding `end`'s value in the stage of `sink_owner` (registers where stages differ)."""
        name = end.port if end.owner == "self" else self.wire[end.owner]
        if end.owner not in self.stage and end.owner != "self":
            return name  # a constant: the same in every stage
        at = self.module.stages - 1 if sink_owner == "self" else self.stage.get(sink_owner, 0)
        delay = at - (self.input_stage.get(end.port, 0) if end.owner == "self" else self.stage[end.owner])
        assert delay >= 0, f"{end} feeds {sink_owner} of an earlier stage"
        shape = self.ports[end.port][1] if end.owner == "self" else self.generators[end.owner].out
        narrow = self.narrow.get(end.port if end.owner == "self" else end.owner)
        held = Shape(narrow[0]) if narrow else shape  # a stage register keeps the bits its value needs
        for k in range(1, delay + 1):
            if (name, k) not in self.delayed:
                source = self.delayed.get((name, k - 1), name)
                reg = self._fresh(f"{name}_r{k}")
                self.delayed[(name, k)] = reg
                take = f"{source}[{held.width - 1}:0]" if narrow and k == 1 else source
                self.module.registers.append((reg, take, held))
                self._mark(source, range(held.width))
        reg = self.delayed.get((name, delay), name)
        if not narrow or delay == 0:
            return reg
        if reg not in self.whole:  # readers take the value whole, from a wire that extends the register
            self.whole[reg] = self._fresh(f"{reg}_x")
            what = f"{reg} held in {held.width} bits, whole: {name} in [{narrow[2]}, {narrow[3]}]"  # prove_widen
            self.module.nets.append(_Net(self.whole[reg], shape, extended(reg, held.width, shape.width, narrow[1]),
                                         what))
            self._mark(reg, range(held.width))
        return self.whole[reg]

    def _fresh(self, name: str) -> str:
        taken = (set(self.ports) | set(self.wire.values()) | {n.name for n in self.module.nets}
                 | {r for r, _, _ in self.module.registers} | {"clk", "rst_n", "en"})
        while name in taken:
            name += "_w"
        return name

    def _mark(self, identifier: str, bits) -> None:
        self.used.setdefault(identifier, set()).update(bits)

    def _operand(self, inst: str, key: str, shape: Shape, gen: Generator) -> str:
        """An identifier holding operand `key` of `inst` (the driver itself, or a new net for bit gathers)."""
        lo, hi = gen.uses.get(key, (0, shape.width))
        expression = self._sink_expression((inst, key), shape, (lo, hi))
        if _IDENTIFIER.match(expression):
            return expression
        name = self._fresh(f"{self.wire[inst]}_{key}")
        self.module.nets.append(_Net(name, shape, expression, f"operand {key} of {inst}"))
        self._mark(name, range(lo, hi))
        return name

    def _sink_expression(self, sink: tuple[str, str], shape: Shape, uses: tuple[int, int] | None) -> str:
        """The Verilog expression of what drives `sink` (owner, port); marks the driver bits it reads (only
        `uses` [lo, hi) of a whole-port driver: a slice reads part of its operand)."""
        bits = self.sinks.get(sink)
        if not bits:
            raise ValueError(f"{sink[0]}.{sink[1]} of module {self.name} is not driven")
        if None in bits:
            end = bits[None]
            name = self._driver_name(end, sink[0])
            if end.bit is not None:  # one bit of a wider driver feeds a 1-bit port
                self._mark(name, [end.bit])
                return f"{name}[{end.bit}]"
            self._mark(name, range(*(uses or (0, shape.width))))
            return name
        missing = [i for i in range(shape.width) if i not in bits]
        if missing:
            raise ValueError(f"bits {missing} of {sink[0]}.{sink[1]} are not driven")
        runs: list[list] = []  # [name, hi, lo, is_whole]: MSB first
        for i in reversed(range(shape.width)):
            end = bits[i]
            name = self._driver_name(end, sink[0])
            if end.bit is None:  # a single-bit driver as a whole
                self._mark(name, [0])
                runs.append([name, 0, 0, True])
                continue
            self._mark(name, [end.bit])
            last = runs[-1] if runs else None
            if last and not last[3] and last[0] == name and last[2] == end.bit + 1:
                last[2] = end.bit
            else:
                runs.append([name, end.bit, end.bit, False])
        parts = [n if whole else (f"{n}[{hi}]" if hi == lo else f"{n}[{hi}:{lo}]") for n, hi, lo, whole in runs]
        return parts[0] if len(parts) == 1 else "{" + ", ".join(parts) + "}"

    def _unused_bits(self) -> list[str]:
        readable = [(p, s) for p, (d, s) in self.ports.items() if d == "input"]
        readable += [(n.name, n.shape) for n in self.module.nets]
        readable += [(r, shape) for r, _, shape in self.module.registers]
        found = []
        for name, shape in readable:
            unused = [i for i in range(shape.width) if i not in self.used.get(name, set())]
            if not unused:
                continue
            if shape.bit or len(unused) == shape.width:
                found.append(name)
                continue
            runs: list[list[int]] = []
            for i in reversed(unused):
                if runs and runs[-1][1] == i + 1:
                    runs[-1][1] = i
                else:
                    runs.append([i, i])
            found += [f"{name}[{hi}]" if hi == lo else f"{name}[{hi}:{lo}]" for hi, lo in runs]
        return found


def _range(shape: Shape) -> str:
    return "" if shape.bit else f"[{shape.width - 1}:0] "


def _comment(text: str) -> str:
    """Text safe inside a // comment: one line, no characters a Verilog reader could trip on."""
    return "".join(c if c.isprintable() and c.isascii() else "?" for c in " ".join(str(text).split()))


def _print(m: _Module) -> str:
    types = ", ".join(f"{p} {m.port_types[p]}" for p, _, _ in m.ports if p in m.port_types)
    what = "combinational compute kernel" if m.stages == 1 else f"compute kernel pipelined in {m.stages} stages"
    lines = [
        f"// {m.name}: {what}.",
        f"// Generated by mainspring.verilog.kernel from the CoreIR JSON module global.{m.name}",
        "// (written by mainspring.compute_json). Do not edit: regenerate from the JSON.",
    ]
    if m.source:
        lines.append(f"// Kernel of {_comment(m.source)}.")
    if types:
        lines.append(f"// Halide port types: {types}.")
    ports = [(p, "input", Shape(1, bit=True)) for p in PIPELINE_PORTS if m.stages > 1] + m.ports
    lines += ["`default_nettype none", f"module {m.name} ("]
    width = max(len(_range(s)) for _, _, s in ports)
    for i, (port, direction, shape) in enumerate(ports):
        comma = "," if i + 1 < len(ports) else ""
        lines.append(f"    {direction:<6} wire {_range(shape):<{width}}{port}{comma}")
    lines.append(");")
    lines += [f"    {ln}" for ln in m.ranges]
    if m.stages > 1:
        lines.append(f"    // {m.stages} stages: the outputs follow their inputs by {m.stages - 1} cycles "
                     "(held while !en)")
    lines += [f"    {ln}" for ln in m.decls]
    lines += [f"    reg {_range(shape)}{r};" for r, _, shape in m.registers]
    for net in m.nets:
        lines.append(f"    wire {_range(net.shape)}{net.name} = {net.expression};  // {net.comment}")
    for r, source, shape in m.registers:
        lines.append(f"    {_REGISTER.format(reg=r, source=source, zero=f'{shape.width}{chr(39)}d0')}")
    if m.unused:
        taken = {p for p, _, _ in ports} | {n.name for n in m.nets} | {r for r, _, _ in m.registers}
        name = "unused_bits"
        while name in taken:
            name += "_w"
        # Verilator's -Wall exempts signals named *unused*: this one reads every bit nothing else reads.
        lines.append(f"    wire {name} = &{{1'b0, {', '.join(m.unused)}}};  // bits no output depends on")
    for port, expression in m.outputs:
        if port in m.exprs:
            lines.append(f"    // {port} = {_comment(m.exprs[port])}")
        lines.append(f"    assign {port} = {expression};")
    lines += ["endmodule", "`default_nettype wire", ""]
    return "\n".join(lines)


PIPELINE_PORTS = ("clk", "rst_n", "en")
# One line per stage register, so that `combinational_view` can read it back.
_REGISTER = "always @(posedge clk) if (!rst_n) {reg} <= {zero}; else if (en) {reg} <= {source};  // stage register"
_REGISTER_LINE = re.compile(r"^(\s*)always @\(posedge clk\) if \(!rst_n\) (\w+) <= \S+; else if \(en\) \2 <= "
                            r"(\w+(?:\[\d+:0\])?);  // stage register$", re.MULTILINE)


def combinational_view(text: str) -> str:
    """A kernel module's text with its stage registers as wires: the function a balanced pipeline computes
    (every path from an input to an output crosses the same registers), `stages - 1` cycles later. The proofs
    read kernels this way, without the `clk`, `rst_n` and `en` ports (they come first, so each ends in a comma)."""
    text = re.sub(r"^\s*input\s+wire\s+(clk|rst_n|en),\n", "", text, flags=re.MULTILINE)
    text = _REGISTER_LINE.sub(lambda m: f"{m.group(1)}assign {m.group(2)} = {m.group(3)};", text)
    return re.sub(r"^(\s*)reg (\[\d+:0\] )?(\w+);$", r"\1wire \2\3;", text, flags=re.MULTILINE)


def kernel_stages(doc: dict, module: str) -> int:
    """The pipeline stages of kernel `module` of compute JSON `doc` (1: combinational)."""
    body = doc["namespaces"]["global"]["modules"][module]
    return body.get("metadata", {}).get("mainspring", {}).get("stages", 1)
