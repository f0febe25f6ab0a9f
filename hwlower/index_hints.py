"""The fix a refusal of an index that is not affine in its loops names (`ops._affine`), by the reason it is not.

An index that multiplies two loop variables, or divides by one (`hw_input[(x * y) % 5, y]`), has no affine form
at all, but Halide bounds it by the box its variables span; computed in a Func of its own inside the accelerator,
it becomes a coordinate loaded from that Func, which the compiler serves as a RAM lookup of the read Func's whole
box (scatter.py, ram_copies.py). The other reasons (a quotient by a constant over uneven steps, a clamp that does
not move on a line, data-dependent indexing) keep their own fixes."""

from __future__ import annotations

from collections.abc import Callable

from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder
from mainspring.frontend.errors import HalideError
from mainspring.frontend.func import Definition, Function

from .ir import Affine

SCALED = ("an index divided (or taken modulo) by a constant d is affine only where its loop runs over whole "
          "multiples of d (an upsample by d splits the loop into d-long steps); make the Func's extent along that "
          "loop a multiple of d, starting at a multiple of d, and its lanes along it (an unroll) a multiple or a "
          "divisor of d")
CLAMPED = ("an index clamped with min or max is affine only where its values at the iterations of the loops it "
           "moves with lie on a line (clamps of a read at constant bounds become edge taps; this one is not such a "
           "read, nor the clamped tap of rfactor's guarded split, read under a guard); compute the clamped index on "
           "the host side")
DATA = ("compute data-dependent indexing on the host side, before the accelerator input (a boundary condition with "
        "constant bounds on an accelerator input, as repeat_edge, constant_exterior, mirror_image and "
        "mirror_interior make, works inside)")


def _moves(e: ir.Expr) -> bool:
    return any(isinstance(n, (ir.Var, ir.RVar)) for n in ir.walk(e))


def nonlinear(e: ir.Expr) -> bool:
    """Whether e multiplies two loop-dependent values or divides (shifts) by one."""
    return any(isinstance(n, ir.BinOp) and _moves(n.b) and (n.op in ("div", "mod", "shl", "shr") or
                                                             (n.op == "mul" and _moves(n.a)))
               for n in ir.walk(e))


def reader_level(f: Function | None) -> str | None:
    """Where a Func read by f's stage is computed beside f's own producers: f's store loop if f is the accelerator
    output, else f's compute level."""
    if f is None:
        return None
    p = f.placement
    if p.hw_accelerate is not None:
        return f"{f.name}, {ir.user_name(p.hw_accelerate[1])}"
    if p.compute.kind == "at" and isinstance(p.compute.func, Function):
        return f"{p.compute.func.name}, {ir.user_name(p.compute.var)}"
    return None


def _span(e: ir.Expr, env: dict[str, Affine], ranges: dict[str, int]) -> tuple[int, int] | None:
    """The least and greatest values of e over the op's loops (its variables' affine forms over their extents)."""
    spans = {}
    for v, a in env.items():
        lo = a.const + sum(min(0, c * (ranges[n] - 1)) for n, c in a.terms)
        hi = a.const + sum(max(0, c * (ranges[n] - 1)) for n, c in a.terms)
        spans[v] = (lo, hi)
    if any(isinstance(n, (ir.Var, ir.RVar)) and n.name not in spans for n in ir.walk(e)):
        return None
    return Bounder(spans, lambda _p: None)(e)


