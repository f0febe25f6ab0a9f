"""The plain facts `memories` hands to later stages: the static schedule and the physical buffer mapping.

No isl object crosses this boundary: everything here is a frozen dataclass of ints, strings and tuples.

Semantics (cycle-accurate; the verilog stage builds controllers and enables from these facts):
- Cycles count from 0, the cycle in which the host presents the first word of every input stream. The host
  presents one transfer per cycle, x fastest over the input buffer's box (a pseudo-op `host.<buffer>` with
  `host=True` in `MemoryPlan.ops`). A stream of k lanes (`LoopNest.lanes`) carries k consecutive words of x
  per transfer: its pseudo-op's time dims step over transfers (the x dim `<buffer>.d0` counts transfers) and
  its one lane dim `<buffer>.d0.lane` (extent k) is the word in the transfer, x = k * d0 + lane + box min; each
  lane is its own write port, as each lane of a computing op is.
- An op with time dims `t` (outermost first, loop values) fires in cycle
  `delay + sum(rates[k] * (t[k] - dims[k].min))`; all its lanes (iterations of unrolled loops) fire in that
  same cycle. A two-piece schedule (`then`, an input stream with a prologue: memories/stream_prologue.py) fires
  its outermost dim's first `then.steps` steps so, and the rest at `then.start + then.rates . (t - t_first)`,
  t_first the first iteration of that piece; its controllers fire alike (`Controller.then`). It reads its loads in
  the firing cycle (a load in `read_offsets`: that many cycles later) and its
  stored value is visible to readers from cycle `fire + latency` on (the write cycle).
- A value flows from a write port (an op's store, one lane) to a read port (an op's load, one lane, over a box of
  the consumer's time dims). A read port with `delay` set gets its value from a *tap* on the root write port's
  stream. Taps count either cycles or the root's writes:
  - cycle taps (`steps` None): the element named by `tap` delivers in cycle c the value its root wrote in
    cycle `c - delay`;
  - write taps (`steps` set, `gated` elements): in cycle c the element delivers the root's value number
    `n - steps` (numbers in the root controller's iteration order), where n is the number of values the root
    wrote before cycle c (the write port itself, steps 0, in its write cycles). Such elements change only
    after the root's writes, so a stream with gaps (a 62-pixel row in a 64-cycle row) stores only real values.
  Elements: the write port itself (delay 0, a wire: the producer's output in the write cycle), a `Register`
  (takes its source's value at the end of every cycle, or, when `gated`, of every cycle its root writes), or a
  delay-line bank read port.
- A read port without `delay` but with `steps` is a write tap at no constant delay in cycles (a pixel's channels
  read over three cycles from a register the host's writes enable, in place of a bank of one word).
- A read port without `delay` or `steps` reads an addressed bank (`Bank.kind == "addressed"`) through its controller, or
  through registers after an addressed bank read port (memories/read_registers.py): a chain whose root is that
  bank read port. Ungated, a register of delay k delivers in cycle c the word the port loaded in cycle c - k;
  gated, it shifts only in the cycles the port loads a word for the last time in a run of one address
  (`last_of_runs`: its innermost dims of data stride 0 at their last value), so a register of delay k delivers
  in cycle c the word the port loaded in the k-th last such cycle before c.
  Such a port may iterate its op's coordinates before the op's box (its controller follows the op's cycle
  formula there: words only its registers deliver, at a row's start).
- Banks are memory-tile SRAM. A port controller iterates `i[0]` fastest (innermost first, as the reference
  memory tiles do): in cycle `cycle_starting_addr + sum(cycle_stride[k] * i[k])` it accesses address
  `region[0] + ((data_starting_addr + sum(data_stride[k] * i[k])) mod region[1])`: each port has a region
  of the bank (several delay lines share one tile, each in its own region, as do an addressed bank's reads of
  different values, each region with its own write port). Controller iteration `i`
  corresponds to the port's op coordinates `t[k] = domain[k].min + domain[k].step * i[n - 1 - k]` (a bank write
  port with steps writes only every step-th value of its op: those its reads take).
- A read port's cycles are those in which its output register takes a new word; the SRAM is read in the cycle
  before, and the word is held (and delivered by the port's element) until the next read.
  Delay-line banks read first: a read issued in cycle c - 1 returns the last value written in a cycle before
  c - 1, so a value written in cycle w is delivered from cycle w + 2 on, and its address may be rewritten from
  cycle c - 1 on (a value read in the cycle it is overwritten counts as live in that cycle).
  Addressed banks forward the word written in the issue cycle: a read in cycle c returns the last value written
  to that address in a cycle before c, so no other write to the address may happen in cycles (write, c - 1].
  Gated delay lines (`Bank.gated`): in the cycle the root writes its value number i, a write port (delay b)
  writes value i - b, and in the cycle after it a read port (delay t) loads value i + 1 - t, which it then
  holds until after the root's next write. Cycle delay lines write and read the root's value number i in its
  write cycle shifted by the port's delay.
- A register bank (`Bank.in_registers`, an addressed bank of a few words) has the same ports, controllers and
  timing as an addressed bank on a tile, forwarding included: a register per word, written when a write port's
  address selects it, and per read port a multiplexer over them into its output register. It takes no tile.
  A bank of one word may have `direct` read ports: the word's register read in the port's cycles, which there
  holds the last value written before the cycle, as the output register would; only the port's op reads them.
- A shared tile (memories/shared_tiles.py): a bank with `host` set takes no tile of its own but the second
  port pair of its host bank's tile (in another buffer or its own), which has one write and one read port, and
  that tile's words from `base` on, past the host's: the two banks' addresses are apart, and each keeps its own
  kind (a delay line reads first, an addressed bank forwards).
- Chained banks (memories/chained.py): an addressed bank write port whose `source` is another addressed bank's
  read port F writes, in F's load cycles and at F's iterations, the word F loads there (F's output register).
- Banks by residue (memories/banks.py): an addressed buffer may be split into banks each holding the elements
  of one residue of a coordinate (rows of one parity); a read is then split into read ports over the op's
  iterations with one residue (a `Dim.step`), and bank read ports that read in disjoint cycles share one tile
  read port (`BankPort.shares`): the tile's read address comes from whichever of their controllers fires.
- Banking by lane: every port (write, read, bank port) belongs to one lane of its op, and each lane's write
  port roots its own chain of registers and delay lines, so a k-lane stencil has k chains whose lines are
  W / k words (a tile never sees the other lanes' traffic). Addressed banks take at most a tile's write ports
  of write streams (lanes) each, and each read port reads the bank holding its source lane.
- A bank spans `tiles` memory tiles (address bits above the tile size select the tile) and `slices` parallel
  tiles when a value is wider than a tile word; a tile never sees more reads or writes per cycle than it has
  ports.
- Storage (`BufferPlan.words`) is counted the way `min_words` counts live values, so that the two compare: one
  word per write port (its value in the write cycle, held by the producer), one per register, and per bank its
  SRAM words plus one output register per tile read port. Each holds one value at a time and a live value is held by
  one of them in every cycle from its write to its last read, so `words >= min_words` for every correct plan. A
  constant read only as it is made is a wire: neither a live value nor a word (memories/constant_ports.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mainspring.target import CGRA

if TYPE_CHECKING:  # glb.py builds on this module
    from .glb import GlbPlan


@dataclass(frozen=True, slots=True)
class Dim:
    var: str
    min: int
    extent: int
    # hwlower's Loop.strip ("outer" / "inner" halves of an upsample's strip-mined loop): a scheduling fact, not
    # part of the memory JSON, so plans read back compare equal without it.
    strip: str = field(default="", compare=False)
    # The coordinates are min, min + step, ... (extent of them): a bank port that touches every step-th
    # iteration only (a 2x downsample's write of the values it reads). Ops' own loops have step 1.
    step: int = 1


@dataclass(frozen=True, slots=True)
class Steady:
    """The second piece of a two-piece schedule (memories/stream_prologue.py): from step `steps` of the outermost
    dim on, the iterations fire at `start + rates . (t - t_first)` instead, t_first the first iteration of that
    piece (outermost dim at `steps`, the others at their first). `rates` in the owner's order: an op's outermost
    first, a controller's innermost first."""

    steps: int
    start: int
    rates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Controller:
    """An affine loop nest over time (and address, for memory ports), innermost dimension first. With `then`,
    its outermost dim's steps from `then.steps` on fire on the second piece's schedule (the addresses and the
    order of the iterations are the same)."""

    extent: tuple[int, ...]
    cycle_starting_addr: int
    cycle_stride: tuple[int, ...]
    data_starting_addr: int = 0
    data_stride: tuple[int, ...] = ()  # empty for controllers that only say when (op firing)
    then: Steady | None = None

    @property
    def dimensionality(self) -> int:
        return len(self.extent)

    @property
    def last_cycle(self) -> int:
        if self.then is not None:
            inner = sum(q * (e - 1) for q, e in zip(self.then.rates[:-1], self.extent[:-1]))
            return self.then.start + inner + self.then.rates[-1] * (self.extent[-1] - 1 - self.then.steps)
        return self.cycle_starting_addr + sum(q * (e - 1) for q, e in zip(self.cycle_stride, self.extent))

    def shifted(self, cycles: int) -> Controller:
        then = None if self.then is None else Steady(self.then.steps, self.then.start + cycles, self.then.rates)
        return Controller(self.extent, self.cycle_starting_addr + cycles, self.cycle_stride,
                          self.data_starting_addr, self.data_stride, then)


