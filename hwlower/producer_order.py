"""Pass `follow_producers`: a pure stage runs its serial loops in the order its producers deliver its operands,
the loops no load depends on innermost.

Halide leaves a Func's loop order to its schedule as long as the values are the same, and a pure definition
stores each element once from values that exist before it runs: any order of its iterations gives the same
buffer. In hardware the order decides when a stage can fire. h2h_conv_layer_mobile's pointwise products
`pw_conv(k, x, y, c)` ran one output-channel plane after another (k outermost), so the first plane waited for the
fourth input channel, and its reduction over c for the third plane: 4,649 cycles for an ideal of 3,072. Taken in
the order their depthwise producer makes them (c, y, x, then k, each value read three times in a row), they keep
pace with the input stream. The accelerator's output, whose stream order is the order its op stores
(`ir.output_order`, which the host and the test bench read back by), moves inward only its loops over what its
producers make in one firing or what no load indexes: an output by channel planes whose channels are summed
together (resnet's `hw_output.reorder(xi, yi, w, xo, yo)`) streams each pixel's channels as they are summed
instead of holding two planes until the last sum, and a column-major output stays column-major.

A producer's order is that of the loops of the op that writes its final values (a reduction's last update, as
`reduce_in_place` left it), unrolled loops counted innermost; a host input's is its box order, x fastest. The
orders settle stage by stage, so a stage follows its producers' new orders: a column-major intermediate
(`blur_x.reorder(y, x)`) goes back to rows, and so does blur_y, which otherwise kept blur_x's columns while the
output waited for the last one (298 cycles for 112 at 12x6, 120 now). An update that reads its own Func only at
the element it stores, its steps innermost, moves its pure loops outside its steps, which keep their order, where
they walk different producer dimensions (not a split's steps along one); its constant init (which reads nothing)
takes the order of its buffer's last writer. An op keeps its order when it is
any other update or reads at computed coordinates, when one of its loops is strip-mined or shared with another
op, when it reads nothing made in the accelerator or streamed in, or when its loads disagree on the order.
Unrolled loops (lanes) stay innermost, where they were. `verify_permuted` checks the result.
"""

from __future__ import annotations

from dataclasses import replace

from .ir import Loop, LoopNest, Op
from .reorder import exclusive_chain, rebuild_chain
from .state import Lowering
from .verify import verify_permuted

Ranks = dict[str, tuple[int, ...]]  # buffer -> per dimension, its position in the order it is written
LANES = 1 << 20  # added to the rank of a dimension its producer makes in lanes (all in one firing)


def follow_producers(s: Lowering) -> Lowering:
    before = s.built_nest
    after = before
    # A stage follows its producers' new orders, not the ones the user gave them: blur_x.reorder(y, x) put back in
    # rows by its input stream puts blur_y back in rows too, which otherwise held blur_x's whole columns (428 cycles
    # for 160 at 14x8). Each round settles one more stage of the DAG, so the ops' count of rounds reaches the end.
    for _ in range(len(before.ops()) + 1):
        ranks = _producer_ranks(after)
        settled = replace(after, body=tuple(_visit(n, ranks, after.output) for n in after.body))
        if _orders(settled) == _orders(after):
            break
        after = settled
    verify_permuted(before, after)
    return replace(s, nest=after)


def _orders(nest: LoopNest) -> list[list[str]]:
    return [[lp.var for lp in loops] for loops, _ in nest.ops()]


def _producer_ranks(nest: LoopNest) -> Ranks:
    """Each buffer's dimensions ranked by when they advance as it is written: 0 for the outermost."""
    ranks: Ranks = {b: tuple(len(nest.buffer(b).box) - 1 - d for d in range(len(nest.buffer(b).box)))
                    for b in nest.inputs}
    for loops, op in nest.ops():  # program order: a buffer's last writer wins
        if op.scatter or not op.store.index:
            ranks.pop(op.store.buffer, None)
            continue
        order = [lp for lp in loops if lp.extent > 1 and not lp.unrolled]
        position = {lp.var: i for i, lp in enumerate(order)}
        position |= {lp.var: LANES + i for i, lp in enumerate(loops) if lp.extent > 1 and lp.unrolled}
        # A dimension indexed by no live loop (a constant, or a loop of extent 1) never advances: rank it first.
        ranks[op.store.buffer] = tuple(min((position[v] for v, _ in a.terms if v in position), default=-1)
                                       for a in op.store.index)
    return ranks


def _visit(node: Loop | Op, ranks: Ranks, output: str) -> Loop | Op:
    if isinstance(node, Op):
        return node
    chain, leaf = exclusive_chain(node)
    if isinstance(leaf, Op) and len(chain) > 1:
        order = _producer_order(chain, leaf, ranks, leaf.store.buffer == output)
        if order is not None:
            return rebuild_chain(order, leaf)
    return replace(node, body=tuple(_visit(n, ranks, output) for n in node.body))


