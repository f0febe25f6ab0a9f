"""The hardware target: a CGRA modelled on the reference chip (a 32x16 array of PEs and memory tiles)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .frontend.errors import HalideError, user_location

_AT_LEAST_0 = ("register_delay_limit", "register_bank_words", "pe_latency")  # knobs that may be 0


@dataclass(frozen=True)
class CGRA:
    """A coarse-grained reconfigurable array.

    word_bits: the PE datapath width; wider ops count as several PE words in reports.
    num_pes: processing elements available; a design needing more is refused.
    num_mem_tiles: memory tiles available.
    mem_tile_words: words of SRAM per memory tile.
    mem_tile_read_ports / mem_tile_write_ports: accesses per cycle a tile serves.
    register_delay_limit: a tap at most this many cycles after the previous tap is a register chain
        (a PE's pipeline registers) instead of memory-tile delay lines.
    register_bank_words: an addressed bank of at most this many words (2 to 4 words: a pixel pair an upsample
        reads twice) is a register bank, not a memory tile: a register per word enabled by its write address, and
        per read port a multiplexer over them into the port's output register (0: always a memory tile). The
        default 4 keeps it under a tile's cost: at most 4 + 2 registers and two 4-input multiplexers (three
        2-input ones each) against a tile of 2048 words whose port controllers it keeps.
    pe_ops_per_stage: the most PE operations on any combinational path of a kernel (K): a kernel's op graph is
        levelised into stages of at most K PE ops each (a 32-bit op counts as the 16-bit PE ops it is built
        from, as the report's `pes` counts them), with a register on every edge that crosses a stage boundary.
        The default 1 is argued in docs/pipelining.md from the reference array's timing model.
    pe_latency: registers after each kernel's last stage: a kernel of d stages has latency d - 1 + pe_latency
        (cycles from its loads to its store; d with the default 1, which is the PE's output register).
    glb_words: words of the global buffer (GLB) between the host and the array (default 2**21: 4 MiB of
        16-bit words, the size of the reference chip's GLB of 16 tiles x 2 banks x 128 KiB).
    glb_banks: GLB banks (default 32, of 65536 words each); each GLB tile buffer occupies whole banks (one
        read and one write per cycle each), so the copies of a double-buffered tile never share a port.
    glb_lanes: words one GLB bank port moves per cycle (default 4: a 64-bit data path of 16-bit words); a
        stream of more lanes takes ceil(k / glb_lanes) banks side by side, each holding its lanes of every entry.
    max_ii: the largest initiation interval the static scheduler tries before it falls back to running the
        ops one after another (a compiler knob, not a resource).

    The whole object is passed down the stages; each reads the fields it uses.
    """

    word_bits: int = 16
    num_pes: int = 384
    num_mem_tiles: int = 128
    mem_tile_words: int = 2048
    mem_tile_read_ports: int = 2
    mem_tile_write_ports: int = 2
    register_delay_limit: int = 4
    register_bank_words: int = 4
    pe_ops_per_stage: int = 1
    pe_latency: int = 1
    glb_words: int = 1 << 21
    glb_banks: int = 32
    glb_lanes: int = 4
    max_ii: int = 4

    def has_feature(self, feature) -> bool:
        """Halide's `Target.has_feature` for a ported generator's branches: a CGRA has `hl.TargetFeature.Clockwork`
        (the reference system's CGRA flow), not CoreIR or HLS."""
        from .frontend.generator import cgra_has_feature

        return cgra_has_feature(feature)

    def natural_vector_size(self, type_) -> int:
        """Halide's `Target.natural_vector_size`: 1 on a CGRA (frontend/generator.py)."""
        from .frontend.generator import cgra_natural_vector_size

        return cgra_natural_vector_size(type_)

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if (not isinstance(v, int) or isinstance(v, bool)
                    or v < (0 if f.name in _AT_LEAST_0 else 1)):
                least = 0 if f.name in _AT_LEAST_0 else 1
                raise HalideError(f"{user_location()}: CGRA({f.name}={v!r}): expected an integer of at least {least}, "
                                  f"e.g. CGRA({f.name}={f.default})")
