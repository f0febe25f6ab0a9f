"""User names that are no Verilog identifier (a Param, an image or a Func whose name starts with a digit or holds
'.' or ' '): every stage names its ports by one rule (frontend/identifiers.py), so the kernels' ports, the top's
ports and what the bench drives agree."""

from __future__ import annotations

import re

import numpy as np
import pytest

import mainspring as hl
from mainspring.apps.common import random_image
from mainspring.frontend.identifiers import verilog_identifier

from conftest import SIMULATORS

W, H, BINS = 8, 6, 16


def _oddly_named():
    """Histogram back-projection scaled by a Param and offset by the image's width, every name awkward: the RAM's
    read-modify-write and lookup loads, the stream, the Param and the image's size all become ports."""
    x, y, b, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "b", "xo", "yo", "xi", "yi"))
    image = hl.ImageParam(hl.UInt(8), 2, "9in.put")
    gain = hl.Param(hl.UInt(16), "3gain", 3)
    hw_input, hist, hw_output, output = (hl.Func(n) for n in ("7hw input", "5hist", "hw_output", "output"))
    hw_input[x, y] = hl.u16(image[x, y])
    r = hl.RDom([hl.Range(0, W), hl.Range(0, H)], "r")
    hist[b] = hl.u16(0)
    hist[hl.clamp(hl.i32(hw_input[r.x, r.y]) >> 4, 0, BINS - 1)] += hl.u16(1)
    hw_output[x, y] = (hist[hl.clamp(hl.i32(hw_input[x, y]) >> 4, 0, BINS - 1)] * gain + hw_input[x, y]
                       + hl.u16(image.width()))
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, W).bound(y, 0, H)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, W, H).hw_accelerate(xi, xo)
    hist.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


def test_the_rule():
    assert [verilog_identifier(n) for n in ("gain", "3gain", "in.put.extent.0", "7hw input", "_0", "f$1")] == \
        ["gain", "n_3gain", "in_put_extent_0", "n_7hw_input", "n_0", "f_1"]


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_names_verilog_rejects_compile_and_simulate(simulator, build_dir, compile_shared):
    # Before session 26 the kernels named their ports '5hist_old' and '7hw_input_0' (refused as no Verilog
    # identifier) while the top named the Param's port n_3gain.
    design = compile_shared(_oddly_named(), name="odd_names")
    top = design.files()["odd_names.v"]
    ports = set(re.findall(r"^\s*(?:input|output)\s+(?:\[\d+:0\]\s+)?(\w+),?$", top, flags=re.MULTILINE))
    assert {"n_3gain", "n_9in_put_extent_0", "n_7hw_input_data"} <= ports
    image = random_image(W, H, seed=26)
    result = design.check({"9in.put": image, "3gain": 5}, simulator=simulator, build_dir=build_dir)
    bins = np.asarray(image).astype(np.int64) >> 4
    want = (np.bincount(bins.ravel(), minlength=BINS)[bins] * 5 + np.asarray(image) + W) % (1 << 16)
    np.testing.assert_array_equal(result.output, want)  # the Param and the width reached the kernel
