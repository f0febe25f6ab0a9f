// The design's side of mainspring's Verilator main (ms_verilator_main.cpp): the few calls the main makes on the
// model. The main itself knows the model only as an incomplete `Vtop`, so its object does not depend on the design
// and is compiled once per set of build options (sim/vlcache.py stores it with Verilator's runtime); this file is
// compiled into each design's own one-file build (Vtop__ALL.o, where Vtop.h is parsed anyway), so it costs next
// to nothing, where the main's compile (verilated.h and verilated_vpi.h from their text) was half of a small
// design's build.

#include <cstdint>

#include "Vtop.h"

#if VM_TRACE
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#else
#include <verilated_vcd_c.h>
#endif
#endif

Vtop *ms_model_new() {
    Vtop *top = new Vtop("");
    top->clk = 0;
    return top;
}
void ms_model_delete(Vtop *top) { delete top; }
void ms_model_eval_step(Vtop *top) { top->eval_step(); }
void ms_model_eval_end_step(Vtop *top) { top->eval_end_step(); }
bool ms_model_done(Vtop *top) { return top->ms_done; }
void ms_model_toggle_clock(Vtop *top) { top->clk = !top->clk; }
void ms_model_final(Vtop *top) { top->final(); }
#if VM_TRACE
void ms_model_trace(Vtop *top, VerilatedTraceBaseC *tfp) { top->trace(tfp, 99); }
#endif
