"""Which Funcs of the accelerated region an automatic schedule buffers (computes at the tile loop, in memory
tiles) rather than inlines into their readers: those with reuse, an upsample read at an offset, a Func every
channel of the output reads alike, a downsample read at a divided coordinate. autoschedule.py's `_plan` asks."""

from __future__ import annotations

from .autoschedule_reduce import points
from .frontend import ir
from .frontend.func import Function
from .frontend.params import Parameter
from .frontend.pipeline import Pipeline


def has_reuse(pipe: Pipeline, f: Function, region: set[int]) -> bool:
    if len(pipe.definitions(f)) > 1:
        return True
    sites = set()
    readers = 0
    for c in pipe.consumers(f):
        if id(c) not in region:
            continue
        readers += 1
        for d in pipe.definitions(c):
            for n in ir.walk(d.value):
                if isinstance(n, ir.Call) and n.callee is f:
                    sites.add(tuple(ir.structural_key(a) for a in n.args))
                    # an upsample's read (`f(x / 2, y / 2)`) reads each value at 2 x 2 of its reader's pixels: a
                    # stencil of a stream (a blur of the image), inlined, would read the stream's taps at divided
                    # coordinates, holding it (Funcs of buffered planes, camera_pipeline's, inline into them)
                    if any(_divided(a) for a in n.args) and _stencil(pipe, f, region):
                        return True
                    # a read that moves with a reduction (a window's taps) reads each value several times
                    if any(isinstance(m, ir.RVar) for a in n.args for m in ir.walk(a)) and (points(d) or 2) > 1 \
                            and not _once_a_step(pipe, d, n):
                        return True
    return readers > 1 or len(sites) > 1


def _stencil(pipe: Pipeline, f: Function, region: set[int]) -> bool:
    """Whether f reads a stream (a Func outside the region, or an image) at more than one place."""
    sites: dict[int, set] = {}
    for d in pipe.definitions(f):
        for n in ir.walk(d.value):
            if isinstance(n, ir.Call) and n.args and (isinstance(n.callee, Parameter) or (
                    isinstance(n.callee, Function) and id(n.callee) not in region)):
                sites.setdefault(id(n.callee), set()).add(tuple(ir.structural_key(a) for a in n.args))
    return any(len(s) > 1 for s in sites.values())


def _divided(a: ir.Expr) -> bool:
    """Whether `a` divides a Var by a constant above 1 (`x / 2`, `(x + 1) / 2`)."""
    return any(isinstance(m, ir.BinOp) and m.op == "div" and isinstance(m.b, ir.Const) and m.b.value > 1
               and any(isinstance(v, ir.Var) for v in ir.walk(m.a)) for m in ir.walk(a))


def _once_a_step(pipe: Pipeline, d, call: ir.Call) -> bool:
    """Whether `call` in definition d reads a value of its own at each step of d's reduction (each argument a pure
    Var of d or an RVar alone, no two the same) and the callee uses the Vars those RVars take only as values, not in
    its own reads: an argmin over a parameter, `argmin(err(x, y, r))` with `err(x, y, k) = absd(a(x, y) * k, ...)`,
    reads each plane of err once, and inlined, its steps' lanes read the same pixels. (Where the plane is read on,
    block matching's `cost(x, y, d)` of `diff(x + i, y + j, d)`, buffering keeps the sweep of `diff`'s planes.)"""
    pure = {a.name for a in d.args if isinstance(a, ir.Var)}
    names = [a.name for a in call.args if isinstance(a, (ir.Var, ir.RVar))]
    if not (len(names) == len(call.args) == len(set(names))
            and all(isinstance(a, ir.RVar) or a.name in pure for a in call.args)):
        return False
    f = call.callee
    planes = {f.args[i] for i, a in enumerate(call.args) if isinstance(a, ir.RVar)}
    return not any(isinstance(m, ir.Var) and m.name in planes for fd in pipe.definitions(f) for n in ir.walk(fd.value)
                   if isinstance(n, ir.Call) for a in n.args for m in ir.walk(a))


def divides_coordinate(pipe: Pipeline, f: Function, divides: set[int]) -> bool:
    """Whether f's value divides a coordinate by a constant (`in(x / 2, y)`), itself or through an inlined Func."""
    for d in pipe.definitions(f):
        for n in ir.walk(d.value):
            if isinstance(n, ir.Call) and isinstance(n.callee, Function) and id(n.callee) in divides:
                return True
            if isinstance(n, ir.Call) and any(isinstance(m, ir.BinOp) and m.op == "div" and any(
                    isinstance(v, ir.Var) for v in ir.walk(m.a)) for a in n.args for m in ir.walk(a)):
                return True
    return False


