"""hwlower tells Funcs apart by unique name (`Pipeline.name`), never by the user's: two `hl.Func("f")` are two Funcs."""

from __future__ import annotations

import pytest

import mainspring as hl

# tests/errors/errors_hardware.py `coordinate_from_a_runtime_size`, for the Func `name` read by `reader`
_RUNTIME_COORDINATE = (
    r"Func '{reader}' reads '{name}' at \(\(\(input.extent.0 - 1\) - x\), y\): coordinate 0 depends on "
    r"'input.extent.0', known only when the pipeline runs, so '{name}' would span every int32 coordinate; the "
    r"accelerator's buffers are sized at compile time. Clamp the coordinate to the range it may read, e.g. "
    r"{name}\[hl.clamp\(\(\(input.extent.0 - 1\) - x\), 0, 7\), y\]."
)


def _twins(read_on_host: bool, twin: bool) -> hl.Func:
    """Two Funcs named alike ("f" twice, when `twin`), the one made second read at a coordinate computed from the
    input's width: on the host (by the accelerator's input) or inside the accelerator (through a RAM copy)."""
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    input_ = hl.ImageParam(hl.UInt(16), 2, "input")
    first, second = hl.Func("f"), hl.Func("f" if twin else "g")
    hw_input, hw_output, output = hl.Func("hw_input"), hl.Func("hw_output"), hl.Func("output")
    first[x, y] = input_[x, y] + 1
    second[x, y] = input_[x, y] * 2
    at = input_.width() - 1 - x
    if read_on_host:
        hw_input[x, y] = second[at, y] + first[x, y]
        hw_output[x, y] = hw_input[x, y]
        first.compute_root()
        second.compute_root()
    else:
        hw_input[x, y] = input_[x, y]
        hw_output[x, y] = second[at, y] + first[x, y]
        first.compute_root().stream_to_accelerator()
        second.compute_root().stream_to_accelerator()
    output[x, y] = hw_output[x, y]
    output.bound(x, 0, 8).bound(y, 0, 8)
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8).hw_accelerate(xi, xo)
    hw_input.compute_root().stream_to_accelerator()
    return output


@pytest.mark.parametrize("read_on_host", [True, False], ids=["host", "accelerator"])
@pytest.mark.parametrize("twin", [True, False], ids=["named-alike", "named-apart"])
def test_runtime_coordinate_refused_for_a_func_named_like_another(read_on_host, twin):
    # Before session 26 the named-alike host read compiled (its box spanning int32 went unnoticed) and the
    # accelerator read named the RAM copy 'f$1_ram'.
    reader, name = ("hw_input" if read_on_host else "hw_output"), ("f" if twin else "g")
    with pytest.raises(hl.HalideError, match=_RUNTIME_COORDINATE.format(reader=reader, name=name)):
        hl.compile(_twins(read_on_host, twin), name="demo")
