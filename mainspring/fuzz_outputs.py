"""Kinds `mainspring fuzz` draws after session 38's (session 39), from a random stream of their own
(`with_outputs`), so that every seed's case without them is the case it was before (`outputs_kinds` names a case's
kinds for reports and tests):

- two outputs from one accelerator stream (README "Several outputs compile"): `output`, the image as before, and
  `output2 = u8(absd(last[x + 1, y], last[x, y]) / 2)`, a gradient of the last stage, either the elements of one
  accelerated Tuple Func (`hw_output[x, y] = (..., ...)`, the outputs reading `[0]` and `[1]`) or a second copy
  Func tiled alike and `compute_with(hw_output, xo)` (frontend/fuse_outputs.py makes them one Tuple Func); the
  design packs both into its output words (at 32 bits, a u8 beside: two words a pixel, frontend/output_words.py);
- a serial reduction partly unrolled, `update().unroll(r.x)` with r.y serial or the reverse (README's "partially
  unrolled reductions": a balanced tree per firing over the unrolled RVar);
- a stage before the last made a Tuple of its value and its half in an 8- or 16-bit type, its readers reading the
  sum of both elements (README "Tuples work as in Halide": one packed word, or two past 32 bits);
- under seed 002's GLB level, README's variations of it: no GLB copy of the input, the GLB output read back along
  y first, and sliding windows (stages stored at the memory tile, computed at its rows); in one accelerator
  level, sliding windows (stages stored at the tile, computed at its rows); a second input image through the GLB
  level.
"""

from __future__ import annotations

import dataclasses
import random
import re

from .fuzz_case import Case, Stage


def with_outputs(seed: int, case: Case) -> Case:
    """Every kind of this module, drawn from the seed's own stream (not the generator's: the draws of the
    sessions before stay as they were)."""
    rng = random.Random(f"fuzz session 39: {seed}")
    for draw in (with_two_outputs, with_partial_unrolls, with_tuple_stages, with_glb_more, with_sliding,
                 with_glb_second_input):
        case = draw(rng, case)
    return case


def with_two_outputs(rng: random.Random, case: Case) -> Case:
    """One case in six with an image output through one accelerator level computes a second output (not over
    input blocks, whose readers a word at a time the gradient's read at x + 1 would make an odd count): one Tuple
    Func in one of two, else a copy Func computed with hw_output at xo. compute_with fuses the loops down to xo
    only, so that form needs hw_output's loops as they are tiled (no lanes, blocks, row splits, fused loops or
    bound of its own) and every stage computed at xo, where both copies see it (Halide refuses it otherwise)."""
    if case.bins or case.variant not in ("", "store_at", "accelerator_input") or case.blocks \
            or rng.random() >= 1 / 6:
        return case
    alike = (case.lanes_of("hw_output") == 1 and not case.blocks and not case.loops and not case.fused
             and not case.bound and not any(s.at for s in case.stages))
    form = "compute_with" if alike and rng.random() < 1 / 2 else "tuple"
    return dataclasses.replace(case, outputs=form)


def with_partial_unrolls(rng: random.Random, case: Case) -> Case:
    """One case in two with a serial reduction (not split, rfactor'd, nor scheduled otherwise) unrolls one of its
    RVars, the other serial: lanes stay 1 (as `generate` draws them over serial reductions)."""
    ks = [k for k, s in enumerate(case.stages) if s.kind == "reduce" and not s.unrolled and not s.split
          and not s.rfactor]
    if not ks or rng.random() >= 1 / 2:
        return case
    k = rng.choice(ks)
    stage = dataclasses.replace(case.stages[k], partial=rng.choice(("x", "y")))
    return dataclasses.replace(case, stages=case.stages[:k] + (stage,) + case.stages[k + 1:])


_PURE = ("stencil", "pointwise", "coord", "rom", "down", "up")


def with_tuple_stages(rng: random.Random, case: Case) -> Case:
    """One case in five with a pure stage before the last that a stage reads, and no boundary condition (whose
    taps read the stage's own Func: frontend/tuples.py refuses a Tuple read without an index) makes it a Tuple of
    its value and its half in an 8- or 16-bit type (frontend/tuples.py packs both into one word, or two words past
    32 bits: frontend/wide_tuples.py), read back as the sum of both elements."""
    ks = [k for k, s in enumerate(case.stages[:-1])
          if s.kind in _PURE and any(t[0] == k for st in case.stages for t in st.taps)]  # (read by a stage)
    if not ks or case.edges or rng.random() >= 1 / 5:
        return case
    k = rng.choice(ks)
    stage = dataclasses.replace(case.stages[k], pair=rng.choice(("u8", "i8", "u16", "i16")))
    return dataclasses.replace(case, stages=case.stages[:k] + (stage,) + case.stages[k + 1:])


def with_glb_more(rng: random.Random, case: Case) -> Case:
    """A GLB case (rare among the draws) gets some of README's GLB variations (`Case.glb_more`), each in one case
    of two: no GLB copy of hw_input, the GLB output read back along y first, sliding windows (every buffered stage
    stored at the memory tile and computed at its rows; in one such case of two the input's memory-tile copy too).
    Not over the array output's rows unrolled (fuzz_blocks.py's glb_rows: rows computed two at a time)."""
    if case.variant != "glb":
        return case
    more = "".join(k for k in "nyw" if rng.random() < 1 / 2 and not (k == "w" and case.glb_rows))
    more += "c" * ("w" in more and rng.random() < 1 / 2)
    return dataclasses.replace(case, glb_more=more)


