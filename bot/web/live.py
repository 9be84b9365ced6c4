"""Which games moved, for every open page at once: one small read of the watched games'
versions per `POLL_SECONDS` (`Store.game_versions`), never a game read per page."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from ..core.store import Store, StoreError

log = logging.getLogger("bot.web")

POLL_SECONDS = 1.0
"""How often the watched games' versions are read (one statement for all of them)."""

Mark = tuple[int, int]
"""A game's (version, undo epoch): a page shows the game at one mark."""


class Watcher:
    """Tells each open page when its game's mark changes."""

    def __init__(self, store: Store, *, poll_seconds: float = POLL_SECONDS) -> None:
        self._store = store
        self._poll_seconds = poll_seconds
        self._marks: dict[int, Mark] = {}
        self._changed: dict[int, asyncio.Condition] = {}
        self._watchers: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        self.polls = 0
        """Reads of the versions since start (the benchmark and tests count them)."""

    def mark(self, game_id: int) -> Mark | None:
        return self._marks.get(game_id)

    @contextlib.asynccontextmanager
    async def watching(self, game_id: int, mark: Mark) -> AsyncIterator[asyncio.Condition]:
        """While inside, `game_id` is polled; the condition is notified when it moves."""
        self._watchers[game_id] = self._watchers.get(game_id, 0) + 1
        self._marks.setdefault(game_id, mark)
        changed = self._changed.setdefault(game_id, asyncio.Condition())
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._poll(), name="web-versions")
        try:
            yield changed
        finally:
            self._watchers[game_id] -= 1
            if not self._watchers[game_id]:
                del self._watchers[game_id], self._changed[game_id], self._marks[game_id]

    async def _poll(self) -> None:
        while self._watchers:
            await asyncio.sleep(self._poll_seconds)
            game_ids = sorted(self._watchers)
            if not game_ids:
                break
            try:
                marks = await self._store.game_versions(game_ids)
            except StoreError as error:
                log.warning("the games' versions could not be read: %s", error)
                continue
            self.polls += 1
            for game_id, mark in marks.items():
                if game_id in self._marks and self._marks[game_id] != mark:
                    self._marks[game_id] = mark
                    changed = self._changed[game_id]
                    async with changed:
                        changed.notify_all()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
