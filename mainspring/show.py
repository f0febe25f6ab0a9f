"""Pictures of a compiled design: `design.show(dir)` and `mainspring show APP -o DIR`.

- NAME.pipeline.svg (Graphviz): the Func graph; the accelerator's boundary (the GLB and the CGRA array inside it);
  streams with their lanes; each buffer with its level and its words against the exact minimum.
- NAME.memory.svg (Graphviz): the hierarchy, host, GLB tile buffers, memory tiles (banks), registers, with the
  port controllers (affine loops over cycles and addresses) between them, and the ops the values reach.
- NAME.schedule.svg (matplotlib): a timeline of one invocation, each op's first and last firing and its rate.
- index.html: the report, the three pictures and the loop nest.

The data is the design's: `design.report`, `design.plan` (memories: buffers, banks, ports, op schedules),
`design.glb_plan` and `design.program` (hwlower: the loop nest, the host's streams, the GLB level).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

# Fill colours by level, shared by the pipeline and memory pictures and the HTML legend.
COLOURS = {"host": "#e0e0e0", "glb": "#c8e6c9", "mem_tile": "#bbdefb", "register": "#fff9c4", "wire": "#ffffff",
           "inlined": "#f5f5f5", "op": "#ffe0b2"}
MAX_ELEMENTS = 24  # per buffer in the memory picture: past it, one node says how many more


def show(design, directory) -> Path:
    """Write the pictures and index.html into `directory`; return index.html's path."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    name = design.name
    _render(pipeline_graph(design), d / f"{name}.pipeline.svg")
    _render(memory_graph(design), d / f"{name}.memory.svg")
    schedule_svg(design, d / f"{name}.schedule.svg")
    index = d / "index.html"
    index.write_text(index_html(design), encoding="utf-8")
    return index


def _render(graph, path: Path) -> None:
    import graphviz

    from .frontend.errors import HalideError

    try:
        svg = graph.pipe(format="svg")
    except graphviz.ExecutableNotFound:
        raise HalideError("drawing a design needs Graphviz's `dot` on PATH (apt-get install graphviz; "
                          "scripts/install.sh installs it)") from None
    path.write_bytes(svg)


def _digraph(name: str):
    import graphviz

    g = graphviz.Digraph(name)
    g.attr(rankdir="LR", fontname="Helvetica", fontsize="11", newrank="true")
    g.attr("node", fontname="Helvetica", fontsize="10", shape="box", style="rounded,filled", fillcolor="white")
    g.attr("edge", fontname="Helvetica", fontsize="9")
    return g


def _label(title: str, *lines: str) -> str:
    """A Graphviz HTML label: the title in bold, then the lines."""
    rows = [f"<B>{html.escape(title)}</B>"] + [html.escape(x) for x in lines if x]
    return "<" + "<BR/>".join(rows) + ">"


class _Drawing:
    """A Graphviz graph whose nodes are named by keys (Graphviz ids n0, n1, ...: names may hold characters DOT
    reads as ports, ':'); edges wait until the end and are drawn between declared nodes only (an element left out
    of a large buffer takes its edges with it)."""

    def __init__(self, name: str) -> None:
        self.g = _digraph(name)
        self._ids: dict[str, str] = {}
        self._declared: set[str] = set()
        self._edges: list[tuple[str, str, dict]] = []

    def id(self, key: str) -> str:
        if key not in self._ids:
            self._ids[key] = f"n{len(self._ids)}"
        return self._ids[key]

    def node(self, sub, key: str, label: str, **attrs) -> None:
        sub.node(self.id(key), label, **attrs)
        self._declared.add(key)

    def edge(self, a: str, b: str, **attrs) -> None:
        self._edges.append((a, b, attrs))

    def finish(self):
        seen = set()
        for a, b, attrs in self._edges:
            if a in self._declared and b in self._declared and (a, b) not in seen:
                seen.add((a, b))
                self.g.edge(self.id(a), self.id(b), **attrs)
        return self.g


def _extent(box) -> str:
    """'64x64' from (min, extent) pairs."""
    return "x".join(str(e) for _, e in box)


def _inclusive_extent(box) -> str:
    """'64x64' from inclusive (min, max) pairs."""
    return "x".join(str(hi - lo + 1) for lo, hi in box)


# ---- the pipeline ----

