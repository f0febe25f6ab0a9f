"""The share of a breadth family's cases that run on Verilator too (tests/flow/simulator_share.py)."""

from simulator_share import SHARE, on_verilator


def test_the_share_is_stable_and_about_one_in_share(monkeypatch):
    monkeypatch.delenv("MAINSPRING_EVERY_SIMULATOR", raising=False)
    names = [f"probe{n}-case_{k}" for n in range(10) for k in range(40)]
    picked = [n for n in names if on_verilator(n)]
    assert picked == [n for n in names if on_verilator(n)]  # the same cases every run: a hash, not a draw
    assert 0.6 / SHARE < len(picked) / len(names) < 1.4 / SHARE, len(picked)


def test_every_case_runs_on_verilator_when_asked(monkeypatch):
    monkeypatch.setenv("MAINSPRING_EVERY_SIMULATOR", "1")
    assert all(on_verilator(f"case_{k}") for k in range(50))
