"""hwlower: region finding, lowering and the printed loop nest (passes: find_region, lower)."""

import inspect
import os

import pytest

import mainspring as hl
from mainspring import apps
from mainspring.apps.common import accelerate
from mainspring.frontend.pipeline import Pipeline
from mainspring.hwlower.lower import lower
from mainspring.hwlower.printer import format_nest

# The one golden loop nest of gaussian, which the flow's output tests also compare design files against.
GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "flow", "golden")


def _here() -> str:
    f = inspect.currentframe().f_back
    return f"{os.path.relpath(f.f_code.co_filename)}:{f.f_lineno}"


def test_gaussian_loop_nest_golden(golden):
    mod = apps.load("gaussian")
    out, _ = mod.build(*mod.DEFAULT_SIZE)
    golden(os.path.join(GOLDEN, "gaussian.loops.txt"), format_nest(lower(Pipeline(out), "gaussian").nest))


@pytest.mark.parametrize("name", apps.APPS)
def test_apps_lower_to_one_op_per_buffered_func(name):
    mod = apps.load(name)
    out, _ = mod.build(*mod.DEFAULT_SIZE)
    low = lower(Pipeline(out), name)
    funcs = [op.func for loops, op in low.nest.ops() if not any("$" in lp.var for lp in loops)]
    assert len(funcs) == len(set(funcs)), "unrolled reductions fold into their Func's op (serial ones stay loops)"
    assert funcs[-1] == low.nest.output
    for loops, _op in low.nest.ops():
        # Only lanes are unrolled: the innermost loop (h2h_gaussian's 2 pixels per cycle; unroll(x, 1) is one) or
        # a whole channel dimension (camera_pipeline's demosaicked(x, y, c).unroll(c), its outermost loop).
        assert all(not lp.unrolled or lp.extent == 1 or lp.var.endswith(".c") for lp in loops[:-1])


def test_gaussian_taps_are_affine_loads():
    mod = apps.load("gaussian")
    out, _ = mod.build(*mod.DEFAULT_SIZE)
    nest = lower(Pipeline(out), "g").nest
    (_, op), = [(lp, o) for lp, o in nest.ops() if o.func == "blur_unnormalized"]
    offsets = sorted((p.access.index[0].const, p.access.index[1].const) for p in op.loads)
    assert offsets == [(i, j) for i in range(3) for j in range(3)]
    assert nest.buffer("hw_input").box == ((0, 64), (0, 64))


def test_sequential_reduction_stays_a_loop():
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(inp[x, y])
    r = hl.RDom([hl.Range(0, 4)], "r")
    acc = hl.Func("acc")
    acc[x, y] = hl.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = acc[x, y]
    apps.common.accelerate(hw_output, hw_output, 8, 8, [acc], hw_input)
    nest = lower(Pipeline(hw_output), "seq").nest
    ops = {op.name: loops for loops, op in nest.ops()}
    assert [lp.extent for lp in ops["acc_s1"]] == [8, 8, 4]


def _gaussian_like():
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(inp[x, y])
    blur = hl.Func("blur")
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output = hl.Func("hw_output")
    hw_output[x, y] = blur[x, y]
    return x, y, (xo, yo, xi, yi), inp, hw_input, blur, hw_output


def test_error_no_hw_accelerate():
    x, y, _, _, _hw_input, _blur, hw_output = _gaussian_like()
    hw_output.bound(x, 0, 8).bound(y, 0, 8)
    with pytest.raises(hl.HalideError,
                       match=r"No Func of the pipeline of 'hw_output' is scheduled hw_accelerate: mark"):
        lower(Pipeline(hw_output), "t")


def test_error_two_hw_accelerate():
    x, y, (xo, yo, xi, yi), _, _hw_input, blur, hw_output = _gaussian_like()
    hw_output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    blur.tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    with pytest.raises(hl.HalideError, match=r"Several Funcs are scheduled hw_accelerate "
                                             r"\('blur' at .*; 'hw_output' at .*\): one accelerated region"):
        lower(Pipeline(hw_output), "t")