def _image_readers(pipe) -> list[tuple[str, str]]:
    """(input image, Func) for every Func that reads an input image."""
    from .frontend import ir
    from .frontend.func import Function

    out = []
    for fn in pipe.order:
        for d in pipe.definitions(fn):
            for e in d.args + (d.value,):
                for node in ir.walk(e):
                    if (isinstance(node, ir.Call) and not isinstance(node.callee, Function)
                            and getattr(node.callee, "kind", None) == "image"):
                        out.append((node.callee.name, pipe.name(fn)))
    return list(dict.fromkeys(out))


def pipeline_graph(design):
    """The Func graph with the accelerator's boundary, streams with lanes, and buffers with level and words."""
    return _PipelinePicture(design).draw()


class _PipelinePicture:
    """pipeline_graph's drawing: where each Func lives (host, GLB, array, inlined) decides its node and whether an
    edge into it is a stream."""

    def __init__(self, design) -> None:
        self.design = design
        self.program, self.nest = design.program, design.program.nest
        self.array = {b.name for b in self.nest.buffers}
        self.glb_buffers = {b.name: b for b in design.glb_plan.buffers} if design.glb_plan else {}
        self.buffers = {b.name: b for b in design.plan.buffers}
        self.ops_of: dict[str, list[str]] = {}
        for _, op in self.nest.ops():
            self.ops_of.setdefault(op.func, []).append(op.name)
        self.funcs = list(dict.fromkeys([*design.pipe.graph.nodes, *self.array]))
        self.sources = {s.source for s in self.program.inputs}
        # Edges: the host's Func graph, and inside the array what each op loads (copies of an input included).
        edges = [(a, b) for a, b in design.pipe.graph.edges]
        for _, op in self.nest.ops():
            edges.extend((load.access.buffer, op.func) for load in op.loads)
        edges.extend((s.source, s.buffer) for s in self.program.inputs)
        self.edges = list(dict.fromkeys(e for e in edges if e[0] != e[1]))
        self.on_host = self._on_host()

    def _on_host(self) -> set[str]:
        """What the accelerator's inputs are computed from, and what is computed from its output. The other Funcs
        without a buffer (constant tables, Funcs inlined into the kernels) are computed inside."""
        producers: dict[str, set[str]] = {}
        for a, b in self.edges:
            producers.setdefault(b, set()).add(a)
        on_host = set(self.program.host_after) | {self.design.pipe.name(self.design.pipe.output)}
        todo = list(self.sources)
        while todo:
            f = todo.pop()
            if f not in on_host:
                on_host.add(f)
                todo.extend(producers.get(f, ()))
        return on_host

    def where(self, f: str) -> str:
        if f in self.glb_buffers:
            return "glb"
        if f in self.array:
            return "array"
        return "host" if f in self.on_host else "inlined"

    def lanes_of(self, f: str) -> int:
        return max((self.nest.op_lanes(o) for o in self.ops_of.get(f, [])), default=1)

    def _array_lines(self, f: str) -> tuple[list[str], str]:
        lines, fill = [], COLOURS["host"]
        b = self.buffers.get(f)
        if b is not None:
            storage = [f"{len(b.registers)} register(s)"] if b.registers else []
            if b.banks:
                storage.append(f"{sum(k.tiles * k.slices for k in b.banks)} memory tile(s)")
            lines = [f"{b.level}: {b.words} words / minimum {b.min_words}", f"{b.type}, box {_extent(b.box)}",
                     ", ".join([b.role, *storage])]
            fill = COLOURS.get(b.level, "white")
        if self.ops_of.get(f):
            k = self.lanes_of(f)
            lines.append(f"ops {', '.join(self.ops_of[f])}" + (f", {k} lanes" if k > 1 else ""))
        return lines, fill

    def _lines(self, f: str, kind: str) -> tuple[list[str], str]:
        """A Func's node: its lines and fill colour."""
        if kind == "glb":
            b = self.glb_buffers[f]
            return [f"GLB tile buffer ({b.role}), tile {_extent(b.box)}",
                    f"{b.words} words x {b.copies} cop{'ies' if b.copies > 1 else 'y'}, {b.banks} bank(s) each",
                    f"{b.lanes} lane(s) per transfer"], COLOURS["glb"]
        if kind == "array":
            return self._array_lines(f)
        if kind == "inlined":
            return ["inlined into the kernels that read it (no buffer)"], COLOURS["inlined"]
        box = self.program.host_boxes.get(f)
        role = "host, after the accelerator" if f in self.program.host_after else "host"
        if f in self.sources:
            role = "host, streamed into the accelerator"
        return [role + (f", box {_inclusive_extent(box)}" if box else "")], COLOURS["host"]

    def node(self, dr, sub, f: str) -> None:
        kind = self.where(f)
        lines, fill = self._lines(f, kind)
        dr.node(sub, f, _label(f, *lines), fillcolor=fill,
                style="rounded,filled,dashed" if kind == "inlined" else "rounded,filled")

    def stream_lanes(self, a: str, b: str) -> int | None:
        """Lanes of the stream on edge a -> b when it crosses a boundary (host, GLB, array), else None."""
        wa, wb = self.where(a), self.where(b)
        if wa == wb or "inlined" in (wa, wb):
            return None
        if wb == "glb":
            return self.glb_buffers[b].lanes
        if wa == "glb":
            return self.glb_buffers[a].lanes
        if wb == "array" and b in self.nest.inputs:
            return self.nest.stream_lanes(b)
        if wa == "array" and a == self.nest.output:
            return self.nest.stream_lanes(a)
        return 1

    def _images(self, dr, g) -> None:
        images = _image_readers(self.design.pipe)
        for img in dict.fromkeys(i for i, _ in images):
            t = self.design.pipe.inputs[img].type if img in self.design.pipe.inputs else None
            dr.node(g, "image:" + img, _label(img, f"input image{f' ({t})' if t is not None else ''}"),
                    shape="folder", fillcolor=COLOURS["host"])
        for img, f in images:
            k = self.nest.stream_lanes(f) if self.where(f) == "array" and f in self.nest.inputs else None
            if k is None:
                dr.edge("image:" + img, f)
            else:  # the host streams the image itself into the array
                dr.edge("image:" + img, f, label=f"stream, {k} lane{'s' if k > 1 else ''}", penwidth=str(1 + k),
                        color="#1565c0")

    def _accelerator(self, dr, g) -> None:
        report = self.design.report
        with g.subgraph(name="cluster_accelerator") as acc:
            acc.attr(label="accelerator (hw_accelerate)", style="rounded,bold", color="#1565c0", fontcolor="#1565c0")
            if self.glb_buffers:
                with acc.subgraph(name="cluster_glb") as gl:
                    gl.attr(label="global buffer (GLB)", style="rounded,filled", fillcolor="#f1f8e9", color="#558b2f")
                    for f in self.funcs:
                        if self.where(f) == "glb":
                            self.node(dr, gl, f)
            with acc.subgraph(name="cluster_array") as ar:
                ar.attr(label=f"CGRA array: {report['pes']} PEs, {report['mem_tiles']} memory tile(s)",
                        style="rounded,filled", fillcolor="#fafafa", color="#616161")
                for f in self.funcs:
                    if self.where(f) in ("array", "inlined"):
                        self.node(dr, ar, f)

    def draw(self):
        name = self.design.name
        dr = _Drawing(f"{name}_pipeline")
        g = dr.g
        g.attr(label=f"{name}: the pipeline (words / exact minimum per buffer)", labelloc="t")
        self._images(dr, g)
        for f in self.funcs:
            if self.where(f) == "host":
                self.node(dr, g, f)
        self._accelerator(dr, g)
        for a, b in self.edges:
            k = self.stream_lanes(a, b)
            if k is not None:
                dr.edge(a, b, label=f"stream, {k} lane{'s' if k > 1 else ''}", penwidth=str(1 + k), color="#1565c0")
            else:
                dr.edge(a, b, label=f"{self.lanes_of(b)} lanes" if self.lanes_of(b) > 1 else "")
        _legend(g)
        return dr.finish()


