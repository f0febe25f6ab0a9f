"""A register bank's read port without an output register (`BankPort.direct`): the checker allows it only on a
bank of one word in registers that nothing but the port's op reads."""

import dataclasses as dc

import pytest

import mainspring as hl
from mainspring.apps import h2h_resnet_layer_gen as resnet
from mainspring.memories import MemoryCheckError, Register, check_plan


@pytest.fixture(scope="module")
def small_resnet():
    out, _ = resnet.build(6, 6)
    design = hl.compile(out, name="resnet_direct")
    return design.program.nest, design.plan


def _with_conv(plan, fn):
    return dc.replace(plan, buffers=tuple(fn(b) if b.name == "conv" else b for b in plan.buffers))


def test_conv_sums_are_read_directly(small_resnet):
    nest, plan = small_resnet
    conv = plan.buffer("conv")
    assert [k.words for k in conv.banks] == [1, 1] and all(p.direct for k in conv.banks for p in k.read_ports)
    check_plan(nest, plan)


def test_f_a_direct_read_of_a_tile_is_caught(small_resnet):
    nest, plan = small_resnet
    bad = _with_conv(plan, lambda b: dc.replace(b, banks=(dc.replace(b.banks[0], in_registers=False, tiles=1),)
                                                + b.banks[1:]))
    with pytest.raises(MemoryCheckError, match=r"buffer 'conv': bank conv.bank0 read port conv.bank0.r0 is read "
                                                r"without an output register"):
        check_plan(nest, bad)


def test_f_a_direct_read_feeding_a_register_is_caught(small_resnet):
    nest, plan = small_resnet
    port = plan.buffer("conv").banks[0].read_ports[0].name
    bad = _with_conv(plan, lambda b: dc.replace(b, registers=b.registers + (Register(f"{port}.reg1", port, port, 1),)))
    with pytest.raises(MemoryCheckError, match=r"read without an output register"):
        check_plan(nest, bad)
