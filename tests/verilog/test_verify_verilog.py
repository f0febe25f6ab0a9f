"""verilog.verify (pass: verify_verilog on the Verilog of compiled apps, then on hand-made broken Verilog): the
real designs hold the generator's structural promises; each broken text fails with its message."""

import pytest

from mainspring import apps
from mainspring.compiler import compile  # noqa: A004 - mainspring's compile
from mainspring.verilog.verify import LIBRARY, verify_verilog

# Single-level, GLB, upsample, ROM, lanes and accumulation designs: every kind of top the generator writes.
APPS = ("brighten", "gaussian", "harris", "gaussian_glb", "upsample", "h2h_rom", "h2h_down_sample",
        "h2h_accumulation")


@pytest.mark.parametrize("name", APPS)
def test_app_designs_pass(name):
    mod = apps.load(name)
    out, _ = apps.build(mod, *mod.DEFAULT_SIZE)
    design = compile(out, name=mod.NAME)
    verify_verilog(design.name, design.verilog)


# A top as the generator writes one: streams x (in) and y (out), a library controller, a kernel.
GOOD = """\
module t (
    input clk,
    input rst_n,
    input [15:0] x_data,
    input x_valid,
    output x_ready,
    output [15:0] y_data,
    output y_valid,
    input y_ready
);
    reg [31:0] cycle;
    wire fire;
    wire [3:0] addr;
    wire [15:0] sum;
    ms_affine_ctrl #(.WORDS(16), .AW(4))
        ctrl (.clk(clk), .rst_n(rst_n), .en(y_ready), .restart(1'b0), .cycle(cycle), .fire(fire), .addr(addr));
    k_add u_add (.a(x_data), .b({12'd0, addr}), .out(sum));
    assign y_data = sum;
    assign y_valid = fire && x_valid;
    assign x_ready = fire && y_ready;
    always @(posedge clk) begin
        if (!rst_n) cycle <= 32'd0;
        else cycle <= cycle + 32'd1;
    end
endmodule

module k_add (
    input [15:0] a,
    input [15:0] b,
    output [15:0] out
);
    assign out = a + b;
endmodule
"""


def _line(text: str, snippet: str) -> int:
    assert text.count(snippet) == 1, snippet
    return text[:text.index(snippet)].count("\n") + 1


def _fails(text: str) -> str:
    with pytest.raises(AssertionError) as caught:
        verify_verilog("t", text)
    return str(caught.value)


def test_the_hand_made_top_passes():
    verify_verilog("t", GOOD)


# (what is broken, replaced text, replacement, the snippet whose line the message names, the message after
# "t.v:LINE: module M: ")
BROKEN = [
    ("undeclared signal", "assign y_valid = fire &&", "assign y_valid = fired &&", "fired",
     "t: 'fired' is used but not declared; did you mean fire?"),
    ("port that does not exist", ".out(sum)", ".result(sum)", "k_add u_add",
     "t: instance u_add of k_add has no port 'result'"),
    ("port with a hint", ".out(sum)", ".outs(sum)", "k_add u_add",
     "t: instance u_add of k_add has no port 'outs'; did you mean out?"),
    ("module not defined", "k_add u_add", "k_adder u_add", "k_adder u_add",
     "t: instance u_add of module k_adder, which neither the design nor ms_library.v defines; did you mean k_add?"),
    ("double driver: assigns", "    assign y_data = sum;\n", "    assign y_data = sum;\n    assign sum = x_data;\n",
     "assign sum", "t: 'sum' has 2 drivers (lines 17, 19)"),
    ("double driver: always blocks", "    end\nendmodule\n\nmodule k_add",
     "    end\n    always @(posedge clk) cycle <= 32'd0;\nendmodule\n\nmodule k_add", "always @(posedge clk) cycle",
     "t: 'cycle' has 2 drivers (lines 21, 25)"),
    ("input driven", "assign x_ready =", "assign x_valid = 1'b1;\n    assign x_ready =", "assign x_valid",
     "t: input 'x_valid' is driven inside"),
    ("width mismatch", "{12'd0, addr}", "{8'd0, addr}", "k_add u_add",
     "t: instance u_add of k_add: port 'b' has width 16, its connection '{ 8'd0, addr }' width 12"),
    ("width from the parameters", ".AW(4))", ".AW(5))", "ms_affine_ctrl #(",
     "t: instance ctrl of ms_affine_ctrl: port 'addr' has width 5, its connection 'addr' width 4"),
    ("parameter that does not exist", ".WORDS(16)", ".WORD(16)", "ms_affine_ctrl #(",
     ("t: instance ctrl of ms_affine_ctrl sets parameter WORD, which ms_affine_ctrl does not have; did you mean "
      "WORDS?")),
    ("input left open", ".restart(1'b0), ", "", "ms_affine_ctrl #(",
     "t: instance ctrl of ms_affine_ctrl leaves input 'restart' open"),
    ("positional connection", "(.a(x_data), .b({12'd0, addr}), .out(sum))", "(x_data, {12'd0, addr}, sum)",
     "k_add u_add", "t: instance u_add of k_add connects a port by position, not by name"),
    ("ready the wrong way", "    input y_ready\n", "    output y_ready\n", "output y_valid",
     "t: stream y: the test bench expects y_data and a 1-bit y_valid one way and a 1-bit y_ready the other"),
    ("two output streams", "    input y_ready\n",
     "    input y_ready,\n    output [7:0] z_data,\n    output z_valid,\n    input z_ready\n", "module t (",
     "t: the test bench reads one output stream, the top has 2 (y, z)"),
    ("an output the bench does not read", "    input y_ready\n", "    input y_ready,\n    output busy\n", "output busy",
     "t: output 'busy' is neither a stream's nor a 1-bit mark the test bench logs (glb_tile_done, glb_tile_start)"),
    ("a clock the wrong way", "    input clk,\n", "    output clk,\n", "output clk",
     "t: the test bench drives a 1-bit input 'clk'; the top has a 1-bit output"),
]


