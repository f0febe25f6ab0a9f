"""Lanes of an automatic schedule: how many pixels of x each Func computes (each stream carries) per cycle.

A consumer that reads c pixels of its producer's x per cycle keeps pace only with a producer of c lanes (with fewer
it is paced to the producer, with more the producer is narrowed: hwlower/narrow.py). So the lanes go from the
output (the `lanes` asked for) to the images, multiplied by each read's stride along x: a 2x downsample's producer
makes 2k pixels per cycle, an upsample's k/2. The output's lanes come down (to 1 at worst, where the former
one-lane rules hold) when the rates cannot be met:
- a rate that is not a whole number of pixels (an upsample by 2 at 3 lanes);
- a Func read at two rates along x (a 2x downsample's and a plain stage's), also by readers of one lane under an
  output of several (a serial update's region under a table read out at k lanes): no producer's lanes divide both;
- x read along another dimension (a transpose), or through a computed coordinate (but a stream read at a clamped
  or reflected x, as the boundary conditions read it, hwlower extends on the host and reads at the affine x inside:
  hwlower/edges.py; its rate is that affine x's);
- a serial reduction stepping along x (a table updated at computed coordinates reads one pixel per step), whose
  producer must have one lane; but a scan along x (`s(r.x, y) = s(r.x - 1, y) + in(r.x, y)`) has its RVar
  unrolled with x, its lanes chained (`row_scan`), and reads as x does; and a sweep of the whole frame into a point
  (`total() += in(r.x, r.y)`, its own stream; or a point per plane, `tot(c) += in(r.x, r.y, c)`) has its r.x
  unrolled by k, k pixels a cycle (`frame_scan`), also where that point is the output, of no dimensions;
- a table updated at computed coordinates (a RAM) read out more than two words per cycle (a memory tile's ports);
  one of at most 4 elements (lanes of registers) is read out one element per cycle;
- a Func read at coordinates computed from loaded values (a RAM the accelerator fills, `cdf(level(x, y))`) more than
  two times a cycle (a memory tile's read ports), or also along x; such a read does not tie the table's rate to x.
  A constant table read so is a ROM, whose alike copies (a tile per two reads a cycle, compiler.py) the budget
  weighs through the memory-tile figures instead;
A stream whose first dimension is a pixel's channels (`hw_input(c, x, y)`) has them unrolled whole and x unrolled
by its lanes: `hw_input.unroll(c).unroll(x, k)`, k pixels of all their channels per transfer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from .autoschedule_memory import extent_of, tile_boxes, xy
from .frontend import ir
from .frontend.bounds import Bounder
from .frontend.define import SCALAR_VAR
from .frontend.func import Function
from .frontend.params import Parameter
from .frontend.pipeline import Pipeline
from .frontend.types import I32
from .hwlower.edges import index_function
from .hwlower.simplify import simplify

if TYPE_CHECKING:  # autoschedule.py builds on this module
    from .autoschedule import _Plan


@dataclass
class LanePlan:
    lanes: int  # the output's pixels per cycle
    x_dim: dict[int, int] = field(default_factory=dict)  # id(f) -> the argument that runs along the output's x
    funcs: dict[int, int] = field(default_factory=dict)  # id(f) -> pixels of x per cycle
    scans: dict[tuple[int, int], int] = field(default_factory=dict)  # (id(f), update) -> its frame_scan's lanes
    # id(f) -> pixels of x per cycle where f computes fewer than its one lane (read at x / 4 under 2 lanes: 1/2)
    paced: dict[int, Fraction] = field(default_factory=dict)
    note: str = ""  # why `lanes` is below what was asked for

    def of(self, f: Function) -> int:
        return self.funcs.get(id(f), 1)


Scalars = Callable[[Parameter], int | None]  # a scalar's value where the schedule binds it, else None
READ_PORTS = 2  # a memory tile's read ports: a RAM's readers take at most this many words per cycle
_SCALAR = 64  # the value an image's bound or a Param takes where only an index's shape matters
REGISTER_TABLE = 4  # a table updated at computed coordinates of at most this many elements is lanes of registers


def _scatters(pipe: Pipeline, f: Function) -> bool:
    """Whether an update of f writes at a computed coordinate (`hist(bin(r)) += 1`)."""
    return any(isinstance(n, ir.Call) for d in pipe.definitions(f)[1:] for a in d.args for n in ir.walk(a))


class _NoLanes(Exception):
    """The rates cannot be met at this many lanes (the message says why)."""


def plan_lanes(pipe: Pipeline, acc: Function, funcs: list[Function], serial, asked: int, acc_x: int = 0,
               registers: frozenset[int] = frozenset(), planes: dict[int, list[str]] | None = None,
               streams: frozenset[int] = frozenset(), sizes: Scalars = lambda p: None) -> LanePlan:
    """The largest lanes <= `asked` at which every Func of `funcs` (the accelerated region and its streams,
    producers first) keeps pace. `serial(f, k)`: whether definition k of f keeps its reduction loops serial;
    `acc_x`: the argument of the accelerated Func that is x; `registers`: the tables updated at computed
    coordinates small enough to be lanes of registers (hwlower reads them out one element per cycle). A stream
    through the GLB may take more words per cycle than a bank port moves: its buffer takes banks side by side
    (memories/glb.py's bank_count). `planes`: id(f) -> the Vars of f unrolled whole (its planes); `streams`: the
    accelerator's inputs (ids), whose reads at a clamped or reflected x hwlower makes affine; `sizes`: the images'
    sizes the schedule binds (an RDom over an image's width is a frame scan of that many steps)."""
    note = ""
    for k in range(asked, 0, -1):
        try:
            got = _propagate(pipe, acc, funcs, serial, k, acc_x, registers, planes or {}, streams, sizes)
        except _NoLanes as e:
            note = note or f"{asked} pixels per cycle is not reachable: {e}"
            continue
        got.note = note if k < asked else ""
        return got
    raise AssertionError("one lane is always reachable")


def _propagate(pipe: Pipeline, acc: Function, funcs: list[Function], serial, k: int, acc_x: int,
               registers: frozenset[int], planes: dict[int, list[str]], streams: frozenset[int],
               sizes: Scalars) -> LanePlan:
    point = tuple(acc.args) == (SCALAR_VAR,)  # an output of no dimensions: its lanes are its frame scans'
    plan = LanePlan(k)
    plan.x_dim[id(acc)], plan.funcs[id(acc)] = acc_x, 1 if point else k
    inside = {id(f) for f in funcs}
    for f in reversed(funcs):
        if f is acc:
            continue
        dims: dict[int, Fraction] = {}
        stepped: set[int] = set()  # arguments a serial reduction steps along
        looked: list[int] = []  # the lanes of each read at computed coordinates (a RAM's lookups)
        along: dict[str, int] = {}  # each distinct read of f by a definition -> its lanes (a RAM's read ports)
        for g in pipe.consumers(f):
            if id(g) not in inside or id(g) not in plan.x_dim:
                continue
            xname = g.args[plan.x_dim[id(g)]]
            for n_def, d in enumerate(pipe.definitions(g)):
                scan = row_scan(g, d, xname) if k > 1 and n_def else None
                swept = frame_scan(g, d, streams) if k > 1 and n_def and scan is None and serial(g, n_def) \
                    and plan.funcs[id(g)] == 1 and _outlasts(pipe, acc.args[acc_x], d, k, sizes) else None
                for n in ir.walk(d.value):
                    if isinstance(n, ir.Call) and n.callee is f:
                        read = n if scan is None else \
                            ir.Call(n.type, f, tuple(ir.substitute(a, {scan: ir.Var(I32, xname)}) for a in n.args))
                        # (a scan's RVar is unrolled as x, lanes_source: it reads as x does)
                        gx, stepping = xname, serial(g, n_def) and scan is None
                        lanes, along_lanes = plan.paced.get(id(g), Fraction(plan.funcs[id(g)])), plan.funcs[id(g)]
                        if swept is not None:
                            read, gx, stepping = _swept_read(n, swept), _SWEPT_X, False
                            lanes, along_lanes = Fraction(k), k
                            plan.scans[(id(g), n_def - 1)] = k
                        _read(f, g, read, gx, lanes, stepping, dims, stepped, k > 1, id(f) in streams, looked)
                        along[f"{id(g)} {n_def} {ir.to_string(read)}"] = along_lanes
                        if k > 1:
                            _moving_read(f, g, n, xname, planes.get(id(g), []))
        if k > 1 and id(f) in registers and dims:
            raise _NoLanes(f"'{f.name}' is a table of at most {REGISTER_TABLE} elements updated at computed "
                           "coordinates (lanes of registers), read out one element per cycle")
        if looked and dims:
            raise _NoLanes(f"'{f.name}' is read both along x and at computed coordinates")
        if sum(looked) > READ_PORTS:
            raise _NoLanes(f"'{f.name}' is read at computed coordinates (a RAM) {sum(looked)} times a cycle, through "
                           f"a memory tile's {READ_PORTS} read ports")
        # (a scan's definitions each read their lanes: cdf(b) = hist(b) and cdf(s) = cdf(s - 1) + hist(s) take 4)
        if k > 1 and _scatters(pipe, f) and max(sum(dims.values()), sum(along.values()) if dims else 0) > READ_PORTS:
            raise _NoLanes(f"'{f.name}' is a table updated at computed coordinates (a RAM), read through a memory "
                           f"tile's {READ_PORTS} read ports")
        if len(dims) > 1 and k > 1:
            raise _NoLanes(f"'{f.name}' is read along x in more than one of its dimensions")
        j, rate = min(dims.items()) if dims else (0, Fraction(1))
        if k == 1:  # the former one-lane rules: any stride, no unroll
            rate = Fraction(1)
        lanes = _lanes_at(f, rate)
        if rate < 1:
            plan.paced[id(f)] = rate
        if j in stepped and lanes > 1:
            raise _NoLanes(f"a serial reduction reads '{f.name}' one element along {f.args[j]} per step")
        plan.x_dim[id(f)], plan.funcs[id(f)] = j, lanes
    if k > 1 and point and not plan.scans:
        raise _NoLanes(f"'{acc.name}' has no dimensions (no x to take lanes along) and sweeps no frame of a stream")
    _chained_lanes(pipe, plan, funcs)
    _serial_updates(pipe, plan, funcs)
    return plan


def _lanes_at(f: Function, rate: Fraction) -> int:
    """The lanes of a Func its readers take `rate` pixels of x a cycle from: that many, or one lane paced to them
    where they take a pixel every 1 / rate cycles or fewer (a pyramid's level read at x / 4 under an output of 2
    lanes fires every other cycle, its producers at the rate it reads them: 2 * x at 1/2 is one lane)."""
    if 0 < rate < 1:  # (2 lanes over x / 3 make 2/3: each run of 3 cycles selects among 2 words,
        return 1       # hwlower/lane_quotients.py)
    # (a read backwards along x, `image(W - 1 - x)`, makes a negative rate)
    if rate.denominator != 1 or rate < 1:
        raise _NoLanes(f"'{f.name}' would make {rate} pixels per cycle, not a whole number")
    return int(rate)


def _chained_lanes(pipe: Pipeline, plan: LanePlan, funcs: list[Function]) -> None:
    """Refuse lanes along x of a Func that reads x at a chain of divisors (x / 2 and x / 8) where they neither divide
    the least nor are whole steps of the greatest, nor divide the greatest with each divisor a multiple or a divisor
    of them (4 lanes over x / 2 and x / 8: hwlower/strip_mine.py splits its serial loop into steps of 8 / 4 and its
    lanes into steps of 2; 4 over x / 3 and x / 12 stay refused), as a Func read at fewer than one pixel a cycle
    allows."""
    for g in funcs:
        lanes = plan.funcs.get(id(g), 1)
        if lanes == 1 or id(g) not in plan.x_dim:
            continue
        xname = g.args[plan.x_dim[id(g)]]
        chain = sorted({c.denominator for d in pipe.definitions(g) for n in ir.walk(d.value)
                        if isinstance(n, ir.Call) and isinstance(n.callee, Function) for a in n.args
                        if (c := _coefficient(a, xname)) is not None and 0 < c < 1})
        steps = chain and chain[-1] % lanes == 0 and all(c % lanes == 0 or lanes % c == 0 for c in chain)
        if len(chain) > 1 and chain[0] % lanes and lanes % chain[-1] and not steps:
            raise _NoLanes(f"'{g.name}' reads x at a chain of divisors ({', '.join(map(str, chain))}) that its "
                           f"{lanes} lanes neither divide nor take in whole steps")


def _serial_updates(pipe: Pipeline, plan: LanePlan, funcs: list[Function]) -> None:
    """Refuse lanes of a Func whose update stores along x at an RVar one element a step (no row scan: it reads its
    own elements ahead of x, `s(r.x, r.y) += s(r.x + 1, r.y - 1)`): its pure definition would take the lanes and
    the update none, a design slower than one lane's and larger (9x5: 53 cycles and 25 words against 48 and 15)."""
    for g in funcs:
        if plan.funcs.get(id(g), 1) == 1 or id(g) not in plan.x_dim:
            continue
        xname = g.args[plan.x_dim[id(g)]]
        for n_def, d in enumerate(pipe.definitions(g)[1:], 1):
            stored = d.args[plan.x_dim[id(g)]] if d.rdom is not None else None
            if stored is not None and any(isinstance(n, ir.RVar) for n in ir.walk(stored)) \
                    and row_scan(g, d, xname) is None:
                raise _NoLanes(f"update {n_def - 1} of '{g.name}' stores along x at {ir.user_text(stored)} one "
                               "element a step (it reads its own elements ahead of x)")


def row_scan(g: Function, d, xname: str) -> str | None:
    """The RVar of update d of g when it is a scan along x (`s(r.x, y) = s(r.x - 1, y) + in(r.x, y)`: stored at
    x at the RDom's innermost RVar, every other argument g's own Var or an outer RVar, a 2-D scan's row): unrolled
    like x, its lanes chain (hwlower's lanes check), each reading the one before it in the same cycle. Its own
    elements are read behind it along x, or in an earlier row (`s(r.x, r.y - 1)`), or the element itself (`+=`).
    None otherwise."""
    if d.rdom is None or xname not in g.args:
        return None
    i = g.args.index(xname)
    rvars = [r for r, _, _ in d.rdom.dims]
    if not (isinstance(d.args[i], ir.RVar) and d.args[i].name == rvars[0]):
        return None
    stored = [a.name if isinstance(a, (ir.Var, ir.RVar)) else None for a in d.args]
    if None in stored or len(set(stored)) != len(stored) or not set(rvars) <= set(stored) or any(
            not (isinstance(a, ir.RVar) or a.name == v) for a, v in zip(d.args, g.args)):
        return None
    r = rvars[0]
    for n in ir.walk(d.value):
        if not (isinstance(n, ir.Call) and n.callee is g):
            continue
        behind = [0 if isinstance(a, (ir.Var, ir.RVar)) and a.name == v else _behind(a, v) if v in rvars else -1
                  for a, v in zip(n.args, stored)]
        if min(behind) < 0:  # ahead of it, or off its own Vars
            return None
    return r


_SWEPT_X = "_swept_x"  # the Var a frame scan's unrolled RVar stands for in its reads (their x)


def frame_scan(g: Function, d, streams: frozenset[int]) -> str | None:
    """The innermost RVar of update d of g when it sweeps a whole frame of streams into a point (`total() +=
    in(r.x, r.y)`, a minimum, a maximum: a serial update of a Func of one lane, stored at coordinates free of the
    RDom, reading streams at coordinates of its RVars alone, r.x + c along their x only): unrolled by the output's
    k lanes (GuardWithIf), k pixels a cycle chain into the point, so the sum keeps up with a map at k lanes
    (threshold_mean 13x7 at 2 lanes: 145 -> 103 cycles). None otherwise: a window at x (`in(x + r.x, y + r.y)`),
    a histogram's computed bin (a RAM written k times a cycle), a predicate (where)."""
    rdom = d.rdom
    if rdom is None or len(rdom.dims) < 2 or rdom.predicates:
        return None
    if any(isinstance(m, (ir.RVar, ir.Call)) for a in d.args for m in ir.walk(a)):
        return None
    planes = {a.name for a in d.args if isinstance(a, ir.Var)}  # a sweep per plane, `tot(c) += in(r.x, r.y, c)`
    r = rdom.dims[0][0]
    found = False
    for n in ir.walk(d.value):
        if not (isinstance(n, ir.Call) and any(_uses(a, r) for a in n.args)):
            continue
        if not isinstance(n.callee, Function) or id(n.callee) not in streams or n.callee is g:
            return None
        if _coefficient(_swept_read(n, r).args[0], _SWEPT_X) != 1 or any(_uses(a, r) for a in n.args[1:]) or any(
                isinstance(m, ir.Var) and not (isinstance(a, ir.Var) and a.name in planes)
                for a in n.args for m in ir.walk(a)):  # a window at x (x + r.x): not a frame
            return None
        found = True
    return r if found else None


def _outlasts(pipe: Pipeline, xname: str, d, k: int, sizes: Scalars) -> bool:
    """Whether update d's scan over its RDom (once per plane it stores at, `tot(c)`) at k lanes takes at least as
    many transfers as the output (its estimates, x being `xname`; an output of no dimensions waits for it): the
    map's stream then waits longer than it lasts, and starts late (memories/late_streams.py) instead of being held
    while the scan runs (a sum over a 1080p frame but its border, at 2 lanes: a frame less the border held, 1,008
    memory tiles; serial, the scan outlasts the map's stream)."""
    if tuple(pipe.output.args) == (SCALAR_VAR,):
        return True  # the output is the point the scan sweeps into: no map waits for it
    est = pipe.output.placement.estimates or {}
    rdom = d.rdom
    extents = [_known(e, sizes) for _, _, e in rdom.dims]
    if xname not in est or any(a not in est for a in pipe.output.args) or None in extents:
        return False
    rest = 1
    for a in pipe.output.args:
        rest *= est[a][1] if a != xname else 1
    scan = -(-extents[0] // k)
    for e in extents[1:]:
        scan *= e
    for a in d.args:  # a sweep per plane: once per plane of the output's
        scan *= est[a.name][1] if isinstance(a, ir.Var) and a.name in est and a.name != xname else 1
    return scan >= -(-est[xname][1] // k) * rest


def _known(e: ir.Expr, sizes: Scalars) -> int | None:
    """e's value, where it reads constants and the images' sizes alone (`inp.width()`)."""
    lo, hi = Bounder({}, sizes)(e)
    return lo if lo == hi else None


def _uses(e: ir.Expr, r: str) -> bool:
    return any(isinstance(m, ir.RVar) and m.name == r for m in ir.walk(e))


def _swept_read(call: ir.Call, r: str) -> ir.Call:
    """A frame scan's read with its RVar r as the Var _SWEPT_X (x at the scan's lanes)."""
    return ir.Call(call.type, call.callee, tuple(ir.substitute(a, {r: ir.Var(I32, _SWEPT_X)}) for a in call.args))


def _behind(e: ir.Expr, r: str) -> int:
    """c where e is `r - c` (or `r + -c`) for a constant c; 0 otherwise."""
    if isinstance(e, ir.BinOp) and e.op in ("sub", "add") and isinstance(e.a, ir.RVar) and e.a.name == r \
            and isinstance(e.b, ir.Const):
        return int(e.b.value) if e.op == "sub" else -int(e.b.value)
    return 0


def _read(f: Function, g: Function, call: ir.Call, xname: str, lanes: Fraction, serial: bool,
          dims: dict[int, Fraction], stepped: set[int], unrolled: bool, extends: bool, looked: list[int]) -> None:
    """Record g's read `call` of f in `dims` (f's argument along x -> pixels per cycle) and `stepped`; `unrolled`:
    the output has more than one lane (at one, the former one-lane rules hold: any stride, no unroll); `extends`:
    f is an accelerator input, which hwlower reads at the affine index under a clamp or reflection. A read at
    coordinates computed from loaded values (`cdf(level(x, y))`: f is a RAM, held whole) adds its lanes to `looked`,
    the reads a cycle f's memory tile serves: f's own rate does not follow x. `lanes`: g's pixels of x a cycle,
    below 1 where g is paced (its one lane reads once a firing)."""
    computed = any(isinstance(m, ir.Call) and m.args for a in call.args for m in ir.walk(a))  # not a scalar Param
    # a table streamed in (a constant Buffer's values) read at loaded values in every dimension: a lookup, as of a
    # table computed inside, not a clamped image read the host extends
    extends = extends and not (computed and all(_coefficient(a, xname) is None for a in call.args))
    if computed and unrolled and not extends:
        looked.append(max(1, int(lanes)))
    for j, a in enumerate(call.args):
        c = _coefficient(a, xname)
        if c is None and extends:
            c = _edge_coefficient(a, xname)
        if c is None:
            if lanes <= 1 or (computed and not extends):
                continue
            raise _NoLanes(f"'{g.name}' reads '{f.name}' at a computed coordinate along x")
        if c != 0:
            rate = lanes * c
            if dims.setdefault(j, rate) != rate and unrolled:
                # also where this reader has one lane (a serial reduction's region under a table read out at k
                # lanes): a producer of either rate's lanes does not divide what the other reads per cycle
                raise _NoLanes(f"'{f.name}' is read at two rates along x ({dims[j]} and {rate} pixels per cycle)")
        if serial and any(isinstance(m, ir.RVar) for m in ir.walk(a)):
            stepped.add(j)


def _edge_coefficient(e: ir.Expr, name: str) -> Fraction | None:
    """The coefficient of Var `name` in the affine index under e's clamp or reflection (mirror_image's x - 1 in
    its select of a mod), as hwlower/edges.py splits it; None where it splits no such index. The image's bounds
    and Params in e (`inp.extent.0`: constants by the time hwlower lowers it) are bound to a constant here: the
    coefficient of x in the affine index does not depend on them."""

    def bound(n: ir.Expr, kids: tuple[ir.Expr, ...]) -> ir.Expr:
        scalar = isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and not n.args
        if scalar and (n.type.is_int() or n.type.is_uint()) and n.type.can_represent(_SCALAR):
            return ir.Const(n.type, _SCALAR)
        return ir.rebuild(n, kids)

    split = index_function(simplify(ir.transform(e, bound)))
    return None if split is None else _coefficient(split[0], name)


def _moving_read(f: Function, g: Function, call: ir.Call, xname: str, unrolled: list[str]) -> None:
    """Refuse lanes where g reads f along x at a coordinate that also moves with another of g's loops, one not
    unrolled (`diff(x, y, d) = right(x - d, y)`, d serial): each iteration of that loop would read f's lanes
    shifted by a fraction of a transfer (hwlower refused the schedule)."""
    for a in call.args:
        if _coefficient(a, xname) in (None, 0):
            continue
        for v in g.args:
            if v != xname and v not in unrolled and _coefficient(a, v) != 0:
                raise _NoLanes(f"'{g.name}' reads '{f.name}' along x at a coordinate that moves with its loop {v}")


def _coefficient(e: ir.Expr, name: str) -> Fraction | None:
    """The coefficient of Var `name` in e, where e is affine in it (through casts, division by a constant and
    clamps of it); None where it is not."""
    if isinstance(e, ir.Var):
        return Fraction(1 if e.name == name else 0)
    if not any(isinstance(m, ir.Var) and m.name == name for m in ir.walk(e)):
        return Fraction(0)
    if isinstance(e, ir.Cast):
        return _coefficient(e.value, name)
    if isinstance(e, ir.BinOp):
        a, b = _coefficient(e.a, name), _coefficient(e.b, name)
        if a is None or b is None:
            return None
        if e.op == "add":
            return a + b
        if e.op == "sub":
            return a - b
        if e.op == "mul" and (isinstance(e.a, ir.Const) or isinstance(e.b, ir.Const)):
            return a * e.b.value if isinstance(e.b, ir.Const) else b * e.a.value
        if e.op == "div" and isinstance(e.b, ir.Const) and e.b.value > 0:
            return a / int(e.b.value)
        if e.op in ("min", "max") and 0 in (a, b):  # a clamp: the bound is a constant
            return a or b
    return None


def fewest_alike(pipe: Pipeline, plan: _Plan, planned: Callable[[int], _Plan]) -> _Plan:
    """`plan`, or the plan at the fewest lanes that take as many transfers a row of the frame, of the output and of
    every stream (rows rounded up to whole lanes, as RoundUp does): 3 pixels per cycle over a 2-wide frame are 2,
    one transfer a row either way, for two thirds of the PEs and storage (fuzz --auto 139831, 139835).
    `planned(k)`: the plan at k lanes."""
    at = xy(plan)
    k = plan.lanes.lanes
    if at is None or k == 1:
        return plan
    width = plan.extents[at[0]][1]
    m = -(-width // -(-width // k))
    if m >= k:
        return plan
    fewer = planned(m)
    if fewer.lanes.lanes != m or _transfers(pipe, fewer, at, width) > _transfers(pipe, plan, at, width):
        return plan
    fewer.lanes.note = (f"{k} pixels per cycle over a frame {width} wide take as many transfers a row as {m}, for "
                        "fewer PEs")
    return fewer


def _transfers(pipe: Pipeline, plan: _Plan, at: tuple[int, int], width: int) -> int:
    """The most transfers a row of the output or of a stream at plan's lanes, over rows of whole lanes."""
    k = plan.lanes.lanes
    boxes = tile_boxes(pipe, plan, at, (-(-width // k) * k, 1))
    return max(-(-extent_of(boxes[pipe.name(f)], plan.lanes.x_dim.get(id(f), 0)) // plan.lanes.of(f))
               for f in plan.streams + [plan.accelerated])
