"""The hardware schedule of a fuzz case (`mainspring fuzz`): the body of its program's `schedule(hl, a)`, one
accelerator tile per host tile (`schedule_lines`) or seed 002's three levels through the GLB (`glb_schedule_lines`)."""

from __future__ import annotations

from .fuzz_case import Case, rfactor_lines
from .fuzz_outputs import partial_line, second_output_schedule


def schedule_lines(case: Case) -> list[str]:
    """The body of `schedule(hl, a)`: one accelerator tile per host tile, every stage buffered at its loop."""
    lines: list[str] = []
    if case.bins and not case.lookup:
        lines += [f'    a["output"]{_bound(case, "b", case.bins)}',
                  f'    a["hw_output"].compute_root().split(a["b"], xo, xi, {case.bins}).hw_accelerate(xi, xo)']
    elif case.fused:  # the fused loop split at the accelerator (fuzz_blocks.py)
        lines += [f'    a["output"]{_bound(case, "x", case.width)}{_bound(case, "y", case.height)}',
                  '    a["hw_output"].compute_root().fuse(x, y, hl.Var("xy"))',
                  f'    a["hw_output"].split(hl.Var("xy"), xo, xi, {case.fused}).hw_accelerate(xi, xo)']
    else:
        tx, ty = case.tile or (case.width, case.height)
        lines += [f'    a["output"]{_bound(case, "x", case.width)}{_bound(case, "y", case.height)}',
                  '    a["hw_output"].compute_root()',
                  f'    a["hw_output"].tile(x, y, xo, yo, xi, yi, {tx}, {ty}).hw_accelerate(xi, xo)']
    if case.outputs:  # the second output (fuzz_outputs.py)
        lines += second_output_schedule(case, case.tile or (case.width, case.height), lines[0])
    ru = "" if case.tail == "Auto" else f", hl.TailStrategy.{case.tail}"
    for s in case.stages:
        r = f'a["r_{s.name}"]'
        if s.split == "serial":
            lines.append(f'    a["{s.name}"].update().split({r}.x, hl.RVar("rxo"), hl.RVar("rxi"), 2)')
        elif s.split == "inner":
            lines.append(f'    a["{s.name}"].update().unroll({r}.x, 2)' + (f".unroll({r}.y)" if s.unrolled else ""))
        elif s.rfactor:
            lines += rfactor_lines(s)
        elif s.kind == "reduce" and s.unrolled:
            lines.append(f'    a["{s.name}"].update().unroll({r}.x).unroll({r}.y)')
        lines += partial_line(case, s.name)
        if not s.inline:
            at = {"": 'a["hw_output"], xo', "yi": 'a["hw_output"], yi'}.get(s.at, f'a["{s.at}"], y')
            if case.sliding:  # stored at the tile, computed at its rows (fuzz_outputs.py)
                lines.append(f'    a["{s.name}"].store_at(a["hw_output"], xo).compute_at(a["hw_output"], yi)')
            else:
                lines.append(f'    a["{s.name}"].compute_at({at})')
            if case.store:  # at the host's loops
                lines.append(f'    a["{s.name}"].' + ("store_root()" if case.store == "root"
                                                        else 'store_at(a["hw_output"], yo)'))
            if s.bounded:  # more than its readers need
                w, h = 2 * case.width + 12, 2 * case.height + 12
                lines.append(f'    a["{s.name}"].bound(x, 0, {w}).bound(y, 0, {h})')
            if case.loops == "unroll_y":  # two rows at a time, as the output
                lines.append(f'    a["{s.name}"].unroll(y, 2, hl.TailStrategy.RoundUp)')
            if case.variant == "store_at":
                lines.append(f'    a["{s.name}"].store_at(a["hw_output"], xo)')
            if case.lanes_of(s.name) > 1:
                lines.append(f'    a["{s.name}"].unroll(x, {case.lanes_of(s.name)}{ru})')
                if s.kind == "reduce":
                    lines.append(f'    a["{s.name}"].update().unroll(x, {case.lanes_of(s.name)}{ru})')
            lines += _block_lines(case, s.name, s.kind == "reduce", "x", "y")
    if case.ram_unroll:  # the RAM's scatter, unrolled: it runs serially
        lines.append('    a["hist"].update(0).unroll(a["r"].x)')
    if case.variant == "accelerator_input":
        lines.append('    a["hw_input"].compute_root().accelerator_input()')
    else:
        lines.append('    a["hw_input"].compute_root().stream_to_accelerator()')
    if case.blocks:  # 2 x 2 words per transfer, x fastest
        lines.append('    a["hw_input"].unroll(x, 2, hl.TailStrategy.RoundUp).unroll(y, 2, hl.TailStrategy.RoundUp)')
    if case.channels:  # the channels of a pixel in each transfer
        lines.append('    a["hw_input"].unroll(a["c"])')
    if case.second:  # the second image's copy, streamed at the input's pace
        lines.append('    a["hw_input2"].compute_root().stream_to_accelerator()')
        if case.lanes_of("hw_input") > 1:
            lines.append(f'    a["hw_input2"].unroll(x, {case.lanes_of("hw_input")}{ru})')
    if case.variant == "column_major":  # the output streams y fastest
        lines.append('    a["hw_output"].reorder(yi, xi)')
    lines += _output_loops(case)
    for name, var in (("hw_output", "xi"), ("hw_input", "x")):
        if case.lanes_of(name) > 1:
            lines.append(f'    a["{name}"].unroll({var}, {case.lanes_of(name)}{ru})')
    return lines + _block_lines(case, "hw_output", False, "xi", "yi")


