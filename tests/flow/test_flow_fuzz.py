"""The differential fuzzer (`mainspring fuzz`): a fixed range of seeds in CI, every saved regression on both
simulators, and the fuzzer's own parts (generation is deterministic, shrinking keeps the failure)."""

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from mainspring import fuzz, fuzz_case

# The autoscheduler fuzzer's saves (auto_*.py) run in test_flow_fuzz_auto.py, the same test over them.
CASES = sorted(p for p in (Path(__file__).parent / "fuzz_cases").glob("*.py") if not p.name.startswith("auto_"))
SIMULATORS = ("icarus", "verilator")


@pytest.mark.parametrize("first", range(0, 60, 10))
def test_a_fixed_range_of_seeds_is_bit_exact(first):
    # 60 cases: stencils, pointwise ops over six integer types, reductions unrolled and serial, inlined Funcs, host
    # tiles (boundary conditions inside some), 1-3 lanes (mixed per stage in some), stalls, scatters into tables
    # (registers and RAMs), 2x down- and upsamples, schedule variants (store_at, column-major output,
    # accelerator_input, seed 002's GLB level), 3-D inputs of 2 or 3 channels streamed whole; each also checks the
    # reference against Halide 21 when installed.
    failures = fuzz.run_fuzz(10, first, simulator="icarus", progress=lambda _: None, shrink_failures=False)
    assert not failures, "\n\n".join(f"{f.kind}: {f.detail}\n{f.source}" for f in failures)


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_saved_regressions(path, simulator, build_dir, compile_shared):
    spec = importlib.util.spec_from_file_location(f"fuzz_case_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    design = compile_shared(mod.build(), name=f"fuzz_{path.stem}")  # one compile for both simulators
    design.check(design.example_inputs(1), simulator=simulator, build_dir=build_dir, bubbles=0.2, backpressure=0.2)


def test_generation_is_deterministic_and_runnable():
    assert fuzz.source(fuzz.generate(7)) == fuzz.source(fuzz.generate(7))
    assert fuzz.source(fuzz.generate(7)) != fuzz.source(fuzz.generate(8))
    compile(fuzz.source(fuzz.generate(7)), "case", "exec")
    assert {fuzz.generate(k).variant for k in range(60)} == {"", "store_at", "column_major", "accelerator_input",
                                                             "glb"}
    assert {fuzz.generate(k).channels for k in range(60)} == {0, 2, 3}  # 3-D inputs, channels per transfer
    assert {fuzz.generate(k).work for k in range(60)} == {"u8", "i8", "u16", "i16", "u32", "i32"}
    assert len({fuzz.generate(k).edges for k in range(60)} - {""}) >= 4  # boundary conditions on stages inside
    assert any(fuzz.generate(k).edges and fuzz.generate(k).tile for k in range(60))  # ... under host tiles
    assert any(fuzz.generate(k).edges and fuzz.generate(k).variant == "glb" for k in range(60))  # ... the GLB
    assert any(fuzz.generate(k).lookup for k in range(60))  # a RAM read back at each pixel's bin
    assert any(fuzz.generate(k).lookups == 2 for k in range(60))  # ... at two bins in one op (ram_lookups.py)
    assert any(fuzz.generate(k).variant == "glb" and fuzz.generate(k).lanes > 1 for k in range(60))  # GLB lanes
    assert any(s.divided > 1 for k in range(60) for s in fuzz.generate(k).stages)  # serial taps at a quotient
    kinds = {s.kind for k in range(60) for s in fuzz.generate(k).stages}
    assert kinds == {"stencil", "pointwise", "reduce", "coord", "rom", "down", "up"}
    assert any(fuzz.generate(k).tile for k in range(40)) and any(fuzz.generate(k).lanes > 1 for k in range(40))
    # host tiles over an upsample whose steps they do not divide (tiles at another phase than the first)
    assert any(any(s.kind == "up" for s in c.stages) and c.tile and c.tile[0] % 2
               for c in map(fuzz.generate, range(120)))
    # producers and consumers unrolled differently: paced consumers, narrowed producers
    mixed = [dict(fuzz.generate(k).mixed) for k in range(60) if fuzz.generate(k).mixed]
    assert any(m["hw_output"] > 1 and 1 in m.values() for m in mixed)
    assert any(m["hw_output"] == 1 and max(m.values()) > 1 for m in mixed)
    scatters = [fuzz.generate(k) for k in range(60) if fuzz.generate(k).bins]
    assert {c.scatter for c in scatters} == {"count", "max", "sum"} and min(c.bins for c in scatters) <= 4 < max(
        c.bins for c in scatters)  # lanes of registers and RAMs, in the fixed range CI runs


# Seeds of the session-17 draws (in fuzz17's range): a chain of upsamples (x / d then x / e) in one tile, in host
# tiles and under the GLB level; rfactor after the stage's reorder and unrolls, after a split of x, and of a split
# r.x (two parts).
NEW_DRAWS = {"chain": 146109, "chain_tile": 146026, "chain_glb": 146198, "rfactor_first": 146015,
             "rfactor_pure": 146087, "rfactor_split": 146238}


@pytest.mark.parametrize("name", NEW_DRAWS)
def test_the_session_17_draws_are_bit_exact(name):
    case = fuzz.generate(NEW_DRAWS[name])
    ups = [s.by for s in case.stages if s.kind == "up"]
    if name.startswith("chain"):
        assert len(ups) == 2 and ups[0][0] != ups[1][0] and ups[1][1] == 1
        assert bool(case.tile) == (name != "chain") and (case.variant == "glb") == (name == "chain_glb")
    else:
        assert [s.rfactor_form for s in case.stages if s.rfactor] == [name.split("_")[1]]
    got = fuzz.run_case(case, "icarus", fuzz._halide())
    assert got.kind == "ok", f"{got.kind}: {got.detail}\n{got.source}"


@pytest.mark.parametrize(("form", "unrolled", "taps"), [
    (form, unrolled, taps) for form in ("", "split", "first", "pure") for unrolled in (True, False) for taps in (2, 3)])
def test_the_rfactor_forms_drawn_are_schedules_halide_accepts(form, unrolled, taps):
    """Each form's schedule (with the stage computed inside a tiled loop, as the fuzzer's) run by real Halide 21
    equals the reference under it: Halide refuses a schedule it does not accept when it realizes it."""
    import numpy as np

    import mainspring

    halide = pytest.importorskip("halide")
    stage = fuzz.Stage("f1", "reduce", ((-1, 0, 0),), ("+",), 3, (taps, 2), unrolled, rfactor=True,
                       rfactor_form=form)
    data = np.random.default_rng(taps).integers(0, 4000, (10, 12), dtype=np.uint16)
    outs = []
    for h in (halide, mainspring):
        x, y, xo, yo, xi, yi = (h.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
        a = {"input_": h.ImageParam(h.UInt(16), 2, "input"), "hw_input": h.Func("hw_input"), "f1": h.Func("f1"),
             "output": h.Func("output"), "hw_output": h.Func("hw_output")}
        a["hw_input"][x, y] = a["input_"][x, y]
        r = a["r_f1"] = h.RDom([h.Range(0, taps), h.Range(0, 2)], "r_f1")
        a["f1"][x, y] = h.u16(0)
        a["f1"][x, y] += a["hw_input"][x + r.x, y + r.y] * h.u16(r.x + 1)
        a["hw_output"][x, y] = a["f1"][x, y]
        a["output"][x, y] = a["hw_output"][x, y]
        a["hw_output"].compute_root().tile(x, y, xo, yo, xi, yi, 4, 3)
        env = {"a": a, "hl": h, "x": x, "y": y, "xo": xo}
        for line in fuzz_case.rfactor_lines(stage):
            exec(line.strip(), env)  # the fuzzer's own schedule lines
        a["f1"].compute_at(a["hw_output"], xo)
        a["input_"].set(h.Buffer(data))
        outs.append(np.asarray(a["output"].realize([7, 5])))
    assert np.array_equal(*outs)


def test_a_ram_read_back_at_its_bins_is_drawn_starting_at_a_row():
    # fuzz 9153726: a RAM read at computed coordinates started at the last stage's row (ram_init "divided") was
    # refused, off the documented list; it compiles since the ram_copies pass, so the generator draws it, from a
    # copy of its state (the draws after it are the earlier sessions')
    drawn = [fuzz.generate(k) for k in range(146000, 146600)]
    case = next(c for c in drawn if c.ram_init == "divided" and c.lookup)
    got = fuzz.run_case(case, "icarus", fuzz._halide())
    assert got.kind == "ok", f"{got.kind}: {got.detail}\n{got.source}"


def test_shrinking_keeps_the_failure_and_simplifies(monkeypatch):
    # A stand-in failure: "wide" designs (width >= 5) mismatch; the shrinker must stop at width 5, no tile.
    def fake(case, simulator="icarus", halide=None, build_dir=None):
        kind = "mismatch" if case.width >= 5 else "ok"
        return fuzz.Outcome(case, kind, "expected 1, got 2" if kind == "mismatch" else "")

    monkeypatch.setattr(fuzz, "run_case", fake)
    case = dataclasses.replace(fuzz.generate(3), width=9, height=4, tile=(4, 2), lanes=2)
    small = fuzz.shrink(fake(case), "icarus")
    assert small.kind == "mismatch"
    assert (small.case.width, small.case.height, small.case.tile, small.case.lanes) == (5, 1, None, 1)
    assert len(small.case.stages) == 1


def test_a_refusal_off_the_documented_list_is_a_failure(monkeypatch):
    import mainspring

    def refuse(*args, **kwargs):
        raise mainspring.HalideError("something new is not supported")

    monkeypatch.setattr(mainspring, "compile", refuse)
    got = fuzz.run_case(fuzz.generate(1))
    assert got.kind == "refusal" and got.failed and "import mainspring" in got.source


def test_cli_fuzz_reports_passed_and_failed(capsys, tmp_path):
    from mainspring.cli import main

    assert main(["fuzz", "--cases", "2", "--seed", "5", "--no-shrink", "--save", str(tmp_path)]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out


# Seeds of session 20's draws (mainspring/fuzz_wide.py, in fuzzwide's range), each with the line of source that
# makes it that kind: what users write that the fuzzer never drew before.
WIDE_DRAWS = {
    "wide_stencil": (155053, "hl.absd("),  # 4-9 taps up to 5x5, most of one producer
    "wide_types": (155922, "(hl.i8("),  # a 32- or 8-bit input, a stage cast through the other 8-bit type
    "param": (155915, '"k", '),  # a scalar hl.Param in a stage
    "second_input": (155061, 'a["hw_input2"].compute_root().stream_to_accelerator()'),  # two images
    "at_yi": (155293, 'compute_at(a["hw_output"], yi)'),  # a stage at the output's row loop
    "at_stage": (155054, 'compute_at(a["f'),  # a stage at its reader's y
    "loops_unroll_y": (155588, ".unroll(yii)"),  # two rows per transfer
    # (odd seeds: `unroll(yi, 2)` with xi inside, refused before session 20's fix; fuzz 155143 at 2 lanes of x)
    "loops_unroll_yi": (155143, 'a["hw_output"].unroll(yi, 2)'),
    "loops_split_yi": (155910, "split(yi, yio, yii, 2)"),
    "loops_strips": (155129, "reorder(yii, xi, yio)"),
    "store_root": (155118, "store_root()"),
    "store_yo": (155919, 'store_at(a["hw_output"], yo)'),  # stored at the host tile's row loop
    "bound": (155820, 'a["hw_output"].bound('),
    "bound_stage": (155837, "].bound(x, 0, "),  # a stage bounded past what its readers need
}


@pytest.mark.parametrize("name", WIDE_DRAWS)
def test_the_session_20_draws_are_bit_exact(name):
    from mainspring import fuzz_wide

    seed, line = WIDE_DRAWS[name]
    case = fuzz.generate(seed)
    kind = "loops_unroll_y" if name == "loops_unroll_yi" else name
    assert kind in fuzz_wide.wide_kinds(case) and line in fuzz.source(case)
    got = fuzz.run_case(case, "icarus", fuzz._halide())
    assert got.kind == "ok", f"{got.kind}: {got.detail}\n{got.source}"


def test_the_session_20_kinds_are_drawn_and_leave_older_draws_alone():
    from mainspring import fuzz_blocks, fuzz_outputs, fuzz_wide

    drawn = [fuzz.generate(k) for k in range(160000, 162000)]
    kinds = {k for c in drawn for k in fuzz_wide.wide_kinds(c)}
    assert kinds == set(WIDE_DRAWS) - {"loops_unroll_yi"}
    # drawn last: a case without them is the case fuzz --auto draws (generate(seed, wide=False))
    plain = [k for k, c in zip(range(160000, 160200), drawn)
             if not fuzz_wide.wide_kinds(c) and not fuzz_blocks.blocks_kinds(c) and not fuzz_outputs.outputs_kinds(c)]
    assert plain and all(fuzz.generate(k, wide=False) == fuzz.generate(k) for k in plain)
    # the shrinker takes each kind away
    case = next(c for c in drawn if c.second and c.param)
    assert any(not s.second for s in fuzz._simpler(case)) and any(not s.param for s in fuzz._simpler(case))


# Seeds of session 38's draws (mainspring/fuzz_blocks.py, in fuzz38's range), each with the line of source that makes
# it that kind: the schedules session 38 made compile.
BLOCK_DRAWS = {
    "blocks_xy": (176103, 'a["hw_output"].unroll(xi, 2, hl.TailStrategy.RoundUp).unroll(yi, 2'),  # 4 pixels a cycle
    "blocks_y": (176067, 'unroll(y, 2, hl.TailStrategy.RoundUp)'),  # readers of x lanes and of rows
    "blocks_1": (176017, 'a["hw_input"].unroll(x, 2, hl.TailStrategy.RoundUp).unroll(y, 2'),  # a word at a time
    "glb_rows": (175939, ".unroll(yii, 2, hl.TailStrategy.RoundUp)"),  # the array output's rows through the GLB
    "fused_row": (176150, "split(hl.Var(\"xy\"), xo, xi, 3)"),  # runs of a row, over an upsample (grown to 2 rows)
    "fused_rows": (176177, "fuse(x, y, hl.Var(\"xy\"))"),  # runs of whole rows
    "bound_extent": (175911, ".bound_extent(x, "),  # the output's min the realize's
}


@pytest.mark.parametrize("name", BLOCK_DRAWS)
def test_the_session_38_draws_are_bit_exact(name):
    from mainspring import fuzz_blocks

    seed, line = BLOCK_DRAWS[name]
    case = fuzz.generate(seed)
    assert name in fuzz_blocks.blocks_kinds(case) and line in fuzz.source(case)
    got = fuzz.run_case(case, "icarus", fuzz._halide())
    assert got.kind == "ok", f"{got.kind}: {got.detail}\n{got.source}"


def test_the_session_38_kinds_leave_older_draws_alone():
    """Drawn from a stream of their own: a case is its session-20 draw with only these kinds added."""
    from unittest import mock

    from mainspring import fuzz_blocks

    drawn = {k: fuzz.generate(k) for k in range(175900, 176300)}
    kinds = {kind for c in drawn.values() for kind in fuzz_blocks.blocks_kinds(c)}
    assert kinds == set(BLOCK_DRAWS) | {"blocks_x"}
    off = {"blocks": (), "glb_rows": "", "fused": 0, "bound_extent": False}
    # the generator as it was before them (session 39's kinds, drawn after them, left out on both sides)
    with mock.patch.object(fuzz, "with_outputs", lambda _, case: case):
        drawn = {k: fuzz.generate(k) for k in drawn}
        with mock.patch.object(fuzz, "with_blocks", lambda _, case: case):
            before = {k: fuzz.generate(k) for k in drawn}
    assert all(dataclasses.replace(c, **off) == before[k] for k, c in drawn.items())
    assert sum(c != before[k] for k, c in drawn.items()) < len(drawn) / 3  # a modest share of the cases


def test_a_shrunk_candidate_left_with_a_tuple_output_is_an_outcome_not_a_crash():
    # Seed 187502's shrink (session 40) took f2 away, leaving hw_output = f1, a Tuple: the simulation gives outputs
    # of another shape than the case asks, which run_case asserted against and so ended the whole fuzz run.
    _, _, simpler, _ = fuzz._mode(False)
    first = next(iter(simpler(fuzz.generate(187502))))
    got = [fuzz.run_case(c, "icarus") for c in simpler(first)]
    shaped = [o for o in got if o.kind == "shape"]
    assert shaped and "where the case asks (2, 5)" in shaped[0].detail, [o.kind for o in got]
