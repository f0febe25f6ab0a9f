"""Catalogue cases of helper probe25 (session 38): several accelerated outputs, one reading another or a producer
computed in the other's loops (hwlower/region.py, frontend/pipeline.py), and a producer left on the host between
the inputs and outputs fused into one Tuple Func (named as the user names it, not 'hw_outputs')."""

from __future__ import annotations

import mainspring as hl

from catalogue import case


def _two_outputs(shared: bool, second: str, place_mid: str = "at_a"):
    """out_a and out_b over 8x4 from hw_a and hw_b (accelerator tiles of 8x4): hw_b reads hw_a (or, `shared`, both
    read `mid`); hw_b's schedule is `second`: "accelerate" (hw_accelerate(xi, xo) as hw_a), "accelerate_lanes"
    (and unroll(xi, 2)) or "with" (compute_with(hw_a, xo) in its place); mid is computed at hw_a's xo ("at_a") or
    at the root ("root")."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, mid, hw_a, hw_b = hl.Func("hw_input"), hl.Func("mid"), hl.Func("hw_a"), hl.Func("hw_b")
    out_a, out_b = hl.Func("out_a"), hl.Func("out_b")
    hw_input[x, y] = input_[x, y]
    if shared:
        mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
        hw_a[x, y] = mid[x, y] >> 1
        hw_b[x, y] = mid[x, y] + hw_input[x, y + 1]
    else:
        hw_a[x, y] = hw_input[x, y] + hw_input[x + 1, y]
        hw_b[x, y] = hw_a[x, y] + hw_input[x, y + 1]
    out_a[x, y] = hw_a[x, y]
    out_b[x, y] = hw_b[x, y]
    for o in (out_a, out_b):
        o.bound(x, 0, 8).bound(y, 0, 4)
    hw_a.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo)
    hw_b.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4)
    if second == "with":
        hw_b.compute_with(hw_a, xo)  # <-with
    else:
        hw_b.hw_accelerate(xi, xo)  # <-b
    if second.endswith("lanes"):
        hw_b.unroll(xi, 2)
    if shared and place_mid == "at_a":
        mid.compute_at(hw_a, xo)  # <-mid
    elif shared:
        mid.compute_root()  # <-root
    hw_input.compute_root().accelerator_input()
    return hl.compile([out_a, out_b], name="demo")


@case("hardware", "An accelerated output read by another accelerated output", (
    "{b}: Funcs 'hw_a' and 'hw_b' are each scheduled hw_accelerate and 'hw_b' reads 'hw_a', but a design has one "
    "accelerated region, which computes several outputs only when none reads another; define 'hw_b' from what 'hw_a' "
    "reads (a Func both read, computed at hw_a's xo, in place of the call to 'hw_a'), scheduled exactly as 'hw_a'"),
    func="hw_b", simulate=True,
    note="Halide accepts it (two accelerated loop nests); mainspring builds one accelerator "
         "(hw_b.compute_with(hw_a, xo) is refused too: compute_with_reads_accelerated_output)")
def accelerated_output_reads_accelerated_output():
    return _two_outputs(False, "accelerate")


@accelerated_output_reads_accelerated_output.fix
def _():
    return _two_outputs(True, "accelerate")


@case("schedule", "A producer computed in one accelerated output's loops, read by another scheduled apart", (
    "{mid}: Func \"mid\" is computed at the following invalid location:\n  mid.compute_at(hw_a, xo);\nLegal locations "
    "for this function are:\n  mid.compute_root();\n'hw_a' uses 'mid', but 'hw_b' also reads it outside the loops of "
    "'hw_a': a Func is computed where every use of it is inside; compute 'mid' at one of the locations above, or "
    "schedule 'hw_b' exactly as 'hw_a' (one accelerator computes outputs scheduled alike in one loop nest)."),
    func="mid", simulate=True)
def producer_of_two_accelerated_outputs_scheduled_apart():
    return _two_outputs(True, "accelerate_lanes")


@producer_of_two_accelerated_outputs_scheduled_apart.fix
def _():
    return _two_outputs(True, "accelerate")


@case("hardware", "A producer of two fused outputs left on the host", (
    "{root}: Func 'mid' lies between the accelerator's inputs and its output 'hw_a' but is scheduled compute_root, "
    "outside the accelerator. Place it inside: mid.compute_at(hw_a, xo), or make it an accelerator input "
    "(mid.stream_to_accelerator())."), func="mid", simulate=True)
def producer_of_fused_outputs_on_the_host():
    return _two_outputs(True, "accelerate", place_mid="root")


@producer_of_fused_outputs_on_the_host.fix
def _():
    return _two_outputs(True, "accelerate")


def _tuple_beside_plain(one_tuple: bool, fused: bool = False):
    """A 2-Tuple output and a plain output over 6x4 accelerated alike (`fused`: the Tuple's Func tiled alike and
    compute_with the plain one at xo in place of its hw_accelerate), or (`one_tuple`) the three values as one Tuple
    Func's elements."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input, out_t, out_p = hl.Func("hw_input"), hl.Func("out_t"), hl.Func("out_p")
    hw_input[x, y] = input_[x, y]
    pair = (hw_input[x, y] >> 1, hw_input[x + 1, y] >> 1)
    plain = hw_input[x, y] // 2 + hw_input[x, y + 1] // 2
    if one_tuple:
        hw = hl.Func("hw_outputs")
        hw[x, y] = (*pair, plain)
        out_t[x, y] = (hw[x, y][0], hw[x, y][1])
        out_p[x, y] = hw[x, y][2]
        accelerated = [hw]
    else:
        hw_t, hw_p = hl.Func("hw_t"), hl.Func("hw_p")
        hw_t[x, y] = pair
        hw_p[x, y] = plain
        out_t[x, y] = (hw_t[x, y][0], hw_t[x, y][1])
        out_p[x, y] = hw_p[x, y]
        accelerated = [hw_t, hw_p]
    for o in (out_t, out_p):
        o.bound(x, 0, 6).bound(y, 0, 4)
    if fused:
        hw_t, hw_p = accelerated
        hw_p.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)
        hw_t.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4)
        hw_t.compute_with(hw_p, xo)  # <-with_t
    else:
        for hw in accelerated:
            hw.compute_root().tile(x, y, xo, yo, xi, yi, 6, 4).hw_accelerate(xi, xo)  # <-acc
    hw_input.compute_root().accelerator_input()
    return hl.compile([out_t, out_p], name="demo")


