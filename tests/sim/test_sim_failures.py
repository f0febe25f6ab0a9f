"""The harness catches broken designs and wrong calls, each with a message that says what happened."""

from __future__ import annotations

import numpy as np
import pytest

from mainspring.sim import (
    BuildError,
    OutputSpec,
    SimulationError,
    SimulationTimeout,
    StreamProtocolError,
    StreamSpec,
    build,
    run,
)

from sim_helpers import ADDERS, FAULTY, FIXTURES, adder_streams


def test_a_design_that_drops_words_under_backpressure_is_caught(simulator, build_dir):
    inputs, output, expected = adder_streams(300)
    # Without back-pressure the fault never shows: the check below is not vacuous.
    clean = run(FAULTY, "add2_drops", inputs, output, simulator=simulator, build_dir=build_dir)
    np.testing.assert_array_equal(clean.words, expected)
    with pytest.raises(SimulationTimeout) as caught:
        run(FAULTY, "add2_drops", inputs, output, simulator=simulator, build_dir=build_dir,
            backpressure=0.3, seed=1, timeout_cycles=3000)
    error = caught.value
    assert error.taken < 300 and error.expected == 300
    assert f"add2_drops on {simulator} timed out after 3000 cycles" in str(error)
    assert f"delivered {error.taken} of 300 words" in str(error)
    assert error.run_dir.is_dir()


def test_a_design_that_repeats_words_is_caught(simulator, build_dir):
    inputs, output, _ = adder_streams(100)
    with pytest.raises(StreamProtocolError, match=r"delivered \d+ words beyond the expected 100"):
        run(FAULTY, "add2_doubles", inputs, output, simulator=simulator, build_dir=build_dir, bubbles=0.3)


def test_a_hung_design_hits_the_timeout_with_a_clear_message(simulator, build_dir):
    inputs, output, _ = adder_streams(100)
    with pytest.raises(SimulationTimeout) as caught:
        run(FAULTY, "add2_hangs", inputs, output, simulator=simulator, build_dir=build_dir, timeout_cycles=500)
    message = str(caught.value)
    assert "timed out after 500 cycles" in message
    assert "delivered 5 of 100 words" in message
    assert "input words accepted: 'a' 5 of 100, 'b' 5 of 100" in message
    assert "The design hung, or lost words" in message
    assert caught.value.words.tolist() == list(adder_streams(100)[2][:5])


def test_unconsumed_input_words_are_reported(build_dir):
    inputs, _, _ = adder_streams(100)
    short = OutputSpec("out", width=16, count=60)  # the adder takes all 100 pairs, but 40 sums are extra
    with pytest.raises(StreamProtocolError, match=r"delivered 40 words beyond the expected 60"):
        run(ADDERS, "add2", inputs, short, simulator="icarus", build_dir=build_dir)
    lopsided = dict(inputs, b=StreamSpec(inputs["b"].words[:60], width=16))
    with pytest.raises(StreamProtocolError, match=r"'a' accepted 60 of 100 words"):
        run(ADDERS, "add2", lopsided, short, simulator="icarus", build_dir=build_dir)


def test_a_verilog_error_is_a_build_error_with_the_log(tmp_path, build_dir):
    bad = tmp_path / "bad.v"
    bad.write_text("module add2(input wire clk;\nendmodule\n")
    inputs, output, _ = adder_streams(4)
    with pytest.raises(BuildError, match=r"icarus could not build 'add2'.*bad\.v[\s\S]*last lines of"):
        run([bad], "add2", inputs, output, simulator="icarus", build_dir=build_dir)


def test_words_that_do_not_fit_their_width_are_refused(build_dir):
    inputs, output, _ = adder_streams(4)
    wide = dict(inputs, a=StreamSpec(np.array([1, 2, 70000, 4]), width=16))
    with pytest.raises(ValueError, match=r"input stream 'a': word 2 = 70000 does not fit in 16 bits"):
        run(ADDERS, "add2", wide, output, simulator="icarus", build_dir=build_dir)


def test_a_run_must_match_the_interface_its_bench_was_built_for(build_dir):
    inputs, output, _ = adder_streams(8)
    bench = build(ADDERS, "add2", inputs, output, simulator="icarus", build_dir=build_dir)
    eight_bit = {name: StreamSpec(spec.words % 256, width=8) for name, spec in inputs.items()}
    with pytest.raises(ValueError, match=r"built for inputs a \(16b x1\).*passes inputs a \(8b x1\)"):
        bench.run(eight_bit, output)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"bubbles": 1.0}, r"bubbles is a probability per cycle in \[0, 1\)"),
    ({"backpressure": -0.1}, r"backpressure is a probability"),
    ({"seed": 1 << 40}, r"seed must fit in 32 bits"),
])
def test_run_settings_are_checked(build_dir, kwargs, message):
    inputs, output, _ = adder_streams(4)
    with pytest.raises(ValueError, match=message):
        run(ADDERS, "add2", inputs, output, simulator="icarus", build_dir=build_dir, **kwargs)


def test_output_spec_checks_its_count():
    with pytest.raises(ValueError, match=r"count 3 must be a positive multiple of lanes \(2\)"):
        OutputSpec("out", width=16, count=3, lanes=2)


def test_fixtures_are_where_the_tests_expect():
    assert (FIXTURES / "adders.v").is_file() and (FIXTURES / "faulty.v").is_file()
    assert isinstance(SimulationTimeout("x", None, taken=0, expected=1, accepted={}, limit=1), SimulationError)
