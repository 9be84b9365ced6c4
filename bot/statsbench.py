"""Ratings and statistics at a server's scale: `python -m bot.statsbench`.

usage: python -m bot.statsbench [--games N] [--players N] [--samples N] [--ends N]
                                [--season-at F] [--db FILE|URL|postgres] [--seed N]

Fills a store with `--games` finished games (10,000) of `--players` players (200) in one
server, each written as a game's end writes it (`ratings.rated_game` then
`Store.save_rated_game`: the ranking of 2-4 players drawn by hidden skill, their answer
times and actions), a season started after the fraction `--season-at` of them (0.5; 1:
no season) and the games after it rated in it too, then measures what people wait for,
`--samples` times each:

* `leaderboard`: one page of `/montana leaderboard` for a random player and page
  (`stats.leaderboard_embed`: the reads, the 30 days' changes, the embed), of the
  current season (the default);
* `leaderboard all time`: the same with `period: all time`;
* `stats`: `/montana stats` of a random player without the chart (`stats_embed`), in the
  season; `stats all time`: of all time;
* `stats with chart`: the same with the rating's chart drawn (the season's);
* `game end`: the last move of a real game (played to one move before its end), saved
  with its rating, its season's rating, statistics and summary in one transaction
  (`--ends` games).

Prints one line each, `leaderboard: p50 N ms, p99 N ms`, with the aims of issue 22
(p99 <= 50 ms without the chart, <= 150 ms with it). `--db postgres` starts a throwaway
PostgreSQL server (as `python -m bot.bench` does; needs initdb, see tests/pgserver.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.community import ratings, seasons
from bot.core.community.seasons import ALL_TIME
from bot.discord_app.community.stats import leaderboard_embed, stats_embed
from i18n import Translator, translator
from rules import Action, Game, Result, Standing
from rules.simulate import choose_action

from .core.store import (
    FINISHED,
    LOBBY,
    GameRow,
    MoveRow,
    PlayerRating,
    RatedGame,
    RatingInputs,
    RatingTx,
    Seat,
    Store,
    open_store,
)

GUILD = 987_654_321_098_765_432
LEADERBOARD_AIM_MS = 50.0
CHART_AIM_MS = 150.0
VERBS = ("recruit", "bank", "harvest", "city", "build", "build", "place", "pass")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def line(name: str, seconds: list[float], aim_ms: float | None = None) -> str:
    p50, p99 = percentile(seconds, 0.5) * 1000, percentile(seconds, 0.99) * 1000
    text = f"{name}: p50 {p50:.1f} ms, p99 {p99:.1f} ms"
    if aim_ms is not None:
        text += f"  (aim p99 <= {aim_ms:.0f} ms: {'met' if p99 <= aim_ms else 'MISSED'})"
    return text


@dataclass(frozen=True)
class Ended:
    """A game's end as the fill writes it (what `ratings.rated_game` reads of a game)."""

    version: int
    turn_number: int
    ranking: Result

    def result(self) -> Result:
        return self.ranking


def synthetic_end(
    rng: random.Random, seats: list[Seat], skill: dict[str, float], ended: datetime
) -> tuple[Ended, list[tuple[MoveRow, str | None]]]:
    """A finished game of `seats`: places by skill and luck (a tie now and then), and
    the moves' times: each seat answers about 30 turns and 10 auctions."""
    scored = sorted(seats, key=lambda s: -(skill[s.user_id] + rng.gauss(0, 1.0)))
    standings: list[Standing] = []
    for index, seat in enumerate(scored):
        settlements = max(0, 12 - 2 * index + rng.randint(-1, 1))
        place = index + 1
        if standings and standings[-1].settlements == settlements and rng.random() < 0.1:
            place = standings[-1].place
        standings.append(Standing(seat.user_id, place, settlements, rng.randint(0, 4), 20))
    moves: list[tuple[MoveRow, str | None]] = []
    count = 40 * len(seats)
    at = ended - timedelta(seconds=count * 1800)
    for version in range(1, count + 1):
        seat = seats[version % len(seats)]
        at += timedelta(seconds=rng.lognormvariate(7.0, 1.2))
        verb = rng.choice(VERBS)
        moves.append((MoveRow(version, seat.user_id, verb, at.isoformat(timespec="seconds")), None))
    return Ended(count, 70 + rng.randint(0, 20), Result(True, standings)), moves


