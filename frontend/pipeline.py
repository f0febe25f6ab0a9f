"""The DAG of Funcs behind an output: wrapper resolution, unique names, and the schedule checks Halide makes
before it lowers (`realize` and `compile` run them)."""

from __future__ import annotations

import copy
import functools

import networkx as nx

from . import ir
from .bound_domains import BoundDomains, bound_domain, bounded_shape, known_value
from .compute_with import check_compute_with
from .errors import HalideError, ScheduleError, did_you_mean, user_location
from .expr import wide_shift_error
from .func import Definition, Func, Function
from .loop_extents import split_extent, unroll_extent_error
from .params import Parameter
from .renames import resolve_renames
from .scheduled import refuse_scheduled
from .vars import Var


def _resolve(callee: Function, caller: Function) -> Function:
    """The Function a call from `caller` to `callee` reads once in_() wrappers are applied."""
    if callee is caller:  # an update reading its own Func reads the Func, not a wrapper of it
        return callee
    seen = set()
    while id(callee) not in seen:
        seen.add(id(callee))
        w = callee.wrappers.get(caller.name)
        if w is not None and w is not caller:
            callee = w
            continue
        w = callee.wrappers.get("")
        if w is not None and w is not caller and caller.wrapped is not callee:
            callee = w
            continue
        break
    return callee


def _rewrite_calls(e: ir.Expr, caller: Function, memo: dict) -> ir.Expr:
    def go(n: ir.Expr, kids: tuple) -> ir.Expr:
        if isinstance(n, ir.Call) and isinstance(n.callee, Function):
            callee = _resolve(n.callee, caller)
            if callee is not n.callee:
                return ir.Call(n.type, callee, kids)
        if (size := bounded_shape(n)) is not None:  # an image's min or extent, once dim(i).set_bounds is called
            return size
        if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and n.callee.wrappers:
            # an ImageParam's in_() wrappers: the consumer's own, else the global one (not for the wrappers)
            w = n.callee.wrappers.get(caller.name) or n.callee.wrappers.get("")
            if w is not None and caller.wrapped_image is not n.callee:
                return _rewrite_calls(ir.Call(n.type, w, kids), caller, {})
        return ir.rebuild(n, kids)

    return ir.transform(e, go, memo)


