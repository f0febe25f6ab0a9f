"""Index19's programs (session 34): reads at an index that multiplies or divides the coordinates, which the
`indices` pass (hwlower/index_funcs.py) computes in a clamped Func of its own; each in module m (`mainspring`, or
`halide`), returning (output, {name: ImageParam}, size);
probe19f's product_coordinates (hw_input[(x * y) % 5, y], 5x3) is here for Verilator."""

from probe19_programs import _in, _out, _sched
from probe19f_programs import product_coordinates
from probe_common import on_hardware


def product_8x8(m):
    """hw_input[x * y, y] over an 8x8 frame (the catalogue's non_affine_index, as written)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x * y, y] + 1))
    if on_hardware(m):
        _sched(m, output, hw_output, (8, 8), inputs=(hw_input,))
    return output, {"input": inp}, [8, 8]


def product_modulo_two_tiles(m):
    """hw_input[(x * y) % 5, y] over a 10x3 frame in two 5x3 tiles (the index moves with the tile's x)."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[(x * y) % 5, y] + hw_input[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (10, 3), tile=(5, 3), inputs=(hw_input,))
    return output, {"input": inp}, [10, 3]


def product_quotient_and_remainder(m):
    """A producer at xo reads hw_input[(x * y) / 3, y] and hw_input[(x * y) % 3, y] (two indices, two Funcs)."""
    inp, x, y, hw_input = _in(m)
    mid = m.Func("mid")
    mid[x, y] = hw_input[(x * y) / 3, y] + hw_input[(x * y) % 3, y] * 2
    hw_output, output = _out(m, lambda x, y: m.u8(mid[x, y] + 3))
    if on_hardware(m):
        _sched(m, output, hw_output, (6, 4), inner=(mid,), inputs=(hw_input,))
    return output, {"input": inp}, [6, 4]


def product_in_a_serial_update(m):
    """A serial reduction's update reads hw_input[(x * y) % 4, y] beside its window hw_input[x + r.x, y]."""
    inp, x, y, hw_input = _in(m)
    acc = m.Func("acc")
    r = m.RDom([m.Range(0, 3)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[(x * y) % 4, y] + hw_input[x + r.x, y]
    hw_output, output = _out(m, lambda x, y: m.u8(acc[x, y]))
    if on_hardware(m):
        _sched(m, output, hw_output, (5, 3), inner=(acc,), inputs=(hw_input,))
    return output, {"input": inp}, [5, 3]


def squared_in_host_tiles(m):
    """hw_output reads hw_input[x * x, y] in host tiles 3 wide over 12 (errors_tiles' squared index, buffered): the
    index is clamped to the frame's 0..121, so every tile's footprint is the same."""
    inp, x, y, hw_input = _in(m)
    hw_output, output = _out(m, lambda x, y: m.u8(hw_input[x * x, y] * 2))
    if on_hardware(m):
        _sched(m, output, hw_output, (12, 4), tile=(3, 4), inputs=(hw_input,))
    return output, {"input": inp}, [12, 4]


CASES = {f.__name__: f for f in (product_coordinates, product_8x8, product_modulo_two_tiles,
                                  product_quotient_and_remainder, product_in_a_serial_update,
                                  squared_in_host_tiles)}
