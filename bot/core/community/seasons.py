"""A server's seasons (issue 40 point 5): `/montana server settings season:` starts one; the
leaderboard and the statistics show the current season by default and all time on
request; each past season keeps its champion.

The policy (docs/players.md, "Seasons"; docs/administrators.md):

* a server has no season until its administrators start the first one; until then the
  leaderboard and statistics are all time, as before seasons existed;
* starting a season ends the current one: its **champion** is the first of its
  leaderboard at that moment — a person with at least `PROVISIONAL_GAMES` rated games
  in the season who shows their statistics, with the best season rating (ties: more
  games, then the smaller id, as the leaderboard orders them); nobody on it: no champion;
* a season "starts fresh": each player's **season rating** is computed from the rated
  games that ended in the season only, starting from the initial rating (μ 25, σ 25/3:
  1000 shown), with the same model and policy as the all-time rating
  (`bot.core.community.ratings`), and provisional until `PROVISIONAL_GAMES` games in the
  season. The **all-time rating** is kept as before and goes on across seasons;
* a game belongs to the season that is current when its end is saved (the end's
  transaction reads it), and only a rated game counts (a server with statistics off
  rates none, in a season or not).

The season's rating is written after the all-time one, in the same transaction as the
game's end (`install`: an `at_end` hook after `ratings`'), so a crash never rates a game
in the season twice or not at all.
"""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.core.community import ratings
from bot.core.play.service import GameService
from bot.core.store import (
    GameRow,
    PlayerRating,
    RatingTx,
    Season,
    SeasonSeat,
    SeatResult,
    Store,
)
from bot.core.wording.refusals import Refusal
from i18n import translatable
from rules import Game

NAME_LIMIT = 40
"""A season's name: 1 to this many characters, on one line."""
SEASON, ALL_TIME = "season", "all"
"""The periods the leaderboard and the statistics show: the current season (the
default) or all time."""
BAD_NAME = translatable(
    "A season's name has 1 to {n} characters on one line (e.g. Spring 2027); not {value}. "
    "Nothing was changed."
)


def season_name(text: str) -> str:
    """The name a new season is given, or a `Refusal` saying what is allowed."""
    name = " ".join(text.split())
    if not name or len(name) > NAME_LIMIT or "\n" in text.strip():
        shown = text if len(text) <= NAME_LIMIT + 20 else text[: NAME_LIMIT + 20] + "…"
        raise Refusal(BAD_NAME, n=NAME_LIMIT, value=repr(shown))
    return name