class Pipeline:
    """A pipeline computing one output Func, or several (Halide's `Pipeline([a, b])`: the Funcs they share are
    computed once; a Tuple output is one output per element, as Halide's Realization)."""

    def __init__(self, output, tuples_whole: bool = False):
        """`tuples_whole`: a Tuple output is one output, its packed word (the Func `compile` packs outputs into)."""
        given = list(output) if isinstance(output, (list, tuple)) else [output]
        if not given:
            raise HalideError(f"{user_location()}: Pipeline takes a Func or a list of Funcs, got an empty list")
        for f in given:
            _check_output(f)
        self.given: list[Function] = [f.function() for f in given]  # as the user passed them (Tuples whole)
        self.tuples_whole = tuples_whole
        self.outputs: list[Function] = [part for f in given
                                         for part in ([f.function()] if tuples_whole else _elements(f))]
        self.output: Function = self.outputs[0]  # the one output of a pipeline the hardware compiles
        self._defs: dict[int, list[Definition]] = {}
        self._bound: BoundDomains = {}  # shared with the copies of with_producers, whose definitions are ours
        self.graph = nx.DiGraph()  # producer -> consumer, nodes are unique names
        self.functions: dict[str, Function] = {}
        self.inputs: dict[str, Parameter] = {}
        self.scalars: dict[str, Parameter] = {}
        self._names: dict[int, str] = {}
        self._build()

    def rebuilt(self) -> Pipeline:
        """The pipeline of the same outputs built anew (after its Funcs' definitions or wrappers changed)."""
        from .func import handle_of

        return Pipeline([handle_of(f) for f in self.given], self.tuples_whole)

    def is_output(self, fn: Function) -> bool:
        return any(fn is o for o in self.outputs)

    # ---- construction ----
    def _build(self):
        order = self._producers_first()
        # Duplicate names are numbered in creation order ("f", "f$1", ...), as Halide numbers them; unlike
        # Halide (which numbers across the whole process), only within this pipeline, so output is deterministic.
        used: dict[str, int] = {}
        for fn in sorted(order, key=lambda f: f.serial):
            n = fn.name if fn.name not in used else f"{fn.name}${used[fn.name]}"
            used[fn.name] = used.get(fn.name, 0) + 1
            self._names[id(fn)] = n
            self.functions[n] = fn
        self.order = order  # producers before consumers
        for fn in order:
            resolve_renames(fn)
        for fn in order:
            self.graph.add_node(self.name(fn))
            self._collect_definition_edges(fn)

    def _producers_first(self) -> list[Function]:
        """Every Function the outputs read, producers before consumers (a depth-first post-order, iterative so
        that long chains of Funcs are fine; from each output in turn, so a producer they share comes once)."""
        calls = nx.DiGraph()
        by_id = {id(o): o for o in self.outputs}
        stack, seen = list(reversed(self.outputs)), {id(o) for o in self.outputs}
        while stack:
            fn = stack.pop()
            for c in self._callees(fn):
                calls.add_edge(id(fn), id(c))  # adjacency in call order: the post-order follows it
                by_id[id(c)] = c
                if id(c) not in seen:
                    seen.add(id(c))
                    stack.append(c)
        order: dict[int, None] = {}
        for o in self.outputs:
            calls.add_node(id(o))
            order.update((n, None) for n in nx.dfs_postorder_nodes(calls, source=id(o)) if n not in order)
        assert nx.is_directed_acyclic_graph(calls), "a cycle of Funcs"  # Funcs are defined before use
        return [by_id[n] for n in order]

    def _callees(self, fn: Function) -> list[Function]:
        out = []
        for d in self.definitions(fn):
            for e in d.args + (d.value,):
                out.extend(n.callee for n in ir.walk(e)
                           if isinstance(n, ir.Call) and isinstance(n.callee, Function) and n.callee is not fn)
        return out

    def _collect_definition_edges(self, fn: Function):
        """The producer edges, inputs and scalars of fn's definitions (their RDoms' bounds too)."""
        for d in self.definitions(fn):
            rdom_bounds = tuple(b for dim in d.rdom.dims for b in dim[1:]) if d.rdom is not None else ()
            for e in d.args + (d.value,) + rdom_bounds:
                self._collect_edges(fn, e)
            for node in ir.walk(d.value):
                if (error := wide_shift_error(fn.name, d.loc, node)) is not None:
                    raise error

    def _collect_edges(self, fn: Function, e: ir.Expr):
        for node in ir.walk(e):
            if not isinstance(node, ir.Call):
                continue
            c = node.callee
            if isinstance(c, Function):
                if c is not fn:
                    self.graph.add_edge(self.name(c), self.name(fn))
            elif c.kind == "image":
                self.inputs[c.name] = c
            else:
                self.scalars[c.name] = c

    def definitions(self, fn: Function) -> list[Definition]:
        """fn's definitions with calls redirected through in_() wrappers."""
        got = self._defs.get(id(fn))
        if got is None:
            got = []
            for d in fn.definitions:
                memo: dict = {}
                args = tuple(_rewrite_calls(a, fn, memo) for a in d.args)
                value = _rewrite_calls(d.value, fn, memo)
                got.append(bound_domain(Definition(args, value, d.rdom, d.loc, d.schedule), self._bound))
            self._defs[id(fn)] = got
        return got

    def name(self, fn: Function) -> str:
        return self._names[id(fn)]

    def add_copy(self, fn: Function, name: str) -> Function:
        """A second Function with fn's definitions and schedule, under the unused unique name `name`: what
        lowering adds when the accelerator needs fn's values twice (a second stream of an input, extended
        differently for other reads). It has a name and definitions here, but no place in `order` or `graph`."""
        assert name not in self.functions, name
        twin = copy.copy(fn)
        self._names[id(twin)] = name
        self.functions[name] = twin
        self._defs[id(twin)] = self.definitions(fn)
        return twin

    def with_producers(self, fns: list[Function], reader: Function, reader_defs: list[Definition]) -> Pipeline:
        """A copy of the pipeline where `reader` has the definitions `reader_defs`, which read `fns`, new Functions
        under their own (unused) names, placed just before reader: what lowering adds when the hardware needs
        values buffered that the algorithm reads inline (the copy's Funcs are the same objects; this one is
        unchanged)."""
        new = copy.copy(self)
        new._defs = dict(self._defs)
        new._names = dict(self._names)
        new.functions = dict(self.functions)
        new.graph = self.graph.copy()
        new.order = list(self.order)
        for fn in fns:
            assert fn.name not in self.functions and id(fn) not in self._names, fn.name
            new._names[id(fn)] = fn.name
            new.functions[fn.name] = fn
            new._defs[id(fn)] = list(fn.definitions)  # its calls already resolved through wrappers
            new.order.insert(new.order.index(reader), fn)
            new.graph.add_node(fn.name)
        new._defs[id(reader)] = list(reader_defs)
        new.graph.remove_edges_from(list(new.graph.in_edges(self.name(reader))))
        for f in (*fns, reader):
            new._collect_definition_edges(f)
        return new

    def computing(self, fn: Function) -> Pipeline:
        """The part of this pipeline that computes fn (fn its output), with the same Functions, definitions and
        names: what `Pipeline(fn)` would build, but for Functions and definitions lowering added (`with_producers`)."""
        new = copy.copy(self)
        new.output, new.outputs, new.given, new.tuples_whole = fn, [fn], [fn], True
        keep = nx.ancestors(self.graph, self.name(fn)) | {self.name(fn)}
        new.order = [f for f in self.order if self.name(f) in keep]
        new.graph = self.graph.subgraph(keep).copy()
        new.functions = {n: f for n, f in self.functions.items() if n in keep}
        new.inputs, new.scalars = {}, {}
        for f in new.order:
            new._collect_definition_edges(f)
        return new

    def consumers(self, fn: Function) -> list[Function]:
        return [self.functions[n] for n in sorted(self.graph.successors(self.name(fn)))]

    def producers(self, fn: Function) -> list[Function]:
        return [self.functions[n] for n in sorted(self.graph.predecessors(self.name(fn)))]

    # ---- checks Halide makes before lowering ----
    def check_schedule(self, compute_levels: bool = True):
        for fn in self.order:
            pl = fn.placement
            for level, call in ((pl.compute, "compute_at"), (pl.store, "store_at")):
                if level is not None and level.kind == "at":
                    self._check_loop_level(fn, level, call)
            self._check_store_outside_compute(fn)
            self._check_unrolls(fn)
            check_compute_with(self, fn, compute_levels)
            if pl.compute.kind == "inline" and not self.is_output(fn) and fn.specializations:
                from .specialize import check_not_inline

                check_not_inline(fn, self.name(fn))

    def _users(self, fn: Function) -> dict[int, int]:
        """Funcs whose loops enclose every use of fn (legal compute_at targets), each with how many of its loops,
        outermost first, do: a consumer (all of its loops), or a Func inside whose loops every consumer is
        computed (through compute_at chains and inlined Funcs), down to the loop they are computed at."""
        common: dict[int, int] | None = None
        memo: dict[int, dict[int, int]] = {}
        for c in self.consumers(fn):
            enclosing = self._enclosing(c, memo, set())
            common = enclosing if common is None else _meet(common, enclosing)
        return common or {}

    def _enclosing(self, c: Function, memo: dict[int, dict[int, int]], path: set[int]) -> dict[int, int]:
        """Funcs whose loops enclose every computation of c, with the number of their loops (outermost first)
        that do. Memoised per Func (an inlined Func feeding several Funcs computed at one loop reaches that loop's
        Func on every branch); `path` stops a compute_at cycle."""
        if id(c) in memo:
            return memo[id(c)]
        if id(c) in path:
            return {}
        path = path | {id(c)}
        level = c.placement.compute
        every = len(self.loop_names(c))
        if not self.is_output(c) and level.kind == "inline":
            sets = [self._enclosing(u, memo, path) for u in self.consumers(c)]
            out = functools.reduce(_meet, sets) if sets else {}
            if self._computed_inside(c):
                out = {**out, id(c): every}
        else:
            out = {id(c): every}
            if level.kind == "at":
                outer_first = list(reversed(self.loop_names(level.func)))
                depth = outer_first.index(level.var) + 1 if level.var in outer_first else 0
                out = _join(out, {**self._enclosing(level.func, memo, path), id(level.func): depth})
            fused = c.placement.compute_with
            if fused is not None and id(fused[0]) in self._names:  # c runs inside fused[0]'s loops too
                out = _join(out, {**self._enclosing(fused[0], memo, path),
                                  id(fused[0]): len(self.loop_names(fused[0]))})
        memo[id(c)] = out
        return out

    def _computed_inside(self, fn: Function) -> bool:
        """Whether Func fn, left inline, is computed at its consumer's innermost loop instead, with loops of its
        own: Halide cannot inline a Func with update definitions (`kernel.compute_at(conv, x)` is legal where
        conv, unscheduled, has an update)."""
        return fn.placement.compute.kind == "inline" and len(self.definitions(fn)) > 1

    def _check_loop_level(self, fn: Function, level, call: str):
        target = level.func
        users = self._users(fn)
        loops = self.loop_names(target)
        if id(target) not in self._names:
            reason = (f"'{target.name}' is not part of this pipeline (the output '{self.output.name}' does not read "
                      f"it), so its loops never run; compute '{fn.name}' at a Func of the pipeline.")
        elif not self.is_output(target) and target.placement.compute.kind == "inline" \
                and not self._computed_inside(target) and nx.has_path(self.graph, self.name(fn), self.name(target)):
            # Halide's reason would say the target does not use fn; the slip is that the target has no loops.
            reason = (f"'{target.name}' is inlined (it has no compute_root() or compute_at()), so it has no loops "
                      f"to compute '{fn.name}' in; schedule it first, e.g. {target.name}.compute_root().")
        elif id(target) not in users:
            reason = self._not_all_uses(fn, target)
        elif level.var not in loops and level.var != "__outermost":
            reason = (f"'{target.name}' has no loop '{level.var}' (its loops are {', '.join(loops)})"
                      f"{did_you_mean(level.var, loops)}")
        elif level.var != "__outermost" and list(reversed(loops)).index(level.var) >= users[id(target)] \
                and fn.placement.accelerator_input is None:  # (the host streams a stream wherever it is computed)
            readers = [c.name for c in self.order if id(c) in users and c.placement.compute.kind == "at"
                       and c.placement.compute.func is target]
            reason = _inside_its_uses(fn, target, (call, level.var), list(reversed(loops))[users[id(target)] - 1]
                                      if users[id(target)] else "Var::outermost()", readers)
        else:
            return
        where = self._legal_locations(fn, call, users)
        store = fn.placement.store
        shown = f"{call}({target.name}, {level.var})"
        if call == "compute_at" and store is not None and store.kind == "at" and \
                (store.func is not target or store.var != level.var):  # Halide shows both
            shown = f"store_at({store.func.name}, {store.var}).{shown}"
        raise ScheduleError(
            f"{level.loc}: Func \"{fn.name}\" is computed at the following invalid location:\n"
            f"  {fn.name}.{shown};\n"
            f"Legal locations for this function are:\n  {fn.name}.compute_root();\n{where}{reason}"
        )

    def _not_all_uses(self, fn: Function, target: Function) -> str:
        """Why target's loops do not enclose every use of fn: it uses none, or other Funcs read fn outside them."""
        memo: dict[int, dict[int, int]] = {}
        outside = [c for c in self.consumers(fn) if id(target) not in self._enclosing(c, memo, set())]
        if len(outside) == len(self.consumers(fn)):
            return f"'{target.name}' does not use '{fn.name}' (directly or through inlined Funcs)."
        others = " and ".join(f"'{c.name}'" for c in outside)
        # another accelerated output: scheduled alike, one accelerator computes both in one loop nest
        fused = [f"schedule '{c.name}' exactly as '{target.name}' (one accelerator computes outputs scheduled alike "
                 f"in one loop nest)" for c in outside if c.placement.hw_accelerate and target.placement.hw_accelerate]
        return (f"'{target.name}' uses '{fn.name}', but {others} also read{'s' if len(outside) == 1 else ''} it "
                f"outside the loops of '{target.name}': a Func is computed where every use of it is inside; compute "
                f"'{fn.name}' at one of the locations above" + "".join(f", or {h}" for h in fused) + ".")

    def _check_store_outside_compute(self, fn: Function):
        """Halide's rules: a Func stored somewhere is computed somewhere, and the storage level encloses the compute
        level (store_at at or outside compute_at)."""
        store, compute = fn.placement.store, fn.placement.compute
        if store is not None and compute.kind == "inline" and not self._computed_inside(fn) and not self.is_output(fn):
            shown, fix = ("store_root()", "compute_root()") if store.kind == "root" else (
                f"store_at({store.func.name}, {store.var})", f"compute_at({store.func.name}, {store.var})")
            raise ScheduleError(f'{store.loc}: Func "{fn.name}" is scheduled {shown}, but is inlined. Funcs that use '
                                f"store_root or store_at must also call compute_root or compute_at: add "
                                f"{fn.name}.{fix}, or remove the {shown.split('(')[0]} call")
        if store is None or store.kind != "at" or compute.kind != "at" or store.func is not compute.func:
            return
        outer_first = list(reversed(self.loop_names(compute.func)))
        if store.var == "__outermost" or compute.var == "__outermost" or \
                outer_first.index(store.var) <= outer_first.index(compute.var):
            return
        target = compute.func.name
        users = self._users(fn)
        where = self._legal_locations(fn, "compute_at", users)
        raise ScheduleError(
            f"{store.loc}: Func \"{fn.name}\" is computed at the following invalid location:\n"
            f"  {fn.name}.store_at({target}, {store.var}).compute_at({target}, {compute.var});\n"
            f"Legal locations for this function are:\n  {fn.name}.compute_root();\n{where}"
            f"Its storage (store_at {store.var}) is inside the loop it is computed at ({compute.var}): a Func is "
            f"stored at or outside the loop it is computed at; store it there: "
            f"{fn.name}.store_at({target}, {compute.var})"
        )

    def _legal_locations(self, fn: Function, call: str, users: dict[int, int]) -> str:
        """Halide's list of the loops fn may be computed at: those of each Func in `users` that enclose its uses,
        outermost first, as Halide walks the loop nest. The Funcs enclosing every use nest one in the next, each
        computed at a loop of a Func after it in pipeline order, so the outermost is the last (the output)."""
        legal = [f for f in reversed(self.order) if id(f) in users]
        return "".join(f"  {fn.name}.{call}({c.name}, {v});\n" for c in legal
                       for v in ["Var::outermost()"] + list(reversed(self.loop_names(c)))[:users[id(c)]])

    def loop_names(self, fn: Function) -> list[str]:
        names: list[str] = []
        for d in fn.definitions:
            for n in d.schedule.dim_names():
                if n not in names:
                    names.append(n)
        return names

    def _check_unrolls(self, fn: Function):
        from .schedule import ForType, Split

        self._check_inline_loops(fn)
        for k, d in enumerate(fn.definitions):
            made_by_split = {s.inner for s in d.schedule.directives if isinstance(s, Split)}
            for dv in d.schedule.directives:
                if not isinstance(dv, ForType) or dv.kind not in ("unroll", "vectorize") or dv.var in made_by_split:
                    continue
                if self._constant_extent(fn, d, dv.var) is None:
                    raise ScheduleError(unroll_extent_error(fn, k, d, dv))

    def _check_inline_loops(self, fn: Function):
        """Halide's check: a Func scheduled inline has no loops of its own to unroll or vectorize."""
        from .func import user_handle
        from .schedule import ForType, Split
        from .stream_wrapper import is_stream_wrapper

        if self.is_output(fn) or fn.placement.compute.kind != "inline" or len(fn.definitions) > 1 \
                or fn.placement.accelerator_input is not None or fn.placement.linebuffer is not None \
                or is_stream_wrapper(fn):
            # An inline Func with updates is refused where it is lowered; a streamed Func is computed by the host
            # with loops of its own; a linebuffer() one at the accelerator's store loop (hwlower/region.py); a
            # streamed Func's wrapper gives it its loops (stream_wrapper.py).
            return
        directives = fn.definitions[0].schedule.directives
        for dv in directives:
            if isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize"):
                handle = user_handle(fn)
                # unroll(x, k) is a split and an unroll of its inner loop: show the call the user wrote.
                split = next((d for d in directives if isinstance(d, Split) and d.inner == dv.var), None)
                args = dv.var if split is None else f"{split.old}, {split.factor}"
                readers = ", ".join(c.name for c in self.consumers(fn))
                s = fn.wrapped
                if s is not None and s.placement.accelerator_input is not None \
                        and s.definitions[0].schedule.directives:
                    raise ScheduleError(
                        f"{dv.loc}: Cannot {dv.kind} dimension {dv.var} of Func \"{fn.name}\" ({handle}.{dv.kind}("
                        f"{args})) because the Func is scheduled inline, and its loops cannot be the stream's: "
                        f"'{s.name}', streamed to the accelerator, has loops of its own, already scheduled. Give "
                        f"the stream's loops once: remove {handle}.{dv.kind}({args}) and schedule them on "
                        f"'{s.name}' ({s.name}.{dv.kind}({args}))")
                if s is not None:
                    fix = f"{fn.wrapped.name}.{dv.kind}({args}) (the Func it wraps)"
                else:
                    fix = f"the loops of the Funcs that read it ({readers})"
                raise ScheduleError(
                    f"{dv.loc}: Cannot {dv.kind} dimension {dv.var} of Func \"{fn.name}\" ({handle}.{dv.kind}("
                    f"{args})) because the Func is scheduled inline: it has no loops of its own, its values are "
                    f"computed inside the Funcs that read it ({readers}). {dv.kind.capitalize()} {fix} instead, "
                    f"or give it loops of its own: {handle}.compute_at(<consumer>, <var>)"
                )

    def _constant_extent(self, fn: Function, d: Definition, var: str):
        if d.rdom is not None:
            for name, _lo, ext in d.rdom.dims:
                if name == var:  # (an image's size that set_bounds or a held buffer gives is known)
                    return ext.value if isinstance(ext, ir.Const) else known_value(ext)
        if var in fn.placement.bounds:
            return fn.placement.bounds[var][1]
        if fn.placement.compute.kind == "at" and not self.is_output(fn):
            return -1  # a footprint inside a loop: its extent is fixed by bounds inference at lowering
        if var in fn.args:
            return self._inferred_extent(fn, var)
        return split_extent(d, var, fn.args, lambda v: self._constant_extent(fn, d, v))

    def _inferred_extent(self, fn: Function, var: str) -> int | None:
        """The extent bounds inference gives fn's dimension `var` when it does not depend on the output's size
        (Halide unrolls such a loop without a bound: `unroll(c)` of 3 channels the output is bounded to): the
        same at two probe sizes of the output's unbounded dimensions."""
        from .bounds import infer_boxes
        from .output_bounds import output_bounds

        i = fn.args.index(var)
        extents = set()
        bounds = output_bounds(self)
        for lo, size in ((0, 61), (5, 97)):
            probe = [(lo, lo + size - 1) if b is None else ((m := lo if b[0] is None else b[0]), m + b[1] - 1)
                     for b in (bounds.get(a) for a in self.output.args)]  # bound_extent alone: the min is open
            try:
                boxes, _ = infer_boxes(self, probe, lambda p: None)
            except HalideError:  # bounds that need a Param's value: not known at compile time
                return None
            a, b = boxes[self.name(fn)][i]
            extents.add(b - a + 1)
        return extents.pop() if len(extents) == 1 else None

    # ---- evaluation ----
    def funcs(self) -> dict:
        """The pipeline's Funcs by unique name, and its ImageParams by theirs where no Func has the name (those
        named by the counter by their place too, `buffer(0)`: mainspring/autoschedule_names.py), what an automatic
        schedule's `schedule(funcs, vars)` takes."""
        from mainspring.autoschedule_names import unnamed_images

        from .func import handle_of

        out: dict = {p.name: p.owner for p in self.inputs.values() if p.owner is not None}
        out |= {key: self.inputs[n].owner for n, key in unnamed_images(self).items() if self.inputs[n].owner}
        return out | {self.name(f): handle_of(f) for f in self.order}

    def vars(self) -> dict:
        """The pure Vars of the pipeline's Funcs by name."""
        from mainspring.autoschedule import pipeline_vars

        return pipeline_vars(self)

    def apply_autoscheduler(self, target, autoscheduler_params):  # Halide's parameter names
        """Halide's interface: schedule the algorithm for `target` (an `hl.CGRA`) with
        `hl.AutoschedulerParams("Mainspring", {...})`; the result's `schedule_source` is the schedule as Python."""
        from mainspring.autoschedule_copy import apply_to_output
        from mainspring.autoschedule_outputs import apply_to_outputs

        refuse_scheduled(self)
        if len(self.given) == 1:  # (a Tuple's elements: as several outputs, unless its copy takes a GLB level)
            return apply_to_output(self, target, autoscheduler_params)
        return apply_to_outputs(self, target, autoscheduler_params)  # several outputs

    def fuse_outputs(self) -> Pipeline:
        """mainspring's: compute the pipeline's several outputs as the elements of one Tuple Func `hw_outputs`, as
        apply_autoscheduler plans them (an output another Func reads, or a reduction, first moves its value into a
        Func `<output>_value`, which its readers read); the Funcs change in place. Returns the pipeline of that Tuple
        Func, whose `funcs()` and `vars()` name the Funcs made. An automatic schedule of several outputs begins with
        this call, so its `schedule_source` applies to a fresh copy of the algorithm."""
        from .fuse_outputs import fuse_several_outputs

        return fuse_several_outputs(self, "fuse_outputs")[0]

    def copy_output(self) -> Pipeline:
        """mainspring's: the output's value moved into a Func `<output>_value`, of which the output becomes a copy
        (frontend/output_copy.py; what an automatic schedule with a GLB level begins with); returns the pipeline."""
        from .output_copy import copy_output

        return copy_output(self)

    def add_requirement(self, condition, *error_args) -> None:
        """Halide's `Pipeline.add_requirement`: `condition` on the Params and image sizes must hold when the
        pipeline runs (its reference, and every simulation of its design), else it fails with the error args."""
        from .requirements import make_requirement

        self.given[0].requirements.append(make_requirement(condition, error_args))

    def realize(self, sizes, param_values=None, target=None):
        from .evaluate import realize
        from .targets import Target

        if isinstance(param_values, Target):  # Halide's realize(sizes, target): the reference is every CPU's result
            param_values = None
        self.check_schedule()
        self._defs.clear()  # an RDom over a held image's size reads the buffer held now, as Halide's each realize
        return realize(self, sizes, param_values)



