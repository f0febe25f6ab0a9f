"""Quotients no split of their loop makes affine, read as a select over the few values they take
(hwlower/lane_quotients.py), each an affine read: one loop read at two divisors (x / 2 and x / 3) in a row so narrow
that x / 3 takes 4 values (48 wide it takes more than a lane may choose among: refused with a fix, catalogue
`read_at_two_divisors`); a serial transposed convolution whose rows shear ((x + r.x) / 2 + r.y), whose x steps by 2
so that its quotient takes 2 values a step at any width (refused until session 34: catalogue
`sheared_transposed_convolution_serial`; 32 and 64 wide 1,045 and 2,069 cycles for 1,024 and 2,048). Bit-exact on
both simulators at the predicted cycles."""

import pytest

import mainspring as hl
from mainspring.apps.common import accelerate

from conftest import SIMULATORS


def _two_divisors():
    """hw_output(x, y) = f(x / 2, y) + g(x / 3, y), 12 x 2: x steps by 2 (for x / 2), x / 3 takes 4 values."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, f, g, hw_output = (hl.Func(n) for n in ("hw_input", "f", "g", "hw_output"))
    hw_input[x, y] = input_[x, y]
    f[x, y] = hw_input[x, y] + 1
    g[x, y] = hw_input[x, y] * 2
    hw_output[x, y] = f[x / 2, y] + g[x / 3, y]
    accelerate(hw_output, hw_output, 12, 2, [f, g], hw_input)
    return hl.compile(hw_output, name="quot_two_divisors")


def _sheared_upconv():
    """up(x, y) = sum over r (2 x 2, serial) of hw_input((x + r.x) / 2 + r.y, y / 2) * (r.x + 2 r.y + 1), 8 x 8."""
    x, y = hl.Var("x"), hl.Var("y")
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, up, hw_output = hl.Func("hw_input"), hl.Func("up"), hl.Func("hw_output")
    r = hl.RDom([hl.Range(0, 2), hl.Range(0, 2)], "r")
    hw_input[x, y] = input_[x, y]
    up[x, y] = hl.u16(0)
    up[x, y] += hw_input[(x + r.x) / 2 + r.y, y / 2] * hl.u16(r.x + 2 * r.y + 1)
    hw_output[x, y] = up[x, y]
    accelerate(hw_output, hw_output, 8, 8, [up], hw_input)
    return hl.compile(hw_output, name="quot_sheared_upconv")


@pytest.mark.parametrize(("make", "cycles", "ideal"), [(_two_divisors, 35, 24), (_sheared_upconv, 264, 256)],
                         ids=("two_divisors", "sheared_upconv"))
@pytest.mark.parametrize("simulator", SIMULATORS)
def test_a_quotient_of_a_narrow_row_is_a_select_over_its_values(make, cycles, ideal, simulator, build_dir):
    design = make()
    assert (design.report["predicted_cycles"], design.report["ideal_cycles"]) == (cycles, ideal)
    assert design.check(design.example_inputs(3), simulator=simulator, build_dir=build_dir).cycles == cycles
