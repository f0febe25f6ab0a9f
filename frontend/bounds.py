"""Bounds inference by interval arithmetic: the range of values of an expression, and the box of every Func
and input a pipeline's output needs.

Every value lies in its type's range, so integer intervals are always finite; a load from a Func or an image
is only known to lie in its type's range (as in Halide). Float intervals may be infinite; they are widened
slightly so the rounding of float arithmetic cannot step outside them, and a float cast to an integer (an
index such as `hl.i32(x * 0.5)`) gets the truncated interval.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable

from . import ir
from .errors import HalideError, ScheduleError
from .func import Definition, Function
from .params import Parameter
from .stream_turns import turn_steps
from .types import Type

_FULL = (-math.inf, math.inf)
_MONOTONE = {"exp": math.exp, "sqrt": math.sqrt, "floor": math.floor, "ceil": math.ceil, "round": round,
             "trunc": math.trunc, "sinh": math.sinh, "asinh": math.asinh, "atan": math.atan, "tanh": math.tanh}
# Functions bounded whatever their argument (a float rounding may pass the exact bound by an ulp: widened)
_WITHIN = {"sin": (-1.0, 1.0), "cos": (-1.0, 1.0), "asin": (-1.6, 1.6), "acos": (0.0, 3.2), "atan2": (-3.2, 3.2)}

Interval = tuple[int, int]  # inclusive
Box = list[Interval]


def _type_range(t: Type) -> Interval:
    return (t.min(), t.max())


def _fit(iv: Interval, t: Type) -> Interval:
    """iv if it is inside t's range, else the whole range (the value wrapped)."""
    return iv if t.min() <= iv[0] and iv[1] <= t.max() else _type_range(t)


