"""`python -m bot.webbench`: open live pages while moves are saved (issue 28).

Opens `--pages` event streams spread over `--games` started games (a SQLite store in a
temporary folder, the web application served on a local port in this process), then
saves `--moves` moves one after another (`Store.commit_move`, as the bot saves them) and
measures, for every open page, the time from a move's save to its event on the page.
Prints the median and p99 of that delay, the versions reads made (one statement per
poll for every watched game), and this process's CPU time per move and peak memory
(the web side only: no picture is drawn, the pages are told of the moves).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import socket
import statistics
import tempfile
import time
from pathlib import Path

from aiohttp import ClientSession, ClientTimeout, TCPConnector

from rules import Game
from rules.simulate import choose_action

from .core.store import Seat, Store, open_store
from .web.app import WATCHER, make_app
from .web.serve import start_site


async def _started(store: Store, index: int) -> tuple[int, Game]:
    ana, ben = Seat(f"1{index}", "Ana"), Seat(f"2{index}", "Ben")
    row = await store.create_lobby(
        guild_id=None, channel_id=100 + index, thread_id=None, creator=ana
    )
    await store.set_players(row.id, [ana, ben], expected=[ana])
    game = Game.new([ana.user_id, ben.user_id], seed=index)
    await store.start(row.id, [ana, ben], game.to_dict(), game.log)
    return row.id, game


async def _follow(
    http: ClientSession, url: str, seen: dict[str, float], ready: asyncio.Event
) -> None:
    async with http.get(url) as stream:
        async for line in stream.content:
            text = line.decode().strip()
            if text.startswith("data: "):
                seen.setdefault(text[6:], time.perf_counter())
                ready.set()


async def bench(games: int, pages: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(str(Path(folder) / "bench.sqlite3"))
        try:
            played = [await _started(store, i) for i in range(games)]
            tokens = [await store.web_token(game_id) for game_id, _ in played]
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            app = make_app(store)
            runner = await start_site(app, "127.0.0.1", port)
            seen: list[dict[str, float]] = [{} for _ in range(pages)]
            readies = [asyncio.Event() for _ in range(pages)]
            async with ClientSession(
                timeout=ClientTimeout(total=None), connector=TCPConnector(limit=0)
            ) as http:
                followers = [
                    asyncio.create_task(
                        _follow(
                            http,
                            f"http://127.0.0.1:{port}/g/{tokens[page % games]}/events",
                            seen[page],
                            readies[page],
                        )
                    )
                    for page in range(pages)
                ]
                await asyncio.gather(*(ready.wait() for ready in readies))
                rng = random.Random(1)
                saved: list[tuple[int, str, float]] = []
                cpu_before = time.process_time()
                polls_before = app[WATCHER].polls
                for move in range(moves):
                    index = move % games
                    game_id, game = played[index]
                    before = game.version
                    pid, action = choose_action(game, rng)
                    game.apply(pid, action)
                    await store.commit_move(
                        game_id, before, game.to_dict(), game.version, game.log[before:]
                    )
                    saved.append((index, f"{game.version}-0", time.perf_counter()))
                    await asyncio.sleep(0.25)
                await asyncio.sleep(2.5)
                cpu = time.process_time() - cpu_before
                polls = app[WATCHER].polls - polls_before
                for follower in followers:
                    follower.cancel()
                await asyncio.gather(*followers, return_exceptions=True)
            await runner.cleanup()
        finally:
            await store.close()
    delays: list[float] = []
    missed = 0
    for page in range(pages):
        for index, mark, at in saved:
            if index != page % games:
                continue
            arrived = seen[page].get(mark)
            if arrived is None:
                missed += 1  # a later move's event came first (both within one poll)
            else:
                delays.append(arrived - at)
    delays.sort()
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] if delays else float("nan")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{pages} live pages on {games} games, {moves} moves saved: a page sees a move "
        f"median {statistics.median(delays):.3f} s, p99 {p99:.3f} s "
        f"({len(delays)} deliveries, {missed} folded into a later move)"
    )
    print(
        f"versions reads: {polls} (one statement each for every watched game); "
        f"CPU {cpu / moves * 1000:.1f} ms per move (this process: pages + saving); "
        f"peak memory {peak:.0f} MiB"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.webbench", description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40)
    options = parser.parse_args(argv)
    asyncio.run(bench(options.games, options.pages, options.moves))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
