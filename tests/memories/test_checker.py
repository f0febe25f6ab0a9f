"""memories.checker: the isl proof accepts good plans and rejects tampered ones, naming buffer and point."""

import dataclasses as dc

import pytest

from mainspring.memories import BankPort, MemoryCheckError, analyze, check_plan

import memories_nests as N


@pytest.fixture(scope="module")
def gaussian():
    nest = N.gaussian()
    return nest, analyze(nest)


def with_op(plan, name, **changes):
    return dc.replace(plan, ops=tuple(dc.replace(s, **changes) if s.op == name else s for s in plan.ops))


def with_buffer(plan, name, fn):
    return dc.replace(plan, buffers=tuple(fn(b) if b.name == name else b for b in plan.buffers))


def with_bank(plan, buf, **changes):
    return with_buffer(plan, buf, lambda b: dc.replace(b, banks=(dc.replace(b.banks[0], **changes),) + b.banks[1:]))


def test_the_analyzed_plans_pass(gaussian):
    check_plan(*gaussian)
    for make in (N.cascade, N.unrolled_box, N.sequential_reduction):
        nest = make()
        check_plan(nest, analyze(nest, check=False))


def test_f_an_early_delay_is_a_read_before_write(gaussian):
    nest, plan = gaussian
    bad = with_op(plan, "blur_unnormalized_s0", delay=129)
    with pytest.raises(MemoryCheckError, match=r"buffer 'hw_input': op 'blur_unnormalized_s0' load 'hw_input_8' at "
                                                r"\[u.y=0, u.x=0\] \(cycle 129\) .* in cycle 130: read before write"):
        check_plan(nest, bad)


def test_f_a_late_delay_misses_its_taps(gaussian):
    nest, plan = gaussian
    with pytest.raises(MemoryCheckError, match=r"buffer 'blur_unnormalized'.*read before write"):
        check_plan(nest, with_op(plan, "blur_unnormalized_s0", delay=131))
    # Delay the whole tail too: no read is early any more, but the taps deliver the wrong pixels.
    late = with_op(with_op(with_op(plan, "blur_unnormalized_s0", delay=131), "blur_s0", delay=132),
                   "hw_output_s0", delay=133)
    with pytest.raises(MemoryCheckError, match=r"buffer 'hw_input': read port hw_input.r0 \(tap .*, delay 130\) at "
                                                r"\[u.y=0, u.x=0\] in cycle 131 .*delivers another value"):
        check_plan(nest, late)


def test_f_an_invocation_shorter_than_its_input_stream(gaussian):
    # Host tiles and frames follow each other every plan.cycles cycles: a stream word past that (even one no op
    # reads) would be taken by the next invocation, shifting all of its words.
    nest, plan = gaussian
    check_plan(nest, dc.replace(plan, cycles=plan.cycles + 3))
    last_input = plan.op("host.hw_input").last_cycle
    with pytest.raises(MemoryCheckError, match=rf"op 'host.hw_input' ends at cycle {last_input}, after the "
                                                rf"invocation's {last_input} cycles"):
        check_plan(nest, dc.replace(plan, cycles=last_input))


def resized(port, words):
    """A gated delay-line port as the mapper would make it for a line of `words` SRAM words."""
    start = -port.delay if port.kind == "write" else 1 - port.delay
    return dc.replace(port, region=(port.region[0], words),
                      controller=dc.replace(port.controller, data_starting_addr=start % words))


def test_f_a_short_delay_line_overwrites_a_live_value(gaussian):
    nest, plan = gaussian
    bank = plan.buffer("hw_input").banks[0]
    w0, w1 = bank.write_ports
    r0, r1 = bank.read_ports
    short = with_bank(plan, "hw_input", write_ports=(resized(w0, 60), w1), read_ports=(resized(r0, 60), r1))
    with pytest.raises(MemoryCheckError, match=r"buffer 'hw_input': bank hw_input.bank0 \(122 words\): the value "
                                                r"hw_input.bank0.w0 writes at \[hw_input.d1=0, hw_input.d0=2\] is "
                                                r"overwritten by hw_input.bank0.w0 at \[hw_input.d1=0, "
                                                r"hw_input.d0=62\] \(cycle 62\) before read port hw_input.bank0.r0 "
                                                r"reads it at \[hw_input.d1=0, hw_input.d0=63\] \(cycle 64\)"):
        check_plan(nest, short)


def test_f_overlapping_lines_in_one_tile_are_caught(gaussian):
    nest, plan = gaussian
    bank = plan.buffer("hw_input").banks[0]
    w0, w1 = bank.write_ports
    r0, r1 = bank.read_ports
    moved = [dc.replace(p, region=(30, 61)) for p in (w1, r1)]
    with pytest.raises(MemoryCheckError, match=r"bank hw_input.bank0 \(122 words\): the value hw_input.bank0.w. "
                                                r"writes at .* is overwritten by hw_input.bank0.w. at"):
        check_plan(nest, with_bank(plan, "hw_input", write_ports=(w0, moved[0]), read_ports=(r0, moved[1])))


def test_f_a_register_shifting_every_cycle_breaks_a_chain_counting_writes():
    nest = N.cascade()
    plan = analyze(nest)
    regs = plan.buffer("blur1").registers
    with pytest.raises(MemoryCheckError, match=r"buffer 'blur1': register blur1.w0.reg2 \(delay 2 after blur1.w0\) "
                                                r"is fed by blur1.w0.reg1 = \('blur1.w0', False, 1\)"):
        check_plan(nest, with_buffer(plan, "blur1", lambda b: dc.replace(
            b, registers=(dc.replace(regs[0], gated=False),) + regs[1:])))


