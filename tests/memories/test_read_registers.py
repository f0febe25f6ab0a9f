"""memories.read_registers: addressed reads that take another read's words some cycles later become registers
after that read's bank read port (camera_pipeline's green planes: the taps at x - 1 and x of a row are the tap at
x + 1 two and four cycles later); the checker proves every register's word and rejects tampered plans."""

import dataclasses as dc

import islpy as isl
import pytest

import mainspring as hl
from mainspring import apps
from mainspring.memories import MemoryCheckError, check_plan, checker, from_json, to_json
from mainspring.memories import mapping as mp
from mainspring.memories.ir import Dim
from mainspring.memories.polyhedral import build_program
from mainspring.memories.read_registers import delayed_reads
from mainspring.memories.schedule import schedule


@pytest.fixture(scope="module")
def camera():
    mod = apps.load("h2h_camera_pipeline")
    out, _ = mod.build(12, 8)
    design = hl.compile(out, name="h2h_camera_pipeline", target=apps.target(mod))
    return design.program.nest, design.plan


def _reads(nest, plan, name):
    """The logical read ports of buffer `name` as mapping builds them, with the plan's latencies."""
    ops = {s.op: s for s in plan.ops}
    prog = build_program(nest, lambda op: ops[op.name].latency, {s.op: dict(s.read_offsets) for s in plan.ops})
    sched = schedule(prog, plan.target)
    flows = [f for f in prog.flows if f.buffer == name]
    writers = sorted({(f.src.index, f.src_lane): f for f in flows}.values(), key=lambda f: f.src.index)
    wports = {(f.src.name, f.src_lane): mp.logical_write_port(prog, sched, name, f.src, f.src_lane, k)
              for k, f in enumerate(writers)}
    return prog, sched, mp.logical_read_ports(prog, sched, name, [f for f in flows if not f.streamed_out], wports)


def test_the_green_planes_taps_of_a_row_are_its_right_tap_delayed(camera):
    nest, plan = camera
    prog, sched, reads = _reads(nest, plan, "g_gr")
    index = {r.port.name: (r.port.load, r.port.lane) for r in reads}
    got = {index[d]: (index[root][0], k, dim, s) for d, (root, k, dim, s) in delayed_reads(prog, sched, reads).items()}
    # demosaicked reads g_gr at (x + dx, y + dy) of the half-resolution plane over (yo, yi, xo, xi), xo (time dim
    # 2) at 2 cycles per step: the taps at xo - 1 and xo of a row are its tap at xo + 1 two and one steps later
    # (g_gr_7 is row y - 1's tap at xo + 1, g_gr_1 row y's, g_gr_5 row y + 1's; row y - 1 has no tap at xo - 1)
    want = {"g_gr_6": ("g_gr_7", 2, 2, 1), "g_gr_0": ("g_gr_1", 2, 2, 1), "g_gr_2": ("g_gr_1", 4, 2, 2),
            "g_gr_3": ("g_gr_5", 2, 2, 1), "g_gr_4": ("g_gr_5", 4, 2, 2)}
    assert got == {(load, (c,)): v for load, v in want.items() for c in range(3)}  # each of the 3 lanes (c)


def test_the_green_planes_read_one_word_a_row_and_registers(camera):
    nest, plan = camera
    for name in ("g_gr", "g_gb"):
        buf = plan.buffer(name)
        roots = [p for b in buf.banks for p in b.read_ports]
        assert len(roots) == 3 and sum(b.tiles for b in buf.banks) == 2  # a read per row, 2 tiles for 4
        # a chain after each root, as long as its farthest tap's delay: 2 or 4 cycles, 1 or 2 words since
        # session 28 (gated: shifting only as the root loads a word for the last time in a strip of 2)
        assert sorted(max(r.delay for r in buf.registers if r.root == p.name) for p in roots) == [1, 2, 2]
        assert all(r.gated for r in buf.registers)
        # each root's bank read port starts before its op's box (the row's first taps at xo - 1 and xo)
        assert sorted(p.domain[2].min for p in roots) == [-2, -2, -1]
        taps = {p.tap for p in buf.read_ports}
        assert {r.name for r in buf.registers} <= taps
    assert from_json(to_json(plan)).buffers == plan.buffers  # (the JSON keeps the target fields memories reads)
    check_plan(nest, plan)


