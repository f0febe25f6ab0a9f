"""What a fuzz case is (`Stage`, `Case`) and the kinds drawn after the base pipeline (`mainspring fuzz`): each
modifier is drawn last, so that the cases of every seed drawn before it stay as they were."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Stage:
    name: str
    kind: str  # "stencil", "pointwise" or "reduce"
    taps: tuple[tuple[int, int, int], ...]  # (source: -1 hw_input, else a stage index; dx; dy)
    ops: tuple[str, ...]  # how the taps combine, left to right (stencil); the op and constant (pointwise)
    const: int = 1
    extent: tuple[int, int] = (1, 1)  # reduce: the RDom
    unrolled: bool = True  # reduce: the reduction unrolled (one op) or serial
    inline: bool = False
    where: int = -1  # reduce: RDom.where(r.x + r.y != where) skips a diagonal of the window; -1 for none
    # reduce: r.x split by 2 (3 steps: Halide's guarded tail), "serial" (both loops) or "inner" (the inner loop
    # unrolled: trees of 2 points in a serial loop); "" for none
    split: str = ""
    divided: int = 1  # reduce (serial): the source read at ((x + r.x) / divided, (y + r.y) / divided)
    rfactor: bool = False  # reduce: `update().rfactor(r.y, v)`, the partial results computed at the stage's x
    # rfactor's form (`rfactor_lines`): "" as above; "split": r.x split in two parts (by 1 over 2 taps, by 2 over 3:
    # Halide's guarded tail), the outer one preserved; "first": the stage's reorder and unrolls before it; "pure": a
    # split of the pure Var x before it, the partial results buffered at the accelerator's loop
    rfactor_form: str = ""
    by: tuple[int, int] = (2, 2)  # up: the divisors of x and y (2, 3 or 4 along x; 1 along y: not divided)
    narrow: str = ""  # the stage's value cast through this 8-bit type ("u8", "i8") and back (fuzz_wide.py)
    param: bool = False  # the stage's value plus the scalar Param `k` (fuzz_wide.py)
    bounded: bool = False  # an explicit bound(x, 0, 2 * w + 12).bound(y, 0, 2 * h + 12) (fuzz_wide.py)
    at: str = ""  # compute_at: "" the accelerator's xo, "yi" its row loop, or a consumer stage's name (its y)
    partial: str = ""  # reduce (serial): the one RVar unrolled ("x" or "y"), the other serial (fuzz_outputs.py)
    # a Tuple stage: the value and, of this type, its half (`(v, hl.u8(v >> 1))`), its readers reading the sum of
    # both elements (fuzz_outputs.py); "" for one value
    pair: str = ""


@dataclass(frozen=True)
class Case:
    seed: int
    in_type: str
    work: str
    stages: tuple[Stage, ...]
    width: int
    height: int
    tile: tuple[int, int] | None = None  # the host tile (the accelerator runs once per tile)
    lanes: int = 1
    stalls: float = 0.2
    # A scatter case: the output is a table of `bins` elements that the last stage's pixels update at a computed
    # coordinate (`hist(clamp(v, 0, bins - 1)) op= ...`, `scatter` the op: "count", "max" or "sum"), not an image.
    bins: int = 0
    # A scatter case whose output is an image again: each pixel of the last stage plus the table's element at
    # that pixel's bin, read after the last update (a RAM read at computed coordinates: back-projection).
    lookup: bool = False
    # With `lookup`: 2 reads the table at the pixel's mirrored bin too (two computed coordinates in one op, which
    # hwlower/ram_lookups.py splits)
    lookups: int = 1
    scatter: str = "count"
    # A variant of the schedule: "store_at" (stages stored at the accelerator's loop too), "column_major" (the output
    # streams y fastest), "accelerator_input" (the input marked with accelerator_input()) or "glb" (seed 002's three
    # levels: host tiles through the GLB); "" for none.
    variant: str = ""
    # Channels: a 3-D input whose copy hw_input(c, x, y) streams its channels whole in each transfer (c unrolled),
    # every tap of hw_input reading one of them; 0 for a 2-D input.
    channels: int = 0
    # A boundary condition on the stages (computed inside the accelerator): every tap of a stage by a stencil,
    # pointwise, table or coordinate stage reads it through this ("clamp", "repeat_edge", "constant_exterior",
    # "mirror_image", "mirror_interior") over the output's size, at offsets from -1; "" for none.
    edges: str = ""
    # Mixed lanes: each buffered stage's and the output's own unroll of x, (Func, lanes) with lanes 1 or `lanes`,
    # the input streaming one word per transfer; () for `lanes` everywhere.
    mixed: tuple[tuple[str, int], ...] = ()
    # The tail strategy of every unroll by the case's lanes: "RoundUp" (every stage computes whole transfers, and
    # reads what they need), or Halide's "Auto", "ShiftInwards" or "GuardWithIf" (inside the accelerator the loop
    # rounds up too, but the extra iterations' reads are guarded: hwlower/shift_tails.py).
    tail: str = "RoundUp"
    # With the "glb" variant, the memory tile inside each GLB tile (`tile`, or the frame); None for the GLB tile.
    mem_tile: tuple[int, int] | None = None
    # A RAM's extras (more than 64 bins): its elements starting at a table ("coords": a function of b, "table": a
    # constant Func's values), a second update after the scatter ("scatter": at the last stage's first row, read
    # backwards, over an RDom of its own; "pure": every element in turn), the scatter's r.x unrolled (run serially)
    ram_init: str = ""  # a RAM's start: "", "coords", "table", "divided" (the last stage's first row at b % 4)
    ram_next: str = ""
    ram_unroll: bool = False
    # fuzz_wide.py's draws: the output's inner loops ("unroll_y": two rows per transfer, the buffered stages
    # unrolled along y too; "split_yi": yi split by 2; "strips": yi split by 2 with the two rows innermost), the
    # stages stored at the root ("root") or at the host's yo ("yo"), an explicit bound on hw_output, a second input
    # image of type `second` (its own copy streamed) read by the output, the scalar Param's value (0 for none).
    loops: str = ""
    store: str = ""
    bound: bool = False
    second: str = ""  # the second image's type ("" for none)
    param: int = 0
    # fuzz_blocks.py's draws (session 38): the input streamed in 2 x 2 blocks, each reader's unrolls by 2 ((Func,
    # "xy", "x", "y" or ""), () for none); under the GLB level the array output's rows unrolled ("r", with "c" the
    # GLB copy too, "s" the buffered stages, "i" the input's copies two rows per transfer); the output's loops fused
    # and split at the accelerator by this factor (0: its tile); the output bounded by bound_extent alone.
    blocks: tuple[tuple[str, str], ...] = ()
    glb_rows: str = ""
    fused: int = 0
    bound_extent: bool = False
    # fuzz_outputs.py's draws (session 39): two outputs, `output` (the image as before) and `output2` (a u8
    # gradient of the last stage), from one accelerated Tuple Func ("tuple") or from a second copy Func computed
    # with the first (`compute_with(hw_output, xo)`: "compute_with"); "" for one output.
    outputs: str = ""
    # ... and under seed 002's GLB level: "n" no GLB copy of hw_input (the host loads it into the GLB as it is),
    # "y" the GLB output read back along y first (`reorder(yi, xi)`), "w" the buffered stages stored at the memory
    # tile and computed at its rows (`store_at(hw_output, xio).compute_at(hw_output, yii)`: sliding windows), "c"
    # (with "w") the input's memory-tile copy too
    glb_more: str = ""
    # ... and in one accelerator level: every buffered stage stored at the accelerator's tile and computed at its
    # rows (`store_at(hw_output, xo).compute_at(hw_output, yi)`: sliding windows)
    sliding: bool = False

    def lanes_of(self, name: str) -> int:
        """The unroll of x of Func `name` ("hw_input", "hw_output" or a stage)."""
        if not self.mixed:
            return self.lanes
        return 1 if name == "hw_input" else dict(self.mixed).get(name, self.lanes)


def with_mixed_lanes(rng: random.Random, case: Case) -> Case:
    """One multi-lane case in three unrolls each stage and the output by `lanes` or not at all (drawn last, so the
    other cases stay as they were), the input at one word per transfer: Halide accepts any mix; consumers that
    read more than their producers make are paced, producers with more lanes than their readers take narrowed."""
    if case.lanes == 1 or case.variant == "glb" or case.channels or case.bins or rng.random() >= 1 / 3:
        return case
    names = [st.name for st in case.stages if not st.inline] + ["hw_output"]
    return dataclasses.replace(case, mixed=tuple((n, rng.choice((1, case.lanes))) for n in names))


def with_tails(rng: random.Random, case: Case) -> Case:
    """One multi-lane case in three without a GLB level unrolls with Halide's other tails (drawn last, so the
    other cases stay as they were)."""
    if case.lanes == 1 or case.variant == "glb" or rng.random() >= 1 / 3:
        return case
    return dataclasses.replace(case, tail=rng.choice(("Auto", "ShiftInwards", "GuardWithIf")))


def with_reduction_splits(rng: random.Random, case: Case) -> Case:
    """One case in three at one lane without a GLB level splits its reductions of 2 or 3 steps along x by 2
    (drawn last, so the other cases stay as they were): over 3, Halide guards the tail, and hardware rounds up
    (hwlower/rvar_tails.py)."""
    if case.lanes != 1 or case.mixed or case.variant == "glb" or rng.random() >= 1 / 3:
        return case
    stages = tuple(dataclasses.replace(st, split=rng.choice(("serial", "inner")))
                   if st.kind == "reduce" and st.extent[0] > 1 else st for st in case.stages)
    return dataclasses.replace(case, stages=stages)


def with_coordinate_tiles(rng: random.Random, case: Case) -> Case:
    """One case in three whose stages read coordinates as values, read through a boundary condition, or upsample,
    runs in host tiles of any size (drawn last, so the other cases stay as they were): the hardware counts its
    tiles (a GLB level's too) and adds each one's offset (hwlower/tile_coordinates.py), to the coordinates that
    choose edge taps too (hwlower/edge_taps.py; under a GLB level these are GLB tiles, each run of the array over
    a memory tile counted). Over an upsample, a tile at another phase than the first computes from the first
    tile's phase (hwlower/tiling.py `_at_first_phase`)."""
    if case.tile is not None or case.bins \
            or (all(st.kind not in ("coord", "up") for st in case.stages) and not case.edges) or rng.random() >= 1 / 3:
        return case
    return dataclasses.replace(case, tile=(rng.randint(2, case.width), rng.randint(1, case.height)))


def with_memory_tiles(rng: random.Random, case: Case) -> Case:
    """One GLB case in two runs its array over memory tiles smaller than the GLB tile (drawn last, so the other
    cases stay as they were); those that do not divide it round up (hwlower/tiling.py)."""
    if case.variant != "glb" or rng.random() >= 1 / 2:
        return case
    tx, ty = case.tile or (case.width, case.height)
    return dataclasses.replace(case, mem_tile=(rng.randint(1, tx), rng.randint(1, ty)))


def with_glb_edges(rng: random.Random, case: Case) -> Case:
    """One case in two reading its stages through a boundary condition, and with nothing seed 002's GLB variant
    leaves out (lanes, channels, a scatter, a resampled stage, another variant, a split reduction), runs through
    the GLB level (drawn last, so the other cases stay as they were): its host tile, if any, is the GLB tile, and
    memory tiles are drawn as `with_memory_tiles` draws them (edge taps over every memory tile of each GLB tile,
    hwlower/edge_taps.py)."""
    plain = (case.lanes == 1 and not case.bins and not case.channels and case.variant == ""
             and all(st.kind not in ("down", "up") and not st.split for st in case.stages))
    if not case.edges or not plain or rng.random() >= 1 / 2:
        return case
    return with_memory_tiles(rng, dataclasses.replace(case, variant="glb"))


def with_glb_lanes(rng: random.Random, case: Case) -> Case:
    """One GLB case in three unrolls everything by 2 or 3 lanes with RoundUp tails (drawn last, so the other cases
    stay as they were): the GLB output's tile, the array output's memory tile, the buffered stages (pure and
    update) and both input copies. Memory tiles of any width: those the lanes round up past compute whole lanes
    (hwlower/region.py `memory_tiles_in_whole_lanes`). Not over serial reductions (as `generate` draws lanes)."""
    if case.variant != "glb" or any(st.kind == "reduce" and not st.unrolled for st in case.stages) \
            or rng.random() >= 1 / 3:
        return case
    return dataclasses.replace(case, lanes=rng.choice((2, 3)))


_EDGES = ("clamp", "repeat_edge", "constant_exterior", "mirror_image", "mirror_interior")


def with_edges(rng: random.Random, case: Case) -> Case:
    """One case in six reads its stages through a boundary condition (drawn last, so the other cases stay as they
    were), in one accelerator tile (with_coordinate_tiles draws host tiles, or GLB tiles, for some)."""
    if rng.random() >= 1 / 6 or not any(t[0] >= 0 for st in case.stages for t in st.taps):
        return case
    return dataclasses.replace(case, edges=rng.choice(_EDGES), tile=None)


def with_channels(rng: random.Random, case: Case) -> Case:
    """One case in six reads a 3-D input of 2 or 3 channels streamed whole per transfer (drawn last, so the other
    cases stay as they were), with the case's lanes along x (channels times lanes words per transfer), no GLB."""
    if rng.random() >= 1 / 6:
        return case
    variant = "" if case.variant == "glb" else case.variant
    return dataclasses.replace(case, channels=rng.choice((2, 3)), variant=variant)


def with_variant(rng: random.Random, case: Case) -> Case:
    """One case in four gets a schedule variant (drawn last, so the other cases stay as they were)."""
    if rng.random() >= 0.25:
        return case
    plain = case.lanes == 1 and not case.bins
    options = ["store_at", "accelerator_input"] + (["column_major"] if plain else [])
    # seed 002's GLB level, for single-rate pipelines
    if plain and all(st.kind not in ("down", "up") for st in case.stages):
        options.append("glb")
    return dataclasses.replace(case, variant=rng.choice(options))


def resampled(rng: random.Random, case: Case) -> Case:
    """One case in six has a stage turned into a 2x downsample or upsample of its first tap's source (drawn last,
    so the other cases stay as they were): a multi-rate pipeline, one accelerator tile, one lane; an upsample
    needs even extents (steps of 2)."""
    if rng.random() >= 1 / 6:
        return case
    k = rng.randrange(len(case.stages))
    old = case.stages[k]
    kind = rng.choice(("down", "up"))
    if case.bins:  # a reduction's loop reading an upsample at r / 2 is refused (README: its RDom is not strip-mined)
        kind = "down"
    stages = list(case.stages)
    stages[k] = Stage(old.name, kind, ((old.taps[0][0], 0, 0),), (kind,), inline=rng.random() < 0.25)
    width, height = case.width, case.height
    if kind == "up":
        width, height = width + width % 2, height + height % 2
    return dataclasses.replace(case, stages=tuple(stages), width=width, height=height, tile=None, lanes=1)


INTRINSICS = ("saturating_add", "saturating_sub", "halving_add", "halving_sub", "rounding_halving_add", "lerp")


def with_intrinsics(rng: random.Random, case: Case) -> Case:
    """One case in five combines its stencils' taps with Halide's intrinsics instead of plain operators (drawn
    last, as above); lerp (a weight from the second tap) only below 32 bits, where it needs no 64-bit type."""
    if rng.random() >= 1 / 5:
        return case
    kinds = INTRINSICS if case.work not in ("u32", "i32") else INTRINSICS[:-1]
    stages = tuple(dataclasses.replace(s, ops=tuple(rng.choice(kinds) for _ in s.ops)) if s.kind == "stencil" else s
                   for s in case.stages)
    return dataclasses.replace(case, stages=stages)


def with_predicates(rng: random.Random, case: Case) -> Case:
    """One reduction in three skips a diagonal of its window (RDom.where); one upsampled case in two keeps an odd
    width (its output loop rounds up to whole steps). Drawn last, as above."""
    stages = tuple(dataclasses.replace(s, where=rng.randint(0, s.extent[0] + s.extent[1] - 2))
                   if s.kind == "reduce" and rng.random() < 1 / 3 else s for s in case.stages)
    case = dataclasses.replace(case, stages=stages)
    if any(s.kind == "up" for s in stages) and case.width > 3 and rng.random() < 1 / 2:
        case = dataclasses.replace(case, width=case.width - 1)
    return case


def with_ram(rng: random.Random, case: Case) -> Case:
    """A RAM case (more than 64 bins) starts at a table in two of three, has a second update in two of three and
    its scatter unrolled in one of three (drawn last, as above)."""
    if case.bins <= 64:
        return case
    return dataclasses.replace(case, ram_init=rng.choice(("", "coords", "table")),
                               ram_next=rng.choice(("", "scatter", "pure")), ram_unroll=rng.random() < 1 / 3)


def with_divided_taps(rng: random.Random, case: Case) -> Case:
    """One case in six with a serial reduction reads its source at ((x + r.x) / d, (y + r.y) / d), d 2 or 3 (a
    transposed convolution's serial taps: hwlower/divided_reads.py), drawn last, as above."""
    serial = [k for k, s in enumerate(case.stages) if s.kind == "reduce" and not s.unrolled]
    if not serial or rng.random() >= 1 / 6:
        return case
    stages = list(case.stages)
    k = rng.choice(serial)
    stages[k] = dataclasses.replace(stages[k], divided=rng.choice((2, 3)))
    return dataclasses.replace(case, stages=tuple(stages))


def with_divided_start(rng: random.Random, case: Case) -> Case:
    """One RAM case in three starts at the last stage's first row read at b % 4 (its first pass runs b in steps of 4,
    hwlower/scatter.py; 100 and 256 bins are whole steps), drawn last, as above. A table read back at each
    pixel's bin (once refused: fuzz 9153726) draws from a copy of the generator, so that the draws after it
    stay those of the sessions before."""
    if case.bins <= 64:
        return case
    if case.lookup:
        rng, state = random.Random(), rng.getstate()
        rng.setstate(state)
    if rng.random() >= 1 / 3:
        return case
    return dataclasses.replace(case, ram_init="divided")


def with_second_lookup(rng: random.Random, case: Case) -> Case:
    """One table read back at each pixel's bin in two reads it at the mirrored bin too, drawn from a copy of the
    generator (session 24), so that the draws after it stay those of the sessions before."""
    if not case.lookup:
        return case
    copy = random.Random()
    copy.setstate(rng.getstate())
    copy.random()  # (not the next draw's own value: the copy's second)
    return dataclasses.replace(case, lookups=2) if copy.random() < 1 / 2 else case


def with_rfactor(rng: random.Random, case: Case) -> Case:
    """One case in two with a reduction over more than one row, one lane, not split nor divided, splits it with
    rfactor(r.y, v) (frontend/rfactor.py: partial results over v, unrolled as the reduction is), drawn last, as
    above; one such case in two in another form (`Stage.rfactor_form`, as tests/flow/test_flow_rfactor.py
    schedules them): a split of r.x whose outer part is preserved (two parts; a tail guarded over 3 taps), or
    the stage's schedule calls before rfactor (reorder and unrolls of RVars, or a split of x)."""
    fit = [k for k, s in enumerate(case.stages) if s.kind == "reduce" and s.extent[1] > 1 and not s.split
           and s.divided == 1 and not s.inline and case.lanes_of(s.name) == 1]
    if case.variant == "glb" or not fit or rng.random() >= 1 / 2:
        return case
    stages = list(case.stages)
    k = rng.choice(fit)
    forms = ["first", "pure"] + (["split"] if stages[k].extent[0] > 1 and stages[k].where < 0 else [])
    form = rng.choice(forms) if rng.random() < 1 / 2 else ""
    stages[k] = dataclasses.replace(stages[k], rfactor=True, rfactor_form=form)
    return dataclasses.replace(case, stages=tuple(stages))


def rfactor_lines(s: Stage) -> list[str]:
    """The schedule lines of a stage `s` with rfactor (before its compute_at), in `s.rfactor_form`."""
    f, r, v = f'a["{s.name}"]', f'a["r_{s.name}"]', 'hl.Var("v")'
    if s.rfactor_form == "split":  # 2 parts: by 1 over 2 taps, by 2 over 3 (the last part guarded)
        rxo, rxi = f'hl.RVar("rxo_{s.name}")', f'hl.RVar("rxi_{s.name}")'
        lines = [f"    intm = {f}.update().split({r}.x, {rxo}, {rxi}, {s.extent[0] - 1}).rfactor({rxo}, {v})"]
        if not s.unrolled:  # rxi serial: over 3 taps its guarded tap is read under a guard (fuzz 9163400)
            return lines + [f"    intm.compute_at({f}, x).unroll({v})"]
        return lines + [f"    {f}.update().unroll({rxo})",
                        f"    intm.compute_at({f}, x).unroll({v}).update().unroll({rxi}).unroll({r}.y).unroll({v})"]
    if s.rfactor_form == "first":  # Halide carries the unroll of r.x to intm's update, of r.y to the merged one
        unroll = f".unroll({r}.x).unroll({r}.y)" if s.unrolled else f".unroll({r}.x)"
        return [f"    intm = {f}.update().reorder({r}.x, {r}.y, x, y){unroll}.rfactor({r}.y, {v})",
                f"    intm.compute_at({f}, x).unroll({v}).update().unroll({v})"]
    if s.rfactor_form == "pure":  # the merged update's x split: intm buffered at the accelerator's loop
        xo, xi = f'hl.Var("xo_{s.name}")', f'hl.Var("xi_{s.name}")'
        return [f"    intm = {f}.update().split(x, {xo}, {xi}, 2).rfactor({r}.y, {v})",
                f'    intm.compute_at(a["hw_output"], xo).unroll({v}).update().unroll({v})'
                + (f".unroll({r}.x)" if s.unrolled else ""),
                *([f"    {f}.update().unroll({r}.y)"] if s.unrolled else [])]
    # before the stage's other calls: the partial results over v = r.y, each over r.x
    unroll = f".update().unroll({r}.x).unroll({v})" if s.unrolled else ""
    return [f"    intm = {f}.update().rfactor({r}.y, {v})", f"    intm.compute_at({f}, x).unroll({v}){unroll}",
            *([f"    {f}.update().unroll({r}.y)"] if s.unrolled else [])]


def with_upsample_chains(rng: random.Random, case: Case) -> Case:
    """One case in two with an upsample that the last stage reads (or that is the last stage) and no Func read at
    two rates chains a second upsample after the last stage, along x only (drawn last, as above): x / 3 then x / 2,
    x / 2 then x / 3, x / 4 then x / 2 or x / 2 then x / 4 (hwlower/steps.py steps each resolution by its own
    divisor), in host tiles of any size in one case of two. Not with a Func read at two rates: one loop would read
    at two divisors (x / 6 beside x / 2), refused by design (catalogue read_at_two_divisors)."""
    ups = [k for k, st in enumerate(case.stages) if st.kind == "up"]
    if not ups or read_at_two_rates(case) or not _reads(case, len(case.stages) - 1, ups[0]) or rng.random() >= 1 / 2:
        return case
    first, then = rng.choice(((3, 2), (2, 3), (4, 2), (2, 4)))
    stages = list(case.stages)
    # the first inlined into the second is buffered (hwlower/region.py: one read at (x / 3) / 2 is not affine)
    stages[ups[0]] = dataclasses.replace(stages[ups[0]], by=(first, 2))
    n = len(stages)
    stages.append(Stage(f"f{n}", "up", ((n - 1, 0, 0),), ("up",), by=(then, 1)))
    tile = (rng.randint(2, case.width), rng.randint(1, case.height)) if rng.random() < 1 / 2 else None
    return dataclasses.replace(case, stages=tuple(stages), tile=tile)


def _reads(case: Case, k: int, j: int) -> bool:
    """Whether stage k is stage j or reads it (through any stages)."""
    return k == j or any(src >= 0 and _reads(case, src, j) for src, _, _ in case.stages[k].taps)


def with_glb_resampled(rng: random.Random, case: Case) -> Case:
    """One case in two with an upsample or a 2x downsample and nothing else seed 002's GLB variant leaves out
    (lanes, channels, a scatter, another variant, a split or rfactor'd reduction) runs through the GLB level (drawn
    last, as above): GLB tiles of whole steps of one of its divisors in two cases of three (not of their product
    or lcm: every tile rounds up to the first one's phase since session 17, hwlower/steps.py), of any size in the
    rest (a tile at another phase grows to the first tile's, hwlower/tiling.py), and in one case of two memory
    tiles inside them drawn alike (those not whole steps round up to them)."""
    plain = (case.lanes == 1 and not case.bins and not case.channels and case.variant == ""
             and all(not st.split and not st.rfactor for st in case.stages))
    if not plain or all(st.kind not in ("down", "up") for st in case.stages) or read_at_two_rates(case) \
            or rng.random() >= 1 / 2:
        return case
    # the divisors: an upsample's and a transposed convolution's d (fuzz 141245: tiles of 2 over x / 2 of
    # (x + r.x) / 3, refused before session 17)
    divisors = sorted({st.by[0] for st in case.stages if st.kind == "up"} | {st.divided for st in case.stages})
    step = rng.choice([d for d in divisors if d > 1] or [1])

    def extent(most: int) -> int:
        if rng.random() < 2 / 3:  # whole steps (the output itself if it is smaller than a step)
            return min(most, step * rng.randint(1, max(1, most // step)))
        return rng.randint(1, most)

    glb = (max(2, extent(case.width)), extent(case.height))
    mem = (extent(glb[0]), extent(glb[1])) if rng.random() < 1 / 2 else None
    return dataclasses.replace(case, variant="glb", tile=glb, mem_tile=mem)


def read_at_two_rates(case: Case) -> bool:
    """Whether a Func (a stage, or hw_input: -1) is read at two rates relative to the output: through a resampled
    stage and at an undivided index too (`f0[x, y] = hw_input[2 * x, 2 * y]` and `f1[x, y] = f0[x, y] + hw_input[x
    + 1, y]`). No box that only shifts holds both reads from tile to tile: host tiles over hw_input so read
    stream it once per rate (hwlower/rate_streams.py); over a stage they are refused (hwlower/tiling.py, catalogue
    read_at_two_rates_in_host_tiles)."""
    one = (Fraction(1), Fraction(1))
    rates: dict[int, set[tuple[Fraction, Fraction]]] = {len(case.stages) - 1: {one}}
    for k in range(len(case.stages) - 1, -1, -1):
        st = case.stages[k]
        scale = {"down": (Fraction(2), Fraction(2)), "up": (Fraction(1, st.by[0]), Fraction(1, st.by[1]))}.get(
            st.kind, (Fraction(1, st.divided), Fraction(1, st.divided)))
        for rx, ry in rates.get(k, set()):
            for src, _, _ in st.taps:
                rates.setdefault(src, set()).add((rx * scale[0], ry * scale[1]))
    return any(len(r) > 1 for r in rates.values())


def footer(name: str, case: Case, target: str = "") -> list[str]:
    """The end of a case's source: `build()` and a main that compiles the design `name` (for `target`, an
    expression of the source: the default CGRA if empty) and checks it."""
    to = f", target={target}" if target else ""
    return [
        "def build():",
        "    a = algorithm(mainspring)",
        "    schedule(mainspring, a)",
        '    return [a["output"], a["output2"]]' if case.outputs else '    return a["output"]',
        "",
        "",
        'if __name__ == "__main__":',
        f'    design = mainspring.compile(build(), name="{name}"{to})',
        (f'    design.check(design.example_inputs({case.seed}), simulator="icarus", bubbles={case.stalls}, '
         f'backpressure={case.stalls}, seed={case.seed})'),
        '    print("bit-exact")',
    ]
