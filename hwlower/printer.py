"""Print a loop nest the way Halide prints lowered statements (seed 002's listing)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mainspring.frontend import ir
from mainspring.frontend.types import Int

from .ir import Access, CoordPort, LoadPort, Loop, LoopNest, Op, RamInit
from .program import HwProgram


def _ram_role(init: RamInit) -> str:
    if isinstance(init, int):
        return f" (RAM, every element {init} before its first update)"
    return f" (RAM, its elements {list(init[:8])}{' ...' if len(init) > 8 else ''} before their first update)"


def format_nest(nest: LoopNest) -> str:
    lines = [(f"// accelerator {nest.name}: inputs {', '.join(nest.inputs)} streamed from the host, "
              f"output {nest.output} streamed back")]
    if any(k != 1 for _, k in nest.lanes):
        lines.append("// lanes (words per transfer): " + ", ".join(f"{b} {k}" for b, k in nest.lanes))
    for b in nest.buffers:
        box = ", ".join(f"[{lo}, {ext}]" for lo, ext in b.box)
        role = (" (accelerator input)" if b.name in nest.inputs
                else (" (accelerator output)" if b.name == nest.output else ""))
        role += _ram_role(b.init) if b.init is not None else ""
        lines.append(f"realize {b.name}.stencil({box}) : {b.type}{role}")
    by_func: dict[str, list[Loop | Op]] = {}
    for node in nest.body:
        by_func.setdefault(_func_of(node), []).append(node)
    for func, nodes in by_func.items():
        lines.append(f"produce {func}.stencil {{")
        for n in nodes:
            _emit(n, 1, lines)
        lines.append("}")
    return "\n".join(lines) + "\n"


def _func_of(node: Loop | Op) -> str:
    while isinstance(node, Loop):
        node = node.body[0]
    return node.func


def _emit(node: Loop | Op, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    if isinstance(node, Loop):
        kind = "unrolled " if node.unrolled else ""
        lines.append(f"{pad}{kind}for ({node.var}, {node.min}, {node.extent}) {{")
        for c in node.body:
            _emit(c, depth + 1, lines)
        lines.append(f"{pad}}}")
    else:
        assert isinstance(node, Op)
        # a RAM update's computed coordinates, or those of a RAM read (a load with no index either way)
        at = ", ".join(_value(e) for e in node.scatter or node.lookup)
        lines.append(f"{pad}{_access(node.store, at)} = {_value(node.value, at)}")


def _access(a: Access, at: str = "") -> str:
    return f"{a.buffer}.stencil({', '.join(str(i) for i in a.index) if a.index else at})"


def _value(e: ir.Expr, at: str = "") -> str:
    text = ir.to_string(e)
    for n in ir.walk(e):
        if isinstance(n, ir.Call) and isinstance(n.callee, LoadPort):
            text = text.replace(n.callee.name, _access(n.callee.access, at))
        elif isinstance(n, ir.Call) and isinstance(n.callee, CoordPort):  # a coordinate: its loops' value
            c = n.callee
            shown = f"({c.value})" if c.fn is None else \
                f"({ir.to_string(ir.substitute(c.fn, {c.var: ir.Var(Int(32), f'({c.value})')}))})"
            text = re.sub(rf"\b{c.name}\b", shown, text)
    return text


def format_program(program: HwProgram) -> str:
    """The whole accelerated region: with a GLB level, seed 002's three sections (the host loop over GLB
    tiles, the GLB tile buffers and their transfers, the array's memory tiles) around the array's nest."""
    g = program.glb
    if g is None:
        return format_nest(program.nest)
    first = program.tiles[0].boxes
    out = g.output
    lines = [(f"// host: {len(program.tiles)} GLB tile(s); each loads the GLB input tiles, runs the array once per "
              f"memory tile ({len(g.mem_tiles)} per GLB tile) and reads the GLB output tile back")]
    depth = 0
    for name, n in g.host_loops:
        lines.append(f"{'  ' * depth}for ({name}, 0, {n}) {{  // host loop over GLB tiles")
        depth += 1
    pad = "  " * depth
    for name, src in zip(g.inputs, g.sources):
        lines.append(f"{pad}realize {name}.glb.stencil({_box(first[name])})  // GLB input tile")
        lines.append(f"{pad}  produce {name}.glb.stencil = {src}.stencil  // host -> GLB")
    lines.append(f"{pad}realize {out}.glb.stencil({_box(first[out])})  // GLB output tile")
    lines.append(f"{pad}produce {out}.glb.stencil {{  // the CGRA: memory tiles and PEs")
    inner = depth + 1
    for name, n in g.mem_loops:
        lines.append(f"{'  ' * inner}for ({name}, 0, {n}) {{  // memory tiles in the GLB tile")
        inner += 1
    array = format_nest(program.nest).replace("streamed from the host", "streamed from the GLB", 1)
    array = array.replace("streamed back", "written to the GLB (boxes of the first memory tile)", 1)
    for line in array.splitlines():
        lines.append("  " * inner + line)
    for k in range(inner - 1, depth, -1):
        lines.append(f"{'  ' * k}}}")
    lines.append(f"{pad}}}")
    lines.append(f"{pad}consume {out}.glb.stencil {{  // GLB -> host, in this order")
    node = g.readback
    for k, lp in enumerate(g.readback_loops):
        lines.append(f"{pad}{'  ' * (k + 1)}for ({lp.var}, {lp.min}, {lp.extent}) {{")
    lines.append(f"{pad}{'  ' * (len(g.readback_loops) + 1)}{_access(node.store)} = {_value(node.value)}")
    for k in range(len(g.readback_loops), -1, -1):
        lines.append(f"{pad}{'  ' * k}}}")
    for k in range(depth - 1, -1, -1):
        lines.append(f"{'  ' * k}}}")
    return "\n".join(lines) + "\n"


def _box(box: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"[{lo}, {hi - lo + 1}]" for lo, hi in box)
