"""The constant extents of a stage's loops that unroll and vectorize need, and Halide's refusal of one that has
none. A loop that splits and fuses made has the extent its parts give: `tile(x, y, xo, yo, xi, yi, 8, 4)` of a
Func 16 wide makes xo of extent 2, which `unroll(xo)` may unroll whole, as in Halide."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .func import Definition, Function
from .schedule import Fuse, Split


def split_extent(d: Definition, var: str, args: Sequence[str], base: Callable[[str], int | None]) -> int | None:
    """The constant extent of the loop `var` of definition d that splits and fuses made, from `base` (the extent of
    a dimension of the Func or of an RVar, None or negative where not constant); None where it is not constant.
    The directives replay in order, as a split may keep its old loop's name (`unroll(yo, 2)` splits yo into yo
    and its inner part)."""
    rvars = {n for n, _lo, _ext in d.rdom.dims} if d.rdom is not None else set()
    made: dict[str, int | None] = {}

    def extent(v: str) -> int | None:
        if v in made:
            return made[v]
        whole = base(v) if v in args or v in rvars else None
        return whole if whole is not None and whole > 0 else None

    for dv in d.schedule.directives:
        if isinstance(dv, Split):
            whole = extent(dv.old)
            made[dv.outer] = None if whole is None else -(-whole // dv.factor)
            made[dv.inner] = dv.factor
        elif isinstance(dv, Fuse):
            a, b = extent(dv.inner), extent(dv.outer)
            made[dv.fused] = None if a is None or b is None else a * b
    return made.get(var)


def unroll_extent_error(fn: Function, k: int, d: Definition, dv) -> str:
    """Halide's refusal of an unroll or vectorize over a loop whose extent is not a constant, with the fix: a
    bound on the dimension the loop comes from; constant bounds for an RVar's RDom (a bound cannot give an RVar
    one)."""
    stage = fn.name if k == 0 else f"{fn.name}.update({k - 1})"
    shown = dv.var.replace("$", ".")
    head = (f"{dv.loc}: Can only {dv.kind} for loops over a constant extent.\nLoop over {fn.name}.s{k}.{dv.var} of "
            f"Func \"{fn.name}\" ({stage}.{dv.kind}({shown})) has an extent that is not known at compile time. ")
    if d.rdom is not None and dv.var in {n for n, _lo, _ext in d.rdom.dims}:
        from .param_domains import range_hint

        return head + (f"Its RDom {d.rdom.name} has bounds that use a Param; an accelerator's loops are fixed at "
                       "compile time: give the RDom constant bounds (e.g. hl.RDom([hl.Range(0, 3)]))"
                       + range_hint(d.rdom))
    dim = _dimension(dv.var, d)
    if dim != dv.var and dim in fn.args:  # a bound applies to a dimension, not to a loop a split made
        return head + (f"Give the dimension it was split from one ({fn.name}.bound({dim}, min, extent)), or "
                       f"{dv.kind} by a factor ({dv.kind}({shown}, 4, hl.TailStrategy.RoundUp)).")
    return head + (f"Give it one ({fn.name}.bound({dv.var}, min, extent)), or {dv.kind} by a factor "
                   f"({dv.kind}({dv.var}, 4, hl.TailStrategy.RoundUp)).")


def _dimension(loop: str, d: Definition) -> str:
    """The dimension whose splits made `loop` (latest split first: a split may keep its old name)."""
    for dv in reversed(d.schedule.directives):
        if isinstance(dv, Split) and loop in (dv.outer, dv.inner) and dv.old != loop:
            loop = dv.old
    return loop
