"""memories.checker: the isl proof accepts good plans and rejects tampered ones, naming buffer and point."""

import dataclasses as dc

import pytest

import memories_nests as N
from mainspring.memories import BankPort, MemoryCheckError, analyze, check_plan


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


def test_f_a_short_delay_line_overwrites_a_live_value(gaussian):
    nest, plan = gaussian
    with pytest.raises(MemoryCheckError, match=r"buffer 'hw_input': bank hw_input.bank0 \(128 words\): the value "
                                                r"hw_input.bank0.w0 writes at \[hw_input.d1=0, hw_input.d0=0\] is "
                                                r"overwritten .* \(cycle 128\)"):
        check_plan(nest, with_bank(plan, "hw_input", words=128))


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
    with pytest.raises(MemoryCheckError, match=r"bank hw_input.bank0 has 1 write and 3 read ports"):
        check_plan(nest, with_bank(plan, "hw_input", read_ports=bank.read_ports + (extra,)))


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
    words = plan.buffer("in_copy").banks[0].words
    with pytest.raises(MemoryCheckError, match=rf"bank in_copy.bank0 \({words - 6} words\).*is overwritten"):
        check_plan(nest, with_bank(plan, "in_copy", words=words - 6))
