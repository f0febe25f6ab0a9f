"""The global buffer (GLB): its tile buffers, their transfer controllers, capacity, banks and the host loop.

Each GLB buffer holds one GLB tile of a Func (an input tile loaded by the host, or the output tile the array
writes), double-buffered when the GLB has room for two copies of every buffer (the host loads tile t+1 and
reads back tile t-1 while the array computes tile t). Every transfer is an affine controller over the tile's
words, as the memory tiles' ports are: the host side (load in box order, read back in the output Func's loop
order) and the array side (per memory tile, the words the array streams in or writes out). Over several memory
tiles the host follows the array's order instead (`in_array_order`: its loads skip the words an earlier memory
tile already read, so each is loaded once; its read-back is the array's write order): rows that cross memory
tiles would make memory tile 0 wait for rows of the whole tile, and a band's read-back for its last memory
tile. Transfers are paced
by handshakes, not by a cycle schedule: a controller steps once per word moved, and its cycle fields state the
schedule when nothing stalls (one transfer per cycle).

A tile streams through its copy: the reader (the array for an input, the host for the output) does not wait for
the whole tile, only for the entries it reads. Its wait controller (`GlbBuffer.wait`, over the reader's
dimensions) gives, per read, the writer's step that writes the entry read: the read goes once the writer has
made that step in an earlier cycle (a count comparison, no per-word state). `pace` derives it from the two
controllers, splitting the reader's dimensions where the writer's order needs it (e.g. a host reading rows back
across memory tiles the array writes one after the other); `check_pacing` checks it against the controllers,
independently of how it was derived. The tile's last read also waits for the whole tile, and the writer fills a
copy only once the reader has finished the tile it held, so no word is read before it is written or
overwritten before it is read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from mainspring.frontend.errors import ScheduleError
from mainspring.hwlower.ir import Affine, Loop, Op
from mainspring.hwlower.program import Box, GlbProgram, HwProgram, Tile
from mainspring.memories.glb_output_lanes import check_output_lanes, lanes_consecutive
from mainspring.target import CGRA

MAX_DIM = 8  # dimensions of a GLB controller (the RTL's configuration vectors, verilog/top.py's MAX_DIM)


@dataclass(frozen=True, slots=True)
class GlbController:
    extent: tuple[int, ...]  # innermost first
    data_start: int
    data_stride: tuple[int, ...]
    # Steps that move no word: (dim, grid, below) skips a step whose index along `grid` is above 0 and along
    # `dim` below `below` (a host loading a GLB tile in the array's order over its memory tiles skips the halo
    # an earlier memory tile already brought; `skip_rules`). A skipped step still takes its cycle.
    skip: tuple[tuple[int, int, int], ...] = ()

    @property
    def transfers(self) -> int:
        """Steps per tile, skipped ones included (one per cycle when nothing stalls)."""
        n = 1
        for e in self.extent:
            n *= e
        return n

    @property
    def moves(self) -> int:
        """Words (entries) moved per tile: the steps not skipped."""
        return int(kept(self).sum()) if self.skip else self.transfers

    @property
    def cycle_stride(self) -> tuple[int, ...]:
        """One transfer per step when nothing stalls."""
        cycle, run = [], 1
        for e in self.extent:
            cycle.append(run)
            run *= e
        return tuple(cycle)

    def to_json(self) -> dict:
        doc = {"dimensionality": len(self.extent), "extent": list(self.extent), "cycle_starting_addr": 0,
               "cycle_stride": list(self.cycle_stride), "data_starting_addr": self.data_start,
               "data_stride": list(self.data_stride)}
        if self.skip:
            doc["skip_when"] = [{"dim": d, "grid_dim": g, "below": b} for d, g, b in self.skip]
        return doc


@dataclass(frozen=True, slots=True)
class GlbBuffer:
    name: str  # the GLB Func
    role: str  # "input" (host -> GLB -> array) or "output" (array -> GLB -> host)
    host_stream: str  # the host's stream (the top's port): the accelerator input it copies, or the GLB output
    array_stream: str  # the array's stream: the array input buffer, or the array output
    bits: int
    lanes: int  # words per transfer on both sides; the GLB stores `lanes` words per entry
    box: tuple[tuple[int, int], ...]  # one GLB tile (the first), (min, extent) per dimension, x first
    words: int  # per tile
    copies: int  # 2 when double-buffered
    banks: int  # GLB banks per copy
    host: GlbController
    array: GlbController
    # Over the reader's dimensions: per read, the writer's step (0-based, in the tile) that must be made first.
    wait: GlbController
    # The dimensions in storage order, innermost first; () for x fastest. A GLB output whose array writes lanes of
    # several dimensions a cycle (3 channels and 2 pixels of x) stores them innermost, so each entry holds one
    # cycle's lanes (storage_order).
    order: tuple[int, ...] = ()
    lane_dim: int = 0  # the box dimension its lanes run along: an entry of k rows with 1 (glb_rows.py)
    # A GLB output whose array writes a block of lanes a cycle that are not consecutive words (rows, or x and y):
    # an entry per block, its lanes (dimension, extent, step) innermost first (glb_blocks.py); () otherwise.
    block: tuple[tuple[int, int, int], ...] = ()

    @property
    def transfers(self) -> int:
        """Host transfers per tile (one per cycle when nothing stalls)."""
        return self.host.transfers

    @property
    def writer(self) -> GlbController:
        return self.host if self.role == "input" else self.array

    @property
    def reader(self) -> GlbController:
        return self.array if self.role == "input" else self.host

    @property
    def streams(self) -> bool:
        """Whether reads follow the writer within a tile (else every read waits for the whole tile)."""
        return any(self.wait.data_stride) or self.wait.data_start != self.writer.transfers - 1


@dataclass(frozen=True, slots=True)
class GlbPlan:
    buffers: tuple[GlbBuffer, ...]
    tiles: tuple[tuple[tuple[int, int], ...], ...]  # the host loop: each GLB tile's output box, (min, extent)
    mem_tiles: int  # array invocations per GLB tile
    double_buffered: bool
    words_used: int
    banks_used: int
    bank_words: int

    def buffer(self, name: str) -> GlbBuffer:
        (b,) = [b for b in self.buffers if b.name == name]
        return b


def layout(box: Sequence[tuple[int, int]], order: Sequence[int] = ()) -> tuple[int, ...]:
    """Word stride of each dimension of a tile stored in `order` (innermost first; () for x fastest; boxes are
    inclusive (min, max) pairs)."""
    out, run = [0] * len(box), 1
    for d in order or range(len(box)):
        lo, hi = box[d]
        out[d] = run
        run *= hi - lo + 1
    return tuple(out)


def address(coord: Sequence[int], box: Sequence[tuple[int, int]], order: Sequence[int] = ()) -> int:
    return sum((c - lo) * s for c, (lo, _), s in zip(coord, box, layout(box, order)))


def box_walk(sub: Sequence[tuple[int, int]], box: Sequence[tuple[int, int]],
             order: Sequence[int] = ()) -> GlbController:
    """A controller that visits the elements of sub-box `sub` of a tile stored as `box`, in storage order."""
    dims, strides = order or range(len(box)), layout(box, order)
    return GlbController(tuple(sub[d][1] - sub[d][0] + 1 for d in dims), address([lo for lo, _ in sub], box, order),
                         tuple(strides[d] for d in dims))


def storage_order(loops: Sequence[Loop], index: Sequence[Affine]) -> tuple[int, ...]:
    """The storage order that puts the dimensions of an op's unrolled loops (its lanes) innermost, innermost lane
    first, then the others x first; () when that is x fastest."""
    lanes = [next((d for d, a in enumerate(index) if dict(a.terms).get(lp.var)), None)
             for lp in reversed(loops) if lp.unrolled]
    first = list(dict.fromkeys(d for d in lanes if d is not None))
    order = tuple(first + [d for d in range(len(index)) if d not in first])
    return () if order == tuple(range(len(index))) else order


def loop_walk(loops: Sequence[Loop], index: Sequence[Affine], box: Sequence[tuple[int, int]],
              order: Sequence[int] = ()) -> GlbController:
    """A controller that visits what an op over `loops` (outermost first, hwlower Loops) stores at `index`
    (hwlower Affines), in the op's order; unrolled loops are lanes of one transfer and must be innermost."""
    strides = layout(box, order)
    time = [lp for lp in loops if not lp.unrolled]
    extent, stride = [], []
    for lp in reversed(time):
        extent.append(lp.extent)
        stride.append(sum(dict(a.terms).get(lp.var, 0) * s for a, s in zip(index, strides)))
    start = address([a.evaluate({lp.var: lp.min for lp in loops}) for a in index], box, order)
    return GlbController(tuple(extent) or (1,), start, tuple(stride) or (0,))