def test_error_output_without_bound():
    x, y, (xo, yo, xi, yi), _, hw_input, blur, hw_output = _gaussian_like()
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.stream_to_accelerator()
    blur.compute_at(hw_output, xo)
    with pytest.raises(hl.HalideError, match=r"Func 'hw_output' is the pipeline's output but its dimension x has no "
                                             r"bound.*hw_output.bound\(x, 0, <extent>\)"):
        lower(Pipeline(hw_output), "t")


def test_error_func_between_not_placed_inside():
    x, y, (xo, yo, xi, yi), _, hw_input, blur, hw_output = _gaussian_like()
    hw_output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    blur.compute_root(); where = _here()  # noqa: E702 - _here() is this line
    with pytest.raises(hl.HalideError) as err:
        lower(Pipeline(hw_output), "t")
    assert str(err.value) == (
        f"{where}: Func 'blur' lies between the accelerator's inputs and its output 'hw_output' but is scheduled "
        "compute_root, outside the accelerator. Place it inside: blur.compute_at(hw_output, xo), or make it an "
        "accelerator input (blur.stream_to_accelerator())."
    )


def test_error_non_affine_access():
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(inp[x, y])
    f, g = hl.Func("f"), hl.Func("g")
    # a clamped read of the input is affine since the `edges` pass; a product of the coordinates is computed in an
    # index Func (index_funcs.py), through an inline Func too (inline_reads.py); one of a serial reduction's
    # variable reaches the loop nest as written
    r = hl.RDom([hl.Range(0, 3)], "r")
    g[x, y] = hw_input[x * y, y]
    f[x, y] = g[x, y]
    f[x, y] += hw_input[x * r.x, y]
    apps.common.accelerate(f, f, 8, 8, [], hw_input)
    with pytest.raises(hl.HalideError, match=r"Func 'f'.update\(0\) accesses 'hw_input' at \(x \* r.x\), "
                                             r"which is not an affine function of its loops"):
        lower(Pipeline(f), "t")


def test_host_tiles_shift_inward_at_the_edge():
    x, y, (xo, yo, xi, yi), _, hw_input, blur, hw_output = _gaussian_like()
    hw_output.bound(x, 0, 20).bound(y, 0, 8)
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    blur.compute_at(hw_output, xo)
    low = lower(Pipeline(hw_output), "t")
    assert [t.output_box for t in low.tiles] == [[(0, 7), (0, 7)], [(8, 15), (0, 7)], [(12, 19), (0, 7)]]
    assert [t.boxes["hw_input"] for t in low.tiles] == [[(0, 8), (0, 7)], [(8, 16), (0, 7)], [(12, 20), (0, 7)]]
    assert low.nest.buffer("hw_input").box == ((0, 9), (0, 8))


def test_a_tile_larger_than_the_output_shrinks_to_it():
    # Halide would shift the tile inward and read before the image; the hardware computes one tile of the output.
    x, y, (xo, _yo, xi, _yi), _, hw_input, blur, hw_output = _gaussian_like()
    hw_output.bound(x, 0, 6).bound(y, 0, 8)
    hw_output.split(x, xo, xi, 8)
    hw_output.reorder(xi, y, xo).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    blur.compute_at(hw_output, xo)
    low = lower(Pipeline(hw_output), "t")
    assert [t.output_box for t in low.tiles] == [[(0, 5), (0, 7)]]
    assert low.nest.buffer("hw_output").box == ((0, 6), (0, 8))


