"""The store's part of ratings and statistics (`bot.core.community.ratings`), mixed into `Store`.

A game's end writes, in its own transaction (`rating_inputs` then `save_rated_game`,
given the transaction the move or the vote is saved in): the server's row first (on
PostgreSQL the row lock makes two game ends of one server rate one after the other), the
game marked in `rated_games` (a second attempt finds it and writes nothing), each seat's
row of `game_results` and each player's new rating in `ratings`. Every answer reads
those rows: no move is scanned at query time.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from .drawn import FORGET_DRAWN
from .model import ENDED, FINISHED, MoveRow, OwedMessage, stamp_of
from .parts import Row, StoreParts, guarded

T = TypeVar("T")


class RatingTx(Protocol):
    """An open transaction (`base.Tx`)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


AI_LEVEL_PREFIX = "ai-level:"
"""A rating's player id for an AI level (`ai-level:normal`): never a Discord id."""
FORGOTTEN_NAME = "(a former player)"
"""The name a player who asked to be forgotten keeps in finished games' records."""


@dataclass(frozen=True)
class PlayerRating:
    """A player's (or an AI level's) rating on one server."""

    player: str
    name: str
    mu: float
    sigma: float
    rating: int
    """The number shown (`bot.core.community.ratings.shown`)."""
    games: int
    wins: int
    streak: int
    """Wins in a row up to the last game."""
    best_streak: int
    last_game_at: str


@dataclass(frozen=True)
class SeatResult:
    """One seat of one finished game, as its end recorded it."""

    game_id: int
    seat: str
    """The engine's player id (`ai:1` for an AI seat)."""
    player: str
    """Whose rating and statistics: the Discord id, or `ai-level:<level>`."""
    name: str
    place: int
    seats: int
    settlements: int
    quit: bool
    """Placed last as the overdue player of a game ended by a vote."""
    finished: bool
    """The game reached its end (False: ended early by a vote)."""
    ai_moves: int
    """Moves the AI made for this person's seat."""
    rated: bool
    rating_before: int | None
    rating_after: int | None
    answers: tuple[int, ...]
    """Seconds they took to answer their turn, each time it came to them."""
    auction_answers: tuple[int, ...]
    """Seconds they took to answer a city auction."""
    actions: dict[str, int]
    """Main actions chosen: verb -> how many times."""
    turns: int
    game_seconds: int
    started_at: str
    ended_at: str


@dataclass(frozen=True)
class RatingInputs:
    """What a game's rating reads inside its transaction."""

    moves: list[tuple[MoveRow, str | None]]
    """The game's moves with their notes (`forced`, `advance`, `ai`), in order."""
    ratings: dict[str, PlayerRating]
    """The current ratings of the game's players who have one."""
    aways: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Each player's times away (since, back; back "" while still away) that ended
    after the game's first move."""


@dataclass(frozen=True)
class RatedGame:
    """What a game's end writes."""

    game_id: int
    guild_id: int | None
    rated: bool
    results: Sequence[SeatResult]
    ratings: Sequence[PlayerRating]
    owed: Sequence[OwedMessage]
    version: int


@dataclass(frozen=True)
class ServerRecord:
    """One record of a server: who (or which game) holds it, and the figure."""

    player: str
    name: str
    game_id: int | None
    value: int


def _rating(row: Row) -> PlayerRating:
    return PlayerRating(
        player=row["player"],
        name=row["name"],
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        rating=int(row["rating"]),
        games=int(row["games"]),
        wins=int(row["wins"]),
        streak=int(row["streak"]),
        best_streak=int(row["best_streak"]),
        last_game_at=row["last_game_at"],
    )


def _result(row: Row) -> SeatResult:
    return SeatResult(
        game_id=int(row["game_id"]),
        seat=row["seat"],
        player=row["player"],
        name=row["name"],
        place=int(row["place"]),
        seats=int(row["seats"]),
        settlements=int(row["settlements"]),
        quit=bool(row["quit"]),
        finished=bool(row["finished"]),
        ai_moves=int(row["ai_moves"]),
        rated=bool(row["rated"]),
        rating_before=row["rating_before"],
        rating_after=row["rating_after"],
        answers=tuple(json.loads(row["answers"])),
        auction_answers=tuple(json.loads(row["auction_answers"])),
        actions=dict(json.loads(row["actions"])),
        turns=int(row["turns"]),
        game_seconds=int(row["game_seconds"]),
        started_at=row["started_at"],
        ended_at=row["ended_at"],
    )