def _producer_order(loops: list[Loop], op: Op, ranks: Ranks, output: bool) -> list[Loop] | None:
    """`loops` (outermost first) with the serial ones sorted by the rank of the producer dimension they index,
    those no load indexes innermost in their order, the unrolled ones last; None if `op` keeps its order. The
    output's stream order is the accelerator's interface: it only moves inward, in their order, the loops over
    what its producers make in one firing (their lanes) or what no load indexes (a value sent to every channel),
    whose planes would otherwise be held whole; a column-major output stays column-major."""
    if op.scatter or op.lookup or any(lp.strip for lp in loops):
        return None
    if any(not p.access.index for p in op.loads):
        return None  # a RAM read
    unrolled = [lp for lp in loops if lp.unrolled]
    if unrolled and loops[-len(unrolled):] != unrolled:
        return None
    serial = [lp for lp in loops if not lp.unrolled and lp.extent > 1]
    steps = update_steps(loops, op)
    if steps is None or (steps and output):
        return None
    serial = serial[:len(serial) - len(steps)]
    key = _loop_keys(serial, op, ranks)
    update = any(p.access.buffer == op.store.buffer for p in op.loads)
    if key is None or (update and len({k[0] for k in key.values()}) != len(key)):
        # An update follows its producers' dimensions, not a split's steps within one: an rfactor's intermediate
        # `f0_intm(x, v)`, read at x + 2v, is read by its reduction over v innermost (fuzz 9163400: 39 -> 44).
        return None
    if output:
        together = [lp for lp in serial if lp.var not in key or key[lp.var][0] >= LANES]
        indexed = [lp for lp in serial if lp not in together]
    else:
        indexed = sorted((lp for lp in serial if lp.var in key), key=lambda lp: key[lp.var])
        together = [lp for lp in serial if lp.var not in key]
    order = [lp for lp in loops if not lp.unrolled and lp.extent == 1] + indexed + together + steps + unrolled
    if [lp.var for lp in order if lp.extent > 1] == [lp.var for lp in loops if lp.extent > 1]:
        return None
    return order


def update_steps(loops: list[Loop], op: Op) -> list[Loop] | None:
    """The serial loops of `op`'s reduction steps, its innermost serial `loops` (outermost first): [] for a
    pure definition; for an update that reads its own Func only at the element it stores, with its steps inside
    its pure loops (as `reduce_in_place` leaves them), those steps, which keep their order inside whatever order
    its pure loops take, so each element still sees its steps in a row and in their order; None for any other
    update (a scan, a projection or a sweep over planes that kept the user's order)."""
    own = [p for p in op.loads if p.access.buffer == op.store.buffer]
    if not own:
        return []
    if any(p.access.index != op.store.index for p in own):
        return None
    stored = {v for a in op.store.index for v, _ in a.terms}
    if any(lp.unrolled and lp.var not in stored for lp in loops):
        return None  # steps in lanes
    serial = [lp for lp in loops if not lp.unrolled and lp.extent > 1]
    steps = [lp for lp in serial if lp.var not in stored]
    return steps if serial[len(serial) - len(steps):] == steps else None


def _loop_keys(serial: list[Loop], op: Op, ranks: Ranks) -> dict[str, tuple[int, int]] | None:
    """Each serial loop's rank in the producers' order, for the loops the loads index, then (loops of one
    dimension: a tile's or a split's) the larger step first; None when no load of a ranked producer indexes them,
    or when two loads (or two dimensions of one) would order them differently."""
    live = {lp.var for lp in serial}
    key: dict[str, tuple[int, int]] = {}
    orders: list[list[str]] = []
    # An update's own element is read in any order. A constant (blur_x(x, y) = 0 before its update) takes the
    # order of its buffer's last writer, where that update moved to its producers' order, so that it keeps ahead.
    accesses = [p.access for p in op.loads if p.access.buffer != op.store.buffer] if op.loads else [op.store]
    for access in accesses:
        rank = ranks.get(access.buffer)
        if rank is None:
            continue
        seen: dict[str, tuple[int, int]] = {}
        for r, a in zip(rank, access.index):
            for v, c in a.terms:
                if v in live:
                    if v in seen and seen[v][0] != r:
                        return None  # one loop advances two dimensions written at different depths
                    seen[v] = (r, -abs(c))
        orders.append(sorted(seen, key=lambda v: seen[v]))
        for v, k in seen.items():
            key.setdefault(v, k)
    if not key:
        return None
    merged = sorted(key, key=lambda v: key[v])
    for o in orders:  # every load must see the loops it indexes in the merged order
        if o != [v for v in merged if v in o]:
            return None
    if len({key[v] for v in key}) != len(key):
        return None  # two loops on dimensions of one rank, by equal steps: no order between them
    return key
