"""`--dump-after` prints each step once when the compiler's copy with a scan's lanes (hwlower/scan_lanes.py) is
refused and the pipeline as written is lowered instead: the refused copy's dumps are dropped (session 36 printed
both, the first of a pipeline that was not compiled)."""

import io

from test_rows22 import _scan

import mainspring as hl
from mainspring import compiler
from mainspring.frontend.errors import HalideError


def test_a_refused_scan_copy_prints_no_dump(monkeypatch):
    real, calls = compiler.lower, []

    def copy_refused(pipe, name, dump):
        calls.append(pipe)
        program = real(pipe, name, dump)  # dumps its steps as it goes, then the copy is refused
        if len(calls) == 1:
            raise HalideError("the copy with the scan's lanes refused (this test)")
        return program

    monkeypatch.setattr(compiler, "lower", copy_refused)
    buf = io.StringIO()
    design = hl.compile(_scan(hl, False)[0], name="dump_fallback", dump_after="ops", out=buf, prove=False)
    assert len(calls) == 2  # the copy, then the pipeline as written
    assert buf.getvalue().count("// after ops") == 1
    (note,) = design.report["notes"]  # the copy was not taken: the lanes run serially, the note names the fix
    assert "runs serially" in note
