"""Structural checks on the emitted Verilog, made on pyverilog's parse of it (`verify_verilog`).

What the generator promises of a design's Verilog (the top, the GLB's top and array when there is one, the
kernels) together with the library `ms_library.v`:
- every module is defined once, and every module instantiated is defined;
- every instance connects its ports by name, only ports its module has, each at most once, every input; every
  parameter it sets exists; a port and its connection have the same width where both are constant (the
  port's width evaluated with the instance's parameters);
- every identifier used is declared (Verilog would make an undeclared one an implicit 1-bit wire);
- no signal has two drivers (continuous assigns, initialised declarations, always blocks and instance
  outputs; the generator drives whole signals, so drivers are counted per name; the branches of a generate
  `if` are alternatives) and no input port is driven inside its module;
- the top has the ports the test bench connects (`sim/bench.py`): `clk` and `rst_n`, streams of
  `NAME_data`/`NAME_valid`/`NAME_ready` (exactly one of them an output), configuration inputs, and the GLB's
  1-bit marks.

A failure is the compiler's bug, not the user's: an AssertionError naming the file, line, module and signal.
The library is parsed and checked once per content; building pyverilog's LR tables (~1 s) is done once per
machine (pickled in the temp folder). Parsing is most of a design's cost (20-150 ms); a design that passed is
not checked again in the process (tests compile the same design many times).
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import hashlib
import os
import pickle
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import ply
import pyverilog
import pyverilog.vparser.ast as vast
from ply.yacc import NullLogger, yacc
from pyverilog.vparser.lexer import VerilogLexer
from pyverilog.vparser.parser import ParseError, VerilogParser

from .glb import MARKS

LIBRARY = Path(__file__).resolve().parent / "ms_library.v"
# pyverilog's grammar has no `input integer` in function declarations (the library's functions use it); the
# same 32-bit signed input spelled out parses, on the same line.
_FUNCTION_INTEGER = re.compile(r"\binput\s+integer\b")
_DECLARATIONS = (vast.Variable, vast.Parameter)
_PORTS = {vast.Input: "input", vast.Output: "output", vast.Inout: "inout"}


@dataclass(frozen=True, slots=True)
class _Port:
    direction: str
    width: vast.Width | None
    line: int


@dataclass(frozen=True, slots=True)
class _Module:
    """A module definition and what an instance of it needs: its parameters and ports in order."""

    file: str
    node: vast.ModuleDef
    params: dict[str, vast.Node | None]  # name -> default value
    ports: dict[str, _Port]

    @property
    def name(self) -> str:
        return self.node.name

    def where(self, line: int) -> str:
        return f"{self.file}:{line}: module {self.name}"


def verify_verilog(name: str, text: str) -> None:
    """Check the structure the generator promises of design `name`'s Verilog `text` (saved as `name.v`, read
    with the library); raise AssertionError naming the file, line, module and signal where it does not hold."""
    library_text = LIBRARY.read_text(encoding="utf-8")
    # The verdict is a function of these texts alone; tests compile the same design again and again.
    key = hashlib.sha256(f"{name}\0{library_text}\0{text}".encode()).hexdigest()
    if key not in _PASSED:
        _verify(name, text, _library(library_text))
        _PASSED.add(key)


_PASSED: set[str] = set()  # the keys of the designs that passed in this process (a failure is checked again)


def _verify(name: str, text: str, library: dict[str, _Module]) -> None:
    design = _parse(f"{name}.v", text)
    for m in design.values():
        other = library.get(m.name)
        assert other is None, (f"{m.where(m.node.lineno)}: defined again (also {other.file}:{other.node.lineno})")
    modules = {**library, **design}
    for m in design.values():
        _check_module(m, modules)
    assert name in design, f"{name}.v: the top module {name} is not defined (modules: {', '.join(design)})"
    _check_interface(design[name])


@functools.lru_cache(maxsize=4)
def _library(text: str) -> dict[str, _Module]:
    """The library's modules, checked (cached by content: the library is the same for every design)."""
    modules = _parse(LIBRARY.name, text)
    for m in modules.values():
        _check_module(m, modules)
    return modules