def test_error_host_tiles_with_round_up():
    x, y, (xo, yo, xi, yi), _, hw_input, blur, hw_output = _gaussian_like()
    hw_output.bound(x, 0, 20).bound(y, 0, 8); where = _here()  # noqa: E702 - _here() is this line
    hw_output.tile(x, y, xo, yo, xi, yi, 8, 8, hl.TailStrategy.RoundUp)
    hw_output.hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    blur.compute_at(hw_output, xo)
    with pytest.raises(hl.HalideError) as err:
        lower(Pipeline(hw_output), "t")
    assert str(err.value) == (  # Halide's refusal (frontend/bounds.py), before hwlower's tiles see the split
        f"{where}: Bounds given for hw_output in x (from 0 to 19) do not cover required region (from 0 to 23): a "
        "RoundUp split of x runs whole steps past the bound; split x by a factor that divides 20, or use "
        "hl.TailStrategy.GuardWithIf (or ShiftInwards) for that split, or widen the bound"
    )


def test_error_upsample_index():
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(inp[x, y])
    u = hl.Func("u")
    u[x, y] = hw_input[x / 2, y / 2]
    accelerate(u, u, 8, 8, [], hw_input)
    u.reorder(hl.Var("yi"), hl.Var("xi"))  # column-major: x / 2 is still affine after the split
    lower(Pipeline(u), "t")
    v = hl.Func("v")
    at = f"{os.path.relpath(__file__)}:{inspect.currentframe().f_lineno + 1}"
    v[x, y] = hw_input[(x + y) / 2, y]  # two loops under one division: no split makes it affine
    accelerate(v, v, 8, 8, [], hw_input)
    with pytest.raises(hl.HalideError) as err:
        lower(Pipeline(v), "t")
    assert str(err.value) == (
        f"{at}: Func 'v' accesses 'hw_input' at ((x + y) / 2), which is not an affine function of its loops; memories "
        "need affine addresses: an index divided (or taken modulo) by a constant d is affine only where its loop "
        "runs over whole multiples of d (an upsample by d splits the loop into d-long steps); make the Func's "
        "extent along that loop a multiple of d, starting at a multiple of d, and its lanes along it (an unroll) a "
        "multiple or a divisor of d."
    )


def test_upsample_loops_are_strip_mined():
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(inp[x, y])
    u = hl.Func("u")
    u[x, y] = hw_input[x / 2, y / 2] + hw_input[x / 2 + 1, y / 2]
    accelerate(u, u, 8, 6, [], hw_input)
    (loops, op), = lower(Pipeline(u), "t").nest.ops()
    assert [(lp.var, lp.extent) for lp in loops] == [
        ("u.s0.yi.strip_o", 3), ("u.s0.yi.strip_i", 2), ("u.s0.xi.strip_o", 4), ("u.s0.xi.strip_i", 2)]
    assert [str(i) for i in op.loads[1].access.index] == ["u.s0.xi.strip_o + 1", "u.s0.yi.strip_o"]



def _two_resolutions_of_one_dimension():
    """u reads f at x / 2 directly and at x through g (= f + 1): the linked x dimensions of f, g and u have no
    one resolution each that fits both paths."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    hw_input = hl.Func("hw_input")
    hw_input[x, y] = hl.u16(inp[x, y])
    f, g, u = hl.Func("f"), hl.Func("g"), hl.Func("u")
    f[x, y] = hw_input[x, y] * 2
    g[x, y] = f[x, y] + 1
    u[x, y] = f[x / 2, y] + g[x, y]
    accelerate(u, u, 8, 4, [f, g], hw_input)
    return u


def test_dimensions_at_inconsistent_resolutions_are_strip_mined_whole():
    nest = lower(Pipeline(_two_resolutions_of_one_dimension()), "t").nest
    loops = {op.func: [(lp.var, lp.extent) for lp in lps] for lps, op in nest.ops()}
    assert loops == {name: [(f"{name}.s0.{y}", 4), (f"{name}.s0.{x}.strip_o", 4), (f"{name}.s0.{x}.strip_i", 2)]
                     for name, x, y in (("f", "x", "y"), ("g", "x", "y"), ("u", "xi", "yi"))}
