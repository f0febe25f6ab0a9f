"""The dimensions an upsample strip-mines. An index divided by a constant d (x / 2) in the accelerator makes
its dimension run in steps of d (`ops._strip_mine`), so that x / d is affine, in every Func along that
dimension: the dimensions of the accelerator's Funcs fall into classes, linked wherever a consumer reads a
producer's dimension at an index of one of its own variables (hw_output(c, x, y) = curved(x, y, c) links
hw_output's second dimension with curved's first). Bounds inference rounds the boxes of the buffered Funcs up to
whole steps (`box_multiples`), as a RoundUp tail would: a half-resolution plane needed over 29 rows computes
30, and its producers provide what that row reads."""

from __future__ import annotations

from networkx.utils import UnionFind

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.pipeline import Pipeline

from .affine import int_value
from .region import Region

Dim = tuple[int, int]  # (id of a Function, index of its dimension)


def dimension_steps(region: Region, defs_of: dict[int, list[Definition]]) -> dict[int, dict[int, int]]:
    """id(Function) -> {dimension: d} for every dimension of a buffered Func (or input) in the class of a
    dimension some index divides by a constant d."""
    classes: UnionFind = UnionFind()
    divided: dict[Dim, int] = {}
    funcs = list(region.inputs) + list(region.buffered)
    for f in region.buffered:
        for definition in defs_of[id(f)]:
            own = {a.name: (id(f), i) for i, a in enumerate(definition.args) if isinstance(a, ir.Var)}
            for n in ir.walk(definition.value):
                if isinstance(n, ir.Call) and isinstance(n.callee, Function):
                    for i, arg in enumerate(n.args):
                        _link(classes, divided, own, (id(n.callee), i), arg)
    steps: dict[Dim, int] = {}
    for dim, d in divided.items():
        root = classes[dim]
        for f in funcs:
            for i in range(len(f.args)):
                if classes[(id(f), i)] == root:
                    steps.setdefault((id(f), i), d)
    out: dict[int, dict[int, int]] = {}
    for (fid, i), d in steps.items():
        out.setdefault(fid, {})[i] = d
    return out


def _link(classes: UnionFind, divided: dict[Dim, int], own: dict[str, Dim], producer: Dim, arg: ir.Expr) -> None:
    """Link the producer's dimension with the consumer's variable its index uses (x, 2 * x + 1, x / 2 + 1);
    record a division by a constant on the consumer's side."""
    var, div = _single_var(arg)
    if var is None or var not in own:
        return
    classes.union(own[var], producer)
    if div > 1:
        divided.setdefault(own[var], div)


def _single_var(e: ir.Expr) -> tuple[str | None, int]:
    """The one pure variable e is an affine function of (through a division by a constant), and the divisor."""
    names = {n.name for n in ir.walk(e) if isinstance(n, ir.Var)}
    if len(names) != 1:
        return None, 1
    div = 1
    for n in ir.walk(e):
        if isinstance(n, ir.BinOp) and n.op in ("div", "mod") and isinstance(n.b, ir.Const) \
                and not n.b.type.is_float() and int_value(n.b) > 1:
            div = int_value(n.b)
    return names.pop(), div


def box_multiples(pipe: Pipeline, region: Region) -> dict[int, dict[int, int]]:
    """id(Function) -> {dimension: d}: the extents bounds inference rounds up to multiples of d for the Funcs
    buffered inside the accelerator (not its output, whose extent is the tile's)."""
    from .inline import inline_definition

    inlined = {id(f) for f in region.inlined}
    defs = {id(f): [inline_definition(pipe, d, inlined) for d in pipe.definitions(f)] for f in region.buffered}
    keep = {id(f) for f in region.buffered if f is not region.output and f is not region.accelerated}
    return {fid: dims for fid, dims in dimension_steps(region, defs).items() if fid in keep}