class _Parser(VerilogParser):
    """pyverilog's parser with its LR tables read from (or pickled to) `tables`, rather than rebuilt in every
    process and written as parsetab.py into the working folder."""

    def __init__(self, tables: Path):
        # Not VerilogParser.__init__: it builds the tables each time and writes them into the working folder.
        self.lexer = VerilogLexer(error_func=self._lexer_error_func)
        self.lexer.build()
        self.tokens = self.lexer.tokens
        self.parser = yacc(module=self, method="LALR", debug=False, write_tables=False, picklefile=str(tables),
                           errorlog=NullLogger())


@functools.cache
def _parser() -> _Parser:
    key = hashlib.sha256(f"{pyverilog.__file__} {pyverilog.__version__} {ply.__version__}".encode()).hexdigest()
    tables = Path(tempfile.gettempdir()) / f"mainspring-pyverilog-{key[:16]}.pickle"
    if tables.exists():
        # A damaged file (PLY unpickles it): rebuilt below.
        with contextlib.suppress(EOFError, pickle.UnpicklingError, ValueError, TypeError, OSError):
            return _Parser(tables)
    # Built under a name of this process's own and renamed, so a parallel process never reads half a file.
    mine = tables.with_name(f"{tables.name}.{os.getpid()}")
    parser = _Parser(mine)
    with contextlib.suppress(OSError):  # an unwritable temp folder: the tables stay in this process only
        os.replace(mine, tables)
    return parser


def _parse(file: str, text: str) -> dict[str, _Module]:
    parser = _parser()
    parser.lexer.lexer.lineno = 1  # the lexer counts on from the previous text otherwise
    parser.lexer.directives.clear()  # the lexer keeps every directive it has read; none is used
    try:
        source = parser.parse(_FUNCTION_INTEGER.sub("input signed [31:0]", text))
    except ParseError as e:
        raise AssertionError(f"{file}: pyverilog cannot parse the emitted Verilog: {e}") from None
    modules: dict[str, _Module] = {}
    for node in source.description.definitions:
        if not isinstance(node, vast.ModuleDef):
            continue
        m = _module(file, node)
        assert m.name not in modules, f"{m.where(node.lineno)}: defined twice in {file}"
        modules[m.name] = m
    return modules


def _module(file: str, node: vast.ModuleDef) -> _Module:
    params: dict[str, vast.Node | None] = {}
    ports: dict[str, _Port] = {}
    decls = [d for d in node.paramlist.params if isinstance(d, vast.Decl)]
    decls += [d for d in node.items if isinstance(d, vast.Decl)]  # module-level only: not a function's inputs
    for p in node.portlist.ports:
        if isinstance(p, vast.Ioport):
            decls.append(vast.Decl([p.first]))
    for d in decls:
        for v in d.list:
            if type(v) is vast.Parameter:
                params[v.name] = v.value
            elif type(v) in _PORTS:
                ports[v.name] = _Port(_PORTS[type(v)], v.width, v.lineno or d.lineno)
    return _Module(file, node, params, ports)


def _walk(node: vast.Node) -> list[vast.Node]:
    """`node` and the nodes under it, in the text's order (so the first failure found is the first in the file);
    a list, walked without recursion: a module's checks read it several times."""
    found, stack = [], [node]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(child for child in reversed(node.children()) if child is not None)
    return found