def last_of_runs(domain: tuple[Dim, ...], c: Controller) -> tuple[tuple[Dim, ...], Controller]:
    """(box, controller) of the iterations in which a bank read port over `domain` loads an address for the last
    time in a run of it: the innermost dims along which its address does not move fixed at their last value
    (the enable of gated registers after the port)."""
    n = len(domain)
    runs = next((k for k, q in enumerate(c.data_stride) if q != 0), len(c.data_stride)) if domain else 0
    box = tuple(Dim(d.var, d.min + d.step * (d.extent - 1), 1, d.strip, d.step) if n - 1 - j < runs else d
                for j, d in enumerate(domain))
    start = c.cycle_starting_addr + sum(q * (e - 1) for q, e in zip(c.cycle_stride[:runs], c.extent[:runs]))
    then = c.then
    if then is not None and runs >= len(c.extent):  # one firing: the last, in whichever piece it falls
        start, then = c.last_cycle, None
    elif then is not None:  # the second piece's firings are last in their runs alike
        then = Steady(then.steps, then.start + sum(q * (e - 1) for q, e in zip(then.rates[:runs], c.extent[:runs])),
                      then.rates)
    return box, Controller((1,) * runs + c.extent[runs:], start, c.cycle_stride, c.data_starting_addr, c.data_stride,
                           then)