_VISIBLE = (
    f"player NOT LIKE '{AI_LEVEL_PREFIX}%' "
    "AND player NOT IN (SELECT user_id FROM stats_prefs WHERE hidden = 1)"
)
"""People only (no AI level), and none who hid their statistics."""


RATING_COLUMNS = (
    "player",
    "name",
    "mu",
    "sigma",
    "rating",
    "games",
    "wins",
    "streak",
    "best_streak",
    "last_game_at",
)
"""A player's rating as `ratings` and `season_ratings` store it, after their keys."""


def rating_upsert(table: str, keys: tuple[str, ...]) -> str:
    """The statement writing a player's rating into `table`, whose rows are keyed by
    `keys` and the player: its values are the keys', then `rating_values`."""
    columns = (*keys, *RATING_COLUMNS)
    marks = ", ".join("?" for _ in columns)
    updated = ", ".join(f"{c} = excluded.{c}" for c in RATING_COLUMNS[1:])
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
        f"ON CONFLICT ({', '.join((*keys, 'player'))}) DO UPDATE SET {updated}"
    )


def rating_values(p: PlayerRating) -> tuple[Any, ...]:
    """`p`'s values in the order of `RATING_COLUMNS`."""
    return (
        p.player,
        p.name,
        p.mu,
        p.sigma,
        p.rating,
        p.games,
        p.wins,
        p.streak,
        p.best_streak,
        p.last_game_at,
    )