def _with_buffer(plan, name, fn):
    return dc.replace(plan, buffers=tuple(fn(b) if b.name == name else b for b in plan.buffers))


def test_f_a_read_on_the_wrong_register_of_a_chain_is_caught(camera):
    nest, plan = camera
    buf = plan.buffer("g_gr")
    four = next(p for p in buf.read_ports if p.tap.endswith(".reg2"))  # 2 words (4 cycles) behind its root
    two = four.tap[:-1] + "1"

    def tamper(b):
        return dc.replace(b, read_ports=tuple(dc.replace(p, tap=two) if p is four else p for p in b.read_ports))

    with pytest.raises(MemoryCheckError, match=rf"buffer 'g_gr': bank g_gr.bank\d read port {four.tap[:-5]} at "
                                                r"\[.*\] does not find the value written by"):
        check_plan(nest, _with_buffer(plan, "g_gr", tamper))


def test_f_a_root_that_does_not_start_before_its_box_is_caught(camera):
    nest, plan = camera
    buf = plan.buffer("g_gr")
    root = next(p for b in buf.banks for p in b.read_ports if p.domain[2].min == -2)
    box = tuple(dc.replace(d, min=0, extent=d.extent - 2) if k == 2 else d for k, d in enumerate(root.domain))
    ctrl = dc.replace(root.controller, extent=tuple(d.extent for d in reversed(box)),
                      cycle_starting_addr=root.controller.cycle_starting_addr + 4,
                      data_starting_addr=root.controller.data_starting_addr + 2)

    def tamper(b):
        def bank(k):
            return dc.replace(k, read_ports=tuple(dc.replace(p, domain=box, controller=ctrl) if p is root else p
                                                  for p in k.read_ports))
        return dc.replace(b, banks=tuple(bank(k) for k in b.banks))

    with pytest.raises(MemoryCheckError, match=rf"buffer 'g_gr': read port g_gr.r\d+ \(register {root.name}.reg\d, "
                                                rf"\d runs of a word after {root.name}\) at \[.*\]: {root.name} does "
                                                r"not load"):
        check_plan(nest, _with_buffer(plan, "g_gr", tamper))


def test_f_gated_registers_shifting_every_cycle_are_caught(camera):
    # Session 28: the green planes' registers shift only as their root loads a word for the last time (a strip of
    # 2 loads each word twice): shifting every cycle, the register 2 words behind would hold the word 1 behind.
    nest, plan = camera

    def tamper(b):
        return dc.replace(b, registers=tuple(dc.replace(r, gated=False) for r in b.registers))

    with pytest.raises(MemoryCheckError, match=r"buffer 'g_gr': bank g_gr.bank\d read port g_gr.bank\d.r\d at "
                                               r"\[.*\] does not find the value written by"):
        check_plan(nest, _with_buffer(plan, "g_gr", tamper))


def test_f_an_addressed_read_on_a_register_of_a_stream_is_caught(camera):
    nest, plan = camera
    buf = plan.buffer("hw_input")
    reg = buf.registers[0]
    p = buf.read_ports[0]
    bad = dc.replace(p, delay=None, steps=None, tap=reg.name)  # (with steps it would be a write tap)

    def tamper(b):
        return dc.replace(b, read_ports=(bad,) + b.read_ports[1:])

    with pytest.raises(MemoryCheckError, match=rf"read port {p.name} reads an addressed bank through {reg.name}, "
                                                "neither a bank read port nor a register after one"):
        check_plan(nest, _with_buffer(plan, "hw_input", tamper))