def not_affine_hint(e: ir.Expr, reader: Function | None = None, buf: str = "", uneven: str = "", handle: str = "",
                    env: dict[str, Affine] | None = None, ranges: dict[str, int] | None = None) -> str:
    """Why index e (of `reader`'s read of `buf`) is not affine, and the fix."""
    scaled = any(isinstance(n, ir.BinOp) and n.op in ("div", "mod") for n in ir.walk(e))
    rvars = sorted({n.name.replace("$", ".") for n in ir.walk(e) if isinstance(n, ir.RVar)})
    level = reader_level(reader)
    span = _span(e, env or {}, ranges or {}) if nonlinear(e) and not rvars and level is not None else None
    if span is not None:
        args = ", ".join(dict.fromkeys(ir.user_name(n.name) for n in ir.walk(e) if isinstance(n, ir.Var)))
        return (f"the index multiplies or divides loop variables, which has no affine form; compute it in a Func "
                f"of its own inside the accelerator, clamped to the {span[0]}..{span[1]} it reaches (a Func's "
                f"values are bounded over all its coordinates, as Halide bounds them): "
                f"idx[{args}] = hl.clamp({ir.user_text(e)}, {span[0]}, {span[1]}); idx.compute_at({level}); and "
                f"read '{buf}' at idx[{args}]: a coordinate loaded from a Func is a lookup of a RAM holding "
                f"the box of '{buf}'")
    if scaled and rvars:
        return (f"a serial reduction reads at a quotient only where all the index's variables lie inside one "
                f"quotient by a constant (a transposed convolution's (x + r.x) / 2), or where each step selects "
                f"among at most 8 words the quotient takes (a shear's (x + r.x) / 2 + r.y over 2 taps: 2 words), and "
                f"this index's ({', '.join(rvars)}) do neither; unroll the reduction "
                f"({'.'.join([handle or 'update()'] + [f'unroll({r})' for r in rvars])}): each step's quotient is "
                "then affine on its own")
    rotated = _rotation(e, buf)
    if rotated is not None:
        return rotated
    if scaled:
        return uneven or SCALED
    if any(isinstance(n, ir.BinOp) and n.op in ("min", "max") for n in ir.walk(e)):
        return CLAMPED
    return DATA


def _rotation(e: ir.Expr, buf: str) -> str | None:
    """The fix for (v + k) % d with k not a multiple of d (probe20, session 35): it wraps inside each period of v,
    which no affine address follows even over whole periods, so SCALED's fix would not work; reads at the d constant
    coordinates chosen by v do."""
    for n in ir.walk(e):
        if not (isinstance(n, ir.BinOp) and n.op == "mod" and isinstance(n.b, ir.Const) and isinstance(n.a, ir.BinOp)
                and n.a.op in ("add", "sub")):
            continue
        pair = (n.a.a, n.a.b)
        var = next((t for t in pair if isinstance(t, (ir.Var, ir.RVar))), None)
        const = next((t for t in pair if isinstance(t, ir.Const)), None)
        d = int(n.b.value)
        if var is None or const is None or d <= 1:
            continue
        k = int(const.value) * (-1 if n.a.op == "sub" and const is n.a.b else 1)
        if k % d == 0 or (n.a.op == "sub" and const is n.a.a):
            continue
        v = ir.user_name(var.name)
        order = ", ".join(str((i + k) % d) for i in range(d))
        return (f"{ir.user_text(n)} wraps inside each period of {v} (an offset of {k} before the modulo by {d}), "
                f"which no affine address follows even over whole periods of {v}; read '{buf}' at each of the "
                f"{d} coordinates and choose among the reads by {v}: hl.mux({v} % {d}, [the reads at {order} in "
                f"this coordinate])")
    return None


def inline_lookup_error(definition: Definition, f: Function, src: str, who: str,
                        name: Callable[[Function], str]) -> HalideError:
    """A read at coordinates loaded from another Func of a Func (`src`) no RAM holds. inline_reads.py substitutes an
    inline Func read so before ram_copies.py copies what is read at loaded coordinates into a RAM, so this is a
    guard for reads those passes do not see."""
    inline = [n.callee for n in ir.walk(definition.value) if isinstance(n, ir.Call)
              and isinstance(n.callee, Function) and n.callee.placement.compute.kind == "inline"
              and any(isinstance(m, ir.Call) for a in n.args for m in ir.walk(a))]
    what = f"'{name(inline[0])}'" if inline else "an inline Func"
    level = reader_level(f)
    fix = (f"{name(inline[0])}.compute_at({level})" if inline and level else "compute_at(...) at the reader's level")
    return HalideError(
        f"{who} reads {what} at coordinates loaded from another Func, but {what} is inline, so its own reads of "
        f"'{src}' would be at computed coordinates, and only a Func held in a memory is looked up at computed "
        f"coordinates (a RAM); compute {what} in a memory at the reader's level: {fix}")