def _check_module(m: _Module, modules: dict[str, _Module]) -> None:
    nodes = _walk(m.node)
    declared = {v.name for v in nodes if isinstance(v, _DECLARATIONS)}
    declared |= {f.name for f in nodes if isinstance(f, (vast.Function, vast.Task))}
    for ident in nodes:
        # A scoped name (dim[k - 1].carry_out) is declared in a generate block of its own.
        if isinstance(ident, vast.Identifier) and ident.scope is None and ident.name not in declared:
            hint = _hint(ident.name, declared)
            raise AssertionError(f"{m.where(ident.lineno)}: '{ident.name}' is used but not declared{hint}")
    env, signals = _environment(m), _signals(m)
    for inst in (n for n in nodes if isinstance(n, vast.Instance)):
        _check_instance(m, inst, modules, env, signals)
    _check_drivers(m, _drivers(m.node.items, modules))


def _hint(name: str, names) -> str:
    close = difflib.get_close_matches(name, sorted(names), n=1)
    return f"; did you mean {close[0]}?" if close else ""


def _check_instance(m: _Module, inst: vast.Instance, modules: dict[str, _Module], env: dict, signals) -> None:
    where = f"{m.where(inst.lineno)}: instance {inst.name}"
    sub = modules.get(inst.module)
    assert sub is not None, (f"{where} of module {inst.module}, which neither the design nor {LIBRARY.name} "
                             f"defines{_hint(inst.module, modules)}")
    sub_env = dict(sub.params)
    for arg in inst.parameterlist:
        assert arg.paramname in sub.params, (f"{where} of {sub.name} sets parameter {arg.paramname}, which "
                                             f"{sub.name} does not have{_hint(arg.paramname, sub.params)}")
        sub_env[arg.paramname] = _const(arg.argname, env)
    sub_env = _evaluate_params(sub_env)
    connected = set()
    for arg in inst.portlist:
        port = arg.portname
        assert port is not None, f"{where} of {sub.name} connects a port by position, not by name"
        assert port in sub.ports, f"{where} of {sub.name} has no port '{port}'{_hint(port, sub.ports)}"
        assert port not in connected, f"{where} of {sub.name} connects port '{port}' twice"
        connected.add(port)
        want, have = _width_of(sub.ports[port].width, sub_env), _expr_width(arg.argname, signals, env)
        assert want is None or have is None or want == have, (
            f"{where} of {sub.name}: port '{port}' has width {want}, its connection "
            f"'{_text(arg.argname)}' width {have}")
    for port, p in sub.ports.items():
        assert p.direction != "input" or port in connected, f"{where} of {sub.name} leaves input '{port}' open"


def _text(node: vast.Node) -> str:
    # Imported here: the code generator loads jinja2's templates, which only a failure's message needs.
    from pyverilog.ast_code_generator.codegen import ASTCodeGenerator

    return ASTCodeGenerator().visit(node)


# ---- constants and widths ----

_BINARY = {
    vast.Plus: lambda a, b: a + b, vast.Minus: lambda a, b: a - b, vast.Times: lambda a, b: a * b,
    vast.Divide: lambda a, b: a // b if b else None, vast.Mod: lambda a, b: a % b if b else None,
    vast.Power: lambda a, b: a ** b if 0 <= b < 64 else None, vast.Sll: lambda a, b: a << b if b < 64 else None,
    vast.Srl: lambda a, b: a >> b,
}
_LITERAL = re.compile(r"(\d*)'s?([bodh])([0-9a-f]+)\Z")
_BASES = {"b": 2, "o": 8, "d": 10, "h": 16}


def _const(node: vast.Node | None, env: dict[str, int | None]) -> int | None:
    """The value of a constant expression over literals and `env`'s parameters (None: not one we evaluate)."""
    if isinstance(node, vast.Rvalue):
        return _const(node.var, env)
    if isinstance(node, vast.IntConst):
        text = node.value.replace("_", "").lower()
        if text.isdigit():
            return int(text)
        match = _LITERAL.match(text)
        return int(match[3], _BASES[match[2]]) if match else None  # x and z digits are no number
    if isinstance(node, vast.Identifier):
        return env.get(node.name) if node.scope is None else None
    if isinstance(node, vast.Uminus):
        value = _const(node.right, env)
        return None if value is None else -value
    op = _BINARY.get(type(node))
    if op is None:
        return None
    a, b = _const(node.left, env), _const(node.right, env)
    return None if a is None or b is None else op(a, b)


