// Building blocks of mainspring's stream test bench (Verilog-2005, Icarus and Verilator).
//
// A generated top (mainspring_tb, see mainspring/sim/bench.py) wires one ms_source per DUT input stream, one
// ms_sink for the output stream and one ms_control around the design under test. Everything after loading
// runs free in HDL: the test bench draws bubbles and back-pressure from its own random generators and never
// waits for Python, which only drives the clock and waits for ms_done.
//
// Run-time settings arrive as plusargs, so one build serves every frame size, seed and stall rate:
//   +KEY=FILE +KEY_count=N  words of a stream (KEY is ms_in0, ms_in1, ... or ms_out0); N <= 2**DEPTH_LOG2
//   +ms_seed=S              seed of every random generator (each stream salts it differently)
//   +ms_bubbles=T           an input slot stays empty with probability T / 65536
//   +ms_backpressure=T      the output's ready is low with probability T / 65536 each cycle
//   +ms_timeout=C           give up C cycles after reset if the output is still incomplete
//   +ms_drain=C             after the last expected output word, watch C more cycles for extra words

`default_nettype none

// xorshift32: a linear-feedback generator over GF(2) with period 2**32 - 1, cheap enough to give every
// stream its own sequence. `hit` is high with probability thresh / 65536 in each cycle (a register: it
// reflects the draw made at the previous edge).
module ms_rand #(
    parameter [31:0] SALT = 32'd0
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire [31:0] seed,
    input  wire [16:0] thresh,
    output reg         hit
);
    reg [31:0] state;
    reg [31:0] x;  // scratch: one procedural step costs Icarus far less than a chain of continuous assigns

    // murmur3's finaliser: neighbouring seeds and salts must not give neighbouring (correlated) sequences.
    function [31:0] mix(input [31:0] v);
        reg [31:0] y;
        begin
            y = v ^ (v >> 16);
            y = y * 32'h85EBCA6B;
            y = y ^ (y >> 13);
            y = y * 32'hC2B2AE35;
            mix = y ^ (y >> 16);
        end
    endfunction

    always @(posedge clk) begin
        if (!rst_n) begin
            x = mix(seed ^ (SALT * 32'h9E3779B9));
            if (x == 32'd0) x = 32'd1;  // zero is xorshift's fixed point
        end else begin
            x = state;
            x = x ^ (x << 13);
            x = x ^ (x >> 17);
            x = x ^ (x << 5);
        end
        state <= x;
        hit <= {1'b0, x[31:16]} < thresh;
    end
endmodule

// Streams the words of +KEY=FILE into the DUT. valid and data are registers (never a function of ready),
// and a word once offered stays until taken, as valid/ready requires; bubbles are drawn only between words.
module ms_source #(
    parameter KEY = "ms_in0",
    parameter WIDTH = 16,
    parameter DEPTH_LOG2 = 10,
    parameter [31:0] SALT = 32'd1
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire [31:0]      seed,
    input  wire [16:0]      bubble_thresh,
    output reg  [WIDTH-1:0] data,
    output reg              valid,
    input  wire             ready,
    output reg  [31:0]      accepted
);
    reg [WIDTH-1:0] mem [0:(1 << DEPTH_LOG2) - 1];
    reg [31:0]      count;
    reg [31:0]      next;
    reg [8*1024-1:0] path;

    initial begin
        if (!$value$plusargs({KEY, "_count=%d"}, count)) count = 0;
        // The range keeps the simulators quiet about a file shorter than the memory.
        if (count != 0 && $value$plusargs({KEY, "=%s"}, path)) $readmemh(path, mem, 0, count - 1);
    end

    wire bubble;
    ms_rand #(.SALT(SALT)) u_rand (
        .clk(clk), .rst_n(rst_n), .seed(seed), .thresh(bubble_thresh), .hit(bubble)
    );

    always @(posedge clk) begin
        if (!rst_n) begin
            valid <= 1'b0;
            next <= 32'd0;
            accepted <= 32'd0;
        end else begin
            if (valid && ready) accepted <= accepted + 32'd1;
            if (!valid || ready) begin
                if (next < count && !bubble) begin
                    data <= mem[next[DEPTH_LOG2-1:0]];
                    valid <= 1'b1;
                    next <= next + 32'd1;
                end else begin
                    // x, not stale data: a DUT that consumes data without valid shows x on Icarus.
                    data <= {WIDTH{1'bx}};
                    valid <= 1'b0;
                end
            end
        end
    end
endmodule

// Takes the DUT's output words into a memory under random back-pressure and writes the first +KEY_count
// of them to +KEY=FILE when `dump` is high. Words beyond the count are counted (in `taken`), not stored.
module ms_sink #(
    parameter KEY = "ms_out0",
    parameter WIDTH = 16,
    parameter DEPTH_LOG2 = 10,
    parameter [31:0] SALT = 32'd1000
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire [31:0]      seed,
    input  wire [16:0]      stall_thresh,
    input  wire [WIDTH-1:0] data,
    input  wire             valid,
    output reg              ready,
    input  wire             dump,
    output reg  [31:0]      count,
    output reg  [31:0]      taken
);
    reg [WIDTH-1:0] mem [0:(1 << DEPTH_LOG2) - 1];
    reg [8*1024-1:0] path;

    initial begin
        if (!$value$plusargs({KEY, "_count=%d"}, count)) count = 0;
        if (!$value$plusargs({KEY, "=%s"}, path)) path = "ms_out.hex";
    end

    wire stall;
    ms_rand #(.SALT(SALT)) u_rand (
        .clk(clk), .rst_n(rst_n), .seed(seed), .thresh(stall_thresh), .hit(stall)
    );

    always @(posedge clk) begin
        if (!rst_n) begin
            ready <= 1'b0;
            taken <= 32'd0;
        end else begin
            ready <= !stall;
            if (valid && ready) begin
                if (taken < count) mem[taken[DEPTH_LOG2-1:0]] <= data;
                taken <= taken + 32'd1;
            end
        end
        if (dump) begin
            if (taken < count) begin
                if (taken != 0) $writememh(path, mem, 0, taken - 1);
            end else if (count != 0) begin
                $writememh(path, mem, 0, count - 1);
            end
        end
    end
endmodule

// Resets the DUT, measures the run and ends it. `cycles` counts clock edges from the first input word
// accepted to the last expected output word taken, both included: a pipeline of latency L that never
// stalls moves N words in N + L cycles. The run ends (dump, then done) after the drain window, or at
// the timeout with timed_out set.
module ms_control #(
    parameter RESET_CYCLES = 4
) (
    input  wire        clk,
    input  wire        in_fire,
    input  wire        out_fire,
    input  wire [31:0] out_taken,
    input  wire [31:0] out_count,
    output reg         rst_n,
    output wire        dump,
    output reg         done,
    output reg         timed_out,
    output reg  [63:0] cycles,
    output reg  [63:0] elapsed,
    output reg  [63:0] first
);
    localparam RUN = 2'd0, DRAIN = 2'd1, DUMP = 2'd2, DONE = 2'd3;

    reg [1:0]  phase;
    reg [7:0]  reset_left;
    reg        started;
    reg [63:0] timeout;
    reg [31:0] drain_left;

    initial begin
        if (!$value$plusargs("ms_timeout=%d", timeout)) timeout = 64'd1000000;
        if (!$value$plusargs("ms_drain=%d", drain_left)) drain_left = 32'd64;
        rst_n = 1'b0;
        reset_left = RESET_CYCLES;
        phase = RUN;
        started = 1'b0;
        first = 64'd0;
        elapsed = 64'd0;
        cycles = 64'd0;
        done = 1'b0;
        timed_out = 1'b0;
    end

    assign dump = phase == DUMP;

    always @(posedge clk) begin
        if (reset_left != 8'd0) begin
            reset_left <= reset_left - 8'd1;
            if (reset_left == 8'd1) rst_n <= 1'b1;
        end else begin
            elapsed <= elapsed + 64'd1;
            if (in_fire && !started) begin
                started <= 1'b1;
                first <= elapsed;
            end
            case (phase)
                RUN: begin
                    if (out_fire && out_taken + 32'd1 == out_count) begin
                        // The first input may transfer in this very cycle (count 1, latency 0).
                        cycles <= elapsed - (started ? first : elapsed) + 64'd1;
                        phase <= DRAIN;
                    end else if (elapsed >= timeout) begin
                        timed_out <= 1'b1;
                        phase <= DUMP;
                    end
                end
                DRAIN: begin
                    if (drain_left == 32'd0) phase <= DUMP;
                    else drain_left <= drain_left - 32'd1;
                end
                DUMP: begin
                    phase <= DONE;
                    done <= 1'b1;
                end
                default: ;
            endcase
        end
    end
endmodule

`default_nettype wire
