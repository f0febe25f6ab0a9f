"""Storage of small histogram tables (helper quality22, session 36).

A histogram of a few bins, its update unrolled over the bins (a lane per bin), was counted at 9 words for a minimum
of 3 (3 bins; 11 for 4 at 4 bins): a word per write port of each step, the init's 3 constants included, though
the Verilog drives those as wires (their kernel has no input and latency 0) and the update reads them as they are
made. memories/constant_ports.py leaves such constants out of both counts, live values and words. What remains is
hardware: per bin the update's output register and a register holding the bin between updates (6 registers for 3
bins), which these tests pin to the Verilog's registers. Figures: BENCHMARKS.md "Helper quality22, session 36"."""

import functools
import re

import pytest

import mainspring as hl


def _hist(m, bins: int, signed: bool):
    """fuzz --auto cases 174103 (3 bins, a max of i8) and 173803 (4 bins, a sum of u8) as generated."""
    x, y, b = m.Var("x"), m.Var("y"), m.Var("b")
    if signed:
        inp = m.ImageParam(m.Int(16), 2, "input")
        f0 = m.Func("f0")
        f0[x, y] = m.i8((m.i8(inp[2 * x, 2 * y]) + m.i8(inp[2 * x + 1, 2 * y + 1])) >> 1)
    else:
        inp = m.ImageParam(m.UInt(8), 2, "input")
        table, f0 = m.Func("f0_table"), m.Func("f0")
        table[x] = m.u8(x * 3 % 11)
        f0[x, y] = m.u8(inp[x, y]) + table[m.i32(m.clamp(m.u8(inp[x, y]), 0, 15))]
    r = m.RDom([m.Range(0, 2), m.Range(0, 1)], "r")
    hist = m.Func("hist")
    at = m.clamp(m.i32(f0[r.x, r.y]), 0, bins - 1)
    if signed:
        hist[b] = m.i8(3)
        hist[at] = m.max(hist[at], m.i8(r.x + r.y))
    else:
        hist[b] = m.u8(0)
        hist[at] = hist[at] + f0[r.x, r.y] / m.u8(2)
    out = m.Func("output")
    out[b] = hist[b]
    out.set_estimates([(0, bins)])
    m.Pipeline(out).apply_autoscheduler(m.CGRA(), m.AutoschedulerParams("Mainspring", {"lanes": "1"}))
    return out


@functools.cache
def _design(bins: int, signed: bool):
    return hl.compile(_hist(hl, bins, signed), name=f"quality22_hist{bins}")


def _words(design) -> dict[str, tuple[int, int]]:
    return {b["name"]: (b["words"], b["min_words"]) for b in design.report["buffers"]}


def _declared(design, prefix: str, kind: str) -> list[str]:
    """The Verilog's `kind` ("reg" or "wire") declarations of the buffer's write ports and registers."""
    pattern = rf"^\s*{kind} (?:\[[0-9:]+\] )?({prefix}_w\d+(?:_reg\d+)?);"
    return sorted(re.findall(pattern, design.verilog, re.MULTILINE))


@pytest.mark.xdist_group("quality22_hist3")
@pytest.mark.parametrize("simulator", ["icarus", "verilator"], indirect=True)
def test_a_histogram_of_three_bins_counts_its_registers_not_its_constants(simulator, build_dir):
    design = _design(3, True)
    # was 9 for 3: the init's three constants counted as words
    assert _words(design)["hist"] == (6, 3)
    # the words are the Verilog's registers: per bin the update's output and the bin held between updates; the
    # init's constants are wires
    assert _declared(design, "hist", "reg") == ["hist_w3", "hist_w3_reg1", "hist_w4", "hist_w4_reg1", "hist_w5",
                                                "hist_w5_reg1"]
    assert _declared(design, "hist", "wire") == ["hist_w0", "hist_w1", "hist_w2"]
    design.check(design.example_inputs(174103), simulator=simulator, build_dir=build_dir)


@pytest.mark.xdist_group("quality22_hist4")
@pytest.mark.parametrize("simulator", ["icarus"], indirect=True)
def test_a_histogram_of_four_bins_counts_its_registers_not_its_constants(simulator, build_dir):
    design = _design(4, False)
    assert _words(design)["hist"] == (7, 4)  # was 11 for 4
    # bin 0 is read back as its last update is made: no register holds it
    assert len(_declared(design, "hist", "reg")) == 7 and len(_declared(design, "hist", "wire")) == 4
    design.check(design.example_inputs(173803), simulator=simulator, build_dir=build_dir)
