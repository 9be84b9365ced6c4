"""Background tasks that run a pass again and again: at the moment the pass asks for, at
the latest every `poll_seconds`, and at once when woken (the deadline task, the delivery
task)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime

from bot.core.runtime import incidents

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


class PeriodicTask:
    """`start` runs `one_pass` until `stop`: after a pass it sleeps until the moment the
    pass returns (or `poll_seconds`, whichever comes first) unless `wake` is called
    meanwhile, never less than `MIN_SLEEP_SECONDS` (a pass records what it did, so the
    next moment moves on). A pass that fails is logged with its error id
    (`bot.core.runtime.incidents`) and run again after `after_failure()` seconds. A pass
    over many games (deadlines, digests, lobbies) keeps each one's failure to that one:
    it is logged with its error id and the pass goes on with the others. The clock is
    injectable: tests move time, not wait."""

    TASK_NAME = "periodic"
    MIN_SLEEP_SECONDS = 1.0

    def __init__(self, *, clock: Clock, poll_seconds: float) -> None:
        self.clock = clock
        self.poll_seconds = poll_seconds
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def one_pass(self) -> datetime | None:
        """Do what is due; return when the next thing will be (None: nothing known)."""
        raise NotImplementedError

    def after_failure(self) -> float:
        return self.poll_seconds

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.TASK_NAME)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def wake(self) -> None:
        """Run a pass now (after it, the next moment is computed again)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()  # a wake during the pass calls for another one
            delay = self.poll_seconds
            try:
                upcoming = await self.one_pass()
                if upcoming is not None:
                    delay = min(delay, (upcoming - self.clock()).total_seconds())
            except asyncio.CancelledError:
                raise
            except Exception as error:
                incidents.record(
                    log, error, f"the {self.TASK_NAME} task failed; trying again later"
                )
                delay = min(delay, self.after_failure())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(delay, self.MIN_SLEEP_SECONDS))


__all__ = ["Clock", "PeriodicTask"]
