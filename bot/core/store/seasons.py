"""The store's part of seasons (`bot.core.community.seasons`), mixed into `Store`.

A server's seasons are numbered from 1 (`seasons`); the current one has no end. A
new season is started in one transaction that takes the server's rating row first (as a
game's end does, so on PostgreSQL a season and a game's end of one server happen one
after the other), ends the current season with its champion (the first of its
leaderboard at that moment, if anyone is on it) and inserts the next one.

A game's end, after its all-time rating (`store.ratings`) and in the same transaction,
writes its seats' ratings in the current season (`season_ratings`, from the initial
rating at the season's start) and each seat's rating before and after in it
(`season_results`, beside the game's `game_results` row, which keeps every other figure).
The season's leaderboard and a player's season record read those rows as the all-time
ones read `ratings` and `game_results`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .parts import Row, StoreParts, guarded
from .ratings import (
    _VISIBLE,
    PlayerRating,
    RatingTx,
    SeatResult,
    _rating,
    _result,
    rating_upsert,
    rating_values,
)


@dataclass(frozen=True)
class Season:
    """One season of a server; a past one with its champion (None: nobody was on its
    leaderboard when it ended)."""

    guild_id: int
    number: int
    name: str
    started_at: str
    started_by: str
    ended_at: str | None
    champion: str | None
    champion_name: str | None
    champion_rating: int | None
    champion_games: int | None

    @property
    def current(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class SeasonSeat:
    """One rated seat of a game in its season."""

    seat: str
    player: str
    rating_before: int
    rating_after: int


def _season(row: Row) -> Season:
    return Season(
        guild_id=int(row["guild_id"]),
        number=int(row["season"]),
        name=row["name"],
        started_at=row["started_at"],
        started_by=row["started_by"],
        ended_at=row["ended_at"],
        champion=row["champion"],
        champion_name=row["champion_name"],
        champion_rating=row["champion_rating"],
        champion_games=row["champion_games"],
    )


_RESULT_COLUMNS = (
    "g.game_id, g.seat, g.player, g.name, g.place, g.seats, g.settlements, g.quit, "
    "g.finished, g.ai_moves, g.rated, s.rating_before, s.rating_after, g.answers, "
    "g.auction_answers, g.actions, g.turns, g.game_seconds, g.started_at, g.ended_at"
)
"""A `game_results` row with the season's ratings before and after in place of the
all-time ones."""


class SeasonTables(StoreParts):
    """The statements of seasons; `Store` inherits them."""

    # ---- the seasons

    @guarded
    async def seasons_of(self, guild_id: int) -> list[Season]:
        """The server's seasons, the newest (the current one) first."""
        rows = await self._read(
            "SELECT * FROM seasons WHERE guild_id = ? ORDER BY season DESC", (guild_id,)
        )
        return [_season(r) for r in rows]

    @guarded
    async def current_season(self, guild_id: int) -> Season | None:
        rows = await self._read(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        return _season(rows[0]) if rows else None

    @guarded
    async def start_season(
        self, guild_id: int, name: str, started_by: str, at: str, *, min_games: int
    ) -> tuple[Season, Season | None]:
        """End the current season (its champion: the first of its leaderboard, people
        with `min_games` games in it who show their statistics) and start the next one
        named `name`, in one transaction; the new season and the one it ended."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO rating_servers (guild_id, games) VALUES (?, 0) "
                "ON CONFLICT (guild_id) DO UPDATE SET games = rating_servers.games",
                (guild_id,),
            )
            rows = await tx.fetch(
                "SELECT * FROM seasons WHERE guild_id = ? ORDER BY season DESC LIMIT 1",
                (guild_id,),
            )
            last = _season(rows[0]) if rows else None
            ended: Season | None = None
            if last is not None and last.current:
                top = await tx.fetch(
                    "SELECT player, name, rating, games FROM season_ratings "
                    f"WHERE guild_id = ? AND season = ? AND games >= ? AND {_VISIBLE} "
                    "ORDER BY rating DESC, games DESC, player LIMIT 1",
                    (guild_id, last.number, min_games),
                )
                champion = top[0] if top else None
                await tx.execute(
                    "UPDATE seasons SET ended_at = ?, champion = ?, champion_name = ?, "
                    "champion_rating = ?, champion_games = ? WHERE guild_id = ? AND season = ?",
                    (
                        at,
                        champion["player"] if champion else None,
                        champion["name"] if champion else None,
                        int(champion["rating"]) if champion else None,
                        int(champion["games"]) if champion else None,
                        guild_id,
                        last.number,
                    ),
                )
                found = await tx.fetch(
                    "SELECT * FROM seasons WHERE guild_id = ? AND season = ?",
                    (guild_id, last.number),
                )
                ended = _season(found[0])
            number = (last.number if last else 0) + 1
            await tx.execute(
                "INSERT INTO seasons (guild_id, season, name, started_at, started_by) "
                "VALUES (?, ?, ?, ?, ?)",
                (guild_id, number, name, at, started_by),
            )
            made = await tx.fetch(
                "SELECT * FROM seasons WHERE guild_id = ? AND season = ?", (guild_id, number)
            )
            return _season(made[0]), ended

    # ---- a game's end (inside its transaction, after its all-time rating)

    @staticmethod
    async def season_inputs(
        tx: RatingTx, guild_id: int, game_id: int
    ) -> tuple[int, list[SeatResult], dict[str, PlayerRating]] | None:
        """Inside a game end's transaction: the server's current season, the game's
        rated seats (`game_results`, written just before) and their players' ratings in
        the season; None without a current season, a rated seat, or if the game is in a
        season already."""
        rows = await tx.fetch(
            "SELECT season FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        if not rows:
            return None
        season = int(rows[0]["season"])
        if await tx.fetch("SELECT 1 FROM season_results WHERE game_id = ?", (game_id,)):
            return None
        results = [
            _result(r)
            for r in await tx.fetch(
                "SELECT * FROM game_results WHERE game_id = ? AND rated = 1 ORDER BY place, seat",
                (game_id,),
            )
        ]
        if not results:
            return None
        players = sorted({r.player for r in results})
        marks = ", ".join("?" for _ in players)
        found = await tx.fetch(
            f"SELECT * FROM season_ratings WHERE guild_id = ? AND season = ? "
            f"AND player IN ({marks})",
            (guild_id, season, *players),
        )
        return season, results, {r["player"]: _rating(r) for r in found}

    @staticmethod
    async def save_season_rated(
        tx: RatingTx,
        guild_id: int,
        season: int,
        game_id: int,
        ended_at: str,
        seats: Sequence[SeasonSeat],
        ratings: Sequence[PlayerRating],
    ) -> None:
        for s in seats:
            await tx.execute(
                "INSERT INTO season_results (game_id, seat, guild_id, season, player, "
                "rating_before, rating_after, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    s.seat,
                    guild_id,
                    season,
                    s.player,
                    s.rating_before,
                    s.rating_after,
                    ended_at,
                ),
            )
        for p in ratings:
            await tx.execute(
                rating_upsert("season_ratings", ("guild_id", "season")),
                (guild_id, season, *rating_values(p)),
            )

    # ---- the answers, as `store.ratings`' for one season

    @guarded
    async def season_leaderboard(
        self, guild_id: int, season: int, *, min_games: int, offset: int, limit: int
    ) -> list[PlayerRating]:
        rows = await self._read(
            "SELECT * FROM season_ratings WHERE guild_id = ? AND season = ? AND games >= ? "
            f"AND {_VISIBLE} ORDER BY rating DESC, games DESC, player LIMIT ? OFFSET ?",
            (guild_id, season, min_games, limit, offset),
        )
        return [_rating(r) for r in rows]

    @guarded
    async def season_leaderboard_size(self, guild_id: int, season: int, *, min_games: int) -> int:
        rows = await self._read(
            "SELECT COUNT(*) FROM season_ratings WHERE guild_id = ? AND season = ? "
            f"AND games >= ? AND {_VISIBLE}",
            (guild_id, season, min_games),
        )
        return int(rows[0][0])

    @guarded
    async def season_leaderboard_place(
        self, guild_id: int, season: int, rating: PlayerRating, min_games: int
    ) -> tuple[int, int]:
        rows = await self._read(
            "SELECT COUNT(*) AS size, COALESCE(SUM(CASE WHEN player <> ? AND (rating > ? "
            "OR (rating = ? AND (games > ? OR (games = ? AND player < ?)))) THEN 1 ELSE 0 "
            "END), 0) AS ahead FROM season_ratings WHERE guild_id = ? AND season = ? "
            f"AND games >= ? AND {_VISIBLE}",
            (
                rating.player,
                rating.rating,
                rating.rating,
                rating.games,
                rating.games,
                rating.player,
                guild_id,
                season,
                min_games,
            ),
        )
        return int(rows[0]["ahead"]) + 1, int(rows[0]["size"])

    @guarded
    async def season_rating_of(
        self, guild_id: int, season: int, player: str
    ) -> PlayerRating | None:
        rows = await self._read(
            "SELECT * FROM season_ratings WHERE guild_id = ? AND season = ? AND player = ?",
            (guild_id, season, player),
        )
        return _rating(rows[0]) if rows else None

    @guarded
    async def season_ratings_since(
        self, guild_id: int, season: int, players: Sequence[str], since: str
    ) -> dict[str, int]:
        """Each player's season rating before their first game of the season ended at
        or after `since` (players without such a game are left out)."""
        if not players:
            return {}
        marks = ", ".join("?" for _ in players)
        rows = await self._read(
            f"SELECT player, rating_before FROM season_results WHERE guild_id = ? "
            f"AND season = ? AND player IN ({marks}) AND ended_at >= ? ORDER BY ended_at DESC",
            (guild_id, season, *players, since),
        )
        return {r["player"]: int(r["rating_before"]) for r in rows}

    @guarded
    async def season_results_of(self, guild_id: int, season: int, player: str) -> list[SeatResult]:
        """A player's rows of the season, with their season ratings, in the order the
        games ended."""
        rows = await self._read(
            f"SELECT {_RESULT_COLUMNS} FROM season_results s JOIN game_results g "
            "ON g.game_id = s.game_id AND g.seat = s.seat "
            "WHERE s.guild_id = ? AND s.season = ? AND s.player = ? "
            "ORDER BY s.ended_at, s.game_id, s.seat",
            (guild_id, season, player),
        )
        return [_result(r) for r in rows]


__all__ = ["Season", "SeasonSeat", "SeasonTables"]
