"""The hwlower driver: a scheduled pipeline to the hardware program (`program.HwProgram`), pass by named pass.

    region      find the accelerated region; check where the schedule places each Func   (region.py)
                a float hl.Buffer read cast to an integer inside it: a table of integers (cast_tables.py)
                an hl.Buffer read directly inside it, read through a table Func         (buffer_tables.py)
    inline_reads  a read of an inline Func at non-affine or loaded coordinates, its value substituted
                                                                                         (inline_reads.py)
    periodic    a read at a remainder of a quotient of the loops (y + (x / 4) % 2), a select of the
                reads at each of its values                                              (periodic_reads.py)
    gathers     a read at a loaded offset of few values (x + (d(x, y) >> 6)), a select of the reads at
                each of its values                                                       (bounded_gathers.py)
    indices     a read at an index that multiplies or divides loop variables, through a clamped
                Func that computes the index (a RAM lookup)                              (index_funcs.py)
    divided     a serial reduction's quotients read through a buffered Func that divides (divided_reads.py)
    ram_copies  a Func read at computed coordinates that cannot be a RAM, read through a copy  (ram_copies.py)
    lookups     a Func's second and later RAM reads at computed coordinates, Funcs of their own (ram_lookups.py)
    bounds      every Func's box over the whole output                                  (bounds.py)
    tiles       the host's invocations, and the GLB level's memory tiles                 (tiling.py)
    tables      constant tables, as the reference computes them                         (tables.py)
    inline      the buffered Funcs' definitions with inline Funcs substituted           (inline.py)
    scatter     updates at computed coordinates: compare-and-update lanes, or a RAM    (scatter.py)
    edges       boundary conditions on inputs: their streams extended                   (edges.py)
                and, in host tiles, a stream (or buffer) per rate a Func is read at      (rate_streams.py)
    ops         the loop nest of ops with affine loads and stores                       (ops.py)
    streams     each input's buffer in the order the host streams it                    (stream_order.py)
    lanes       words per transfer of every stream, rates checked                       (streams.py)
    reorder     updates take each element's reduction steps in a row                    (reorder.py)
    order       pure stages run in their producers' order                               (producer_order.py)
    scans       a scan's pure definition and its update as one op, when the update overwrites
                the pure values unread                                                  (scans.py)
    lower       the self-contained program, names resolved                              (assemble.py)

`lower(pipe, name, dump_after=STEP)` prints the state after a step; the program is verified after every step
that changes the loop nest.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TextIO

from mainspring.frontend.pipeline import Pipeline

from .assemble import make_program
from .bounded_gathers import select_bounded_gathers
from .bounds import format_bounds, infer_bounds
from .divided_reads import buffer_divided_reads
from .edges import format_edges, replicate_edges
from .index_funcs import compute_indices
from .inline import format_definitions, inline_funcs
from .inline_reads import inline_offending_reads
from .lane_constants import hold_lane_constants
from .ops import build_ops
from .periodic_reads import select_periodic_reads
from .printer import format_nest, format_program
from .producer_order import follow_producers
from .program import HwProgram
from .ram_copies import copy_tables_to_rams
from .ram_lookups import split_lookups
from .region import format_region, locate_region
from .reorder import reduce_in_place
from .scans import merge_scans
from .scatter import scatter_writes
from .shared_coords import share_coordinates
from .state import Lowering
from .stream_order import order_streams
from .streams import assign_lanes
from .tables import evaluate_tables, format_tables
from .tiling import format_tiles, tile_invocations
from .verify import verify_nest, verify_program

# (step, pass, printer of the state after it, verifier of the state after it)
PASSES: tuple[tuple[str, Callable[[Lowering], Lowering], Callable[[Lowering], str],
                     Callable[[Lowering], None] | None], ...] = (
    ("region", locate_region, format_region, None),
    ("inline_reads", inline_offending_reads, format_region, None),
    ("periodic", select_periodic_reads, format_region, None),
    ("gathers", select_bounded_gathers, format_region, None),
    ("indices", compute_indices, format_region, None),
    ("divided", buffer_divided_reads, format_region, None),
    ("ram_copies", copy_tables_to_rams, format_region, None),
    ("lookups", split_lookups, format_region, None),
    ("bounds", infer_bounds, format_bounds, None),
    ("tiles", tile_invocations, format_tiles, None),
    ("tables", evaluate_tables, format_tables, None),
    ("inline", inline_funcs, format_definitions, None),
    ("scatter", scatter_writes, format_definitions, None),
    ("edges", replicate_edges, format_edges, None),
    ("ops", build_ops, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("streams", order_streams, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("lanes", assign_lanes, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("reorder", reduce_in_place, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("order", follow_producers, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("scans", merge_scans, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("lane_constants", hold_lane_constants, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("shared_coords", share_coordinates, lambda s: format_nest(s.built_nest), lambda s: verify_nest(s.built_nest)),
    ("lower", make_program, lambda s: format_program(s.made_program), lambda s: verify_program(s.made_program)),
)
STEP_NAMES = tuple(name for name, _, _, _ in PASSES)


def lower(pipe: Pipeline, name: str, dump: Callable[[str, Callable[[], str]], None] | None = None) -> HwProgram:
    """The hardware program of the accelerated region of `pipe`. `dump(step, text)` is called after each
    step (`--dump-after STEP`)."""
    s = Lowering(pipe, name)
    for step, run, show, verify in PASSES:
        s = run(s)
        if verify is not None:
            verify(s)
        if dump is not None:
            dump(step, functools.partial(show, s))
    return s.made_program


def dump_to(stream: TextIO | None = None) -> Callable[[str, Callable[[], str]], None]:
    """A `dump` that prints every step (for debugging: `lower(pipe, name, dump_to())`)."""
    def dump(step: str, text: Callable[[], str]) -> None:
        print(f"// after {step}\n{text()}", file=stream or sys.stderr)

    return dump
