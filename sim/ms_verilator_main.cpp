// The Verilator main of mainspring's cocotb runs (mainspring/sim/runner.py builds it in place of cocotb's). It
// services VPI in the order cocotb's scheduler relies on, the order of cocotb's own main (cocotb 2.1,
// share/lib/verilator/verilator.cpp, BSD-3-Clause): per time step, evaluation with value-change callbacks
// settled, read-write then read-only callbacks, then the next time slot with its timed callbacks. What it adds is
// the free run below, and runs without cocotb at all (+ms_direct).
//
// Servicing VPI costs ~1 us per time step, more than the whole design at ~0.2 us. This main runs the bench's
// clock (clock_edge below) and cocotb only waits on timers, so between two timer deadlines there is usually nothing for
// VPI to do: while no callback of any per-step kind is registered, this loop evaluates the design's time steps
// back to back up to the next timer deadline, which is what a serviced loop would do in that case, minus its calls
// that would find nothing to call. The moment Python registers anything else (a RisingEdge, ReadWrite,
// ReadOnly), the next step is serviced in full again.
//
// One case the public VPI API cannot see: a NextTimeStep registered by a timer callback (Verilator keeps it
// in a list no accessor reads). The Python side of mainspring (_cocotb_entry.py) never awaits one.
//
// The model is an incomplete type here, reached through ms_verilator_model.cpp's functions (compiled with the
// design): this object is the same for every design, so sim/vlcache.py stores it with Verilator's runtime objects.

#include <algorithm>
#include <cstdint>
#include <string>

#include "verilated.h"
#include "verilated_vpi.h"

class Vtop;
Vtop *ms_model_new();
void ms_model_delete(Vtop *top);
void ms_model_eval_step(Vtop *top);
void ms_model_eval_end_step(Vtop *top);
bool ms_model_done(Vtop *top);
void ms_model_toggle_clock(Vtop *top);
void ms_model_final(Vtop *top);
#if VM_TRACE
void ms_model_trace(Vtop *top, VerilatedTraceBaseC *tfp);
#endif

#if VM_TRACE
#if VM_TRACE_FST
#include <verilated_fst_c.h>
using verilated_trace_t = VerilatedFstC;
#else
#include <verilated_vcd_c.h>
using verilated_trace_t = VerilatedVcdC;
#endif
static verilated_trace_t *tfp = nullptr;
#endif

static vluint64_t main_time = 0;
static const vluint64_t NO_EVENTS = static_cast<vluint64_t>(~0ULL);

double sc_time_stamp() { return main_time; }

extern "C" {
void vlog_startup_routines_bootstrap(void);
}

static bool settle_value_callbacks() {
    bool called = VerilatedVpi::callValueCbs();
    bool again = called;
    while (again) again = VerilatedVpi::callValueCbs();
    return called;
}

static void wrap_up() {
    VerilatedVpi::callCbs(cbEndOfSimulation);
#if VM_TRACE
    if (tfp) tfp->close();
#endif
}

static void dump_trace() {
#if VM_TRACE
    if (tfp) tfp->dump(main_time);
#endif
}

// The bench's clock, a port of the model on Verilator (sim/bench.py), toggled here as Icarus runs it in HDL:
// `initial while (ms_done !== 1'b1) #MS_HALF_PERIOD clk = !clk;`. The edge that finds ms_done high (as its
// previous step left it) is the last, and the design has no other timed events, so Verilator builds without
// --timing: no coroutines in the model, whose C++ compiles ~0.3 s faster.
static vluint64_t half_period = 0;  // MS_HALF_PERIOD in the simulator's precision
static vluint64_t next_edge = 0;    // the time of the next toggle; NO_EVENTS once the clock has stopped

static vluint64_t next_design_time(Vtop *) { return next_edge; }

// Before the step at main_time is evaluated: the clock's toggle, when one is due then.
static void clock_edge(Vtop *top) {
    if (main_time != next_edge) return;
    const bool done = ms_model_done(top);
    ms_model_toggle_clock(top);
    next_edge = done ? NO_EVENTS : main_time + half_period;
}

