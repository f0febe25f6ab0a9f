"""Tails other than RoundUp inside the accelerator (ShiftInwards, Halide's Auto tail of a pure definition,
GuardWithIf and the predicated ones).

Halide runs the last iteration of a split that does not divide its loop shifted back inside the loop, so that
`blur.unroll(x, 2)` over 33 columns recomputes column 31 instead of computing column 33. A hardware loop
cannot move its last iteration (its controllers are affine), so inside the accelerator the loop rounds up as
RoundUp does, and the Func's buffer holds the extra values, which no consumer reads. Unlike RoundUp, the
producers are not asked for what the extra iterations read: every load of the Func's ops carries the box its
consumers read as a guard (`Access.guard`), so the memory analysis constrains those reads to it and the values
read past it are never used (as for a boundary condition's taps, `edge_taps.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from mainspring.frontend.bounds import Box, _aligned, realised_box
from mainspring.frontend.func import Function
from mainspring.frontend.stream_turns import turn_steps

from .fold import with_loads
from .hierarchy import in_glb
from .ir import Access, LoadPort, Loop, Op
from .program import Tile
from .region import Region


def shifted_funcs(region: Region) -> frozenset[int]:
    """The Funcs whose ShiftInwards tails round up (ids): the Funcs buffered inside the accelerator, except its
    output, whose tails are the host's tiles (tiling.py), and its inputs: the host pads their streams with zeros
    past what it computed, and with a GLB level their GLB tiles (the GLB input copy `hw_input.in_().unroll(x, 2)`
    over 9 columns a memory tile holds 10: the host loads the image's column there where it has one and a zero past
    it, and no reader keeps what the extra column feeds). A GLB input copy stored in the GLB takes no stream's words
    in turn (frontend/stream_turns.py: the host loads it); one the level makes a GLB input tile with no memory type
    cannot be told from a Func inside the accelerator there, so where it would take its input's words in turn it
    keeps its box (its default tail refused, a 1-lane copy of a 3-lane input not rounded to whole transfers)."""
    inputs = [f for f in region.inputs if region.glb is None or in_glb(f) or not turn_steps(f)]
    return frozenset(id(f) for f in inputs + list(region.buffered) if f is not region.output)


def realise(f: Function, need: Box, steps: dict[int, int], shifted: bool, boxes: dict[str, Box],
            demands: dict[str, Box], name: str) -> None:
    """Record f's box over `need` in `boxes[name]`, grown as bounds inference grows it (align_bounds, RoundUp
    tails, upsample `steps`; with `shifted`, its other tails round up too), and where it grew, `need` aligned as
    the demand its loads are guarded to (`demands[name]`; a demand from before is dropped)."""
    realised, box = realised_box(f, _aligned(f, need), steps, shifted)
    demands.pop(name, None)
    if realised != box:
        demands[name] = box
    boxes[name] = realised


def guard_shifted(nodes: list[Loop | Op], box: Box, demand: Box | None) -> list[Loop | Op]:
    """The ops of a Func realised over `box` (its tails rounded up) with every load guarded to `demand`, the box
    its consumers read (None: no tail rounded up)."""
    if demand is None or demand == box:
        return nodes
    dims = [i for i, (b, d) in enumerate(zip(box, demand)) if b != d]
    return _with_asked(nodes, box, demand, dims, lambda op: _guarded(op, dims, demand))


def asked_loops(nodes: list[Loop | Op], box: Box, demand: Box) -> list[Loop | Op]:
    """`nodes` (the accelerator output's ops over `box`, its tile's loops rounded up to whole transfers,
    `turned_tile`) with each loop over a dimension that grew recording the iterations `demand` (the tile) asks for
    (`Loop.asked`): the host drops the rest."""
    dims = [i for i, (b, d) in enumerate(zip(box, demand)) if b != d]
    return _with_asked(nodes, box, demand, dims, lambda op: op)


def _with_asked(nodes: list[Loop | Op], box: Box, demand: Box, dims: list[int],
                on_op: Callable[[Op], Op]) -> list[Loop | Op]:
    """`nodes` with each loop's `asked` (`_asked`) and each op through `on_op`."""
    return [replace(n, body=tuple(_with_asked(list(n.body), box, demand, dims, on_op)),
                    asked=_asked(n, box, demand, dims)) if isinstance(n, Loop) else on_op(n) for n in nodes]


def _asked(loop: Loop, box: Box, demand: Box, dims: list[int]) -> int:
    """The iterations the program asks for of `loop` where it runs over a dimension of the box (it alone stores
    along it, unsplit: a split's tail is the user's) that grew past what the Func's readers ask for (to whole
    transfers of a stream it reads in turn, frontend/stream_turns.py), else what it had (`Loop.asked`)."""
    for op in _ops(loop):
        for i in dims:
            if op.scatter or len(op.store.index) != len(box):
                continue
            if op.store.index[i].terms == ((loop.var, 1),) and loop.extent == box[i][1] - box[i][0] + 1:
                return demand[i][1] - demand[i][0] + 1
    return loop.asked


def _ops(loop: Loop) -> list[Op]:
    return [n for c in loop.body for n in (_ops(c) if isinstance(c, Loop) else [c])]


def _guarded(op: Op, dims: list[int], demand: Box) -> Op:
    if op.scatter or len(op.store.index) != len(demand):
        return op  # a RAM's update writes at computed coordinates: its box is the table's, never rounded
    extra = tuple((op.store.index[i], demand[i][0], demand[i][1]) for i in dims)
    return with_loads(op, {id(p): LoadPort(p.name, Access(p.access.buffer, p.access.index, p.access.guard + extra))
                           for p in op.loads})


def turned_tile(t: Tile, f: Function, name: str) -> Tile:
    """Tile t with the output's loops over whole transfers of a stream it reads a word at a time
    (frontend/stream_turns.py), where its realised box holds them."""
    loops = t.loop_box or t.output_box
    turned = list(loops)
    for dim, k in turn_steps(f).items():
        lo, hi = loops[dim]
        turned[dim] = (lo, hi + (-(hi - lo + 1)) % k)
    box = t.boxes[name]
    if turned == list(loops) or not all(b[0] <= lo and hi <= b[1] for b, (lo, hi) in zip(box, turned)):
        return t
    return replace(t, loop_box=turned, asked_box=list(loops))
