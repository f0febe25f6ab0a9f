// mainspring hardware library: the generic parts every generated design configures.
// Verilog-2005. All state advances only while the global enable `en` is high, so a stalled design holds.

// An affine controller, as the memory tiles of the reference CGRA have them: an iteration counter of DIM
// dimensions (innermost first) that fires in cycle CYCLE_START + sum(CYCLE_STRIDE[k] * i[k]) and then gives
// the address (DATA_START + sum(DATA_STRIDE[k] * i[k])) mod WORDS. Vectors pack 32-bit fields, field k at
// bits [32*k +: 32]. Firing cycles must increase along the iteration order (they do for a schedule).
module ms_affine_ctrl #(
    parameter integer DIM = 1,
    parameter [32*8-1:0] EXTENT = {8{32'd1}},
    parameter integer CYCLE_START = 0,
    parameter [32*8-1:0] CYCLE_STRIDE = 0,
    parameter integer DATA_START = 0,
    parameter [32*8-1:0] DATA_STRIDE = 0,
    parameter integer WORDS = 1,
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
    function integer field;
        input [32*8-1:0] v;
        input integer k;
        begin
            field = v[32*k +: 32];
        end
    endfunction

    // What the cycle (or address) advances by when dimension k steps and every inner dimension wraps.
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

    reg [31:0] next_cycle;
    reg [AW-1:0] addr_r;
    reg done;

    assign fire = !done && (cycle == next_cycle);
    assign addr = addr_r;

    // Per dimension: `carry_in` says every inner dimension is at its last iteration, so this one steps (or
    // wraps) when the controller fires; `dc`/`da` are the cycle and address steps of the whole controller,
    // chosen by the innermost dimension that does not wrap. Separate wires per dimension keep the chain free
    // of false combinational loops.
    genvar k;
    generate
        for (k = 0; k < DIM; k = k + 1) begin : dim
            localparam [31:0] LAST = field(EXTENT, k) - 1;
            localparam [31:0] DC = delta(CYCLE_STRIDE, k);
            localparam integer DA_I = modw(delta(DATA_STRIDE, k));
            localparam [AW:0] DA = DA_I[AW:0];
            reg [31:0] count;
            wire at_last = (count == LAST);
            wire carry_in;
            wire carry_out = carry_in & at_last;
            wire [31:0] dc;
            wire [AW:0] da;
            if (k == 0) begin : first
                assign carry_in = 1'b1;
            end else begin : chained
                assign carry_in = dim[k - 1].carry_out;
            end
            if (k == DIM - 1) begin : outermost
                assign dc = (carry_in & !at_last) ? DC : 32'd0;
                assign da = (carry_in & !at_last) ? DA : {(AW+1){1'b0}};
            end else begin : inner
                assign dc = (carry_in & !at_last) ? DC : dim[k + 1].dc;
                assign da = (carry_in & !at_last) ? DA : dim[k + 1].da;
            end
            always @(posedge clk) begin
                if (!rst_n || restart)
                    count <= 32'd0;
                else if (en && fire && carry_in)
                    count <= at_last ? 32'd0 : count + 32'd1;
            end
        end
    endgenerate

    wire all_last = dim[DIM - 1].carry_out;
    wire [AW:0] sum = {1'b0, addr_r} + dim[0].da;
    wire [AW:0] wrapped = (sum >= WORDS_W) ? sum - WORDS_W : sum;
    wire wrapped_unused = wrapped[AW];  // always 0 after the wrap

    always @(posedge clk) begin
        if (!rst_n || restart) begin
            next_cycle <= CYCLE_START;
            addr_r <= START_ADDR;
            done <= 1'b0;
        end else if (en && fire) begin
            if (all_last)
                done <= 1'b1;
            else begin
                next_cycle <= next_cycle + dim[0].dc;
                addr_r <= wrapped[AW-1:0];
            end
        end
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
                     .DATA_START(DATA_START), .DATA_STRIDE(DATA_STRIDE), .WORDS(SIZE), .AW(AW))
        ctrl (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(fire), .addr(offset));
    assign addr = BASE_A + offset;
endmodule

// A memory tile: WORDS x WIDTH SRAM with up to two write ports (NW) and two read ports (NR), each a tile port
// configured from the memory JSON. A read port's controller gives the cycles its output register loads in; the
// SRAM is read (synchronously) one cycle earlier and the word held until the next load. FORWARD = 1 (addressed
// banks): the word being written in that cycle is forwarded (a read one cycle after its write sees the new
// value). FORWARD = 0 (delay lines): read-first, the old word is read while its address is rewritten.
module ms_mem_tile #(
    parameter integer WIDTH = 16,
    parameter integer WORDS = 2048,
    parameter integer AW = 11,
    parameter integer NW = 1,
    parameter integer NR = 1,
    parameter integer FORWARD = 1,
    parameter integer W0_DIM = 1,
    parameter [32*8-1:0] W0_EXTENT = {8{32'd1}},
    parameter integer W0_CYCLE_START = 0,
    parameter [32*8-1:0] W0_CYCLE_STRIDE = 0,
    parameter integer W0_DATA_START = 0,
    parameter [32*8-1:0] W0_DATA_STRIDE = 0,
    parameter integer W0_BASE = 0,
    parameter integer W0_SIZE = 1,
    parameter integer W1_DIM = 1,
    parameter [32*8-1:0] W1_EXTENT = {8{32'd1}},
    parameter integer W1_CYCLE_START = 0,
    parameter [32*8-1:0] W1_CYCLE_STRIDE = 0,
    parameter integer W1_DATA_START = 0,
    parameter [32*8-1:0] W1_DATA_STRIDE = 0,
    parameter integer W1_BASE = 0,
    parameter integer W1_SIZE = 1,
    parameter integer R0_DIM = 1,
    parameter [32*8-1:0] R0_EXTENT = {8{32'd1}},
    parameter integer R0_CYCLE_START = 1,
    parameter [32*8-1:0] R0_CYCLE_STRIDE = 0,
    parameter integer R0_DATA_START = 0,
    parameter [32*8-1:0] R0_DATA_STRIDE = 0,
    parameter integer R0_BASE = 0,
    parameter integer R0_SIZE = 1,
    parameter integer R1_DIM = 1,
    parameter [32*8-1:0] R1_EXTENT = {8{32'd1}},
    parameter integer R1_CYCLE_START = 1,
    parameter [32*8-1:0] R1_CYCLE_STRIDE = 0,
    parameter integer R1_DATA_START = 0,
    parameter [32*8-1:0] R1_DATA_STRIDE = 0,
    parameter integer R1_BASE = 0,
    parameter integer R1_SIZE = 1
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
    reg [WIDTH-1:0] mem [0:WORDS-1];
    wire wfire0, wfire1, rfire0, rfire1;
    wire [AW-1:0] waddr0, waddr1, raddr0, raddr1;

    ms_tile_port #(.DIM(W0_DIM), .EXTENT(W0_EXTENT), .CYCLE_START(W0_CYCLE_START), .CYCLE_STRIDE(W0_CYCLE_STRIDE),
                   .DATA_START(W0_DATA_START), .DATA_STRIDE(W0_DATA_STRIDE), .BASE(W0_BASE), .SIZE(W0_SIZE),
                   .AW(AW))
        wport0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(wfire0), .addr(waddr0));
    ms_tile_port #(.DIM(R0_DIM), .EXTENT(R0_EXTENT), .CYCLE_START(R0_CYCLE_START - 1),
                   .CYCLE_STRIDE(R0_CYCLE_STRIDE), .DATA_START(R0_DATA_START), .DATA_STRIDE(R0_DATA_STRIDE),
                   .BASE(R0_BASE), .SIZE(R0_SIZE), .AW(AW))
        rport0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire0), .addr(raddr0));

    generate
        if (NW > 1) begin : second_write
            ms_tile_port #(.DIM(W1_DIM), .EXTENT(W1_EXTENT), .CYCLE_START(W1_CYCLE_START),
                           .CYCLE_STRIDE(W1_CYCLE_STRIDE), .DATA_START(W1_DATA_START),
                           .DATA_STRIDE(W1_DATA_STRIDE), .BASE(W1_BASE), .SIZE(W1_SIZE), .AW(AW))
                wport1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(wfire1),
                        .addr(waddr1));
        end else begin : one_write
            assign wfire1 = 1'b0;
            assign waddr1 = {AW{1'b0}};
        end
        if (NR > 1) begin : second_read
            ms_tile_port #(.DIM(R1_DIM), .EXTENT(R1_EXTENT), .CYCLE_START(R1_CYCLE_START - 1),
                           .CYCLE_STRIDE(R1_CYCLE_STRIDE), .DATA_START(R1_DATA_START),
                           .DATA_STRIDE(R1_DATA_STRIDE), .BASE(R1_BASE), .SIZE(R1_SIZE), .AW(AW))
                rport1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire1),
                        .addr(raddr1));
        end else begin : one_read
            assign rfire1 = 1'b0;
            assign raddr1 = {AW{1'b0}};
        end
    endgenerate

    assign wfire = wfire0;

    // Forwarding (FORWARD = 1 only): the word a write port stores in the cycle a read is issued at its address.
    wire fwd00 = FWD & wfire0 & (waddr0 == raddr0);
    wire fwd10 = FWD & wfire1 & (waddr1 == raddr0);
    wire fwd01 = FWD & wfire0 & (waddr0 == raddr1);
    wire fwd11 = FWD & wfire1 & (waddr1 == raddr1);

    always @(posedge clk) begin
        if (en && wfire0)
            mem[waddr0] <= wdata0;
        if (en && wfire1)
            mem[waddr1] <= wdata1;
    end
    always @(posedge clk) begin
        if (!rst_n)
            rdata0 <= {WIDTH{1'b0}};
        else if (en && rfire0)
            rdata0 <= fwd10 ? wdata1 : (fwd00 ? wdata0 : mem[raddr0]);
    end
    always @(posedge clk) begin
        if (!rst_n)
            rdata1 <= {WIDTH{1'b0}};
        else if (en && rfire1)
            rdata1 <= fwd11 ? wdata1 : (fwd01 ? wdata0 : mem[raddr1]);
    end
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
    parameter [32*8-1:0] N_DATA_STRIDE = 0
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
    wire wstep = w_valid && !full[wbuf];
    wire take = q_valid && r_ready;
    wire rstep = (full[rbuf] || streamed) && (!q_valid || take);
    wire [AW-1:0] wbase = wbuf ? SECOND : {AW{1'b0}};
    wire [AW-1:0] rbase = rbuf ? SECOND : {AW{1'b0}};
    wire [AW-1:0] wa = wbase + waddr;
    wire [AW-1:0] ra = rbase + raddr;

    assign w_ready = !full[wbuf];
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
        if (wstep)
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
                stamp[wa] <= wtile;
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
    parameter [32*8-1:0] R1_DATA_STRIDE = 0
) (
    input clk,
    input rst_n,
    input en,
    input restart,
    input [31:0] cycle,
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
    wire [AW-1:0] raddr0, raddr1;

    ms_tile_port #(.DIM(R0_DIM), .EXTENT(R0_EXTENT), .CYCLE_START(R0_CYCLE_START - 1),
                   .CYCLE_STRIDE(R0_CYCLE_STRIDE), .DATA_START(R0_DATA_START), .DATA_STRIDE(R0_DATA_STRIDE),
                   .BASE(0), .SIZE(WORDS), .AW(AW))
        rport0 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire0), .addr(raddr0));
    generate
        if (NR > 1) begin : second_read
            ms_tile_port #(.DIM(R1_DIM), .EXTENT(R1_EXTENT), .CYCLE_START(R1_CYCLE_START - 1),
                           .CYCLE_STRIDE(R1_CYCLE_STRIDE), .DATA_START(R1_DATA_START),
                           .DATA_STRIDE(R1_DATA_STRIDE), .BASE(0), .SIZE(WORDS), .AW(AW))
                rport1 (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), .fire(rfire1),
                        .addr(raddr1));
        end else begin : one_read
            assign rfire1 = 1'b0;
            assign raddr1 = {AW{1'b0}};
        end
    endgenerate

    // The word at address a as a read issued this cycle sees it: the write of this cycle forwarded, else the
    // SRAM's word once written, else INIT.
    function [WIDTH-1:0] word;
        input [AW-1:0] a;
        begin
            if (pend && pend_addr == a)
                word = upd_new;
            else if (valid[a])
                word = mem[a];
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
