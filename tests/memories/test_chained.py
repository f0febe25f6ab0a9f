"""memories.chained: camera_pipeline's green planes, read at three rows (one root read a row, registers after it),
in chained banks: bank 0 holds the two youngest rows, bank 1 the oldest, written from bank 0's row-y read port as it
loads each word for the last time and from the stream for the row that port never loads. The checker proves a
chained write port's values through its feeder's proven loads and rejects tampered plans."""

import dataclasses as dc

import pytest

import mainspring as hl
from mainspring import apps
from mainspring.memories import MemoryCheckError, check_plan, from_json, to_json


@pytest.fixture(scope="module")
def camera():
    mod = apps.load("h2h_camera_pipeline")
    out, _ = mod.build(12, 8)
    design = hl.compile(out, name="h2h_camera_pipeline", target=apps.target(mod))
    return design.program.nest, design.plan


def _tampered(plan, bank_name, fn):
    """The plan with g_gr's bank `bank_name` replaced by fn(bank)."""
    buf = plan.buffer("g_gr")
    banks = tuple(fn(k) if k.name == bank_name else k for k in buf.banks)
    return dc.replace(plan, buffers=tuple(dc.replace(b, banks=banks) if b is buf else b for b in plan.buffers))


def test_the_oldest_row_is_a_chained_bank(camera):
    nest, plan = camera
    for name in ("g_gr", "g_gb"):
        buf = plan.buffer(name)
        first, second = buf.banks
        (stream,) = buf.write_ports
        feed, edge = second.write_ports
        # bank 0 reads the two youngest rows, and its older one (the row y read) feeds bank 1
        ages = [p.controller.data_starting_addr for p in first.read_ports]
        assert feed.source == first.read_ports[ages.index(min(ages))].name and feed.op == "demosaicked_s0"
        assert edge.source == stream.name and edge.domain[0].extent == 1  # row 0, which row y never loads
        assert second.words <= buf.box[0][1] + 2  # about a row of the plane, not two: no replica
    assert from_json(to_json(plan)).buffers == plan.buffers
    check_plan(nest, plan)


def test_f_a_chained_bank_fed_by_the_wrong_read_port_is_caught(camera):
    nest, plan = camera
    first, second = plan.buffer("g_gr").banks
    feed = second.write_ports[0]
    other = next(p for p in first.read_ports if p.name != feed.source)  # the youngest row's port, same op and lane

    def tamper(k):
        return dc.replace(k, write_ports=(dc.replace(feed, source=other.name),) + k.write_ports[1:])

    with pytest.raises(MemoryCheckError, match=rf"buffer 'g_gr': bank {second.name} read port {second.name}.r0 at "
                                                rf"\[.*\] does not find the value written by {feed.name}"):
        check_plan(nest, _tampered(plan, second.name, tamper))


def test_f_a_chained_write_port_off_its_feeders_cycles_is_caught(camera):
    nest, plan = camera
    _, second = plan.buffer("g_gr").banks
    feed = second.write_ports[0]
    late = dc.replace(feed, controller=feed.controller.shifted(1))

    def tamper(k):
        return dc.replace(k, write_ports=(late,) + k.write_ports[1:])

    with pytest.raises(MemoryCheckError, match=rf"write port {feed.name} at \[.*\] writes in a cycle its feeder "
                                                rf"{feed.source} does not load at that iteration"):
        check_plan(nest, _tampered(plan, second.name, tamper))


def test_f_a_chained_bank_without_the_row_its_feeder_never_loads_is_caught(camera):
    nest, plan = camera
    _, second = plan.buffer("g_gr").banks

    def tamper(k):
        return dc.replace(k, write_ports=k.write_ports[:1])

    with pytest.raises(MemoryCheckError, match=rf"bank {second.name} read port {second.name}.r0 at "
                                                r"\[demosaicked.s0.y.strip_o=0, .*\] .*no write port of its region "
                                                "writes"):
        check_plan(nest, _tampered(plan, second.name, tamper))


def test_f_a_bank_fed_by_its_own_read_port_is_caught(camera):
    nest, plan = camera
    _, second = plan.buffer("g_gr").banks
    feed = second.write_ports[0]

    def tamper(k):
        return dc.replace(k, write_ports=(dc.replace(feed, source=k.read_ports[0].name),) + k.write_ports[1:])

    with pytest.raises(MemoryCheckError, match=rf"write port {feed.name} is fed by {second.name}.r0, neither the "
                                                r"write port of op 'demosaicked_s0' lane \[0\] nor a read port of "
                                                "another"):
        check_plan(nest, _tampered(plan, second.name, tamper))
