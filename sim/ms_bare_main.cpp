// A bare Verilator main for mainspring_tb: no cocotb, no VPI, only the bench's clock (a port on Verilator)
// toggled every half period until the bench raises ms_done. mainspring/sim/bare.py builds it over the same sources and flags as a cocotb build and times
// it on the same files and plusargs, as the yardstick of the cocotb flow's speed.

#include <cstdint>
#include <memory>

#include "Vtop.h"
#include "verilated.h"

int main(int argc, char **argv) {
    const std::unique_ptr<VerilatedContext> context{new VerilatedContext};
    context->commandArgs(argc, argv);
    const std::unique_ptr<Vtop> top{new Vtop{context.get(), ""}};
    uint64_t half_period = MS_HALF_PERIOD;  // the bench's half clock period (bench.CLOCK_NS), in its precision
    for (int e = context->timeprecision(); e < context->timeunit(); e++) half_period *= 10;
    top->clk = 0;
    top->eval();
    while (!context->gotFinish() && !top->ms_done) {
        context->timeInc(half_period);
        top->clk = !top->clk;
        top->eval();
    }
    top->final();
    return 0;
}
