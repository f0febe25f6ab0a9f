// mainspring hardware library: the generic parts every generated design configures.
// Verilog-2005. All state advances only while the global enable `en` is high, so a stalled design holds.

// An affine controller, as the memory tiles of the reference CGRA have them: an iteration counter of DIM
// dimensions (innermost first) that fires in cycle CYCLE_START + sum(CYCLE_STRIDE[k] * i[k]) and then gives
// the address (DATA_START + sum(DATA_STRIDE[k] * i[k])) mod WORDS. Vectors pack 32-bit fields, field k at
// bits [32*k +: 32]. Firing cycles must increase along the iteration order (they do for a schedule).
// It is its two halves: when it fires (`ms_ctrl_when`) and where (`ms_ctrl_addr`), which controllers that fire
// in the same cycles share (a memory tile's ports, below).
module ms_affine_ctrl #(
    parameter integer DIM = 1,
    parameter [32*8-1:0] EXTENT = {8{32'd1}},
    parameter integer CYCLE_START = 0,
    parameter [32*8-1:0] CYCLE_STRIDE = 0,
    parameter integer DATA_START = 0,
    parameter [32*8-1:0] DATA_STRIDE = 0,
    parameter integer WORDS = 1,
    parameter integer THEN_STEPS = 0,
    parameter integer THEN_START = 0,
    parameter [32*8-1:0] THEN_STRIDE = 0,
    parameter integer AW = 1
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
    output fire,
    output [AW-1:0] addr
);
    wire [DIM-1:0] wrap;

    ms_ctrl_when #(.DIM(DIM), .EXTENT(EXTENT), .CYCLE_START(CYCLE_START), .CYCLE_STRIDE(CYCLE_STRIDE),
                   .THEN_STEPS(THEN_STEPS), .THEN_START(THEN_START), .THEN_STRIDE(THEN_STRIDE))
        when (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(fire), .wrap(wrap));
    ms_ctrl_addr #(.DIM(DIM), .EXTENT(EXTENT), .DATA_START(DATA_START), .DATA_STRIDE(DATA_STRIDE), .WORDS(WORDS),
                   .AW(AW))
        where (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .fire(fire), .wrap(wrap), .addr(addr));
endmodule

