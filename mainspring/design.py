"""A compiled design: its files, its report, and simulation checked against the NumPy reference."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .frontend import semantics
from .frontend.errors import HalideError, MismatchError, user_location
from .frontend.evaluate import Evaluator, gather_inputs, realize_arrays
from .frontend.outputs import Output, unpack
from .frontend.param_domains import check_param_ranges
from .frontend.params import Buffer
from .verilog.glb import MARKS as GLB_MARKS
from .verilog.names import signal


def library_path() -> Path:
    from . import verilog

    return Path(verilog.__file__).resolve().parent / "ms_library.v"


@dataclass
class SimulationResult:
    output: np.ndarray  # the pipeline output (host stages applied), indexed arr[y, x]
    accelerator_output: np.ndarray  # the accelerator's output Func, indexed arr[y, x]
    cycles: int  # first input word accepted .. last output word produced, stalls included
    predicted_cycles: int  # the static schedule's figure (equal to cycles without bubbles and back-pressure)
    simulator: str
    waveform: str | None
    sim_seconds: float
    build_seconds: float
    tile_cycles: list[int] | None = None  # per GLB tile: first word from the GLB into the array .. last out
    outputs: tuple[np.ndarray, ...] = ()  # a pipeline of several outputs: each output, unpacked from `output`


def _tile_cycles(marks: dict) -> list[int] | None:
    if not marks:
        return None
    starts, dones = marks["glb_tile_start"], marks["glb_tile_done"]
    assert len(starts) == len(dones), (starts, dones)
    return [d - s + 1 for s, d in zip(starts, dones)]


class Design:
    """What `hl.compile` returns."""

    def __init__(self, name, pipe, program, plan, memory_json, memory_text, compute_doc, verilog, report, target,
                 glb_plan=None, outputs: tuple[Output, ...] = ()):
        self.name = name
        self.pipe = pipe  # for the reference only: the hardware is described by `program` and the plans
        self.program = program
        self.plan = plan
        self.memory_json = memory_json
        self.memory_text = memory_text
        self.compute_doc = compute_doc
        self.verilog = verilog
        self.report = report
        self.target = target
        self.glb_plan = glb_plan
        self.outputs = outputs  # several outputs: where each lies in the words of the packing output Func

    # ---- files ----
    def files(self) -> dict[str, str]:
        from .compute_json import dumps_coreir_json
        from .hwlower import format_program

        return {
            f"{self.name}.memory.json": self.memory_text,
            f"{self.name}.compute.json": dumps_coreir_json(self.compute_doc),
            f"{self.name}.v": self.verilog + "\n" + library_path().read_text(),
            f"{self.name}.loops.txt": format_program(self.program),
            f"{self.name}.report.json": json.dumps(self.report, indent=1, sort_keys=True) + "\n",
        }

    def save(self, directory) -> Path:
        """Write the design's files and a standalone Icarus regression kit into `directory`."""
        from .regression import write_kit

        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        for fname, text in self.files().items():
            (d / fname).write_text(text, encoding="utf-8", newline="\n")
        inputs = self.example_inputs()
        words, expected = self._stream_words(inputs)
        write_kit(d / "regression", self, words, expected, self._kept_words(),
                  self._config(gather_inputs(self.pipe, inputs)[1]))
        return d

    def _config(self, params: dict) -> dict[str, tuple[int, int]]:
        """The configuration inputs of the top (signal -> (value, bits)): the Params and image sizes the
        accelerator reads (the host reads the others)."""
        return {signal(k): (v, self.pipe.scalars[k].type.bits()) for k, v in params.items()
                if k in self.program.scalars}

    # ---- data ----
    def example_inputs(self, seed: int = 0) -> dict[str, Buffer | int | float]:
        """Deterministic random inputs covering exactly the region the schedule reads, and a value for each
        scalar Param that has none (a Generator's InputScalar under `mainspring sim`, or `design.save`'s kit):
        a small one, 1 to 8, where a gain or a divisor stays meaningful."""
        from .frontend.bounds import infer_boxes

        out_box = self.program.output_box
        _, needed = infer_boxes(self.pipe, out_box, lambda p: None)
        rng = np.random.default_rng(seed)
        out = {}
        for name, found in sorted(needed.items()):
            box = [_sized(b, out_box[i] if i < len(out_box) else (0, 0)) for i, b in enumerate(found)]
            t = self.pipe.inputs[name].type
            shape = tuple(hi - lo + 1 for lo, hi in reversed(box))
            arr = rng.integers(t.min(), t.max(), size=shape, endpoint=True).astype(t.dtype) \
                if not t.is_float() else rng.random(size=shape).astype(t.dtype)  # (a float hl.Buffer's own data)
            out[name] = _own_data(self.pipe.inputs[name], box) or Buffer(arr).set_min([lo for lo, _ in box])
        for name, p in sorted(self.pipe.scalars.items()):
            if p.kind == "scalar" and p.owner.get() is None:
                lo, hi = _drawn_range(p)
                out[name] = float(rng.integers(1, 9)) if p.type.is_float() else int(rng.integers(lo, hi + 1))
        return out

    def _required_box(self, name: str):
        """The box of Func `name` the pipeline reads, before RoundUp tails grow it (the reference realises those
        too)."""
        from .frontend.bounds import infer_boxes

        required: dict = {}
        infer_boxes(self.pipe, self.program.output_box, lambda p: None, required=required)
        return required[name]

    def _reference(self, inputs):
        # the loops over a ranged Param's domain are sized by its range (frontend/param_domains.py)
        check_param_ranges(self.pipe, gather_inputs(self.pipe, inputs)[1])
        return realize_arrays(self.pipe, self.program.output_box, inputs)

    def _stream_words(self, inputs, stores=None):
        """Words streamed in per accelerator input, and the words expected out, over all tiles in order."""
        stores = self._reference(inputs) if stores is None else stores
        tiles = self.program.tiles
        words = {}
        for s in self.program.inputs:
            store = stores[id(self.pipe.functions[s.source])]
            load = self._load_order(s.buffer)
            words[s.port] = np.concatenate([_box_words(store, t.boxes[s.buffer], s.type, s.edges, s.order,
                                                       (s.lane_dim, s.lanes, s.x_words))[load] for t in tiles])
        out = self.program.array_output  # with a GLB, the GLB output copies it
        store = stores[id(self.pipe.functions[out])]
        order = self._output_order()
        t = self.program.nest.buffer(out).type
        expected = np.concatenate([_ordered_words(store, order, self._origin(tile), t) for tile in tiles])
        return words, expected

    def _load_order(self, buffer: str):
        """The order the host streams an input tile's words, as indices into the box's words (x fastest): the
        box order, or with a GLB the order its host controller loads the GLB tile (the array's order over
        several memory tiles, each word once)."""
        if self.program.glb is None:
            return slice(None)
        from .memories.glb import addresses, kept

        b = self.glb_plan.buffer(buffer)
        entries = addresses(b.host)[kept(b.host)]
        return (entries[:, None] * b.lanes + np.arange(b.lanes)[None, :]).ravel()

    def _kept_words(self) -> np.ndarray:
        """Per output word over all tiles, whether the host keeps it (words past a tile are padding)."""
        order = self._output_order()
        return np.concatenate([_inside(order, self._origin(t), t.output_box) for t in self.program.tiles])

    def _origin(self, tile) -> np.ndarray:
        """Where the output stream of `tile` starts: its accelerator output's box, which a tile shifted inward to
        an odd origin over an upsample rounds down to a whole step (the host keeps the words in its output box)."""
        box = tile.boxes.get(self.program.output) if self.program.glb is None else tile.loop_box
        return np.array([lo for lo, _ in (box or tile.output_box)])

    def _output_order(self):
        from .hwlower.ir import output_order

        if not hasattr(self, "_order"):
            if self.program.glb is None:
                self._order = output_order(self.program.nest)
            else:  # the order the GLB's host controller reads the output tile back
                from .memories.glb import transfer_coords

                out = self.glb_plan.buffer(self.program.output)
                self._order = transfer_coords(out.host, out)
        return self._order

    # ---- simulation ----
    def simulate(self, inputs: dict, simulator: str = "verilator", bubbles: float = 0.0, backpressure: float = 0.0,
                 seed: int = 0, waves: bool = False, build_dir=None,
                 timeout_cycles: int | None = None) -> SimulationResult:
        """Stream the inputs through the RTL (one accelerator invocation per tile, back to back) and run the
        host stages after the accelerator on what it produced. The run fails with SimulationTimeout after
        `timeout_cycles` (default: 20x the predicted cycles, stretched by the stall probabilities, + 10,000)."""
        return self._simulate(inputs, simulator, bubbles=bubbles, backpressure=backpressure, seed=seed, waves=waves,
                              build_dir=build_dir, timeout_cycles=timeout_cycles)[0]

    def _simulate(self, inputs: dict, simulator: str, bubbles: float = 0.0, backpressure: float = 0.0,
                  seed: int = 0, waves: bool = False, build_dir=None,
                  timeout_cycles: int | None = None) -> tuple[SimulationResult, np.ndarray]:
        """`simulate`'s result, and the reference output its streams were drawn from (for `check`)."""
        from . import sim

        _check_probability("bubbles", bubbles)
        _check_probability("backpressure", backpressure)
        stores = self._reference(inputs)
        # taken now: _host_after puts the hardware's words into the output's store
        want = self._output_of(stores)
        buffers, params = gather_inputs(self.pipe, inputs)
        words, expected = self._stream_words(inputs, stores)
        streams = {signal(s.port): sim.StreamSpec(words[s.port], width=s.type.bits(), lanes=s.lanes)
                   for s in self.program.inputs}
        out_fn = self.pipe.functions[self.program.output]
        ot = self.program.output_type
        care = self._kept_words()
        spec = sim.OutputSpec(signal(self.program.output), width=ot.bits(), count=len(expected), signed=ot.is_int(),
                              lanes=self.program.output_lanes, care=care)
        marks = GLB_MARKS if self.program.glb is not None else ()
        # Only the Params the accelerator reads are its configuration inputs (the host reads the others).
        cfg = self._config(params)
        build = Path(build_dir or os.environ.get("MAINSPRING_BUILD_DIR", "build/sim"))
        # By content: designs of the same name compiled differently (e.g. by parallel tests) never share a file.
        src = build / "src" / f"{self.name}-{hashlib.sha256(self.verilog.encode()).hexdigest()[:16]}"
        src.mkdir(parents=True, exist_ok=True)
        top_file = src / f"{self.name}.v"
        if not top_file.exists() or top_file.read_text(encoding="utf-8") != self.verilog:
            tmp = src / f".{os.getpid()}.v"
            tmp.write_text(self.verilog, encoding="utf-8")
            os.replace(tmp, top_file)
        if timeout_cycles is None:  # from the schedule: a slow design is not a hung one
            stretch = (1 - bubbles) * (1 - backpressure)
            timeout_cycles = int(20 * self.report["predicted_cycles"] / stretch) + 10_000
        # The input words a design reads after its last output (a rounded-up plane's last row) still arrive.
        tail = max(0, self.plan.cycles - 1 - self.plan.last_output_cycle)
        drain = sim.DRAIN_CYCLES + int(tail / ((1 - bubbles) * (1 - backpressure)))
        result = sim.run([top_file, library_path()], self.name, streams, spec, cfg, simulator=simulator,
                         bubbles=bubbles, backpressure=backpressure, seed=seed, build_dir=build, waves=waves,
                         marks=marks, timeout_cycles=timeout_cycles, drain_cycles=drain,
                         cycles=self.report["predicted_cycles"])
        store = stores[id(out_fn)]
        hw = _unwritten(store, self._required_box(self.program.output), ot)
        order = self._output_order()
        n = len(order)
        for k, t in enumerate(self.program.tiles):
            # Words a RoundUp tail computed past the tile are padding: the host drops them.
            keep = care[k * n:(k + 1) * n]
            idx = tuple(i[keep] for i in _tile_index(order, self._origin(t), store.mins))
            hw[idx] = semantics.wrap(np.asarray(result.words[k * n:(k + 1) * n], dtype=np.int64)[keep], ot)
        final = self._host_after(stores, buffers, params, out_fn, hw)
        return SimulationResult(final, _to_user(hw, ot, out_fn.scalar), result.cycles,
                                self.report["predicted_cycles"], simulator,
                                str(result.waveform) if result.waveform else None, result.sim_seconds,
                                result.build_seconds, _tile_cycles(result.marks),
                                self._split(final) if self.outputs else ()), want

    def _host_after(self, stores, buffers, params, out_fn, hw) -> np.ndarray:
        ev = Evaluator(self.pipe, params, buffers)
        ev.stores.update(stores)
        ev.stores[id(out_fn)].arr = hw
        for name in self.program.host_after:
            ev.realize_function(self.pipe.functions[name], self.program.host_boxes[name])
        final = ev.stores[id(self.pipe.output)]
        return _to_user(final.arr, self.pipe.output.type, self.pipe.output.scalar)

    def check(self, inputs: dict, simulator: str = "verilator", **kw) -> SimulationResult:
        """Simulate and compare with the reference bit for bit (each output of several apart); raise
        MismatchError on any difference."""
        res, want = self._simulate(inputs, simulator, **kw)
        self.compare(res, want, inputs, simulator, kw)
        return res

    def compare(self, res: SimulationResult, want: np.ndarray, inputs, simulator: str, kw: dict) -> None:
        """Raise MismatchError where `res` differs from the reference output `want` (several outputs: the first
        output that differs, by name, with its first differing pixels)."""
        if not self.outputs:
            if res.output.shape != want.shape or not np.array_equal(res.output, want):
                raise _mismatch(self, res, res.output, want, "output", inputs, simulator, kw)
            return
        for out, got, expected in zip(self.outputs, res.outputs, self._split(want), strict=True):
            if got.shape != expected.shape or not np.array_equal(got, expected):
                raise _mismatch(self, res, got, expected, f"output '{out.name}'", inputs, simulator, kw)

    def _split(self, words: np.ndarray) -> tuple[np.ndarray, ...]:
        return tuple(unpack(words, out) for out in self.outputs)

    def reference_outputs(self, inputs) -> tuple[np.ndarray, ...]:
        """Each output as the NumPy reference computes it (one for a pipeline of one output), arr[y, x]."""
        want = self.reference_output(inputs)
        return self._split(want) if self.outputs else (want,)

    # ---- pictures ----
    def show(self, directory) -> Path:
        """Draw the design into `directory`: NAME.pipeline.svg, NAME.memory.svg, NAME.schedule.svg and an
        index.html with the report, the pictures and the loop nest (mainspring/show.py); returns index.html."""
        from .show import show

        return show(self, directory)

    def reference_output(self, inputs) -> np.ndarray:
        """The pipeline's output as the NumPy reference computes it from `inputs` (what `check` compares)."""
        return self._output_of(self._reference(inputs))

    def _output_of(self, stores) -> np.ndarray:
        """The pipeline's output in `stores`, as a new array arr[y, x]."""
        return _to_user(stores[id(self.pipe.output)].arr, self.pipe.output.type, self.pipe.output.scalar)


