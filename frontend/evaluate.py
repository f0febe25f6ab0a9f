"""The NumPy reference: evaluates the algorithm (ignoring the schedule) over the boxes bounds inference gives.

Each Func is computed over its whole box, producers first, with arrays whose axis i is dimension i. An update
runs sequentially over its RDom (outer dimensions outer), each point vectorised over the pure variables: that
is exact because Halide requires an update's references to its own Func to keep the pure variables in place,
so different pure points never touch each other's values. A commutative reduction `f[L] = f[L] op e` (op in
+, *, min, max; e not reading f) is scattered in one step with `ufunc.at`, which is equally exact for
integers (float reductions run point by point instead: their order of operations matters).

Float values are carried in their own dtype; expressions with floats are first put in the form Halide's
compiled code computes (`floatlower.halide_form`: inlining, folding, fused multiply-adds).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from . import floatlower, ir, semantics
from .bounds import Box, definition_env, infer_boxes, union
from .errors import HalideError, user_location
from .func import Definition, Function
from .params import Buffer, Parameter
from .requirements import check_requirements
from .types import Type

_SCATTER = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}
_CHUNK = 1 << 23  # elements per scatter chunk
_POINTWISE = 1024  # an update with pure Vars on its left loops over up to this many RDom points one by one


class Store:
    """A realised Func or input: int64 values over a box."""

    __slots__ = ("arr", "mins")

    def __init__(self, arr: np.ndarray, mins: tuple[int, ...]):
        self.arr, self.mins = arr, mins


class Evaluator:
    def __init__(self, pipe, params: dict[str, int], inputs: dict[str, Buffer]):
        self.pipe = pipe
        self.params = params
        self.stores: dict[int, Store] = {}
        for name, buf in inputs.items():
            self.stores[id(pipe.inputs[name])] = Store(semantics.carry(buf.halide_view(), buf.type()), buf.mins())
        self._forms: dict[int, tuple[ir.Expr, ir.Expr]] = {}  # id(e) -> (e, its Halide form): both kept alive
        self._fma: floatlower.FmaPlan = {}

    def scalar(self, p: Parameter) -> int | None:
        return self.params.get(p.name)

    # ---- expressions ----
    def eval(self, e: ir.Expr, env: dict, memo: dict) -> np.ndarray:
        """The value of e (children first, iteratively, so any depth is fine); memo maps id(node) -> value."""
        e = self._halide_form(e)
        stack = [e]
        while stack:
            n = stack[-1]
            if id(n) in memo:
                stack.pop()
                continue
            if isinstance(n, ir.Call) and n.args:
                sliced = self._slice(n, env, self.stores[id(n.callee)])
                if sliced is not None:  # a view: the arguments need no evaluation
                    memo[id(n)] = sliced
                    stack.pop()
                    continue
            pending = [c for c in ir.children(n) if id(c) not in memo]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            memo[id(n)] = self._eval_node(n, env, memo)
        return memo[id(e)]

    def _halide_form(self, e: ir.Expr) -> ir.Expr:
        got = self._forms.get(id(e))
        if got is None:
            form, plan = floatlower.halide_form(e, self.pipe) if floatlower.has_float(e) else (e, {})
            self._fma.update(plan)
            got = self._forms[id(e)] = self._forms[id(form)] = (e, form)
        return got[1]

    def _eval_node(self, e: ir.Expr, env: dict, memo: dict):
        if isinstance(e, ir.Const):
            return semantics.carry(e.value, e.type)[()]
        if isinstance(e, (ir.Var, ir.RVar)):
            return env[e.name]
        kids = [memo[id(c)] for c in ir.children(e)]
        if isinstance(e, ir.Call):
            return self._call(e, kids)
        if isinstance(e, ir.Cast):
            return semantics.cast(kids[0], e.value.type, e.type)
        if isinstance(e, ir.BinOp):
            fused = self._fma.get(id(e))
            if fused is not None:
                return _fused(fused, memo, e.type)
            return semantics.binop(e.op, e.type, e.a.type, kids[0], kids[1])
        if isinstance(e, ir.MathCall):
            return semantics.math_call(e.name, e.type, *kids)
        if isinstance(e, ir.UnOp):
            return semantics.unop(e.op, e.type, kids[0])
        if isinstance(e, ir.Select):
            return semantics.select(kids[0], kids[1], kids[2])
        raise AssertionError(f"unknown IR node {type(e).__name__}")

    def _call(self, e: ir.Call, args: list):
        if not e.args:
            v = self.scalar(e.callee)
            assert v is not None, e.callee.name
            return semantics.carry(v, e.type)[()]
        store = self.stores[id(e.callee)]
        idx = tuple(np.asarray(a) - m for a, m in zip(args, store.mins))
        return store.arr[idx]

    def _slice(self, e: ir.Call, env: dict, store: Store):
        """Fast path for args `v_i + k` where v_i is the variable along axis i and k a constant (or an RVar,
        Param, ... with one value here): a view instead of a gather."""
        sl = []
        for axis, arg in enumerate(e.args):
            a = arg
            off = 0
            if isinstance(a, ir.BinOp) and a.op in ("add", "sub"):
                k = self._scalar_value(a.b, env)
                if k is None:
                    return None
                off = k if a.op == "add" else -k
                a = a.a
            if not isinstance(a, ir.Var):
                return None
            v = env.get(a.name)
            if not isinstance(v, np.ndarray) or v.ndim != len(e.args) or v.shape[axis] != v.size:
                return None
            lo = int(v.flat[0]) + off - store.mins[axis]
            sl.append(slice(lo, lo + v.size))
        return store.arr[tuple(sl)]

    def _scalar_value(self, e: ir.Expr, env: dict) -> int | None:
        if isinstance(e, ir.Const):
            return e.value
        if isinstance(e, ir.RVar):
            v = env.get(e.name)
            return int(v) if v is not None and np.ndim(v) == 0 else None
        if isinstance(e, ir.Call) and not e.args:
            return self.scalar(e.callee)
        return None

    # ---- Funcs ----
    def realize_function(self, fn: Function, box: Box):
        extents = tuple(hi - lo + 1 for lo, hi in box)
        mins = tuple(lo for lo, _ in box)
        defs = self.pipe.definitions(fn)
        env = _grid(fn.args, box, len(box))
        value = self.eval(defs[0].value, env, {})
        arr = np.array(np.broadcast_to(value, extents), dtype=semantics.carry(0, fn.type).dtype)
        store = Store(arr, mins)
        self.stores[id(fn)] = store
        for d in defs[1:]:
            self._update(fn, d, box, store)

    def _update(self, fn: Function, d: Definition, box: Box, store: Store):
        n = len(box)
        if d.rdom is None:
            env = _grid([a.name if isinstance(a, ir.Var) else None for a in d.args], box, n)
            self._assign(fn, d, env, store, n)
            return
        ranges = definition_env(box, d, self.scalar)
        rnames = [name for name, _, _ in d.rdom.dims]
        points = int(np.prod([ranges[r][1] - ranges[r][0] + 1 for r in rnames]))
        pattern = None if fn.type.is_float() else _reduction_pattern(fn, d)
        pure = _pure_lhs(d)
        if pattern is not None and not (pure and points <= _POINTWISE):
            self._scatter(fn, d, box, store, ranges, rnames, *pattern)
            return
        env = _grid([a.name if isinstance(a, ir.Var) else None for a in d.args], box, n)
        for point in _rdom_points(rnames, ranges):
            env.update(point)
            if pure:  # every point updates the whole box in place: no index arrays
                store.arr[...] = self.eval(d.value, env, {})
            else:
                self._assign(fn, d, env, store, n)

    def _assign(self, fn, d: Definition, env: dict, store: Store, n: int):
        memo: dict = {}
        value = self.eval(d.value, env, memo)
        idx = [np.asarray(self.eval(a, env, memo)) - m for a, m in zip(d.args, store.mins)]
        _check_inside(fn, idx, store)
        shape = np.broadcast_shapes(np.shape(value), *(i.shape for i in idx))
        store.arr[tuple(np.broadcast_to(i, shape) for i in idx)] = np.broadcast_to(value, shape)

    def _scatter(self, fn, d, box, store, ranges, rnames, op, rhs):
        n, m = len(box), len(rnames)
        env = _grid([a.name if isinstance(a, ir.Var) else None for a in d.args], box, n + m)
        pure_size = int(np.prod([hi - lo + 1 for lo, hi in box]))
        outer = rnames[-1]
        lo, hi = ranges[outer]
        step = max(1, _CHUNK // max(1, pure_size * int(np.prod([ranges[r][1] - ranges[r][0] + 1
                                                                for r in rnames[:-1]]))))
        for j, r in enumerate(rnames[:-1]):
            env[r] = _axis(np.arange(ranges[r][0], ranges[r][1] + 1), n + j, n + m)
        for start in range(lo, hi + 1, step):
            env[outer] = _axis(np.arange(start, min(hi, start + step - 1) + 1), n + m - 1, n + m)
            memo: dict = {}
            value = self.eval(rhs, env, memo)
            idx = [np.asarray(self.eval(a, env, memo)) - mn for a, mn in zip(d.args, store.mins)]
            _check_inside(fn, idx, store)
            # every point of the RDom updates, also along its dimensions that neither side reads (Halide's loops)
            shape = np.broadcast_shapes(np.shape(value), *(i.shape for i in idx), *(env[r].shape for r in rnames))
            _SCATTER[op].at(store.arr, tuple(np.broadcast_to(i, shape).ravel() for i in idx),
                            np.broadcast_to(value, shape).ravel())
        store.arr[...] = semantics.wrap(store.arr, fn.type) if op in ("add", "mul") else store.arr


def _fused(fused, memo: dict, t: Type):
    """A fused multiply-add: (±a*b) + (±c) rounded once."""
    from .floatmath import fma

    product, addend, negate_product, negate_addend = fused
    a, b, c = memo[id(product.a)], memo[id(product.b)], memo[id(addend)]
    return fma(-a if negate_product else a, b, -c if negate_addend else c, t.dtype)


def _pure_lhs(d: Definition) -> bool:
    """The left side is distinct pure Vars, one per dimension (so each RDom point updates the whole box)."""
    names = [a.name for a in d.args if isinstance(a, ir.Var)]
    return len(names) == len(d.args) and len(set(names)) == len(names)


def _axis(values: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    shape = [1] * ndim
    shape[axis] = values.size
    return values.astype(np.int64).reshape(shape)


def _grid(names, box: Box, ndim: int) -> dict:
    env = {}
    for i, name in enumerate(names):
        if name is not None:
            env[name] = _axis(np.arange(box[i][0], box[i][1] + 1), i, ndim)
    return env


def _rdom_points(rnames, ranges):
    import itertools

    axes = [range(ranges[r][0], ranges[r][1] + 1) for r in reversed(rnames)]  # outermost first
    for combo in itertools.product(*axes):
        yield {r: np.int64(v) for r, v in zip(reversed(rnames), combo)}


def _reduction_pattern(fn: Function, d: Definition):
    v = d.value
    if not isinstance(v, ir.BinOp) or v.op not in _SCATTER:
        return None
    lhs_key = [ir.structural_key(a) for a in d.args]
    for self_side, other in ((v.a, v.b), (v.b, v.a)):
        if (isinstance(self_side, ir.Call) and self_side.callee is fn
                and [ir.structural_key(a) for a in self_side.args] == lhs_key
                and not any(isinstance(n, ir.Call) and n.callee is fn for n in ir.walk(other))):
            return v.op, other
    return None


def _check_inside(fn: Function, idx, store: Store):
    for axis, i in enumerate(idx):
        if i.size and (i.min() < 0 or i.max() >= store.arr.shape[axis]):
            raise AssertionError(f"update of {fn.name} writes outside its inferred box in dimension {axis}")


def _check_inputs(pipe, needed: dict[str, Box], buffers: dict[str, Buffer]):
    for name, box in needed.items():
        buf = buffers[name]
        p = pipe.inputs[name]
        if buf.dimensions() != p.dims:
            raise HalideError(
                f"Input buffer {name} requires a buffer of exactly {p.dims} dimensions, but the buffer passed in "
                f"has {buf.dimensions()} dimensions (at {user_location()})"
            )
        for i, (lo, hi) in enumerate(box):
            d = buf.dim(i)
            if lo < d.min() or hi > d.max():
                users = sorted(pipe.name(f) for f in pipe.order if _reads(pipe, f, p))
                side = f"beyond the max ({d.max()})" if hi > d.max() else f"before the min ({d.min()})"
                at = hi if hi > d.max() else lo
                raise HalideError(
                    f"Input buffer {name} is accessed at {at}, which is {side} in dimension {i}. "
                    f"{', '.join(users)} needs {name} over {_show_box(box)}, but the buffer given covers "
                    f"{_show_box([(buf.dim(k).min(), buf.dim(k).max()) for k in range(buf.dimensions())])}. "
                    f"Pass a larger input, or read {name} through a boundary condition "
                    f"(e.g. hl.BoundaryConditions.repeat_edge({name})). (at {user_location()})"
                )


def _reads(pipe, fn: Function, p: Parameter) -> bool:
    return any(isinstance(n, ir.Call) and n.callee is p
               for d in pipe.definitions(fn) for e in d.args + (d.value,) for n in ir.walk(e))


def _show_box(box: Box) -> str:
    return " x ".join(f"[{lo}, {hi}]" for lo, hi in box)


def gather_inputs(pipe, inputs: dict | None = None) -> tuple[dict[str, Buffer], dict[str, int]]:
    """The buffers bound to the pipeline's ImageParams and the values of its scalar Params."""
    from .params import as_buffer

    inputs = inputs or {}
    buffers: dict[str, Buffer] = {}
    for name, p in sorted(pipe.inputs.items()):
        buf = as_buffer(inputs[name], f"input {name}") if name in inputs else p.owner.get()
        if buf is None:
            raise HalideError(
                f"{user_location()}: Buffer argument {name} is nullptr: ImageParam {name} is used by the pipeline "
                f"of '{pipe.output.name}' but no buffer was set; call {name}.set(hl.Buffer(array)) before realize"
                + _given(name, inputs)
            )
        if buf.type() != p.type:
            raise HalideError(
                f"{user_location()}: Input {name} has type {buf.type()} but ImageParam {name} has type {p.type}: "
                f"Can't bind ImageParam {name} of type {p.type} to Buffer of type {buf.type()}; convert the "
                f"array (e.g. array.astype(np.{p.type.dtype.name})) or declare hl.ImageParam({p.type!r}, ...)"
            )
        buffers[name] = buf
    params = {name: parameter_value(p, buffers, inputs) for name, p in sorted(pipe.scalars.items())}
    return buffers, params


