"""`python -m bot.statsbench` prints the lines issue 22 asks for, and the seasons' all-time
ones (issue 40), in a small run."""

from __future__ import annotations

import re

import pytest

from bot import statsbench


def test_a_small_run_prints_each_answers_p50_and_p99(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        statsbench.main(["--games", "80", "--players", "12", "--samples", "3", "--ends", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "statsbench: 80 finished games, 12 players, one server" in out
    names = ("leaderboard", "leaderboard all time", "stats", "stats all time", "stats with chart")
    for name in (*names, "game end"):
        assert re.search(rf"^{name}: p50 [0-9.]+ ms, p99 [0-9.]+ ms", out, re.MULTILINE), name
