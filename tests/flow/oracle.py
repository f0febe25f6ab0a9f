"""What the tests of an algorithm written with no schedule share: Halide 21's realize of it (the oracle), its design
autoscheduled, and its `schedule_source` pasted onto a fresh copy, as a user would."""

import numpy as np

import mainspring as hl


def halide_outputs(halide, out, images, inputs, size) -> list:
    """Halide 21's realize of `out` (a Func, or a list of them) over `size` (x first), its ImageParams (`images`, by
    name) set from the design's `inputs` with their mins: one array an output."""
    kept = []  # Halide's ImageParams do not keep the buffers alive through realize
    for name, param in images.items():
        given = inputs[name]
        kept.append(halide.Buffer(np.ascontiguousarray(np.asarray(given))))
        if hasattr(given, "dimensions"):
            kept[-1].set_min([given.dim(i).min() for i in range(given.dimensions())])
        param.set(kept[-1])
    got = (halide.Pipeline(out) if isinstance(out, list) else out).realize(list(size))
    return [np.asarray(got)] if isinstance(got, halide.Buffer) else [np.asarray(b) for b in got]


def check_simulated_and_halide(design, make, simulator, build_dir, halide) -> None:
    """`design` simulated on `simulator` at its predicted cycles, bit-exact with the reference (design.check), and the
    reference equal to Halide 21's realize of `make(halide)`: (output, images by name, size)."""
    inputs = design.example_inputs(1)
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    out, images, size = make(halide)
    (want,) = halide_outputs(halide, out, images, inputs, size)
    (got,) = design.reference_outputs(inputs)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def autoscheduled(algorithm, size, keys: dict, name: str):
    """(design, result): `algorithm(hl, *size)`'s output (its first value) autoscheduled on the default CGRA with the
    Mainspring keys `keys`, then compiled as `name`."""
    out = algorithm(hl, *size)[0]
    result = hl.Pipeline(out).apply_autoscheduler(hl.CGRA(), hl.AutoschedulerParams("Mainspring", keys))
    return hl.compile(out, name=name), result


def pasted(algorithm, size, schedule_source: str):
    """A fresh copy of `algorithm(hl, *size)`'s output with `schedule_source` (its `def schedule(funcs, vars)`)
    applied, as pasted into a user's file."""
    again = algorithm(hl, *size)[0]
    namespace: dict = {}
    exec(schedule_source, namespace)
    pipe = hl.Pipeline(again)
    namespace["schedule"](pipe.funcs(), pipe.vars())
    return again
