"""Addressed reads grouped into banks as a snake through the buffer (memories/read_groups.py): a resnet-style layer
whose channel RVar is split by 2 and unrolled inside (probe39's resnet_channels_partly_unrolled) reads 3x3 taps of
two channels a cycle, two reads a bank; each bank now takes two neighbouring taps (a 5 x 4 hull) where the reads in
order of their least elements put a row's last tap with the next row's first (6 x 5). Bit-exact on both simulators
at unchanged cycles. Session 41: with 3 controllers a tile read port, banks by residue beat both (271 words)."""

import numpy as np
import pytest

import mainspring as hl

SIMULATORS = ("icarus", "verilator")


def _resnet_channels_split(channels_in: int = 4):
    """conv(x, y, k) over 3x3 taps of `channels_in` channels, r.z split by 2 and its inner part unrolled with
    r.x, r.y: 2 cycles a pixel, 4x4x2 out."""
    inp, wt = hl.ImageParam(hl.UInt(8), 3, "input"), hl.ImageParam(hl.UInt(8), 4, "weights")
    x, y, k, w = hl.Var("x"), hl.Var("y"), hl.Var("k"), hl.Var("w")
    hw_input, hw_w, conv, hw_output, output = (hl.Func(n) for n in ("hw_input", "hw_weights", "conv", "hw_output",
                                                                    "output"))
    hw_input[x, y, k] = hl.u16(inp[x, y, k])
    hw_w[x, y, k, w] = hl.u16(wt[x, y, k, w])
    r = hl.RDom([(0, 3), (0, 3), (0, channels_in)], "r")
    conv[x, y, k] = hl.u16(0)
    conv[x, y, k] += hw_w[r.x, r.y, r.z, k] * hw_input[x + r.x, y + r.y, r.z]
    hw_output[x, y, k] = conv[x, y, k]
    output[x, y, k] = hl.u8(hw_output[x, y, k] >> 6)
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    rzo, rzi = hl.RVar("rzo"), hl.RVar("rzi")
    output.bound(x, 0, 4).bound(y, 0, 4).bound(k, 0, 2)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 4, 4).reorder(k, xi, yi, xo, yo).hw_accelerate(xi, xo)
    conv.compute_at(hw_output, xo).reorder(k, x, y)
    conv.update().split(r.z, rzo, rzi, 2).reorder(rzi, r.x, r.y, rzo, k, x, y).unroll(r.x).unroll(r.y).unroll(rzi)
    hw_input.compute_root().stream_to_accelerator()
    hw_w.compute_root().stream_to_accelerator()
    rng = np.random.default_rng(40)
    inputs = {"input": rng.integers(0, 256, (channels_in, 6, 6)).astype(np.uint8),
              "weights": rng.integers(0, 256, (2, channels_in, 3, 3)).astype(np.uint8)}
    return output, inputs


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_channel_pairs_of_3x3_taps_bank_neighbouring_taps(simulator, build_dir, compile_shared):
    out, inputs = _resnet_channels_split()
    design = compile_shared(out, name="read_groups_resnet_split")
    words = {b["name"]: (b["words"], b["min_words"]) for b in design.report["buffers"]}
    # Since session 41 (3 controllers a tile read port, ms_mem_tile's R2 to R5 sharing its two) banks by residue:
    # 9 banks of 6 read ports each (2 tile read ports and 4 sharing them), 6 of 20 words and 3 of 44, 252 words and
    # 18 output registers + the stream's. Before, 8 banks of two neighbouring taps of a channel pair (2 x 5 x 4 = 40
    # words each) and one of tap (2, 2) of both pairs (64): 403; 439 when banks 1 and 7 took taps (2, 0) and (0, 1)
    # (58 words each). The whole frame is live (the output channel k is outermost): minimum 144
    assert words["hw_input"] == (271, 144)
    hw_input = next(b for b in design.plan.buffers if b.name == "hw_input")
    assert sorted(k.words for k in hw_input.banks) == [20] * 6 + [44] * 3
    assert design.report["mem_tiles"] == 19
    assert design.report["predicted_cycles"] == 194  # as before (ideal 144: the frame arrives first)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
