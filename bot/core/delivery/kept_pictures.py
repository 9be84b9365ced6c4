"""One drawing per version (issues 37.3 and 35.4): the picture of a game's version in a
language is drawn once and kept beside the games (`store.drawn`), then served by every
surface that shows that version — the bot's post, the replay's step view, the web page's
picture and its replay slider — instead of being drawn again.

`PictureShelf.picture(key, draw, inputs=...)` serves the kept picture or draws it (once:
a request for a picture being drawn waits for that drawing) and keeps it. `inputs` says
what else the drawing took (`inputs_of`: the field highlighted, the names, the notes by
them): the bot's post wants a picture drawn from its own inputs (a version whose notes
changed since is drawn again, and replaces the kept one); the steps and the pages take
`any_inputs`, whatever was drawn for the version (the bot's post first of all).

The table is bounded (`bound`, bytes: `MONTANA_PICTURE_STORE_MB`, `DEFAULT_BOUND_BYTES`
by default). Keeping or reading a picture never fails a post or a page: the store's
trouble is logged and the picture drawn (and served) anyway.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime

from bot.core.store import Drawn, DrawnKey, Store, moment_of

log = logging.getLogger(__name__)

DEFAULT_BOUND_BYTES = 256 * 1024 * 1024
"""The pictures kept, in bytes in all, unless the settings say otherwise: about 1,500
snapshots (~150-190 KiB each in mid-game)."""
TOUCH_SECONDS = 600.0
"""A kept picture served is marked used again at most this often (a write): eviction
by last use is that coarse, and an open page costs no write per request."""
WAIT_STEP_SECONDS = 0.1
"""How often `picture(wait_seconds=...)` looks again for a picture the bot is drawing."""

Draw = Callable[[], Awaitable[bytes]]


def inputs_of(
    highlight: str | None, names: Mapping[str, str], notes: Mapping[str, str] | None = None
) -> str:
    """A short digest of what a picture of a version is drawn from, beside the game
    and the language: the field highlighted, the seats' names, the notes by them."""
    text = json.dumps(
        [highlight, sorted(names.items()), sorted((notes or {}).items())], ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class PictureShelf:
    """The pictures of versions, kept in `store` up to `bound` bytes; `drawn` counts the
    drawings this shelf made, `served` the pictures it served kept.

    A picture drawn is handed to those who asked for it at once; it is written to the
    store after (a commit waits for the disk), still under its key, so that a request
    meanwhile waits for that drawing rather than drawing again. `settled` waits for
    those writes (before the store closes)."""

    def __init__(
        self, store: Store, *, bound: int = DEFAULT_BOUND_BYTES, kept: bool = True
    ) -> None:
        self.store = store
        self.bound = bound
        self.uses_kept = kept
        """False: every picture is drawn and none kept (what the kept pictures save is
        measured against it: `python -m bot web --draw-all`)."""
        self.drawn = 0
        self.served = 0
        self._drawing: dict[tuple[DrawnKey, str | None], asyncio.Future[bytes]] = {}
        self._working: set[asyncio.Task[None]] = set()
        self._keeping_failed = False

    async def picture(
        self,
        key: DrawnKey,
        draw: Draw,
        *,
        inputs: str,
        any_inputs: bool = False,
        wait_seconds: float = 0.0,
    ) -> bytes:
        """The picture of `key`: kept (drawn from `inputs`, or from any if `any_inputs`),
        else drawn by `draw` (once for all who ask meanwhile) and kept as drawn from
        `inputs`. `wait_seconds`: when nothing is kept yet, look again for that long
        before drawing (the bot is drawing this version for its post)."""
        if not self.uses_kept:
            self.drawn += 1
            return await draw()
        flight = (key, None if any_inputs else inputs)
        ready = self._drawing.get(flight)
        if ready is None:
            ready = asyncio.get_running_loop().create_future()
            # retrieved here, so that a drawing failed while nobody waits is not reported
            ready.add_done_callback(lambda done: done.cancelled() or done.exception())
            self._drawing[flight] = ready
            work = asyncio.ensure_future(
                self._picture(key, draw, inputs, any_inputs, wait_seconds, ready)
            )
            self._working.add(work)

            def finished(work: asyncio.Task[None], ready: asyncio.Future[bytes] = ready) -> None:
                self._working.discard(work)
                if self._drawing.get(flight) is ready:
                    del self._drawing[flight]

            work.add_done_callback(finished)
        return await asyncio.shield(ready)

    async def settled(self) -> None:
        """Wait for the pictures being drawn or written to the store."""
        while self._working:
            await asyncio.gather(*self._working, return_exceptions=True)

    async def _picture(
        self,
        key: DrawnKey,
        draw: Draw,
        inputs: str,
        any_inputs: bool,
        wait_seconds: float,
        ready: asyncio.Future[bytes],
    ) -> None:
        try:
            found = await self._read(key)
            until = time.monotonic() + wait_seconds
            while found is None and time.monotonic() < until:
                await asyncio.sleep(WAIT_STEP_SECONDS)
                found = await self._read(key)
            if found is not None and (any_inputs or found.inputs == inputs):
                self.served += 1
                ready.set_result(found.png)
                await self._touch(key, found)
                return
            png = await draw()
            self.drawn += 1
        except asyncio.CancelledError:
            ready.cancel()
            raise
        except Exception as error:  # the askers' error (the drawing failed)
            ready.set_exception(error)
            return
        ready.set_result(png)
        await self._keep(key, png, inputs)

    async def _read(self, key: DrawnKey) -> Drawn | None:
        try:
            return await self.store.drawn_picture(key)
        except Exception as error:  # the picture is drawn instead
            log.warning("reading the kept picture of game %s failed: %s", key.game_id, error)
            return None

    async def _touch(self, key: DrawnKey, found: Drawn) -> None:
        try:
            age = (datetime.now(UTC) - moment_of(found.used_at)).total_seconds()
            if age >= TOUCH_SECONDS:
                await self.store.touch_drawn(key)
        except Exception as error:
            log.info("marking the picture of game %s used failed: %s", key.game_id, error)

    async def _keep(self, key: DrawnKey, png: bytes, inputs: str) -> None:
        try:
            await self.store.keep_drawn(key, png, inputs, bound=self.bound)
        except Exception as error:
            # e.g. the web process's database user may not write: said once, then quiet
            level = logging.DEBUG if self._keeping_failed else logging.WARNING
            self._keeping_failed = True
            log.log(level, "keeping the picture of game %s failed: %s", key.game_id, error)


__all__ = ["DEFAULT_BOUND_BYTES", "Draw", "PictureShelf", "inputs_of"]