def _bound(case: Case, var: str, extent: int) -> str:
    """The output's bound along `var` (`a["b"]`: a table's): its min and extent, or the extent alone
    (`Case.bound_extent`, the min the realize's)."""
    v = 'a["b"]' if var == "b" else var
    return f".bound_extent({v}, {extent})" if case.bound_extent else f".bound({v}, 0, {extent})"


def _block_lines(case: Case, name: str, update: bool, vx: str, vy: str) -> list[str]:
    """Func `name`'s unrolls by 2 over an input of 2 x 2 blocks (`Case.blocks`): along its x (`vx`), y (`vy`) or
    both, its update too (`update`: an unrolled reduction's)."""
    dims = dict(case.blocks).get(name, "")
    calls = "".join(f".unroll({v}, 2, hl.TailStrategy.RoundUp)" for d, v in (("x", vx), ("y", vy)) if d in dims)
    if not calls:
        return []
    return [f'    a["{name}"]{calls}'] + ([f'    a["{name}"].update(){calls}'] if update else [])


def glb_schedule_lines(case: Case) -> list[str]:
    """Seed 002's three levels: the host's tiles (the case's tile) through the GLB, in the case's memory tiles."""
    tx, ty = case.tile or (case.width, case.height)
    mx, my = case.mem_tile or (tx, ty)
    # lanes: every level unrolled by them, RoundUp (tests/flow/independent/test_variations.py `_glb_blur`)
    def u(var: str) -> str:
        return f".unroll({var}, {case.lanes}, hl.TailStrategy.RoundUp)" if case.lanes > 1 else ""

    # the rows unrolled too (fuzz_blocks.py `with_glb_rows`): the array output's, the GLB copy's, the stages',
    # the input copies'
    def r(part: str, var: str) -> str:
        return f".unroll({var}, 2, hl.TailStrategy.RoundUp)" if part in case.glb_rows and "r" in case.glb_rows else ""

    lines = [f'    a["output"]{_bound(case, "x", case.width)}{_bound(case, "y", case.height)}',
             '    glb = a["hw_output"].in_()',
             f'    glb.compute_root().tile(x, y, xo, yo, xi, yi, {tx}, {ty}).hw_accelerate(xi, xo)',
             f'    glb{u("xi")}{r("c", "yi")}.store_in(hl.MemoryType.GLB)',
             '    xio, yio, xii, yii = (hl.Var(n) for n in ("xio", "yio", "xii", "yii"))',
             (f'    a["hw_output"].tile(x, y, xio, yio, xii, yii, {mx}, {my}).compute_at(glb, xo){u("xii")}'
             f'{r("r", "yii")}')]
    for s in case.stages:
        if s.kind == "reduce" and s.unrolled:
            lines.append(f'    a["{s.name}"].update().unroll(a["r_{s.name}"].x).unroll(a["r_{s.name}"].y)')
        lines += partial_line(case, s.name)
        if not s.inline:
            at = 'store_at(a["hw_output"], xio).compute_at(a["hw_output"], yii)' if "w" in case.glb_more \
                else 'compute_at(a["hw_output"], xio)'
            lines.append(f'    a["{s.name}"].{at}{u("x")}{r("s", "y")}')
            if s.kind == "reduce" and (case.lanes > 1 or r("s", "y")):
                lines.append(f'    a["{s.name}"].update(){u("x")}{r("s", "y")}')
    copy_at = 'store_at(a["hw_output"], xio).compute_at(a["hw_output"], yii)' if "c" in case.glb_more \
        else 'compute_at(a["hw_output"], xio)'
    # a second image (fuzz_outputs.py): its copies as the input's, its GLB copy left out in one case of two
    images = ["hw_input"] + ["hw_input2"] * bool(case.second)
    for k, name in enumerate(images):
        lines.append(f'    a["{name}"].in_().in_().{copy_at}{u("x")}{r("i", "y")}')
        if "n" not in case.glb_more and not (k and case.seed % 2):  # (else the host loads it into the GLB as it is)
            lines.append(f'    a["{name}"].in_().compute_at(glb, xo){u("x")}{r("i", "y")}.store_in(hl.MemoryType.GLB)')
    if "y" in case.glb_more:  # the GLB output read back along y first
        lines.append('    glb.reorder(yi, xi)')
    return lines + [f'    a["{name}"].compute_root().accelerator_input()' for name in images]


def _output_loops(case: Case) -> list[str]:
    """fuzz_wide.py's lines on the output's loops: its row loop unrolled or split, an explicit bound."""
    lines = []
    if case.loops == "unroll_y" and case.seed % 2:
        # two rows per transfer as Halide users write it, xi inside the unrolled rows: the hardware runs them
        # innermost (hwlower/loops.py `lanes_innermost`), as the split form below writes it (even seeds)
        lines.append('    a["hw_output"].unroll(yi, 2)')
    elif case.loops:
        # two rows per transfer: the unrolled rows innermost, written so (the output streams one firing's pixels
        # as consecutive words)
        order = {"unroll_y": ".reorder(yii, xi, yio).unroll(yii)", "strips": ".reorder(yii, xi, yio)"}
        lines.append('    yio, yii = hl.Var("yio"), hl.Var("yii")')
        lines.append('    a["hw_output"].split(yi, yio, yii, 2)' + order.get(case.loops, ""))
    if case.bound:
        lines.append(f'    a["hw_output"].bound(x, 0, {case.width}).bound(y, 0, {case.height})')
    return lines
