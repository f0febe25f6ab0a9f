"""Quotients that lanes take unevenly: L lanes along x reading f(x / d) where L is neither a multiple nor a
divisor of d (2 lanes over x / 3). `strip_mine` steps the serial loop in runs of m = d / gcd(L, d) iterations, so
that x = g * x.strip_o + r with g = lcm(L, d) and r = L * x.strip_i + lane in 0 .. g - 1; then

    x / d = (g / d) * x.strip_o + r / d

where r / d takes a few values (0 or 1 for 2 lanes over x / 3: 0 0, 0 1, 1 1 in the run's three cycles). The read
becomes a select over them, each an affine read of its own:

    f(x / 3)   ->   select(r < 3, f(2 * x.strip_o), f(2 * x.strip_o + 1))

so that every lane reads the same few words of f per run, at addresses affine in the loops, and picks its own
with r (a coordinate of its loops, as x is). The value is Halide's: the select takes the quotient's own word.
Each coefficient's whole multiples of d stay in the affine part (10 lanes over x / 3: x / 3 = 10 * x.strip_o +
3 * x.strip_i + (x.strip_i + lane) / 3), so that r holds remainders only and each lane selects among about L / d
+ 1 words, not the run's L / gcd(L, d). Each read is of a word the run needs anyway, so f's bounds are those
bounds inference gave it, except past a tail rounded up (`guard_selected`)."""

from __future__ import annotations

import math
from dataclasses import replace

from mainspring.frontend import ir

from .affine import affine_of
from .fold import with_loads
from .ir import Access, Affine, LoadPort, Loop, Op

# the most words of a producer one lane may choose from: each choice is a compare and a select in every lane's
# kernel (the kernel is one module duplicated per lane), so the PEs grow with lanes times choices
MAX_CHOICES = 8


def lane_choices(k: int, d: int, run: int = 0) -> int:
    """The most words each of k lanes over x / d (at any offset inside the division) selects among per run of
    `run` cycles (d / gcd(k, d) unless given: a multiple of it, for a loop read at several divisors): the quotient
    of x = g * xo + k * s + j is (g / d) * xo + (k // d) * s + r / d, r = (k % d) * s + j + the offset's remainder,
    so r / d takes up to (r's greatest) / d + 1 values (10 lanes over x / 3: 5 at most, 4 at no offset; the run
    reads 10 words in all, each lane but a few of them)."""
    run = run or d // math.gcd(k, d)
    return (d - 1 + (k % d) * (run - 1) + k - 1) // d + 1