def read_off_grid(pipe: Pipeline, f: Function, region: set[int]) -> bool:
    """Whether a reader in the region reads f at an offset (`f(x + 1, y)`, not `f(x, y / 2)`): inlined, an
    upsample's `(x + 1) / 2` is not affine in the reader's loops (hwlower strip-mines only a loop over whole
    multiples of the divisor), while a buffered upsample is computed on its own loops."""
    for c in pipe.consumers(f):
        if id(c) not in region:
            continue
        for d in pipe.definitions(c):
            for n in ir.walk(d.value):
                if isinstance(n, ir.Call) and n.callee is f and any(
                        isinstance(m, ir.BinOp) and m.op in ("add", "sub") for a in n.args for m in ir.walk(a)):
                    return True
    return False


def down_read_up(pipe: Pipeline, f: Function, region: set[int]) -> bool:
    """Whether f scales a coordinate (`dn(x, y) = bl(2 * x, 2 * y)`) and a reader reads f at a divided one (`dn(x /
    2, y / 2)`): inlined, the reader would read f's producer at 2 * (x / 2) beside x, which no split of its loop
    makes affine; buffered, f runs on its own loops."""
    def arg_ops(n: ir.Call) -> set[str]:
        return {m.op for a in n.args for m in ir.walk(a) if isinstance(m, ir.BinOp)}
    scales = any(isinstance(n, ir.Call) and "mul" in arg_ops(n) for d in pipe.definitions(f) for n in ir.walk(d.value))
    return scales and any(isinstance(n, ir.Call) and n.callee is f and "div" in arg_ops(n)
                          for c in pipe.consumers(f) if id(c) in region
                          for d in pipe.definitions(c) for n in ir.walk(d.value))


def read_across_channels(pipe: Pipeline, f: Function, acc: Function, channel: str) -> bool:
    """Whether the accelerated Func, its channels unrolled, reads f the same for every channel (`ratio(x, y)` in
    `hw_output(c, x, y)`): inlined, each channel's lane would compute it again; buffered, once per pixel."""
    return any(isinstance(n, ir.Call) and n.callee is f and not any(
        isinstance(m, ir.Var) and m.name == channel for a in n.args for m in ir.walk(a))
        for d in pipe.definitions(acc) for n in ir.walk(d.value))


def scanned_apart(pipe: Pipeline, image: Parameter | Function) -> list[Function]:
    """The Funcs that scan `image` in a serial reduction (read it only at reduction coordinates, `hist(in(r.x,
    r.y)) += 1`: a pixel a step), where the image has other readers too; else []. Those get a stream of their own
    (`image.in_(hist)`), so that the others' stream may carry several pixels a cycle (a histogram equalisation's
    lookup `cdf(in(x, y))` at k lanes): one stream cannot be read a pixel a step and k pixels a cycle. At any lanes,
    the others' stream then starts when the scan is done (memories/late_streams.py) instead of being held whole
    while it scans (a threshold at a 1080p frame's total: 1,013 memory tiles, now none)."""
    # (a scan's reads of its own elements, `col(x, ry) += col(x, ry - 1)`, are no reader of another stream)
    readers = [f for f in pipe.order if f is not image and any(
        isinstance(n, ir.Call) and n.callee is image for d in pipe.definitions(f) for e in (*d.args, d.value)
        for n in ir.walk(e))]
    scans = [f for f in readers if _scans(pipe, f, image)]
    return scans if scans and len(scans) < len(readers) else []


def _scans(pipe: Pipeline, f: Function, image: Parameter | Function) -> bool:
    """Whether f reads `image` only in updates over an RDom, at coordinates of its RVars alone."""
    reads = [(d, n) for d in pipe.definitions(f) for e in (*d.args, d.value) for n in ir.walk(e)
             if isinstance(n, ir.Call) and n.callee is image]
    return all(d.rdom is not None and all(_scanned(a, d) for a in n.args)
               and any(isinstance(m, ir.RVar) for a in n.args for m in ir.walk(a)) for d, n in reads)


def _scanned(a: ir.Expr, d) -> bool:
    """Whether a coordinate of update d's read is of its RVars alone, or one of the Vars it stores at alone: one
    scan of the frame per element (`tot(c) += in(r.x, r.y, c)`, a sum per channel), not a window (`x + r.x`)."""
    found = [m for m in ir.walk(a) if isinstance(m, (ir.Var, ir.RVar))]
    pure = {v.name for v in d.args if isinstance(v, ir.Var)}
    return all(isinstance(m, ir.RVar) for m in found) or (len(found) == 1 and found[0].name in pure)