async def fill(store: Store, args: argparse.Namespace, rng: random.Random) -> list[Seat]:
    """`args.games` finished games of `args.players` players, rated in the order they ended."""
    players = [Seat(str(10**17 + n), f"Player {n:03}") for n in range(args.players)]
    skill = {p.user_id: rng.gauss(0, 1.5) for p in players}
    current: dict[str, PlayerRating] = {}
    start = datetime.now(UTC) - timedelta(days=365)
    step = timedelta(days=365) / args.games
    season_at = round(args.season_at * args.games)
    for index in range(args.games):
        if index == season_at:
            await seasons.start_season(store, GUILD, "Bench", "0", start + step * index)
        seats = rng.sample(players, rng.choice((2, 3, 3, 4, 4)))
        row = await store.create_lobby(
            guild_id=GUILD, channel_id=10_000 + index, thread_id=None, creator=seats[0]
        )
        await store.set_players(row.id, seats, expected=[seats[0]])
        await store.set_status(row.id, FINISHED, only_from=(LOBBY,))
        ended = start + step * index
        game, moves = synthetic_end(rng, seats, skill, ended)
        inputs = RatingInputs(
            moves, {s.user_id: current[s.user_id] for s in seats if s.user_id in current}
        )
        saved = await store.get(row.id)
        assert saved is not None
        rated = ratings.rated_game(
            saved, game, inputs, ended_at=ended.isoformat(timespec="seconds")
        )
        await store.in_transaction(functools.partial(save_both, rated=rated))
        current.update({p.player: p for p in rated.ratings})
        if (index + 1) % 1000 == 0:
            print(f"  filled {index + 1} games", file=sys.stderr, flush=True)
    return players


async def save_both(tx: RatingTx, rated: RatedGame) -> None:
    """A game's end as the bot writes it: its rating, then its season's."""
    await Store.save_rated_game(tx, rated)
    await seasons.rate_in_season(tx, rated.guild_id, rated.game_id)


async def timed(samples: int, work: Callable[[int], Awaitable[object]]) -> list[float]:
    seconds = []
    for index in range(samples):
        began = time.perf_counter()
        await work(index)
        seconds.append(time.perf_counter() - began)
    return seconds


def both_hooks(row: GameRow, game: Game, stamp: str) -> Callable[[RatingTx], Awaitable[None]]:
    """The end's writes of the installed hooks: the rating, then the season's."""
    rate, season = ratings.end_hook(row, game, ended_at=stamp), seasons.season_hook(row)

    async def write(tx: RatingTx) -> None:
        await rate(tx)
        await season(tx)

    return write


async def game_ends(
    store: Store, players: list[Seat], count: int, rng: random.Random
) -> list[float]:
    """The last move of `count` real games, each saved with its rating in one transaction."""
    seconds = []
    for index in range(count):
        seats = rng.sample(players, rng.choice((2, 3, 4)))
        row = await store.create_lobby(
            guild_id=GUILD, channel_id=50_000 + index, thread_id=None, creator=seats[0]
        )
        await store.set_players(row.id, seats, expected=[seats[0]])
        game = Game.new([s.user_id for s in seats], seed=index)
        await store.start(row.id, seats, game.to_dict(), game.log)
        last: tuple[str, Action] | None = None
        states = []
        play = random.Random(index)
        while not game.is_over:
            states.append(game.to_dict())
            last = choose_action(game, play)
            game.apply(*last)
        before = Game.from_dict(states[-1])
        started = await store.get(row.id)
        assert started is not None and last is not None
        await store.commit_move(
            row.id, started.version, before.to_dict(), before.version, before.log[started.version :]
        )
        saved = await store.get(row.id)
        assert saved is not None
        began = time.perf_counter()
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        await store.commit_move(
            row.id,
            saved.version,
            game.to_dict(),
            game.version,
            game.log[saved.version :],
            finished=True,
            at=stamp,
            at_end=both_hooks(saved, game, stamp),
        )
        seconds.append(time.perf_counter() - began)
    return seconds