def _given(name: str, inputs: dict) -> str:
    """What a missing input's message adds when the inputs dict names others (a misspelt key)."""
    keys = ", ".join(repr(k) for k in sorted(map(str, inputs)))
    return f", or pass it as inputs[{name!r}] (the inputs given: {keys})" if inputs else ""


def parameter_value(p: Parameter, buffers: dict[str, Buffer], inputs: dict) -> int | float:
    """A scalar Param's value, given with the inputs or set on it, or an image's min or extent (a shape param)."""
    name = p.name
    if p.kind == "shape":
        owner, what, i = p.owner
        buf = buffers.get(owner.name())
        if buf is None:
            buf = owner.get()
        if buf is None:
            raise HalideError(f"{name}: ImageParam {owner.name()} has no buffer set; its size is unknown")
        d = buf.dim(i)
        return d.min() if what == "min" else d.extent()
    v = inputs.get(name, p.owner.get())
    if v is None:
        raise HalideError(
            f"{user_location()}: Parameter {name} does not have a valid scalar value: Param {name} is used "
            f"but was never set; call {name}.set(value) before realize, or give it with the inputs of "
            f"check() or simulate() ({{'{name}': value}})"
        )
    return float(v) if p.type.is_float() else int(v)


def realize(pipe, sizes, overrides: dict | None = None):
    """The output over [0, size) per dimension; or, given a Buffer (Halide's realize(buf)), over the buffer's
    region, written into it. Several outputs (or a Tuple's elements) give a tuple of Buffers, one per output,
    each over the same region (its own `bound`s apply), as Halide's Realization."""
    if isinstance(sizes, Buffer) or (isinstance(sizes, (list, tuple)) and sizes
                                     and all(isinstance(b, Buffer) for b in sizes)):
        return _realize_into(pipe, [sizes] if isinstance(sizes, Buffer) else list(sizes), overrides)
    sizes = [sizes] if isinstance(sizes, int) else list(sizes)
    for fn in pipe.outputs:
        _check_dimensions(fn, sizes)
    asked: Box = [(0, s - 1) for s in sizes]
    required: dict[str, Box] = {}
    values = realize_arrays(pipe, asked, overrides, required)
    got = []
    for i, fn in enumerate(pipe.outputs):
        # Updates may write outside the region asked for (a histogram realized over fewer bins): Halide's output
        # buffer holds only that region, grown (as Halide 21's realize grows it) where an output listed before it
        # reads more of it; one listed after it reads values computed past its buffer.
        read_before = any(nx.has_path(pipe.graph, pipe.name(fn), pipe.name(o)) for o in pipe.outputs[:i])
        box = union(asked, required[pipe.name(fn)]) if read_before else asked
        arr = semantics.to_numpy(_crop(values[id(fn)], box), fn.type)
        got.append(Buffer(np.ascontiguousarray(arr.transpose())).set_min([lo for lo, _ in box]))
    return got[0] if len(got) == 1 else tuple(got)


