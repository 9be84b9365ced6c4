"""A server's standings as `/montana leaderboard`, `/montana stats` and the web pages
(issue 28) read them: one leaderboard page, one player's record, the chart of their
rating. One reading for Discord and the web, so both rank and hide alike (the policy of
`bot.core.community.ratings`: people with `PROVISIONAL_GAMES` rated games, hidden players and AI
levels never on the leaderboard), of the current season by default or of all time
(`bot.core.community.seasons.Period`)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.community import ratings, stats
from bot.core.community.ratings import PROVISIONAL_GAMES, PlayerStats
from bot.core.community.seasons import SEASON, Period, period_of
from bot.core.store import PlayerRating, Store
from bot.core.wording.pages import page_within
from i18n import Translator
from render.charts import rating_chart


@dataclass(frozen=True)
class LeaderboardPage:
    page: int
    """The page shown (the one asked for, within 1..pages)."""
    pages: int
    offset: int
    """How many players rank above the page's first line."""
    board: list[PlayerRating]
    """The page's lines, best first."""
    players: int
    """How many are on the whole leaderboard."""
    month: dict[str, int]
    """Each player's rating 30 days ago (those of the page and the ones asked about;
    absent: no rated game in that time)."""
    period: Period
    """The season it ranks (or all time), with the server's past seasons."""

    def month_change(self, rating: PlayerRating) -> str:
        """ "+14" over the last 30 days ("±0" without a rated game in that time), as the
        leaderboard's table shows it."""
        return stats.change_text(self.month.get(rating.player, rating.rating), rating.rating)


async def leaderboard_page(
    store: Store,
    guild_id: int,
    page: int,
    size: int,
    besides: Sequence[str] = (),
    *,
    typed: bool = False,
    period: str = SEASON,
) -> LeaderboardPage:
    """One page of `size` lines of the server's leaderboard, of its current season or
    of all time (`period`); `besides`: players whose change over 30 days is wanted too
    (the asker's own line, shown off the page). A page that does not exist is the
    nearest one, or refused if `typed` (`page_within`)."""
    read = await period_of(store, guild_id, period)
    count = await read.leaderboard_size(min_games=PROVISIONAL_GAMES)
    pages = max(1, math.ceil(count / size))
    page = page_within(page, pages, typed=typed)
    offset = (page - 1) * size
    board = await read.leaderboard(min_games=PROVISIONAL_GAMES, offset=offset, limit=size)
    month = await read.ratings_since([r.player for r in board] + list(besides), ratings.month_ago())
    return LeaderboardPage(page, pages, offset, board, count, month, read)


@dataclass(frozen=True)
class PlayerRecord:
    """A player's record on a server, as `/montana stats` shows it."""

    hidden: bool
    """They hide their statistics from the others (`/montana me stats`)."""
    rating: PlayerRating | None
    stats: PlayerStats | None
    """None: no finished game on this server."""
    place: int | None
    """Their place on the leaderboard (None: provisional, hidden or unrated)."""
    board_size: int
    name: str | None
    """Their name as their latest game wrote it (None: no game here, or in the season)."""
    period: Period | None = None
    """The season read (or all time)."""


async def player_record(
    store: Store, guild_id: int, user_id: str, *, period: str = SEASON
) -> PlayerRecord:
    """A player's record on the server, in its current season or of all time (`period`)."""
    hidden = await store.stats_hidden(user_id)
    read = await period_of(store, guild_id, period)
    results = await read.results_of(user_id)
    if not results:
        return PlayerRecord(hidden, None, None, None, 0, None, read)
    rating = await read.rating_of(user_id)
    place: int | None = None
    size = 0
    if rating is not None and not ratings.provisional(rating) and not hidden:
        place, size = await read.leaderboard_place(rating, PROVISIONAL_GAMES)
    name = rating.name if rating is not None else results[-1].name
    stats_read = ratings.player_stats(rating, results)
    return PlayerRecord(hidden, rating, stats_read, place, size, name, read)


async def rating_chart_of(
    name: str, stats_read: PlayerStats, place: int | None, t: Translator
) -> bytes | None:
    """The chart of the player's rating after each rated game (drawn in a thread), in
    `t`'s language; None without a rated game."""
    if not stats_read.history:
        return None
    words, dates = stats.chart_words(name, stats_read, place, t)
    return await asyncio.to_thread(
        rating_chart, [shown for _, shown in stats_read.history], dates, words
    )


__all__ = [
    "LeaderboardPage",
    "PlayerRecord",
    "leaderboard_page",
    "player_record",
    "rating_chart_of",
]