def _evaluate_params(values: dict) -> dict[str, int | None]:
    """Parameters in declaration order (a default may use an earlier one); values are nodes or numbers."""
    env: dict[str, int | None] = {}
    for name, value in values.items():
        env[name] = value if value is None or isinstance(value, int) else _const(value, env)
    return env


def _environment(m: _Module) -> dict[str, int | None]:
    values: dict = dict(m.params)
    for d in (i for i in m.node.items if isinstance(i, vast.Decl)):
        values.update({v.name: v.value for v in d.list if isinstance(v, vast.Localparam)})
    return _evaluate_params(values)


def _width_of(width: vast.Width | None, env: dict[str, int | None]) -> int | None:
    if width is None:
        return 1
    msb, lsb = _const(width.msb, env), _const(width.lsb, env)
    return None if msb is None or lsb is None else abs(msb - lsb) + 1


def _signals(m: _Module) -> dict[str, vast.Variable]:
    """The module-level signals (ports first: their declarations carry the width)."""
    found: dict[str, vast.Variable] = {}
    for p in m.node.portlist.ports:
        if isinstance(p, vast.Ioport):
            found[p.first.name] = p.first
    for d in (i for i in m.node.items if isinstance(i, vast.Decl)):
        for v in d.list:
            if isinstance(v, vast.Variable):
                found.setdefault(v.name, v)
    return found


def _expr_width(node: vast.Node | None, signals: dict[str, vast.Variable], env) -> int | None:
    """The width of a port connection where it is evident (None otherwise: Verilog's sizing rules apply)."""
    if isinstance(node, vast.Identifier) and node.scope is None and node.name in signals:
        v = signals[node.name]
        if v.dimensions is not None:
            return None  # a memory, connected whole
        return 32 if isinstance(v, vast.Integer) else _width_of(v.width, env)
    if isinstance(node, vast.IntConst):
        size = re.match(r"(\d+)'", node.value)
        return int(size[1]) if size else None
    if isinstance(node, vast.Pointer) and isinstance(node.var, vast.Identifier) and node.var.name in signals:
        v = signals[node.var.name]
        return _width_of(v.width, env) if v.dimensions is not None else 1
    if isinstance(node, vast.Partselect):
        return _width_of(vast.Width(node.msb, node.lsb), env)
    if isinstance(node, vast.Concat):
        parts = [_expr_width(p, signals, env) for p in node.list]
        return None if None in parts else sum(parts)
    if isinstance(node, vast.Repeat):
        times, each = _const(node.times, env), _expr_width(node.value, signals, env)
        return None if times is None or each is None else times * each
    return None


# ---- drivers ----

def _targets(node: vast.Node | None) -> list[str]:
    """The signals an assignment's left side (or an output port's connection) writes."""
    if isinstance(node, vast.Lvalue):
        return _targets(node.var)
    if isinstance(node, vast.Identifier):
        return [node.name] if node.scope is None else []
    if isinstance(node, (vast.Pointer, vast.Partselect)):
        return _targets(node.var)
    if isinstance(node, (vast.LConcat, vast.Concat)):
        return [n for part in node.list for n in _targets(part)]
    return []


def _drivers(items, modules: dict[str, _Module]) -> dict[str, list[int]]:
    """Signal -> the lines of its drivers among `items` (a module's items, or a generate block's)."""
    found: dict[str, list[int]] = {}
    for item in items:
        for name, lines in _item_drivers(item, modules).items():
            found.setdefault(name, []).extend(lines)
    return found