def _legend(g) -> None:
    rows = "".join(f'<TR><TD BGCOLOR="{c}">{html.escape(k.replace("_", " "))}</TD></TR>'
                   for k, c in COLOURS.items())
    with g.subgraph(name="cluster_legend") as lg:
        lg.attr(label="level", style="rounded", color="#9e9e9e")
        lg.node("legend", f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0">{rows}</TABLE>>', shape="plain",
                style="")


# ---- the memory hierarchy ----

def _controller(c) -> str:
    """A memory port controller (memories.ir.Controller or memories.glb.GlbController), innermost first."""
    if hasattr(c, "cycle_starting_addr"):
        text = f"extent {list(c.extent)}, cycle {c.cycle_starting_addr} + {list(c.cycle_stride)}"
        if c.data_stride:
            text += f", address {c.data_starting_addr} + {list(c.data_stride)}"
        if c.then is not None:  # a two-piece schedule: the outermost dim's later steps
            text += f"; from outer step {c.then.steps}: cycle {c.then.start} + {list(c.then.rates)}"
        return text
    return f"extent {list(c.extent)}, address {c.data_start} + {list(c.data_stride)}"


def _lane(lane) -> str:
    return f" lane {list(lane)}" if lane else ""


def memory_graph(design):
    """Host, GLB tile buffers, memory tiles and registers with their port controllers, and the ops they feed."""
    program, plan, glb = design.program, design.plan, design.glb_plan
    dr = _Drawing(f"{design.name}_memory")
    g = dr.g
    g.attr(rankdir="TB")
    g.attr(label=f"{design.name}: the memory hierarchy and its port controllers (extents and strides innermost "
                 "first)", labelloc="t")
    streams = {s.port or s.source: s for s in program.inputs}
    with g.subgraph(name="cluster_host") as h:
        h.attr(label="host", style="rounded,filled", fillcolor="#f5f5f5", color="#616161")
        for port, s in streams.items():
            words = _inclusive_extent(program.tiles[0].boxes.get(s.buffer, []))
            dr.node(h, "host:" + port, _label(f"stream {port}", f"{s.type}, {s.lanes} lane(s) per transfer",
                                              f"{words} words per invocation, {len(program.tiles)} invocation(s)"),
                    fillcolor=COLOURS["host"])
    with g.subgraph(name="cluster_host_out") as h:
        h.attr(label="host", style="rounded,filled", fillcolor="#f5f5f5", color="#616161")
        dr.node(h, "host:out", _label(f"reads back {program.output}",
                                      f"{program.output_type}, {program.output_lanes} lane(s) per transfer"),
                fillcolor=COLOURS["host"])
    entry: dict[str, str] = {}  # array input buffer -> the node its words come from
    exit_ = "host:out"  # where the array's output stream goes
    if glb is not None:
        with g.subgraph(name="cluster_glb") as gl:
            gl.attr(label=(f"global buffer: {len(glb.tiles)} GLB tile(s), {glb.mem_tiles} array run(s) each; "
                           f"{glb.words_used} words in {glb.banks_used} bank(s) of {glb.bank_words}"
                           + (", double-buffered" if glb.double_buffered else "")),
                    style="rounded,filled", fillcolor="#f1f8e9", color="#558b2f")
            for b in glb.buffers:
                key = "glb:" + b.name
                dr.node(gl, key, _label(b.name, f"{b.role} tile {_extent(b.box)}: {b.words} words x {b.copies}",
                                        f"{b.banks} bank(s) per copy, {b.lanes} lane(s)"), fillcolor=COLOURS["glb"])
                for side in ("host", "array", "wait"):
                    c = getattr(b, side, None)
                    if c is None:
                        continue
                    dr.node(gl, f"{key}:{side}", _label(f"{side} port controller", _controller(c)), shape="cds",
                            fillcolor="white", fontsize="8")
                    if side == "wait":
                        dr.edge(f"{key}:{side}", key, style="dotted", arrowhead="none", label="waits")
                    elif (side == "host") == (b.role == "input"):
                        dr.edge(f"{key}:{side}", key)
                    else:
                        dr.edge(key, f"{key}:{side}")
                if b.role == "input":
                    src = [p for p, s in streams.items() if b.host_stream in (s.source, p)]
                    for p in src:
                        dr.edge("host:" + p, f"{key}:host", color="#1565c0")
                    entry[b.array_stream] = f"{key}:array"
                else:
                    dr.edge(f"{key}:host", "host:out", color="#1565c0")
                    exit_ = f"{key}:array"
    for port, s in streams.items():
        entry.setdefault(s.buffer, "host:" + port)
    with g.subgraph(name="cluster_array") as ar:
        ar.attr(label=f"CGRA array: {design.report['mem_tiles']} memory tile(s), {design.report['registers']} "
                      f"register(s), {design.report['pes']} PEs", style="rounded,filled", fillcolor="#fafafa",
                color="#616161")
        with ar.subgraph(name="cluster_pes") as pe:
            pe.attr(label="PEs (ops)", style="rounded,filled", fillcolor="#fff3e0", color="#ef6c00")
            for o in plan.ops:
                if o.host:
                    continue
                lanes = 1
                for d in o.lanes:
                    lanes *= d.extent
                dr.node(pe, "op:" + o.op, _label(o.op, f"{lanes} lanes" if lanes > 1 else "",
                                                 f"fires {_controller(o.controller)}"), fillcolor=COLOURS["op"])
        for b in plan.buffers:
            _buffer_cluster(ar, dr, b, entry)
    for b in plan.buffers:
        for p in b.output_ports:
            dr.edge(f"{b.name}:{p}", exit_, color="#1565c0")
    return dr.finish()


