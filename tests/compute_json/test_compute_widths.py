"""Value intervals and the bits each value needs (compute_json.widths; pipeline: compile_kernel, then
value_intervals / annotate_widths on its graph)."""

import numpy as np
import pytest

from mainspring.compute_json import Kernel, compile_kernel, read_port
from mainspring.compute_json.evaluate import node_value, pattern
from mainspring.compute_json.examples import kernel_vectors, random_kernel
from mainspring.compute_json.graph import operands, topological
from mainspring.compute_json.widths import annotate_widths, needed_bits, value_intervals
from mainspring.frontend import ir
from mainspring.frontend.types import Int, UInt

from compute_helpers import binop, const

I8, U8, I16, U16 = Int(8), UInt(8), Int(16), UInt(16)


def _out(make, types, given=None):
    """The output interval and the bits it needs of a kernel out = make(*ports) over ports x0, x1, ... of `types`."""
    ports = [read_port(f"x{i}", t) for i, t in enumerate(types)]
    e = make(*ports)
    g = compile_kernel(Kernel("k", tuple((f"x{i}", t) for i, t in enumerate(types)), (("out", e),)))
    iv = value_intervals(g, given)["out"]
    return iv, needed_bits(iv, e.type.bits())


def test_a_widened_pixel_needs_its_own_bits_and_sums_one_more():
    iv, bits = _out(lambda x: ir.Cast(U16, x), [U8])
    assert (iv, bits) == ((0, 255), (8, False))
    iv, bits = _out(lambda x, y: binop("add", ir.Cast(U16, x), ir.Cast(U16, y)), [U8, U8])
    assert (iv, bits) == ((0, 510), (9, False))
    iv, bits = _out(lambda x: binop("mul", const(U16, 37), x), [U16], {"x0": (0, 255)})
    assert (iv, bits) == ((0, 9435), (14, False))


def test_a_value_that_may_wrap_keeps_its_whole_width():
    # u8 x - y takes every 8-bit pattern; u16 x * x of any 16-bit x too.
    assert _out(lambda x, y: binop("sub", x, y), [U8, U8])[1] == (8, False)
    assert _out(lambda x: binop("mul", x, x), [U16])[1] == (16, False)
    # x + 200 for x in [100, 110] always wraps, by 256: the patterns are 44..54.
    assert _out(lambda x: binop("add", x, const(U8, 200)), [U8], {"x0": (100, 110)}) == ((44, 54), (6, False))
    # x + 200 for x in [0, 110] wraps for some x only: 200..255 and 0..54 are -56..54, 7 bits sign-extended;
    # x + 100 for any x takes all 256 patterns.
    assert _out(lambda x: binop("add", x, const(U8, 200)), [U8], {"x0": (0, 110)}) == ((-56, 54), (7, True))
    assert _out(lambda x: binop("add", x, const(U8, 100)), [U8])[1] == (8, False)


def test_signed_values_are_sign_extended():
    iv, bits = _out(lambda x: binop("sub", ir.Cast(I16, x), const(I16, 1)), [I8])
    assert (iv, bits) == ((-129, 126), (9, True))
    iv, bits = _out(lambda x: binop("mul", x, const(I16, -3)), [I16], {"x0": (-5, 5)})
    assert (iv, bits) == ((-15, 15), (5, True))
    # A u16 difference that may be negative is a signed pattern: 9 bits, sign-extended.
    iv, bits = _out(lambda x, y: binop("sub", ir.Cast(U16, x), ir.Cast(U16, y)), [U8, U8])
    assert (iv, bits) == ((-255, 255), (9, True))


def test_shifts():
    assert _out(lambda x: binop("shr", x, const(U16, 8)), [U16])[0] == (0, 255)
    assert _out(lambda x: binop("shl", x, const(U16, 3)), [U16], {"x0": (0, 255)}) == ((0, 2040), (11, False))
    assert _out(lambda x: binop("shr", x, const(I16, 2)), [I16], {"x0": (-100, 100)}) == ((-25, 25), (6, True))
    # An amount that is not a constant may shift a byte anywhere in the word.
    assert _out(lambda x, y: binop("shl", x, y), [U16, U16], {"x0": (0, 255)})[1] == (16, False)


