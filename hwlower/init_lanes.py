"""A constant pure definition takes the lanes of its update (part of pass `reorder`): mobile's
`pw_conv_reduction(k, x, y) = 0` under `pw_conv_reduction.update().unroll(k)` stores its three zeros of a pixel
in one firing instead of three.

Why: the update fires once a pixel with its lanes, and reads the pure values at its first step. Serial over the
unrolled dimension, the constant op makes a pixel's values three times slower than the update sweeps them, so
an update that sweeps its pixels once per reduction step (a sum over channel planes that follows its input's
planes) would start late enough for the constants to stay ahead, a full frame late at 16 x 16. Lanes of a
constant cost no PE and no load, and every order of a constant's stores writes the same buffer.
"""

from __future__ import annotations

from dataclasses import replace

from mainspring.frontend.ir import Call, RVar, Var, walk

from .ir import Loop, LoopNest, Op


def constant_inits_take_lanes(nest: LoopNest) -> LoopNest:
    """Unroll each constant pure definition's loops over the dimensions its update's lanes make."""
    lanes = _update_lanes(nest)
    return replace(nest, body=tuple(_visit(n, lanes) for n in nest.body))


def _update_lanes(nest: LoopNest) -> dict[str, dict[int, tuple[int, int]]]:
    """By Func: the store dimensions its updates' unrolled loops move, each with (min, extent), when every update
    of the Func unrolls the same ones."""
    found: dict[str, list[dict[int, tuple[int, int]]]] = {}
    for loops, op in nest.ops():
        if op.stage == 0:
            continue
        dims = {}
        for lp in loops:
            if lp.unrolled and lp.extent > 1:
                dim = _dimension(op, lp.var)
                if dim is not None:
                    dims[dim] = (lp.min, lp.extent)
        found.setdefault(op.func, []).append(dims)
    return {f: ds[0] for f, ds in found.items() if ds[0] and all(d == ds[0] for d in ds)}


def _dimension(op: Op, var: str) -> int | None:
    """The store dimension `var` alone indexes (coefficient 1, nothing else in it), or None."""
    hits = [j for j, a in enumerate(op.store.index) if any(v == var for v, _ in a.terms)]
    if len(hits) != 1 or op.store.index[hits[0]].terms != ((var, 1),):
        return None
    return hits[0]


def _visit(node: Loop | Op, lanes: dict[str, dict[int, tuple[int, int]]]) -> Loop | Op:
    if isinstance(node, Op):
        return node
    chain = [node]
    while len(chain[-1].body) == 1 and isinstance(chain[-1].body[0], Loop):
        chain.append(chain[-1].body[0])
    leaf = chain[-1].body[0] if len(chain[-1].body) == 1 else None
    if isinstance(leaf, Op) and leaf.stage == 0 and leaf.func in lanes and _constant(leaf):
        order = _with_lanes(chain, leaf, lanes[leaf.func])
        if order is not None:
            body: Loop | Op = leaf
            for lp in reversed(order):
                body = replace(lp, body=(body,))
            return body
    return replace(node, body=tuple(_visit(n, lanes) for n in node.body))


def _constant(op: Op) -> bool:
    return (not op.loads and not op.coords and not op.scatter and not op.lookup
            and not any(isinstance(e, (Var, RVar, Call)) for e in walk(op.value)))


def _with_lanes(chain: list[Loop], op: Op, dims: dict[int, tuple[int, int]]) -> list[Loop] | None:
    """`chain` with the loops over `dims` unrolled and moved innermost (the last dimension outermost), or None
    when a loop does not match the update's (another range) or nothing changes."""
    moved: dict[int, Loop] = {}
    for lp in chain:
        dim = _dimension(op, lp.var)
        if dim in dims and not lp.unrolled:
            if (lp.min, lp.extent) != dims[dim] or lp.strip:
                return None
            moved[dim] = replace(lp, unrolled=True)
    if not moved:
        return None
    kept = [lp for lp in chain if _dimension(op, lp.var) not in moved]
    serial = [lp for lp in kept if not lp.unrolled]
    unrolled = [lp for lp in kept if lp.unrolled]
    return serial + [moved[d] for d in sorted(moved, reverse=True)] + unrolled
