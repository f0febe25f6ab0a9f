"""The CoreIR generators `verilog.kernel` can render: their ports and their meaning as Verilog-2005 expressions.

Each generator is rendered with CoreIR's own meaning (as CoreIR's Verilog backend defines it): `coreir.udiv`
is Verilog's `/` (x/0 is X, which the JSON guards with a mux), shift amounts are unsigned, `commonlib.abs`
wraps (abs of the most negative value is itself, i.e. the unsigned magnitude), and so on. The Halide meaning
is `compute_json`'s business: it composes these into exactly Halide's semantics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mainspring.frontend.errors import did_you_mean


@dataclass(frozen=True, slots=True)
class Shape:
    """A port's shape: `width` bits; `bit` for CoreIR's single `Bit` (a Verilog scalar), not an `Array`."""

    width: int
    bit: bool = False


@dataclass(frozen=True, slots=True)
class Generator:
    """An instantiated generator: its input ports, its output `out`, and how to print it."""

    inputs: dict[str, Shape]
    out: Shape
    template: str  # a %-format template over the input port names, e.g. "%(in0)s + %(in1)s"
    uses: dict[str, tuple[int, int]] = field(default_factory=dict)  # input port -> the bit range [lo, hi) read
    decls: tuple[str, ...] = ()  # module-level lines the expression needs (a ROM's table)

    def expression(self, operands: dict[str, str]) -> str:
        return self.template % operands


_BINARY = {
    "coreir.add": "%(in0)s + %(in1)s", "coreir.sub": "%(in0)s - %(in1)s", "coreir.mul": "%(in0)s * %(in1)s",
    "coreir.and": "%(in0)s & %(in1)s", "coreir.or": "%(in0)s | %(in1)s", "coreir.xor": "%(in0)s ^ %(in1)s",
    "coreir.shl": "%(in0)s << %(in1)s", "coreir.lshr": "%(in0)s >> %(in1)s",
    "coreir.ashr": "$signed(%(in0)s) >>> %(in1)s",
    "coreir.udiv": "%(in0)s / %(in1)s", "coreir.urem": "%(in0)s %% %(in1)s",
    # commonlib's min/max render only at width 16 in CoreIR 2.0.156; compute_json uses a compare and a mux.
    "commonlib.umin": "(%(in0)s < %(in1)s) ? %(in0)s : %(in1)s",
    "commonlib.umax": "(%(in0)s > %(in1)s) ? %(in0)s : %(in1)s",
    "commonlib.smin": "($signed(%(in0)s) < $signed(%(in1)s)) ? %(in0)s : %(in1)s",
    "commonlib.smax": "($signed(%(in0)s) > $signed(%(in1)s)) ? %(in0)s : %(in1)s",
}
_COMPARE = {
    "coreir.eq": "%(in0)s == %(in1)s", "coreir.neq": "%(in0)s != %(in1)s",
    "coreir.ult": "%(in0)s < %(in1)s", "coreir.ule": "%(in0)s <= %(in1)s",
    "coreir.ugt": "%(in0)s > %(in1)s", "coreir.uge": "%(in0)s >= %(in1)s",
    "coreir.slt": "$signed(%(in0)s) < $signed(%(in1)s)", "coreir.sle": "$signed(%(in0)s) <= $signed(%(in1)s)",
    "coreir.sgt": "$signed(%(in0)s) > $signed(%(in1)s)", "coreir.sge": "$signed(%(in0)s) >= $signed(%(in1)s)",
}
_UNARY = {"coreir.not": "~%(in)s", "coreir.neg": "-%(in)s"}
_LITERAL = re.compile(r"(\d+)'h([0-9a-fA-F]+)\Z")
SUPPORTED = sorted(set(_BINARY) | set(_COMPARE) | set(_UNARY) | {
    "coreir.mux", "coreir.const", "coreir.concat", "coreir.sext", "coreir.slice", "commonlib.abs",
    "mainspring.rom"})


def instantiate(name: str, genref: str, genargs: dict, modargs: dict) -> Generator:
    """The generator `genref` with its arguments (`genargs`/`modargs` as in CoreIR JSON: ["Int", 16])."""
    args = {k: _int_arg(name, k, v) for k, v in genargs.items()}
    w = args.get("width")
    if genref in _BINARY:
        return Generator({"in0": Shape(w), "in1": Shape(w)}, Shape(w), _BINARY[genref])
    if genref in _COMPARE:
        return Generator({"in0": Shape(w), "in1": Shape(w)}, Shape(1, bit=True), _COMPARE[genref])
    if genref in _UNARY:
        return Generator({"in": Shape(w)}, Shape(w), _UNARY[genref])
    if genref == "commonlib.abs":
        return Generator({"in": Shape(w)}, Shape(w), f"%(in)s[{w - 1}] ? -%(in)s : %(in)s")
    if genref == "coreir.mux":
        return Generator({"in0": Shape(w), "in1": Shape(w), "sel": Shape(1, bit=True)}, Shape(w),
                         "%(sel)s ? %(in1)s : %(in0)s")
    if genref == "coreir.const":
        return Generator({}, Shape(w), _literal(name, w, modargs))
    if genref == "coreir.concat":
        w0, w1 = args["width0"], args["width1"]
        return Generator({"in0": Shape(w0), "in1": Shape(w1)}, Shape(w0 + w1), "{%(in1)s, %(in0)s}")
    if genref == "coreir.sext":
        wi, wo = args["width_in"], args["width_out"]
        return Generator({"in": Shape(wi)}, Shape(wo), "{{%d{%%(in)s[%d]}}, %%(in)s}" % (wo - wi, wi - 1))  # noqa: UP031 - a %-template
    if genref == "coreir.slice":
        lo, hi = args["lo"], args["hi"]
        select = f"[{lo}]" if hi - lo == 1 else f"[{hi - 1}:{lo}]"
        return Generator({"in": Shape(w)}, Shape(hi - lo), "%(in)s" + select, uses={"in": (lo, hi)})
    if genref == "mainspring.rom":
        return _rom(name, w, args["depth"], modargs)
    raise ValueError(
        f"instance '{name}': generator {genref} is not supported by mainspring.verilog.kernel"
        f"{did_you_mean(genref, SUPPORTED)} (supported: {', '.join(SUPPORTED)})"
    )


def _rom(name: str, width: int, depth: int, modargs: dict) -> Generator:
    """A combinational ROM: `table[in]` over a table padded with zeros to a power of two (no index is out of
    range), initialised from the instance's `init` (the table's bit patterns)."""
    init = modargs.get("init")
    if not (isinstance(init, list) and len(init) == 2 and init[0] == "Json" and isinstance(init[1], list)
            and len(init[1]) == depth and all(isinstance(v, int) and 0 <= v < (1 << width) for v in init[1])):
        raise ValueError(f"instance '{name}': a ROM's init must be [\"Json\", [{depth} {width}-bit patterns]]")
    aw = max(1, (depth - 1).bit_length())
    table = f"{name}_table"
    lines = [f"reg [{width - 1}:0] {table} [0:{(1 << aw) - 1}];", "initial begin"]
    lines += [f"    {table}[{i}] = {width}'h{v:x};" for i, v in enumerate(init[1] + [0] * ((1 << aw) - depth))]
    lines.append("end")
    return Generator({"in": Shape(32)}, Shape(width), f"{table}[%(in)s[{aw - 1}:0]]", uses={"in": (0, aw)},
                     decls=tuple(lines))


def _int_arg(name: str, key: str, value) -> int:
    if not (isinstance(value, list) and len(value) == 2 and value[0] == "Int" and isinstance(value[1], int)):
        raise ValueError(f"instance '{name}': genarg {key} = {value!r} is not of the form [\"Int\", n]")
    return value[1]


def _literal(name: str, width: int, modargs: dict) -> str:
    value = modargs.get("value")
    ok = isinstance(value, list) and len(value) == 2 and value[0] == ["BitVector", width]
    match = _LITERAL.match(value[1]) if ok and isinstance(value[1], str) else None
    if not match or int(match.group(1)) != width or int(match.group(2), 16) >> width:
        raise ValueError(f"instance '{name}': constant value {value!r} is not a {width}-bit BitVector literal")
    return value[1]