def with_glb_second_input(rng: random.Random, case: Case) -> Case:
    """One GLB case in three reads a second image at the output, a row below (as fuzz_wide.py's second input,
    which it draws in one level only), with copies of its own at both levels (its GLB copy left out on odd seeds:
    the host loads it into the GLB as it is, as tests/flow/test_glb22.py's glb_one_of_two_inputs_copied)."""
    if case.variant != "glb" or case.second or rng.random() >= 1 / 3:
        return case
    return dataclasses.replace(case, second=rng.choice(("u8", "u16", "i16")))


def with_sliding(rng: random.Random, case: Case) -> Case:
    """One case in eight with one accelerator level and none of the schedule calls on its stages' or the output's
    rows (store_at, compute_at elsewhere, rows unrolled or split, blocks, fused loops, a second output computed
    with hw_output at xo only) stores every buffered stage at the tile and computes it at the tile's rows."""
    fit = (case.variant in ("", "accelerator_input") and not case.bins and not case.store and not case.loops
           and not case.blocks and not case.fused and case.outputs != "compute_with"
           and not any(s.at for s in case.stages) and any(not s.inline for s in case.stages))
    if not fit or rng.random() >= 1 / 8:
        return case
    return dataclasses.replace(case, sliding=True)


def paired(lines: list[str], s: Stage) -> list[str]:
    """A stage's definition as a Tuple of its value and its half, of type `s.pair` (its last line the value's)."""
    if not s.pair:
        return lines
    head, value = re.fullmatch(r"(\S+\[x, y\]) = (.*)", lines[-1]).groups()  # type: ignore[union-attr]
    return lines[:-1] + [f"{head} = ({value}, hl.{s.pair}(({value}) >> 1))"]


def paired_read(case: Case | None, src: int, ref: str) -> str:
    """A read `ref` of Func `src` (-1 hw_input), the sum of its elements if it is a Tuple stage."""
    if case is None or src < 0 or not case.stages[src].pair:
        return ref
    return f"hl.{case.work}({ref}[0] + hl.{case.work}({ref}[1]))"


def partial_line(case: Case, name: str) -> list[str]:
    """The schedule line of stage `name`'s partial unroll (`Stage.partial`), or none."""
    s = next(st for st in case.stages if st.name == name)
    return [f'    a["{name}"].update().unroll(a["r_{name}"].{s.partial})'] if s.partial else []


def output_lines(case: Case, last: str, first: str) -> list[str]:
    """The algorithm's copy Funcs and outputs for `case.outputs` ("tuple", "compute_with"): `first` the value of
    the output as one output computes it."""
    w = case.work
    grad = f"hl.u8(hl.absd({last}[x + 1, y], {last}[x, y]) / 2)"
    lines = ['    hw_output = hl.Func("hw_output")']
    if case.outputs == "tuple":
        lines += [f"    hw_output[x, y] = (hl.{w}({first}), {grad})",
                  '    output, output2 = hl.Func("output"), hl.Func("output2")',
                  "    output[x, y] = hw_output[x, y][0]",
                  "    output2[x, y] = hw_output[x, y][1]"]
    else:
        lines += [f"    hw_output[x, y] = {first}", '    hw_output2 = hl.Func("hw_output2")',
                  f"    hw_output2[x, y] = {grad}",
                  '    output, output2 = hl.Func("output"), hl.Func("output2")',
                  "    output[x, y] = hw_output[x, y]",
                  "    output2[x, y] = hw_output2[x, y]"]
    return lines


def second_output_schedule(case: Case, tile: tuple[int, int], bound_line: str) -> list[str]:
    """output2's bound (as output's, `bound_line`) and, computed with hw_output, hw_output2's tiles."""
    lines = [bound_line.replace('a["output"]', 'a["output2"]')]
    if case.outputs == "compute_with":
        lines.append(f'    a["hw_output2"].compute_root().tile(x, y, xo, yo, xi, yi, {tile[0]}, {tile[1]})'
                     '.compute_with(a["hw_output"], xo)')
    return lines


def simpler_outputs(c: Case):
    """Cases with one of this module's kinds fewer, for the shrinker (mainspring/fuzz.py `shrink`)."""
    rep = dataclasses.replace
    if c.outputs:
        yield rep(c, outputs="")
    if c.outputs == "compute_with":
        yield rep(c, outputs="tuple")
    if c.sliding:
        yield rep(c, sliding=False)
    for letter in c.glb_more:
        yield rep(c, glb_more=c.glb_more.replace(letter, "").replace("c", "") if letter == "w"
                  else c.glb_more.replace(letter, ""))
    for k, s in enumerate(c.stages):
        for name in ("partial", "pair"):
            if getattr(s, name):
                yield rep(c, stages=c.stages[:k] + (rep(s, **{name: ""}),) + c.stages[k + 1:])


def outputs_kinds(case: Case) -> list[str]:
    """The names of this module's kinds a case has drawn."""
    kinds = [f"outputs_{case.outputs}"] if case.outputs else []
    kinds += [f"partial_{s.partial}" for s in case.stages if s.partial]
    kinds += [{"n": "glb_input_loaded", "y": "glb_read_along_y", "w": "glb_sliding", "c": "glb_sliding_copy"}[k]
              for k in case.glb_more] + ["sliding"] * case.sliding
    kinds += ["glb_second_input"] * (case.variant == "glb" and bool(case.second))
    return kinds + [f"tuple_stage_{'wide' if case.work[1:] == '32' else 'word'}"
                    for s in case.stages if s.pair]


__all__ = ["output_lines", "outputs_kinds", "paired", "paired_read", "partial_line", "second_output_schedule",
           "simpler_outputs", "with_outputs"]
