// A bare Verilator main for mainspring_tb: no cocotb, no VPI, only the design's own time steps until the
// bench raises ms_done (the bench's clock is an HDL delay loop, so the steps come from Verilator's timing
// scheduler). mainspring/sim/bare.py builds it over the same sources and flags as a cocotb build and times
// it on the same files and plusargs, as the yardstick of the cocotb flow's speed.

#include <memory>

#include "Vtop.h"
#include "verilated.h"

int main(int argc, char **argv) {
    const std::unique_ptr<VerilatedContext> context{new VerilatedContext};
    context->commandArgs(argc, argv);
    const std::unique_ptr<Vtop> top{new Vtop{context.get(), ""}};
    while (!context->gotFinish() && !top->ms_done) {
        top->eval();
        if (!top->eventsPending()) break;
        context->time(top->nextTimeSlot());
    }
    top->final();
    return 0;
}