def tiled(inner: GlbController, shifts: list[int], counts: list[int]) -> GlbController:
    """`inner` (for the first memory tile) repeated over the grid of memory tiles: `counts` per tile loop
    (innermost first), `shifts` the address offset of each tile's words from the first tile's, in grid order."""
    strides, run = [], 1
    for c in counts:
        strides.append(shifts[run] if c > 1 else 0)
        run *= c
    for k, s in enumerate(shifts):
        idx, rest = [], k
        for c in counts:
            idx.append(rest % c)
            rest //= c
        assert s == sum(i * st for i, st in zip(idx, strides)), "memory tiles are not affine"
    keep = [(c, st) for c, st in zip(counts, strides) if c > 1]
    return GlbController(inner.extent + tuple(c for c, _ in keep), inner.data_start,
                         inner.data_stride + tuple(st for _, st in keep))


def bank_count(b: GlbBuffer, bank_words: int, glb_lanes: int) -> int:
    """The banks one copy of buffer `b` occupies. A bank port moves `glb_lanes` words per cycle, so a buffer of
    more lanes spreads each entry over banks side by side (9 lanes over 3 banks of 4), each bank holding its
    lanes of every entry."""
    side = math.ceil(b.lanes / glb_lanes)
    return side * math.ceil(math.ceil(b.words / side) / bank_words)