def test_f_a_root_extended_before_cycle_0_is_caught(camera):
    # 5 more rows of pairs (yo, 40 cycles a step) before the box: in cycles of their own, in order, at the op's
    # formula, and only reading words no register uses; but the first, 186 - 200, is before cycle 0, which the
    # controller, comparing the cycle with its start once, never sees
    nest, plan = camera
    root = next(p for b in plan.buffer("g_gr").banks for p in b.read_ports if p.domain[2].min == -2)
    assert root.controller.cycle_starting_addr == 186 and root.controller.cycle_stride[3] == 40
    box = (dc.replace(root.domain[0], min=-5, extent=root.domain[0].extent + 5),) + root.domain[1:]
    ctrl = dc.replace(root.controller, extent=tuple(d.extent for d in reversed(box)), cycle_starting_addr=-14,
                      data_starting_addr=root.controller.data_starting_addr - 5 * root.controller.data_stride[3])

    def tamper(b):
        def bank(k):
            return dc.replace(k, read_ports=tuple(dc.replace(p, domain=box, controller=ctrl) if p is root else p
                                                  for p in k.read_ports))
        return dc.replace(b, banks=tuple(bank(k) for k in b.banks))

    with pytest.raises(MemoryCheckError, match=rf"buffer 'g_gr': port {root.name} fires before cycle 0 at "
                                                r"\[demosaicked.s0.y.strip_o=-5, "):
        check_plan(nest, _with_buffer(plan, "g_gr", tamper))


def test_f_an_extension_out_of_its_iteration_order_is_caught():
    # distinct cycles are not enough: row 1's extra read (x = -1, cycle 6) comes before row 0's last (x = 1,
    # cycle 8), and a controller counts down the gap from one firing to the next
    dims = (Dim("y", 0, 2), Dim("x", -1, 3))
    with pytest.raises(MemoryCheckError, match=r"buffer 'b': port p fires at \[y=1, x=-1\] no later than at "
                                               r"\[y=0, x=1\], before it in its iteration order"):
        checker._in_order("b", "p", dims, isl.Map("{ P[y, x] -> [6y + 4x + 4] : 0 <= y <= 1 and -1 <= x <= 1 }"))


def _isl_cycles_increase(dims, rates, start, box):
    """The isl question cycles_increase answers in closed form (read_registers.py before session 18)."""
    import islpy as isl

    from mainspring.memories.timing import bounds, cycle_expr

    ts = ", ".join(f"t{k}" for k in range(len(box)))
    cycles = isl.Map(f"{{ S[{ts}] -> [{cycle_expr(dims, rates, start)}] : {bounds(box)} }}")
    dom = cycles.domain()
    pairs = dom.lex_lt_set(dom).domain_map().apply_range(cycles).flat_range_product(
        dom.lex_lt_set(dom).range_map().apply_range(cycles))
    in_order = pairs.intersect_range(isl.Set("{ [a, b] : a >= b }")).is_empty()
    return in_order and cycles.range().lexmin().is_subset(isl.Set("{ [c] : c >= 0 }"))


def test_cycles_increase_answers_as_isl_did():
    import random

    from mainspring.memories.ir import Dim
    from mainspring.memories.read_registers import cycles_increase

    rng = random.Random(18)
    answers = set()
    for _ in range(400):
        n = rng.randint(1, 3)
        dims = tuple(Dim(f"d{k}", rng.randint(-2, 2), rng.randint(1, 5)) for k in range(n))
        box = tuple(Dim(d.var, d.min - rng.randint(0, 2), rng.randint(0, 6), step=rng.choice((1, 1, 2, 3)))
                    for d in dims)
        rates = tuple(rng.choice((-1, 0, 1, 2, 3, 5, 8, 16, 24)) for _ in range(n))
        start = rng.randint(-3, 40)
        got = cycles_increase(dims, rates, start, box)
        assert got == _isl_cycles_increase(dims, rates, start, box), (dims, rates, start, box)
        answers.add(got)
    assert answers == {True, False}
