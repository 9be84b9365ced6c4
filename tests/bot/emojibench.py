"""What the application emojis cost a start-up: `python -m tests.bot.emojibench [--runs 7]`.

Through the real discord.py and the fake Discord, the median wall and CPU time of
`bot.discord_app.emojis.sync` on a first start (every icon drawn at 128 px and uploaded)
and on a later one (the emojis read, nothing uploaded), with the requests each makes.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.discord_app import emojis
from render import icon_set
from tests.bot.driver import make_bot
from tests.bot.fakediscord import FakeDiscord


async def measure(runs: int) -> dict[str, list[tuple[float, float, int]]]:
    found: dict[str, list[tuple[float, float, int]]] = {"first start": [], "later start": []}
    fake = FakeDiscord()
    with tempfile.TemporaryDirectory() as folder:
        bot = make_bot(Path(folder) / "m.sqlite3")
        try:
            await fake.start(bot)
            for _ in range(runs):
                for kind in found:
                    if kind == "first start":
                        fake.world.app_emojis.clear()
                        icon_set.png.cache_clear()
                    before = len(fake.world.recorded)
                    wall, cpu = time.perf_counter(), time.process_time()
                    await emojis.sync(bot)
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                    found[kind].append((wall, cpu, len(fake.world.recorded) - before))
        finally:
            await fake.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    for kind, samples in asyncio.run(measure(runs)).items():
        wall = statistics.median(s[0] for s in samples) * 1000
        cpu = statistics.median(s[1] for s in samples) * 1000
        requests = statistics.median(s[2] for s in samples)
        print(
            f"{kind}: wall {wall:.1f} ms, CPU {cpu:.1f} ms, "
            f"{requests:.0f} requests (median of {runs})"
        )


if __name__ == "__main__":
    main()
