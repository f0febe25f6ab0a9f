"""What the hand-schedule probes of sessions 34 and 35 (test_probe19, test_probe20, test_index19, test_inline20)
share: their cases are programs of a module m (`mainspring` or `halide`) returning (output, images, size); each
design is compiled once a worker (an xdist group per case holds its simulators' runs), simulated bit-exact at its
predicted cycles, and its reference compared with Halide 21's."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from oracle import halide_outputs
from porting import BUILD

import mainspring as hl


def bit_exact(design, inputs, want, simulator: str) -> None:
    """`design` on `simulator` is bit-exact at its predicted cycles, and its reference outputs are `want`
    (Halide 21's), type, shape and values."""
    res = design.check(inputs, simulator=simulator, build_dir=BUILD)
    assert res.cycles == res.predicted_cycles
    got = design.reference_outputs(inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)


class HandProbe:
    """A probe's cases {case: program} (`programs`); VERILATOR cases run on Verilator as well as Icarus; REFUSED
    cases {case: (fixed case, message pattern)} are refused with a user error whose fix is a case of its own."""

    def __init__(self, name: str, programs: dict, verilator=(), refused: dict | None = None, slow=()):
        self.name, self.refused, self.slow = name, refused or {}, set(slow)
        self.verilator = set(verilator)
        self.programs = programs
        self.cases = [c for c in programs if c not in self.refused]
        self.design = functools.cache(self._design)
        self._want = functools.cache(self._inputs_and_halide)

    def params(self) -> list:
        """pytest params over (case, simulator), a case's runs in one xdist group."""
        out = []
        for case in self.cases:
            marks = [pytest.mark.xdist_group(f"{self.name}-{case}")] + ([pytest.mark.slow] if case in self.slow
                                                                        else [])
            for sim in ("icarus", "verilator") if case in self.verilator else ("icarus",):
                out.append(pytest.param(case, sim, marks=marks, id=f"{case}-{sim}"))
        return out

    def _design(self, case: str):
        return hl.compile(self.programs[case](hl)[0], name=f"{self.name}_{case}")

    def _inputs_and_halide(self, halide, case: str):
        inputs = self.design(case).example_inputs(1)
        out, images, size = self.programs[case](halide)
        return inputs, tuple(halide_outputs(halide, out, images, inputs, size))

    def check(self, case: str, simulator: str, halide) -> None:
        inputs, want = self._want(halide, case)
        bit_exact(self.design(case), inputs, want, simulator)

    def check_refused(self, case: str) -> None:
        fixed, pattern = self.refused[case]
        with pytest.raises(hl.HalideError, match=pattern):
            hl.compile(self.programs[case](hl)[0], name=f"{self.name}_{case}")
        assert fixed in self.cases
