"""What the probes' programs modules (probe*_programs.py, test_probe8.py) share: each program is written in a
module m, `mainspring` or `halide`, and only mainspring's copy takes the hardware schedule."""

import numpy as np


def on_hardware(m, hardware: bool = True) -> bool:
    """Whether the program in module `m` takes its hardware schedule (Halide's copy never does)."""
    return hardware and m.__name__ == "mainspring"


def vars_of(m, names: str) -> list:
    """m.Var of each space-separated name."""
    return [m.Var(n) for n in names.split()]


def image(w, h, seed=0, dtype=np.uint8, lo=0, hi=256, c=None):
    """A seeded image of w x h pixels (c channels last): arr[y, x] (arr[y, x, c]) is Halide's buffer(x, y)
    (buffer(c, x, y) when c is the first dimension)."""
    rng = np.random.default_rng(seed)
    return rng.integers(lo, hi, size=(h, w) if c is None else (h, w, c)).astype(dtype)


def estimates(f, w, h, *planes):
    """f's estimates: a w x h frame, then one extent a further dimension (planes, channels), each from 0."""
    f.set_estimates([(0, w), (0, h)] + [(0, p) for p in planes])