def _buffer_cluster(ar, dr: _Drawing, b, entry: dict[str, str]) -> None:
    """One buffer of the array: its write ports, registers and memory tiles (banks with their port controllers),
    and edges from the taps to the ops that read them. At most MAX_ELEMENTS elements are drawn."""
    with ar.subgraph(name=f"cluster_{dr.id('buffer:' + b.name)}") as c:
        c.attr(label=f"{b.name}: {b.level}, {b.words} words / minimum {b.min_words}", style="rounded,filled",
               fillcolor="#ffffff", color="#90a4ae")
        shown = 0
        for p in b.write_ports:
            if shown >= MAX_ELEMENTS:
                break
            shown += 1
            key = f"{b.name}:{p.name}"
            dr.node(c, key, _label(f"write port {p.name}", f"op {p.op}{_lane(p.lane)}", _controller(p.controller)),
                    fillcolor=COLOURS["wire"], fontsize="8")
            dr.edge("op:" + p.op, key)
            if b.role == "input" and b.name in entry:
                dr.edge(entry[b.name], key, color="#1565c0")
        writers = {p.name for p in b.write_ports}
        for r in b.registers:
            if shown >= MAX_ELEMENTS:
                break
            shown += 1
            dr.node(c, f"{b.name}:{r.name}", _label(f"register {r.name}", f"delay {r.delay}"
                                                    + ((" writes" if r.root in writers else " words") + " (gated)"
                                                       if r.gated else " cycles")),
                    fillcolor=COLOURS["register"], fontsize="8")
            dr.edge(f"{b.name}:{r.source}", f"{b.name}:{r.name}")
        for bank in b.banks:
            if shown >= MAX_ELEMENTS:
                break
            shown += 1
            key = f"{b.name}:{bank.name}"
            dr.node(c, key, _label(f"memory tile {bank.name}", f"{bank.kind.replace('_', ' ')}, {bank.words} words",
                                   f"{bank.tiles} tile(s) x {bank.slices} slice(s)"),
                    shape="cylinder", style="filled", fillcolor=COLOURS["mem_tile"])
            for p in (*bank.write_ports, *bank.read_ports):
                pkey = f"{b.name}:{p.name}"
                extra = f", delay {p.delay}" if p.delay is not None else (f", load {p.load}" if p.load else "")
                dr.node(c, pkey, _label(f"{p.kind} port controller {p.name}",
                                        f"op {p.op}{_lane(p.lane)}{extra}, region {list(p.region)}",
                                        _controller(p.controller)), shape="cds", fillcolor="white", fontsize="8")
                if p.kind == "write":
                    dr.edge(pkey, key)
                    if p.source:
                        dr.edge(f"{b.name}:{p.source}", pkey)
                else:
                    dr.edge(key, pkey)
        hidden = len(b.write_ports) + len(b.registers) + len(b.banks) - shown
        if hidden > 0:
            dr.node(c, f"{b.name}:more", f"... and {hidden} more element(s)", shape="plaintext", style="")
    for p in b.read_ports:
        dr.edge(f"{b.name}:{p.tap}", "op:" + p.op, color="#757575")


