"""The memory tiles' affine controllers in the top-level Verilog: their parameters, and instances (a when-only
one reusing the fire signal of one that fires in the same cycles)."""

from __future__ import annotations

from typing import Protocol

from mainspring.frontend.errors import ScheduleError
from mainspring.memories.ir import Controller

MAX_DIM = 8


class RtlLimitError(ScheduleError):
    """A design the RTL generator cannot build. `subject` is the op or buffer of the memory JSON it concerns
    (None: the design as a whole), so the compiler can point at the user's definition."""

    def __init__(self, message: str, subject: str | None = None):
        super().__init__(message)
        self.subject = subject


class Whens(Protocol):
    """The top's record of when-only controllers' fire signals, by timing (verilog.top._Top)."""

    whens: dict[tuple, str]
    bank_whens: dict[tuple, str]
    used_bank_whens: set[str]


def config_vector(values, pad: int) -> str:
    fields = list(values) + [pad] * (MAX_DIM - len(values))
    return "{" + ", ".join(f"32'h{v & 0xFFFFFFFF:08x}" for v in reversed(fields)) + "}"


def ctrl_params(prefix: str, c: Controller) -> list[str]:
    dim = c.dimensionality
    if dim > MAX_DIM:
        raise RtlLimitError(f"a controller with {dim} dimensions exceeds the memory tiles' {MAX_DIM}; use fewer "
                            "loops inside the accelerator (fuse or remove splits)")
    return [
        f".{prefix}DIM({dim})", f".{prefix}EXTENT({config_vector(c.extent, 1)})",
        f".{prefix}CYCLE_START({c.cycle_starting_addr})", f".{prefix}CYCLE_STRIDE({config_vector(c.cycle_stride, 0)})",
        f".{prefix}DATA_START({c.data_starting_addr})", f".{prefix}DATA_STRIDE({config_vector(c.data_stride, 0)})",
    ] + ([] if c.then is None else [  # a two-piece schedule (memories/stream_prologue.py)
        f".{prefix}THEN_STEPS({c.then.steps})", f".{prefix}THEN_START({c.then.start})",
        f".{prefix}THEN_STRIDE({config_vector(c.then.rates, 0)})"])


def timing(c: Controller) -> tuple:
    """What decides the cycles a controller fires in: controllers with equal timings fire together."""
    return (c.dimensionality, tuple(c.extent), c.cycle_starting_addr, tuple(c.cycle_stride), c.then)


def address_width(words: int) -> int:
    return max(1, (words - 1).bit_length())


def ctrl(inst: str, c: Controller, kind: str, fire: str, addr: str | None = None, words: int = 1,
         top: Whens | None = None) -> str:
    """A controller instance; a when-only one (no address) given `top` reuses the fire signal of one that
    fires in the same cycles (another when-only controller, or a memory tile's write port 0) when there is one."""
    if addr is None and top is not None:
        key = timing(c)
        if key in top.whens:
            return f"assign {fire} = {top.whens[key]};  // fires with {top.whens[key]}"
        if key in top.bank_whens:
            shared = top.bank_whens[key]
            top.used_bank_whens.add(shared)
            top.whens[key] = f"<<{shared}>>"
            return f"assign {fire} = <<{shared}>>;  // fires with <<{shared}>>"
        top.whens[key] = fire
    aw = address_width(words)
    params = ctrl_params("", c) + [f".WORDS({words})", f".AW({aw})"]
    addr_conn = addr if addr is not None else f"{inst}_addr_unused"
    decl = "" if addr is not None else f"wire [{aw - 1}:0] {inst}_addr_unused;  // when-only controller\n"
    return decl + (f"ms_affine_ctrl #({', '.join(params)})\n    {inst} (.clk(clk), .rst_n(rst_n), .en(en), "
            f".restart(restart), .cycle(cycle), .fire({fire}), .addr({addr_conn}));")
