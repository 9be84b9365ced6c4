"""The SQLite store: an embedded file, the default (nothing to install).

Two aiosqlite connections in WAL mode, each with its own thread: one writes, one
reads, so a read (a status, a press's first look at its game) never queues behind a
write that waits for a lock held elsewhere. Writes take an asyncio lock and run in
explicit `BEGIN IMMEDIATE` transactions, so a move (new state + its log lines + the
messages it owes) is committed all at once or not at all. Every wait for the database
is bounded (`WRITE_WAIT_SECONDS`): past it the write fails with `StoreError` and
nothing is written, so an interaction can still be answered in time.

`SqliteStore.open(path, exclusive=True)` (the bot) also holds `<path>.lock` for the
life of the store, so a second bot process on the same file refuses to start; a file
serves one process, so shard settings that leave shards to another process are refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import IO, Any

import aiosqlite

from bot.core.runtime.errors import StartupError

from .base import Store
from .dialect import is_postgres, statements_for
from .model import READ_WAIT_SECONDS, WRITE_WAIT_SECONDS, StoreError
from .parts import Row, Shards, Tx, guarded, one_line
from .readonly import READ_ONLY, check_schema
from .schema import MIGRATIONS, SCHEMA_VERSION

try:
    import fcntl
except ImportError:  # not on Windows: no lock file there
    fcntl = None  # type: ignore[assignment]


class _SqliteTx:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._db.execute(sql, tuple(params))
        count = cursor.rowcount
        await cursor.close()
        return count

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._db.execute_fetchall(sql, tuple(params)))

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(sql, [tuple(row) for row in rows])


class ProcessLock:
    """`<database>.lock`, held (`flock`) for the life of a store: one bot per database.

    The kernel drops the lock when the process ends, however it ends."""

    def __init__(self, path: str) -> None:
        self.path = f"{path}.lock"
        self._file: IO[str] | None = None

    def acquire(self, database: str) -> None:
        if fcntl is None:
            return
        try:
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held open)
        except OSError as error:
            raise StartupError(
                f"the database {database} cannot be opened: {one_line(error)}"
            ) from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise StartupError(
                f"the database {database} is in use by another bot process (pid {holder}); "
                "stop it first"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file drops the lock
            self._file = None


async def _connect(path: str, *, wait: float, uri: bool = False) -> aiosqlite.Connection:
    connecting = aiosqlite.connect(path, isolation_level=None, uri=uri)
    try:
        db = await connecting
    except BaseException:
        # aiosqlite stops its thread after a failed connect without waiting for it; wait
        # here, so that no thread outlives the error (it would print to a closed loop)
        worker = getattr(connecting, "_thread", None)
        if worker is not None and worker.is_alive():
            await asyncio.to_thread(worker.join, 5)
        raise
    try:
        db.row_factory = aiosqlite.Row
        await db.execute(f"PRAGMA busy_timeout={int(wait * 1000)}")
    except BaseException:
        await db.close()
        raise
    return db


def _why_not_opened(path: str, error: BaseException) -> str:
    text = one_line(error)
    if "locked" in text or "busy" in text:
        return f"the database {path} is locked by another program; stop it first"
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in text:
        return f"the database {path} cannot be opened: the file is not a database ({text})"
    return (
        f"the database {path} cannot be opened: {text}; check that the file and its "
        "folder exist and are writable"
    )


class SqliteStore(Store):
    """An embedded SQLite file (or `:memory:`): the default, nothing to install."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        lock: ProcessLock | None = None,
        *,
        read_only: bool = False,
    ) -> None:
        self._db = db
        self._reader = reader if reader is not None else db
        self._lock_file = lock
        self._write = asyncio.Lock()
        self.read_only = read_only
        self._path: str | None = None
        """A read-only store's file, for `_picture_writing`'s own connection."""
        self._pictures_db: aiosqlite.Connection | None = None

    @classmethod
    def handles(cls, database: str) -> bool:
        return not is_postgres(database)

    @classmethod
    async def open(
        cls,
        database: str,
        *,
        exclusive: bool = False,
        shards: Shards | None = None,
        read_only: bool = False,
    ) -> Store:
        """Open (creating and migrating) the database at `path`.

        `exclusive`: this process is the only bot on the file (a second one refuses to
        start). `read_only`: one connection that can only read (`mode=ro`), on a file
        the bot made and migrated (see `readonly`). Anything that keeps the file from
        being used raises `StartupError`, one line saying what and where, with nothing
        left open behind it.
        """
        path = database
        if read_only:
            return await cls._open_read_only(path)
        if shards is not None and set(shards.ids) != set(range(shards.count)):
            raise StartupError(
                f"shards {', '.join(map(str, shards.ids))} of {shards.count}: the other "
                "shards would need another bot process, and a SQLite file serves one "
                "process only; run every shard here (leave MONTANA_SHARDS unset) or use "
                "PostgreSQL (MONTANA_DB=postgresql://...)"
            )
        lock = ProcessLock(path) if exclusive and path != ":memory:" else None
        opened: list[aiosqlite.Connection] = []
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            if lock is not None:
                lock.acquire(path)
            db = await _connect(path, wait=WRITE_WAIT_SECONDS)
            opened.append(db)
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
            store = cls(db, lock=lock)
            store.shards = shards
            await store.migrate()
            if path != ":memory:":
                reader = await _connect(path, wait=READ_WAIT_SECONDS)
                opened.append(reader)
                await reader.execute("PRAGMA query_only=ON")
                store._reader = reader
        except BaseException as error:
            for connection in opened:
                with contextlib.suppress(Exception):
                    await connection.close()
            if lock is not None:
                lock.release()
            if isinstance(error, StartupError):
                raise
            if isinstance(error, sqlite3.Error | OSError):
                raise StartupError(_why_not_opened(path, error)) from error
            raise
        return store

    @classmethod
    async def _open_read_only(cls, path: str) -> Store:
        if path == ":memory:" or not Path(path).is_file():
            raise StartupError(
                f"there is no database at {path}: start the bot first (it makes the "
                "file), then the web pages, which only read it"
            )
        try:
            reader = await _connect(
                f"{Path(path).resolve().as_uri()}?mode=ro", wait=READ_WAIT_SECONDS, uri=True
            )
        except (sqlite3.Error, OSError) as error:
            raise StartupError(_why_not_opened(path, error)) from error
        store = cls(reader, read_only=True)
        store._path = path
        try:
            await reader.execute("PRAGMA query_only=ON")
            await check_schema(store, path)
        except BaseException as error:
            await reader.close()
            if isinstance(error, sqlite3.Error | OSError):
                raise StartupError(_why_not_opened(path, error)) from error
            raise
        return store

    async def close(self) -> None:
        async with self._write:
            if self._pictures_db is not None:
                await self._pictures_db.close()
                self._pictures_db = None
            if self._reader is not self._db:
                await self._reader.close()
            await self._db.close()
        if self._lock_file is not None:
            self._lock_file.release()

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """All rows of one statement on the read connection, fetched in one go: a
        statement left half-read would hold its snapshot open, and the next reads of
        other coroutines on the connection would miss what was committed since."""
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    @guarded
    async def schema_version(self) -> int:
        tables = await self._read(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        )
        if not tables:
            return 0
        rows = await self._read("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

    @guarded
    async def tables(self) -> list[str]:
        rows = await self._read(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' AND name != 'schema_version'"
        )
        return sorted((str(row[0]) for row in rows), key=lambda name: (name != "games", name))

    async def migrate(self) -> None:
        """Bring the file's schema up to `SCHEMA_VERSION`, one migration per transaction."""
        async with self._write:
            # a migration may rebuild a table others refer to; foreign keys are checked
            # once at the end instead (the pragma is a no-op inside a transaction)
            await self._db.execute("PRAGMA foreign_keys=OFF")
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                await self._db.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                async with self._db.execute("SELECT version FROM schema_version") as cursor:
                    row = await cursor.fetchone()
                if row is None:
                    await self._db.execute("INSERT INTO schema_version (version) VALUES (0)")
                    current = 0
                else:
                    current = int(row[0])
                if current > SCHEMA_VERSION:
                    raise StartupError(
                        f"the database has schema version {current}, newer than this bot "
                        f"({SCHEMA_VERSION}); update the bot"
                    )
                for version in range(current, SCHEMA_VERSION):
                    for statement in statements_for(MIGRATIONS[version], "sqlite"):
                        await self._db.execute(statement)
                    await self._db.execute("UPDATE schema_version SET version = ?", (version + 1,))
                async with self._db.execute("PRAGMA foreign_key_check") as cursor:
                    if await cursor.fetchone() is not None:
                        raise RuntimeError("a migration left rows pointing at nothing")
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            finally:
                await self._db.execute("PRAGMA foreign_keys=ON")

    def _failure(self, error: Exception) -> bool:
        if isinstance(error, sqlite3.OperationalError | sqlite3.InternalError):
            return True
        return type(error) is sqlite3.DatabaseError

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[Tx]:
        """The write connection inside `BEGIN IMMEDIATE` ... `COMMIT` (rolled back on any
        failure), after a bounded wait for the other writes of this process."""
        if self.read_only:
            raise StoreError(READ_ONLY)
        try:
            await asyncio.wait_for(self._write.acquire(), WRITE_WAIT_SECONDS)
        except TimeoutError:
            raise StoreError("the database is busy (other writes are waiting)") from None
        try:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteTx(self._db)
                await self._db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error, ValueError):
                    await self._db.execute("ROLLBACK")
                raise
        finally:
            self._write.release()

    @contextlib.asynccontextmanager
    async def _picture_writing(self) -> AsyncIterator[Tx]:
        """(See `DrawnTables`.) A read-only store (the web process) writes the pictures
        it drew through a connection of their own, opened at the first one; the bot's
        store through its own."""
        if not self.read_only:
            async with self._writing() as tx:
                yield tx
            return
        try:
            await asyncio.wait_for(self._write.acquire(), WRITE_WAIT_SECONDS)
        except TimeoutError:
            raise StoreError("the database is busy (other writes are waiting)") from None
        try:
            if self._pictures_db is None:
                if self._path is None:
                    raise StoreError(READ_ONLY)
                self._pictures_db = await _connect(self._path, wait=WRITE_WAIT_SECONDS)
            db = self._pictures_db
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteTx(db)
                await db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error, ValueError):
                    await db.execute("ROLLBACK")
                raise
        finally:
            self._write.release()

    async def outbox_ids_from(self, floor: int) -> None:
        """Number the next owed messages from `floor` on (if the ids are not past it
        already). A backup's copy (`bot.backup`): an owed message's id is its nonce on
        Discord, which refuses a nonce seen in the past minutes, and the bot that went on
        after the copy used the ids that follow it."""
        async with self._writing() as tx:
            if not await tx.execute(
                "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'outbox'", (floor,)
            ):
                await tx.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES ('outbox', ?)", (floor,)
                )
