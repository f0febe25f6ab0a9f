"""memories.banks: banks by residue of a coordinate, their tile read ports shared over disjoint cycles, the
memory JSON that carries them, and the checker's proof of the sharing (tampered plans are rejected)."""

import dataclasses as dc

import pytest

import mainspring as hl
from mainspring import apps
from mainspring.memories import MemoryCheckError, analyze, check_plan, from_json, to_json

import memories_nests as N


@pytest.fixture(scope="module")
def up_sample():
    out, _ = apps.load("h2h_up_sample").build(8, 6)
    design = hl.compile(out, name="h2h_up_sample")
    return design.program.nest, design.plan


def _with_read_ports(plan, bank_name, fn):
    def bank(k):
        return dc.replace(k, read_ports=tuple(fn(p) for p in k.read_ports)) if k.name == bank_name else k

    return dc.replace(plan, buffers=tuple(dc.replace(b, banks=tuple(bank(k) for k in b.banks))
                                          for b in plan.buffers))


def test_an_upsample_is_banked_by_row_parity(up_sample):
    nest, plan = up_sample
    buf = plan.buffer("hw_input")
    even, odd = buf.banks
    for bank, first in ((even, 0), (odd, -1)):
        (w,) = bank.write_ports
        assert (w.domain[0].min, w.domain[0].step) == (first, 2)  # rows of one parity, at consecutive addresses
        owners = [p.name for p in bank.tile_read_ports]
        assert len(owners) == 2 and [p.shares for p in bank.read_ports[2:]] == owners
    # Each logical load reads from both banks, over the output rows of one parity each (yo stepped by 2).
    for load in {p.load for p in buf.read_ports}:
        mine = [p for p in buf.read_ports if p.load == load]
        assert sorted((p.domain[0].min, p.domain[0].step) for p in mine) == [(0, 2), (1, 2)]
    assert sum(b.words for b in buf.banks) == buf.min_words
    check_plan(nest, plan)


def test_the_memory_json_keeps_shared_ports_and_only_them(up_sample):
    _, plan = up_sample
    assert from_json(to_json(plan)) == plan
    gaussian = analyze(N.gaussian(16, 8))
    assert '"shares"' not in str(to_json(gaussian))  # designs without banks by residue: the JSON as before


def test_f_ports_sharing_a_tile_read_port_in_one_cycle_are_caught(up_sample):
    nest, plan = up_sample
    bank = plan.buffer("hw_input").banks[0]
    owner = bank.read_ports[0]
    (sharer,) = [p for p in bank.read_ports if p.shares == owner.name]
    # Swapping which reads share which tile read port is as good (both pairs have disjoint cycles) ...
    a, b = (p.name for p in bank.tile_read_ports)
    swap = {p.name: (b if p.shares == a else a) for p in bank.read_ports if p.shares is not None}
    check_plan(nest, _with_read_ports(plan, bank.name, lambda p: dc.replace(p, shares=swap.get(p.name, p.shares))))
    # ... but a sharer reading in its owner's cycles (here over the owner's iterations) is not
    bad = _with_read_ports(plan, bank.name, lambda p: dc.replace(p, domain=owner.domain, controller=owner.controller)
                           if p is sharer else p)
    with pytest.raises(MemoryCheckError, match=rf"buffer 'hw_input': bank hw_input.bank0: {sharer.name} reads "
                                                rf"through tile read port {owner.name} in cycle \d+, when another"):
        check_plan(nest, bad)


def test_f_a_shared_port_must_be_a_tile_read_port_of_its_bank(up_sample):
    nest, plan = up_sample
    bank = plan.buffer("hw_input").banks[0]
    sharer = bank.read_ports[2]
    bad = _with_read_ports(plan, bank.name, lambda p: dc.replace(p, shares="hw_input.bank1.r0") if p is sharer else p)
    with pytest.raises(MemoryCheckError, match=r"read port hw_input.bank0.r2 shares hw_input.bank1.r0, not a tile read "
                                                r"port of this addressed bank"):
        check_plan(nest, bad)


def test_f_a_tile_read_port_has_three_controllers(up_sample):
    nest, plan = up_sample
    bank = plan.buffer("hw_input").banks[0]
    owner = bank.read_ports[0].name
    # every other read port of the bank through the first tile read port: 4 controllers on it (ms_mem_tile: R0..R5
    # on two tile read ports, 3 each)
    bad = _with_read_ports(plan, bank.name, lambda p: dc.replace(p, shares=owner) if p.name != owner else p)
    with pytest.raises(MemoryCheckError, match=rf"tile read port {owner} serves 4 bank read ports; a tile read port "
                                                r"has 3 controllers"):
        check_plan(nest, bad)


def test_f_unsharing_gives_a_tile_more_read_ports_than_it_has(up_sample):
    nest, plan = up_sample
    bank = plan.buffer("hw_input").banks[0]
    bad = _with_read_ports(plan, bank.name, lambda p: dc.replace(p, shares=None))
    with pytest.raises(MemoryCheckError, match=r"bank hw_input.bank0 has 1 write and 4 read ports; a tile has 2 and 2"):
        check_plan(nest, bad)