def _sized(dim: tuple[int, int], output_dim: tuple[int, int]) -> tuple[int, int]:
    """An input's range in a dimension that the pipeline reads only through a clamp to the image's own size (a
    boundary condition on the ImageParam, `repeat_edge(input)`), which any size meets: the output's range there,
    as for an image as large as the output; `dim` where it is known."""
    lo, hi = dim
    return output_dim if lo <= -2 ** 31 or hi >= 2 ** 31 - 1 else dim


def _own_data(param, box) -> Buffer | None:
    """The data of an hl.Buffer the algorithm reads directly (`lut[i] = table[i]`), where it covers `box`: its
    values are part of the algorithm, as in Halide's realize, not an input to draw at random (an ImageParam is)."""
    owner = param.owner
    buf = owner.get() if owner is not None else None
    if buf is None or getattr(buf, "_param", None) is not owner:
        return None
    if all(buf.dim(i).min() <= lo and hi <= buf.dim(i).max() for i, (lo, hi) in enumerate(box)):
        return buf
    return None


def _mismatch(design: Design, res: SimulationResult, got: np.ndarray, want: np.ndarray, what: str, inputs,
              simulator, kw) -> MismatchError:
    diff = np.argwhere(got != want)
    first = [((int(i[1]), int(i[0])) if i.size == 2 else tuple(int(v) for v in reversed(i)),
              int(want[tuple(i)]), int(got[tuple(i)])) for i in diff[:10]]
    waveform = res.waveform
    if waveform is None:
        try:
            waveform = design.simulate(inputs, simulator=simulator, waves=True,
                                       **{k: v for k, v in kw.items() if k != "waves"}).waveform
        except Exception as e:  # noqa: BLE001 - the waveform is a convenience; the mismatch is what matters
            waveform = f"(no waveform: {e})"
    lines = "\n".join(f"  at {c}: expected {e}, got {g}" for c, e, g in first)
    return MismatchError(
        f"design '{design.name}' on {simulator}: {len(diff)} of {want.size} {what} pixels differ from the "
        f"reference; first differences (x, y):\n{lines}\nwaveform: {waveform}",
        mismatches=first, count=len(diff), waveform=waveform,
    )


