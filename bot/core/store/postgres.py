"""The PostgreSQL store (asyncpg): one database shared by several bot processes.

The statements are `base.Store`'s, translated by `dialect` (`?` -> `$n`, column types).
Reads go through a connection pool; a write takes a pooled connection for one
transaction (PostgreSQL's READ COMMITTED: the version-checked `UPDATE` of a move waits
for a concurrent one and then finds the version changed, so only one of them applies).
Waits are bounded: a connection from the pool within `WRITE_WAIT_SECONDS`, a row lock
within the server's `lock_timeout`; past them the write fails with `StoreError`.

A bot process (`exclusive=True`) holds, on a connection of its own, one advisory lock
per shard it serves (`pg_try_advisory_lock`), so a second process claiming one of them
is refused at start; the locks go when the process's connection does, however it ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.core.runtime.errors import StartupError

from .base import Store
from .dialect import is_postgres, masked, postgres_sql, statements_for
from .model import READ_WAIT_SECONDS, WRITE_WAIT_SECONDS, StoreError
from .parts import Row, Shards, Tx, guarded, one_line
from .readonly import READ_ONLY, check_schema
from .schema import MIGRATIONS, SCHEMA_VERSION
from .web import MOVES_CHANNEL, Moved, MoveListener

SHARD_LOCK = 0x4D4F4E54
"""First key of the advisory locks of shards ("MONT"); the second is the shard id."""
COUNT_LOCK = 0x4D4F4E55
"""First key of the (shared) advisory lock naming the shard count; the second is it."""
MIGRATE_LOCK = 0x4D4F4E56
"""Advisory lock held while migrating, so two processes starting at once take turns."""
POOL_SIZE = 10

_FAILURES: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.QueryCanceledError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,  # a read-only store's (the web's)
)


def _count(status: str) -> int:
    """Rows changed, from a command status such as "UPDATE 1" or "INSERT 0 3"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class _PgTx:
    def __init__(self, connection: asyncpg.Connection | PoolConnectionProxy) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._connection.execute(postgres_sql(sql), *params))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._connection.fetch(postgres_sql(sql), *params))

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._connection.executemany(postgres_sql(sql), [tuple(row) for row in rows])


