"""Benchmark: `python -m render.bench [--renders 30] [--moves 150] [--seed 3] [--games 40]
[--language en] [--replay-players 4 --replay-seed 1444 | --no-replay] [--against DIR]`
(the pictures' language: en, fr, pl or ja).

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
- a whole replay of a long game (by default a random 4-player game of 323 turns), in a
  fresh process: the median wall and CPU time of a frame (drawn, reduced, kept), the
  replay's total, the GIF's size and the process's peak memory (issue 37: at most
  12 ms of CPU a frame, 200 MiB whatever the game's length); then, in the same process
  (warm, as the bot's picture workers are), the whole replays of a 111-turn and a
  248-turn game: their CPU time and a frame's median (issue 37: at most 1.5 s and
  3.5 s, 12 ms a frame);
- with `--against DIR` (a checkout of another version, e.g. main's), the snapshot's and
  the replay's figures of both versions measured in the same run, each in fresh
  processes taking turns, so that both see the same load; the snapshot both ways: the
  same picture again and again, and the picture after each of `--renders` moves in
  turn (what the bot draws: most of a picture is as the move before left it; aim
  median <= 12 ms, issue 37.4);
- the run's total wall and CPU time (the machine is shared: CPU time is the steadier).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


REPLAY_PROCESS = """
import json, resource, statistics, sys, time
from pathlib import Path
from render.__main__ import play
from render.replay import render_replay
{peak_source}
AIM_SEEDS = {aim_seeds}
game, _ = play({players}, {seed}, 0, final=True)
walls, cpus = [], []
last = [time.perf_counter(), time.process_time()]
def step(part):
    wall, cpu = time.perf_counter(), time.process_time()
    walls.append((wall - last[0]) * 1000)
    cpus.append((cpu - last[1]) * 1000)
    last[:] = [wall, cpu]
started, cpu_started = time.perf_counter(), time.process_time()
result = render_replay(game, progress=step)
wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
frame_wall, frame_cpu = statistics.median(walls[1:]), statistics.median(cpus[1:])
aims = []
for seed in AIM_SEEDS:
    aimed, _ = play(4, seed, 0, final=True)
    walls, cpus = [], []
    last[:] = [time.perf_counter(), time.process_time()]
    cpu_started = time.process_time()
    aimed_frames = render_replay(aimed, progress=step).frames
    aims.append([aimed_frames, time.process_time() - cpu_started, statistics.median(cpus)])
print(json.dumps({{
    "frames": result.frames, "bytes": len(result.gif), "scale": result.scale,
    "wall": wall, "cpu": cpu, "frame_wall": frame_wall, "frame_cpu": frame_cpu,
    "peak": peak_mib(), "aims": aims,
}}))
"""
AIM_SEEDS = (4, 3)
"""Random 4-player games of 111 and 248 turns: issue 37's aims are a 110-turn replay in
at most 1.5 s of CPU and a 250-turn one in 3.5 s. Each is replayed after the long game,
in the same process: warm, as in the bot's picture workers, which draw every game's
move pictures."""

SNAPSHOT_PROCESS = """
import json, statistics, time
import render
from render.__main__ import play
from rules import Game
game, _ = play(4, {seed}, {moves}, final=False)
render.render_game(game, language={language!r})
walls, cpus = [], []
for _ in range({renders}):
    started, cpu_started = time.perf_counter(), time.process_time()
    png = render.render_game(game, language={language!r})
    cpus.append((time.process_time() - cpu_started) * 1000)
    walls.append((time.perf_counter() - started) * 1000)
played, _ = play(4, {seed}, 0, final=True)
record = played.record()
replayed = Game.replay_start(record)
moves = []
for index, (player, notation) in enumerate(record["actions"][: {moves} + {renders} + 1]):
    replayed.replay_action(player, notation)
    if index >= {moves}:
        moves.append(Game.from_dict(json.loads(json.dumps(replayed.to_dict()))))
render.render_game(moves[0], language={language!r})
move_cpus, sizes = [], []
for state in moves[1:]:
    cpu_started = time.process_time()
    sizes.append(len(render.render_game(state, language={language!r})))
    move_cpus.append((time.process_time() - cpu_started) * 1000)
