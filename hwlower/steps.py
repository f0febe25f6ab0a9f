"""The dimensions an upsample strip-mines. An index divided by a constant d (x / 2) in the accelerator makes
its dimension run in steps of d (`ops._strip_mine`), so that x / d is affine, in every Func along that
dimension: the dimensions of the accelerator's Funcs fall into classes, linked wherever a consumer reads a
producer's dimension at an index of one of its own variables (hw_output(c, x, y) = curved(x, y, c) links
hw_output's second dimension with curved's first). Bounds inference rounds the boxes of the buffered Funcs up to
whole steps (`box_multiples`), as a RoundUp tail would: a half-resolution plane needed over 29 rows computes
30, and its producers provide what that row reads."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import networkx as nx

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.pipeline import Pipeline

from .affine import affine_of, int_value
from .edge_taps import Guarded
from .ir import Affine
from .region import Region
from .simplify import simplify
from .uneven_chains import uneven_chains

Dim = tuple[int, int]  # (id of a Function, index of its dimension)


def dimension_steps(region: Region, defs_of: dict[int, list[Definition]],
                    periods: bool = False) -> dict[int, dict[int, int]]:
    """id(Function) -> {dimension: d} (`dimension_chains`' last divisor, or with `periods` the period)."""
    chains = dimension_chains(region, defs_of, periods)
    return {fid: {i: c[-1] for i, c in dims.items()} for fid, dims in chains.items()}


def dimension_chains(region: Region, defs_of: dict[int, list[Definition]],
                     periods: bool = False) -> dict[int, dict[int, tuple[int, ...]]]:
    """id(Function) -> {dimension: (d...)} for the dimensions to strip-mine: in each class of linked dimensions where
    some index divides by a constant d, the full-resolution ones. The class's coarser dimensions (a
    half-resolution plane read at x / 2, written from 2x and 2x + 1) keep one loop, which runs at the outer
    steps. A class whose dimensions are at more than two resolutions, or at inconsistent ones, is strip-mined
    whole, except a chain of upsamples by different divisors (`_level_steps`). With `periods`, each dimension's
    period instead: how far a tile's origin moves along it for every Func of the chain to be back at its phase
    (the product of the steps from its resolution down: 6 for x / 2 over x / 3, where each steps by 2 or 3). A
    dimension read at a chain of divisors (x / 2 and x / 4 in one Func) runs in nested steps: its chain (2, 4),
    each divisor dividing the next; any other dimension's chain is its one step (d,)."""
    graph: nx.DiGraph = nx.DiGraph()  # consumer dimension -> producer dimension, with producer / consumer scale
    facts: dict = {}
    keys: dict = {}
    for f in region.buffered:
        for definition in defs_of[id(f)]:
            own = {a.name: (id(f), i) for i, a in enumerate(definition.args) if isinstance(a, ir.Var)}
            for n in ir.walk(definition.value):
                # An edge tap (a boundary condition's read, made a choice of guarded taps) reads its Func at its
                # index; it is linked only where that index divides (an upsample of the bounded Func): bounds
                # inference sees the boundary condition's own expression, which it links through a clamp but not
                # through a mirror's modulo, so a tap at x - 1 linked here alone would step the reader's loop in
                # steps its box was not rounded to (fuzz 130909).
                guarded = isinstance(n, ir.Call) and isinstance(n.callee, Guarded)
                g = n.callee.func if guarded else n.callee if isinstance(n, ir.Call) else None
                if isinstance(g, Function):
                    for i, arg in enumerate(n.args[:len(g.args)]):  # (a tap's guards' expressions follow)
                        if not guarded or _quotient_scaled(arg)[1] > 1:
                            _link(graph, own, (id(g), i), arg, facts, keys)
    out: dict[int, dict[int, tuple[int, ...]]] = {}
    for comp in nx.weakly_connected_components(graph):
        steps = _class_steps(graph.subgraph(comp), periods)
        if not periods and uneven_chains(defs_of, steps):  # (uneven_chains.py: the coarser levels unstepped)
            steps = {dim: c for dim, c in steps.items() if len(c) > 1}
        for (fid, i), d in steps.items():
            out.setdefault(fid, {})[i] = d
    return out


def _class_steps(graph: nx.DiGraph, periods: bool) -> dict[Dim, tuple[int, ...]]:
    divisors = [d["div"] for _, _, d in graph.edges(data=True) if d["div"] > 1]
    if not divisors:
        return {}
    scale = _scales(graph)
    levels = set(scale.values()) if scale is not None else set()
    if scale is not None and len(levels) == 2 and max(levels) / min(levels) == divisors[0]:
        return {dim: (divisors[0],) for dim, s in scale.items() if s == max(levels)}
    chained = _level_steps(graph, scale, periods) if scale is not None and len(set(divisors)) > 1 else None
    if chained is None and scale is None and len(set(divisors)) > 1:
        chained = _one_reader_of_two_divisors(graph)
    return chained if chained is not None else dict.fromkeys(graph.nodes, (divisors[0],))


def _one_reader_of_two_divisors(graph: nx.DiGraph) -> dict[Dim, tuple[int, ...]] | None:
    """Runs of the lcm (`_runs_of_the_lcm`) where the class has no consistent resolutions only because its
    coarser levels read one Func at both (f at x / 2 and g at x / 3, both of hw_input): one dimension, read by
    nothing in the class, divides at divisors that are no chain, and no other dimension divides."""
    edges = [(a, d["div"]) for a, _, d in graph.edges(data=True) if d["div"] > 1]
    readers = {a for a, _ in edges}
    own = tuple(sorted({d for _, d in edges}))
    if len(readers) != 1 or not any(b % a for a, b in pairwise(own)) or any(graph.predecessors(*readers)):
        return None
    return {next(iter(readers)): (math.lcm(*own),)}


def _runs_of_the_lcm(scale: dict[Dim, Fraction], finest: Fraction, divisors: tuple[int, ...],
                     periods: bool) -> dict[Dim, tuple[int, ...]]:
    """One resolution read at divisors that are no chain (f at x / 2 and g at x / 3): it runs in runs of their
    lcm (6), in which each read selects among the few words its quotient takes (lane_quotients.py: x / 2 =
    3 * x.strip_o + x.strip_i / 2), and the coarser levels keep one loop each (a period of lcm / their divisor)."""
    run = math.lcm(*divisors)
    if periods:
        return {dim: (int(run * s / finest),) for dim, s in scale.items() if (run * s / finest).denominator == 1}
    return {dim: (run,) for dim, s in scale.items() if s == finest}


def _level_steps(graph: nx.DiGraph, scale: dict[Dim, Fraction], periods: bool) -> dict[Dim, tuple[int, ...]] | None:
    """Steps for a chain of upsamples by different divisors along one dimension (f1 read at x / 2, its producer
    at x / 3): no one step makes every quotient affine (x / 2 over steps of 3 is not), so each resolution steps by
    the divisor its own reads take (full resolution by 2, the half-resolution Funcs by 3, the sixth-resolution
    ones not at all), each box from a multiple of its own step. A resolution read at a chain of divisors (x / 2
    and x / 4: each divides the next) steps by the chain, nested (4 outer, 2 inner), and the resolutions between
    by what is left of it (the half-resolution Funcs by 2), so every level's loops are digits of the finest's.
    None where a resolution's reads divide by divisors that are no chain (x / 2 and x / 3), or where a read
    divides a resolution by other than its own divisor (x / 6 across two levels, or a modulo's self-link)."""
    per_level: dict[Fraction, set[int]] = {}
    for a, b, d in graph.edges(data=True):
        if d["div"] > 1:
            if a == b or scale[a] / scale[b] != d["div"]:
                return None
            per_level.setdefault(scale[a], set()).add(d["div"])
    chains: dict[Fraction, tuple[int, ...]] = {}
    if len(per_level) == 1 and len(own := tuple(sorted(*per_level.values()))) > 1 and \
            any(b % a for a, b in pairwise(own)):
        return _runs_of_the_lcm(scale, max(per_level), own, periods)
    for level in sorted(per_level, reverse=True):  # the finest first: it implies the chains of the levels below
        own = tuple(sorted(per_level[level]))
        if any(b % a for a, b in pairwise(own)) or chains.get(level, own) != own:
            return None
        chains[level] = own
        for i, c in enumerate(own[:-1]):
            implied = tuple(k // c for k in own[i + 1:])
            if chains.setdefault(level / c, implied) != implied:
                return None

    def period(level: Fraction) -> int:  # (each step leads to a coarser level: the recursion ends)
        return chains[level][-1] * period(level / chains[level][-1]) if level in chains else 1

    return {dim: (period(s),) if periods else chains[s] for dim, s in scale.items() if s in chains}


def _scales(graph: nx.DiGraph) -> dict[Dim, Fraction] | None:
    """Each dimension's resolution relative to one of them, or None where two paths (or two reads) disagree."""
    if any(d["ratio"] is None for _, _, d in graph.edges(data=True)):
        return None
    start = next(iter(graph.nodes))
    scale = {start: Fraction(1)}
    undirected = graph.to_undirected(as_view=True)
    for a, b in nx.bfs_edges(undirected, start):
        ratio = graph.edges[a, b]["ratio"] if graph.has_edge(a, b) else 1 / graph.edges[b, a]["ratio"]
        scale[b] = scale[a] * ratio
    for a, b, d in graph.edges(data=True):
        if scale[b] != scale[a] * d["ratio"]:
            return None
    return scale


def _link(graph: nx.DiGraph, own: dict[str, Dim], producer: Dim, arg: ir.Expr, facts: dict, keys: dict) -> None:
    """Link the producer's dimension with the consumer's variable its index uses (x, 2 * x + 1, x / 2 + 1), with
    the producer's resolution relative to the consumer's (2, 2, 1/2). `facts` caches `_index_facts` by the index's
    structure (`keys`: structural_key's memo), as a stencil's reads repeat the same few indices."""
    key = ir.structural_key(arg, keys)
    if key not in facts:
        facts[key] = _index_facts(arg)
    mods, link = facts[key]
    for name, modulus in mods:
        _modulo_step(graph, own, name, modulus)
    if link is None:
        return
    var, ratio, div = link
    if var not in own:
        return
    if graph.has_edge(own[var], producer):  # read at two resolutions (x / 2 and x + 2): the class is strip-mined whole
        old = graph.edges[own[var], producer]
        if old["ratio"] != ratio:
            old["ratio"], old["div"] = None, max(old["div"], div)
        return
    graph.add_edge(own[var], producer, ratio=ratio, div=div)


def _index_facts(arg: ir.Expr) -> tuple[list[tuple[str, int]], tuple[str, Fraction, int] | None]:
    """What `_link` needs of an index: its modulos by constants of one variable ((name, d) each), and the variable
    it reads at a resolution, with the ratio and divisor (None where it links nothing)."""
    arg = _unwrapped(arg)
    arg = _unclamped(arg)
    mods = _modulos(arg)
    if isinstance(arg, ir.BinOp) and arg.op == "mod":
        return mods, None
    div = 1
    arg = _through_a_condition(arg)
    if isinstance(arg, ir.BinOp) and arg.op == "div":
        divisor = arg.b
        if isinstance(divisor, ir.Const) and not divisor.type.is_float():
            arg, div = arg.a, int_value(divisor)
    else:
        arg, div = _quotient_scaled(arg)
    names = {n.name for n in ir.walk(arg) if isinstance(n, ir.Var)}
    if len(names) != 1 or div < 1:
        return mods, None
    var = names.pop()
    # RVars move the index within a step (x + r.x of a serial reduction): they do not change its resolution.
    rvars = {n.name: Affine.make({}, 0) for n in ir.walk(arg) if isinstance(n, ir.RVar)}
    a = affine_of(arg, rvars | {var: Affine.make({var: 1}, 0)})
    coef = dict(a.terms).get(var, 0) if a is not None else 0
    if coef <= 0:
        return mods, None
    return mods, (var, Fraction(coef, div), div)


def _unwrapped(arg: ir.Expr) -> ir.Expr:
    """e for a wrap max(min(e % d + c, c + d - 1), c) (BoundaryConditions.repeat_image's index): the image repeats
    with period d, which edges.py streams extended over e's range; d is no step to strip-mine e's variable by
    (which would round a 20-wide image's reader up to whole multiples of 20). Any other index as it is."""
    bounds, inner = [], arg
    while isinstance(inner, ir.BinOp) and inner.op in ("min", "max") and (b := _constant(inner.b)) is not None:
        bounds.append(b)
        inner = inner.a
    c = 0
    if isinstance(inner, ir.BinOp) and inner.op == "add" and (k := _constant(inner.b)) is not None:
        c, inner = k, inner.a
    if isinstance(inner, ir.BinOp) and inner.op == "mod" and (d := _constant(inner.b)) is not None and \
            sorted(bounds) == [c, c + d - 1]:
        return ir.BinOp(inner.a.type, "add", inner.a, ir.Const(inner.a.type, c)) if c else inner.a
    return arg


def _constant(e: ir.Expr) -> int | None:
    """e's value if it folds to an integer constant (a bound as the boundary conditions spell it: (0 + 20) - 1)."""
    c = simplify(e)
    return int_value(c) if isinstance(c, ir.Const) and isinstance(c.value, int) else None


def _modulos(arg: ir.Expr) -> list[tuple[str, int]]:
    """(x, d) for each e % d in arg (d > 1 constant) whose e reads one pure variable x."""
    out = []
    for n in ir.walk(arg):
        if isinstance(n, ir.BinOp) and n.op == "mod" and isinstance(n.b, ir.Const) and \
                isinstance(n.b.value, int) and n.b.value > 1:
            names = {v.name for v in ir.walk(n.a) if isinstance(v, ir.Var)}
            if len(names) == 1:
                out.append((next(iter(names)), int_value(n.b)))
    return out


def _modulo_step(graph: nx.DiGraph, own: dict[str, Dim], name: str, modulus: int) -> None:
    """Self-link the consumer dimension whose variable x (`name`) is read through e % d (d constant, e of x alone,
    with reduction variables an unrolled update adds): strip-mining x into d * xo + xi makes x % d xi, affine, as
    (xi + 1) % 2 is. The consumer's dimension runs in steps of d (a link to itself at resolution 1, dividing by
    d); the producer's, read at 0 .. d - 1 whatever x's resolution, is not linked to it."""
    if (dim := own.get(name)) is not None:
        # (an update reading its own Func at x has linked the dimension to itself already)
        div = max(modulus, graph.edges[dim, dim]["div"]) if graph.has_edge(dim, dim) else modulus
        graph.add_edge(dim, dim, ratio=Fraction(1), div=div)


def _unclamped(arg: ir.Expr) -> ir.Expr:
    """The index inside a clamp to constant bounds (an inlined repeat_edge's max(min(x / 2, 2), 0)): the clamp
    holds the index at the edge without changing its resolution inside, so an upsample of a bounded Func still
    strip-mines its dimension (fuzz 131124); the clamp stays in the address, for bounds to simplify."""
    while isinstance(arg, ir.BinOp) and arg.op in ("min", "max") and \
            all(isinstance(n, (ir.Const, ir.BinOp)) for n in ir.walk(arg.b)):  # a bound like (0 + 3) - 1
        arg = arg.a
    return arg


def _through_a_condition(arg: ir.Expr) -> ir.Expr:
    """The quotient inside an inlined boundary condition's index (mirror_image's select and modulo around
    x / 2 - 1, the one quotient it repeats), or arg: the condition folds the index back at the edges without
    changing its resolution inside, so an upsample read through it strip-mines its dimension as the edge taps
    that read it do (edge_taps.Guarded, linked at their quotient: fuzz 9150177)."""
    keys = {ir.structural_key(n) for n in ir.walk(arg) if _quotient(n)}
    if len(keys) != 1 or any(isinstance(n, ir.Call) for n in ir.walk(arg)) \
            or affine_of(_quotient_scaled(arg)[0], _unit_env(arg)) is not None:
        return arg
    q = next(n for n in ir.walk(arg) if _quotient(n))
    assert isinstance(q, ir.BinOp)
    return q


def _quotient(n: ir.Expr) -> bool:
    return isinstance(n, ir.BinOp) and n.op == "div" and isinstance(n.b, ir.Const) and \
        isinstance(n.b.value, int) and n.b.value > 1


def _unit_env(arg: ir.Expr) -> dict[str, Affine]:
    return {n.name: Affine.make({n.name: 1}, 0) for n in ir.walk(arg) if isinstance(n, (ir.Var, ir.RVar))}


def _quotient_scaled(arg: ir.Expr) -> tuple[ir.Expr, int]:
    """An index with one quotient by a constant inside it (2 * (x / 2) + 1: a downsample's pixel read by an
    upsample of it, both inlined) as the index with the quotient replaced by its dividend, and the divisor:
    (2 * x + 1, 2), whose ratio of 2 / 2 puts both at one resolution, in steps of 2; else (arg, 1)."""
    quotients = [n for n in ir.walk(arg) if isinstance(n, ir.BinOp) and n.op == "div"
                 and isinstance(n.b, ir.Const) and isinstance(n.b.value, int) and n.b.value > 1]
    if len(quotients) != 1:
        return arg, 1
    q = quotients[0]
    assert isinstance(q, ir.BinOp) and isinstance(q.b, ir.Const)
    return ir.transform(arg, lambda n, kids: q.a if n is q else ir.rebuild(n, kids)), int_value(q.b)


def box_multiples(pipe: Pipeline, region: Region, defs: dict | None = None) -> dict[int, dict[int, int]]:
    """id(Function) -> {dimension: d}: the extents bounds inference rounds up to multiples of d for the Funcs
    buffered inside the accelerator and the accelerator's output (not the array output inside a GLB level)."""
    # The output too when it is the accelerated Func (one level): its tile rounds up to whole steps, as a RoundUp
    # split of the output would, and the host keeps the tile (a 15-wide output of a 2x upsample computes 16).
    keep = {id(f) for f in region.buffered if f is not region.output and f is not region.accelerated}
    if region.output is region.accelerated:
        keep.add(id(region.output))
    return {fid: dims for fid, dims in _region_steps(pipe, region, defs=defs).items() if fid in keep}


def phase_periods(pipe: Pipeline, region: Region, defs: dict | None = None) -> dict[int, dict[int, int]]:
    """id(Function) -> {dimension: period} (`dimension_steps`) for the Funcs of `box_multiples`, and under a GLB
    level the array output too: the steps host tiles keep the first tile's phase in."""
    keep = {id(f) for f in region.buffered if f is not region.output and f is not region.accelerated}
    if region.output is region.accelerated or region.glb is not None:
        keep.add(id(region.output))
    return {fid: dims for fid, dims in _region_steps(pipe, region, True, defs).items() if fid in keep}


def array_output_steps(pipe: Pipeline, region: Region) -> dict[str, int]:
    """{dimension name: d} of the array output's dimensions that an upsample strip-mines: under a GLB level its
    memory tiles round up to whole steps (tiling.py), as the one-level output's tile does (`box_multiples`); to
    whole periods where upsamples by different divisors chain (each memory tile starts at the first's phase)."""
    f = region.output
    return {f.args[i]: d for i, d in _region_steps(pipe, region, True).get(id(f), {}).items() if d > 1}


def _region_steps(pipe: Pipeline, region: Region, periods: bool = False,
                  defs: dict | None = None) -> dict[int, dict[int, int]]:
    from .inline import inlined_definitions

    return dimension_steps(region, inlined_definitions(pipe, region) if defs is None else defs, periods)