def _item_drivers(item: vast.Node, modules: dict[str, _Module]) -> dict[str, list[int]]:
    if isinstance(item, vast.GenerateStatement):
        return _drivers(item.items, modules)
    if isinstance(item, vast.Block):
        return _drivers(item.statements, modules)
    if isinstance(item, vast.ForStatement):  # a generate loop's body: its names are per iteration
        return _item_drivers(item.statement, modules)
    if isinstance(item, vast.IfStatement):  # a generate if: only one branch is built
        merged: dict[str, list[int]] = {}
        for branch in (item.true_statement, item.false_statement):
            for name, lines in (_item_drivers(branch, modules) if branch is not None else {}).items():
                if len(lines) > len(merged.get(name, ())):
                    merged[name] = lines
        return merged
    if isinstance(item, vast.Assign):
        return {name: [item.lineno] for name in _targets(item.left)}
    if isinstance(item, vast.Decl):  # `wire x = ...;`
        return {name: [a.lineno] for a in item.list if isinstance(a, vast.Assign) for name in _targets(a.left)}
    if isinstance(item, vast.Always):
        subs = (s for s in _walk(item.statement) if isinstance(s, vast.Substitution))
        return {name: [item.lineno] for s in subs for name in _targets(s.left)}
    if isinstance(item, vast.InstanceList):
        found: dict[str, list[int]] = {}
        for inst in item.instances:
            ports = modules[inst.module].ports
            for arg in inst.portlist:
                if ports[arg.portname].direction != "input":
                    for name in _targets(arg.argname):
                        found.setdefault(name, []).append(inst.lineno)
        return found
    return {}  # functions, tasks, initial blocks, declarations without a value: they drive no net


def _check_drivers(m: _Module, drivers: dict[str, list[int]]) -> None:
    for name, lines in drivers.items():
        port = m.ports.get(name)
        assert port is None or port.direction != "input", f"{m.where(lines[0])}: input '{name}' is driven inside"
        assert len(lines) == 1, (f"{m.where(lines[1])}: '{name}' has {len(lines)} drivers (lines "
                                 f"{', '.join(map(str, lines))})")


# ---- the top's ports ----

def _check_interface(top: _Module) -> None:
    """The ports `sim/bench.py` connects: clk, rst_n, streams, configuration inputs and marks."""
    ports = top.ports
    width = {n: _width_of(p.width, {}) for n, p in ports.items()}
    for clock in ("clk", "rst_n"):
        p = ports.get(clock)
        have = "has none" if p is None else f"has a {width[clock]}-bit {p.direction}"
        assert p is not None and p.direction == "input" and width[clock] == 1, (
            f"{top.where(p.line if p else top.node.lineno)}: the test bench drives a 1-bit input '{clock}'; the "
            f"top {have}")
    streams = [n.removesuffix("_valid") for n in ports if n.endswith("_valid")]
    outputs = []
    for s in streams:
        data, valid, ready = f"{s}_data", f"{s}_valid", f"{s}_ready"
        missing = [n for n in (data, ready) if n not in ports]
        assert not missing, f"{top.where(ports[valid].line)}: stream {s} has no port {missing[0]}"
        way = ports[valid].direction
        assert ports[data].direction == way and ports[ready].direction != way and width[ready] == width[valid] == 1, (
            f"{top.where(ports[valid].line)}: stream {s}: the test bench expects {data} and a 1-bit {valid} one "
            f"way and a 1-bit {ready} the other")
        if way == "output":
            outputs.append(s)
    assert len(outputs) == 1, (f"{top.where(top.node.lineno)}: the test bench reads one output stream, the top "
                               f"has {len(outputs)} ({', '.join(outputs)})")
    streamed = {f"{s}_{part}" for s in streams for part in ("data", "valid", "ready")} | {"clk", "rst_n"}
    for name, p in ports.items():
        if name not in streamed and p.direction != "input":
            assert name in MARKS and width[name] == 1, (
                f"{top.where(p.line)}: output '{name}' is neither a stream's nor a 1-bit mark the test bench logs "
                f"({', '.join(MARKS)})")
