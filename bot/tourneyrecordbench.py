"""A tournament's record read at scale: `python -m bot.tourneyrecordbench`.

usage: python -m bot.tourneyrecordbench [--players N] [--rounds N] [--samples N] [--db FILE|URL]

Fills a store (a temporary SQLite file by default) with a Swiss of `--players` (200)
over `--rounds` (7) rounds at tables of 4, every table opened as a game and finished
(its outcome written), then measures, `--samples` times (200), what
`/montana-tournament standings`, the web page and every pass of the rounds read before
the pure functions: `Store.tournament_record` and `tournaments.played_of`; and, once
the pure functions are built, the whole standings (`tournaments.standings_of` on the
record read). Prints p50 and p99 wall time and the median CPU time of each (issue 40:
standings p99 <= 50 ms for a 200-player Swiss of 7 rounds).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.core.community import tournaments
from bot.core.store import Seat, Store, open_store, stamp_of
from bot.core.store.tournaments import RUNNING, SIGNUP, TournamentRow, outcome_json

GUILD = 1 << 22


async def fill(store: Store, players: int, rounds: int, seed: int = 1) -> int:
    rng = random.Random(seed)
    moment = stamp_of(datetime.now(UTC))
    setup = TournamentRow(
        id=0,
        guild_id=GUILD,
        name="Bench",
        format="swiss",
        table_sizes=(4,),
        rounds=rounds,
        advance=1,
        group_size=4,
        pace="normal",
        language="en",
        signup_until=None,
        max_players=None,
        status=SIGNUP,
        organiser_id="1",
        channel_id=10,
        message_id=None,
        created_at=moment,
        started_at=None,
        ended_at=None,
        champion_id=None,
    )
    tournament = await store.create_tournament(setup)
    ids = [str(1000 + n) for n in range(players)]
    for user_id in ids:
        await store.join_tournament(tournament, Seat(user_id, f"p{user_id}"), moment)
    await store.set_tournament_status(tournament, RUNNING, only_from=(SIGNUP,), at=moment)
    channel = 10_000
    for number in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        tables = [order[i : i + 4] for i in range(0, len(order) - len(order) % 4, 4)]
        await store.record_round(tournament, number, tables, order[len(tables) * 4 :])
        for index, table in enumerate(tables, start=1):
            channel += 1
            row = await store.open_tournament_table(
                GUILD,
                tournament,
                number,
                index,
                [Seat(p, f"p{p}") for p in table],
                channel_id=channel,
                thread_id=channel,
                language="en",
                turn_seconds=3600,
                auction_seconds=1800,
            )
            assert row is not None
            places = list(range(1, len(table) + 1))
            rng.shuffle(places)
            await store.set_table_outcome(
                row.id, outcome_json(places, [rng.randrange(4, 12) for _ in table])
            )
            await store.set_status(row.id, "finished", only_from=("lobby",))
    return tournament


async def measure(name: str, samples: int, work: Callable[[], Awaitable[object]]) -> None:
    walls, cpus = [], []
    for _ in range(samples):
        wall, cpu = time.perf_counter(), time.process_time()
        await work()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    walls.sort()
    p99 = walls[min(len(walls) - 1, round(0.99 * (len(walls) - 1)))]
    print(
        f"{name}: p50 {statistics.median(walls):.1f} ms, p99 {p99:.1f} ms wall; "
        f"CPU median {statistics.median(cpus):.1f} ms"
    )


async def main(players: int, rounds: int, samples: int, db: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(db or str(Path(folder) / "bench.sqlite3"))
        try:
            tournament = await fill(store, players, rounds)
            print(f"{players} players, {rounds} rounds of tables of 4 ({db or 'SQLite file'})")

            async def read() -> object:
                record = await store.tournament_record(tournament)
                assert record is not None
                return tournaments.played_of(record)

            await measure("record read", samples, read)
            record = await store.tournament_record(tournament)
            assert record is not None
            try:
                tournaments.standings_of(record)
            except NotImplementedError:
                print("standings: the pure functions are not built yet")
                return

            async def whole() -> object:
                found = await store.tournament_record(tournament)
                assert found is not None
                return tournaments.standings_of(found)

            await measure("standings (read + pure)", samples, whole)
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bot.tourneyrecordbench")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--db", default=None)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.rounds, arguments.samples, arguments.db))