print(json.dumps({{
    "wall": statistics.median(walls), "cpu": statistics.median(cpus), "png": len(png),
    "moves_cpu": statistics.median(move_cpus), "moves_png": statistics.median(sizes),
}}))
"""


def peak_mib() -> float:
    """This process's peak memory in MiB: the kernel's high-water mark of its memory
    (`VmHWM`, Linux), else `ru_maxrss` (which on Linux also counts a parent's memory as
    it was when this process was started)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def _source(function: Callable[[], float]) -> str:
    """A function's source, for a child process that runs another version's code."""
    return inspect.getsource(function)


def _child(code: str, path: str | None) -> dict[str, Any]:
    """The JSON figures `code` prints, run in a fresh process (with `path` first on
    PYTHONPATH: another version of the code)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
        env=env,
        cwd=path,
    )
    figures: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    return figures


def _replay_line(label: str, runs: list[dict[str, Any]]) -> str:
    def median(key: str) -> float:
        return float(statistics.median(run[key] for run in runs))

    aims = "; ".join(
        f"{int(runs[0]['aims'][i][0]) - 1}-turn game CPU "
        f"{statistics.median(run['aims'][i][1] for run in runs):.2f} s "
        f"(a frame {statistics.median(run['aims'][i][2] for run in runs):.1f} ms)"
        for i in range(len(runs[0]["aims"]))
    )
    return (
        f"{label}replay of {int(runs[0]['frames'])} frames (scale {runs[0]['scale']:.2f}, "
        f"{runs[0]['bytes'] / 2**20:.2f} MiB): a frame median wall {median('frame_wall'):.1f} ms, "
        f"CPU {median('frame_cpu'):.1f} ms; whole replay wall {median('wall'):.1f} s, "
        f"CPU {median('cpu'):.1f} s; peak memory {median('peak'):.0f} MiB; then warm: {aims}"
        f" ({len(runs)} run{'s' if len(runs) > 1 else ''}, medians)"
    )


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
    parser.add_argument("--replay-players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument(
        "--replay-seed", type=int, default=1444, help="the replayed random game (1444: 323 turns)"
    )
    parser.add_argument("--replay-runs", type=int, default=1, help="replays per version")
    parser.add_argument("--no-replay", action="store_true", help="skip the replay")
    parser.add_argument(
        "--against", type=Path, help="another checkout (e.g. main's) measured alike beside this one"
    )
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

    if args.against is not None:
        here = str(Path(__file__).resolve().parent.parent)
        pair = [("this: ", here), (f"{args.against}: ", str(args.against.resolve()))]
        code = SNAPSHOT_PROCESS.format(
            seed=args.seed, moves=args.moves, language=args.language, renders=args.renders
        )
        snapshots: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in pair}
        for _ in range(3):
            for label, path in pair:
                snapshots[label].append(_child(code, path))
        for label, runs in snapshots.items():
            print(
                f"{label}snapshot to PNG, {args.renders} renders x 3 processes: median of medians "
                f"wall {statistics.median(r['wall'] for r in runs):.1f} ms, "
                f"CPU {statistics.median(r['cpu'] for r in runs):.1f} ms, "
                f"PNG {runs[0]['png'] / 1024:.0f} KiB; each of {args.renders} moves in turn "
                f"(actions {args.moves + 1}-{args.moves + args.renders}, the bot's case): "
                f"CPU {statistics.median(r['moves_cpu'] for r in runs):.1f} ms, "
                f"PNG {statistics.median(r['moves_png'] for r in runs) / 1024:.0f} KiB"
            )
    if not args.no_replay:
        code = REPLAY_PROCESS.format(
            players=args.replay_players,
            seed=args.replay_seed,
            peak_source=_source(peak_mib),
            aim_seeds=AIM_SEEDS,
        )
        versions: list[tuple[str, str | None]] = [("", None)]
        if args.against is not None:
            here = str(Path(__file__).resolve().parent.parent)
            versions = [("this: ", here), (f"{args.against}: ", str(args.against.resolve()))]
        replays: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in versions}
        for _ in range(max(1, args.replay_runs)):
            for label, where in versions:
                replays[label].append(_child(code, where))
        for label, runs in replays.items():
            print(_replay_line(label, runs))

    held = caches.memory()
    total = sum(size for _, size in held.values())
    budget = sum(cache.max_bytes for cache in caches.REGISTRY.values())
    parts = ", ".join(f"{name} {size / 2**20:.1f}" for name, (_, size) in held.items())
    peak = peak_mib()
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
