"""Benchmark of the replays through the real discord.py layer, Discord faked in-process.

    python -m bot.replaybench [--players 4] [--seed 1] [--presses 60] [--processes 2]

A game is played to its end by the random policy (saved as moves are), then:
- the step view (`/montana game replay step:True`) is opened and pressed `--presses`
  times (▶, ◀, ⏭, ⏮ and the "go to turn" select, at random): the time from a press to
  the bot's answer carrying that turn's picture — what the presser waits for — as
  median, 99th percentile and max (aim: p99 <= 300 ms). The first press of a fresh
  bot is given apart (its picture worker draws the shared art once);
  Each turn's picture is drawn once (issue 35.4) and kept beside the games (issue 37.3):
  printed, how many presses drew and how many were served kept. The members' limit on
  replays and steps a minute (`limits.PictureRate`) is lifted for the bench;
- the animated replay (`/montana game replay`), from the command to the GIF: wall time,
  frames and size, the picture workers' CPU per frame and their peak memory (issue 37.5;
  with `--processes 0` the drawing thread's CPU is this process's).
The pictures are drawn in `--processes` worker processes as in the bot (0: a thread).
Printed with the run's wall and CPU time (this process; the workers' CPU is apart).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

from bot.core.server.limits import Limits, PictureRate
from bot.core.server.settings import Settings
from rules.simulate import choose_action

from .discord_app.client import MontanaBot


class _Unlimited(PictureRate):
    """No limit: the bench presses faster than a member may."""

    def allowed(self, limits: Limits) -> int:
        return 1 << 30


def _workers(bot: MontanaBot) -> list[int]:
    """The picture workers' process ids (none when drawing in a thread)."""
    pool = bot._pictures.executor if bot._pictures is not None else None
    processes = getattr(pool, "_processes", None) or {}
    return [int(pid) for pid in processes]


def _cpu_of(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each of these processes so far (/proc/<pid>/stat)."""
    seconds = {}
    for pid in pids:
        text = Path(f"/proc/{pid}/stat").read_text()
        fields = text[text.rindex(")") + 2 :].split()
        seconds[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


def _peak_mib(pids: list[int]) -> float:
    """The highest peak resident memory (VmHWM) among these processes, in MiB."""
    peaks = [0]
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peaks.append(int(line.split()[1]))
    return max(peaks) / 1024


async def _run(players: int, seed: int, presses: int, processes: int) -> None:
    from tests.bot.driver import Table, open_game, original
    from tests.bot.fakediscord import FakeDiscord

    fake = FakeDiscord()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            token=None, db_path=str(Path(folder) / "bench.sqlite3"), picture_processes=processes
        )
        bot = MontanaBot(settings, seed_source=random.Random(seed))
        bot.picture_rate = _Unlimited()
        try:
            await fake.start(bot)
            table = Table(fake, bot)
            names = ["ana", "ben", "cleo", "dan"][:players]
            game_id, thread, _ = await open_game(fake, table, fake.channel, *names)
            row, game = await table.game(game_id)
            rng = random.Random(seed)
            while not game.is_over:
                game.apply(*choose_action(game, rng))
            await bot.store.commit_move(
                game_id,
                row.version,
                game.to_dict(),
                game.version,
                game.log[row.version :],
                finished=True,
            )
            user = next(iter(table.users.values()))
            shelf = bot.replays.shelf
            before = (shelf.drawn, shelf.served) if shelf is not None else (0, 0)
            started = time.perf_counter()
            opened = await fake.slash(
                user, thread, "montana", "game", "replay", options={"step": True}
            )
            first_ms = (time.perf_counter() - started) * 1000
            view = original(opened)
            waits = []
            for _ in range(presses):
                choice = rng.choice(("▶", "◀", "⏭", "⏮", "select"))
                started = time.perf_counter()
                if choice == "select":
                    select = next(c for c in view.interactive_components() if c.get("type") == 3)
                    value = rng.choice([o["value"] for o in select["options"]])
                    result = await fake.select(user, view, select["custom_id"], [value])
                elif choice in view.button_labels() and not any(
                    c.get("disabled")
                    for c in view.interactive_components()
                    if c.get("label") == choice
                ):
                    result = await fake.press(user, view, label=choice)
                else:
                    continue
                waits.append((time.perf_counter() - started) * 1000)
                assert result.response_type == 7 and view.files, result
            drawn, served = (shelf.drawn - before[0], shelf.served - before[1]) if shelf else (0, 0)
            waits.sort()
            p99 = waits[min(len(waits) - 1, round(0.99 * (len(waits) - 1)))]
            median = statistics.median(waits)
            print(
                f"step view, {players} players, {game.turn_number} turns: first answer "
                f"{first_ms:.0f} ms; {len(waits)} presses: median {median:.0f} ms, "
                f"p99 {p99:.0f} ms, max {waits[-1]:.0f} ms (aim: p99 <= 300 ms); "
                f"{drawn} pictures drawn, {served} served kept"
            )
            workers_before = _cpu_of(_workers(bot))
            cpu_before = time.process_time()
            started = time.perf_counter()
            posted = await fake.slash(user, thread, "montana", "game", "replay", timeout=120)
            gif = original(posted).files["montana-replay.gif"]
            frames = getattr(Image.open(io.BytesIO(gif)), "n_frames", 1)
            said = [str(edit.get("content")) for edit in posted.edits]
            progress = [text.rsplit("… ", 1)[-1] for text in said if "replay…" in text]
            seconds = time.perf_counter() - started
            workers = _workers(bot)
            if workers:
                cpu = sum(
                    seconds - workers_before.get(pid, 0.0)
                    for pid, seconds in _cpu_of(workers).items()
                )
                peak = _peak_mib(workers)
                whose = f"the picture workers ({len(workers)})"
            else:
                cpu = time.process_time() - cpu_before
                peak = _peak_mib([os.getpid()])
                whose = "this process (drawing in a thread)"
            print(
                f"animated replay through the bot: {seconds:.2f} s wall, {frames} frames, "
                f"{len(gif) / 2**20:.2f} MiB; progress shown: {', '.join(progress)}"
            )
            print(
                f"  CPU of {whose}: {cpu:.2f} s, {cpu / max(1, frames) * 1000:.1f} ms per "
                f"frame (aim <= 12 ms); peak memory {peak:.0f} MiB RSS (aim <= 200 MiB)"
            )
        finally:
            await fake.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.replaybench", description=__doc__)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--processes", type=int, default=2, help="picture workers (0: a thread)")
    args = parser.parse_args(argv)
    started, cpu_started = time.perf_counter(), time.process_time()
    asyncio.run(_run(args.players, args.seed, args.presses, args.processes))
    print(
        f"run: wall {time.perf_counter() - started:.1f} s, "
        f"CPU {time.process_time() - cpu_started:.1f} s (this process)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
