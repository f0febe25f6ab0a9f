"""Pass `replicate_edges`: boundary conditions inside the accelerator, by extending the streams of its inputs.

A read of an accelerator input at a clamped or reflected index, `hw_input(clamp(x - 1, 0, W - 1), y)` (what
`BoundaryConditions.repeat_edge`, `constant_exterior`, `mirror_image` and `mirror_interior` make), is not affine.
Its index in each dimension is f(a): an affine a of the loops (`x - 1`) under a function f of one integer with
constant parameters (a clamp, a reflection). The host streams instead the input over the range of a, its word at
coordinate v being the input's value at f(v) (the extended image: edge words repeated, or mirrored), and the
accelerator reads it at the affine index a: `hw_input(x - 1, y)`. Each dimension of a stream has one such map
(`EdgeMap`, in absolute coordinates: the same for every host tile).

Reads of one input share its stream where their maps agree on every coordinate both reach (clamps to [0, 9] and to
[1, 9] of x - 1 and x + 1, or an unclamped x + 1 beside a clamped x - 1, agree where they overlap). Where they do
not, the host streams the input once more for the reads that disagree (`hw_input`, `hw_input_ext1`, ...: one
stream per class of reads that agree).

A Func computed inside from extended Funcs point for point (a copy, such as the memory-tile copy
`hw_input.in_().in_()` of seed 002's three-level schedule) holds their extension: its reads may be clamped or
mirrored too, and their maps become its producers'. With a GLB, the host writes the GLB input tile extended.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder, Box, definition_env, rounded_up, shift_rounded, union
from mainspring.frontend.evaluate import Evaluator
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.types import I32

from .edge_taps import tap_inner_reads, tap_over_tiles
from .fold import map_calls, map_definition_calls
from .program import Tile
from .rate_streams import stream_per_rate
from .shift_tails import shifted_funcs
from .simplify import simplify
from .state import Lowering
from .tiling import check_same_shape, phase_multiples, step_along

EdgeMap = tuple[int, tuple[int, ...]]  # (first, sources): coordinate first + i carries the value at sources[i]
_V = ir.Var(I32, "edge.v")  # the argument of an index function
_AFFINE = ("add", "sub", "mul", "div")  # with constant factors and divisors: what `ops` makes affine
_PLAIN = _AFFINE + ("mod",)  # an index `ops` takes as it is (x / 2 and x % 2 along upsample steps)


@dataclass(eq=False)
class _Read:
    """A read of an extendable Func inside the accelerator, its indices made affine (`call.args`)."""

    consumer: Function
    stage: int
    loc: str
    shown: str  # the indices as the user's definition reads them (after inlining)
    call: ir.Call  # the call with affine indices, in the consumer's new definition
    maps: tuple[ir.Expr | None, ...]  # per dimension: the index as a function of _V (None: the index itself)
    copies: bool  # the consumer copies the callee point for point: its own maps are the read's


@dataclass(eq=False)
class _Class:
    """Reads of one Func that one stream (or one buffer) serves: their maps agree wherever two reach."""

    reads: list[_Read] = field(default_factory=list)
    wants: list[dict[int, dict[int, int]]] = field(default_factory=list)  # per read: dimension -> {v: source}
    table: dict[int, dict[int, int]] = field(default_factory=dict)

    def clash(self, want: dict[int, dict[int, int]]) -> tuple[int, int, int, _Read, int] | None:
        """(dimension, v, the source this class has there, the read that wants it, the other source), or None."""
        for dim, w in want.items():
            have = self.table.get(dim, {})
            for v in sorted(w.keys() & have.keys()):
                if w[v] != have[v]:
                    owner = next(r for r, x in zip(self.reads, self.wants) if x.get(dim, {}).get(v) == have[v])
                    return dim, v, have[v], owner, w[v]
        return None

    def add(self, r: _Read, want: dict[int, dict[int, int]]) -> None:
        self.reads.append(r)
        self.wants.append(want)
        for dim, w in want.items():
            self.table.setdefault(dim, {}).update(w)


def replicate_edges(s: Lowering) -> Lowering:
    region = s.found_region
    kinds = _extendable(s)
    reads: list[_Read] = []
    inside = frozenset(id(f) for f in region.buffered if id(f) not in kinds)
    evaluator = Evaluator(s.pipe, {}, {})
    if len(s.tiles) == 1 and s.glb is None:
        box = s.tiles[0].boxes
        tapped = {id(f): [tap_inner_reads(f, k, d, [box[s.pipe.name(f)]], inside, index_function, evaluator)
                          for k, d in enumerate(s.defs(f))] for f in region.buffered}
    else:  # the taps' boxes inferred again over the tiles
        tapped, s = tap_over_tiles(s, inside, index_function, evaluator)
    defs = {id(f): [_unclamp(f, k, d, kinds, reads) for k, d in enumerate(tapped[id(f)])] for f in region.buffered}
    ext = _extended_dims(s, kinds, reads)
    s = _Extension(s, kinds, defs, reads, ext).run() if any(ext.values()) else replace(s, definitions=defs)
    s = stream_per_rate(s)  # (an input read at two rates in host tiles: one stream per rate, before the check)
    region = s.found_region
    names = [s.pipe.name(f) for f in (*region.inputs, *region.buffered, region.accelerated)]
    phases = phase_multiples(s)
    acc, out = region.accelerated, region.output
    check_same_shape(acc, s.tiles, names, [step_along(s.pipe, a, phases) for a in acc.args])
    if s.glb is not None:
        check_same_shape(out, s.glb.mem_tiles, names[:-1], [step_along(s.pipe, a, phases) for a in out.args],
                         "memory")
    return s


# ---- which Funcs extend, and the reads of them --------------------------------------------------------------

def _extendable(s: Lowering) -> dict[int, str]:
    """id(Function) -> "input" (an accelerator input) or "copy" (a Func inside computed from extendable Funcs
    point for point, with no coordinate or table of its own)."""
    region = s.found_region
    kinds = {id(f): "input" for f in region.inputs}
    for f in region.buffered:  # producers first
        if f is not region.output and _copies(f, s.defs(f), kinds):
            kinds[id(f)] = "copy"
    return kinds


def _copies(f: Function, defs: list[Definition], kinds: dict[int, str]) -> bool:
    """Whether f is computed from extendable Funcs point for point (its one definition reads each at (x, y))."""
    if len(defs) != 1 or defs[0].rdom is not None:
        return False
    own = [a.name if isinstance(a, ir.Var) else None for a in defs[0].args]
    if None in own:
        return False
    ok = True

    def visit(c: ir.Call) -> ir.Expr | None:
        nonlocal ok
        if isinstance(c.callee, Function):
            ok = ok and id(c.callee) in kinds and [a.name if isinstance(a, ir.Var) else None for a in c.args] == own
            return ir.Const(c.type, 0.0 if c.type.is_float() else 0)
        return None

    rest = map_calls(defs[0].value, visit, {})
    return ok and not any(isinstance(n, (ir.Var, ir.RVar, ir.Call)) and (not isinstance(n, ir.Call) or n.args)
                          for n in ir.walk(rest))


def _unclamp(f: Function, k: int, d: Definition, kinds: dict[int, str], reads: list[_Read]) -> Definition:
    """d with each read of an extendable Func at affine indices, each recorded in `reads` (reads of Funcs
    computed inside at clamped indices are taps already: `edge_taps`)."""
    copies = kinds.get(id(f)) == "copy"

    def visit(c: ir.Call) -> ir.Expr | None:
        g = c.callee
        if not isinstance(g, Function) or id(g) not in kinds:
            return None
        args = [simplify(a) for a in c.args]
        split = [index_function(a) for a in args]
        shown = ", ".join(ir.user_text(a) for a in args)
        if any(p is None for p in split):
            return None  # not an index function of one affine form: `ops` says why
        maps = tuple(p[1] for p in split if p is not None)
        call = ir.Call(c.type, g, tuple(p[0] for p in split if p is not None))
        reads.append(_Read(f, k, str(d.loc), shown, call, maps, copies))
        return call

    return map_definition_calls(d, visit)


def index_function(e: ir.Expr) -> tuple[ir.Expr, ir.Expr | None] | None:
    """(a, None) for an index `ops` takes as it is; (a, f) for f(a), f an expression of `_V` with constants only
    and a the one affine form of the loops in e (x - 1 in max(min(x - 1, 9), 0)); None otherwise."""
    nodes = list(ir.walk(e))
    if all(_plain_node(n) for n in nodes):
        return e, None
    affine: dict[int, bool] = {}
    varying: dict[int, bool] = {}
    # x % d beside x / d (an up-sample's phase, `x / 2 + x % 2`) is plain along its steps, as x / d is
    steps = {(n.a.name, n.b.value) for n in nodes if isinstance(n, ir.BinOp) and n.op == "div"
             and isinstance(n.a, (ir.Var, ir.RVar)) and isinstance(n.b, ir.Const)}
    for n in nodes:  # children first
        kids = ir.children(n)
        varying[id(n)] = isinstance(n, (ir.Var, ir.RVar)) or any(varying[id(c)] for c in kids)
        affine[id(n)] = _phase_node(n, steps) or \
            _affine_node(n, [affine[id(c)] for c in kids], [varying[id(c)] for c in kids])
    found: list[ir.Expr] = []
    stack = [e]
    while stack:
        n = stack.pop()
        if not varying[id(n)]:
            continue
        if affine[id(n)]:
            found.append(n)
        else:
            stack.extend(ir.children(n))
    keys: dict = {}
    shapes = {ir.structural_key(n, keys) for n in found}
    if len(shapes) != 1:
        return None
    shape = shapes.pop()
    f = ir.transform(e, lambda n, kids: _V if keys.get(id(n)) == shape else ir.rebuild(n, kids))
    if any(isinstance(n, (ir.Var, ir.RVar, ir.Call)) and n is not _V for n in ir.walk(f)) or \
            any(n.type.is_float() for n in ir.walk(f)):
        return None
    return found[0], f


def _plain_node(n: ir.Expr) -> bool:
    if isinstance(n, ir.Const):
        return isinstance(n.value, int)
    return isinstance(n, (ir.Var, ir.RVar)) or (isinstance(n, ir.BinOp) and n.op in _PLAIN)


def _phase_node(n: ir.Expr, steps: set) -> bool:
    """Whether n is x % d where the index also reads x / d (`steps`: those (x, d))."""
    return isinstance(n, ir.BinOp) and n.op == "mod" and isinstance(n.a, (ir.Var, ir.RVar)) \
        and isinstance(n.b, ir.Const) and (n.a.name, n.b.value) in steps


def _affine_node(n: ir.Expr, affine: list[bool], varying: list[bool]) -> bool:
    if isinstance(n, (ir.Var, ir.RVar)):
        return True
    if isinstance(n, ir.Const):
        return isinstance(n.value, int)
    if not isinstance(n, ir.BinOp) or n.op not in _AFFINE or not all(affine):
        return False
    if n.op == "mul":
        return not all(varying)
    if n.op == "div":
        return isinstance(n.b, ir.Const) and isinstance(n.b.value, int) and n.b.value > 0
    return True


def _extended_dims(s: Lowering, kinds: dict[int, str], reads: list[_Read]) -> dict[int, set[int]]:
    """id(Function) -> the dimensions whose stream (or buffer) holds an extension."""
    ext: dict[int, set[int]] = {fid: set() for fid in kinds}
    for r in reads:
        ext[id(r.call.callee)] |= {dim for dim, m in enumerate(r.maps) if m is not None}
    for f in reversed(s.found_region.buffered):  # consumers first: a copy's extension is its producers'
        if kinds.get(id(f)) == "copy":
            for r in reads:
                if r.consumer is f:
                    ext[id(r.call.callee)] |= ext[id(f)]
    return ext


# ---- the extension ------------------------------------------------------------------------------------------

class _Extension:
    """Extends every extendable Func consumers first: groups its reads into classes that agree, makes a copy of
    it per class past the first, widens its boxes to what each class reads, and gives its maps to its
    producers (a copy's) or to the host (an input's)."""

    def __init__(self, s: Lowering, kinds: dict[int, str], defs: dict[int, list[Definition]], reads: list[_Read],
                 ext: dict[int, set[int]]):
        self.s, self.pipe, self.region = s, s.pipe, s.found_region
        self.kinds, self.defs, self.reads, self.ext = kinds, defs, reads, ext
        # per level (host tiles, then the GLB's memory tiles), per tile: every Func's box by name
        self.levels = [s.tiles] + ([s.glb.mem_tiles] if s.glb is not None else [])
        self.boxes = [[dict(t.boxes) for t in tiles] for tiles in self.levels]
        self.demands = [[dict(t.demands) for t in tiles] for tiles in self.levels]  # shift_tails.py
        self.shifted = shifted_funcs(self.region)
        self.tables: dict[int, dict[int, dict[int, int]]] = {}  # id(Function) -> dimension -> {v: source}
        self.redirect: dict[int, Function] = {}  # id(call) -> the copy of its callee it reads
        self.buffered = list(self.region.buffered)
        self.inputs = list(self.region.inputs)
        self.sources: dict[str, str] = {}  # a second stream -> the input whose values it carries
        self.clones: dict[str, str] = {}  # a second stream or buffer -> the Func it is a copy of
        self.maps: dict[str, dict[int, EdgeMap]] = {}
        self.evaluator = Evaluator(s.pipe, {}, {})

    def run(self) -> Lowering:
        s = self.s
        order = [f for f in reversed(self.region.buffered) if self.kinds.get(id(f)) == "copy"]
        for g in order + list(self.region.inputs):
            if self.ext[id(g)]:
                self._extend(g)
        defs = {fid: [map_definition_calls(d, self._redirected) for d in ds] for fid, ds in self.defs.items()}
        tiles = tuple(replace(t, boxes=b, demands=d) for t, b, d in zip(s.tiles, self.boxes[0], self.demands[0]))
        glb = s.glb
        if glb is not None:
            glb = replace(glb, mem_tiles=tuple(Tile(t.output_box, b, d)
                                               for t, b, d in zip(glb.mem_tiles, self.boxes[1], self.demands[1])))
        region = replace(self.region, inputs=tuple(self.inputs), buffered=tuple(self.buffered))
        if region.glb is not None:  # a second GLB input tile, extended otherwise, of the same host source
            carried = dict(zip(map(id, region.glb.inputs), region.glb.sources))
            for f in self.inputs:
                if id(f) not in carried:
                    carried[id(f)] = carried[id(self.pipe.functions[self.sources[self.pipe.name(f)]])]
            region = replace(region, glb=replace(region.glb, inputs=tuple(self.inputs),
                                                 sources=tuple(carried[id(f)] for f in self.inputs)))
        boxes = dict(s.boxes)
        for name, src in self.clones.items():
            boxes[name] = s.boxes[src]
        return replace(s, region=region, definitions=defs, tiles=tiles, glb=glb, boxes=boxes, edge_maps=self.maps,
                       stream_sources=dict(self.sources))

    def _redirected(self, c: ir.Call) -> ir.Expr | None:
        g = self.redirect.get(id(c))
        return None if g is None else ir.Call(c.type, g, c.args)

    def _extend(self, g: Function) -> None:
        rs = [r for r in self.reads if r.call.callee is g]
        reach = {id(r): [[self._reach(r, boxes) for boxes in level] for level in self.boxes] for r in rs}
        classes: list[_Class] = []
        for r in rs:
            want = self._wants(r, g, reach[id(r)][0])
            fits = [c for c in classes if c.clash(want) is None]
            if fits:
                fits[0].add(r, want)
                continue
            classes.append(_Class())
            classes[-1].add(r, want)
        for k, c in enumerate(classes):
            f = g if k == 0 else self._copy(g, k)
            for r in c.reads:
                if f is not g:
                    self.redirect[id(r.call)] = f
            self.tables[id(f)] = c.table
            self._widen(g, f, [reach[id(r)] for r in c.reads])
            if self.kinds[id(g)] == "input":
                maps = {dim: _edge_map(t) for dim, t in sorted(c.table.items()) if any(v != x for v, x in t.items())}
                if maps:
                    self.maps[self.pipe.name(f)] = maps

    def _reach(self, r: _Read, boxes: dict[str, Box]) -> Box:
        d = self.defs[id(r.consumer)][r.stage]
        bnd = Bounder(definition_env(boxes[self.pipe.name(r.consumer)], d, lambda p: None), lambda p: None)
        return [bnd(a) for a in r.call.args]

    def _wants(self, r: _Read, g: Function, reaches: list[Box]) -> dict[int, dict[int, int]]:
        """What read r needs in each extended dimension of g over the host tiles: {v: the source coordinate}."""
        own = self.tables.get(id(r.consumer), {}) if r.copies else {}
        out: dict[int, dict[int, int]] = {}
        for dim in sorted(self.ext[id(g)]):
            want: dict[int, int] = {}
            for lo, hi in sorted({box[dim] for box in reaches}):
                if dim in own:  # a copy holds at v what its readers need there; elsewhere anything
                    t = own[dim]
                    want.update((v, t[v]) for v in range(lo, hi + 1) if v in t)
                    continue
                vs = np.arange(lo, hi + 1, dtype=np.int64)
                m = r.maps[dim]
                src = vs if m is None else np.broadcast_to(self.evaluator.eval(m, {_V.name: vs}, {}), vs.shape)
                want.update(zip(vs.tolist(), np.asarray(src).tolist()))
            out[dim] = want
        return out

    def _widen(self, g: Function, f: Function, reaches: list[list[list[Box]]]) -> None:
        """f's box in each tile: in g's extended dimensions, what its class's reads reach there."""
        gname, fname = self.pipe.name(g), self.pipe.name(f)
        dims = self.ext[id(g)]
        steps = self.s.multiples.get(id(g), {})
        for li, level in enumerate(self.boxes):
            for ti, boxes in enumerate(level):
                box = list(self._original(li, ti, gname))
                for dim in dims:
                    box[dim] = (min(rc[li][ti][dim][0] for rc in reaches), max(rc[li][ti][dim][1] for rc in reaches))
                pre = list(box)
                grown = rounded_up(f, box)  # as bounds inference grows a box: RoundUp tails, upsample steps
                for dim in dims:
                    lo, hi = grown[dim]
                    box[dim] = (lo, hi + (-(hi - lo + 1)) % steps.get(dim, 1))
                boxes[fname] = box
                # its ShiftInwards tails still round up (shift_tails.py), also where only the extension makes
                # the extent one they do not divide
                shifted = id(f) in self.shifted
                rounded = shift_rounded(f, box, pre) if shifted else union(box, rounded_up(f, pre, shifts=True))
                # a demand set before the extension (Halide's box, rounded up) is stale: where the extension
                # alone fills the rounded box, its readers read all of it (fuzz 151126)
                had = self.demands[li][ti].pop(fname, None) is not None
                if (had or shifted) and rounded != box:
                    self.demands[li][ti][fname] = list(box)
                    boxes[fname] = rounded

    def _original(self, level: int, tile: int, name: str) -> Box:
        return self.levels[level][tile].boxes[name]

    def _copy(self, g: Function, k: int) -> Function:
        """A second stream (or buffer) of g's values, for the reads of class k."""
        pipe, base = self.pipe, self.pipe.name(g)
        n = k
        while f"{base}_ext{n}" in pipe.functions:
            n += 1
        f = pipe.add_copy(g, f"{base}_ext{n}")
        if id(g) in self.shifted:  # (its tails round up as g's do: the region's inputs and buffers hold it after)
            self.shifted = self.shifted | {id(f)}
        self.kinds[id(f)] = self.kinds[id(g)]
        self.ext[id(f)] = self.ext[id(g)]
        self.clones[pipe.name(f)] = base
        if self.kinds[id(g)] == "input":
            self.inputs.insert(self.inputs.index(g) + 1, f)
            self.sources[pipe.name(f)] = base
            return f
        # A copy inside: a buffer of its own, computed from its producers (their reads get classes in turn).
        self.buffered.insert(self.buffered.index(g) + 1, f)
        self.defs[id(f)] = [_unclamp(f, stage, d, self.kinds, self.reads) for stage, d in enumerate(self.defs[id(g)])]
        return f



def _edge_map(table: dict[int, int]) -> EdgeMap:
    first, last = min(table), max(table)
    return first, tuple(table.get(v, v) for v in range(first, last + 1))


def format_edges(s: Lowering) -> str:
    if not s.edge_maps:
        return "(no extended accelerator inputs)\n"
    lines = []
    for name, dims in s.edge_maps.items():
        src = s.stream_sources.get(name)
        what = f"{name} (a second stream of {src})" if src is not None else name
        for dim, (first, sources) in sorted(dims.items()):
            moved = ", ".join(f"{first + i}->{x}" for i, x in enumerate(sources) if first + i != x)
            lines.append(f"{what}: dimension {dim} over [{first}, {first + len(sources) - 1}] carries the values at "
                         f"{moved}\n")
    return "".join(lines)