@dataclass(frozen=True, slots=True)
class OpSchedule:
    op: str
    func: str
    stage: int
    dims: tuple[Dim, ...]  # time dims, outermost first
    lanes: tuple[Dim, ...]  # unrolled dims: duplicated compute, all in the firing cycle
    rates: tuple[int, ...]  # cycles per step of each time dim
    delay: int
    latency: int
    host: bool = False  # the host streaming an input buffer
    # (load, cycles): loads read that many cycles after the op fires (a retimed accumulation's own element, read
    # in its kernel's last stage); the others read in the firing cycle
    read_offsets: tuple[tuple[str, int], ...] = ()
    # a two-piece schedule: (rates, delay) for the outermost dim's first `then.steps` steps, `then` after them
    then: Steady | None = None

    def read_offset(self, load: str) -> int:
        return dict(self.read_offsets).get(load, 0)

    def cycle(self, point: tuple[int, ...]) -> int:
        if self.then is not None and point[0] - self.dims[0].min >= self.then.steps:
            return self.then.start + self.then.rates[0] * (point[0] - self.dims[0].min - self.then.steps) + sum(
                q * (t - d.min) for q, t, d in zip(self.then.rates[1:], point[1:], self.dims[1:]))
        return self.delay + sum(q * (t - d.min) for q, t, d in zip(self.rates, point, self.dims))

    @property
    def last_cycle(self) -> int:
        return self.cycle(tuple(d.min + d.extent - 1 for d in self.dims))

    @property
    def controller(self) -> Controller:
        if not self.dims:
            return Controller((1,), self.delay, (0,))
        then = None if self.then is None else Steady(self.then.steps, self.then.start, tuple(reversed(self.then.rates)))
        return Controller(tuple(d.extent for d in reversed(self.dims)), self.delay, tuple(reversed(self.rates)),
                          then=then)