def quotient_selects(e: ir.Expr, env: dict[str, Affine], ranges: dict[str, int],
                     runs: set[str]) -> tuple[ir.Expr, dict[str, Affine]]:
    """e with each read f(..., a / d, ...) whose quotient is affine in no loop but whose dividend's remainder
    part moves over a few multiples of d, in loops of `runs` only (lanes and the inner loops of strip_mine's
    splits: other loops, a serial reduction's or a loop another divisor steps, are refused as before), rewritten
    as a select over those quotients, and the coordinates the rewrite names (remainder and quotient variables)
    as affine functions of the loops, for `env`."""
    extra: dict[str, Affine] = {}

    def visit(node: ir.Expr, kids: tuple) -> ir.Expr:
        node = ir.rebuild(node, kids)
        if not isinstance(node, ir.Call) or not node.args:
            return node
        # a read at loaded coordinates is a RAM or ROM lookup: its address is computed, quotient and all, and a
        # select over reads would be several lookups a firing (a bilateral grid's slice at grid(x / 4, ...))
        if any(isinstance(n, ir.Call) for a in node.args for n in ir.walk(a)):
            return node
        for i, a in enumerate(node.args):
            # the one quotient in the index (x / 3, or x / 3 + 1 for a linear upsample's right neighbour)
            divs = {id(n): (n, sp) for n in ir.walk(a) if (sp := _split(n, env, ranges, runs)) is not None}
            if len(divs) != 1 or affine_of(a, env, ranges) is not None:
                continue
            ((div, (quot, rest, d, lo, hi)),) = divs.values()
            qname, rname = f"{_stem(div)}.quot{len(extra)}", f"{_stem(div)}.rest{len(extra)}"
            q, r = ir.Var(a.type, qname), ir.Var(a.type, rname)
            # a quotient inside what stays affine in no loop ((x / 2) % 10): no choice of reads serves it, and
            # `ops` refuses the read as written
            whole = ir.transform(a, lambda n, kids, c=q, t=div: c if n is t else ir.rebuild(n, kids), {})
            if affine_of(whole, env | {qname: quot}, ranges) is None:
                continue
            extra[qname], extra[rname] = quot, rest
            out: ir.Expr | None = None
            for v in reversed(range(lo // d, hi // d + 1)):
                chosen = q if v == 0 else ir.BinOp(a.type, "add", q, ir.const(a.type, v))
                index = ir.transform(a, lambda n, kids, c=chosen, t=div: c if n is t else ir.rebuild(n, kids), {})
                read = visit(ir.Call(node.type, node.callee, node.args[:i] + (index,) + node.args[i + 1:]), ())
                cond = ir.BinOp(ir.BOOL, "lt", r, ir.const(a.type, (v + 1) * d))
                out = read if out is None else ir.Select(node.type, cond, read, out)
            assert out is not None
            return out
        return node

    return ir.transform(e, visit, {}), extra


def _split(a: ir.Expr, env: dict[str, Affine], ranges: dict[str, int],
           runs: set[str]) -> tuple[Affine, Affine, int, int, int] | None:
    """For an index a = b / d affine in no loop: (the quotient's part affine in the loops, the remainder part r of
    b, d, r's least and greatest values), when r is a sum of loops of known extents taking at most MAX_CHOICES
    quotients; else None."""
    if not (isinstance(a, ir.BinOp) and a.op == "div" and isinstance(a.b, ir.Const) and isinstance(a.b.value, int)
            and a.b.value > 1) or affine_of(a, env, ranges) is not None:
        return None
    b, d = affine_of(a.a, env, ranges), a.b.value
    if b is None or any(v not in ranges or v not in runs for v, c in b.terms if c % d):
        return None
    # each coefficient c = d * (c // d) + c % d: the whole multiples move the quotient affinely (its words then
    # move with the run's cycles), the remainders alone choose (10 lanes over x / 3: x = 30 * xo + 10 * s + j,
    # x / 3 = 10 * xo + 3 * s + (s + j) / 3, 4 words a lane, not the run's 10)
    rest = {v: c % d for v, c in b.terms if c % d}
    lo = b.const % d
    hi = b.const % d + sum(c * (ranges[v] - 1) for v, c in rest.items())
    if not rest or hi // d - lo // d + 1 > MAX_CHOICES:
        return None
    quot = Affine.make({v: c // d for v, c in b.terms if c // d}, b.const // d)
    return quot, Affine.make(rest, b.const % d), d, lo, hi


def _stem(a: ir.Expr) -> str:
    names = sorted({n.name for n in ir.walk(a) if isinstance(n, (ir.Var, ir.RVar))})
    return "_".join(names) or "index"


def guard_selected(nodes: list[Loop | Op], boxes: dict[str, list[tuple[int, int]]]) -> list[Loop | Op]:
    """The ops of a Func whose loop rounds a tail up past its box (shift_tails.py), each read of an op that
    selects by a remainder (`quotient_selects`) guarded to its producer's box: the run's words past it (3 lanes
    over x / 2 in 34 columns read word 17 for columns 34 and 35) are never selected for a column of the box, and
    no op makes them (it was an internal contract failure)."""
    out: list[Loop | Op] = []
    for n in nodes:
        if isinstance(n, Loop):
            out.append(replace(n, body=tuple(guard_selected(list(n.body), boxes))))
        elif not any(".rest" in c.var for c in n.coords):
            out.append(n)
        else:
            out.append(with_loads(n, {id(p): LoadPort(p.name, Access(
                p.access.buffer, p.access.index, p.access.guard + tuple(
                    (e, lo, hi) for e, (lo, hi) in zip(p.access.index, boxes[p.access.buffer]))))
                for p in n.loads if p.access.buffer in boxes and len(p.access.index) == len(boxes[p.access.buffer])}))
    return out
