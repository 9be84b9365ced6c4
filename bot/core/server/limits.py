"""Limits on what one member can make the bot do (issue 21 points 3-4), each a server
setting with a default, and the pure decisions about them.

The values are kept per server in the store (`guild_settings`, `Store.guild_settings`):
a server that never changed one gets the default. A refusal names the limit, its value
and the way out. What each limit is:

* `open_lobbies`: lobbies one member has opened and not started, per server (2);
* `lobby_days`: an unfilled lobby closes after this many days (7), said in its message;
  `LobbyExpiry` (a background task) closes them, also after a restart;
* `active_games`: games under way one member plays in, per server (10, like Board Game
  Arena's cap): opening, joining or starting one more is refused;
* `hints_per_minute`: hints one member may ask for in a minute (5; `HintRate`).

Replays and the replay's steps are limited per member alike (`PictureRate`, by the same
mechanism, `MemberRate`), at `PICTURES_PER_MINUTE` for every server.

And a game never runs with every seat played by the AI: `all_seats_ai` tells it, the
AI players pause such a game (`bot.core.ai_players.ai_seats`).

`install` hooks the limits into the game flow (`bot.core.play.hooks`): before a lobby opens
or a seat is taken, and before a lobby starts.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta
from typing import Any

from bot.core.play.service import GameService, all_seats_ai
from bot.core.runtime import incidents
from bot.core.runtime.periodic import Clock, PeriodicTask
from bot.core.store import ABANDONED, LOBBY, GameRow, Store, moment_of
from bot.core.wording.refusals import Refusal
from i18n import Message, Translator, translatable_plural

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """One server's limits (the defaults for a server that set none)."""

    open_lobbies: int = 2
    lobby_days: int = 7
    active_games: int = 10
    hints_per_minute: int = 5

    @classmethod
    def of(cls, saved: Mapping[str, str]) -> Limits:
        """The limits from a server's saved settings (`Store.guild_settings`); a value
        missing or unreadable keeps its default (a later bot may save other names)."""
        chosen: dict[str, Any] = {}
        for field in fields(cls):
            text = saved.get(field.name)
            if text is not None and text.isdigit() and int(text) > 0:
                chosen[field.name] = int(text)
        return replace(cls(), **chosen)

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(field.name for field in fields(Limits))


DEFAULT_LIMITS = Limits()


async def limits_of(store: Store, guild_id: int | None) -> Limits:
    """The limits of a server (outside a server: the defaults)."""
    if guild_id is None:
        return DEFAULT_LIMITS
    return Limits.of(await store.guild_settings(guild_id))


# ---------------------------------------------------------------------- the decisions


@dataclass(frozen=True)
class Over:
    """A limit reached: the refusal's words and their fields (the caller raises
    `Refusal(over.message, **over.fields)`)."""

    message: Message
    fields: Mapping[str, Any]


def check_open_lobbies(open_now: int, limits: Limits) -> Over | None:
    """One more lobby for a member who has `open_now` open in this server: refused?"""
    if open_now < limits.open_lobbies:
        return None
    return Over(
        translatable_plural(
            "You have {n} open lobby in this server, the most allowed: start it, or "
            "close it with {/game abandon} in its channel, then open a new one.",
            "You have {n} open lobbies in this server, the most allowed: start one, or "
            "close one with {/game abandon} in its channel, then open a new one.",
        ),
        {"n": limits.open_lobbies},
    )


def check_active_games(under_way: int, limits: Limits) -> Over | None:
    """A seat in one more game for a member who plays `under_way` games here: refused?"""
    if under_way < limits.active_games:
        return None
    return Over(
        translatable_plural(
            "You play {n} game under way in this server, the most allowed: finish or "
            "abandon it before you take a seat in another.",
            "You play {n} games under way in this server, the most allowed: finish or "
            "abandon one before you take a seat in another.",
        ),
        {"n": limits.active_games},
    )


