"""The players' quiet hours in delivery: a prompt that would ping a player inside them
leaves the ping out and owes it as a notice, and a mention or direct message for them
is put off to the start of their active hours.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime

from bot.core.delivery.presence import YOUR_TURN, Notice
from bot.core.store import ACTIVE, NOTICE, GameRow, Owed, OwedMessage, Store, StoreError
from rules import Game

log = logging.getLogger(__name__)

QuietEnd = Callable[[str, datetime], Awaitable[datetime | None]]
"""When a player's quiet hours around a moment end (None: they are active then)."""


class QuietHours:
    """What quiet hours change in delivering a game's messages (`quiet_end`: None when
    the front end knows no quiet hours)."""

    def __init__(self, store: Store, quiet_end: QuietEnd | None) -> None:
        self.store = store
        self.quiet_end = quiet_end

    async def awaited(
        self, row: GameRow, game: Game, body: Mapping[str, object], now: datetime
    ) -> dict[str, datetime]:
        """The awaited player and the end of their quiet hours, when the prompt would
        ping them now and they are inside them (else nobody)."""
        awaited = game.awaiting
        if (
            self.quiet_end is None
            or awaited is None
            or not body.get("handover", True)
            or row.status != ACTIVE
            or row.ai_plays(awaited)
        ):
            return {}
        until = await self.quiet_end(awaited, now)
        return {awaited: until} if until is not None else {}

    async def owe_turn(self, row: GameRow, version: int, user: str) -> None:
        """The ping a post left out inside `user`'s quiet hours, owed as a notice: it
        waits for the start of their active hours (`put_off`), void if the game moved
        on by then."""
        notice = Notice(YOUR_TURN, user, turn=version)
        try:
            await self.store.owe(row.id, [OwedMessage(NOTICE, version, notice.body())])
        except StoreError as error:
            log.warning("could not owe the ping left out in quiet hours: %s", error)

    async def put_off(self, entry: Owed, user: str, now: datetime) -> bool:
        """Whether `user` is inside their quiet hours now; if so, `entry` (a mention or
        direct message for them) is put off to the start of their active hours, when
        it is delivered (or dropped, if void by then), once."""
        if self.quiet_end is None:
            return False
        until = await self.quiet_end(user, now)
        if until is None:
            return False
        try:
            await self.store.postpone_owed([entry.id], until)
        except StoreError as error:
            log.warning("could not put off a message in quiet hours: %s", error)
            return True
        log.info("%s for %s put off to the end of their quiet hours", entry.kind, user)
        return True