def _check_dimensions(fn: Function, sizes: list) -> None:
    if len(sizes) != len(fn.args):
        raise HalideError(
            f"{user_location()}: Func {fn.name} is defined with {len(fn.args)} dimensions, but realize() is "
            f"requesting a realization with {len(sizes)} dimensions: realize({sizes}); give one size per "
            f"dimension ({', '.join(fn.args)})"
        )


def _check_output_covers(fn: Function, box: Box, read: Box) -> None:
    """Halide's check that an output's buffer holds what the other outputs read of it."""
    for i, ((lo, hi), (rlo, rhi)) in enumerate(zip(box, read)):
        if rlo < lo or rhi > hi:
            at, side, edge = (rlo, "before the min", lo) if rlo < lo else (rhi, "beyond the max", hi)
            raise HalideError(
                f"{user_location()}: Output buffer {fn.name} is accessed at {at}, which is {side} ({edge}) in "
                f"dimension {i}: another output of the pipeline reads it over {_show_box(read)}; pass a buffer "
                f"for {fn.name} that covers it, or realize the pipeline by sizes (its buffer then grows to it)")


def _crop(store: Store, box: Box) -> np.ndarray:
    return store.arr[tuple(slice(lo - m, hi - m + 1) for m, (lo, hi) in zip(store.mins, box))]


