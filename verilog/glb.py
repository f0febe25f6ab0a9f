"""The top level of a design with a GLB: the global-buffer tiles around the array, from the memory JSON's "glb"
section read back as a `GlbPlan`.

The host streams each GLB input tile into a `ms_glb_buffer` (its host controller orders the words), the array
(the single-level design, as `top.py` builds it, named `<name>_array`) streams its inputs out of those buffers
and its output into the GLB output buffer (array controllers: one pass per memory tile), and the host reads
the output tile back. Within a tile each reader follows its writer (the array starts on the first rows while
the host loads, the host reads back rows as they are finished); with two copies per buffer the host's
transfers of the next and previous tiles overlap the array's compute too.
"""

from __future__ import annotations

from mainspring.memories.glb import GlbBuffer, GlbController, GlbPlan
from mainspring.memories.ir import MemoryPlan

from .controllers import config_vector
from .names import kernel_ports, signal
from .top import HEADER, design_verilog, scalar_params

MARKS = ("glb_tile_done", "glb_tile_start")  # 1-bit outputs: a GLB tile's first word into the array, last back


def glb_design_verilog(name: str, plan: MemoryPlan, glb: GlbPlan, compute: dict) -> str:
    """The GLB's top around the array, from the plans read back from the memory JSON."""
    array = f"{name}_array"
    lines = [f"module {name} (", "    input clk,", "    input rst_n,"]
    ports, body = [], []
    widths = {b.name: b.bits for b in plan.buffers}
    params = scalar_params(plan, kernel_ports(compute))
    conns = [".clk(clk)", ".rst_n(rst_n)"]
    ins = sorted(b.name for b in glb.buffers if b.role == "input")
    marks = []
    for b in sorted(glb.buffers, key=lambda b: b.name):
        bname = b.name
        w = b.bits * b.lanes  # one GLB entry: the lanes of a transfer, lane 0 in the low bits
        host, arr = signal(b.host_stream), signal(b.array_stream)
        link = f"glb_{arr}"
        body.append(f"wire [{w - 1}:0] {link}_data;\n    wire {link}_valid;\n    wire {link}_ready;")
        conns += [f".{arr}_data({link}_data)", f".{arr}_valid({link}_valid)", f".{arr}_ready({link}_ready)"]
        start = "glb_tile_start" if bname == ins[0] else f"{link}_start_unused"
        done = "glb_tile_done" if b.role == "output" else f"{link}_done_unused"
        for m in (start, done):
            if m.startswith("glb_tile"):
                marks.append(m)
            else:
                body.append(f"wire {m};")
        if b.role == "input":
            ports += [f"input [{w - 1}:0] {host}_data", f"input {host}_valid", f"output {host}_ready"]
            w_side = f".w_data({host}_data), .w_valid({host}_valid), .w_ready({host}_ready)"
            r_side = f".r_data({link}_data), .r_valid({link}_valid), .r_ready({link}_ready)"
            wc, rc = b.host, b.array
        else:
            ports += [f"output [{w - 1}:0] {host}_data", f"output {host}_valid", f"input {host}_ready"]
            w_side = f".w_data({link}_data), .w_valid({link}_valid), .w_ready({link}_ready)"
            r_side = f".r_data({host}_data), .r_valid({host}_valid), .r_ready({host}_ready)"
            wc, rc = b.array, b.host
        assert widths[b.array_stream] == b.bits
        p = [f".WIDTH({w})", f".WORDS({b.words // b.lanes})", f".BUFS({b.copies})"]
        p += _ctrl("W_", wc) + _ctrl("R_", rc) + _wait(b)
        joined = ",\n        ".join(p)
        body.append(f"// GLB {b.role} tile {bname}: {b.words} words x {b.copies} "
                    f"({b.banks} bank(s) each)\n    ms_glb_buffer #(\n        {joined})\n"
                    f"        u_glb_{signal(bname)} (.clk(clk), .rst_n(rst_n), {w_side}, {r_side}, "
                    f".w_tile_done({done}), .r_tile_start({start}));")
    for p, width in sorted(params.items()):
        ports.append(f"input [{width - 1}:0] {signal(p)}")
        conns.append(f".{signal(p)}({signal(p)})")
    ports += [f"output {m}" for m in sorted(marks)]
    lines += [f"    {p}," for p in ports[:-1]] + [f"    {ports[-1]}", ");"]
    lines += [f"    {chunk}" for chunk in body]
    lines.append(f"    {array} u_array ({', '.join(conns)});")
    lines.append("endmodule")
    top = HEADER.format(name=name) + "\n".join(lines) + "\n"
    return top + "\n" + design_verilog(array, plan, compute)


def _wait(b: GlbBuffer) -> list[str]:
    """How the buffer's reads wait for its writer (ms_glb_buffer's N_MODE): for the whole copy, for the step
    equal to the read address (a writer in address order: the host loading an input tile), or for the steps
    of the buffer's wait controller."""
    if not b.streams:
        return [".N_MODE(0)"]
    r, n = b.reader, b.wait
    if (n.data_start, n.data_stride) == (r.data_start, r.data_stride):
        return [".N_MODE(1)"]
    return [".N_MODE(2)", f".N_DATA_START({n.data_start})", f".N_DATA_STRIDE({config_vector(n.data_stride, 0)})"]


def _ctrl(prefix: str, c: GlbController) -> list[str]:
    out = [f".{prefix}DIM({len(c.extent)})", f".{prefix}EXTENT({config_vector(c.extent, 1)})",
           f".{prefix}CYCLE_STRIDE({config_vector(c.cycle_stride, 0)})", f".{prefix}DATA_START({c.data_start})",
           f".{prefix}DATA_STRIDE({config_vector(c.data_stride, 0)})", f".{prefix}TOTAL({c.transfers})"]
    if c.skip:  # only a writer skips (ms_glb_buffer's W_SKIP_*): a host loading in the memory tiles' order
        assert prefix == "W_", "a GLB reader never skips a step"
        dims, grids, below = zip(*c.skip)
        out += [f".W_SKIP_RULES({len(c.skip)})", f".W_SKIP_DIM({config_vector(dims, 0)})",
                f".W_SKIP_GRID({config_vector(grids, 0)})", f".W_SKIP_BELOW({config_vector(below, 0)})"]
    return out
