"""Which games moved, for every open page at once, never a game read per page.

On PostgreSQL the database tells (`Store.listen_moves`: a trigger NOTIFYs as a move
commits, this process LISTENs) and only the games told of are read, with a full read
of the watched games' versions every `SAFETY_POLL_SECONDS` besides, in case a
notification was lost with a connection. On SQLite, which tells nobody, one small read
of the watched games' versions (`Store.game_versions`) every `POLL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from ..core.store import Store, StoreError
from ..core.store.web import MoveListener

log = logging.getLogger("bot.web")

POLL_SECONDS = 1.0
"""How often the watched games' versions are read (one statement for all of them)
when the database tells nobody of moves."""
SAFETY_POLL_SECONDS = 30.0
"""How often they are read all the same when it does (a notification lost across a
reconnection then shows this late at most)."""

Mark = tuple[int, int]
"""A game's (version, undo epoch): a page shows the game at one mark."""


class Watcher:
    """Tells each open page when its game's mark changes."""

    def __init__(
        self,
        store: Store,
        *,
        poll_seconds: float = POLL_SECONDS,
        safety_poll_seconds: float = SAFETY_POLL_SECONDS,
    ) -> None:
        self._store = store
        self._poll_seconds = poll_seconds
        self._safety_poll_seconds = safety_poll_seconds
        self._marks: dict[int, Mark] = {}
        self._changed: dict[int, asyncio.Condition] = {}
        self._watchers: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._listener: MoveListener | None = None
        self._tells = True
        """Whether the store may tell of moves (False once it said it cannot)."""
        self._unheard = False
        """Whether listening failed last time (said once, not at every retry)."""
        self._heard: set[int] = set()
        self._read_all = True
        self._wake = asyncio.Event()
        self.polls = 0
        """Reads of the versions since start (the benchmark and tests count them)."""
        self.closing = False
        """Whether the server is stopping (`end_streams`)."""

    @property
    def listening(self) -> bool:
        """Whether moves are told now (PostgreSQL) rather than polled for."""
        return self._listener is not None and self._listener.listening

    def mark(self, game_id: int) -> Mark | None:
        return self._marks.get(game_id)

    @contextlib.asynccontextmanager
    async def watching(self, game_id: int, mark: Mark) -> AsyncIterator[asyncio.Condition]:
        """While inside, `game_id` is watched; the condition is notified when it moves."""
        self._watchers[game_id] = self._watchers.get(game_id, 0) + 1
        self._marks.setdefault(game_id, mark)
        changed = self._changed.setdefault(game_id, asyncio.Condition())
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._watch(), name="web-versions")
        try:
            yield changed
        finally:
            self._watchers[game_id] -= 1
            if not self._watchers[game_id]:
                del self._watchers[game_id], self._changed[game_id], self._marks[game_id]

    def moved(self, game_id: int) -> None:
        """This process saved a move of `game_id` (the bot serving its own pages): its
        open pages are told now, not at the next poll (SQLite tells nobody)."""
        self._moved(game_id)

    def _moved(self, game_id: int | None) -> None:
        """The store's word: this game moved (None: the listening was lost)."""
        if game_id is None:
            self._read_all = True
        elif game_id in self._watchers:
            self._heard.add(game_id)
        else:
            return
        self._wake.set()

    async def _listen(self) -> bool:
        """Listen for moves if the store tells of them; whether it does now. A new
        listener asks for a read of every watched game: moves may have come before."""
        if self.listening or not self._tells:
            return self.listening
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        try:
            self._listener = await self._store.listen_moves(self._moved)
        except StoreError as error:
            if not self._unheard:
                log.warning("moves cannot be listened for (read every second meanwhile): %s", error)
            self._unheard = True
            return False
        if self._unheard and self._listener is not None:
            log.info("moves are listened for again")
        self._unheard = False
        if self._listener is None:
            self._tells = False
            return False
        self._read_all = True
        return True

    async def _watch(self) -> None:
        try:
            while self._watchers:
                told = await self._listen()
                if not self._read_all:
                    wait = self._safety_poll_seconds if told else self._poll_seconds
                    try:
                        await asyncio.wait_for(self._wake.wait(), wait)
                    except TimeoutError:
                        self._read_all = True
                watched = self._watchers.keys()
                game_ids = sorted(watched if self._read_all else self._heard & watched)
                self._read_all = False
                self._heard.clear()
                self._wake.clear()
                if game_ids:
                    await self._read(game_ids)
        finally:
            if self._listener is not None:
                await self._listener.close()
                self._listener = None

    async def _read(self, game_ids: list[int]) -> None:
        try:
            marks = await self._store.game_versions(game_ids)
        except StoreError as error:
            log.warning("the games' versions could not be read: %s", error)
            await asyncio.sleep(self._poll_seconds)
            self._read_all = True
            return
        self.polls += 1
        for game_id, mark in marks.items():
            if game_id in self._marks and self._marks[game_id] != mark:
                self._marks[game_id] = mark
                changed = self._changed[game_id]
                async with changed:
                    changed.notify_all()

    async def end_streams(self) -> None:
        """The server is stopping: every open page's stream ends now (`closing`), rather
        than holding the stop until the server's timeout cuts them."""
        self.closing = True
        for changed in list(self._changed.values()):
            async with changed:
                changed.notify_all()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
