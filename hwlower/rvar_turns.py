"""Serial reduction loops over whole transfers of a stream they step across (session 40).

An update reading an accelerator input of k words per transfer along a dimension at a serial RVar loop that moves
the read by c values a step (`acc(x, y) += in(x + r.x, y)` with `in.unroll(x, 2)`, r.x serial) takes the
transfer's words in turn: hwlower/lane_steps.py splits that loop in runs of m = k / gcd(k, c) steps, in each of
which every step reads fixed words of the transfer. Over 3 taps of a 2-word stream the last run would hold one
step, a set of iterations no port controller walks. Halide accepts the schedule (its RVar loop is serial), so the
loop runs on to whole runs as Halide's guarded tail of a split RVar does (rvar_tails.py): each step past the
domain stores the element's own value (an accumulation adds its neutral value) and its reads of other Funcs are
guarded to the domain, so the stream is asked for nothing more.
"""

from __future__ import annotations

import math
from dataclasses import replace

from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.stream_turns import transfer_lanes

from .affine import affine_of, int_value
from .loops import StageLoops


def turned_rvars(d: Definition, s: StageLoops) -> StageLoops:
    """Update d's loops `s` with each serial RVar loop that steps across a stream's words (the only serial loop
    moving a read of an accelerator input by other than whole transfers) rounded up to whole runs of them, the
    RVar guarded to its domain (`StageLoops.guards`)."""
    if d.rdom is None:
        return s
    first = {name: int_value(lo) for name, lo, _ in d.rdom.dims if isinstance(lo, ir.Const)}
    serial = [lp for lp in s.loops if not lp.unrolled and lp.extent > 1]
    runs: dict[str, int] = {}
    for node in ir.walk(d.value):
        if not (isinstance(node, ir.Call) and isinstance(node.callee, Function)
                and node.callee.placement.accelerator_input):
            continue
        lanes = transfer_lanes(node.callee)
        for arg, index in zip(node.callee.args, node.args):
            k = lanes.get(arg, 1)
            a = affine_of(index, s.var_exprs) if k > 1 else None
            terms = dict(a.terms) if a is not None else {}
            moving = [lp for lp in serial if terms.get(lp.dim, 0) % k]
            # (where other serial loops move it too, its words are no run of the RVar's steps)
            if len(moving) == 1 and moving[0].is_rvar and terms[moving[0].dim] > 0:
                lp = moving[-1]
                runs[lp.dim] = math.lcm(runs.get(lp.dim, 1), k // math.gcd(k, terms[lp.dim]))
    # only an RVar whose loop is its own (not split: a split one is guarded already, or its steps are whole)
    grow = {n: m for n, m in runs.items() if n in first and n not in {g for g, _, _ in s.guards}
            and dict(s.var_exprs[n].terms) == {n: 1}}
    grow = {n: m for n, m in grow.items() if next(lp.extent for lp in serial if lp.dim == n) % m}
    if not grow:
        return s
    # (the steps the domain asks for stay recorded: the report's ideal counts those)
    loops = tuple(replace(lp, extent=-(-lp.extent // grow[lp.dim]) * grow[lp.dim], asked=lp.extent)
                  if lp.dim in grow else lp for lp in s.loops)
    guards = tuple((lp.dim, first[lp.dim], first[lp.dim] + lp.extent - 1) for lp in s.loops if lp.dim in grow)
    return replace(s, loops=loops, guards=s.guards + guards)