def _meet(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """The Funcs enclosing both uses, each with the loops that enclose both."""
    return {k: min(v, b[k]) for k, v in a.items() if k in b}


def _join(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    return {k: max(a.get(k, 0), b.get(k, 0)) for k in a.keys() | b.keys()}


def _inside_its_uses(fn: Function, target: Function, at: tuple[str, str], deepest: str, readers: list[str]) -> str:
    """Why fn may not be computed (or stored) at target's loop `at[1]`: its readers run outside that loop; the
    two fixes: fn at the readers' loop, or the readers computed at target (`readers`) inside fn's loop."""
    call, var = at
    verb = "store" if call == "store_at" else "compute"
    move = (f", or compute {', '.join(readers)} inside it, e.g. {readers[0]}.compute_at({target.name}, {var})"
            if readers else "")
    return (f"'{target.name}' uses '{fn.name}' only outside its loop '{var}' (the Funcs that read it are computed "
            f"at or outside {target.name}'s loop {deepest}), so '{fn.name}' would not be computed before they read "
            f"it; {verb} it there: {fn.name}.{call}({target.name}, {deepest}){move}.")


def _check_output(f) -> None:
    if not isinstance(f, Func):
        raise HalideError(f"Pipeline takes a Func or a list of Funcs, got {type(f).__name__}")
    if not f.defined():
        raise HalideError(
            f"{user_location()}: Can't realize undefined Func. Func \"{f.name()}\" is the output of a "
            "pipeline but has no definition."
        )


def _elements(f: Func) -> list[Function]:
    """The outputs a Func gives: itself, or for a Tuple one Func per element (`f_0`, `f_1`, ... reading f), as
    Halide's Realization has a buffer per element."""
    fn = f.function()
    if fn.tuple_layout is None:
        return [fn]
    vs = tuple(Var(n) for n in fn.args)
    parts = [Func(f"{fn.name}_{i}") for i in range(len(fn.tuple_layout.fields))]
    for i, part in enumerate(parts):
        part[vs] = f[vs][i]
    return [part.function() for part in parts]
