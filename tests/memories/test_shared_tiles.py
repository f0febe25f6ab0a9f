"""memories.shared_tiles and the checker's proof of a shared tile: a guest bank's words and ports lie apart from
its host's, on a tile of one slice."""

import dataclasses as dc

import pytest

import mainspring as hl
from mainspring.memories import MemoryCheckError, check_plan
from mainspring.memories.shared_tiles import spare_pair
from mainspring.target import CGRA


def _transposed_pair(n: int) -> hl.Func:
    """Two input streams each read transposed (tests/flow/test_flow_shared_tiles.py simulates it): an addressed
    bank of one write and one read port each."""
    x, y, xo, yo, xi, yi = (hl.Var(k) for k in ("x", "y", "xo", "yo", "xi", "yi"))
    a, b = hl.ImageParam(hl.Int(16), 2, "a"), hl.ImageParam(hl.Int(16), 2, "b")
    hw_a, hw_b, hw_output, out = (hl.Func(k) for k in ("hw_a", "hw_b", "hw_output", "out"))
    hw_a[x, y] = a[x, y]
    hw_b[x, y] = b[x, y]
    hw_output[x, y] = hw_a[y, x] - hw_b[y, x] * 3
    out[x, y] = hw_output[x, y]
    out.bound(x, 0, n).bound(y, 0, n)
    hw_output.compute_root()
    hw_output.tile(x, y, xo, yo, xi, yi, n, n).hw_accelerate(xi, xo)
    hw_a.stream_to_accelerator()
    hw_b.stream_to_accelerator()
    return out


@pytest.fixture(scope="module")
def shared():
    design = hl.compile(_transposed_pair(6), name="shared_check")
    return design.program.nest, design.plan


def _with_bank(plan, name, **changes):
    return dc.replace(plan, buffers=tuple(dc.replace(b, banks=tuple(dc.replace(k, **changes) if k.name == name else k
                                                                    for k in b.banks)) for b in plan.buffers))


def test_the_shared_plan_passes(shared):
    nest, plan = shared
    guest = plan.buffer("hw_b").banks[0]
    assert guest.host == "hw_a.bank0" and guest.base == plan.buffer("hw_a").banks[0].words
    check_plan(nest, plan)


def test_f_a_guest_overlapping_its_hosts_words_is_caught(shared):
    nest, plan = shared
    with pytest.raises(MemoryCheckError, match=r"buffer 'hw_b': bank hw_b.bank0 holds words 33..66 of the tile of "
                                                r"hw_a.bank0, which holds words 0..33"):
        check_plan(nest, _with_bank(plan, "hw_b.bank0", base=33))


def test_f_a_guest_past_the_tiles_words_is_caught(shared):
    nest, plan = shared
    with pytest.raises(MemoryCheckError, match=r"holds words 2020..2053 of the tile of hw_a.bank0"):
        check_plan(nest, _with_bank(plan, "hw_b.bank0", base=2020))


def test_f_a_guest_on_a_bank_of_its_own_tile_ports_is_caught(shared):
    nest, plan = shared
    host = plan.buffer("hw_a").banks[0]
    two = _with_bank(plan, "hw_a.bank0", write_ports=host.write_ports * 2)  # the host takes both write ports
    with pytest.raises(MemoryCheckError, match=r"take 3 write and 2 read ports of one tile, which has 2 and 2"):
        check_plan(nest, two)


def test_f_a_guest_of_a_missing_or_guest_host_is_caught(shared):
    nest, plan = shared
    with pytest.raises(MemoryCheckError, match=r"on the tile of nowhere.bank0, which is not one bank of the plan"):
        check_plan(nest, _with_bank(plan, "hw_b.bank0", host="nowhere.bank0"))
    with pytest.raises(MemoryCheckError, match=r"a tile is shared by one bank alone on it and one guest"):
        check_plan(nest, _with_bank(plan, "hw_b.bank0", tiles=1))


def test_a_spare_pair_is_one_write_and_one_read_port_alone_on_one_tile(shared):
    _, plan = shared
    host = plan.buffer("hw_a").banks[0]
    assert spare_pair(host, CGRA())
    assert not spare_pair(dc.replace(host, tiles=2), CGRA())
    assert not spare_pair(dc.replace(host, read_ports=host.read_ports * 2), CGRA())
    assert not spare_pair(host, CGRA(mem_tile_read_ports=1))
