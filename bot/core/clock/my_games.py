"""Each player's games at a glance (issue 25.2): `/montana me games`, and the daily
digest of the games waiting for them.

`my_games` lists the games a player has a seat in (found through the store's
`game_seats`, `store.mine`: no scan of every game), those waiting for them first (the
soonest deadline first), then the other games under way, then the lobbies; with, for a
game under way, since when its awaited decision waits and when it is due (the deadline
driver's clock of that game, as stored).

`DigestTask` sends each player who asked for it (`/montana me notify digest:`) one
direct message a day listing the games that wait for them, on the days when at least
one does. The day is claimed in the store before anything is sent (`claim_digest`), so
neither a restart nor a second process sends a second digest that day. A player with
quiet hours (issue 25.1, `bot.core.clock.hours`) gets it when their active hours start, on
their own calendar day; the others at `DIGEST_HOUR` UTC; or at the bot's first pass
after that on a day it was down then (never inside the player's quiet hours).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from bot.core.clock.deadlines import DeadlineDriver, deadline_of, parse_time
from bot.core.clock.hours import QuietHours, is_quiet
from bot.core.play.service import GameService, Refusal
from bot.core.runtime import incidents
from bot.core.runtime.periodic import PeriodicTask
from bot.core.store import ACTIVE, GameRow
from rules import Game

log = logging.getLogger(__name__)

DIGEST_HOUR = 8
"""The hour (UTC) the daily digest is sent."""


@dataclass(frozen=True)
class MyGame:
    row: GameRow
    game: Game | None
    """The game under way (None: in its lobby, or its state cannot be read)."""
    waits_for_me: bool
    since: datetime | None
    """Since when the awaited decision waits (a lobby: since it was opened)."""
    deadline: datetime | None
    """When the awaited decision is due (None: nobody is awaited, or a lobby)."""

    @property
    def awaited(self) -> str | None:
        return self.game.awaiting if self.game is not None else None


def _order(mine: MyGame) -> tuple[int, datetime, int]:
    group = 0 if mine.waits_for_me else 1 if mine.game is not None else 2
    latest = datetime.max.replace(tzinfo=UTC)
    return group, mine.deadline or mine.since or latest, mine.row.id


async def my_games(driver: DeadlineDriver, user_id: str, guild_id: int | None) -> list[MyGame]:
    """The open games of `user_id` in one server (`guild_id`) or in all (None), those
    waiting for them first."""
    found = []
    for row in await driver.service.store.seated_games(user_id, guild_id):
        game = None
        if row.status == ACTIVE and row.state_json is not None:
            try:
                game = GameService.game_of(row)
            except Refusal:  # an unreadable state (logged by `game_of`) is listed bare
                game = None
        if game is None:
            found.append(MyGame(row, None, False, parse_time(row.created_at), None))
            continue
        since = deadline = None
        for watch in await driver.db.watches(row.id):
            if (watch.version, watch.undo_epoch) == (row.version, row.undo_epoch):
                since = watch.started_at
                if game.awaiting is not None:  # counted in the awaited player's active hours
                    hours = await driver.hours.one(game.awaiting)
                    deadline = deadline_of(watch, game.pending.kind, hours)
        found.append(MyGame(row, game, game.awaiting == user_id, since, deadline))
    return sorted(found, key=_order)


DigestSender = Callable[[str, Sequence[MyGame]], Awaitable[None]]
"""Sends one player's digest (the front end's part): the user id, the games waiting."""


class DigestTask(PeriodicTask):
    """A pass when a player's digest is due (and at start, for a day not done yet)."""

    TASK_NAME = "digest"

    def __init__(
        self,
        driver: DeadlineDriver,
        send: DigestSender,
        *,
        clock: Callable[[], datetime] | None = None,
        poll_seconds: float = 3600,
    ) -> None:
        super().__init__(clock=clock or (lambda: datetime.now(UTC)), poll_seconds=poll_seconds)
        self.driver = driver
        self.send = send

    async def one_pass(self) -> datetime | None:
        """Send the digests due now; returns when the next one is due. A player with quiet
        hours (`bot.core.clock.hours`) gets theirs when their active hours start on their own
        day (never inside their quiet hours); the others at `DIGEST_HOUR` UTC."""
        moment = self.clock()
        store = self.driver.service.store
        wanting = await store.digest_due([], (moment.date() + timedelta(days=2)).isoformat())
        quiet = await self.driver.hours.of(wanting)
        next_at = datetime.combine(moment.date(), time(DIGEST_HOUR), UTC) + timedelta(days=1)
        due: dict[str, list[str]] = {}
        for user_id in wanting:
            day, start = digest_day(quiet.get(user_id), moment)
            if moment < start:
                next_at = min(next_at, start)
                continue
            next_at = min(next_at, digest_day(quiet.get(user_id), start + timedelta(days=1))[1])
            if is_quiet(quiet.get(user_id), moment):
                continue  # their day's active hours are over: the next day's digest
            due.setdefault(day, []).append(user_id)
        for day, users in sorted(due.items()):
            for user_id in await store.digest_due(users, day):
                try:  # one player's trouble is logged with its error id and stops no other
                    await self._digest(user_id, day)
                except Exception as error:
                    incidents.record(log, error, f"the digest of {user_id} for {day} failed")
        return next_at

    async def _digest(self, user_id: str, day: str) -> None:
        store = self.driver.service.store
        if not await store.claim_digest(user_id, day):
            return  # another process took it
        waiting = [g for g in await my_games(self.driver, user_id, None) if g.waits_for_me]
        if not waiting:
            return  # nothing waits: no digest today
        try:
            await self.send(user_id, waiting)
        except Exception as error:  # closed DMs, Discord failing: not again today
            log.info("the digest to %s was not sent: %s", user_id, error)


def digest_day(hours: QuietHours | None, moment: datetime) -> tuple[str, datetime]:
    """The day (YYYY-MM-DD) a digest at `moment` counts for, and when that day's digest
    is due: on the player's own calendar when their active hours start (the end of their
    quiet hours), else the UTC day at `DIGEST_HOUR`."""
    if hours is None:
        return moment.date().isoformat(), datetime.combine(moment.date(), time(DIGEST_HOUR), UTC)
    local = moment.astimezone(hours.tz).date()
    return local.isoformat(), datetime.combine(local, hours.end, hours.tz).astimezone(UTC)


__all__ = ["DIGEST_HOUR", "DigestSender", "DigestTask", "MyGame", "digest_day", "my_games"]