class RatingTables(StoreParts):
    """The statements of ratings and statistics; `Store` inherits them."""

    # ---- a game's end (inside its transaction)

    @guarded
    async def in_transaction(self, work: Callable[[RatingTx], Awaitable[T]]) -> T:
        """Run `work` in one transaction of its own (the rating of a past game)."""
        async with self._writing() as tx:
            return await work(tx)

    @staticmethod
    async def rating_inputs(
        tx: RatingTx, guild_id: int | None, game_id: int, players: Sequence[str]
    ) -> RatingInputs | None:
        """Inside a game end's transaction: None if the game was rated (or left unrated)
        already, else its moves and its players' ratings. Takes the server's row first."""
        if guild_id is not None:
            await tx.execute(
                "INSERT INTO rating_servers (guild_id, games) VALUES (?, 1) "
                "ON CONFLICT (guild_id) DO UPDATE SET games = rating_servers.games + 1",
                (guild_id,),
            )
        if await tx.fetch("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)):
            return None
        rows = await tx.fetch(
            "SELECT version, player, notation, at, note FROM moves WHERE game_id = ? "
            "ORDER BY version",
            (game_id,),
        )
        moves = [
            (MoveRow(r["version"], r["player"], r["notation"], r["at"]), r["note"]) for r in rows
        ]
        ratings: dict[str, PlayerRating] = {}
        if guild_id is not None and players:
            marks = ", ".join("?" for _ in players)
            found = await tx.fetch(
                f"SELECT * FROM ratings WHERE guild_id = ? AND player IN ({marks})",
                (guild_id, *players),
            )
            ratings = {r["player"]: _rating(r) for r in found}
        aways: dict[str, list[tuple[str, str]]] = {}
        if players and moves:
            marks = ", ".join("?" for _ in players)
            for r in await tx.fetch(
                f"SELECT user_id, since, back_at FROM away_periods WHERE user_id IN ({marks}) "
                "AND back_at >= ? ORDER BY since",
                (*players, moves[0][0].at),
            ):
                aways.setdefault(r["user_id"], []).append((r["since"], r["back_at"]))
            for r in await tx.fetch(
                f"SELECT user_id, since FROM away WHERE user_id IN ({marks})", tuple(players)
            ):
                aways.setdefault(r["user_id"], []).append((r["since"], ""))
        return RatingInputs(moves, ratings, aways)

    @staticmethod
    async def save_rated_game(tx: RatingTx, rated: RatedGame) -> None:
        """Inside a game end's transaction: the game marked rated, its seats' rows, the
        new ratings and the messages it owes (its summary)."""
        now = stamp_of(datetime.now(UTC))
        await tx.execute(
            "INSERT INTO rated_games (game_id, guild_id, rated, at) VALUES (?, ?, ?, ?)",
            (rated.game_id, rated.guild_id, int(rated.rated), now),
        )
        for r in rated.results:
            await tx.execute(
                "INSERT INTO game_results (game_id, guild_id, seat, player, name, place, seats, "
                "settlements, quit, finished, ai_moves, rated, rating_before, rating_after, "
                "answers, auction_answers, actions, turns, game_seconds, started_at, ended_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    r.game_id,
                    rated.guild_id,
                    r.seat,
                    r.player,
                    r.name,
                    r.place,
                    r.seats,
                    r.settlements,
                    int(r.quit),
                    int(r.finished),
                    r.ai_moves,
                    int(r.rated),
                    r.rating_before,
                    r.rating_after,
                    json.dumps(list(r.answers)),
                    json.dumps(list(r.auction_answers)),
                    json.dumps(r.actions, sort_keys=True),
                    r.turns,
                    r.game_seconds,
                    r.started_at,
                    r.ended_at,
                ),
            )
        for p in rated.ratings:
            await tx.execute(
                rating_upsert("ratings", ("guild_id",)), (rated.guild_id, *rating_values(p))
            )
        for message in rated.owed:
            await tx.execute(
                "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (rated.game_id, message.version, message.kind, json.dumps(message.body), now, now),
            )

    @guarded
    async def games_to_rate(self) -> list[int]:
        """The finished and ended games not rated yet (of this process's shards), in
        the order they ended."""
        rows = await self._read(
            "SELECT id FROM games WHERE status IN (?, ?) "
            "AND id NOT IN (SELECT game_id FROM rated_games)"
            + self._shard_filter()
            + " ORDER BY updated_at, id",
            (FINISHED, ENDED),
        )
        return [int(r["id"]) for r in rows]

    # ---- the answers

    @guarded
    async def leaderboard(
        self, guild_id: int, *, min_games: int, offset: int, limit: int
    ) -> list[PlayerRating]:
        """The server's people with at least `min_games` rated games, best first."""
        rows = await self._read(
            f"SELECT * FROM ratings WHERE guild_id = ? AND games >= ? AND {_VISIBLE} "
            "ORDER BY rating DESC, games DESC, player LIMIT ? OFFSET ?",
            (guild_id, min_games, limit, offset),
        )
        return [_rating(r) for r in rows]

    @guarded
    async def leaderboard_size(self, guild_id: int, *, min_games: int) -> int:
        rows = await self._read(
            f"SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND games >= ? AND {_VISIBLE}",
            (guild_id, min_games),
        )
        return int(rows[0][0])

    @guarded
    async def leaderboard_place(
        self, guild_id: int, rating: PlayerRating, min_games: int
    ) -> tuple[int, int]:
        """The place `rating` holds (or would hold) on the server's leaderboard, and how
        many are on it (one read for both)."""
        rows = await self._read(
            "SELECT COUNT(*) AS size, COALESCE(SUM(CASE WHEN player <> ? AND (rating > ? "
            "OR (rating = ? AND (games > ? OR (games = ? AND player < ?)))) THEN 1 ELSE 0 "
            f"END), 0) AS ahead FROM ratings WHERE guild_id = ? AND games >= ? AND {_VISIBLE}",
            (
                rating.player,
                rating.rating,
                rating.rating,
                rating.games,
                rating.games,
                rating.player,
                guild_id,
                min_games,
            ),
        )
        return int(rows[0]["ahead"]) + 1, int(rows[0]["size"])

    @guarded
    async def rating_of(self, guild_id: int, player: str) -> PlayerRating | None:
        rows = await self._read(
            "SELECT * FROM ratings WHERE guild_id = ? AND player = ?", (guild_id, player)
        )
        return _rating(rows[0]) if rows else None

    @guarded
    async def ratings_since(
        self, guild_id: int, players: Sequence[str], since: str
    ) -> dict[str, int]:
        """Each player's rating before their first rated game ended at or after `since`
        (players without such a game are left out)."""
        if not players:
            return {}
        marks = ", ".join("?" for _ in players)
        rows = await self._read(
            f"SELECT player, rating_before, ended_at FROM game_results WHERE guild_id = ? "
            f"AND player IN ({marks}) AND ended_at >= ? AND rated = 1 "
            "ORDER BY ended_at DESC",
            (guild_id, *players, since),
        )
        # newest first: the last one seen of each player is their first in the period
        return {r["player"]: int(r["rating_before"]) for r in rows}

    @guarded
    async def results_of(self, guild_id: int, player: str) -> list[SeatResult]:
        """A player's (or an AI level's) rows of the server, in the order the games ended."""
        rows = await self._read(
            "SELECT * FROM game_results WHERE guild_id = ? AND player = ? "
            "ORDER BY ended_at, game_id, seat",
            (guild_id, player),
        )
        return [_result(r) for r in rows]

    @guarded
    async def game_results(self, game_id: int) -> list[SeatResult]:
        rows = await self._read(
            "SELECT * FROM game_results WHERE game_id = ? ORDER BY place, seat", (game_id,)
        )
        return [_result(r) for r in rows]

    @guarded
    async def server_records(self, guild_id: int) -> dict[str, ServerRecord]:
        """The server's records among people who show their statistics: most
        settlements in a game, fastest and longest finished game, most games played."""
        found: dict[str, ServerRecord] = {}
        rows = await self._read(
            f"SELECT player, name, game_id, settlements FROM game_results WHERE guild_id = ? "
            f"AND {_VISIBLE} ORDER BY settlements DESC, ended_at LIMIT 1",
            (guild_id,),
        )
        if rows:
            r = rows[0]
            found["settlements"] = ServerRecord(
                r["player"], r["name"], r["game_id"], r["settlements"]
            )
        for key, order in (("fastest", "ASC"), ("longest", "DESC")):
            rows = await self._read(
                f"SELECT player, name, game_id, game_seconds FROM game_results "
                f"WHERE guild_id = ? AND finished = 1 AND place = 1 AND {_VISIBLE} "
                f"ORDER BY game_seconds {order}, ended_at LIMIT 1",
                (guild_id,),
            )
            if rows:
                r = rows[0]
                found[key] = ServerRecord(r["player"], r["name"], r["game_id"], r["game_seconds"])
        rows = await self._read(
            f"SELECT player, name, games FROM ratings WHERE guild_id = ? AND {_VISIBLE} "
            "ORDER BY games DESC, player LIMIT 1",
            (guild_id,),
        )
        if rows:
            r = rows[0]
            found["games"] = ServerRecord(r["player"], r["name"], None, r["games"])
        return found

    # ---- privacy

    @guarded
    async def stats_hidden(self, user_id: str) -> bool:
        rows = await self._read("SELECT hidden FROM stats_prefs WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0]["hidden"])

    @guarded
    async def set_stats_hidden(self, user_id: str, hidden: bool) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO stats_prefs (user_id, hidden) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET hidden = excluded.hidden",
                (user_id, int(hidden)),
            )

    @guarded
    async def forget_player(self, user_id: str) -> int:
        """Delete a player's preferences, ratings and statistics, and write
        `FORGOTTEN_NAME` for their name in the games that are over; how many games'
        records were changed. Their seat keeps its id: the move log needs it."""
        pattern = f'%"{user_id}"%'
        async with self._writing() as tx:
            for table in (
                "notify_prefs",
                "user_locales",
                "stats_prefs",
                "away_periods",
                "quiet_hours",
            ):
                await tx.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            await tx.execute("DELETE FROM ratings WHERE player = ?", (user_id,))
            await tx.execute("DELETE FROM game_results WHERE player = ?", (user_id,))
            # their seasons' rows (`store.seasons`); a season they won keeps its champion,
            # under the forgotten player's name
            await tx.execute("DELETE FROM season_ratings WHERE player = ?", (user_id,))
            await tx.execute("DELETE FROM season_results WHERE player = ?", (user_id,))
            await tx.execute(
                "UPDATE seasons SET champion_name = ? WHERE champion = ?",
                (FORGOTTEN_NAME, user_id),
            )
            await tx.execute(FORGET_DRAWN, (user_id,))  # the pictures showing their name
            rows = await tx.fetch(
                "SELECT id, players FROM games WHERE status NOT IN ('lobby', 'active') "
                "AND players LIKE ?",
                (pattern,),
            )
            changed = 0
            for row in rows:
                seats = json.loads(row["players"])
                renamed = [
                    {**seat, "name": FORGOTTEN_NAME} if seat.get("id") == user_id else seat
                    for seat in seats
                ]
                if renamed != seats:
                    await tx.execute(
                        "UPDATE games SET players = ? WHERE id = ?",
                        (json.dumps(renamed), row["id"]),
                    )
                    changed += 1
            return changed


__all__ = [
    "AI_LEVEL_PREFIX",
    "FORGOTTEN_NAME",
    "PlayerRating",
    "RatedGame",
    "RatingInputs",
    "RatingTables",
    "RatingTx",
    "SeatResult",
    "ServerRecord",
]