def _floordiv_bounds(a: Interval, c: int) -> Interval:
    if c > 0:
        return (a[0] // c, a[1] // c)
    return (-(a[1] // -c), -(a[0] // -c))  # Euclidean division by a negative constant


class Bounder:
    """Interval of an expression given intervals of its variables and values of scalar parameters."""

    def __init__(self, env: dict[str, Interval], scalars, values: dict[int, Interval] | None = None):
        self.env = env
        self.scalars = scalars  # callable Parameter -> int | None
        self.values = values or {}  # id(Function) -> the interval of its values (`func_value_bounds`)
        self.memo: dict[int, Interval] = {}

    def __call__(self, e: ir.Expr) -> Interval:
        got = self.memo.get(id(e))
        if got is None:
            for n in ir.walk(e):  # children first, iteratively: any depth is fine
                if id(n) not in self.memo:
                    self.memo[id(n)] = self._bounds(n)
            got = self.memo[id(e)]
        return got

    def _bounds(self, e: ir.Expr) -> Interval:
        if e.type.is_float():
            return _widen(self._float_bounds(e))
        if isinstance(e, ir.Const):
            return (e.value, e.value)
        if isinstance(e, (ir.Var, ir.RVar)):
            return self.env[e.name]
        if isinstance(e, ir.Call):
            if isinstance(e.callee, Parameter) and not e.args:
                v = self.scalars(e.callee)
                v = e.callee.bound() if v is None else v
                return (v, v) if v is not None else _type_range(e.type)
            return self.values.get(id(e.callee), _type_range(e.type))
        if isinstance(e, ir.MathCall):  # the bits of a float (`reinterpret`)
            return _type_range(e.type)
        if isinstance(e, ir.Cast):
            if e.type.is_bool():
                return (0, 1)
            iv = self(e.value)
            if e.value.type.is_float():
                if not all(math.isfinite(v) for v in iv):
                    return _type_range(e.type)
                iv = (math.trunc(iv[0]), math.trunc(iv[1]))
            return _fit(iv, e.type)
        if isinstance(e, ir.Select):
            t, f = self(e.true_value), self(e.false_value)
            c = self(e.cond)
            if c == (1, 1):
                return t
            if c == (0, 0):
                return f
            return (min(t[0], f[0]), max(t[1], f[1]))
        if isinstance(e, ir.UnOp):
            a = self(e.a)
            if e.op == "abs":
                lo = 0 if a[0] <= 0 <= a[1] else min(abs(a[0]), abs(a[1]))
                return _fit((lo, max(abs(a[0]), abs(a[1]))), e.type)
            return (0, 1) if e.type.is_bool() else _fit((-a[1] - 1, -a[0] - 1), e.type)
        return self._binop(e)

    def _float_bounds(self, e: ir.Expr):
        if isinstance(e, ir.Const):
            return (e.value, e.value)
        if isinstance(e, ir.Cast):
            lo, hi = self(e.value)
            return (float(lo), float(hi))
        if isinstance(e, ir.Select):
            t, f = self(e.true_value), self(e.false_value)
            return (min(t[0], f[0]), max(t[1], f[1]))
        if isinstance(e, ir.UnOp):  # abs
            a = self(e.a)
            return (0.0 if a[0] <= 0 <= a[1] else min(abs(a[0]), abs(a[1])), max(abs(a[0]), abs(a[1])))
        if isinstance(e, ir.MathCall) and e.name == "strict_float":
            return self(e.args[0])
        if isinstance(e, ir.MathCall) and e.name in _WITHIN:
            return _WITHIN[e.name]
        if isinstance(e, ir.MathCall) and e.name in _MONOTONE:
            a = self(e.args[0])
            if (e.name == "sqrt" and a[0] < 0) or not all(math.isfinite(v) for v in a):
                return _FULL
            try:
                return (_MONOTONE[e.name](a[0]), _MONOTONE[e.name](a[1]))
            except OverflowError:
                return _FULL
        if isinstance(e, ir.BinOp) and e.op in ("add", "sub", "mul", "min", "max"):
            return _float_binop(e.op, self(e.a), self(e.b))
        return _FULL

    def _binop(self, e: ir.BinOp) -> Interval:
        a, b, t, op = self(e.a), self(e.b), e.type, e.op
        if op in ir.COMPARISONS:
            return _compare(op, a, b)
        if op == "add":
            return _fit((a[0] + b[0], a[1] + b[1]), t)
        if op == "sub":
            return _fit((a[0] - b[1], a[1] - b[0]), t)
        if op == "mul":
            p = [a[i] * b[j] for i in (0, 1) for j in (0, 1)]
            return _fit((min(p), max(p)), t)
        if op == "min":
            return (min(a[0], b[0]), min(a[1], b[1]))
        if op == "max":
            return (max(a[0], b[0]), max(a[1], b[1]))
        if op == "absd":
            return _fit((0, max(abs(a[1] - b[0]), abs(a[0] - b[1]))), t)
        if op == "div":
            return self._div(a, b, t)
        if op == "mod":
            if b[0] == b[1] and b[0] != 0:
                c = abs(b[0])
                return a if a[0] >= 0 and a[1] < c else (0, c - 1)
            m = max(abs(b[0]), abs(b[1]))
            return (0, max(m - 1, 0)) if a[0] >= 0 or m else (0, 0)
        if op in ("and", "or", "xor") and a[0] >= 0 and b[0] >= 0:
            if op == "and":
                return (0, min(a[1], b[1]))
            hi = max(a[1], b[1])
            return (0, (1 << hi.bit_length()) - 1)
        if op in ("shl", "shr") and b[0] == b[1] and 0 <= b[0] < 63:
            k = b[0]
            if op == "shl":
                return _fit((a[0] << k, a[1] << k), t)
            return (a[0] >> k, a[1] >> k)
        return _type_range(t)

    def _div(self, a: Interval, b: Interval, t: Type) -> Interval:
        if b[0] == b[1]:
            c = b[0]
            return _fit((0, 0) if c == 0 else _floordiv_bounds(a, c), t)
        m = max(abs(a[0]), abs(a[1]))
        lo = min(0, -m) if (a[0] < 0 or b[0] < 0) else 0
        return _fit((lo - 1, m + 1), t) if lo < 0 else (0, a[1])


def _compare(op: str, a: Interval, b: Interval) -> Interval:
    """A comparison's interval: (1, 1) or (0, 0) where a's and b's intervals decide it (a select then bounds one
    branch: mirror_image's `select(y % 2e < e, ...)` on rows away from the edges), else (0, 1)."""
    below, above = a[1] < b[0], a[0] > b[1]  # every a is below (above) every b
    single = a[0] == a[1] == b[0] == b[1]
    decided = {"lt": (below, a[0] >= b[1]), "le": (a[1] <= b[0], above), "gt": (above, a[1] <= b[0]),
               "ge": (a[0] >= b[1], below), "eq": (single, below or above), "ne": (below or above, single)}.get(op)
    if decided is None or not (decided[0] or decided[1]):
        return (0, 1)
    return (1, 1) if decided[0] else (0, 0)


def _float_binop(op: str, a, b):
    try:
        if op == "add":
            iv = (a[0] + b[0], a[1] + b[1])
        elif op == "sub":
            iv = (a[0] - b[1], a[1] - b[0])
        elif op == "mul":
            p = [a[i] * b[j] for i in (0, 1) for j in (0, 1)]
            iv = (min(p), max(p))
        elif op == "min":
            iv = (min(a[0], b[0]), min(a[1], b[1]))
        else:
            iv = (max(a[0], b[0]), max(a[1], b[1]))
    except OverflowError:
        return _FULL
    return _FULL if any(math.isnan(v) for v in iv) else iv


def _widen(iv):
    """iv grown by a relative 2**-20 (and 2**-126 absolute) each way: float32 rounding stays inside."""
    lo, hi = iv
    if math.isnan(lo) or math.isnan(hi):
        return _FULL
    lo = lo - abs(lo) * 2.0**-20 - 2.0**-126 if math.isfinite(lo) else lo
    hi = hi + abs(hi) * 2.0**-20 + 2.0**-126 if math.isfinite(hi) else hi
    return (lo, hi)


def union(a: Box | None, b: Box) -> Box:
    if a is None:
        return list(b)
    return [(min(x[0], y[0]), max(x[1], y[1])) for x, y in zip(a, b)]


class SharedBounds:
    """Intervals of expressions over many environments (the runs of an array, each its own box), shared between
    them: an expression's interval depends only on the intervals of the variables it reads (a `Bounder` reads
    its environment at those only), so runs whose boxes agree there (the runs of one column of tiles in x) bound
    it once. Scalars and Func value intervals are the same for every environment."""

    def __init__(self, scalars, values: dict[int, Interval] | None = None):
        self.scalars = scalars
        self.values = values or {}
        # id -> (the expression, kept alive so that its id stays its own; the ranges of its vars in an env)
        self._free: dict[int, tuple[ir.Expr, Callable[[dict[str, Interval]], object]]] = {}
        self._got: dict[tuple[int, object], Interval] = {}
        self._calls: dict[int, tuple[Definition, list[ir.Call]]] = {}

    def __call__(self, e: ir.Expr, env: dict[str, Interval]) -> Interval:
        free = self._free.get(id(e))
        if free is None:
            names = sorted({n.name for n in ir.walk(e) if isinstance(n, (ir.Var, ir.RVar))})
            free = self._free[id(e)] = (e, operator.itemgetter(*names) if names else lambda env: ())
        key = (id(e), free[1](env))
        got = self._got.get(key)
        if got is None:
            got = self._got[key] = Bounder(env, self.scalars, self.values)(e)
        return got

    def __len__(self) -> int:
        """How many intervals it has computed."""
        return len(self._got)

    def calls(self, d: Definition) -> list[ir.Call]:
        """`calls_in(d)`, listed once."""
        got = self._calls.get(id(d))
        if got is None:
            got = self._calls[id(d)] = (d, list(calls_in(d)))
        return got[1]


def definition_env(fn_box: Box, d: Definition, scalars, who: str = "") -> dict[str, Interval]:
    """Ranges of a definition's pure vars (the Func's box in their dimensions) and RVars; `who`: the Func's name,
    for the message where an RVar's bounds are not known values."""
    env: dict[str, Interval] = {}
    for i, a in enumerate(d.args):
        if isinstance(a, ir.Var):
            env[a.name] = fn_box[i]
    if d.rdom is not None:
        b = Bounder({}, scalars)
        for name, lo, ext in d.rdom.dims:
            lo_v, ext_v = b(lo), b(ext)
            if lo_v[0] != lo_v[1] or ext_v[0] != ext_v[1]:
                func = f"Func '{who}': " if who else ""
                raise ScheduleError(f"{d.loc}: {func}RDom {d.rdom.name}: dimension {name.replace('$', '.')} has "
                                    "bounds that " + _unknown_bounds(lo, ext, d.rdom))
            env[name] = (lo_v[0], lo_v[0] + ext_v[0] - 1)
    return env


def _unknown_bounds(lo: ir.Expr, ext: ir.Expr, dom: ir.ReductionDomain) -> str:
    """Why an RDom's bounds are not known values, and the fix: an image's size no `dim(i).set_bounds` nor a held
    buffer gives (an RDom over `input.width()`), else a Param."""
    for n in (m for e in (lo, ext) for m in ir.walk(e)):
        if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and n.callee.kind == "shape":
            image, _, i = n.callee.owner
            # an estimate is only what an autoscheduler plans for: the image may have any size when it runs
            est = image.given_estimates().get(i)
            lo, extent = est or (0, 64)
            known = f" (its set_estimate({lo}, {extent}) is a guess, not its size)" if est else ""
            return (f"read the size of image {image.name()}, which no {image.name()}.dim({i}).set_bounds gives"
                    f"{known}; an accelerator's loops are fixed at compile time: bind the size the design takes "
                    f"({image.name()}.dim({i}).set_bounds({lo}, {extent})), or {image.name()}.set(<the image>) "
                    "before compiling (its size is taken), or give the RDom constant bounds")
    from .param_domains import range_hint

    return ("are not known values (they use a Param); an accelerator's loops are fixed at compile time: give the RDom "
            "constant bounds (e.g. hl.RDom([hl.Range(0, 3)]))" + range_hint(dom))


def calls_in(d: Definition):
    for e in d.args + (d.value,):
        for node in ir.walk(e):
            if isinstance(node, ir.Call) and node.args:
                yield node


def func_value_bounds(pipe, scalars) -> dict[int, Interval]:
    """The interval of every pure integer Func's values, from its definition over all coordinates (Halide's
    function value bounds): a table read at `max(gray(x, y), 1)` with gray = u16(... >> 8) needs [1, 255], not
    the whole uint16 range. A Func with updates, a float Func and an image take their type's range."""
    values: dict[int, Interval] = {}
    anywhere = (-(1 << 31), (1 << 31) - 1)
    for fn in pipe.order:  # producers first
        defs = pipe.definitions(fn)
        if len(defs) != 1 or defs[0].rdom is not None or fn.type.is_float():
            continue
        bnd = Bounder(dict.fromkeys(fn.args, anywhere), scalars, values)
        values[id(fn)] = _fit(bnd(defs[0].value), fn.type)
    return values


def infer_boxes(pipe, out_box: Box, scalars, output_bounds: bool = True,
                required: dict[str, Box] | None = None,
                multiples: dict[int, dict[int, int]] | None = None, shifted: frozenset[int] = frozenset(),
                demanded: dict[str, Box] | None = None,
                shared: SharedBounds | None = None, inner_bounds: bool = True) -> tuple[dict[str, Box], dict[str, Box]]:
    """The box each Func is realised over and the box of each input that is read (by unique name).
    `output_bounds=False` takes `out_box` as given even where the output has `bound`s (one accelerator tile).
    `required`, if given, receives each Func's box before its RoundUp tails grow it (what its consumers read).
    `multiples` (id(Function) -> {dimension: d}) starts those dimensions at a multiple of d and rounds their
    extents up to multiples of d, as RoundUp would (the hardware's upsample steps).
    `shifted` (ids of Funcs inside the accelerator): their other tails (ShiftInwards, GuardWithIf, Auto on a
    pure definition...) are realised rounded up, as hardware loops cannot move their last iteration back nor
    skip it; their producers are still asked only for what the box before that rounding reads, which
    `demanded` receives where it differs.
    `shared`: intervals shared with other calls on the same `pipe` and `scalars` (its Func value intervals).
    `inner_bounds=False` (one accelerator tile of several) realises a Func with a `bound`, whose definitions all
    write at its own Vars, over what its consumers read instead: its values are the same, and the bound's fixed
    range would not shift with the tile (the whole image's inference checks that the bound covers what is read)."""
    boxes: dict[str, Box] = {}
    # Every output is asked for the same box (Halide's realize sizes), and more where another output reads it.
    needs: dict[int, Box] = {id(o): list(out_box) for o in pipe.outputs}
    inputs: dict[str, Box] = {}
    if shared is None:
        shared = SharedBounds(scalars, func_value_bounds(pipe, scalars))
    values = shared.values
    for fn in reversed(pipe.order):  # consumers before producers
        box = needs.get(id(fn))
        assert box is not None, fn.name
        output = pipe.is_output(fn)
        if (output and output_bounds) or (not output and fn.placement.compute.kind != "inline"
                                          and (inner_bounds or not _pointwise(pipe, fn))):
            box = _aligned(fn, _apply_bounds(fn, box))  # Halide ignores (with a warning) an inlined Func's
        if required is not None:
            required[pipe.name(fn)] = box
        if output and fn.placement.compute.kind == "inline":  # (the output is realised all the same)
            _check_rounded_bounds(fn, box, rounded_up(fn, box))
        realised, box = realised_box(fn, box, (multiples or {}).get(id(fn), {}), id(fn) in shifted,
                                     lambda b, fn=fn: _self_footprint(pipe, fn, b, scalars, values),
                                     fn.placement.compute.kind != "inline" or bool(fn.placement.accelerator_input))
        boxes[pipe.name(fn)] = realised
        if demanded is not None and realised != box:
            demanded[pipe.name(fn)] = box
        for d in pipe.definitions(fn):
            env = definition_env(box, d, scalars, fn.name)
            for call in shared.calls(d):
                req = [shared(a, env) for a in call.args]
                if isinstance(call.callee, Function):
                    if call.callee is not fn:
                        needs[id(call.callee)] = union(needs.get(id(call.callee)), req)
                else:
                    inputs[call.callee.name] = union(inputs.get(call.callee.name), req)
    return boxes, inputs


def realised_box(fn: Function, box: Box, steps: dict[int, int], shifted: bool,
                 grow: Callable[[Box], Box] = lambda b: b, tails: bool = True) -> tuple[Box, Box]:
    """fn's box realised from `box`, what its readers ask for (after its bounds and alignments), and the box its
    producers are asked for: RoundUp tails grow both (`tails`: fn is realised, not inlined, or is a stream), as
    do the upsample `steps` ({dimension: d}: whole steps of d from a multiple of d, so x / d is affine) and
    `grow` (what its updates write of itself); with `shifted` (inside the accelerator) its other tails round up
    the realised box only."""
    pre = box
    if tails:
        box = rounded_up(fn, box)
        _check_rounded_bounds(fn, pre, box)
    for dim, d in steps.items():
        box[dim] = _aligned_range(box[dim], d, 0)
    box = grow(box)
    # again after what the updates write of it (a RAM scattered past the steps its first pass reads at b % 4:
    # fuzz 160907's [0, 7] grown to [0, 98], not whole steps)
    for dim, d in steps.items():
        box[dim] = _aligned_range(box[dim], d, 0)
    # (from the box before RoundUp grew it: rounding that box again would round a divided split anew)
    return (shift_rounded(fn, box, pre) if shifted else box), box


def shift_rounded(fn: Function, box: Box, pre: Box) -> Box:
    """fn's box inside the accelerator: `box` grown by its other tails rounded up from `pre` (the box before its
    RoundUp tails grew it), and where it reads a stream's words in turn, to whole transfers (stream_turns.py)."""
    realised = union(box, rounded_up(fn, pre, shifts=True))
    for dim, k in turn_steps(fn).items():
        realised[dim] = _aligned_range(realised[dim], k, None)
    return realised


def _pointwise(pipe, fn: Function) -> bool:
    """Whether every definition of fn writes at its own Vars (no update at computed coordinates, a scatter): its
    value at a point then does not depend on the box it is realised over."""
    return all(len(d.args) == len(fn.args) and all(isinstance(a, ir.Var) and a.name == v
                                                    for a, v in zip(d.args, fn.args))
               for d in pipe.definitions(fn))


def _check_rounded_bounds(fn: Function, before: Box, box: Box) -> None:
    """Halide's check that a Func's explicit bound covers the loops its own RoundUp splits run: `bound(x, 0, 64)`
    with `split(x, xo, xi, 3, RoundUp)` computes 66 values, which the bound refuses (it would change the
    realised, and for an output the streamed, shape)."""
    for i, name in enumerate(fn.args):
        if name not in fn.placement.bounds or box[i] == before[i]:
            continue
        lo, ext, loc = fn.placement.bounds[name]
        lo = before[i][0] if lo is None else lo
        if box[i][0] < lo or box[i][1] > lo + ext - 1:
            raise _uncovered(fn, name, lo, ext, loc, box[i], (
                f"a RoundUp split of {name} runs whole steps past the bound; split {name} by a factor that divides "
                f"{ext}, or use hl.TailStrategy.GuardWithIf (or ShiftInwards) for that split, or widen the bound"))


def _uncovered(fn: Function, name: str, lo: int, ext: int, loc, need: tuple[int, int], fix: str) -> HalideError:
    """Halide's message for a bound that does not cover the region required of it, and the fix."""
    return HalideError(f"{loc}: Bounds given for {fn.name} in {name} (from {lo} to {lo + ext - 1}) do not cover "
                       f"required region (from {need[0]} to {need[1]}): {fix}")


def _aligned(fn: Function, box: Box) -> Box:
    """box grown by fn's align_bounds (min to its remainder, extent to a multiple) and align_extent."""
    return [_aligned_range(b, *fn.placement.aligns[name]) if name in fn.placement.aligns else b
            for name, b in zip(fn.args, box)]


def _aligned_range(b: tuple[int, int], m: int, r: int | None) -> tuple[int, int]:
    """[lo, hi] grown to a multiple of m values, from a min that is r modulo m (None: the same min)."""
    lo, hi = b
    if r is not None:
        lo -= (lo - r) % m
    return lo, hi + (-(hi - lo + 1)) % m


def _apply_bounds(fn: Function, box: Box) -> Box:
    out = list(box)
    for i, name in enumerate(fn.args):
        if name in fn.placement.bounds:
            lo, ext, loc = fn.placement.bounds[name]
            lo = box[i][0] if lo is None else lo
            if box[i][0] < lo or box[i][1] > lo + ext - 1:
                raise _uncovered(fn, name, lo, ext, loc, box[i], f"Func \"{fn.name}\".bound({name}, {lo}, {ext}); "
                                 "widen the bound")
            out[i] = (lo, lo + ext - 1)
    return out


def rounded_up(fn: Function, box: Box, shifts: bool = False) -> Box:
    """The box grown to what fn's loops cover when a split rounds its loop up (Halide's bounds inference: a
    RoundUp tail, which is also the Auto tail of a pure variable in an update, runs ceil(e / f) * f iterations
    and the Func is realised over all of them, so its producers compute what the extra iterations read).
    `shifts`: every other tail rounds up too (hardware's loops; see infer_boxes)."""
    out = list(box)
    for k, d in enumerate(fn.definitions):
        dims = {a.name if isinstance(a, ir.Var) else None: i for i, a in enumerate(d.args)}
        dims.pop(None, None)
        covered = _covered(d.schedule, {v: box[i][1] - box[i][0] + 1 for v, i in dims.items()}, k > 0, shifts)
        for v, i in dims.items():
            lo = box[i][0]
            out[i] = (min(out[i][0], lo), max(out[i][1], lo + covered.get(v, 1) - 1))
    return out


def _covered(schedule, extents: dict[str, int], update: bool, shifts: bool = False) -> dict[str, int]:
    """How many values of each pure variable a stage's loops cover after its splits (extents: the box's)."""
    from .schedule import Split, TailStrategy

    lanes = schedule.lane_dims()
    leaves: dict[str, list] = {v: ["leaf", e] for v, e in extents.items()}
    roots = dict(leaves)
    for dv in schedule.directives:
        # A fuse keeps what its loops cover (hardware runs it as its two loops; a split of it is refused there).
        if not isinstance(dv, Split) or dv.old not in leaves:
            continue  # RVar splits never grow the Func's box
        node = leaves.pop(dv.old)
        e = node[1]
        # (a split wider than its loop shrinks to it, as Halide's bounds inference does, except for lanes inside
        # the accelerator, which round up: hwlower.loops)
        shift = shifts and (e > dv.factor or dv.inner in lanes) and e % dv.factor != 0 and \
            dv.tail is not TailStrategy.RoundUp
        rounds = dv.tail is TailStrategy.RoundUp or (update and dv.tail is TailStrategy.Auto) or shift
        # (shrunk, its inner loop runs over e values: lanes splitting it round e up, not the factor; a memory tile
        # of 4 over a GLB tile of 3 at 2 lanes covers 4)
        f = dv.factor if rounds or e >= dv.factor else e
        outer, inner = ["leaf", -(-e // f)], ["leaf", f]
        node[:] = ["split", e, f, rounds, outer, inner]
        leaves[dv.outer], leaves[dv.inner] = outer, inner

    def cover(node) -> int:
        if node[0] == "leaf":
            return node[1]
        _, e, f, rounds, outer, inner = node
        co, ci = cover(outer), cover(inner)
        if rounds or e % f == 0:
            return (co - 1) * f + ci
        return e - f + ci + (co - -(-e // f)) * f  # ShiftInwards: the last iteration moves back inside

    return {v: cover(n) for v, n in roots.items()}


def _self_footprint(pipe, fn: Function, box: Box, scalars, values: dict[int, Interval] | None = None) -> Box:
    """Grow the box by what fn's updates write and read of fn itself (e.g. a scan reading f[r.x - 1], a
    histogram writing at the values of a clamped Func)."""
    for _ in range(8):
        grown = box
        for d in pipe.definitions(fn)[1:]:
            bnd = Bounder(definition_env(box, d, scalars, fn.name), scalars, values)
            grown = union(grown, [bnd(a) for a in d.args])
            for call in calls_in(d):
                if call.callee is fn:
                    grown = union(grown, [bnd(a) for a in call.args])
        if grown == box:
            return box
        box = grown
    raise AssertionError(f"self footprint of {fn.name} did not converge")