def test_f_a_write_tap_counting_cycles_misses_the_gaps():
    nest = N.cascade()
    plan = analyze(nest)
    ports = plan.buffer("blur1").read_ports
    (k, p), = [(k, p) for k, p in enumerate(ports) if p.steps == 62]
    bad = ports[:k] + (dc.replace(p, steps=64),) + ports[k + 1:]
    with pytest.raises(MemoryCheckError, match=rf"buffer 'blur1': read port {p.name} \(write tap {p.tap}, 64 "
                                                r"writes\) reads some values 62 writes after theirs"):
        check_plan(nest, with_buffer(plan, "blur1", lambda b: dc.replace(b, read_ports=bad)))


def test_f_a_wrong_register_chain_is_caught(gaussian):
    nest, plan = gaussian
    regs = plan.buffer("hw_input").registers
    broken = (dc.replace(regs[1], source=regs[1].root),) + regs[2:]
    with pytest.raises(MemoryCheckError, match=r"register hw_input.w0.reg2"):
        check_plan(nest, with_buffer(plan, "hw_input", lambda b: dc.replace(b, registers=regs[:1] + broken)))


def test_f_a_tile_gets_no_more_ports_than_it_has(gaussian):
    nest, plan = gaussian
    bank = plan.buffer("hw_input").banks[0]
    extra = BankPort("hw_input.bank0.r2", "read", "host.hw_input", (), bank.read_ports[0].domain,
                     bank.read_ports[0].controller, delay=64)
    with pytest.raises(MemoryCheckError, match=r"bank hw_input.bank0 has 2 write and 3 read ports; a tile has 2 and 2"):
        check_plan(nest, with_bank(plan, "hw_input", read_ports=bank.read_ports + (extra,)))


def test_f_an_op_without_a_schedule_over_its_loops_is_caught(gaussian):
    nest, plan = gaussian
    with pytest.raises(MemoryCheckError, match=r"op 'blur_s0' has no schedule over its loops"):
        check_plan(nest, dc.replace(plan, ops=tuple(s for s in plan.ops if s.op != "blur_s0")))
    # A schedule of other loops: one row fewer than the op has (its rates and lanes still fit its dims).
    (s,) = [s for s in plan.ops if s.op == "blur_s0"]
    short = (dc.replace(s.dims[0], extent=s.dims[0].extent - 1),) + s.dims[1:]
    with pytest.raises(MemoryCheckError, match=r"op 'blur_s0' has no schedule over its loops"):
        check_plan(nest, with_op(plan, "blur_s0", dims=short))


def test_f_a_port_iterating_other_extents_than_its_op_is_caught(gaussian):
    # blur_s0 fires over 62 x 62 points; a write port counting 61 columns per row would lose a pixel each row.
    nest, plan = gaussian
    (w,) = plan.buffer("blur").write_ports
    short = dc.replace(w, controller=dc.replace(w.controller, extent=(61, 62)))
    with pytest.raises(MemoryCheckError, match=r"^memories check: buffer 'blur': port blur.w0 iterates extents "
                                                r"\[61, 62\], not its domain \[b.y in 0..61, b.x in 0..61\]$"):
        check_plan(nest, with_buffer(plan, "blur", lambda b: dc.replace(b, write_ports=(short,))))


def test_f_an_op_firing_twice_per_cycle_is_caught(gaussian):
    nest, plan = gaussian
    with pytest.raises(MemoryCheckError, match=r"op 'blur_s0' fires twice in one cycle"):
        check_plan(nest, with_op(plan, "blur_s0", rates=(61, 1)))


def test_f_the_host_stream_cannot_be_rescheduled(gaussian):
    nest, plan = gaussian
    with pytest.raises(MemoryCheckError, match=r"'host.hw_input' is not the host's stream"):
        check_plan(nest, with_op(plan, "host.hw_input", delay=1))


def test_f_an_addressed_bank_too_small_is_caught():
    nest = N.sequential_reduction()
    plan = analyze(nest)
    bank = plan.buffer("in_copy").banks[0]
    n = bank.words - 1  # one word short (6 words since the stream is paced to its copy's readers, more before)
    small = {"words": n, "write_ports": tuple(dc.replace(p, region=(0, n)) for p in bank.write_ports),
             "read_ports": tuple(dc.replace(p, region=(0, n)) for p in bank.read_ports)}
    with pytest.raises(MemoryCheckError, match=rf"bank in_copy.bank0 \({n} words\).*is overwritten"):
        check_plan(nest, with_bank(plan, "in_copy", **small))


def test_f_a_port_outside_its_bank_is_caught(gaussian):
    nest, plan = gaussian
    bank = plan.buffer("hw_input").banks[0]
    with pytest.raises(MemoryCheckError, match=r"bank port hw_input.bank0.w0 addresses words 100..160 of 122"):
        check_plan(nest, with_bank(plan, "hw_input", write_ports=(dc.replace(bank.write_ports[0], region=(100, 61)),)
                                   + bank.write_ports[1:]))


def test_f_an_addressed_read_whose_region_no_write_port_fills_is_caught():
    # The downsample's even pixels of even rows wait in an addressed bank; a write port moved to another region
    # leaves its read port's region never written (the reads are checked against their own region's writes).
    nest = N.downsample()
    plan = analyze(nest)
    (bank,) = plan.buffer("hw_input").banks
    (w,) = bank.write_ports
    moved = {"words": 2 * bank.words, "write_ports": (dc.replace(w, region=(bank.words, bank.words)),)}
    with pytest.raises(MemoryCheckError, match=r"bank hw_input.bank0 read port hw_input.bank0.r0 at \[d.y=0, d.x=0\] "
                                               r"needs a value no write port of its region writes"):
        check_plan(nest, with_bank(plan, "hw_input", **moved))