def place(buffers: list[GlbBuffer], glb_words: int, glb_banks: int, who: str, glb_lanes: int) -> tuple[bool, int]:
    """Whether the buffers are double-buffered, and the banks used; refuses what does not fit."""
    bank_words = max(1, glb_words // glb_banks)
    per_copy = sum(bank_count(b, bank_words, glb_lanes) for b in buffers)
    if 2 * per_copy <= glb_banks:
        return True, 2 * per_copy
    if per_copy <= glb_banks:
        return False, per_copy
    sizes = ", ".join(f"{b.name} {b.words} words" for b in buffers)
    need = -(-sum(b.words for b in buffers) // glb_banks)
    while sum(-(-b.words // need) for b in buffers) > glb_banks:
        need += 1
    raise ScheduleError(
        f"{who}: one GLB tile needs {per_copy} GLB banks of {bank_words} words ({sizes}) but the GLB has "
        f"{glb_banks}: make the GLB tile smaller (the tile() of the hw_accelerate Func), or compile for a larger "
        f"GLB, e.g. hl.CGRA(glb_words={need * glb_banks})"
    )


def glb_json(plan: GlbPlan) -> dict:
    return {
        "double_buffered": plan.double_buffered,
        "bank_words": plan.bank_words,
        "banks_used": plan.banks_used,
        "words_used": plan.words_used,
        "mem_tiles_per_tile": plan.mem_tiles,
        "host_loop": [[list(d) for d in t] for t in plan.tiles],
        "buffers": {
            b.name: {
                "role": b.role, "host_stream": b.host_stream, "array_stream": b.array_stream, "bits": b.bits,
                "lanes": b.lanes,
                "box": [list(d) for d in b.box], "words": b.words, "copies": b.copies, "banks": b.banks,
                "host_controller": b.host.to_json(), "array_controller": b.array.to_json(),
                "read_wait_controller": b.wait.to_json(),
            } | ({"storage_order": list(b.order)} if b.order else {}) | ({"lane_dim": b.lane_dim} if b.lane_dim else {})
            | ({"entry_block": [list(lane) for lane in b.block]} if b.block else {})
            for b in plan.buffers
        },
    }


def glb_from_json(doc: dict) -> GlbPlan:
    """The GlbPlan of a memory JSON's "glb" section (the inverse of `glb_json`)."""
    def ctrl(c: dict) -> GlbController:
        skip = tuple((r["dim"], r["grid_dim"], r["below"]) for r in c.get("skip_when", ()))
        return GlbController(tuple(c["extent"]), c["data_starting_addr"], tuple(c["data_stride"]), skip)

    buffers = tuple(
        GlbBuffer(name, b["role"], b["host_stream"], b["array_stream"], b["bits"], b["lanes"],
                  tuple(tuple(d) for d in b["box"]), b["words"], b["copies"], b["banks"], ctrl(b["host_controller"]),
                  ctrl(b["array_controller"]), ctrl(b["read_wait_controller"]), tuple(b.get("storage_order", ())),
                  b.get("lane_dim", 0), tuple(tuple(lane) for lane in b.get("entry_block", ())))
        for name, b in doc["buffers"].items()
    )
    return GlbPlan(buffers, tuple(tuple(tuple(d) for d in t) for t in doc["host_loop"]), doc["mem_tiles_per_tile"],
                   doc["double_buffered"], doc["words_used"], doc["banks_used"], doc["bank_words"])


def plan_glb(program: HwProgram, target: CGRA) -> GlbPlan:
    """The GLB of a hardware program with a GLB level (`program.glb`), in `target`'s GLB."""
    glb_words, glb_banks, glb_lanes = target.glb_words, target.glb_banks, target.glb_lanes
    g, nest = _glb_of(program), program.nest
    first, mems = program.tiles[0].boxes, g.mem_tiles
    out_name = g.output
    buffers = []
    for s in program.inputs:
        name = s.buffer
        box, k = first[name], nest.stream_lanes(name)
        inner = box_walk(mems[0].boxes[name], box)
        shifts = [address([lo for lo, _ in m.boxes[name]], box) - address([lo for lo, _ in mems[0].boxes[name]], box)
                  for m in mems]
        who = f"{program.located(name)} (a GLB input)"
        array, host = tiled(inner, shifts, list(g.mem_grid)), box_walk(box, box)
        if nest.lane_dim(name):  # k rows per transfer: an entry holds them
            from .glb_rows import row_entries
            at = f"{program.located(name)}: GLB input '{name}'"
            array, host = row_entries(array, k, box, at), row_entries(host, k, box, at)
        else:
            from .glb_input_lanes import check_entry_starts
            check_entry_starts(mems, name, box, k, f"{program.located(name)}: GLB input '{name}'")
            array, host = lane_words(array, k, False, who), lane_words(host, k, False, who)
        if len(mems) > 1:  # load in the order the memory tiles read, each entry once (`skip_rules`)
            host = in_array_order(array, host.transfers) or host
        buffers.append(replace(_buffer(name, "input", s.port, name, s.type.bits(), box, k, host, array),
                               lane_dim=nest.lane_dim(name)))
    # The GLB output tile holds what the array writes: the array output's box, which RoundUp tails pad past
    # the GLB tile; the host then reads the padded tile back in box order and drops the padding.
    (loops, op), = [(lp, op) for lp, op in nest.ops() if op.store.buffer == nest.output]
    box, k = written_box(loops, op, mems), nest.stream_lanes(nest.output)
    padded = box != first[out_name]
    # The host reads back along the GLB output's own loops: when they unroll x by the array's lanes
    # (hw_output.in_().unroll(xi, k)), each step already moves the k words of a transfer. Unrolled by another
    # factor (2 over an array output of 1 lane), the host walks its unrolled loops too, k words a transfer.
    unrolled = math.prod(lp.extent for lp in g.readback_loops if lp.unrolled)
    # lanes of several dimensions stored innermost when the host reads them back as the array writes them, the
    # GLB copy unrolling them too (channels and x: hw_output.in_().unroll(c).unroll(xi, 2))
    order = storage_order(loops, op.store.index) if unrolled == k and not padded else ()
    inner = loop_walk(loops, op.store.index, box, order)
    shifts = [address([lo for lo, _ in m.output_box], box, order)
              - address([lo for lo, _ in mems[0].output_box], box, order) for m in mems]
    host_grouped = not padded and unrolled > 1 and unrolled == k
    readback = g.readback_loops if unrolled == k else [replace(lp, unrolled=False) for lp in g.readback_loops]
    host = box_walk(box, box, order) if padded else loop_walk(readback, g.readback.store.index, box, order)
    if not host_grouped and host.extent[0] % k and host.data_stride[0] == 1:
        # the read-back covers part of a row of whole transfers (the image ends inside the last lanes of the
        # memory tile, which are whole lanes): read the whole rows, as a padded tile is, and drop the rest
        host = box_walk(box, box, order)
    who = f"{program.located(out_name)} (the GLB output)"
    blocks = None
    if not lanes_consecutive(loops, op.store.index, layout(box, order)):  # an entry per block (rows, x and y)
        from .glb_blocks import block_output
        blocks = block_output(loops, op.store.index, box, mems, g.mem_grid)
    if blocks is None:
        check_output_lanes(loops, op.store.index, layout(box, order), who)
        grouped = any(lp.unrolled for lp in loops)
        array = lane_words(tiled(inner, shifts, list(g.mem_grid)), k, grouped, who)
        # Over several memory tiles the host reads back in the order the array writes, memory tile by memory
        # tile (the host's DMA writes each word at its own address): the read-back follows the array a few cycles
        # behind, where rows across memory tiles would wait for the last memory tile of each band.
        host = array if len(mems) > 1 else lane_words(host, k, host_grouped, who, host=True)
    else:
        (host, array, block), order = blocks, ()
    buffers.append(replace(_buffer(out_name, "output", out_name, nest.output, g.output_type.bits(), box, k, host,
                                   array, order), block=block if blocks else ()))
    double, banks = place(buffers, glb_words, glb_banks, g.who, glb_lanes)
    bank_words = max(1, glb_words // glb_banks)
    copies = 2 if double else 1
    buffers = [_with_copies(b, copies, bank_count(b, bank_words, glb_lanes)) for b in buffers]
    tiles = tuple(tuple((lo, hi - lo + 1) for lo, hi in t.output_box) for t in program.tiles)
    return GlbPlan(tuple(buffers), tiles, len(mems), double, sum(b.words * copies for b in buffers), banks,
                   bank_words)


def written_box(loops: Sequence[Loop], op: Op, mems: Sequence[Tile]) -> Box:
    """The box of what `op` stores over `loops` in every memory tile `mems` of a GLB tile: the array output's
    words in the GLB. Halide's bounds can reach further (a RoundUp memory tile over a region that ShiftInwards
    tiles), but the array writes only these."""
    from mainspring.hwlower.ir import store_order

    at = store_order(loops, op)
    lo, hi = at.min(axis=0), at.max(axis=0)
    shifts = [np.array([a for a, _ in m.output_box]) - np.array([a for a, _ in mems[0].output_box]) for m in mems]
    return [(int(lo[d] + min(s[d] for s in shifts)), int(hi[d] + max(s[d] for s in shifts))) for d in range(len(lo))]


def _glb_of(program: HwProgram) -> GlbProgram:
    """The GLB level of a program that has one (the caller plans a GLB only when `program.glb` is set)."""
    assert program.glb is not None, "the program has no GLB level"
    return program.glb


def _buffer(name: str, role: str, host_stream: str, array_stream: str, bits: int, box: Box, lanes: int,
            host: GlbController, array: GlbController, order: tuple[int, ...] = ()) -> GlbBuffer:
    ext = tuple((lo, hi - lo + 1) for lo, hi in box)
    words = 1
    for _, e in ext:
        words *= e
    if role == "input":
        array, wait = pace(array, host)
    else:
        host, wait = pace(host, array)
    return GlbBuffer(name, role, host_stream, array_stream, bits, lanes, ext, words, 1, 0, host, array, wait, order)


def write_steps(writer: GlbController) -> np.ndarray:
    """Per entry of a tile, the writer's step that writes it (-1: never written); each entry at most once.
    Skipped steps count as steps (they take their cycle) but write nothing."""
    at = addresses(writer)
    steps = np.flatnonzero(kept(writer))
    # (counting, not np.unique's sort: this runs on every GLB tile's writer, 0.3 s at 1080p)
    assert np.bincount(at[steps]).max(initial=0) <= 1, "a GLB writer writes an entry twice in one tile"
    step = np.full(int(at.max()) + 1, -1, dtype=np.int64)
    step[at[steps]] = steps
    return step


def pace(reader: GlbController, writer: GlbController) -> tuple[GlbController, GlbController]:
    """How a reader follows the writer through one tile of a GLB copy: the reader's controller (the same order,
    its dimensions split where needed) and its wait controller over those dimensions, per read the writer's step
    that writes the entry read. When that is not affine in at most MAX_DIM dimensions, every read waits for the
    writer's last step (the whole tile)."""
    step = write_steps(writer)
    at = addresses(reader)
    assert at.max() < len(step) and (step[at] >= 0).all(), "a GLB reader reads an entry its writer never writes"
    need = step[at]
    fit = _affine_fit(reader, need)
    if fit is not None:
        return fit
    if writer.transfers == reader.transfers and (need <= np.arange(len(need))).all():
        # The writer never falls behind a read's own index (a host loading in the array's order, skipping
        # what earlier memory tiles read): read n waits for the writer's step n, since reads go in order.
        return reader, GlbController(reader.extent, 0, reader.cycle_stride)
    return reader, GlbController(reader.extent, writer.transfers - 1, (0,) * len(reader.extent))


def _affine_fit(c: GlbController, values: np.ndarray) -> tuple[GlbController, GlbController] | None:
    """`c` with its dimensions split so that `values` (one per step of c) is affine in them as well, and the
    controller over those dimensions that gives `values`; None when the greedy splits find none."""
    dims = []  # (extent, address stride, value stride), innermost first
    block = 1  # steps per step of the next dimension
    for e, s in zip(c.extent, c.data_stride):
        if e == 1:
            dims.append((1, s, 0))
            continue
        inner = 1
        while inner < e:
            rest = e // inner
            starts = values[::block][:rest]  # this dimension's next steps, every outer one at its first
            d = np.diff(starts)
            run = len(d) if (d == d[0]).all() else int(np.argmax(d != d[0]))
            g = max(k for k in range(1, run + 2) if rest % k == 0)
            if g == 1:
                return None
            dims.append((g, s * inner, int(d[0])))
            block *= g
            inner *= g
    if len(dims) > MAX_DIM:
        return None
    extent = tuple(g for g, _, _ in dims)
    reader = GlbController(extent, c.data_start, tuple(a for _, a, _ in dims))
    wait = GlbController(extent, int(values[0]), tuple(v for _, _, v in dims))
    if not (np.array_equal(addresses(wait), values) and np.array_equal(addresses(reader), addresses(c))):
        return None
    return reader, wait


def in_array_order(array: GlbController, entries: int) -> GlbController | None:
    """A host controller that loads a GLB input tile of `entries` entries in the order the array reads it over
    its memory tiles, skipping each entry an earlier memory tile already read (its halo), so every entry is
    loaded once, just before the array first needs it; None when the skips are not the rules `skip_rules`
    finds (then the host loads in box order)."""
    at = addresses(array)
    first = np.zeros(len(at), dtype=bool)
    first[np.unique(at, return_index=True)[1]] = True
    if int(first.sum()) != entries or at.min() != 0 or at.max() != entries - 1:
        return None  # the memory tiles do not read the whole tile: keep the plain load
    if first.all():  # memory tiles that do not overlap: the array's own order, nothing to skip
        return array
    rules = skip_rules(array)
    host = GlbController(array.extent, array.data_start, array.data_stride, rules)
    if not rules or len(rules) > MAX_DIM or not np.array_equal(kept(host), first):
        return None
    return host


def skip_rules(c: GlbController) -> tuple[tuple[int, int, int], ...]:
    """The skips of a controller that walks overlapping memory tiles one after the other: a grid dimension g
    whose stride is q steps of an inner dimension d of extent e > q (tiles q apart, e long) overlaps the tile
    before it on the first e - q indices of d. For a grid walked in order (any dimension's earlier tiles come
    first), an entry was read by an earlier memory tile exactly when one such rule holds."""
    rules = []
    for g, (eg, sg) in enumerate(zip(c.extent, c.data_stride)):
        for d, (ed, sd) in enumerate(zip(c.extent, c.data_stride)):
            if g == d or eg < 2 or ed < 2 or sd <= 0 or sg <= 0 or sg % sd:
                continue
            q = sg // sd
            if q < ed:
                rules.append((d, g, ed - q))
    return tuple(rules)


def kept(c: GlbController) -> np.ndarray:
    """Per step of `c`, in order, whether it moves a word (not skipped)."""
    keep = np.ones(c.transfers, dtype=bool)
    if not c.skip:
        return keep
    steps = np.arange(c.transfers, dtype=np.int64)
    index, run = [], 1
    for e in c.extent:
        index.append(steps // run % e)
        run *= e
    for d, g, below in c.skip:
        keep &= ~((index[g] > 0) & (index[d] < below))
    return keep


def check_pacing(b: GlbBuffer) -> None:
    """No read of buffer `b` can take an entry before its writer has written it in the same tile, as the RTL
    paces reads (`GlbBuffer.wait`): read n goes once the writer has made step wait[n] in an earlier cycle, the
    tile's last read once the writer has made its last step; the writer starts a tile in a copy only after the
    reader has finished the copy's previous tile (so no entry is overwritten before it is read)."""
    step = write_steps(b.writer)
    at = addresses(b.reader)
    wait = addresses(b.wait)
    who = f"GLB {b.name} ({'host -> array' if b.role == 'input' else 'array -> host'})"
    assert len(wait) == len(at) == b.reader.transfers, f"{who}: the wait controller is not over the reader's steps"
    assert at.max() < len(step), f"{who}: the reader reads past what the writer writes"
    when = step[at]
    assert (when >= 0).all(), f"{who}: the reader reads entry {int(at[np.argmax(when < 0)])}, which is never written"
    assert wait.min() >= 0 and wait.max() < b.writer.transfers, f"{who}: a wait beyond the writer's steps"
    early = np.flatnonzero(wait[:-1] < when[:-1])
    assert not len(early), (f"{who}: read {int(early[0])} of a tile takes entry {int(at[early[0]])} after the "
                            f"writer's step {int(wait[early[0]])}, but step {int(when[early[0]])} writes it")


def lane_words(c: GlbController, k: int, grouped: bool, who: str, host: bool = False) -> GlbController:
    """`c` (in words) over a GLB that stores k words per entry, moving one entry per transfer. `grouped`: each
    step of c already moves k consecutive words (the unrolled lanes of an op); otherwise its innermost loop
    must run along x, and k of its steps become one transfer; or, for the `host`, its loop along x anywhere."""
    if k == 1:
        return c
    ext, stride = list(c.extent), list(c.data_stride)
    while not grouped and ext[0] < k and len(ext) > 1 and stride[0] == 1 and stride[1] == ext[0]:
        # a transfer spans several dimensions (3 channels whole and 3 pixels of x): one run of words
        ext[:2], stride[:2] = [ext[0] * ext[1]], [1]
    if not grouped and host and stride[0] != 1 and 1 in stride and ext[stride.index(1)] % k == 0:
        # the host walks the tile along another dimension first (hw_output.in_().reorder(yi, xi)): its DMA writes
        # each word at its own address, so it reads whole entries (k words of x) in its order of entries: x's loop
        # steps by entries where it stands, the others unchanged (what the host reads back is the same tile)
        j = stride.index(1)
        ext[j], stride[j] = ext[j] // k, k
    elif not grouped:
        if stride[0] != 1:
            raise ScheduleError(
                f"{who}: transfers of {k} lanes move {k} consecutive words of x, but the tile is walked along "
                f"another dimension first (its innermost loop runs over {ext[0]} words with stride {stride[0]}); "
                "keep x innermost in its loops (drop the reorder that moves x out), or use one lane"
            )
        # Whole transfers and entries by construction: a stream's k lanes are an unroll of x by k, which a
        # tail rounds up (RoundUp) or which divides x (Auto, else refused in hwlower), so every box along x is a
        # multiple of k, and memory tiles are whole lanes (hwlower/region.py memory_tiles_in_whole_lanes), so each
        # starts at a multiple of k; a read-back whose rows end inside a transfer (an image narrower than its
        # memory tile's lanes) reads the whole rows instead (plan_glb). No schedule reached these (session 33:
        # 4,000 GLB configurations of 2 to 4 lanes, memory tiles 3 to 8 wide, GLB tiles 5 to 16, offset, strided
        # and upsampled taps, shifted last tiles).
        assert ext[0] % k == 0, f"{who}: {k} lanes over an innermost loop of {ext[0]} words"
        ext[0], stride[0] = ext[0] // k, k
    # a loop of one iteration moves nowhere (the outer half of an unroll as wide as its tile): its stride is moot
    stride = [0 if e == 1 else s for e, s in zip(ext, stride)]
    assert c.data_start % k == 0 and all(s % k == 0 for s in stride), \
        f"{who}: {k} lanes per entry, starts {c.data_start}, strides {list(c.data_stride)}"
    return GlbController(tuple(ext), c.data_start // k, tuple(s // k for s in stride))


def _with_copies(b: GlbBuffer, copies: int, banks: int) -> GlbBuffer:
    return replace(b, copies=copies, banks=banks)


def addresses(c: GlbController) -> np.ndarray:
    """Every address `c` visits, in order (numpy)."""

    idx = np.zeros(1, dtype=np.int64)
    for e, s in zip(c.extent, c.data_stride):  # innermost first: later dims vary slowest
        idx = (np.arange(e, dtype=np.int64)[:, None] * s + idx[None, :]).ravel()
    return idx + c.data_start


def transfer_coords(c: GlbController, b: GlbBuffer) -> np.ndarray:
    """The coordinates of the words `c` moves through buffer `b`, in order (numpy, one row per word)."""

    lo = np.array([m for m, _ in b.box])
    ext = np.array([e for _, e in b.box])
    entry = addresses(c)[kept(c)]
    if b.block:
        from .glb_blocks import block_coords
        return block_coords(entry, b.block, b.box)
    if b.lane_dim:
        from .glb_rows import row_coords
        return row_coords(entry, b.lanes, b.box)
    words = (entry[:, None] * b.lanes + np.arange(b.lanes)[None, :]).ravel()
    out = [words] * len(ext)
    for d in b.order or range(len(ext)):
        out[d] = words % ext[d]
        words = words // ext[d]
    return np.stack(out, axis=1) + lo
