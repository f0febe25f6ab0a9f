"""Print a loop nest the way Halide prints lowered statements (seed 002's listing)."""

from __future__ import annotations

from mainspring.frontend import ir

from .ir import Access, LoadPort, Loop, LoopNest, Op


def format_nest(nest: LoopNest) -> str:
    lines = [f"// accelerator {nest.name}: inputs {', '.join(nest.inputs)} streamed from the host, "
             f"output {nest.output} streamed back"]
    for b in nest.buffers:
        box = ", ".join(f"[{lo}, {ext}]" for lo, ext in b.box)
        role = " (accelerator input)" if b.name in nest.inputs else (" (accelerator output)" if b.name == nest.output else "")
        lines.append(f"realize {b.name}.stencil({box}) : {b.type}{role}")
    by_func: dict[str, list] = {}
    for node in nest.body:
        by_func.setdefault(_func_of(node), []).append(node)
    for func, nodes in by_func.items():
        lines.append(f"produce {func}.stencil {{")
        for n in nodes:
            _emit(n, 1, lines)
        lines.append("}")
    return "\n".join(lines) + "\n"


def _func_of(node) -> str:
    while isinstance(node, Loop):
        node = node.body[0]
    return node.func


def _emit(node, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    if isinstance(node, Loop):
        kind = "unrolled " if node.unrolled else ""
        lines.append(f"{pad}{kind}for ({node.var}, {node.min}, {node.extent}) {{")
        for c in node.body:
            _emit(c, depth + 1, lines)
        lines.append(f"{pad}}}")
    else:
        assert isinstance(node, Op)
        lines.append(f"{pad}{_access(node.store)} = {_value(node.value)}")


def _access(a: Access) -> str:
    return f"{a.buffer}.stencil({', '.join(str(i) for i in a.index)})"


def _value(e: ir.Expr) -> str:
    text = ir.to_string(e)
    for n in ir.walk(e):
        if isinstance(n, ir.Call) and isinstance(n.callee, LoadPort):
            text = text.replace(n.callee.name, _access(n.callee.access))
    return text