def test_casts_min_max_select():
    # Truncation keeps a value that fits, and wraps one that does not (it then takes every pattern).
    assert _out(lambda x: ir.Cast(U8, x), [U16], {"x0": (0, 200)}) == ((0, 200), (8, False))
    assert _out(lambda x: ir.Cast(U8, x), [U16], {"x0": (100, 300)})[1] == (8, False)
    assert _out(lambda x: ir.Cast(U16, x), [I8])[1] == (8, True)  # -1 becomes 65535: 0xff sign-extended
    assert _out(lambda x: binop("min", ir.Cast(U16, x), const(U16, 1000)), [U8]) == ((0, 255), (8, False))
    assert _out(lambda x, y: binop("max", x, y), [I16, I16], {"x0": (-3, 4), "x1": (-7, 2)}) == ((-3, 4), (4, True))
    pick = lambda c, x: ir.Select(U16, binop("lt", c, const(U8, 3)), ir.Cast(U16, x), const(U16, 600))  # noqa: E731
    assert _out(pick, [U8, U8]) == ((0, 600), (10, False))


def test_annotate_widths_records_narrowed_ops_and_port_ranges():
    x = read_port("x", U16)
    e = binop("add", binop("mul", const(U16, 24), x), const(U16, 1))
    g = annotate_widths(compile_kernel(Kernel("k", (("x", U16),), (("out", e),))), {"x": (0, 255)})
    assert g.graph["ranges"] == {"inputs": {"x": (0, 255)}, "outputs": {"out": (1, 6121)}}
    assert sorted(d["narrow"] for _, d in g.nodes(data=True) if "narrow" in d) == [(13, False, 0, 6120),
                                                                                    (13, False, 1, 6121)]


def _values(g, vectors):
    """Every node's patterns on the input vectors."""
    vals = {}
    shape = next(iter(vectors.values())).shape
    for n in topological(g):
        d = g.nodes[n]
        if d["op"] == "input":
            vals[n] = pattern(vectors[d["port"]], d["type"])
        elif d["op"] == "output":
            vals[n] = vals[operands(g, n)[0]]
        else:
            args = [vals[a] for a in operands(g, n)]
            vals[n] = np.broadcast_to(np.asarray(node_value(g, n, args), dtype=np.int64), shape)
    return vals


@pytest.mark.parametrize("seed", range(8))
def test_every_value_is_the_extension_of_the_bits_it_needs(seed):
    """Random kernels of every type, some inputs confined to random ranges: each node's pattern on every vector is
    the zero- or sign-extension of its low `needed_bits`."""
    kernel = random_kernel(seed)
    g = compile_kernel(kernel)
    vectors = kernel_vectors(kernel, 3000, seed=seed)
    rng = np.random.default_rng(seed)
    given = {}
    for port, _ in kernel.inputs:
        if rng.random() < 0.6:
            lo, hi = sorted(int(v) for v in rng.choice(vectors[port], 2))
            vectors[port], given[port] = np.clip(vectors[port], lo, hi), (lo, hi)
    intervals = value_intervals(g, given)
    narrowed = 0
    for n, v in _values(g, vectors).items():
        w = g.nodes[n]["width"]
        bits, signed = needed_bits(intervals[n], w)
        low = v & ((1 << bits) - 1)
        high = ((1 << w) - 1) ^ ((1 << bits) - 1)
        ext = np.where((low >> (bits - 1)) & 1, low | high, low) if signed else low
        assert np.array_equal(ext, v), (n, g.nodes[n]["op"], intervals[n])
        narrowed += bits < w
    assert narrowed  # the check met narrowed values