@dataclass(frozen=True, slots=True)
class InternalRead:
    """A load whose value comes from an earlier lane of the same op in the same firing (chained compute)."""

    op: str
    load: str
    lane: tuple[int, ...]
    source_lane: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CoordGen:
    """A coordinate an op reads as a value (`hwlower.ir.CoordPort`), for one lane: in each firing cycle of the op
    its controller's address plus `offset` is the coordinate (the address ranges over `words` values, no wrap)."""

    op: str
    name: str  # the kernel input it drives
    lane: tuple[int, ...]
    controller: Controller  # the op's firings; data = coordinate - offset
    words: int
    offset: int
    tile_offsets: tuple[int, ...] = ()  # per host tile, added to the coordinate (hwlower.ir.CoordPort)


@dataclass(frozen=True, slots=True)
class WritePort:
    name: str
    buffer: str
    op: str
    lane: tuple[int, ...]
    controller: Controller  # every firing of the op; cycles are write cycles; data = element address in the box


@dataclass(frozen=True, slots=True)
class ReadPort:
    name: str
    buffer: str
    op: str
    load: str
    lane: tuple[int, ...]
    source: str  # the write port whose values this port reads
    domain: tuple[Dim, ...]  # the box of the op's time dims it serves (outermost first)
    delay: int | None  # constant cycles from the source's write to this read; None: addressed bank (or write tap)
    tap: str  # the element delivering the value: write port, register or bank read port
    controller: Controller  # cycles are read cycles (firing + read offset); data = element address in the buffer's box
    steps: int | None = None  # write taps: the root's writes from this value's to the one in the read cycle


@dataclass(frozen=True, slots=True)
class Register:
    name: str
    source: str  # the element whose value it takes each cycle
    root: str  # the write port at the head of the chain, or an addressed bank read port
    delay: int  # after the root's write (or a bank read port's load): cycles, or when gated the root's writes (runs)
    # shifts only in the cycles its root writes (a bank read port: loads a word for the last time, `last_of_runs`),
    # else every cycle
    gated: bool = False


@dataclass(frozen=True, slots=True)
class BankPort:
    name: str
    kind: str  # "write" or "read"
    op: str  # the op whose coordinates the controller iterates
    lane: tuple[int, ...]
    domain: tuple[Dim, ...]  # op coordinates iterated, outermost first
    controller: Controller
    source: str | None = None  # write ports: the element feeding it (a write port or an upstream bank read port)
    delay: int | None = None  # delay-line ports: after the root write (cycles, or writes when the bank is gated)
    load: str | None = None  # addressed read ports: the load served
    region: tuple[int, int] = (0, 1)  # (first address, words) of the bank this port addresses, circularly
    # addressed read ports: the op's other lanes this port serves too (they read the same words in the same
    # cycles: a load that does not depend on the lane, such as an input channel every output channel reads)
    shared: tuple[tuple[int, ...], ...] = ()
    # addressed read ports: the bank read port whose tile read port (and output register) this one uses too, in
    # cycles of its own (a bank by residue: a port reads one parity of rows on even rows and another on odd ones)
    shares: str | None = None
    # a register bank's read port of its one word without an output register (memories/mapping.py
    # `small_banks_in_registers`): it delivers the word's register, which in the port's cycles holds what the
    # output register would (the last value written before the cycle); nothing but its op reads it
    direct: bool = False

    @property
    def output_registers(self) -> int:
        """The output registers of its own: one for a read port with a tile read port, none for one sharing
        another's or reading a register bank's word directly."""
        return int(self.kind == "read" and self.shares is None and not self.direct)


