"""Memory tiles shared by two banks (memories/shared_tiles.py): a bank of one write and one read port leaves its
tile's second port pair idle, which another buffer's bank takes, in words of the tile past the first bank's.
Bit-exact on both simulators (unsharp's delay line beside an addressed bank: tests/flow/test_flow_h2h.py)."""

import numpy as np
import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")


def _transposed_pair(n: int):
    """Two input streams each read transposed: an addressed bank of a frame each, one write and one read port."""
    x, y = hl.Var("x"), hl.Var("y")
    a, b = hl.ImageParam(hl.Int(16), 2, "a"), hl.ImageParam(hl.Int(16), 2, "b")
    hw_a, hw_b, hw_output, out = (hl.Func(k) for k in ("hw_a", "hw_b", "hw_output", "out"))
    hw_a[x, y] = a[x, y]
    hw_b[x, y] = b[x, y]
    hw_output[x, y] = hw_a[y, x] - hw_b[y, x] * 3
    out[x, y] = hw_output[x, y]
    out.bound(x, 0, n).bound(y, 0, n)
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, n, n).hw_accelerate(xi, xo)
    hw_a.stream_to_accelerator()
    hw_b.stream_to_accelerator()
    rng = np.random.default_rng(7)
    return out, {k: rng.integers(-1000, 1000, (n, n)).astype(np.int16) for k in ("a", "b")}


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_two_addressed_banks_share_one_tile(simulator, build_dir, compile_shared):
    out, inputs = _transposed_pair(8)
    design = compile_shared(out, name="shared_transposed")
    banks = {k.name: k for b in design.plan.buffers for k in b.banks}
    # hw_b's frame sits on hw_a's tile from word 62 on (each bank holds the 62 words a transpose keeps live)
    assert banks["hw_b.bank0"].host == "hw_a.bank0" and banks["hw_b.bank0"].tiles == 0
    assert banks["hw_b.bank0"].base == banks["hw_a.bank0"].words == 62
    assert design.report["mem_tiles"] == 1  # 2 before
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
