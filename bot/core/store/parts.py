"""What every part of the store stands on: the three primitives a database provides
(`StoreParts._read`, `_writing`, `_failure`, given by `sqlite.SqliteStore` and
`postgres.PostgresStore`), the few statements every table group builds on (`query`,
`transaction`, `_checked_each`, a game's row read whole: `get`, `_rows`; the shards'
clause), written once here so that each part — games, moves, the outbox, guilds,
ratings, queue, web... — inherits them rather than declaring them again, and `guarded`,
which turns the database's own failures into `StoreError` for every method of every part.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, Protocol, TypeVar

from bot.core.runtime.metrics import database_timed

from .model import ChannelBusy, GameRow, StaleVersion, StoreError
from .rows import game_row, lacks_log

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


AtEnd = Callable[[Tx], Awaitable[None]]
"""What a game's end also writes in its transaction (`Store.commit_move`, `end_game`)."""


@dataclass(frozen=True)
class Shards:
    """The shards one process serves: a guild's shard is `(guild_id >> 22) % count`
    (Discord's rule); games without a guild belong to shard 0."""

    count: int
    ids: tuple[int, ...]

    def serves(self, guild_id: int | None) -> bool:
        return (0 if guild_id is None else (guild_id >> 22) % self.count) in self.ids

    def clause(self, column: str = "guild_id") -> str:
        """SQL keeping the rows of these shards (the numbers are ints: no injection)."""
        ids = ", ".join(str(int(shard)) for shard in self.ids)
        none = f"{column} IS NULL AND 0 IN ({ids})"
        return f"({none} OR ({column} >> 22) % {int(self.count)} IN ({ids}))"


class StoreParts:
    """The base of `base.Store` and of each table group mixed into it."""

    shards: Shards | None = None
    """The shards of this process: background reads (`clocks`, `owed`, ...)
    see only their games. None: every game."""

    def _failure(self, error: Exception) -> bool:
        """Whether `error` is the database failing now (locked, full, gone), not a bug."""
        raise NotImplementedError

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    def _writing(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    def _shard_filter(self, column: str = "guild_id") -> str:
        """` AND <shard clause>` for the background reads, or nothing."""
        return "" if self.shards is None else f" AND {self.shards.clause(column)}"

    @guarded
    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one read-only statement (tests and tools; the bot names its reads)."""
        return await self._read(sql, params)

    @guarded
    async def transaction(self, statements: Sequence[Statement]) -> list[int]:
        """Run statements in one transaction; returns each one's rowcount."""
        counts: list[int] = []
        async with self._writing() as tx:
            for sql, params in statements:
                counts.append(await tx.execute(sql, params))
        return counts

    async def _checked(
        self, statements: Sequence[Statement], why: str, then: AtEnd | None = None
    ) -> None:
        """Like `transaction`, but roll back and raise `StaleVersion` if the first
        statement (the guarded UPDATE) touched no row; `then` runs last, in the same
        transaction."""
        await self._checked_each(statements[:1], statements[1:], why, then)

    @guarded
    async def _checked_each(
        self,
        guarded: Sequence[Statement],
        rest: Sequence[Statement],
        why: str,
        then: AtEnd | None = None,
    ) -> None:
        """One transaction: every statement of `guarded` must touch a row (else roll
        back and raise `StaleVersion`), then those of `rest`, then `then`."""
        async with self._writing() as tx:
            for sql, params in guarded:
                if await tx.execute(sql, params) == 0:
                    raise StaleVersion(why)
            for sql, params in rest:
                await tx.execute(sql, params)
            if then is not None:
                await then(tx)

    async def _rows(self, rows: Sequence[Row]) -> list[GameRow]:
        """Game rows with their states whole: the move log of each (its `moves` up to
        its version) put back into the state saved without it."""
        games = []
        for row in rows:
            lines = None
            if lacks_log(row):
                lines = await self._read(
                    "SELECT player, notation FROM moves WHERE game_id = ? AND version <= ? "
                    "ORDER BY version",
                    (row["id"], row["version"]),
                )
            games.append(game_row(row, lines))
        return games

    @guarded
    async def get(self, game_id: int) -> GameRow | None:
        rows = await self._read("SELECT * FROM games WHERE id = ?", (game_id,))
        return (await self._rows(rows))[0] if rows else None
