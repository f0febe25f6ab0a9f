"""An RDom over an image's size whose image has its bounds given (frontend/bound_domains.py): within a pipeline,
every definition over it reads one bound domain with constant bounds; the bound domains are the pipeline's own,
so a process that builds many pipelines (a long fuzz run) does not keep them all."""

from __future__ import annotations

import gc

import mainspring as hl
from mainspring.frontend import ir
from mainspring.frontend.pipeline import Pipeline


def _two_sums_over_the_frame():
    """Two Funcs summing the frame over one RDom of the image's size, and a third reading both."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    inp.dim(0).set_bounds(0, 6)
    inp.dim(1).set_bounds(0, 4)
    r = hl.RDom([(0, inp.width()), (0, inp.height())], "r")
    total, peak, out = hl.Func("total"), hl.Func("peak"), hl.Func("out")
    total[()] = hl.u32(0)
    total[()] += hl.u32(inp[r.x, r.y])
    peak[()] = hl.u8(0)
    peak[()] = hl.max(peak[()], inp[r.x, r.y])
    out[x, y] = hl.u32(inp[x, y]) * hl.u32(peak[()]) + total[()]
    return out, total, peak


def _updates(pipe: Pipeline, *funcs) -> list:
    return [pipe.definitions(f.function())[1] for f in funcs]


def test_one_bound_domain_per_rdom_in_a_pipeline():
    out, total, peak = _two_sums_over_the_frame()
    pipe = Pipeline(out)
    a, b = _updates(pipe, total, peak)
    assert a.rdom is b.rdom
    assert [(lo.value, ext.value) for _, lo, ext in a.rdom.dims] == [(0, 6), (0, 4)]
    user = total.function().definitions[1].rdom
    assert a.rdom is not user and not all(isinstance(e, ir.Const) for _, lo, ext in user.dims for e in (lo, ext))


def _domains() -> int:
    gc.collect()
    return sum(isinstance(o, ir.ReductionDomain) for o in gc.get_objects())


def test_the_bound_domains_go_with_their_pipeline():
    out, total, peak = _two_sums_over_the_frame()
    assert _updates(Pipeline(out), total)[0].rdom is not _updates(Pipeline(out), total)[0].rdom
    del out, total, peak
    before = _domains()
    for _ in range(3):
        out, total, peak = _two_sums_over_the_frame()
        _updates(Pipeline(out), total, peak)
    del out, total, peak
    assert _domains() == before  # neither the user's RDoms nor their bound copies outlive the programs