async def start_season(
    store: Store, guild_id: int, name: str, started_by: str, at: datetime | None = None
) -> tuple[Season, Season | None]:
    """Start the server's next season named `name` (checked first: a bad name changes
    nothing), ending the current one with its champion; (the new season, the ended
    one or None)."""
    checked = season_name(name)
    stamp = (at or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
    return await store.start_season(
        guild_id, checked, started_by, stamp, min_games=ratings.PROVISIONAL_GAMES
    )


# ------------------------------------------------------------------ a game's end


def season_rated(
    results: Sequence[SeatResult],
    before: dict[str, PlayerRating],
    ended_at: str,
) -> tuple[list[SeasonSeat], list[PlayerRating]]:
    """A rated game's seats in the season (their season ratings before and after) and
    the new season ratings: pure, from the game's rows and its players' season ratings
    (a player new to the season starts from the model's initial rating). As the
    all-time rating: each seat plays with its player's rating, an AI level with several
    seats takes the mean of their results."""
    players = [r.player for r in results]
    after = ratings.rate(players, [r.place for r in results], before)
    by_player: dict[str, list[tuple[float, float]]] = {}
    for player, seat_after in zip(players, after, strict=True):
        by_player.setdefault(player, []).append(seat_after)
    start = ratings.shown(ratings.MODEL.mu, ratings.MODEL.sigma)
    new: dict[str, PlayerRating] = {}
    for result in results:
        player = result.player
        if player in new:
            continue
        mu = statistics.fmean(r[0] for r in by_player[player])
        sigma = statistics.fmean(r[1] for r in by_player[player])
        old = before.get(player)
        won = min(r.place for r in results if r.player == player) == 1
        streak = (old.streak if old else 0) + 1 if won else 0
        name = ratings.level_name(player) if ratings.is_ai_level(player) else result.name
        new[player] = PlayerRating(
            player=player,
            name=name,
            mu=mu,
            sigma=sigma,
            rating=ratings.shown(mu, sigma),
            games=(old.games if old else 0) + 1,
            wins=(old.wins if old else 0) + int(won),
            streak=streak,
            best_streak=max(streak, old.best_streak if old else 0),
            last_game_at=ended_at,
        )
    seats = [
        SeasonSeat(
            seat=r.seat,
            player=r.player,
            rating_before=before[r.player].rating if r.player in before else start,
            rating_after=new[r.player].rating,
        )
        for r in results
    ]
    return seats, list(new.values())


async def rate_in_season(tx: RatingTx, guild_id: int | None, game_id: int) -> bool:
    """Inside a game end's transaction, after its all-time rating: rate it in the
    server's current season; whether it was (no season, an unrated game or one rated in
    its season already: nothing written)."""
    if guild_id is None:
        return False
    inputs = await Store.season_inputs(tx, guild_id, game_id)
    if inputs is None:
        return False
    season, results, before = inputs
    ended_at = results[0].ended_at
    seats, after = season_rated(results, before, ended_at)
    await Store.save_season_rated(tx, guild_id, season, game_id, ended_at, seats, after)
    return True


def season_hook(row: GameRow) -> Callable[[RatingTx], Awaitable[None]]:
    """What a game's end writes for its season, after `ratings.end_hook` in the same
    transaction."""

    async def write(tx: RatingTx) -> None:
        await rate_in_season(tx, row.guild_id, row.id)

    return write


def install(service: GameService) -> None:
    """Rate each game's end in the server's current season too (after `ratings.install`:
    the hooks of a game's end run in the order installed, in one transaction)."""

    async def at_end(
        row: GameRow, game: Game, ended_at: str, quitter: str | None
    ) -> Callable[[RatingTx], Awaitable[None]] | None:
        return season_hook(row) if row.guild_id is not None else None

    service.hooks.at_end.append(at_end)


# ------------------------------------------------------------------ what is read back


@dataclass(frozen=True)
class Period:
    """What the leaderboard and the statistics read: a server's current season
    (`season`), or all time (`season` None); the same questions of either."""

    store: Store
    guild_id: int
    season: Season | None
    seasons: tuple[Season, ...]
    """Every season of the server, the newest first (none: the server has no season)."""

    @property
    def past(self) -> list[Season]:
        """The seasons that ended, the newest first (with their champions)."""
        return [s for s in self.seasons if not s.current]

    async def leaderboard_size(self, *, min_games: int) -> int:
        if self.season is None:
            return await self.store.leaderboard_size(self.guild_id, min_games=min_games)
        return await self.store.season_leaderboard_size(
            self.guild_id, self.season.number, min_games=min_games
        )

    async def leaderboard(self, *, min_games: int, offset: int, limit: int) -> list[PlayerRating]:
        if self.season is None:
            return await self.store.leaderboard(
                self.guild_id, min_games=min_games, offset=offset, limit=limit
            )
        return await self.store.season_leaderboard(
            self.guild_id, self.season.number, min_games=min_games, offset=offset, limit=limit
        )

    async def ratings_since(self, players: Sequence[str], since: str) -> dict[str, int]:
        if self.season is None:
            return await self.store.ratings_since(self.guild_id, players, since)
        return await self.store.season_ratings_since(
            self.guild_id, self.season.number, players, since
        )

    async def rating_of(self, player: str) -> PlayerRating | None:
        if self.season is None:
            return await self.store.rating_of(self.guild_id, player)
        return await self.store.season_rating_of(self.guild_id, self.season.number, player)

    async def leaderboard_place(self, rating: PlayerRating, min_games: int) -> tuple[int, int]:
        if self.season is None:
            return await self.store.leaderboard_place(self.guild_id, rating, min_games)
        return await self.store.season_leaderboard_place(
            self.guild_id, self.season.number, rating, min_games
        )

    async def results_of(self, player: str) -> list[SeatResult]:
        if self.season is None:
            return await self.store.results_of(self.guild_id, player)
        return await self.store.season_results_of(self.guild_id, self.season.number, player)


async def period_of(store: Store, guild_id: int, period: str = SEASON) -> Period:
    """The period asked for: the current season (`SEASON`, the default) or all time
    (`ALL_TIME`); a server without a season reads all time either way."""
    seasons = tuple(await store.seasons_of(guild_id))
    current = seasons[0] if seasons and seasons[0].current else None
    return Period(store, guild_id, current if period != ALL_TIME else None, seasons)


__all__ = [
    "ALL_TIME",
    "BAD_NAME",
    "NAME_LIMIT",
    "SEASON",
    "Period",
    "install",
    "period_of",
    "rate_in_season",
    "season_hook",
    "season_name",
    "season_rated",
    "start_season",
]