// True when a time step without VPI would skip no callback (see the top of this file).
static bool vpi_idle() {
    return !VerilatedVpi::hasCbs(cbValueChange) && !VerilatedVpi::hasCbs(cbReadWriteSynch) &&
           !VerilatedVpi::hasCbs(cbReadOnlySynch) && !VerilatedVpi::hasCbs(cbNextSimTime) &&
           !VerilatedVpi::evalNeeded();
}

// Evaluate the design's time steps before `deadline` with no VPI in between; the time of the next step.
static vluint64_t run_free(Vtop *top, vluint64_t next, vluint64_t deadline) {
    while (next < deadline && !Verilated::gotFinish()) {
        main_time = next;
        Verilated::threadContextp()->time(main_time);
        clock_edge(top);
        ms_model_eval_step(top);
        ms_model_eval_end_step(top);
        dump_trace();
        next = next_design_time(top);
    }
    return next;
}

// One time step as cocotb's loop runs it, all VPI callbacks included.
static void serviced_step(Vtop *top) {
    clock_edge(top);
    do {
        do {
            ms_model_eval_step(top);
            VerilatedVpi::clearEvalNeeded();
            VerilatedVpi::doInertialPuts();
            settle_value_callbacks();
        } while (VerilatedVpi::evalNeeded());
        VerilatedVpi::callCbs(cbReadWriteSynch);
        VerilatedVpi::doInertialPuts();
        settle_value_callbacks();
    } while (VerilatedVpi::evalNeeded());
    ms_model_eval_end_step(top);
    VerilatedVpi::callCbs(cbReadOnlySynch);
    dump_trace();
}

int main(int argc, char **argv) {
#if VM_TRACE_FST
    const char *trace_file = "dump.fst";
#else
    const char *trace_file = "dump.vcd";
#endif
    bool trace_on = false;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--trace") trace_on = true;
        if (arg == "--trace-file" && i + 1 < argc) trace_file = argv[++i];
    }
    Verilated::commandArgs(argc, argv);
    Vtop *const top = ms_model_new();
    half_period = MS_HALF_PERIOD;
    for (int e = Verilated::threadContextp()->timeprecision(); e < Verilated::threadContextp()->timeunit(); e++)
        half_period *= 10;
    next_edge = half_period;
    Verilated::fatalOnVpiError(false);  // otherwise it fails on systemtf
#if VM_TRACE
    Verilated::traceEverOn(true);
    if (trace_on) {
        tfp = new verilated_trace_t;
        ms_model_trace(top, tfp);
        tfp->open(trace_file);
    }
#else
    (void)trace_on;
    (void)trace_file;
#endif
    // +ms_direct: a short run started without cocotb (runner.py): nothing loads cocotb's VPI library, so no
    // callback is ever registered and the loop below runs the design freely until its clock stops at ms_done.
    const bool direct = Verilated::commandArgsPlusMatch("ms_direct")[0] != '\0';
    if (!direct) vlog_startup_routines_bootstrap();
    Verilated::addExitCb([](void *) { wrap_up(); }, nullptr);
    VerilatedVpi::callCbs(cbStartOfSimulation);
    settle_value_callbacks();

    while (!Verilated::gotFinish()) {
        serviced_step(top);
        const vluint64_t deadline = VerilatedVpi::cbNextDeadline();
        vluint64_t next = next_design_time(top);
        if (vpi_idle()) next = run_free(top, next, deadline);
        if (Verilated::gotFinish()) break;
        const vluint64_t next_time = std::min(deadline, next);
        if (next_time == NO_EVENTS) break;  // no timer and nothing scheduled: the run is over
        main_time = next_time;
        Verilated::threadContextp()->time(main_time);
        VerilatedVpi::callCbs(cbNextSimTime);
        settle_value_callbacks();
        VerilatedVpi::callTimedCbs();  // timers due now (before the step: IEEE 1800-2012 4.4.1)
        settle_value_callbacks();
    }
    ms_model_final(top);
    wrap_up();
#if VM_TRACE
    delete tfp;
    tfp = nullptr;
#endif
    ms_model_delete(top);
    return Verilated::threadContextp()->errorCount() > 0 ? 1 : 0;
}
