"""`python -m bot.tourneybench` prints issue 40's timings of the seating and the standings
(a small run; the times are printed, not asserted)."""

from __future__ import annotations

import re

import pytest

from bot import tourneybench


def test_a_small_run_prints_each_calls_wall_and_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "14", "--rounds", "3", "--swisses", "2", "--samples", "5"]
    assert tourneybench.main(argv) == 0
    out = capsys.readouterr().out
    assert re.search(r"^tourneybench: 2 Swisses of 14 players, 3 rounds of tables of 3,4, ", out)
    for name, calls in (("seat_round", 6), ("standings", 5)):
        assert re.search(
            rf"^{name}: wall p50 [0-9.]+ ms, p99 [0-9.]+ ms; CPU p50 [0-9.]+ ms, "
            rf"p99 [0-9.]+ ms \({calls} calls\)",
            out,
            re.MULTILINE,
        ), name