# ---- the schedule ----

def _firings(o) -> int:
    n = 1
    for d in o.dims:
        n *= d.extent
    return n


def schedule_svg(design, path) -> Path:
    """One invocation's timeline: a bar per op (host streams first) from its first to its last firing, with its
    firings, its rate and its lanes; the first output and the invocation's end marked."""
    import matplotlib
    from matplotlib.figure import Figure

    plan, rep = design.plan, design.report
    ops = list(plan.ops)
    with matplotlib.rc_context({"svg.hashsalt": "mainspring", "svg.fonttype": "none"}):
        fig = Figure(figsize=(11, 1.8 + 0.55 * len(ops)), layout="constrained")
        ax = fig.subplots()
        end = max([plan.cycles, *(o.last_cycle + 1 for o in ops)])
        labels = []
        for row, o in enumerate(ops):
            first, last = o.delay, o.last_cycle
            n = _firings(o)
            lanes = 1
            for d in o.lanes:
                lanes *= d.extent
            colour = "#9e9e9e" if o.host else f"C{row % 10}"
            ax.broken_barh([(first, last - first + 1)], (row - 0.3, 0.6), facecolors=colour, alpha=0.85)
            ii = o.rates[-1] if o.rates else 0
            rate = f"cycles {first}..{last}: {n} firing(s), {n / (last - first + 1):.2f} per cycle"
            if ii:
                rate += f", every {ii} in its inner loop"
            if lanes > 1:
                rate += f", {lanes} lanes"
            labels.append(f"{'host stream ' if o.host else ''}{o.op}\n{rate}")
        ax.set_yticks(range(len(ops)), labels, fontsize=8)
        ax.set_ylim(len(ops) - 0.5, -0.5)
        ax.axvline(plan.first_output_cycle, color="#1565c0", ls="--", lw=1,
                   label=f"first output word (cycle {plan.first_output_cycle})")
        ax.axvline(plan.cycles, color="#c62828", ls=":", lw=1.5, label=f"end of the invocation (cycle {plan.cycles})")
        ax.set_xlim(0, end * 1.02)
        ax.set_xlabel("cycle of one invocation")
        tiles = rep.get("tiles", 1)
        ax.set_title(f"{design.name}: {rep['schedule']} schedule, one invocation of {plan.cycles} cycles"
                     + (f" ({tiles} invocations, {rep['predicted_cycles']} cycles in all)" if tiles > 1 else
                        f" (predicted {rep['predicted_cycles']}, ideal {rep['ideal_cycles']})"), fontsize=10)
        ax.grid(True, axis="x", alpha=0.3)
        fig.legend(loc="outside lower center", ncols=2, fontsize=8)
        path = Path(path)
        fig.savefig(path, format="svg", metadata={"Date": None})
    return path