def _check_probability(name: str, p: float) -> None:
    if not 0.0 <= p < 1.0:
        raise HalideError(f"{user_location()}: simulate({name}={p}): a probability in [0, 1) is needed (the share "
                          f"of cycles stalled), e.g. {name}=0.5")


def _box_words(store, box, t, edges=None, order=(), along=(0, 1, 1)) -> np.ndarray:
    """The values of a store over `box` (inclusive bounds), x fastest (or the dimensions of `order` fastest
    first: the stream's order, hwlower/stream_order.py), as unsigned words of t's width; `along`: (stream dimension
    d, k, m) for a stream of k words along d > 0, whose transfers hold k / m consecutive values of d side by side,
    each m consecutive words of x (a block, x fastest; m = 1: a word of x). Words of
    the box the host never computed are 0: they pad a tile's stream to whole transfers of its lanes (a RoundUp
    tail past the region Halide computes), and no kept lane reads them. `edges` ({dimension: (first, sources)})
    maps those coordinates first: the stream carries the (repeated, mirrored) edge words a boundary condition
    reads."""
    index, held = [], []
    for dim, ((lo, hi), m, n) in enumerate(zip(box, store.mins, store.arr.shape)):
        coords = np.arange(lo, hi + 1)
        if edges and dim in edges:
            first, sources = edges[dim]
            at = coords - first
            mapped = (at >= 0) & (at < len(sources))
            coords = np.where(mapped, np.asarray(sources, dtype=np.int64)[np.clip(at, 0, len(sources) - 1)], coords)
        index.append(np.clip(coords - m, 0, n - 1))
        held.append((coords >= m) & (coords < m + n))
    vals = np.asarray(store.arr)[np.ix_(*index)].astype(np.int64)
    inside = np.ones(vals.shape, dtype=bool)
    for dim, mask in enumerate(held):
        inside &= mask.reshape([-1 if k == dim else 1 for k in range(vals.ndim)])
    vals[~inside] = 0
    vals = vals.transpose(tuple(reversed(order))) if order else vals.transpose()
    if along[0]:  # that dimension's axis (slowest first) split into transfers and lanes, its lanes fastest
        m = along[2] if len(along) > 2 else 1
        for d, k in ((along[0], along[1] // m), (0, m)) if m > 1 else ((along[0], along[1]),):
            axis = vals.ndim - 1 - d - (1 if d == 0 else 0)  # (x's axis is before the rows' lanes by then)
            vals = vals.reshape(vals.shape[:axis] + (vals.shape[axis] // k, k) + vals.shape[axis + 1:])
            vals = np.moveaxis(vals, axis + 1, -1)
    return (vals.ravel() & ((1 << t.bits()) - 1)).astype(np.int64)


def _unwritten(store, box, t) -> np.ndarray:
    """The accelerator output's store before the tiles write it: inside `box` (what the pipeline reads of it), a
    word differs from the reference's (NaN, or the reference's plus one), so the comparison fails wherever no tile
    wrote one; outside it (a RoundUp tail's padding, which the reference realises too) the reference's own
    words."""
    ref = store.arr
    if t.is_float():
        poison = np.full_like(ref, np.nan)
    else:
        poison = semantics.wrap(np.asarray(ref, dtype=np.int64) + 1, t).astype(ref.dtype)
    kept = np.zeros(ref.shape, dtype=bool)
    # (the store's axes are its Func's dimensions, as `_tile_index` indexes them)
    kept[tuple(slice(max(0, lo - m), max(0, hi - m + 1)) for (lo, hi), m in zip(box, store.mins))] = True
    return np.where(kept, poison, ref)


def _tile_index(order: np.ndarray, origin: np.ndarray, mins) -> tuple:
    """Array indices of the output words of a tile whose stream starts at `origin` (the first tile's stream
    order is `order`)."""
    return tuple((order + origin - order.min(axis=0) - np.array(mins)).T)


def _inside(order: np.ndarray, origin: np.ndarray, output_box) -> np.ndarray:
    """Which words of a tile whose stream starts at `origin` (stream order `order` of the first tile) lie inside
    its output box."""
    lo = np.array([lo for lo, _ in output_box])
    hi = np.array([hi for _, hi in output_box])
    at = order + origin - order.min(axis=0)
    return np.all((at >= lo) & (at <= hi), axis=1)


def _ordered_words(store, order: np.ndarray, origin: np.ndarray, t) -> np.ndarray:
    """The reference's words of a tile whose stream starts at `origin`, in stream order; 0 for padding words the
    reference does not hold."""
    idx = _tile_index(order, origin, store.mins)
    held = np.all([(i >= 0) & (i < n) for i, n in zip(idx, store.arr.shape)], axis=0)
    vals = np.zeros(len(order), dtype=np.int64)
    vals[held] = store.arr[tuple(i[held] for i in idx)]
    return (vals & ((1 << t.bits()) - 1)).astype(np.int64)


def _drawn_range(p) -> tuple[int, int]:
    """1 to 8, inside the Param's set_range where it has one."""
    lo = getattr(p.owner, "min_value", lambda: None)()
    hi = getattr(p.owner, "max_value", lambda: None)()
    lo = 1 if lo is None else lo
    hi = max(lo, 8) if hi is None else hi
    return max(lo, min(1, hi)), max(min(8, hi), lo)


def _to_user(arr: np.ndarray, t, scalar: bool = False) -> np.ndarray:
    """arr[y, x] of type t; a Func of no dimensions (held over one element, frontend/define.py) as Halide's
    realize([]) gives it, a 0-D array."""
    user = np.ascontiguousarray(semantics.to_numpy(arr, t).transpose())
    return user.reshape(()) if scalar else user
