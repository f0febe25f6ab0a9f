"""The sizes of the input images the algorithm reads (a boundary condition's clamp reads an image's min and
extent), which the autoscheduler binds as constants: the buffer the image holds, else its estimate, else the
output's along the dimension that indexes the image's (an image as large as the output)."""

from __future__ import annotations

from .autoschedule_tiles import where as _where
from .frontend import ir
from .frontend.define import SCALAR_VAR
from .frontend.errors import HalideError
from .frontend.output_bounds import output_bounds
from .frontend.params import ImageParam, Parameter
from .frontend.pipeline import Pipeline

Source = int | tuple[int, int]  # an output dimension, or the (min, extent) of an RDom dimension


def image_shapes(pipe: Pipeline, extents: list[tuple[int, int]]) -> list[tuple[str, int, int, int]]:
    """(image, dimension, min, extent) for each image dimension whose min or extent the algorithm reads and no
    `dim(i).set_bounds` gave."""
    read: dict[tuple[str, int], ImageParam] = {}
    for f in pipe.order:
        for d in pipe.definitions(f):
            # an RDom over the image's size (`RDom([(0, inp.width()), ...])`) reads it too
            bounds = [e for _, lo, ext in (d.rdom.dims if d.rdom is not None else ()) for e in (lo, ext)]
            for n in (m for e in [d.value, *bounds] for m in ir.walk(e)):
                if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and n.callee.kind == "shape":
                    image, _, i = n.callee.owner
                    if i not in image.given_bounds():
                        read[(image.name(), i)] = image
    along = output_dims(pipe)
    out = []
    for (name, i), image in sorted(read.items()):
        size = _size(image, i, along, extents)
        if size is None:
            sizes = [image.given_estimates().get(k) or _frame(image, k) or _size(image, k, along, extents)
                     or _guess(image, k, along) for k in range(image.dimensions())]
            raise HalideError(
                f"{_where()}: the algorithm reads the size of image {name} along its dimension {i} (a boundary "
                f"condition), which has no estimate, and no dimension of the output indexes it; give the image the "
                f"size of the frames it will take, every dimension: {name}.set_estimates("
                f"[{', '.join(f'({lo}, {ext})' for lo, ext in sizes)}])")
        out.append((name, i, *size))
    return out


def _size(image: ImageParam, i: int, along: dict[int, dict[int, Source]],
          extents: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The (min, extent) of the image along i: the buffer it holds (`input.set(...)`: what Halide's realize reads),
    else its estimate, else the output's along the dimension whose Var indexes it."""
    given = _frame(image, i) or image.given_estimates().get(i)
    if given is not None:
        return given
    source = along.get(id(image.parameter()), {}).get(i)
    return extents[source] if isinstance(source, int) else None


def _frame(image: ImageParam, i: int) -> tuple[int, int] | None:
    """The (min, extent) of the buffer bound to the image (`input.set(...)`), if one is."""
    buf = image.get()
    return (buf.mins()[i], buf.dim(i).extent()) if buf is not None else None


def _guess(image: ImageParam, i: int, along: dict[int, dict[int, Source]]) -> tuple[int, int]:
    """A size to print in the fix where neither the image nor the output gives one: the range of the RDom that
    reads it (a histogram's `input(r.x, r.y)`), else 3 channels along a third dimension, else 64."""
    source = along.get(id(image.parameter()), {}).get(i)
    if isinstance(source, tuple):
        return source
    return (0, 3) if i == 2 else (0, 64)


def output_dims(pipe: Pipeline) -> dict[int, dict[int, Source]]:
    """For each Func and image (by id of its Function or Parameter), what indexes each of its dimensions: the
    output dimension whose Var alone does, through the pure Vars of the Funcs between (`clamped(x, y) =
    input(clamp(x, ...), y)` maps input's 0 to the output's 0), else the (min, extent) of a constant RDom
    dimension alone (a histogram's `input(r.x, r.y)`)."""
    out = pipe.output
    along: dict[int, dict[int, Source]] = {id(out): {k: k for k in range(len(out.args))}}
    for f in reversed(pipe.order):  # consumers first
        mine = along.get(id(f))
        if not mine:
            continue
        for d in pipe.definitions(f):
            names = {a.name: mine[k] for k, a in enumerate(d.args) if isinstance(a, ir.Var) and k in mine}
            for n in ir.walk(d.value):
                if not (isinstance(n, ir.Call) and n.args):
                    continue
                theirs = along.setdefault(id(n.callee), {})
                for j, arg in enumerate(n.args):
                    source = _sole_index(arg, names)
                    # an output dimension wins over an RDom's range, whichever reader comes first
                    if source is not None and (j not in theirs or (
                            isinstance(theirs[j], tuple) and isinstance(source, int))):
                        theirs[j] = source
    return along


def _sole_index(e: ir.Expr, names: dict[str, Source]) -> Source | None:
    """What indexes e: the one pure Var it reads (`x + r.x` too), else the range of its one RVar of constant
    bounds."""
    found = {n.name for n in ir.walk(e) if isinstance(n, ir.Var)}
    rvars = {(id(n.domain), n.index): n for n in ir.walk(e) if isinstance(n, ir.RVar)}
    if len(found) == 1:
        return names.get(found.pop())
    if found or len(rvars) != 1:
        return None
    rvar = next(iter(rvars.values()))
    _, lo, ext = rvar.domain.dims[rvar.index]
    return (int(lo.value), int(ext.value)) if isinstance(lo, ir.Const) and isinstance(ext, ir.Const) else None


def output_extents(pipe: Pipeline) -> list[tuple[int, int]]:
    """The output's (min, extent) per dimension: its estimates, else its bounds, else the bound of the Func it
    copies there (seed 002's `hw_output.bound(...)` alone, which compile takes as the output's: output_bounds.py),
    a Func of no dimensions: one element."""
    out = pipe.output
    est = out.placement.estimates or {}
    bounds = output_bounds(pipe)
    extents = []
    for v in out.args:
        if v in est:
            extents.append(est[v])
        elif v in bounds:  # (bound_extent alone: the min is the realize's, 0, as hl.compile takes it)
            extents.append((bounds[v][0] or 0, bounds[v][1]))
        elif v == SCALAR_VAR:  # a Func of no dimensions: one element
            extents.append((0, 1))
        else:
            raise HalideError(
                f"{_where()}: the output '{out.name}' has no estimate for {v}; give the size it is "
                f"computed at: {out.name}.set_estimates([{', '.join('(0, 64)' for _ in out.args)}])")
    return extents
