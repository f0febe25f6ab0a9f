"""Halide schedule calls for a CPU or GPU (frontend/host_directives.py) and align_bounds / align_extent, against
Halide: the CPU-only calls change no value and nothing the accelerator builds; the alignments grow the region
computed, so the input is read as far as Halide reads it."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.oracle


def aligned(hl, n_in, call):
    x = hl.Var("x")
    inp = hl.ImageParam(hl.UInt(8), 1, "inp")
    inp.set(hl.Buffer(np.arange(5, 5 + n_in, dtype=np.uint8)))
    f = hl.Func("f")
    f[x] = hl.u16(inp[x]) + inp[x + 1]
    g = hl.Func("g")
    g[x] = f[x + 1] * 2
    f.compute_root()
    if call == "bounds":
        f.align_bounds(x, 4)  # f over [1, 10] -> [0, 11]: the input to 12
    elif call == "remainder":
        f.align_bounds(x, 4, 3)  # [1, 10] -> [-1, 10]: the input from -1
    else:
        f.align_extent(x, 4)  # [1, 10] -> [1, 12]: the input to 13
    return np.asarray(g.realize([10]))


@pytest.mark.parametrize(("call", "needs"), [("bounds", 13), ("extent", 14)])
def test_alignments_read_the_input_as_far_as_halide(call, needs, halide):
    import mainspring

    for n_in in (needs - 1, needs):
        outcome = []
        for hl in (halide, mainspring):
            try:
                outcome.append(aligned(hl, n_in, call))
            except Exception as e:  # noqa: BLE001 - either library's error type
                outcome.append(f"accessed at {needs - 1}" in str(e) or "beyond" in str(e))
        if n_in < needs:
            assert outcome == [True, True], "both refuse an input one column short of the aligned region"
        else:
            assert np.array_equal(outcome[0], outcome[1])


def cpu_schedule(hl):
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    inp.set(hl.Buffer(np.arange(64, dtype=np.uint8).reshape(8, 8)))
    f, g = hl.Func("f"), hl.Func("g")
    f[x, y] = hl.u16(inp[x, y]) + inp[x + 1, y + 1]
    g[x, y] = f[x, y] + f[x, y + 1]
    r = hl.RDom([hl.Range(0, 2)], "r")
    g[x, y] += f[x + r.x, y]
    f.compute_at(g, y).store_root().align_storage(x, 8)
    g.update().allow_race_conditions().atomic().prefetch(inp, y, y)
    g.bound_storage(x, 8)
    # Halide 17+'s storage hoisting and loop partitioning, a trace tag
    f.hoist_storage_root().add_trace_tag("f").never_partition_all()
    g.partition(x, hl.Partition.Never).update().never_partition([y])
    return np.asarray(g.realize([6, 6]))


def copied_to_host(hl):
    x = hl.Var("x")
    inp = hl.ImageParam(hl.UInt(8), 1, "inp")
    inp.set(hl.Buffer(np.arange(9, dtype=np.uint8)))
    f, g = hl.Func("f"), hl.Func("g")
    f[x] = hl.u16(inp[x]) * 3
    g[x] = f[x] + f[x + 1]
    f.compute_root()
    f.in_().compute_root().copy_to_host()  # a copy: Halide runs it as scheduled on a CPU target
    return np.asarray(g.realize([8]))


def test_copy_to_host_on_a_copy_changes_no_value(same_as_halide):
    same_as_halide(copied_to_host)


def test_cpu_only_calls_change_no_value(same_as_halide):
    same_as_halide(cpu_schedule)


def _accelerated(calls: bool, memory: str | None = None):
    import mainspring as hl

    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    hw_input, blur, hw_output, output = (hl.Func(n) for n in ("hw_input", "blur", "hw_output", "output"))
    hw_input[x, y] = inp[x, y]
    blur[x, y] = hw_input[x, y] + hw_input[x + 1, y] + hw_input[x, y + 1]
    hw_output[x, y] = blur[x, y] + blur[x + 1, y + 1]
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 12).bound(y, 0, 6)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 12, 6).hw_accelerate(xi, xo)
    blur.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    if calls:
        # (no compute_with: blur is read by hw_output, and Halide refuses fusing a Func with its reader)
        blur.async_().fold_storage(y, 3).memoize().trace_loads().align_storage(x, 4)
        hw_input.prefetch(inp, y, y, 1, hl.PrefetchBoundStrategy.Clamp)
        blur.hoist_storage(hw_output, xo).ring_buffer(2).add_trace_tag("blur").debug_to_file("blur.tmp")
        blur.partition(x, hl.Partition.Always).always_partition_all()
        hw_output.never_partition([xi, yi])
        hw_input.copy_to_host()  # a copy of the image: Halide accepts it on a CPU target
        output.copy_to_host()
    if memory is not None:
        blur.store_in(getattr(hl.MemoryType, memory))
    return hl.compile(output, name="blur")


def test_cpu_only_calls_change_nothing_the_accelerator_builds():
    plain, noted = _accelerated(False), _accelerated(True)
    assert noted.verilog == plain.verilog and noted.memory_text == plain.memory_text


@pytest.mark.parametrize("memory", ["Auto", "Heap", "Stack", "Register", "GPUShared", "GPUTexture", "LockedCache",
                                    "VTCM", "AMXTile"])
def test_a_cpu_memory_type_changes_nothing_the_accelerator_builds(memory):
    # store_in with a CPU's or GPU's memory: Halide accepts each for a buffer (GPUTexture was missing)
    plain, stored = _accelerated(False), _accelerated(False, memory)
    assert stored.verilog == plain.verilog and stored.memory_text == plain.memory_text


def test_every_halide_memory_type_is_spelled(halide):
    import mainspring as hl

    names = {m for m in dir(halide.MemoryType) if not m.startswith("_") and m[0].isupper()}
    assert names <= {m.name for m in hl.MemoryType}, names - {m.name for m in hl.MemoryType}
