"""What every part of the store stands on: the three primitives a database provides
(`StoreParts._read`, `_writing`, `_failure`, given by `sqlite.SqliteStore` and
`postgres.PostgresStore`), the statements `base.Store` builds on them (declared here so
that each mixin — guilds, ratings, queue, web... — can call them), and `guarded`, which
turns the database's own failures into `StoreError` for every method of every part.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from bot.core.runtime.metrics import database_timed

from .model import ChannelBusy, GameRow, StaleVersion, StoreError

Row = Any
"""A row as the driver gives it: by column name (`row["id"]`) or position (`row[0]`)."""
Statement = tuple[str, tuple[Any, ...]]


class Tx(Protocol):
    """One open transaction of a store."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of one statement (also `INSERT ... RETURNING`)."""


class StoreParts:
    """The base of `base.Store` and of each table group mixed into it."""

    def _failure(self, error: Exception) -> bool:
        """Whether `error` is the database failing now (locked, full, gone), not a bug."""
        raise NotImplementedError

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    def _writing(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    if TYPE_CHECKING:  # written once, in `base.Store`

        async def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

        async def transaction(self, statements: Sequence[Statement]) -> list[int]: ...

        async def _rows(self, rows: Sequence[Row]) -> list[GameRow]: ...

        def _shard_filter(self, column: str = "guild_id") -> str: ...

        async def get(self, game_id: int) -> GameRow | None: ...


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


P = ParamSpec("P")
T = TypeVar("T")


def guarded(
    method: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Turn the database's own failures (locked, full, damaged, unreachable) into
    `StoreError`, as each store tells them apart (`StoreParts._failure`), and observe
    each call's time for the operators' metrics.

    Integrity errors (a constraint broken: a bug, not the weather) pass unchanged."""
    method = database_timed(method)

    @functools.wraps(method)
    async def guarded_method(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await method(*args, **kwargs)
        except (StoreError, StaleVersion, ChannelBusy):
            raise
        except Exception as error:
            store = args[0]
            if isinstance(store, StoreParts) and store._failure(error):
                raise StoreError(one_line(error)) from error
            raise

    return guarded_method
