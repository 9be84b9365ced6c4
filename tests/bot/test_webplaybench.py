"""`python -m bot.webbench --play` runs and prints the figures it promises (issue 38):
tap -> picture shown on the tapping page, and the Discord press -> picture posted with
and without the taps. Never judged here: the figures are for people comparing runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_play_bench_taps_on_the_pages_beside_presses_and_prints_its_figures() -> None:
    done = subprocess.run(
        [
            sys.executable, "-m", "bot.webbench", "--play", "--games", "2", "--pages", "4",
            "--pressed", "1", "--moves", "2", "--pairs", "1", "--think", "0.05",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    figure = r"median [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms"
    # every tap of both games (2 moves each in the round with taps) seen on its page
    assert re.search(rf"tap -> picture shown on the tapping page: {figure} \(4 taps\)", out), out
    assert re.search(rf"press -> picture posted, rounds without taps: {figure}", out), out
    assert re.search(rf"press -> picture posted, rounds with taps: {figure}", out), out
    assert re.search(r"CPU per move, rounds with taps: median [\d.]+ ms", out), out
    assert re.search(r"ran [\d.]+ s wall, [\d.]+ s CPU", out), out
    assert "problems" not in out