// When an affine controller fires: in cycle CYCLE_START + sum(CYCLE_STRIDE[k] * i[k]) over its iterations i.
// `wrap[k]` is high when dimensions 0..k are all at their last iteration (in a firing: dimension k wraps, and
// the innermost dimension whose bit is low steps); `wrap[DIM-1]` marks the last firing.
//
// Sizes. The first firing is found by comparing the global cycle with CYCLE_START once (a comparison with a
// constant, on as many bits as the top's cycle counter has); after it, the controller counts down the gap to
// its next firing, on ceil(log2(largest gap)) bits (none when it fires in consecutive cycles, a stream's
// usual case), and each dimension counts on ceil(log2(extent)) bits (none for an extent of 1). We chose this
// over a per-controller countdown from reset to the first firing, which would add a counter as wide as the
// top's cycle counter to every controller, and over a 32-bit next-cycle register compared with the 32-bit
// cycle each cycle (the first design: a 32-bit register, adder and comparator per controller). The cycles it
// fires in are the same: the global cycle and every countdown advance together, only while `en` is high, and
// the global cycle passes CYCLE_START once between restarts.
module ms_ctrl_when #(
    parameter integer DIM = 1,
    parameter [32*8-1:0] EXTENT = {8{32'd1}},
    parameter integer CYCLE_START = 0,
    parameter [32*8-1:0] CYCLE_STRIDE = 0,
    // A two-piece schedule (THEN_STEPS > 0): the outermost dimension's iterations from THEN_STEPS on fire at
    // THEN_START + sum(THEN_STRIDE[k] * i[k]) with i counted from that piece's first firing.
    parameter integer THEN_STEPS = 0,
    parameter integer THEN_START = 0,
    parameter [32*8-1:0] THEN_STRIDE = 0
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
    output fire,
    output [DIM-1:0] wrap
);
    function integer field;
        input [32*8-1:0] v;
        input integer k;
        begin
            field = v[32*k +: 32];
        end
    endfunction

    // What the cycle advances by when dimension k steps and every inner dimension wraps.
    function integer delta;
        input [32*8-1:0] stride;
        input integer k;
        integer j;
        begin
            delta = field(stride, k);
            for (j = 0; j < k; j = j + 1)
                delta = delta - field(stride, j) * (field(EXTENT, j) - 1);
        end
    endfunction

    // The gap from the first piece's last firing to the second piece's first.
    function integer switch_gap;
        input integer unused;
        integer j;
        begin
            switch_gap = THEN_START - CYCLE_START - field(CYCLE_STRIDE, DIM - 1) * (THEN_STEPS - 1) + 0 * unused;
            for (j = 0; j < DIM - 1; j = j + 1)
                switch_gap = switch_gap - field(CYCLE_STRIDE, j) * (field(EXTENT, j) - 1);
        end
    endfunction

    // The largest gap between two consecutive firings (1 when there is one firing).
    function integer max_gap;
        input integer unused;
        integer j;
        begin
            max_gap = 1 + 0 * unused;
            for (j = 0; j < DIM; j = j + 1) begin
                if (field(EXTENT, j) > 1 && delta(CYCLE_STRIDE, j) > max_gap)
                    max_gap = delta(CYCLE_STRIDE, j);
                if (THEN_STEPS > 0 && field(EXTENT, j) > 1 && delta(THEN_STRIDE, j) > max_gap)
                    max_gap = delta(THEN_STRIDE, j);
            end
            if (THEN_STEPS > 0 && switch_gap(0) > max_gap)
                max_gap = switch_gap(0);
        end
    endfunction

    localparam integer GAP = max_gap(0);
    localparam integer GW = (GAP > 1) ? $clog2(GAP) : 1;  // the countdown holds gap - 1
    localparam integer START_I = CYCLE_START;
    localparam [31:0] START = START_I[31:0];

    reg active;  // fired once, and not yet the last time
    wire first = !active && (cycle == START);
    wire all_last = wrap[DIM - 1];

    // Per dimension: `carry_in` says every inner dimension is at its last iteration, so this one steps (or
    // wraps) when the controller fires; `gap` is the countdown's next value (gap less one) for the firing,
    // chosen by the innermost dimension that does not wrap. Separate wires per dimension keep the chain free
    // of false combinational loops.
    genvar k;
    generate
        for (k = 0; k < DIM; k = k + 1) begin : dim
            localparam integer E = field(EXTENT, k);
            localparam integer G1_I = delta(CYCLE_STRIDE, k) - 1;
            localparam [GW-1:0] G1 = G1_I[GW-1:0];
            localparam integer G2_I = (THEN_STEPS > 0) ? delta(THEN_STRIDE, k) - 1 : 0;
            localparam [GW-1:0] G2 = G2_I[GW-1:0];
            localparam integer GS_I = (THEN_STEPS > 0) ? switch_gap(0) - 1 : 0;
            localparam [GW-1:0] GS = GS_I[GW-1:0];
            wire [GW-1:0] G;
            // this dimension's iteration: read where a second piece switches by the outermost one's
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] idx;
            /* verilator lint_on UNUSEDSIGNAL */
            wire at_last;
            wire carry_in;
            wire carry_out = carry_in & at_last;
            wire [GW-1:0] gap;
            assign wrap[k] = carry_out;
            if (k == 0) begin : first_dim
                assign carry_in = 1'b1;
            end else begin : chained
                assign carry_in = dim[k - 1].carry_out;
            end
            if (k == DIM - 1) begin : outermost
                assign gap = (carry_in & !at_last) ? G : {GW{1'b0}};
            end else begin : inner
                assign gap = (carry_in & !at_last) ? G : dim[k + 1].gap;
            end
            if (THEN_STEPS == 0) begin : one_piece
                assign G = G1;
            end else if (k == DIM - 1) begin : stepping_outer  // the outermost steps into idx + 1
                assign G = (idx + 1 < THEN_STEPS) ? G1 : (idx + 1 == THEN_STEPS) ? GS : G2;
            end else begin : stepping_inner
                assign G = (dim[DIM - 1].idx < THEN_STEPS) ? G1 : G2;
            end
            if (E > 1) begin : counted
                localparam integer CW = $clog2(E);
                localparam integer LAST_I = E - 1;
                localparam [CW-1:0] LAST = LAST_I[CW-1:0];
                reg [CW-1:0] count;
                assign idx = {{(32 - CW){1'b0}}, count};
                assign at_last = (count == LAST);
                always @(posedge clk) begin
                    if (!rst_n || restart)
                        count <= {CW{1'b0}};
                    else if (en && fire && carry_in)
                        count <= at_last ? {CW{1'b0}} : count + 1'b1;
                end
            end else begin : single
                assign idx = 32'd0;
                assign at_last = 1'b1;
            end
        end
    endgenerate

    generate
        if (GAP > 1) begin : countdown
            reg [GW-1:0] left;  // cycles to the next firing, less one
            assign fire = first || (active && left == {GW{1'b0}});
            always @(posedge clk) begin
                if (!rst_n || restart)
                    left <= {GW{1'b0}};
                else if (en && fire)
                    left <= dim[0].gap;
                else if (en && active)
                    left <= left - 1'b1;
            end
        end else begin : consecutive
            wire [GW-1:0] gap_unused = dim[0].gap;  // always 0: it fires every cycle once started
            assign fire = first || active;
        end
    endgenerate

    always @(posedge clk) begin
        if (!rst_n || restart)
            active <= 1'b0;
        else if (en && fire)
            active <= !all_last;
    end
endmodule

// Where an affine controller points: (DATA_START + sum(DATA_STRIDE[k] * i[k])) mod WORDS, advanced in each
// firing by the step of the dimension that steps (`wrap` from the controller's `ms_ctrl_when`): an adder and a
// wrap at WORDS, no multiplier (the steps are constants of the configuration, as in Lake's address generators).
module ms_ctrl_addr #(
    parameter integer DIM = 1,
    parameter [32*8-1:0] EXTENT = {8{32'd1}},
    parameter integer DATA_START = 0,
    parameter [32*8-1:0] DATA_STRIDE = 0,
    parameter integer WORDS = 1,
    parameter integer AW = 1
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input fire,
    input [DIM-1:0] wrap,
    output [AW-1:0] addr
);
    function integer field;
        input [32*8-1:0] v;
        input integer k;
        begin
            field = v[32*k +: 32];
        end
    endfunction

    // What the address advances by when dimension k steps and every inner dimension wraps.
    function integer delta;
        input [32*8-1:0] stride;
        input integer k;
        integer j;
        begin
            delta = field(stride, k);
            for (j = 0; j < k; j = j + 1)
                delta = delta - field(stride, j) * (field(EXTENT, j) - 1);
        end
    endfunction

    function integer modw;
        input integer v;
        begin
            modw = ((v % WORDS) + WORDS) % WORDS;
        end
    endfunction

    localparam integer START_I = modw(DATA_START);
    localparam [AW-1:0] START_ADDR = START_I[AW-1:0];
    localparam integer WORDS_I = WORDS;
    localparam [AW:0] WORDS_W = WORDS_I[AW:0];

    reg [AW-1:0] addr_r;
    assign addr = addr_r;

    genvar k;
    generate
        for (k = 0; k < DIM; k = k + 1) begin : dim
            localparam integer DA_I = modw(delta(DATA_STRIDE, k));
            localparam [AW:0] DA = DA_I[AW:0];
            wire carry_in;
            wire [AW:0] da;
            if (k == 0) begin : first_dim
                assign carry_in = 1'b1;
            end else begin : chained
                assign carry_in = wrap[k - 1];
            end
            if (k == DIM - 1) begin : outermost
                assign da = (carry_in & !wrap[k]) ? DA : {(AW+1){1'b0}};
            end else begin : inner
                assign da = (carry_in & !wrap[k]) ? DA : dim[k + 1].da;
            end
        end
    endgenerate

    wire [AW:0] sum = {1'b0, addr_r} + dim[0].da;
    wire [AW:0] wrapped = (sum >= WORDS_W) ? sum - WORDS_W : sum;
    wire wrapped_unused = wrapped[AW];  // always 0 after the wrap

    always @(posedge clk) begin
        if (!rst_n || restart)
            addr_r <= START_ADDR;
        else if (en && fire && !wrap[DIM - 1])
            addr_r <= wrapped[AW-1:0];
    end
endmodule

// One port of a memory tile: an affine controller (as above) confined to the tile's words BASE .. BASE+SIZE-1,
// so that several delay lines share one SRAM, each in its own region.
module ms_tile_port #(
    parameter integer DIM = 1,
    parameter [32*8-1:0] EXTENT = {8{32'd1}},
    parameter integer CYCLE_START = 0,
    parameter [32*8-1:0] CYCLE_STRIDE = 0,
    parameter integer DATA_START = 0,
    parameter [32*8-1:0] DATA_STRIDE = 0,
    parameter integer BASE = 0,
    parameter integer SIZE = 1,
    parameter integer THEN_STEPS = 0,
    parameter integer THEN_START = 0,
    parameter [32*8-1:0] THEN_STRIDE = 0,
    parameter integer AW = 1
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
    output fire,
    output [AW-1:0] addr
);
    localparam [AW-1:0] BASE_A = BASE[AW-1:0];
    wire [AW-1:0] offset;

    ms_affine_ctrl #(.DIM(DIM), .EXTENT(EXTENT), .CYCLE_START(CYCLE_START), .CYCLE_STRIDE(CYCLE_STRIDE),
                     .DATA_START(DATA_START), .DATA_STRIDE(DATA_STRIDE), .WORDS(SIZE), .THEN_STEPS(THEN_STEPS),
                     .THEN_START(THEN_START), .THEN_STRIDE(THEN_STRIDE), .AW(AW))
        ctrl (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(fire), .addr(offset));
    assign addr = BASE_A + offset;
endmodule

// The read ports of a tile or register bank as its NR output registers see them: read port 0 or 1 (R0, R1), or, in
// cycles of their own, up to four more read controllers (NS of them: R2 to R5) sharing read port R<i>_PORT.
module ms_shared_reads #(
    parameter integer NS = 0,
    parameter integer AW = 1,
    parameter integer R2_DIM = 1,
    parameter [32*8-1:0] R2_EXTENT = {8{32'd1}},
    parameter integer R2_CYCLE_START = 1,
    parameter [32*8-1:0] R2_CYCLE_STRIDE = 0,
    parameter integer R2_DATA_START = 0,
    parameter [32*8-1:0] R2_DATA_STRIDE = 0,
    parameter integer R2_BASE = 0,
    parameter integer R2_SIZE = 1,
    parameter integer R2_PORT = 0,
    parameter integer R3_DIM = 1,
    parameter [32*8-1:0] R3_EXTENT = {8{32'd1}},
    parameter integer R3_CYCLE_START = 1,
    parameter [32*8-1:0] R3_CYCLE_STRIDE = 0,
    parameter integer R3_DATA_START = 0,
    parameter [32*8-1:0] R3_DATA_STRIDE = 0,
    parameter integer R3_BASE = 0,
    parameter integer R3_SIZE = 1,
    parameter integer R3_PORT = 0,
    parameter integer R4_DIM = 1,
    parameter [32*8-1:0] R4_EXTENT = {8{32'd1}},
    parameter integer R4_CYCLE_START = 1,
    parameter [32*8-1:0] R4_CYCLE_STRIDE = 0,
    parameter integer R4_DATA_START = 0,
    parameter [32*8-1:0] R4_DATA_STRIDE = 0,
    parameter integer R4_BASE = 0,
    parameter integer R4_SIZE = 1,
    parameter integer R4_PORT = 0,
    parameter integer R5_DIM = 1,
    parameter [32*8-1:0] R5_EXTENT = {8{32'd1}},
    parameter integer R5_CYCLE_START = 1,
    parameter [32*8-1:0] R5_CYCLE_STRIDE = 0,
    parameter integer R5_DATA_START = 0,
    parameter [32*8-1:0] R5_DATA_STRIDE = 0,
    parameter integer R5_BASE = 0,
    parameter integer R5_SIZE = 1,
    parameter integer R5_PORT = 0
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
    input rfire0,
    input rfire1,
    input [AW-1:0] raddr0,
    input [AW-1:0] raddr1,
    output tfire0,
    output tfire1,
    output [AW-1:0] taddr0,
    output [AW-1:0] taddr1
);
    generate
        if (NS > 0) begin : shared_reads
            wire rfire2, rfire3, rfire4, rfire5;
            wire [AW-1:0] raddr2, raddr3, raddr4, raddr5;
            ms_tile_port #(.DIM(R2_DIM), .EXTENT(R2_EXTENT), .CYCLE_START(R2_CYCLE_START - 1),
                           .CYCLE_STRIDE(R2_CYCLE_STRIDE), .DATA_START(R2_DATA_START), .DATA_STRIDE(R2_DATA_STRIDE),
                           .BASE(R2_BASE), .SIZE(R2_SIZE), .AW(AW))
                rshare2 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire2),
                         .addr(raddr2));
            if (NS > 1) begin : fourth
                ms_tile_port #(.DIM(R3_DIM), .EXTENT(R3_EXTENT), .CYCLE_START(R3_CYCLE_START - 1),
                               .CYCLE_STRIDE(R3_CYCLE_STRIDE), .DATA_START(R3_DATA_START),
                               .DATA_STRIDE(R3_DATA_STRIDE), .BASE(R3_BASE), .SIZE(R3_SIZE), .AW(AW))
                    rshare3 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire3),
                             .addr(raddr3));
            end else begin : third_only
                assign rfire3 = 1'b0;
                assign raddr3 = {AW{1'b0}};
            end
            if (NS > 2) begin : fifth
                ms_tile_port #(.DIM(R4_DIM), .EXTENT(R4_EXTENT), .CYCLE_START(R4_CYCLE_START - 1),
                               .CYCLE_STRIDE(R4_CYCLE_STRIDE), .DATA_START(R4_DATA_START),
                               .DATA_STRIDE(R4_DATA_STRIDE), .BASE(R4_BASE), .SIZE(R4_SIZE), .AW(AW))
                    rshare4 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire4),
                             .addr(raddr4));
            end else begin : no_fifth
                assign rfire4 = 1'b0;
                assign raddr4 = {AW{1'b0}};
            end
            if (NS > 3) begin : sixth
                ms_tile_port #(.DIM(R5_DIM), .EXTENT(R5_EXTENT), .CYCLE_START(R5_CYCLE_START - 1),
                               .CYCLE_STRIDE(R5_CYCLE_STRIDE), .DATA_START(R5_DATA_START),
                               .DATA_STRIDE(R5_DATA_STRIDE), .BASE(R5_BASE), .SIZE(R5_SIZE), .AW(AW))
                    rshare5 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire5),
                             .addr(raddr5));
            end else begin : no_sixth
                assign rfire5 = 1'b0;
                assign raddr5 = {AW{1'b0}};
            end
            wire on20 = rfire2 && (R2_PORT == 0);
            wire on21 = rfire2 && (R2_PORT == 1);
            wire on30 = rfire3 && (R3_PORT == 0);
            wire on31 = rfire3 && (R3_PORT == 1);
            wire on40 = rfire4 && (R4_PORT == 0);
            wire on41 = rfire4 && (R4_PORT == 1);
            wire on50 = rfire5 && (R5_PORT == 0);
            wire on51 = rfire5 && (R5_PORT == 1);
            assign tfire0 = rfire0 || on20 || on30 || on40 || on50;
            assign tfire1 = rfire1 || on21 || on31 || on41 || on51;
            assign taddr0 = on20 ? raddr2 : (on30 ? raddr3 : (on40 ? raddr4 : (on50 ? raddr5 : raddr0)));
            assign taddr1 = on21 ? raddr2 : (on31 ? raddr3 : (on41 ? raddr4 : (on51 ? raddr5 : raddr1)));
        end else begin : own_reads
            // (no controller of its own: the clock and cycle go unused, as the `_unused` name tells the linter)
            wire clocks_unused = ^{clk, rst_n, en, restart, cycle};
            assign tfire0 = rfire0;
            assign tfire1 = rfire1;
            assign taddr0 = raddr0;
            assign taddr1 = raddr1;
        end
    endgenerate
endmodule

// A memory tile: WORDS x WIDTH SRAM with up to two write ports (NW) and two read ports (NR), each a tile port
// configured from the memory JSON. A read port's controller gives the cycles its output register loads in; the
// SRAM is read (synchronously) one cycle earlier and the word held until the next load. FORWARD = 1 (addressed
// banks): the word being written in that cycle is forwarded (a read one cycle after its write sees the new
// value). FORWARD = 0 (delay lines): read-first, the old word is read while its address is rewritten.
// Up to four more read controllers (NS of them: R2 to R5) share the NR tile read ports in cycles of their own: a
// tile read port reads at the address of whichever of its controllers fires, into its one output register.
module ms_mem_tile #(
    parameter integer WIDTH = 16,
    parameter integer WORDS = 2048,
    parameter integer AW = 11,
    parameter integer NW = 1,
    parameter integer NR = 1,
    parameter integer NS = 0,
    parameter integer FORWARD = 1,
    // Read port 1's own forwarding, where the tile's second port pair serves another bank (a delay line beside
    // an addressed bank: memories/shared_tiles.py); each port pair's regions are apart from the other's.
    parameter integer FORWARD1 = FORWARD,
    parameter integer W0_DIM = 1,
    parameter [32*8-1:0] W0_EXTENT = {8{32'd1}},
    parameter integer W0_CYCLE_START = 0,
    parameter [32*8-1:0] W0_CYCLE_STRIDE = 0,
    parameter integer W0_DATA_START = 0,
    parameter [32*8-1:0] W0_DATA_STRIDE = 0,
    parameter integer W0_BASE = 0,
    parameter integer W0_SIZE = 1,
    parameter integer W0_THEN_STEPS = 0,
    parameter integer W0_THEN_START = 0,
    parameter [32*8-1:0] W0_THEN_STRIDE = 0,
    parameter integer W1_DIM = 1,
    parameter [32*8-1:0] W1_EXTENT = {8{32'd1}},
    parameter integer W1_CYCLE_START = 0,
    parameter [32*8-1:0] W1_CYCLE_STRIDE = 0,
    parameter integer W1_DATA_START = 0,
    parameter [32*8-1:0] W1_DATA_STRIDE = 0,
    parameter integer W1_BASE = 0,
    parameter integer W1_SIZE = 1,
    parameter integer W1_THEN_STEPS = 0,
    parameter integer W1_THEN_START = 0,
    parameter [32*8-1:0] W1_THEN_STRIDE = 0,
    parameter integer R0_DIM = 1,
    parameter [32*8-1:0] R0_EXTENT = {8{32'd1}},
    parameter integer R0_CYCLE_START = 1,
    parameter [32*8-1:0] R0_CYCLE_STRIDE = 0,
    parameter integer R0_DATA_START = 0,
    parameter [32*8-1:0] R0_DATA_STRIDE = 0,
    parameter integer R0_BASE = 0,
    parameter integer R0_SIZE = 1,
    parameter integer R0_THEN_STEPS = 0,
    parameter integer R0_THEN_START = 0,
    parameter [32*8-1:0] R0_THEN_STRIDE = 0,
    parameter integer R1_DIM = 1,
    parameter [32*8-1:0] R1_EXTENT = {8{32'd1}},
    parameter integer R1_CYCLE_START = 1,
    parameter [32*8-1:0] R1_CYCLE_STRIDE = 0,
    parameter integer R1_DATA_START = 0,
    parameter [32*8-1:0] R1_DATA_STRIDE = 0,
    parameter integer R1_BASE = 0,
    parameter integer R1_SIZE = 1,
    parameter integer R1_THEN_STEPS = 0,
    parameter integer R1_THEN_START = 0,
    parameter [32*8-1:0] R1_THEN_STRIDE = 0,
    // Bank read ports sharing a tile read port (NS of them, addressed banks by residue): R2 to R5 each read
    // through tile read port R<i>_PORT (0 or 1) in cycles its own controller (R0 or R1) does not read in.
    parameter integer R2_DIM = 1,
    parameter [32*8-1:0] R2_EXTENT = {8{32'd1}},
    parameter integer R2_CYCLE_START = 1,
    parameter [32*8-1:0] R2_CYCLE_STRIDE = 0,
    parameter integer R2_DATA_START = 0,
    parameter [32*8-1:0] R2_DATA_STRIDE = 0,
    parameter integer R2_BASE = 0,
    parameter integer R2_SIZE = 1,
    parameter integer R2_PORT = 0,
    parameter integer R3_DIM = 1,
    parameter [32*8-1:0] R3_EXTENT = {8{32'd1}},
    parameter integer R3_CYCLE_START = 1,
    parameter [32*8-1:0] R3_CYCLE_STRIDE = 0,
    parameter integer R3_DATA_START = 0,
    parameter [32*8-1:0] R3_DATA_STRIDE = 0,
    parameter integer R3_BASE = 0,
    parameter integer R3_SIZE = 1,
    parameter integer R3_PORT = 0,
    parameter integer R4_DIM = 1,
    parameter [32*8-1:0] R4_EXTENT = {8{32'd1}},
    parameter integer R4_CYCLE_START = 1,
    parameter [32*8-1:0] R4_CYCLE_STRIDE = 0,
    parameter integer R4_DATA_START = 0,
    parameter [32*8-1:0] R4_DATA_STRIDE = 0,
    parameter integer R4_BASE = 0,
    parameter integer R4_SIZE = 1,
    parameter integer R4_PORT = 0,
    parameter integer R5_DIM = 1,
    parameter [32*8-1:0] R5_EXTENT = {8{32'd1}},
    parameter integer R5_CYCLE_START = 1,
    parameter [32*8-1:0] R5_CYCLE_STRIDE = 0,
    parameter integer R5_DATA_START = 0,
    parameter [32*8-1:0] R5_DATA_STRIDE = 0,
    parameter integer R5_BASE = 0,
    parameter integer R5_SIZE = 1,
    parameter integer R5_PORT = 0
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
    input [WIDTH-1:0] wdata0,
    input [WIDTH-1:0] wdata1,
    output reg [WIDTH-1:0] rdata0,
    output reg [WIDTH-1:0] rdata1,
    output wfire  // the cycles write port 0 writes (for a gated delay line: its stream's write cycles)
);
    localparam [0:0] FWD = FORWARD[0:0];
    localparam [0:0] FWD1 = FORWARD1[0:0];
    wire wfire0, wfire1, rfire0, rfire1;
    wire [AW-1:0] waddr0, waddr1, raddr0, raddr1;
    wire [W0_DIM-1:0] wwrap0;
    wire [R0_DIM-1:0] rwrap0;

    // Ports whose controllers fire in the same cycles (a packed tile's two delay lines, written by one stream
    // and read one cycle apart) share one `ms_ctrl_when`: only their addresses differ. A read port's controller
    // is issued a cycle before its output register loads (CYCLE_START - 1).
    localparam integer R0_ISSUE = R0_CYCLE_START - 1;
    localparam integer R1_ISSUE = R1_CYCLE_START - 1;
    localparam W1_AS_W0 = (W1_DIM == W0_DIM) && (W1_EXTENT == W0_EXTENT) && (W1_CYCLE_START == W0_CYCLE_START)
                          && (W1_CYCLE_STRIDE == W0_CYCLE_STRIDE) && (W1_THEN_STEPS == W0_THEN_STEPS)
                          && (W1_THEN_START == W0_THEN_START) && (W1_THEN_STRIDE == W0_THEN_STRIDE);
    localparam R0_AS_W0 = (R0_DIM == W0_DIM) && (R0_EXTENT == W0_EXTENT) && (R0_ISSUE == W0_CYCLE_START)
                          && (R0_CYCLE_STRIDE == W0_CYCLE_STRIDE) && (W0_THEN_STEPS == 0) && (R0_THEN_STEPS == 0);
    localparam R1_AS_R0 = (R1_DIM == R0_DIM) && (R1_EXTENT == R0_EXTENT) && (R1_ISSUE == R0_ISSUE)
                          && (R1_CYCLE_STRIDE == R0_CYCLE_STRIDE) && (R1_THEN_STEPS == R0_THEN_STEPS)
                          && (R1_THEN_START == R0_THEN_START) && (R1_THEN_STRIDE == R0_THEN_STRIDE);
    localparam R1_AS_W0 = (R1_DIM == W0_DIM) && (R1_EXTENT == W0_EXTENT) && (R1_ISSUE == W0_CYCLE_START)
                          && (R1_CYCLE_STRIDE == W0_CYCLE_STRIDE) && (W0_THEN_STEPS == 0) && (R1_THEN_STEPS == 0);
    localparam [AW-1:0] W0_BASE_A = W0_BASE[AW-1:0];
    localparam [AW-1:0] W1_BASE_A = W1_BASE[AW-1:0];
    localparam [AW-1:0] R0_BASE_A = R0_BASE[AW-1:0];
    localparam [AW-1:0] R1_BASE_A = R1_BASE[AW-1:0];
    wire [AW-1:0] woff0, roff0;

    ms_ctrl_when #(.DIM(W0_DIM), .EXTENT(W0_EXTENT), .CYCLE_START(W0_CYCLE_START), .CYCLE_STRIDE(W0_CYCLE_STRIDE),
                   .THEN_STEPS(W0_THEN_STEPS), .THEN_START(W0_THEN_START), .THEN_STRIDE(W0_THEN_STRIDE))
        wwhen0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(wfire0), .wrap(wwrap0));
    ms_ctrl_addr #(.DIM(W0_DIM), .EXTENT(W0_EXTENT), .DATA_START(W0_DATA_START), .DATA_STRIDE(W0_DATA_STRIDE),
                   .WORDS(W0_SIZE), .AW(AW))
        wwhere0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .fire(wfire0), .wrap(wwrap0), .addr(woff0));
    assign waddr0 = W0_BASE_A + woff0;
    ms_ctrl_addr #(.DIM(R0_DIM), .EXTENT(R0_EXTENT), .DATA_START(R0_DATA_START), .DATA_STRIDE(R0_DATA_STRIDE),
                   .WORDS(R0_SIZE), .AW(AW))
        rwhere0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .fire(rfire0), .wrap(rwrap0), .addr(roff0));
    assign raddr0 = R0_BASE_A + roff0;

    generate
        if (R0_AS_W0) begin : read0_with_write0
            assign rfire0 = wfire0;
            assign rwrap0 = wwrap0;
        end else begin : read0_own
            ms_ctrl_when #(.DIM(R0_DIM), .EXTENT(R0_EXTENT), .CYCLE_START(R0_ISSUE), .CYCLE_STRIDE(R0_CYCLE_STRIDE),
                           .THEN_STEPS(R0_THEN_STEPS), .THEN_START(R0_THEN_START - 1), .THEN_STRIDE(R0_THEN_STRIDE))
                rwhen0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire0),
                        .wrap(rwrap0));
        end
        if (NW > 1) begin : second_write
            wire [W1_DIM-1:0] wwrap1;
            wire [AW-1:0] woff1;
            if (W1_AS_W0) begin : with_write0
                assign wfire1 = wfire0;
                assign wwrap1 = wwrap0;
            end else begin : own
                ms_ctrl_when #(.DIM(W1_DIM), .EXTENT(W1_EXTENT), .CYCLE_START(W1_CYCLE_START),
                               .CYCLE_STRIDE(W1_CYCLE_STRIDE), .THEN_STEPS(W1_THEN_STEPS),
                               .THEN_START(W1_THEN_START), .THEN_STRIDE(W1_THEN_STRIDE))
                    wwhen1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(wfire1),
                            .wrap(wwrap1));
            end
            ms_ctrl_addr #(.DIM(W1_DIM), .EXTENT(W1_EXTENT), .DATA_START(W1_DATA_START),
                           .DATA_STRIDE(W1_DATA_STRIDE), .WORDS(W1_SIZE), .AW(AW))
                wwhere1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .fire(wfire1), .wrap(wwrap1),
                         .addr(woff1));
            assign waddr1 = W1_BASE_A + woff1;
        end else begin : one_write
            assign wfire1 = 1'b0;
            assign waddr1 = {AW{1'b0}};
        end
        if (NR > 1) begin : second_read
            wire [R1_DIM-1:0] rwrap1;
            wire [AW-1:0] roff1;
            if (R1_AS_R0) begin : with_read0
                assign rfire1 = rfire0;
                assign rwrap1 = rwrap0;
            end else if (R1_AS_W0) begin : with_write0
                assign rfire1 = wfire0;
                assign rwrap1 = wwrap0;
            end else begin : own
                ms_ctrl_when #(.DIM(R1_DIM), .EXTENT(R1_EXTENT), .CYCLE_START(R1_ISSUE),
                               .CYCLE_STRIDE(R1_CYCLE_STRIDE), .THEN_STEPS(R1_THEN_STEPS),
                               .THEN_START(R1_THEN_START - 1), .THEN_STRIDE(R1_THEN_STRIDE))
                    rwhen1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire1),
                            .wrap(rwrap1));
            end
            ms_ctrl_addr #(.DIM(R1_DIM), .EXTENT(R1_EXTENT), .DATA_START(R1_DATA_START),
                           .DATA_STRIDE(R1_DATA_STRIDE), .WORDS(R1_SIZE), .AW(AW))
                rwhere1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .fire(rfire1), .wrap(rwrap1),
                         .addr(roff1));
            assign raddr1 = R1_BASE_A + roff1;
        end else begin : one_read
            assign rfire1 = 1'b0;
            assign raddr1 = {AW{1'b0}};
        end
    endgenerate

    // The tile read ports: bank read port 0 or 1, or in its own cycles a controller sharing it (R2 to R5).
    wire tfire0, tfire1;
    wire [AW-1:0] taddr0, taddr1;
    ms_shared_reads #(.NS(NS), .AW(AW),
                      .R2_DIM(R2_DIM), .R2_EXTENT(R2_EXTENT), .R2_CYCLE_START(R2_CYCLE_START),
                      .R2_CYCLE_STRIDE(R2_CYCLE_STRIDE), .R2_DATA_START(R2_DATA_START),
                      .R2_DATA_STRIDE(R2_DATA_STRIDE), .R2_BASE(R2_BASE), .R2_SIZE(R2_SIZE), .R2_PORT(R2_PORT),
                      .R3_DIM(R3_DIM), .R3_EXTENT(R3_EXTENT), .R3_CYCLE_START(R3_CYCLE_START),
                      .R3_CYCLE_STRIDE(R3_CYCLE_STRIDE), .R3_DATA_START(R3_DATA_START),
                      .R3_DATA_STRIDE(R3_DATA_STRIDE), .R3_BASE(R3_BASE), .R3_SIZE(R3_SIZE), .R3_PORT(R3_PORT),
                      .R4_DIM(R4_DIM), .R4_EXTENT(R4_EXTENT), .R4_CYCLE_START(R4_CYCLE_START),
                      .R4_CYCLE_STRIDE(R4_CYCLE_STRIDE), .R4_DATA_START(R4_DATA_START),
                      .R4_DATA_STRIDE(R4_DATA_STRIDE), .R4_BASE(R4_BASE), .R4_SIZE(R4_SIZE), .R4_PORT(R4_PORT),
                      .R5_DIM(R5_DIM), .R5_EXTENT(R5_EXTENT), .R5_CYCLE_START(R5_CYCLE_START),
                      .R5_CYCLE_STRIDE(R5_CYCLE_STRIDE), .R5_DATA_START(R5_DATA_START),
                      .R5_DATA_STRIDE(R5_DATA_STRIDE), .R5_BASE(R5_BASE), .R5_SIZE(R5_SIZE), .R5_PORT(R5_PORT))
        shared (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .rfire0(rfire0),
                .rfire1(rfire1), .raddr0(raddr0), .raddr1(raddr1), .tfire0(tfire0), .tfire1(tfire1),
                .taddr0(taddr0), .taddr1(taddr1));

    assign wfire = wfire0;

    // Two delay lines packed in one tile (read-first, each read port in the region of one write port, the regions
    // apart) behave as two SRAMs of their regions' words: modelled so, each region's words have one write port and
    // one read multiplexer (in one shared array both write ports reach every word, and each read port chooses among
    // all of them: about a quarter more cells under a flattening synthesis, where memories become flip-flops).
    localparam APART = (W0_BASE + W0_SIZE <= W1_BASE) || (W1_BASE + W1_SIZE <= W0_BASE);
    localparam SPLIT = (NW > 1) && (NR > 1) && (NS == 0) && (FORWARD == 0) && (FORWARD1 == 0) && APART && (R0_BASE == W0_BASE)
                       && (R0_SIZE == W0_SIZE) && (R1_BASE == W1_BASE) && (R1_SIZE == W1_SIZE);
    generate
        if (SPLIT) begin : regions
            reg [WIDTH-1:0] mem0 [0:W0_SIZE-1];
            reg [WIDTH-1:0] mem1 [0:W1_SIZE-1];
            // Offsets in the regions, on the regions' own address bits (the high bits of a difference are zero).
            localparam integer A0 = (W0_SIZE > 1) ? $clog2(W0_SIZE) : 1;
            localparam integer A1 = (W1_SIZE > 1) ? $clog2(W1_SIZE) : 1;
            wire [AW-1:0] w0_high_unused = waddr0 - W0_BASE_A;
            wire [AW-1:0] w1_high_unused = waddr1 - W1_BASE_A;
            wire [AW-1:0] r0_high_unused = taddr0 - R0_BASE_A;
            wire [AW-1:0] r1_high_unused = taddr1 - R1_BASE_A;
            wire [A0-1:0] w0 = w0_high_unused[A0-1:0];
            wire [A1-1:0] w1 = w1_high_unused[A1-1:0];
            wire [A0-1:0] r0 = r0_high_unused[A0-1:0];
            wire [A1-1:0] r1 = r1_high_unused[A1-1:0];
            always @(posedge clk) begin
                if (en && wfire0)
                    mem0[w0] <= wdata0;
                if (en && wfire1)
                    mem1[w1] <= wdata1;
            end
            always @(posedge clk) begin
                if (!rst_n)
                    rdata0 <= {WIDTH{1'b0}};
                else if (en && tfire0)
                    rdata0 <= mem0[r0];
            end
            always @(posedge clk) begin
                if (!rst_n)
                    rdata1 <= {WIDTH{1'b0}};
                else if (en && tfire1)
                    rdata1 <= mem1[r1];
            end
        end else begin : one_array
            reg [WIDTH-1:0] mem [0:WORDS-1];
            // Forwarding (FORWARD = 1 only; FORWARD1 for read port 1): the word a write port stores in the cycle
            // a read is issued at its address.
            wire fwd00 = FWD & wfire0 & (waddr0 == taddr0);
            wire fwd10 = FWD & wfire1 & (waddr1 == taddr0);
            wire fwd01 = FWD1 & wfire0 & (waddr0 == taddr1);
            wire fwd11 = FWD1 & wfire1 & (waddr1 == taddr1);
            always @(posedge clk) begin
                if (en && wfire0)
                    mem[waddr0] <= wdata0;
                if (en && wfire1)
                    mem[waddr1] <= wdata1;
            end
            always @(posedge clk) begin
                if (!rst_n)
                    rdata0 <= {WIDTH{1'b0}};
                else if (en && tfire0)
                    rdata0 <= fwd10 ? wdata1 : (fwd00 ? wdata0 : mem[taddr0]);
            end
            always @(posedge clk) begin
                if (!rst_n)
                    rdata1 <= {WIDTH{1'b0}};
                else if (en && tfire1)
                    rdata1 <= fwd11 ? wdata1 : (fwd01 ? wdata0 : mem[taddr1]);
            end
        end
    endgenerate
endmodule

// A register bank: an addressed bank of a few words (CGRA.register_bank_words) held in registers instead of a
// memory tile, with the ports and timing of `ms_mem_tile` with FORWARD = 1 and no shared read ports. A word's
// register is written in the cycles a write port's address selects it (write port 1 after write port 0, as in
// the tile); a read port's output register loads, in its controller's cycles, the word its address selects
// (issued a cycle before, as a tile's SRAM read), or the word written to that address in the issue cycle.
module ms_reg_bank #(
    parameter integer WIDTH = 16,
    parameter integer WORDS = 2,
    parameter integer AW = 1,
    parameter integer NW = 1,
    parameter integer NR = 1,
    parameter integer NS = 0,
    parameter integer W0_DIM = 1,
    parameter [32*8-1:0] W0_EXTENT = {8{32'd1}},
    parameter integer W0_CYCLE_START = 0,
    parameter [32*8-1:0] W0_CYCLE_STRIDE = 0,
    parameter integer W0_DATA_START = 0,
    parameter [32*8-1:0] W0_DATA_STRIDE = 0,
    parameter integer W0_BASE = 0,
    parameter integer W0_SIZE = 1,
    parameter integer W0_THEN_STEPS = 0,
    parameter integer W0_THEN_START = 0,
    parameter [32*8-1:0] W0_THEN_STRIDE = 0,
    parameter integer W1_DIM = 1,
    parameter [32*8-1:0] W1_EXTENT = {8{32'd1}},
    parameter integer W1_CYCLE_START = 0,
    parameter [32*8-1:0] W1_CYCLE_STRIDE = 0,
    parameter integer W1_DATA_START = 0,
    parameter [32*8-1:0] W1_DATA_STRIDE = 0,
    parameter integer W1_BASE = 0,
    parameter integer W1_SIZE = 1,
    parameter integer W1_THEN_STEPS = 0,
    parameter integer W1_THEN_START = 0,
    parameter [32*8-1:0] W1_THEN_STRIDE = 0,
    parameter integer R0_DIM = 1,
    parameter [32*8-1:0] R0_EXTENT = {8{32'd1}},
    parameter integer R0_CYCLE_START = 1,
    parameter [32*8-1:0] R0_CYCLE_STRIDE = 0,
    parameter integer R0_DATA_START = 0,
    parameter [32*8-1:0] R0_DATA_STRIDE = 0,
    parameter integer R0_BASE = 0,
    parameter integer R0_SIZE = 1,
    parameter integer R0_THEN_STEPS = 0,
    parameter integer R0_THEN_START = 0,
    parameter [32*8-1:0] R0_THEN_STRIDE = 0,
    parameter integer R1_DIM = 1,
    parameter [32*8-1:0] R1_EXTENT = {8{32'd1}},
    parameter integer R1_CYCLE_START = 1,
    parameter [32*8-1:0] R1_CYCLE_STRIDE = 0,
    parameter integer R1_DATA_START = 0,
    parameter [32*8-1:0] R1_DATA_STRIDE = 0,
    parameter integer R1_BASE = 0,
    parameter integer R1_SIZE = 1,
    parameter integer R1_THEN_STEPS = 0,
    parameter integer R1_THEN_START = 0,
    parameter [32*8-1:0] R1_THEN_STRIDE = 0,
    parameter integer R2_DIM = 1,
    parameter [32*8-1:0] R2_EXTENT = {8{32'd1}},
    parameter integer R2_CYCLE_START = 1,
    parameter [32*8-1:0] R2_CYCLE_STRIDE = 0,
    parameter integer R2_DATA_START = 0,
    parameter [32*8-1:0] R2_DATA_STRIDE = 0,
    parameter integer R2_BASE = 0,
    parameter integer R2_SIZE = 1,
    parameter integer R2_PORT = 0,
    parameter integer R3_DIM = 1,
    parameter [32*8-1:0] R3_EXTENT = {8{32'd1}},
    parameter integer R3_CYCLE_START = 1,
    parameter [32*8-1:0] R3_CYCLE_STRIDE = 0,
    parameter integer R3_DATA_START = 0,
    parameter [32*8-1:0] R3_DATA_STRIDE = 0,
    parameter integer R3_BASE = 0,
    parameter integer R3_SIZE = 1,
    parameter integer R3_PORT = 0,
    parameter integer R4_DIM = 1,
    parameter [32*8-1:0] R4_EXTENT = {8{32'd1}},
    parameter integer R4_CYCLE_START = 1,
    parameter [32*8-1:0] R4_CYCLE_STRIDE = 0,
    parameter integer R4_DATA_START = 0,
    parameter [32*8-1:0] R4_DATA_STRIDE = 0,
    parameter integer R4_BASE = 0,
    parameter integer R4_SIZE = 1,
    parameter integer R4_PORT = 0,
    parameter integer R5_DIM = 1,
    parameter [32*8-1:0] R5_EXTENT = {8{32'd1}},
    parameter integer R5_CYCLE_START = 1,
    parameter [32*8-1:0] R5_CYCLE_STRIDE = 0,
    parameter integer R5_DATA_START = 0,
    parameter [32*8-1:0] R5_DATA_STRIDE = 0,
    parameter integer R5_BASE = 0,
    parameter integer R5_SIZE = 1,
    parameter integer R5_PORT = 0,
    // Read port 0 (1) of a bank of one word without an output register (memories/mapping.py): the word itself,
    // which in the port's cycles holds the last value written before them, as the output register would.
    parameter integer R0_DIRECT = 0,
    parameter integer R1_DIRECT = 0
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
    input [WIDTH-1:0] wdata0,
    input [WIDTH-1:0] wdata1,
    output [WIDTH-1:0] rdata0,
    output [WIDTH-1:0] rdata1,
    output wfire  // the cycles write port 0 writes
);
    wire wfire0, wfire1, rfire0, rfire1;
    wire [AW-1:0] waddr0, waddr1, raddr0, raddr1;
    wire [WIDTH-1:0] word [0:WORDS-1];

    ms_tile_port #(.DIM(W0_DIM), .EXTENT(W0_EXTENT), .CYCLE_START(W0_CYCLE_START), .CYCLE_STRIDE(W0_CYCLE_STRIDE),
                   .DATA_START(W0_DATA_START), .DATA_STRIDE(W0_DATA_STRIDE), .BASE(W0_BASE), .SIZE(W0_SIZE),
                   .THEN_STEPS(W0_THEN_STEPS), .THEN_START(W0_THEN_START), .THEN_STRIDE(W0_THEN_STRIDE), .AW(AW))
        wport0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(wfire0), .addr(waddr0));
    ms_tile_port #(.DIM(R0_DIM), .EXTENT(R0_EXTENT), .CYCLE_START(R0_CYCLE_START - 1),
                   .CYCLE_STRIDE(R0_CYCLE_STRIDE), .DATA_START(R0_DATA_START), .DATA_STRIDE(R0_DATA_STRIDE),
                   .BASE(R0_BASE), .SIZE(R0_SIZE), .THEN_STEPS(R0_THEN_STEPS), .THEN_START(R0_THEN_START - 1),
                   .THEN_STRIDE(R0_THEN_STRIDE), .AW(AW))
        rport0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire0), .addr(raddr0));
    assign wfire = wfire0;

    genvar i;
    generate
        if (NW > 1) begin : second_write
            ms_tile_port #(.DIM(W1_DIM), .EXTENT(W1_EXTENT), .CYCLE_START(W1_CYCLE_START),
                           .CYCLE_STRIDE(W1_CYCLE_STRIDE), .DATA_START(W1_DATA_START), .DATA_STRIDE(W1_DATA_STRIDE),
                           .BASE(W1_BASE), .SIZE(W1_SIZE), .THEN_STEPS(W1_THEN_STEPS), .THEN_START(W1_THEN_START),
                           .THEN_STRIDE(W1_THEN_STRIDE), .AW(AW))
                wport1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(wfire1),
                        .addr(waddr1));
        end else begin : one_write
            assign wfire1 = 1'b0;
            assign waddr1 = {AW{1'b0}};
        end
        if (NR > 1) begin : second_read
            ms_tile_port #(.DIM(R1_DIM), .EXTENT(R1_EXTENT), .CYCLE_START(R1_CYCLE_START - 1),
                           .CYCLE_STRIDE(R1_CYCLE_STRIDE), .DATA_START(R1_DATA_START), .DATA_STRIDE(R1_DATA_STRIDE),
                           .BASE(R1_BASE), .SIZE(R1_SIZE), .THEN_STEPS(R1_THEN_STEPS),
                           .THEN_START(R1_THEN_START - 1), .THEN_STRIDE(R1_THEN_STRIDE), .AW(AW))
                rport1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire1),
                        .addr(raddr1));
        end else begin : one_read
            assign rfire1 = 1'b0;
            assign raddr1 = {AW{1'b0}};
        end
        // One register per word, enabled by the write-address decode.
        for (i = 0; i < WORDS; i = i + 1) begin : words
            localparam integer I = i;
            localparam [AW-1:0] AT = I[AW-1:0];
            reg [WIDTH-1:0] q;
            always @(posedge clk) begin
                if (!rst_n)
                    q <= {WIDTH{1'b0}};
                else if (en && wfire1 && waddr1 == AT)
                    q <= wdata1;
                else if (en && wfire0 && waddr0 == AT)
                    q <= wdata0;
            end
            assign word[i] = q;
        end
    endgenerate

    // Each output register's address: read port 0 or 1, or in its own cycles a read port sharing it (R2 to R5).
    wire tfire0, tfire1;
    wire [AW-1:0] taddr0, taddr1;
    ms_shared_reads #(.NS(NS), .AW(AW),
                      .R2_DIM(R2_DIM), .R2_EXTENT(R2_EXTENT), .R2_CYCLE_START(R2_CYCLE_START),
                      .R2_CYCLE_STRIDE(R2_CYCLE_STRIDE), .R2_DATA_START(R2_DATA_START),
                      .R2_DATA_STRIDE(R2_DATA_STRIDE), .R2_BASE(R2_BASE), .R2_SIZE(R2_SIZE), .R2_PORT(R2_PORT),
                      .R3_DIM(R3_DIM), .R3_EXTENT(R3_EXTENT), .R3_CYCLE_START(R3_CYCLE_START),
                      .R3_CYCLE_STRIDE(R3_CYCLE_STRIDE), .R3_DATA_START(R3_DATA_START),
                      .R3_DATA_STRIDE(R3_DATA_STRIDE), .R3_BASE(R3_BASE), .R3_SIZE(R3_SIZE), .R3_PORT(R3_PORT),
                      .R4_DIM(R4_DIM), .R4_EXTENT(R4_EXTENT), .R4_CYCLE_START(R4_CYCLE_START),
                      .R4_CYCLE_STRIDE(R4_CYCLE_STRIDE), .R4_DATA_START(R4_DATA_START),
                      .R4_DATA_STRIDE(R4_DATA_STRIDE), .R4_BASE(R4_BASE), .R4_SIZE(R4_SIZE), .R4_PORT(R4_PORT),
                      .R5_DIM(R5_DIM), .R5_EXTENT(R5_EXTENT), .R5_CYCLE_START(R5_CYCLE_START),
                      .R5_CYCLE_STRIDE(R5_CYCLE_STRIDE), .R5_DATA_START(R5_DATA_START),
                      .R5_DATA_STRIDE(R5_DATA_STRIDE), .R5_BASE(R5_BASE), .R5_SIZE(R5_SIZE), .R5_PORT(R5_PORT))
        shared (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .rfire0(rfire0),
                .rfire1(rfire1), .raddr0(raddr0), .raddr1(raddr1), .tfire0(tfire0), .tfire1(tfire1),
                .taddr0(taddr0), .taddr1(taddr1));

    // The read multiplexers, forwarding the word a write port stores in the issue cycle at the read address.
    wire fwd00 = wfire0 & (waddr0 == taddr0);
    wire fwd10 = wfire1 & (waddr1 == taddr0);
    wire fwd01 = wfire0 & (waddr0 == taddr1);
    wire fwd11 = wfire1 & (waddr1 == taddr1);
    reg [WIDTH-1:0] held0, held1;
    always @(posedge clk) begin
        if (!rst_n)
            held0 <= {WIDTH{1'b0}};
        else if (en && tfire0)
            held0 <= fwd10 ? wdata1 : (fwd00 ? wdata0 : word[taddr0]);
    end
    always @(posedge clk) begin
        if (!rst_n)
            held1 <= {WIDTH{1'b0}};
        else if (en && tfire1)
            held1 <= fwd11 ? wdata1 : (fwd01 ? wdata0 : word[taddr1]);
    end
    assign rdata0 = (R0_DIRECT != 0) ? word[0] : held0;
    assign rdata1 = (R1_DIRECT != 0) ? word[0] : held1;
endmodule

// A GLB transfer address generator: an affine controller (as above) that steps once per word moved instead of
// at scheduled cycles (GLB transfers are paced by handshakes). CYCLE_STRIDE must be the dense order
// (1, E0, E0*E1, ...); `last` marks the tile's last transfer, after which it starts the next tile; `count` is the
// number of transfers made in the tile so far.
module ms_glb_addr #(
    parameter integer DIM = 1,
    parameter [32*8-1:0] EXTENT = {8{32'd1}},
    parameter [32*8-1:0] CYCLE_STRIDE = 0,
    parameter integer DATA_START = 0,
    parameter [32*8-1:0] DATA_STRIDE = 0,
    parameter integer TOTAL = 1,
    parameter integer WORDS = 1,
    parameter integer AW = 1
) (
    input clk,
    input rst_n,
    input step,
    output [AW-1:0] addr,
    output first,
    output last,
    output [31:0] count
);
    localparam [31:0] LAST_N = TOTAL - 1;
    reg [31:0] n;
    wire fire_unused;
    assign count = n;
    assign first = (n == 32'd0);
    assign last = (n == LAST_N);
    always @(posedge clk) begin
        if (!rst_n)
            n <= 32'd0;
        else if (step)
            n <= last ? 32'd0 : n + 32'd1;
    end
    ms_affine_ctrl #(.DIM(DIM), .EXTENT(EXTENT), .CYCLE_START(0), .CYCLE_STRIDE(CYCLE_STRIDE),
                     .DATA_START(DATA_START), .DATA_STRIDE(DATA_STRIDE), .WORDS(WORDS), .AW(AW))
        ctrl (.clk(clk), .rst_n(rst_n), .en(step), .restart(step && last), .cycle(n), .fire(fire_unused),
              .addr(addr));
endmodule

// Which steps of a GLB writer's controller move no word: a host loading a GLB input tile in the order the array
// reads it over its memory tiles skips each entry an earlier memory tile already read (its halo). Step i (DIM
// indices, innermost first, EXTENT as the writer's controller) is skipped when for some rule r < RULES its
// index along dimension RULE_GRID[r] is above 0 and along RULE_DIM[r] below RULE_BELOW[r]. Its own iteration
// counters follow the writer's controller, stepping with it (a skipped step takes its cycle).
module ms_glb_skip #(
    parameter integer DIM = 1,
    parameter [32*8-1:0] EXTENT = {8{32'd1}},
    parameter integer RULES = 1,
    parameter [32*8-1:0] RULE_DIM = 0,
    parameter [32*8-1:0] RULE_GRID = 0,
    parameter [32*8-1:0] RULE_BELOW = 0
) (
    input clk,
    input rst_n,
    input step,
    output skip
);
    // Per dimension its index `i`; `carry_in`: every inner dimension is at its last index, so this one steps (or
    // wraps) with the writer. Per rule, `any`: this rule or an earlier one holds (chained, one driver each).
    genvar k, r;
    generate
        for (k = 0; k < DIM; k = k + 1) begin : dims
            localparam integer E = EXTENT[32*k +: 32];
            localparam integer CW = (E > 1) ? $clog2(E) : 1;  // sized to the extent, as ms_ctrl_when's
            localparam integer LAST_I = E - 1;
            localparam [CW-1:0] LAST = LAST_I[CW-1:0];
            reg [CW-1:0] i;
            wire carry_in;
            wire carry_out = carry_in && (i == LAST);
            if (k == 0) begin : first_dim
                assign carry_in = 1'b1;
            end else begin : chained
                assign carry_in = dims[k - 1].carry_out;
            end
            if (k == DIM - 1) begin : outermost
                wire carry_unused = carry_out;  // the walk's last step: the counters wrap to the next tile
            end
            always @(posedge clk) begin
                if (!rst_n)
                    i <= {CW{1'b0}};
                else if (step && carry_in)
                    i <= (i == LAST) ? {CW{1'b0}} : i + 1'b1;
            end
        end
        for (r = 0; r < RULES; r = r + 1) begin : rules
            localparam integer D = RULE_DIM[32*r +: 32];
            localparam integer G = RULE_GRID[32*r +: 32];
            localparam integer ED = EXTENT[32*D +: 32];
            localparam integer DW = (ED > 1) ? $clog2(ED) : 1;  // dimension D's counter width
            localparam integer BELOW_I = RULE_BELOW[32*r +: 32];
            localparam [DW-1:0] BELOW = BELOW_I[DW-1:0];  // below the extent, so it fits
            wire holds = (|dims[G].i) && (dims[D].i < BELOW);
            wire any;
            if (r == 0) begin : first_rule
                assign any = holds;
            end else begin : later_rule
                assign any = holds || rules[r - 1].any;
            end
        end
    endgenerate
    assign skip = rules[RULES - 1].any;
endmodule

// One GLB tile buffer, BUFS copies (2: double buffering), between a writer and a reader that hand words over
// with valid/ready. The writer fills a copy in its controller's order, once the reader has finished the tile the
// copy held. The reader drains the copy in its order while the writer fills it: read n of a tile goes once the
// writer has made step WAIT(n) of the tile in an earlier cycle (WAIT: per read, the step that writes the entry
// read), and the tile's last read once the copy is full. N_MODE 0: every read waits for the full copy; 1: WAIT(n)
// is the read address (a writer in address order); 2: WAIT is an affine controller over the reader's dimensions
// (N_DATA_START, N_DATA_STRIDE). Reads are synchronous (SRAM-like) into an output register that is refilled in
// the cycle it is taken, so a copy streams one word per cycle.
module ms_glb_buffer #(
    parameter integer WIDTH = 16,
    parameter integer WORDS = 1,
    parameter integer BUFS = 2,
    parameter integer W_DIM = 1,
    parameter [32*8-1:0] W_EXTENT = {8{32'd1}},
    parameter [32*8-1:0] W_CYCLE_STRIDE = 0,
    parameter integer W_DATA_START = 0,
    parameter [32*8-1:0] W_DATA_STRIDE = 0,
    parameter integer W_TOTAL = 1,
    parameter integer R_DIM = 1,
    parameter [32*8-1:0] R_EXTENT = {8{32'd1}},
    parameter [32*8-1:0] R_CYCLE_STRIDE = 0,
    parameter integer R_DATA_START = 0,
    parameter [32*8-1:0] R_DATA_STRIDE = 0,
    parameter integer R_TOTAL = 1,
    parameter integer N_MODE = 0,
    parameter integer N_DATA_START = 0,
    parameter [32*8-1:0] N_DATA_STRIDE = 0,
    parameter integer W_SKIP_RULES = 0,  // the writer's skipped steps (ms_glb_skip); 0: none
    parameter [32*8-1:0] W_SKIP_DIM = 0,
    parameter [32*8-1:0] W_SKIP_GRID = 0,
    parameter [32*8-1:0] W_SKIP_BELOW = 0
) (
    input clk,
    input rst_n,
    input [WIDTH-1:0] w_data,
    input w_valid,
    output w_ready,
    output [WIDTH-1:0] r_data,
    output r_valid,
    input r_ready,
    output w_tile_done,   // high in the cycle the last word of a tile is written
    output r_tile_start   // high in the cycle the reader takes the first word of a tile
);
    localparam integer AW = (BUFS * WORDS > 1) ? $clog2(BUFS * WORDS) : 1;
    localparam integer NAW = (W_TOTAL > 1) ? $clog2(W_TOTAL) : 1;
    localparam integer WORDS_I = WORDS;
    localparam [AW-1:0] SECOND = WORDS_I[AW-1:0];

    reg [WIDTH-1:0] mem [0:BUFS*WORDS-1];
    reg [1:0] full;
    reg wbuf, rbuf;
    reg [WIDTH-1:0] q;
    reg q_valid;
    wire [AW-1:0] waddr, raddr;
    wire wlast, rlast, rfirst, wfirst_unused;
    wire [31:0] wcount, rcount_unused, wait_step;
    reg q_first;

    // The reader's copy is full, or the writer is filling it and has written the entry this read takes.
    wire streamed = (N_MODE != 0) && (wbuf == rbuf) && !rlast && (wcount > wait_step);
    wire wskip;  // the writer's step moves no word: it goes without the writer's handshake
    wire wstep = (w_valid || wskip) && !full[wbuf];
    wire wmove = wstep && !wskip;
    wire take = q_valid && r_ready;
    wire rstep = (full[rbuf] || streamed) && (!q_valid || take);
    wire [AW-1:0] wbase = wbuf ? SECOND : {AW{1'b0}};
    wire [AW-1:0] rbase = rbuf ? SECOND : {AW{1'b0}};
    wire [AW-1:0] wa = wbase + waddr;
    wire [AW-1:0] ra = rbase + raddr;

    assign w_ready = !full[wbuf] && !wskip;
    assign r_data = q;
    assign r_valid = q_valid;
    assign w_tile_done = wstep && wlast;
    assign r_tile_start = take && q_first;

    ms_glb_addr #(.DIM(W_DIM), .EXTENT(W_EXTENT), .CYCLE_STRIDE(W_CYCLE_STRIDE), .DATA_START(W_DATA_START),
                  .DATA_STRIDE(W_DATA_STRIDE), .TOTAL(W_TOTAL), .WORDS(WORDS), .AW(AW))
        wgen (.clk(clk), .rst_n(rst_n), .step(wstep), .addr(waddr), .first(wfirst_unused), .last(wlast),
              .count(wcount));
    ms_glb_addr #(.DIM(R_DIM), .EXTENT(R_EXTENT), .CYCLE_STRIDE(R_CYCLE_STRIDE), .DATA_START(R_DATA_START),
                  .DATA_STRIDE(R_DATA_STRIDE), .TOTAL(R_TOTAL), .WORDS(WORDS), .AW(AW))
        rgen (.clk(clk), .rst_n(rst_n), .step(rstep), .addr(raddr), .first(rfirst), .last(rlast),
              .count(rcount_unused));
    generate
        if (W_SKIP_RULES > 0) begin : skips
            ms_glb_skip #(.DIM(W_DIM), .EXTENT(W_EXTENT), .RULES(W_SKIP_RULES), .RULE_DIM(W_SKIP_DIM),
                          .RULE_GRID(W_SKIP_GRID), .RULE_BELOW(W_SKIP_BELOW))
                wskipper (.clk(clk), .rst_n(rst_n), .step(wstep), .skip(wskip));
        end else begin : no_skips
            assign wskip = 1'b0;
        end
        if (N_MODE == 2) begin : own_wait
            wire [NAW-1:0] nstep;
            wire nfirst_unused, nlast_unused;
            wire [31:0] ncount_unused;
            ms_glb_addr #(.DIM(R_DIM), .EXTENT(R_EXTENT), .CYCLE_STRIDE(R_CYCLE_STRIDE), .DATA_START(N_DATA_START),
                          .DATA_STRIDE(N_DATA_STRIDE), .TOTAL(R_TOTAL), .WORDS(W_TOTAL), .AW(NAW))
                ngen (.clk(clk), .rst_n(rst_n), .step(rstep), .addr(nstep), .first(nfirst_unused),
                      .last(nlast_unused), .count(ncount_unused));
            assign wait_step = {{(32 - NAW){1'b0}}, nstep};
        end else begin : addr_wait
            assign wait_step = {{(32 - AW){1'b0}}, raddr};
        end
    endgenerate

    always @(posedge clk) begin
        if (wmove)
            mem[wa] <= w_data;
        if (rstep) begin
            q <= mem[ra];
            q_first <= rfirst;
        end
    end

    // The writer only fills a copy the reader has finished with, and the reader finishes a copy only once it
    // is full, so `full` has one writer per copy in any cycle.
    always @(posedge clk) begin
        if (!rst_n) begin
            full <= 2'b00;
            wbuf <= 1'b0;
            rbuf <= 1'b0;
            q_valid <= 1'b0;
        end else begin
            q_valid <= rstep || (q_valid && !take);
            if (wstep && wlast) begin
                full[wbuf] <= 1'b1;
                if (BUFS == 2) wbuf <= !wbuf;
            end
            if (rstep && rlast) begin
                full[rbuf] <= 1'b0;
                if (BUFS == 2) rbuf <= !rbuf;
            end
        end
    end

`ifndef SYNTHESIS
    // Simulation only, a check of the pacing above: each entry remembers the tile that wrote it last; a read of
    // an entry its tile has not written yet, or a writer more than BUFS tiles ahead of the reader (overwriting
    // a tile not read yet), stops the simulation.
    reg [31:0] stamp [0:BUFS*WORDS-1];
    reg [31:0] wtile, rtile;
    integer i;
    initial begin
        for (i = 0; i < BUFS * WORDS; i = i + 1)
            stamp[i] = 32'hFFFFFFFF;
    end
    always @(posedge clk) begin
        if (!rst_n) begin
            wtile <= 32'd0;
            rtile <= 32'd0;
        end else begin
            if (wstep) begin
                if (wtile >= rtile + BUFS) begin
                    $display("ms_glb_buffer %m: ERROR: tile %0d written into a copy whose tile %0d is not read",
                             wtile, wtile - BUFS);
                    $finish;
                end
                if (!wskip) stamp[wa] <= wtile;
                if (wlast) wtile <= wtile + 32'd1;
            end
            if (rstep) begin
                if (stamp[ra] != rtile) begin
                    $display("ms_glb_buffer %m: ERROR: tile %0d reads entry %0d before it is written", rtile, raddr);
                    $finish;
                end
                if (rlast) rtile <= rtile + 32'd1;
            end
        end
    end
`endif
endmodule

// A RAM (memories/ram.py): WORDS x WIDTH SRAM updated at computed addresses, one read-modify-write per cycle, and
// read through up to two addressed read ports (NR) after its updates. An update fires in a cycle `upd_fire` is
// high: the SRAM reads the word at `upd_addr` into `upd_old`; in the next cycle the kernel's new value `upd_new`
// is written back there. A read issued at the address being written in that cycle gets `upd_new` instead
// (forwarding), so updates of one element in consecutive cycles chain. Every word reads as INIT until its first
// write after a restart: a valid bit per word, cleared in one cycle (an SRAM cannot be). Read ports are
// ms_mem_tile's: the controller gives the cycles the output register loads in; the SRAM is read the cycle before.
module ms_ram #(
    parameter integer WIDTH = 16,
    parameter integer WORDS = 256,
    parameter integer AW = 8,
    parameter [WIDTH-1:0] INIT = {WIDTH{1'b0}},
    // TABLE: every word starts at its own value, word a at INIT_WORDS[a*WIDTH +: WIDTH] (else all at INIT)
    parameter integer TABLE = 0,
    parameter [WIDTH*WORDS-1:0] INIT_WORDS = {WIDTH*WORDS{1'b0}},
    parameter integer NR = 1,
    parameter integer R0_DIM = 1,
    parameter [32*8-1:0] R0_EXTENT = {8{32'd1}},
    parameter integer R0_CYCLE_START = 1,
    parameter [32*8-1:0] R0_CYCLE_STRIDE = 0,
    parameter integer R0_DATA_START = 0,
    parameter [32*8-1:0] R0_DATA_STRIDE = 0,
    parameter integer R1_DIM = 1,
    parameter [32*8-1:0] R1_EXTENT = {8{32'd1}},
    parameter integer R1_CYCLE_START = 1,
    parameter [32*8-1:0] R1_CYCLE_STRIDE = 0,
    parameter integer R1_DATA_START = 0,
    parameter [32*8-1:0] R1_DATA_STRIDE = 0,
    // a read port addressed by its reader's kernel (a read at computed coordinates): the address comes on
    // ext_addr in the cycle before the port's CYCLE_START, as the reader fires
    parameter integer R0_EXT = 0,
    parameter integer R1_EXT = 0
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
    input [AW-1:0] ext_addr0,
    input [AW-1:0] ext_addr1,
    input upd_fire,
    input [AW-1:0] upd_addr,
    input [WIDTH-1:0] upd_new,
    output reg [WIDTH-1:0] upd_old,
    output reg [WIDTH-1:0] rdata0,
    output reg [WIDTH-1:0] rdata1
);
    reg [WIDTH-1:0] mem [0:WORDS-1];
    reg [WORDS-1:0] valid;
    reg pend;              // the update fired last cycle: its new value is written in this one
    reg [AW-1:0] pend_addr;
    wire rfire0, rfire1;
    wire [AW-1:0] raddr0, raddr1, paddr0, paddr1;
    assign raddr0 = (R0_EXT != 0) ? ext_addr0 : paddr0;
    assign raddr1 = (R1_EXT != 0) ? ext_addr1 : paddr1;

    ms_tile_port #(.DIM(R0_DIM), .EXTENT(R0_EXTENT), .CYCLE_START(R0_CYCLE_START - 1),
                   .CYCLE_STRIDE(R0_CYCLE_STRIDE), .DATA_START(R0_DATA_START), .DATA_STRIDE(R0_DATA_STRIDE),
                   .BASE(0), .SIZE(WORDS), .AW(AW))
        rport0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire0), .addr(paddr0));
    generate
        if (NR > 1) begin : second_read
            ms_tile_port #(.DIM(R1_DIM), .EXTENT(R1_EXTENT), .CYCLE_START(R1_CYCLE_START - 1),
                           .CYCLE_STRIDE(R1_CYCLE_STRIDE), .DATA_START(R1_DATA_START),
                           .DATA_STRIDE(R1_DATA_STRIDE), .BASE(0), .SIZE(WORDS), .AW(AW))
                rport1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire1),
                        .addr(paddr1));
        end else begin : one_read
            assign rfire1 = 1'b0;
            assign paddr1 = {AW{1'b0}};
        end
    endgenerate

    // The word at address a as a read issued this cycle sees it: the write of this cycle forwarded, else the
    // SRAM's word once written, else its initial value (INIT, or its INIT_WORDS entry).
    function [WIDTH-1:0] word;
        input [AW-1:0] a;
        begin
            if (pend && pend_addr == a)
                word = upd_new;
            else if (valid[a])
                word = mem[a];
            else if (TABLE != 0)
                word = INIT_WORDS[a * WIDTH +: WIDTH];
            else
                word = INIT;
        end
    endfunction

    always @(posedge clk) begin
        if (!rst_n || restart) begin
            valid <= {WORDS{1'b0}};
            pend <= 1'b0;
        end else if (en) begin
            pend <= upd_fire;
            if (pend)
                valid[pend_addr] <= 1'b1;
        end
    end
    always @(posedge clk) begin
        if (en) begin
            pend_addr <= upd_addr;
            if (pend)
                mem[pend_addr] <= upd_new;
        end
    end
    always @(posedge clk) begin
        if (!rst_n)
            upd_old <= {WIDTH{1'b0}};
        else if (en && upd_fire)
            upd_old <= word(upd_addr);
    end
    always @(posedge clk) begin
        if (!rst_n)
            rdata0 <= {WIDTH{1'b0}};
        else if (en && rfire0)
            rdata0 <= word(raddr0);
    end
    always @(posedge clk) begin
        if (!rst_n)
            rdata1 <= {WIDTH{1'b0}};
        else if (en && rfire1)
            rdata1 <= word(raddr1);
    end
endmodule