async def over_limit(
    store: Store, guild_id: int | None, user_id: str, *, lobby: bool = False
) -> Over | None:
    """The server's limit one more seat of `user_id` (or, `lobby`, one more lobby opened
    by them) would pass, if any: read from the store, decided above."""
    chosen = await limits_of(store, guild_id)
    over = check_active_games(await store.games_under_way_of(guild_id, user_id), chosen)
    if over is None and lobby:
        over = check_open_lobbies(await store.open_lobbies_by(guild_id, user_id), chosen)
    return over


def lobby_closes_at(created_at: datetime, limits: Limits) -> datetime:
    return created_at + timedelta(days=limits.lobby_days)


def install(service: GameService) -> None:
    """Refuse, in the game flow, a lobby opened, a seat taken or a lobby started beyond
    the server's limits (`before_seat`, `before_start` of `bot.core.play.hooks`)."""
    store = service.store

    async def before_seat(guild_id: int | None, user_id: str, lobby: bool) -> None:
        over = await over_limit(store, guild_id, user_id, lobby=lobby)
        if over is not None:
            raise Refusal(over.message, **over.fields)

    async def before_start(row: GameRow) -> None:
        chosen = await limits_of(store, row.guild_id)
        for seat in row.humans:
            under_way = await store.games_under_way_of(row.guild_id, seat.user_id)
            if check_active_games(under_way, chosen) is not None:
                raise Refusal(
                    translatable_plural(
                        "{who} plays {n} game under way in this server already, the most "
                        "allowed: they can leave this lobby, or finish or abandon a game first.",
                        "{who} plays {n} games under way in this server already, the most "
                        "allowed: they can leave this lobby, or finish or abandon a game first.",
                    ),
                    n=chosen.active_games,
                    who=seat.name,
                )

    service.hooks.before_seat.append(before_seat)
    service.hooks.before_start.append(before_start)


def lobby_expiry_words(row: GameRow, limits: Limits, t: Translator) -> str:
    """The lobby message's line saying when an unfilled lobby closes."""
    closes = lobby_closes_at(moment_of(row.created_at), limits)
    return t.ngettext(
        "-# Unless it starts, this lobby closes <t:{when}:R> ({n} day after it opened).",
        "-# Unless it starts, this lobby closes <t:{when}:R> ({n} days after it opened).",
        limits.lobby_days,
        when=int(closes.timestamp()),
    )


def lobby_expired_words(limits: Limits, t: Translator) -> str:
    return t.ngettext(
        "**Montana** — this lobby closed: it did not start within {n} day. Open a new "
        "game with {/game new}.",
        "**Montana** — this lobby closed: it did not start within {n} days. Open a new "
        "game with {/game new}.",
        limits.lobby_days,
    )


# ---------------------------------------------------------------------- lobby expiry


LobbyClosed = Callable[[GameRow, Limits], Any]
"""The front end's hook: say in the lobby message that it closed (awaited)."""


class LobbyExpiry(PeriodicTask):
    """Closes the lobbies left unfilled past their server's `lobby_days` (a restart
    loses nothing: the lobbies and their age are in the store)."""

    TASK_NAME = "lobby-expiry"

    def __init__(
        self,
        store: Store,
        on_closed: LobbyClosed | None = None,
        *,
        clock: Clock,
        poll_seconds: float = 3600.0,
    ) -> None:
        super().__init__(clock=clock, poll_seconds=poll_seconds)
        self.store = store
        self.on_closed = on_closed

    async def one_pass(self) -> datetime | None:
        moment = self.clock()
        upcoming: datetime | None = None
        limits: dict[int | None, Limits] = {}
        for row in await self.store.open_lobbies():
            try:  # one lobby's trouble is logged with its error id and stops no other
                closes = await self._close_if_due(row, moment, limits)
            except Exception as error:
                incidents.record(log, error, f"game {row.id}: closing the lobby failed")
                continue
            if closes is not None:
                upcoming = closes if upcoming is None else min(upcoming, closes)
        return upcoming

    async def _close_if_due(
        self, row: GameRow, moment: datetime, limits: dict[int | None, Limits]
    ) -> datetime | None:
        """Close the lobby if its days are over; else when it will close."""
        if row.guild_id not in limits:
            limits[row.guild_id] = await limits_of(self.store, row.guild_id)
        chosen = limits[row.guild_id]
        closes = lobby_closes_at(moment_of(row.created_at), chosen)
        if closes > moment:
            return closes
        if not await self.store.set_status(row.id, ABANDONED, only_from=(LOBBY,)):
            return None  # it started (or closed) meanwhile
        log.info("game %s: the lobby closed unfilled after %s days", row.id, chosen.lobby_days)
        if self.on_closed is not None:
            try:
                await self.on_closed(replace(row, status=ABANDONED), chosen)
            except Exception as error:
                incidents.record(log, error, f"game {row.id}: saying that the lobby closed failed")
        return None


