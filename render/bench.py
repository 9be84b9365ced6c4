"""Benchmark: `python -m render.bench [--renders 30] [--moves 150] [--seed 3]`.

Renders a mid-game 4-player snapshot repeatedly (the static art is drawn once
before timing, as in a running bot) and prints the median, minimum and maximum
time per full PNG render, the median CPU time (less disturbed by other processes
sharing the machine) and the PNG's size. Targets: median <= 150 ms, <= 1.5 MB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from . import render_game
from .__main__ import play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render.bench", description=__doc__)
    parser.add_argument("--renders", type=int, default=30)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    if args.renders < 1:
        parser.error("--renders must be at least 1")
    game, last_build = play(4, args.seed, args.moves, final=False)
    started = time.perf_counter()
    png = render_game(game, highlight=last_build)
    first_ms = (time.perf_counter() - started) * 1000
    times = []
    cpu_times = []
    for _ in range(args.renders):
        started = time.perf_counter()
        cpu_started = time.process_time()
        png = render_game(game, highlight=last_build)
        cpu_times.append((time.process_time() - cpu_started) * 1000)
        times.append((time.perf_counter() - started) * 1000)
    print(
        f"4 players, {len(game.log)} actions in, {args.renders} renders: "
        f"median {statistics.median(times):.1f} ms, min {min(times):.1f} ms, "
        f"max {max(times):.1f} ms; CPU median {statistics.median(cpu_times):.1f} ms "
        f"(first render with static art: {first_ms:.0f} ms); "
        f"PNG {len(png) / 1024:.0f} KiB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
