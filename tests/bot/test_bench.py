"""`python -m bot.bench` runs and prints the figures it promises (never judged here: the
figures are for people comparing runs, the suite only checks they are measured)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("where", ["in-process", "process"])
def test_the_bench_prints_latencies_cpu_memory_and_its_own_run_time(where: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.bench", "--games", "2", "--moves", "4", "--bot", where],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "pictures all real" in out
    figure = r"median [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms"
    assert re.search(rf"press -> first answer: +{figure}", out)
    # every move's picture was seen arriving at the fake Discord
    assert re.search(rf"press -> picture posted: {figure} \(8 of 8 moves\)", out)
    assert re.search(r"channel requests: \d+, [\d.]+ per saved move", out)
    assert re.search(r"CPU while playing: [\d.]+ s, [\d.]+ ms per move; peak memory \d+ MiB", out)
    assert re.search(r"ran [\d.]+ s wall, [\d.]+ s CPU \(this process [\d.]+ s, child", out)
