"""Never two live prompts, never a move posted twice (issue 41): the outbox's work on
messages already out, besides posting.

* A new prompt makes the previous one stale: its buttons are taken off at once (the one
  edit a move always made), in the channel or thread that prompt was posted in (kept
  with each delivered message: the game may have moved since). If that fails, the
  record of the new prompt owes it (outbox kind `CLEAR`), retried with the back-off of
  a post, also after a restart, and given up only when Discord says the message is not
  there (`Dropped`).
* A message posted without a look for an earlier attempt (Discord could not be read
  for `announce.BLIND_AFTER`; `Posted.unchecked`: a move's post or a notice in the
  thread) owes a `RECHECK`: once Discord can be read, the later of two messages carrying
  the same identity is deleted; if it was the prompt, the earlier one is the prompt now,
  else (a move's post) its buttons are taken off.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import cast

from bot.core.delivery.outcome import Announcer, Clearer, Posted, Rechecker
from bot.core.delivery.problems import DeliveryProblem, Dropped
from bot.core.store import POST, GameRow, Owed, Store, StoreError
from bot.core.store.outbox import CLEAR, RECHECK

log = logging.getLogger(__name__)

Work = Callable[[GameRow], Awaitable[int | None]]
"""One owed `CLEAR` or `RECHECK` for the game as it is now: the message that is the
game's prompt from now on, when that changed (a duplicate prompt deleted)."""


class StalePrompts:
    """The clears and rechecks of `Delivery`, through the front end's `Clearer` and
    `Rechecker` (an announcer that is neither owes none)."""

    KINDS = (CLEAR, RECHECK)

    def __init__(self, store: Store, announcer: Callable[[], Announcer]) -> None:
        self.store = store
        self.announcer = announcer
        """The delivery's announcer now (a test may swap it)."""

    @property
    def clearer(self) -> Clearer | None:
        front = self.announcer()
        return cast(Clearer, front) if hasattr(front, "clear") else None

    @property
    def checker(self) -> Rechecker | None:
        front = self.announcer()
        return cast(Rechecker, front) if hasattr(front, "carrying") else None

    async def made_stale(self, row: GameRow, posted: Posted) -> tuple[int, int] | None:
        """The prompt a new one (`posted`) makes stale: its message and the channel or
        thread it was posted in; None when there is none (or no front end clears)."""
        old = row.message_id
        if old is None or old == posted.message_id or self.clearer is None:
            return None
        try:
            place = await self.store.message_place(row.id, old)
        except StoreError as error:
            log.warning("could not read where message %s is: %s", old, error)
            place = None
        return old, place if place is not None else row.play_channel_id

    async def cleared_or_owed(
        self, row: GameRow, posted: Posted, place: int, *, prompt: bool
    ) -> tuple[int, int] | None:
        """The prompt the new prompt `posted` makes stale, cleared at once; if that
        failed, the message and channel its record is to owe a `CLEAR` for. A post in
        words only (not `prompt`) makes nothing stale, but owes a `CLEAR` for itself when
        it still shows buttons (`Posted.buttons_left`; in `place`)."""
        if not prompt:
            left = posted.buttons_left and posted.message_id is not None
            return (posted.message_id or 0, place) if left else None
        stale = await self.made_stale(row, posted)
        if stale is None or await self.clear_now(row, *stale):
            return None
        return stale

    async def clear_now(self, row: GameRow, message_id: int, channel_id: int) -> bool:
        """Clear a stale prompt at once, before the new one is recorded; whether it is
        done (if not, the record owes it). A crash before the record posts nothing
        again (the post is found by its identity) and clears then."""
        clearer = self.clearer
        if clearer is None:
            return True
        try:
            await clearer.clear(row, channel_id, message_id)
        except Dropped as dropped:
            log.info("the old prompt %s: %s", message_id, dropped.words)
        except Exception as error:
            words = error.words if isinstance(error, DeliveryProblem) else repr(error)
            log.warning("could not clear the old prompt %s (owed): %s", message_id, words)
            return False
        return True

    def work(self, entry: Owed) -> Work | None:
        """What an owed `CLEAR` or `RECHECK` does (None: no front end for it)."""
        body = entry.body
        channel_id = int(body.get("channel_id") or 0)
        if entry.kind == CLEAR and (clearer := self.clearer) is not None:
            message_id = int(body["message_id"])

            async def clear(row: GameRow) -> int | None:
                if message_id != row.message_id:  # never the game's prompt now
                    await clearer.clear(row, channel_id or row.play_channel_id, message_id)
                return None

            return clear
        if entry.kind == RECHECK and (checker := self.checker) is not None:
            owed_id = int(body["owed_id"])
            since = datetime.fromisoformat(str(body["since"]))
            buttons = body.get("of", POST) == POST  # a notice carries none

            async def recheck(row: GameRow) -> int | None:
                return await self._recheck(checker, row, channel_id, owed_id, since, buttons)

            return recheck
        return None

    async def _recheck(
        self,
        checker: Rechecker,
        row: GameRow,
        channel_id: int,
        owed_id: int,
        since: datetime,
        buttons: bool = True,
    ) -> int | None:
        found = await checker.carrying(row, channel_id, owed_id, since)
        if len(found) < 2:
            return None
        kept, duplicates = found[0], found[1:]
        for duplicate in duplicates:
            log.warning("message %s duplicates %s (outbox %s)", duplicate, kept, owed_id)
            await checker.delete(row, channel_id, duplicate)
        if row.message_id in duplicates:
            await self.store.prompt_replaced(row.id, row.message_id, kept)
            return kept
        if buttons and self.clearer is not None:  # the earlier attempt's buttons are stale
            await self.clearer.clear(row, channel_id, kept)
        return None


__all__ = ["StalePrompts", "Work"]