def _realize_into(pipe, dsts: list[Buffer], overrides: dict | None):
    """Each output into its buffer (one per output, in order), over the union of their regions."""
    if len(dsts) != len(pipe.outputs):
        raise HalideError(
            f"{user_location()}: realize of a pipeline of {len(pipe.outputs)} outputs "
            f"({', '.join(fn.name for fn in pipe.outputs)}) was given {len(dsts)} buffers; pass one buffer per "
            "output, in order")
    for fn, dst in zip(pipe.outputs, dsts):
        if dst.dimensions() != len(fn.args) or dst.type() != fn.type:
            raise HalideError(
                f"{user_location()}: realize(buffer) of Func {fn.name}: the buffer is {dst.dimensions()}-D of "
                f"{dst.type()}, the Func {len(fn.args)}-D of {fn.type}; pass a buffer of that shape and type, e.g. "
                f"hl.Buffer({fn.type}, [sizes])")
    boxes = [[(d.dim(i).min(), d.dim(i).min() + d.dim(i).extent() - 1) for i in range(d.dimensions())]
             for d in dsts]
    whole = boxes[0]
    for box in boxes[1:]:
        whole = union(whole, box)
    required: dict[str, Box] = {}
    values = realize_arrays(pipe, whole, overrides, required)
    for fn, box in zip(pipe.outputs, boxes):
        if pipe.consumers(fn):
            _check_output_covers(fn, box, required[pipe.name(fn)])
    for fn, dst, box in zip(pipe.outputs, dsts, boxes):
        dst.halide_view()[...] = semantics.to_numpy(_crop(values[id(fn)], box), fn.type)
    return dsts[0] if len(dsts) == 1 else tuple(dsts)