# A tile read port serves at most this many bank read ports, each with its own controller, in disjoint cycles
# (ms_library.v's ms_mem_tile: R0..R5 on two tile read ports). Three: a 5-tap row read a cycle from banks by
# column residue modulo 3 (autoprobe24's box5_rdom) cuts each read into 3 pieces, 5 a bank on its 2 ports.
CONTROLLERS_PER_TILE_READ_PORT = 3


@dataclass(frozen=True, slots=True)
class Bank:
    name: str
    kind: str  # "delay_line" (circular buffers read at constant delays), "addressed" or "ram" (memories/ram.py)
    words: int  # SRAM words (the sum of the ports' regions)
    tiles: int
    slices: int
    write_ports: tuple[BankPort, ...]
    read_ports: tuple[BankPort, ...]
    root: str | None = None  # delay lines: the write port whose stream it delays
    gated: bool = False  # delay lines: delays count the root's writes (write taps), not cycles
    # addressed banks of at most `CGRA.register_bank_words` words: registers (tiles 0), not memory-tile SRAM
    in_registers: bool = False
    # a bank on another bank's memory tile (memories/shared_tiles.py; tiles 0): `host` names that bank, whose
    # tile gives this one its second port pair and its words from `base` on (its regions' addresses plus `base`)
    host: str | None = None
    base: int = 0

    @property
    def tile_read_ports(self) -> tuple[BankPort, ...]:
        """The read ports with a tile read port (and output register) of their own: those sharing none."""
        return tuple(p for p in self.read_ports if p.shares is None)


@dataclass(frozen=True, slots=True)
class BufferPlan:
    name: str
    type: str
    bits: int
    box: tuple[tuple[int, int], ...]  # (min, extent) per dimension, x first
    role: str  # "input" (streamed in by the host), "output" (streamed out), "internal"
    level: str  # "wire", "register" or "mem_tile"
    min_words: int  # exact maximum number of live values (barvinok)
    words: int  # words of storage the mapping allocates (see the notes above: comparable with min_words)
    write_ports: tuple[WritePort, ...]
    read_ports: tuple[ReadPort, ...]
    registers: tuple[Register, ...]
    banks: tuple[Bank, ...]
    output_ports: tuple[str, ...] = ()  # write ports whose values are streamed out (final values)
    # a RAM (memories/ram.py): every element's value before its first update (one constant, or each's, x fastest)
    init: int | tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class MemoryPlan:
    nest: str
    target: CGRA  # what the plan was mapped onto (the memory JSON keeps the fields memories reads)
    strategy: str  # "fused", "fused_ii<k>" or "sequential"
    ops: tuple[OpSchedule, ...]  # host pseudo-ops first, then ops in program order
    internal_reads: tuple[InternalRead, ...]
    buffers: tuple[BufferPlan, ...]
    cycles: int  # one invocation: until the last op's value is written and the last input word is taken
    input_words: int
    first_output_cycle: int
    coords: tuple[CoordGen, ...] = ()
    glb: GlbPlan | None = None  # the GLB level (its tile buffers, banks, transfer controllers, host loop), if any
    # Why the ops do not fire once per cycle (memories/ii_limit.py): a diagnostic for the report, not hardware, so
    # the memory JSON does not carry it
    ii_limits: tuple[str, ...] = field(default=(), compare=False)

    @property
    def last_output_cycle(self) -> int:
        """The cycle of the invocation's last output word (the stream's last write)."""
        return max(p.controller.last_cycle for b in self.buffers for p in b.write_ports if p.name in b.output_ports)

    def op(self, name: str) -> OpSchedule:
        for s in self.ops:
            if s.op == name:
                return s
        raise KeyError(name)

    def buffer(self, name: str) -> BufferPlan:
        for b in self.buffers:
            if b.name == name:
                return b
        raise KeyError(name)
