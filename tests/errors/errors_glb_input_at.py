"""Catalogue cases: seed 002's GLB input copy computed outside its GLB tile (hwlower/glb_input_at.py). The
accelerator input itself may be computed at any loop (the host computes it; tests/flow/test_flow_glb_input_at.py),
and its copy at the GLB tile loop is a GLB input tile stored in the GLB or not; a copy at the root or at a host loop
outside the GLB tile would hold more than a GLB tile in the GLB."""

from __future__ import annotations

import mainspring as hl

from catalogue import case, glb_levels, pipeline


def _copy_at(level: str):
    """Seed 002's three levels on a 32x32 pipeline in GLB tiles of 16x16, with the GLB input copy at `level`
    ("root", a host loop "yo", or the GLB tile loop "xo")."""
    p = glb_levels(pipeline(32, 32), glb_input=False)
    out = p.hw_output.in_()
    copy = p.hw_input.in_()
    if level == "root":
        copy.compute_root()  # <-copy_root
    else:
        copy.compute_at(out, hl.Var(level))  # <-copy_at
    copy.store_in(hl.MemoryType.GLB)
    return hl.compile(p.output, name="demo")


@case("hardware", "A GLB input copy computed at the root", (
    "{copy_root}: Func 'hw_input_global_wrapper' is stored in the GLB but computed at the root, so the GLB would "
    "hold the whole image at once; the GLB holds one GLB tile of each input (double-buffered), loaded by the host "
    "once per GLB tile: hw_input.in_().compute_at(hw_output.in_(), xo)"), func="hw_input_global_wrapper",
    simulate=True, note="Halide accepts it (the whole input in the GLB)")
def glb_input_copy_at_the_root():
    return _copy_at("root")


@glb_input_copy_at_the_root.fix
def _():
    return _copy_at("xo")


@case("hardware", "A GLB input copy computed at a host loop outside the GLB tile", (
    "{copy_at}: Func 'hw_input_global_wrapper' is stored in the GLB but compute_at(hw_output_global_wrapper, yo), "
    "a host loop outside the GLB tile, so the GLB would hold the GLB tiles of each iteration of yo at once; the GLB "
    "holds one GLB tile of each input (double-buffered), loaded by the host once per GLB tile: "
    "hw_input.in_().compute_at(hw_output.in_(), xo)"), func="hw_input_global_wrapper", simulate=True,
    note="Halide accepts it (a row of GLB tiles of the input in the GLB)")
def glb_input_copy_at_a_host_loop():
    return _copy_at("yo")


@glb_input_copy_at_a_host_loop.fix
def _():
    return _copy_at("xo")