def realize_arrays(pipe, out_box: Box, overrides: dict | None = None,
                   required: dict[str, Box] | None = None) -> dict[int, Store]:
    """Every Func of the pipeline realised over its inferred box (stores keyed by id(Function)); `required` receives
    the box each Func's readers ask for (infer_boxes)."""
    buffers, params = gather_inputs(pipe, overrides)
    check_requirements(pipe, buffers, overrides)
    boxes, needed = infer_boxes(pipe, out_box, lambda p: params.get(p.name), required=required)
    for name, box in needed.items():
        if any(hi - lo > (1 << 24) for lo, hi in box):
            raise HalideError(
                f"Input {name} would be read over {_show_box(box)}: the access is unbounded. Clamp the index "
                "(hl.clamp) or use a boundary condition so the region read is bounded."
            )
    _check_inputs(pipe, needed, buffers)
    for name, box in boxes.items():
        if np.prod([hi - lo + 1 for lo, hi in box], dtype=np.float64) > 1 << 28:
            raise HalideError(
                f"Func '{name}' would be computed over {_show_box(box)}: an unbounded access (an index computed "
                "from a loaded value or a wide type). Clamp the index (hl.clamp) to the region you mean."
            )
    ev = Evaluator(pipe, params, buffers)
    for fn in pipe.order:
        ev.realize_function(fn, boxes[pipe.name(fn)])
    return ev.stores