@pytest.mark.parametrize(("what", "old", "new", "at", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_verilog_fails(what, old, new, at, message):
    assert GOOD.count(old) == 1, old
    text = GOOD.replace(old, new)
    assert _fails(text) == f"t.v:{_line(text, at)}: module {message}"


def test_a_library_module_defined_again():
    text = GOOD + "\nmodule ms_mem_tile (input clk);\nendmodule\n"
    defined = _line(LIBRARY.read_text(), "module ms_mem_tile #(")
    assert _fails(text) == (f"t.v:{_line(text, 'module ms_mem_tile')}: module ms_mem_tile: defined again (also "
                            f"ms_library.v:{defined})")


def test_no_top_module():
    assert _fails(GOOD.replace("module t (", "module top (")) == ("t.v: the top module t is not defined (modules: "
                                                                   "top, k_add)")


def test_unparsable_verilog():
    text = GOOD.replace("assign y_data = sum;", "assign y_data = sum")
    assert _fails(text) == (f"t.v: pyverilog cannot parse the emitted Verilog:  line:{_line(text, 'assign y_valid')}: "
                            "before: \"assign\"")


# The branches of a generate `if` are alternatives (the library's second memory-tile port is either an
# instance or a constant): one driver per branch is one driver; two in one branch are two.
GENERATE = """\
module g #(parameter N = 1) (input clk, output q);
    generate
        if (N > 1) begin : two
            assign q = clk;
        end else begin : one
            assign q = 1'b0;
        end
    endgenerate
endmodule
"""


def test_generate_branches_are_alternatives():
    verify_verilog("t", GOOD + GENERATE)
    text = GOOD + GENERATE.replace("assign q = 1'b0;", "assign q = 1'b0;\n            assign q = 1'b1;")
    one, two = _line(text, "assign q = 1'b0"), _line(text, "assign q = 1'b1")
    assert _fails(text) == f"t.v:{two}: module g: 'q' has 2 drivers (lines {one}, {two})"


# Each module's parse is kept by its text and reused wherever a later design has that text: a message still
# names the line in the later file, and a driver's lines too.
def test_a_module_met_again_at_another_line_is_reported_there():
    verify_verilog("t", GOOD)
    text = "// moved\n" * 3 + GOOD.replace("output [15:0] out\n", "output [15:0] sum_out\n").replace(
        "assign out =", "assign sum_out =")
    assert _fails(text) == (f"t.v:{_line(text, 'k_add u_add')}: module t: instance u_add of k_add has no port "
                            "'out'; did you mean sum_out?")
    doubled = GENERATE.replace("assign q = 1'b0;", "assign q = 1'b0;\n            assign q = 1'b1;")
    for padding in ("", "\n\n"):
        text = GOOD + padding + doubled
        one, two = _line(text, "assign q = 1'b0"), _line(text, "assign q = 1'b1")
        assert _fails(text) == f"t.v:{two}: module g: 'q' has 2 drivers (lines {one}, {two})"


def test_text_between_modules_other_than_comments_is_parsed_whole():
    text = GOOD.replace("\nmodule k_add", "/* a block\n comment */\nmodule k_add").replace(
        "assign out = a + b;", "assign out = a + c;")
    assert _fails(text) == f"t.v:{_line(text, 'a + c')}: module k_add: 'c' is used but not declared"


def test_a_failure_is_checked_again_and_a_pass_stays_a_pass():
    text = GOOD.replace(".out(sum)", ".result(sum)")
    assert _fails(text) == _fails(text)
    verify_verilog("t", GOOD)
    verify_verilog("t", GOOD)