class PostgresStore(Store):
    """A PostgreSQL database named by a `postgresql://` URL."""

    def __init__(self, pool: asyncpg.Pool, database: str, *, read_only: bool = False) -> None:
        self._pool = pool
        self._database = database
        self._locks: asyncpg.Connection | None = None
        self.read_only = read_only

    @classmethod
    def handles(cls, database: str) -> bool:
        return is_postgres(database)

    @classmethod
    async def open(
        cls,
        database: str,
        *,
        exclusive: bool = False,
        shards: Shards | None = None,
        read_only: bool = False,
    ) -> Store:
        """Connect, migrate, and (`exclusive`) claim the shards; `StartupError`, one line
        saying what, with nothing left open, when the database cannot be used.
        `read_only` (the web process): no migration, the schema must be this code's,
        and every transaction of the connections is read-only (the server refuses a
        write, and so does the store before it asks)."""
        shown = masked(database)
        settings = {
            "lock_timeout": str(int(WRITE_WAIT_SECONDS * 1000)),
            "application_name": "montana-web" if read_only else "montana-bot",
        }
        if read_only:
            settings["default_transaction_read_only"] = "on"
        try:
            pool = await asyncpg.create_pool(
                database,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=10,
                server_settings=settings,
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StartupError(
                f"the database {shown} cannot be reached: {one_line(error)}; check the "
                "URL, that the server runs and that the user may connect"
            ) from None
        store = cls(pool, database, read_only=read_only)
        store.shards = shards
        try:
            if exclusive:
                await store._claim(shards or Shards(1, (0,)))
            if read_only:
                await check_schema(store, shown)
            else:
                await store.migrate()
        except BaseException as error:
            await store.close()
            if isinstance(error, StartupError):
                raise
            if isinstance(error, asyncpg.PostgresError | OSError):
                raise StartupError(
                    f"the database {shown} cannot be used: {one_line(error)}"
                ) from error
            raise
        return store

    async def _claim(self, shards: Shards) -> None:
        """Hold the advisory lock of each shard (and the shard count, shared) on a
        connection of this store's own; `StartupError` if another process has one."""
        self._locks = await asyncpg.connect(self._database, timeout=10)
        others = await self._locks.fetch(
            "SELECT DISTINCT objid FROM pg_locks WHERE locktype = 'advisory' "
            "AND classid = $1 AND objid <> $2 AND objsubid = 2",
            COUNT_LOCK,
            shards.count,
        )
        if others:
            counts = ", ".join(str(row[0]) for row in others)
            raise StartupError(
                f"another bot process on this database runs with a shard count of {counts}, "
                f"this one with {shards.count}; every process must use the same "
                "MONTANA_SHARD_COUNT"
            )
        await self._locks.execute(
            "SELECT pg_advisory_lock_shared($1, $2)", COUNT_LOCK, shards.count
        )
        for shard in shards.ids:
            taken = await self._locks.fetchval(
                "SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK, shard
            )
            if not taken:
                raise StartupError(
                    f"shard {shard} (of {shards.count}) is already served by another bot "
                    f"process on the database {masked(self._database)}; give each process "
                    "its own shards (MONTANA_SHARDS) or stop the other one first"
                )

    async def close(self) -> None:
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
            self._locks = None
        await self._pool.close()

    def _failure(self, error: Exception) -> bool:
        return isinstance(error, _FAILURES)

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(
            await self._pool.fetch(postgres_sql(sql), *params, timeout=READ_WAIT_SECONDS * 5)
        )

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[Tx]:
        if self.read_only:
            raise StoreError(READ_ONLY)
        async with self._transaction() as tx:
            yield tx

    @contextlib.asynccontextmanager
    async def _picture_writing(self) -> AsyncIterator[Tx]:
        """(See `DrawnTables`.) A read-only store (the web process) writes the pictures
        it drew in transactions it makes read-write: its database user needs the right
        to write `drawn_pictures`, and nothing else."""
        async with self._transaction(read_write=self.read_only) as tx:
            yield tx

    @contextlib.asynccontextmanager
    async def _transaction(self, *, read_write: bool = False) -> AsyncIterator[Tx]:
        """A transaction on a connection of the pool (`read_write`: made so in a session
        that is read-only by default)."""
        try:
            connection = await self._pool.acquire(timeout=WRITE_WAIT_SECONDS)
        except TimeoutError:
            raise StoreError("the database is busy (no connection free)") from None
        try:
            async with connection.transaction():
                if read_write:
                    await connection.execute("SET TRANSACTION READ WRITE")
                yield _PgTx(connection)
        finally:
            await self._pool.release(connection)

    @guarded
    async def schema_version(self) -> int:
        rows = await self._read("SELECT to_regclass('schema_version') IS NOT NULL")
        if not rows or not rows[0][0]:
            return 0
        rows = await self._read("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

    @guarded
    async def tables(self) -> list[str]:
        rows = await self._read(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename != 'schema_version'"
        )
        return sorted((str(row[0]) for row in rows), key=lambda name: (name != "games", name))

    async def after_copy(self) -> None:
        identities = await self._read(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_identity = 'YES'"
        )
        async with self._writing() as tx:
            for table, column in identities:
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f'COALESCE((SELECT MAX("{column}") FROM "{table}"), 0) + 1, false)'
                )

    async def migrate(self) -> None:
        """Bring the schema up to `SCHEMA_VERSION` in one transaction (two processes
        starting at once take turns on an advisory lock)."""
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATE_LOCK)
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
            )
            current = await connection.fetchval("SELECT version FROM schema_version")
            if current is None:
                await connection.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            if current > SCHEMA_VERSION:
                raise StartupError(
                    f"the database has schema version {current}, newer than this bot "
                    f"({SCHEMA_VERSION}); update the bot"
                )
            for version in range(current, SCHEMA_VERSION):
                for statement in statements_for(MIGRATIONS[version], "postgres"):
                    await connection.execute(statement)
                await connection.execute("UPDATE schema_version SET version = $1", version + 1)

    async def listen_moves(self, moved: Moved) -> MoveListener:
        """(See `WebTables.listen_moves`.) The `games_moved` trigger NOTIFYs as a
        game's move commits; a connection of this store's own LISTENs (a pooled one
        would be handed to other work)."""
        try:
            connection = await asyncpg.connect(
                self._database, timeout=10, server_settings={"application_name": "montana-web"}
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreError(one_line(error)) from None

        def heard(
            _connection: asyncpg.Connection | PoolConnectionProxy,
            _pid: int,
            _channel: str,
            payload: object,
        ) -> None:
            if isinstance(payload, str) and payload.isdigit():
                moved(int(payload))

        def lost(_connection: object) -> None:
            moved(None)

        try:
            await connection.add_listener(MOVES_CHANNEL, heard)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            await connection.close()
            raise StoreError(one_line(error)) from None
        connection.add_termination_listener(lost)
        return _Listening(connection)

    async def outbox_ids_from(self, floor: int) -> None:
        """Number the next owed messages from `floor` on (see `SqliteStore`'s)."""
        async with self._writing() as tx:
            await tx.fetch(
                "SELECT setval(pg_get_serial_sequence('outbox', 'id'), "
                "GREATEST(CAST(? AS BIGINT), (SELECT COALESCE(MAX(id), 0) FROM outbox)))",
                (floor,),
            )


class _Listening:
    """The connection LISTENing on `MOVES_CHANNEL` (`PostgresStore.listen_moves`)."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    @property
    def listening(self) -> bool:
        return not self._connection.is_closed()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._connection.close()
