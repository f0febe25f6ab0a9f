"""hwlower's named passes, their dumps, the verifier between them, and the self-contained program they hand on."""

from __future__ import annotations

import dataclasses

import pytest

from mainspring import apps
from mainspring.frontend import ir
from mainspring.frontend.func import Definition, Function
from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.types import Int
from mainspring.hwlower import STEP_NAMES, Access, Affine, HwProgram, LoadPort, Op, lower, verify_nest, verify_program


def _program(name: str, dump=None) -> HwProgram:
    mod = apps.load(name)
    out, _ = mod.build(*mod.DEFAULT_SIZE)
    return lower(Pipeline(out), name, dump)


@pytest.mark.parametrize("app", ["gaussian", "gaussian_glb", "h2h_rom"])
def test_every_step_dumps_in_order(app):
    seen: list[tuple[str, str]] = []
    _program(app, lambda step, text: seen.append((step, text())))
    assert [s for s, _ in seen] == list(STEP_NAMES)
    assert all(text.strip() for _, text in seen)
    text = dict(seen)
    assert "accelerator output: hw_output" in text["region"]
    assert text["ops"].startswith("// accelerator")


def _frontend_objects(value, path="program", seen=None) -> list[str]:
    """Paths of Pipeline / Function / Definition objects reachable from `value` (op values are frontend IR
    expressions by contract, so they are not walked)."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, (str, int, float, ir.Expr)) or value is None:
        return []
    seen.add(id(value))
    if isinstance(value, (Pipeline, Function, Definition)):
        return [path]
    if dataclasses.is_dataclass(value):
        return [p for f in dataclasses.fields(value)
                for p in _frontend_objects(getattr(value, f.name), f"{path}.{f.name}", seen)]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _frontend_objects(v, f"{path}[{k!r}]", seen)]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in _frontend_objects(v, f"{path}[{i}]", seen)]
    return []


@pytest.mark.parametrize("app", ["gaussian", "gaussian_glb", "cascade", "h2h_rom"])
def test_the_program_holds_no_frontend_object(app):
    assert _frontend_objects(_program(app)) == []


def _break(nest, **changes):
    """The nest with its first op changed."""
    (_loops, op), *_ = nest.ops()
    new = dataclasses.replace(op, **changes)

    def swap(node):
        if node is op:
            return new
        if isinstance(node, Op):
            return node
        return dataclasses.replace(node, body=tuple(swap(c) for c in node.body))

    return dataclasses.replace(nest, body=tuple(swap(n) for n in nest.body))


def test_verifier_accepts_every_app():
    for name in apps.APPS:
        verify_program(_program(name))


def test_verifier_rejects_an_unknown_buffer():
    nest = _program("gaussian").nest
    (_, op), *_ = nest.ops()
    bad = LoadPort("nowhere_0", Access("nowhere", op.store.index))
    with pytest.raises(AssertionError, match="hwlower contract: op 'blur_unnormalized_s0' load 'nowhere_0': unknown "
                                             "buffer nowhere"):
        verify_nest(_break(nest, loads=op.loads + (bad,)))


def test_verifier_rejects_an_index_outside_its_loops():
    nest = _program("gaussian").nest
    (_, op), *_ = nest.ops()
    index = (Affine.make({"elsewhere": 1}, 0),) + op.store.index[1:]
    with pytest.raises(AssertionError, match=r"hwlower contract: op 'blur_unnormalized_s0' store: index elsewhere "
                                             r"uses \['elsewhere'\], which are not its enclosing loops"):
        verify_nest(_break(nest, store=Access(op.store.buffer, index)))


def test_verifier_rejects_a_store_into_an_input():
    nest = _program("gaussian").nest
    (_, op), *_ = nest.ops()
    with pytest.raises(AssertionError, match=r"hwlower contract: ops store into inputs \{'hw_input'\}"):
        verify_nest(_break(nest, store=Access("hw_input", op.store.index)))


def test_verifier_rejects_a_free_variable_in_a_value():
    nest = _program("gaussian").nest
    with pytest.raises(AssertionError, match="hwlower contract: op 'blur_unnormalized_s0': free variable x"):
        verify_nest(_break(nest, value=ir.Var(Int(32), "x")))


def test_verifier_rejects_a_load_of_another_op():
    nest = _program("gaussian").nest
    ops = [op for _, op in nest.ops()]
    foreign = next(n for n in ir.walk(ops[1].value) if isinstance(n, ir.Call) and isinstance(n.callee, LoadPort))
    with pytest.raises(AssertionError, match=f"hwlower contract: op 'blur_unnormalized_s0': reads load "
                                             f"{foreign.callee.name} of another op"):
        verify_nest(_break(nest, value=foreign))


def test_upsample_steps_follow_dimensions_not_argument_positions():
    # camera_pipeline: demosaicked reads the half-resolution planes at x / 2; the full-resolution Funcs along
    # those dimensions are strip-mined (hw_output(c, x, y) in its x and y, not its c), the planes are not.
    from mainspring.apps import h2h_camera_pipeline as cam

    out, _ = cam.build(8, 8)
    nest = lower(Pipeline(out), "cam").nest
    loops = {op.func: [lp.var for lp in lps] for lps, op in nest.ops()}
    assert loops["g_gr"] == ["g_gr.s0.y", "g_gr.s0.x"]
    assert loops["denoised"] == ["denoised.s0.y.strip_o", "denoised.s0.y.strip_i", "denoised.s0.x.strip_o",
                                 "denoised.s0.x.strip_i"]
    assert loops["hw_output"] == ["hw_output.s0.yi.strip_o", "hw_output.s0.yi.strip_i", "hw_output.s0.xi.strip_o",
                                  "hw_output.s0.xi.strip_i", "hw_output.s0.c"]
    assert nest.buffer("g_gr").box == ((-1, 6), (-1, 6))  # needed over 6 rows: no rounding for a coarse plane