# ---- the page ----

_CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #212121; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
td, th { border: 1px solid #bdbdbd; padding: 2px 8px; text-align: left; font-size: 0.9em; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #e0e0e0; }
pre { background: #fafafa; border: 1px solid #e0e0e0; padding: 0.8em; overflow-x: auto; font-size: 0.8em; }
"""


def index_html(design) -> str:
    from .hwlower import format_program

    rep = design.report
    name = html.escape(design.name)
    scalars = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                      for k, v in sorted(rep.items()) if not isinstance(v, (list, dict)))
    buffers = "".join(f"<tr><td>{html.escape(b['name'])}</td><td>{html.escape(b['level'])}</td>"
                      f"<td>{b['words']}</td><td>{b['min_words']}</td></tr>" for b in rep["buffers"])
    glb = ""
    if "glb" in rep:
        glb = ("<h3>GLB buffers</h3><table><tr><th>buffer</th><th>role</th><th>tile words</th><th>copies</th></tr>"
               + "".join(f"<tr><td>{html.escape(b['name'])}</td><td>{html.escape(b['role'])}</td>"
                         f"<td>{b['tile_words']}</td><td>{b['copies']}</td></tr>" for b in rep["glb"]["buffers"])
               + "</table>")
    figures = "".join(
        f'<figure><img src="{name}.{kind}.svg" alt="{name} {kind}"><figcaption>{html.escape(caption)}</figcaption>'
        "</figure>"
        for kind, caption in (
            ("pipeline", ("The pipeline: Funcs on the host, in the GLB and in the array; streams with their lanes; "
                         "each buffer's level and words against the exact minimum.")),
            ("memory", ("The memory hierarchy: host streams, GLB tile buffers, memory tiles and registers, with "
                       "their port controllers.")),
            ("schedule", "One invocation's timeline: each op's first and last firing and its rate."),
        ))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{name}: mainspring design</title>
<style>{_CSS}</style></head>
<body>
<h1>{name}</h1>
<p>{rep['pes']} PEs, {rep['mem_tiles']} memory tile(s), {rep['registers']} register(s);
{rep['predicted_cycles']} cycles predicted, {rep['ideal_cycles']} ideal.</p>
<h2>Pictures</h2>
{figures}
<h2>Report</h2>
<table>{scalars}</table>
<h3>Buffers</h3>
<table><tr><th>buffer</th><th>level</th><th>words</th><th>minimum</th></tr>{buffers}</table>
{glb}
<details><summary>report.json</summary><pre>{html.escape(json.dumps(rep, indent=1, sort_keys=True))}</pre></details>
<h2>Loop nest</h2>
<pre>{html.escape(format_program(design.program))}</pre>
</body></html>
"""
