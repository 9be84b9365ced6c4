"""Benchmark: `python -m render.bench [--renders 30] [--moves 150] [--seed 3] [--games 40]
[--language en]` (the pictures' language: en, fr, pl or ja).

Prints, for a mid-game 4-player snapshot:
- the median (min, max) wall time of a full render to PNG bytes, its CPU time, the
  PNG's size and the picture's size: what the bot pays after every move once the
  shared art is drawn. Targets: median <= 25 ms, PNG <= 600 KB;
- the first render in a fresh process (a subprocess: fonts loaded, every sprite and
  mask drawn), and the import beside it. Target: <= 250 ms;
- renders of `--games` different games in turn (2 to 4 players): the bot's case with
  many games at once, none of them drawn twice in a row;
- what the render caches hold after all that (bounded, shared by every game), and the
  process's peak memory;
- the run's total wall and CPU time (the machine is shared: CPU time is the steadier).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

from i18n import LANGUAGES
from rules import Game

from . import caches, render_game
from .__main__ import play

FRESH_PROCESS = """
import time
started = time.perf_counter()
import render
from render.__main__ import play
imported = time.perf_counter() - started
game, _ = play(4, {seed}, {moves}, final=False)
started, cpu_started = time.perf_counter(), time.process_time()
render.render_game(game, language={language!r})
wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
print(f"{{wall * 1000:.0f}} {{cpu * 1000:.0f}} {{imported * 1000:.0f}}")
"""


def _timed(
    games: list[Game], renders: int, language: str
) -> tuple[list[float], list[float], bytes]:
    """Wall and CPU milliseconds of `renders` renders cycling through `games`."""
    walls, cpus = [], []
    png = b""
    for i in range(renders):
        game = games[i % len(games)]
        started, cpu_started = time.perf_counter(), time.process_time()
        png = render_game(game, language=language)
        cpus.append((time.process_time() - cpu_started) * 1000)
        walls.append((time.perf_counter() - started) * 1000)
    return walls, cpus, png


def _first_render(seed: int, moves: int, language: str) -> tuple[int, int, int]:
    """(first render wall ms, its CPU ms, import ms) measured in a fresh Python process."""
    code = FRESH_PROCESS.format(seed=seed, moves=moves, language=language)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    wall, cpu, imported = result.stdout.split()
    return int(wall), int(cpu), int(imported)


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG's header."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render.bench", description=__doc__)
    parser.add_argument("--renders", type=int, default=30)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--games", type=int, default=40, help="different games drawn in turn")
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="the pictures' words")
    args = parser.parse_args(argv)
    if args.renders < 1 or args.games < 1:
        parser.error("--renders and --games must be at least 1")
    run_started, run_cpu_started = time.perf_counter(), time.process_time()

    first_ms, first_cpu_ms, import_ms = _first_render(args.seed, args.moves, args.language)
    game, _ = play(4, args.seed, args.moves, final=False)
    render_game(game, language=args.language)  # the shared art, as in a running bot
    walls, cpus, png = _timed([game], args.renders, args.language)
    width, height = _png_size(png)
    print(
        f"{args.language}: 4 players, {len(game.log)} actions in, {args.renders} renders: "
        f"median {statistics.median(walls):.1f} ms, min {min(walls):.1f} ms, "
        f"max {max(walls):.1f} ms; CPU median {statistics.median(cpus):.1f} ms; "
        f"PNG {len(png) / 1024:.0f} KiB, {width}x{height} px"
    )
    print(
        f"first render in a fresh process: {first_ms} ms, CPU {first_cpu_ms} ms "
        f"(import {import_ms} ms before it)"
    )

    many = [
        play(2 + i % 3, args.seed + 1 + i, args.moves // 2 + 7 * (i % 10), final=False)[0]
        for i in range(args.games)
    ]
    walls, cpus, _ = _timed(many, max(args.renders, args.games), args.language)
    print(
        f"{args.games} different games in turn: median {statistics.median(walls):.1f} ms, "
        f"max {max(walls):.1f} ms; CPU median {statistics.median(cpus):.1f} ms"
    )

    held = caches.memory()
    total = sum(size for _, size in held.values())
    budget = sum(cache.max_bytes for cache in caches.REGISTRY.values())
    parts = ", ".join(f"{name} {size / 2**20:.1f}" for name, (_, size) in held.items())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"render caches: {total / 2**20:.1f} MiB of at most {budget / 2**20:.0f} MiB "
        f"({parts}); process peak {peak:.0f} MiB"
    )
    print(
        f"run: wall {time.perf_counter() - run_started:.1f} s, "
        f"CPU {time.process_time() - run_cpu_started:.1f} s (this process)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
