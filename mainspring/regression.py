"""The standalone regression kit: a plain-Verilog test bench, hex files and a script that needs Icarus alone."""

from __future__ import annotations

import os
from pathlib import Path

from .verilog.names import signal

_TB = """// Regression test bench for {name}, written by mainspring; needs only Icarus Verilog (see run.sh).
`timescale 1ns/1ps
module tb;
    reg clk = 1'b0;
    reg rst_n = 1'b0;
    always #5 clk = !clk;
{decls}
    wire [{ow}-1:0] out_data;
    wire out_valid;
    reg out_ready = 1'b0;
    reg [{ow}-1:0] expected [0:{ocount}-1];
    reg [{ow}-1:0] care [0:{ocount}-1];  // the bits checked: RoundUp padding words are not
    integer got = 0;
    integer errors = 0;
    integer cycles = 0;
    integer lfsr = 32'h1234567;
    {name} dut (.clk(clk), .rst_n(rst_n),{conns}
        .{oname}_data(out_data), .{oname}_valid(out_valid), .{oname}_ready(out_ready));
    initial begin
{loads}        $readmemh("expected.hex", expected);
        $readmemh("care.hex", care);
        repeat (4) @(posedge clk);
        rst_n <= 1'b1;
    end
    // Pseudo-random bubbles and back-pressure (about one cycle in four each), reproducible.
    always @(posedge clk) if (rst_n) begin
        lfsr <= {{lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]}};
        cycles <= cycles + 1;
{advance}        out_ready <= (lfsr[5:4] != 2'b00);
        if (out_valid && out_ready) begin
            if ((out_data & care[got]) !== (expected[got] & care[got])) begin
                if (errors < 10) $display("MISMATCH word %0d: expected %h, got %h", got, expected[got], out_data);
                errors = errors + 1;
            end
            got = got + 1;
            if (got == {ocount}) begin
                if (errors == 0) $display("PASS {name}: %0d words match", got);
                else $display("FAIL {name}: %0d of %0d words differ", errors, got);
                $finish;
            end
        end
        if (cycles > {timeout}) begin
            $display("FAIL {name}: timeout after %0d cycles with %0d of {ocount} words", cycles, got);
            $finish;
        end
    end
endmodule
"""

_RUN = """#!/bin/sh
# Run the regression of {name} with Icarus Verilog alone: prints PASS and exits 0, or exits 1.
set -e
cd "$(dirname "$0")"
iverilog -g2005 -o {name}.vvp tb.v ../{name}.v
vvp -n {name}.vvp | tee result.txt
grep -q "^PASS" result.txt
"""


def write_kit(directory: Path, design, words: dict, expected, care=None, config: dict | None = None) -> None:
    """`care`: per expected word, whether it is checked (False for the padding words of RoundUp tails);
    `config`: the top's configuration inputs (signal -> (value, bits)), the Params the accelerator reads."""
    directory.mkdir(parents=True, exist_ok=True)
    ow = design.program.output_type.bits()
    widths = {s.port: s.type.bits() for s in design.program.inputs}
    lanes = {s.port: s.lanes for s in design.program.inputs}
    decls, conns, loads, advance = [], [], [], []
    for name, values in sorted(words.items()):
        s = signal(name)
        ws = _transfers(values, widths[name], lanes[name])  # lane 0 in the low bits
        width = widths[name] * lanes[name]
        _write_hex(directory / f"{s}.hex", ws, width)
        decls += [f"    reg [{width}-1:0] {s}_mem [0:{len(ws)}-1];", f"    integer {s}_i = 0;",
                  f"    reg {s}_valid = 1'b0;"]
        conns.append(f"\n        .{s}_data({s}_mem[{s}_i < {len(ws)} ? {s}_i : 0]), .{s}_valid({s}_valid), "
                     f".{s}_ready({s}_ready),")
        decls.append(f"    wire {s}_ready;")
        loads.append(f'        $readmemh("{s}.hex", {s}_mem);\n')
        advance.append(f"        if ({s}_valid && {s}_ready) {s}_i = {s}_i + 1;\n"
                       f"        {s}_valid <= ({s}_i < {len(ws)}) && (lfsr[3:2] != 2'b00);\n")
    for port, (value, bits) in sorted((config or {}).items()):
        conns.append(f"\n        .{port}({bits}'h{int(value) & ((1 << bits) - 1):x}),")
    out_lanes = design.program.output_lanes
    care = [True] * len(expected) if care is None else list(care)
    mask = _transfers([(1 << ow) - 1 if c else 0 for c in care], ow, out_lanes)
    expected = _transfers(expected, ow, out_lanes)
    ow *= out_lanes
    _write_hex(directory / "expected.hex", expected, ow)
    _write_hex(directory / "care.hex", mask, ow)
    count = len(expected)
    timeout = 20 * (design.report["predicted_cycles"] + 100)
    oname = signal(design.program.output)
    (directory / "tb.v").write_text(_TB.format(
        name=design.name, decls="\n".join(decls), ow=ow, ocount=count, conns="".join(conns), oname=oname,
        loads="".join(loads), advance="".join(advance), timeout=timeout), encoding="utf-8")
    run = directory / "run.sh"
    run.write_text(_RUN.format(name=design.name), encoding="utf-8")
    os.chmod(run, 0o755)


def _transfers(words, width: int, lanes: int) -> list[int]:
    """Words packed `lanes` to a transfer, lane 0 in the low bits (as the streams of the design carry them)."""
    mask = (1 << width) - 1
    ws = [int(w) & mask for w in words]
    return [sum(w << (i * width) for i, w in enumerate(ws[t:t + lanes])) for t in range(0, len(ws), lanes)]


def _write_hex(path: Path, words, width: int) -> None:
    digits = -(-width // 4)
    mask = (1 << width) - 1
    path.write_text("".join(f"{int(w) & mask:0{digits}x}\n" for w in words), encoding="utf-8")
