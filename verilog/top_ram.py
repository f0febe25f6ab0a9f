"""A RAM in the top-level Verilog (`ms_ram`, memories/ram.py): its initial words, its one update port fed by
its updates in sequence, and each update's two kernels (the address, then the new value)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mainspring.hwlower.ir import lookup_load_name
from mainspring.memories.ir import BufferPlan

from .controllers import address_width, ctrl, ctrl_params
from .names import address_module, kernel_module, signal

if TYPE_CHECKING:
    from .top import _Inputs, _Top


def ram_instance(top: _Top, bname: str, b: BufferPlan, lookups: dict[tuple[str, tuple[int, ...]], str]) -> None:
    """A RAM (`ms_ram`): its update port fed by the update op's two kernels (`_ram_update`), its read ports by
    their controllers, or addressed by their reader's address kernel (`lookups`: (op, lane) -> its address
    signal, for readers at computed coordinates)."""
    (bank,) = b.banks
    w, s, aw = b.bits, signal(bank.name), address_width(bank.words)
    params = [f".WIDTH({w})", f".WORDS({bank.words})", f".AW({aw})", *_ram_init(b.init, w, bank.words),
              f".NR({len(bank.read_ports)})"]
    outs = []
    ext = [f"{aw}'d0", f"{aw}'d0"]
    for i, rp in enumerate(bank.read_ports):
        params += ctrl_params(f"R{i}_", rp.controller)
        if (rp.op, rp.lane) in lookups and rp.load == lookup_load_name(b.name):
            params.append(f".R{i}_EXT(1)")
            ext[i] = f"{lookups[(rp.op, rp.lane)]}[{aw - 1}:0]"
        top.decls.append(f"wire [{w - 1}:0] {signal(rp.name)};")
        outs.append(signal(rp.name))
    if len(outs) < 2:
        top.decls.append(f"wire [{w - 1}:0] {s}_unused;  // the tile's second read port is not configured")
        outs.append(f"{s}_unused")
    top.decls += [f"wire {s}_upd_fire;", f"wire [{aw - 1}:0] {s}_upd_addr;", f"wire [{w - 1}:0] {s}_upd_old;"]
    new = _ram_update_port(top, s, b)
    joined = ",\n    ".join(params)
    top.body.append(
        f"// {bname}: RAM of {bank.words} words on {bank.tiles} memory tile(s), every word "
        f"{b.init if isinstance(b.init, int) else 'its INIT_WORDS entry'} until updated\n"
        f"ms_ram #(\n    {joined})\n    {s} (.clk(clk), .rst_n(rst_n), .en(en), .restart(restart), .cycle(cycle), "
        f".ext_addr0({ext[0]}), .ext_addr1({ext[1]}), .upd_fire({s}_upd_fire), .upd_addr({s}_upd_addr), "
        f".upd_new({new}), .upd_old({s}_upd_old), "
        f".rdata0({outs[0]}), .rdata1({outs[1]}));"
    )


def _ram_init(init: int | tuple[int, ...] | None, w: int, words: int) -> list[str]:
    """The parameters of a RAM's initial words: INIT, one constant; or TABLE and INIT_WORDS, each word's (word 0 in
    the low bits; written from the last word, eight to a line)."""
    assert init is not None, "a RAM has an initial value"
    mask = (1 << w) - 1
    if isinstance(init, int):
        return [f".INIT({w}'h{init & mask:x})"]
    assert len(init) == words, f"a RAM's table has {len(init)} words for {words}"
    vals = [f"{w}'h{v & mask:x}" for v in reversed(init)]
    lines = [", ".join(vals[i:i + 8]) for i in range(0, len(vals), 8)]
    return [".TABLE(1)", ".INIT_WORDS({\n        " + ",\n        ".join(lines) + "})"]


def _ram_update_port(top: _Top, s: str, b: BufferPlan) -> str:
    """The RAM's one update port, fed by its updates (which run one after another): each fires it a cycle before
    its write (the address cycle); with several, the address is the firing one's, and the new value the one whose
    address cycle was the last. The signal of the new value."""
    wps = b.write_ports  # the updates' writes, a cycle after they fire
    if len(wps) == 1:
        top.body.append(ctrl(f"c_{s}_upd_fire", wps[0].controller.shifted(-1), "when", f"{s}_upd_fire"))
        return signal(wps[0].name)
    n, aw, w = len(wps), address_width(b.banks[0].words), b.bits
    fires = [f"{s}_upd_fire{k}" for k in range(n)]
    top.decls += [f"wire {f};" for f in fires] + [f"wire [{aw - 1}:0] {s}_upd_addr{k};" for k in range(n)]
    # which of the first n - 1 updates fired last cycle (its new value is written now; else the last's is)
    top.decls += [f"reg [{n - 2}:0] {s}_upd_was;",
                  f"wire [{w - 1}:0] {s}_upd_new;"]
    for k, wp in enumerate(wps):
        top.body.append(ctrl(f"c_{s}_upd_fire{k}", wp.controller.shifted(-1), "when", fires[k]))
    top.body.append(f"assign {s}_upd_fire = {' | '.join(fires)};")
    addr = f"{s}_upd_addr{n - 1}"
    new = signal(wps[n - 1].name)
    for k in reversed(range(n - 1)):
        addr = f"{fires[k]} ? {s}_upd_addr{k} : {addr}"
        new = f"{s}_upd_was[{k}] ? {signal(wps[k].name)} : {new}"
    top.body.append(f"assign {s}_upd_addr = {addr};")
    top.body.append(f"assign {s}_upd_new = {new};")
    top.body.append(f"always @(posedge clk) begin\n    if (!rst_n || restart) {s}_upd_was <= {n - 1}'d0;\n"
                    f"    else if (en) {s}_upd_was <= {{{', '.join(reversed(fires[:-1]))}}};\nend")
    return f"{s}_upd_new"


def ram_update(top: _Top, op_name: str, inputs: _Inputs, b: BufferPlan, kernels, latency: int) -> None:
    """A RAM update's two kernels: the address, from the loads of its firing cycle (pipelined: out `latency` - 1
    cycles later, when the RAM reads the old word); the new value in the next cycle, its write cycle (`latency`
    after the firing), from the word the RAM read and the loads of the firing cycle, registered."""
    (bank,) = b.banks
    ((k, wp, bwp),) = [(k, wp, bwp) for k, (wp, bwp) in enumerate(zip(b.write_ports, bank.write_ports))
                       if wp.op == op_name]
    s, aw, old = signal(bank.name), address_width(bank.words), bwp.load
    at = address_module(op_name)
    (port, (_, width)), = [(p, d) for p, d in kernels[at].items() if d[0] == "output"]
    addr = f"{signal(op_name)}_addr"
    top.decls.append(f"wire [{width - 1}:0] {addr};")
    conns = [f".{p}({inputs.signal(p, w)})" for p, (d, w) in kernels[at].items() if d == "input"]
    top.body.append(f"{at} {signal('u_' + op_name + '_at')} ({', '.join(conns + [f'.{port}({addr})'])});")
    top.body.append(f"assign {s}_upd_addr{k if len(b.write_ports) > 1 else ''} = {addr}[{aw - 1}:0];")
    if width > aw:  # the address is below the RAM's words: its high bits are zero
        top.decls.append(f"wire [{width - aw - 1}:0] {addr}_high_unused;")
        top.body.append(f"assign {addr}_high_unused = {addr}[{width - 1}:{aw}];")
    conns = []
    for p, (d, w) in kernels[kernel_module(op_name)].items():
        if d == "output":
            top.decls.append(f"wire [{w - 1}:0] {signal(wp.name)};")
            conns.append(f".{p}({signal(wp.name)})")
        elif p == old:
            conns.append(f".{p}({s}_upd_old)")
        else:
            conns.append(f".{p}({inputs.delayed(p, w, latency)})")
    top.body.append(f"{kernel_module(op_name)} {signal('u_' + op_name)} ({', '.join(conns)});")