@case("hardware", "A Tuple output beside another output, accelerated alike", (
    "{acc}: Funcs 'hw_t', 'hw_p' are each scheduled hw_accelerate (hw_t at {acc}; hw_p at {acc}), and a design has "
    "one accelerated region, which computes several outputs as the elements of one Tuple Func: integer Funcs of one "
    "value each (not a Tuple, no update), over as many variables, of at most 32 bits each; make them the elements "
    "of one Tuple Func and accelerate that (e.g. hw_outputs[x, y] = (hw_t[x, y], hw_p[x, y])), a Tuple's values as "
    "elements of their own"), func="hw_t", simulate=True,
    note="Halide accepts it; mainspring fuses alike outputs of one value each (a Tuple output with another is a gap)")
def tuple_output_beside_plain_output():
    return _tuple_beside_plain(False)


@tuple_output_beside_plain_output.fix
def _():
    return _tuple_beside_plain(True)


@case("schedule", "An output fused by compute_with with the accelerated output it reads", (
    "{with}: Func 'hw_b': hw_b.compute_with(hw_a, xo): Invalid compute_with: there is dependency between hw_a and "
    "hw_b ('hw_b' reads 'hw_a'): fused loops compute both at each step, so neither may read the other; drop the "
    "compute_with (a reader is computed after what it reads), or define 'hw_b' from what 'hw_a' reads (a Func both "
    "read, computed at hw_a's xo, in place of the call to 'hw_a')"), func="hw_b", simulate=True,
    note="Halide refuses it too; compiled before session 38, hw_b silently computed on the host (probe25)")
def compute_with_reads_accelerated_output():
    return _two_outputs(False, "with")


@compute_with_reads_accelerated_output.fix
def _():
    return _two_outputs(True, "with")


@case("hardware", "A Tuple output fused by compute_with with the accelerated output", (
    "{with_t}: Func 'hw_t': hw_t.compute_with(hw_p, xo) fuses 'hw_t' with the accelerated 'hw_p', but one "
    "accelerator computes several outputs as the elements of one Tuple Func: integer Funcs of one value each (not a "
    "Tuple, no update), over as many variables, of at most 32 bits each, so 'hw_t' would run on the host; make them "
    "the elements of one Tuple Func and accelerate that (e.g. hw_outputs[x, y] = (hw_p[x, y], hw_t[x, y])), a "
    "Tuple's values as elements of their own, or drop the compute_with to compute 'hw_t' on the host after the "
    "accelerator"), func="hw_t", simulate=True,
    note="compiled before session 38, hw_t silently computed on the host")
def compute_with_tuple_beside_accelerated_output():
    return _tuple_beside_plain(False, fused=True)


@compute_with_tuple_beside_accelerated_output.fix
def _():
    return _tuple_beside_plain(True)
