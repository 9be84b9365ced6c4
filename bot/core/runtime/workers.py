"""Worker processes for CPU work kept off the bot's process (pictures, AI decisions)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import threading
import time


def _leave_with_parent(parent: int, niceness: int = 0) -> None:
    """In the worker: exit as soon as the bot process is gone (killed, it cannot stop its
    workers, which would live on and keep the bot's output open); `niceness`: run at a
    lower priority than the bot's other workers (the operating system gives them the
    cores first)."""
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def worker_pool(workers: int, *, niceness: int = 0) -> concurrent.futures.ProcessPoolExecutor:
    """`workers` spawned processes (the bot's threads and loop are not copied) that end
    with the bot, even when the bot is killed; `niceness` lowers their priority."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_leave_with_parent,
        initargs=(os.getpid(), niceness),
    )


__all__ = ["worker_pool"]