async def measure(store: Store, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    began = time.perf_counter()
    players = await fill(store, args, rng)
    print(
        f"  filled {args.games} games of {args.players} players in "
        f"{time.perf_counter() - began:.0f} s",
        file=sys.stderr,
    )
    t = translator("en")
    # those who finished a game (a small --games leaves some players without one)
    played = await store.leaderboard(GUILD, min_games=1, offset=0, limit=len(players))
    known = {r.player for r in played}
    players = [p for p in players if p.user_id in known]
    size = await store.leaderboard_size(GUILD, min_games=ratings.PROVISIONAL_GAMES)
    pages = max(1, size // 10 + 1)

    async def board(index: int) -> object:
        user = rng.choice(players).user_id
        return await leaderboard_embed(store, GUILD, "Bench", user, rng.randint(1, pages), t)

    async def board_all_time(index: int) -> object:
        user = rng.choice(players).user_id
        return await leaderboard_embed(
            store, GUILD, "Bench", user, rng.randint(1, pages), t, period=ALL_TIME
        )

    # the season's players (a player without a game in it is refused, as in Discord)
    current = await store.current_season(GUILD)
    in_season = (
        {
            r.player
            for r in await store.season_leaderboard(
                GUILD, current.number, min_games=1, offset=0, limit=len(players)
            )
        }
        if current
        else known
    )
    season_players = [p for p in players if p.user_id in in_season]

    async def one_stats(index: int) -> object:
        user = rng.choice(season_players)
        return await stats_embed(store, GUILD, user.user_id, user.name, t, own=True, chart=False)

    async def stats_all_time(index: int) -> object:
        user = rng.choice(players)
        return await stats_embed(
            store, GUILD, user.user_id, user.name, t, own=True, chart=False, period=ALL_TIME
        )

    async def with_chart(index: int) -> object:
        user = rng.choice(season_players)
        return await stats_embed(store, GUILD, user.user_id, user.name, t, own=True, chart=True)

    for warm in (board, board_all_time, one_stats, stats_all_time, with_chart):
        await warm(0)
    leaderboard = await timed(args.samples, board)
    leaderboard_all = await timed(args.samples, board_all_time)
    plain = await timed(args.samples, one_stats)
    plain_all = await timed(args.samples, stats_all_time)
    charted = await timed(args.samples, with_chart)
    ends = await game_ends(store, players, args.ends, rng)
    rows = await store.results_of(GUILD, players[0].user_id)
    print(
        f"statsbench: {args.games} finished games, {args.players} players, one server "
        f"({size} on the leaderboard; {len(rows)} games of one player), "
        f"{args.samples} samples each, {args.ends} game ends"
    )
    print(line("leaderboard", leaderboard, LEADERBOARD_AIM_MS))
    print(line("leaderboard all time", leaderboard_all, LEADERBOARD_AIM_MS))
    print(line("stats", plain, LEADERBOARD_AIM_MS))
    print(line("stats all time", plain_all, LEADERBOARD_AIM_MS))
    print(line("stats with chart", charted, CHART_AIM_MS))
    print(line("game end", ends))
    print(f"  mean game end {statistics.fmean(ends) * 1000:.1f} ms")
    if args.show:
        await show(store, args.show, t)


async def show(store: Store, folder: str, t: Translator) -> None:
    """The README's pictures: the leaderboard's first page as Discord shows its embed
    (printed) and the chart of its third player's rating (`<folder>/stats-chart.png`)."""
    top = await store.leaderboard(GUILD, min_games=ratings.PROVISIONAL_GAMES, offset=0, limit=3)
    embed, _, _ = await leaderboard_embed(store, GUILD, "Bench", top[-1].player, 1, t)
    print(embed.title)
    print(embed.description)
    print(embed.footer.text)
    _, picture = await stats_embed(store, GUILD, top[-1].player, top[-1].name, t, own=True)
    assert picture is not None
    path = Path(folder) / "stats-chart.png"
    path.write_bytes(picture)
    print(f"wrote {path}")


async def run(args: argparse.Namespace) -> int:
    # the throwaway PostgreSQL server lives in the repository's tests, beside this package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as servers:
        db = args.db or str(Path(folder) / "statsbench.sqlite3")
        if args.db in ("postgres", "postgresql"):
            from tests.pgserver import ThrowawayPostgres

            server = servers.enter_context(ThrowawayPostgres(durable=True))
            db = server.create_database("statsbench")
        store = await open_store(db)
        try:
            print(
                f"store: {'PostgreSQL' if db.startswith('postgres') else 'SQLite'}",
                file=sys.stderr,
            )
            await measure(store, args)
        finally:
            await store.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="finished games (10,000)")
    parser.add_argument("--players", type=int, default=200, help="players of the server (200)")
    parser.add_argument("--samples", type=int, default=200, help="answers timed, each (200)")
    parser.add_argument("--ends", type=int, default=40, help="real game ends timed (40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--season-at",
        type=float,
        default=0.5,
        help="the share of the games after which a season starts (0.5; 1: no season)",
    )
    parser.add_argument(
        "--show", default=None, help="a folder: write the README's chart there, print a page"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="a SQLite file (default: a temporary one), a postgresql:// URL, or 'postgres'",
    )
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