# ---------------------------------------------------------------------- per member and minute


class MemberRate:
    """At most `allowed(limits)` requests per member in any 60 seconds (kept in memory:
    a restart forgets the count, which only lets a few more through); past it, the
    refusal `message` says the limit and how long to wait (its fields `n`, the seconds,
    and `limit`). `HintRate` and `PictureRate` are two of them."""

    WINDOW_SECONDS = 60.0
    message: Message

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._asked: dict[str, deque[float]] = {}

    def allowed(self, limits: Limits) -> int:
        raise NotImplementedError

    def take(self, user_id: str, limits: Limits) -> Over | None:
        """Count one request of `user_id`; or, past the limit, the refusal saying when
        to try again (not counted)."""
        moment = self.clock()
        allowed = self.allowed(limits)
        asked = self._asked.setdefault(user_id, deque())
        while asked and asked[0] <= moment - self.WINDOW_SECONDS:
            asked.popleft()
        if len(asked) >= allowed:
            wait = max(1, int(asked[0] + self.WINDOW_SECONDS - moment + 0.999))
            return Over(self.message, {"n": wait, "limit": allowed})
        asked.append(moment)
        if len(self._asked) > 10_000:  # forget those who asked over a minute ago
            window = moment - self.WINDOW_SECONDS
            for user in [u for u, times in self._asked.items() if times[-1] <= window]:
                del self._asked[user]
        return None


class HintRate(MemberRate):
    """Hints: the server's `hints_per_minute` per member."""

    message = translatable_plural(
        "You have had the most hints allowed ({limit} a minute); please try again in {n} second.",
        "You have had the most hints allowed ({limit} a minute); please try again in {n} seconds.",
    )

    def allowed(self, limits: Limits) -> int:
        return limits.hints_per_minute


PICTURES_PER_MINUTE = 20
"""Replays and turn-by-turn steps one member may ask for in a minute (issue 35.4): each
may draw (a replay, seconds of a worker's time), in the pool that draws every game's
moves; 20 lets a member step through a game at a reading pace."""


class PictureRate(MemberRate):
    """Replays and the replay's steps: `PICTURES_PER_MINUTE` per member, one count for
    both (a step already drawn counts too: the limit is on asking, as for hints)."""

    message = translatable_plural(
        "You have asked for the most replays and turns allowed ({limit} a minute); "
        "please try again in {n} second.",
        "You have asked for the most replays and turns allowed ({limit} a minute); "
        "please try again in {n} seconds.",
    )

    def allowed(self, limits: Limits) -> int:
        return PICTURES_PER_MINUTE


LIMIT_NAMES = Limits.names()

__all__ = [
    "DEFAULT_LIMITS",
    "LIMIT_NAMES",
    "PICTURES_PER_MINUTE",
    "HintRate",
    "Limits",
    "LobbyExpiry",
    "MemberRate",
    "Over",
    "PictureRate",
    "all_seats_ai",
    "check_active_games",
    "check_open_lobbies",
    "install",
    "limits_of",
    "lobby_closes_at",
    "lobby_expired_words",
    "lobby_expiry_words",
    "over_limit",
]
