"""The SQLite store: one row per game, an append-only move log, the outbox of messages
owed to the players, schema migrations.

Two aiosqlite connections in WAL mode, each with its own thread: one writes, one
reads, so a read (a status, a press's first look at its game) never queues behind a
write that waits for a lock held elsewhere. Writes take an asyncio lock and run in
explicit `BEGIN IMMEDIATE` transactions, so a move (new state + its log lines + the
messages it owes) is committed all at once or not at all; `commit_move` checks the
version it expects (`UPDATE ... WHERE version = ?`) so two processes or two presses
can never both apply a move to the same state. Every wait for the database is
bounded (`WRITE_WAIT_SECONDS`): past it the write fails with `StoreError` and
nothing is written, so an interaction can still be answered in time.

`Store.open(path, exclusive=True)` (the bot) also holds `<path>.lock` for the life of
the store, so a second bot process on the same file refuses to start.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, ParamSpec, TypeVar

import aiosqlite

from .errors import StartupError

try:
    import fcntl
except ImportError:  # not on Windows: no lock file there
    fcntl = None  # type: ignore[assignment]

LOBBY = "lobby"
ACTIVE = "active"
FINISHED = "finished"
ABANDONED = "abandoned"
ENDED = "ended"
"""Stopped early by a vote of the other players; the standings then are its `result`."""
OPEN_STATUSES = (LOBBY, ACTIVE)
DEFAULT_TURN_SECONDS = 48 * 3600
"""A game's turn deadline unless set otherwise (`bot.core.deadlines`)."""
DEFAULT_AUCTION_SECONDS = 24 * 3600
"""A game's deadline to answer the city auction unless set otherwise."""
WRITE_WAIT_SECONDS = 2.0
"""Longest wait for the database's write lock (another write of this process, or of
another program holding the file): past it a write fails with `StoreError`. Short
enough that an interaction not yet answered can still say so within Discord's 3 s."""
READ_WAIT_SECONDS = 1.0

POST = "post"
"""An owed message: a move (or a fresh prompt) shown in the game's channel or thread."""
DM = "dm"
"""An owed message: "the game waits for you" to a player who asked for direct messages."""
NOTICE = "notice"
"""An owed message: a line for the players that is no move (a heads-up, someone away or
back; `bot.core.presence.Notice` is its body)."""
AWAY_PAUSE = "pause"
AI_PREFIX = "ai:"
"""The engine's player id of an AI seat is `ai:<n>`: never a Discord id (digits only)."""
ABSENT_WAIT, ABSENT_AI_MOVE, ABSENT_AI_SEAT = "wait", "ai-move", "ai-seat"
ABSENT_MODES = (ABSENT_WAIT, ABSENT_AI_MOVE, ABSENT_AI_SEAT)
"""A game's `absent` setting: what happens when a player's deadline passes (nothing
more than the reminders; the AI plays that one decision; the AI takes the seat)."""


def is_ai_seat(player_id: str) -> bool:
    """Whether the engine's player id is an AI seat (never a Discord user)."""
    return player_id.startswith(AI_PREFIX)


"""What happens to an away player's decisions: their deadlines wait (the only mode so
far; the table keeps a `mode` so that "the AI plays for them" can be added)."""


class StoreError(Exception):
    """The database could not do what was asked just now (locked beyond the wait, full,
    damaged): nothing of it was written. The message says which, for the logs."""


class StaleVersion(Exception):
    """The game moved on since the caller read it: nothing was written."""


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or under way."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"channel already has game {game_id}")
        self.game_id = game_id


@dataclass(frozen=True)
class Seat:
    """A player as the store keeps them: Discord user id (the engine's player id) and name."""

    user_id: str
    name: str

    @property
    def is_ai(self) -> bool:
        """An AI seat (`ai:<n>`), added in the lobby: nobody is pinged for it."""
        return is_ai_seat(self.user_id)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: str
    status: str
    players: tuple[Seat, ...]
    state_json: str | None
    """The engine's state as saved (`Game.to_dict` in JSON); see `state`."""
    version: int
    message_id: int | None
    """The message carrying the current prompt's buttons (None before the first)."""
    lobby_message_id: int | None
    created_at: str
    updated_at: str
    turn_events: dict[str, Any] = field(default_factory=dict)
    """What the current prompt message tells, as engine events (JSON): "header", the
    moves that led to it, and "own", what the awaited player did since."""
    turn_seconds: int = DEFAULT_TURN_SECONDS
    auction_seconds: int = DEFAULT_AUCTION_SECONDS
    prompt_version: int | None = None
    """The version whose prompt `message_id` carries (behind `version` while the newest
    move's message is still owed; None after an undo until the earlier state's prompt
    is posted)."""
    undo_epoch: int = 0
    """How many times moves were taken back in this game. The version goes down at an
    undo and later up again along another line of play, so a button carries the epoch
    beside the version: one made before an undo never matches again."""
    absent: str = ABSENT_WAIT
    """What happens when a player's deadline passes (`ABSENT_MODES`)."""
    taken_over: tuple[str, ...] = ()
    """The human seats the AI plays for now (handed over by a vote or a deadline)."""
    language: str = "en"
    """The language of the game's public messages and pictures (`i18n.LANGUAGES`)."""

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine's state (None in the lobby), parsed afresh at each use.

        Most rows are read for their version, status or players: parsing only when asked
        spares the thousands of small lists and dicts a state with its move log makes.
        """
        return json.loads(self.state_json) if self.state_json is not None else None

    @property
    def play_channel_id(self) -> int:
        """Where the game's messages go: its thread if it has one, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def names(self) -> dict[str, str]:
        """Each seat's name; a seat the AI plays for its owner says so ("Ana (AI)")."""
        return {
            seat.user_id: f"{seat.name} (AI)" if seat.user_id in self.taken_over else seat.name
            for seat in self.players
        }

    @property
    def seat_names(self) -> dict[str, str]:
        """Each seat's name alone (the picture marks a seat taken over by a note)."""
        return {seat.user_id: seat.name for seat in self.players}

    def ai_plays(self, player_id: str) -> bool:
        """Whether the AI answers for this seat: an AI seat, or a seat taken over."""
        return is_ai_seat(player_id) or player_id in self.taken_over

    @property
    def humans(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in self.players if not seat.is_ai)

    def has_player(self, user_id: str) -> bool:
        return any(seat.user_id == user_id for seat in self.players)


@dataclass(frozen=True)
class MoveRow:
    version: int
    player: str
    notation: str
    at: str


@dataclass(frozen=True)
class UndoneMove:
    """A move taken back: it left the move log for the audit table (`undone_moves`)."""

    undo_epoch: int
    """The game's epoch the undo started (1 for the first undo of a game)."""
    version: int
    player: str
    notation: str
    at: str
    note: str | None
    undone_by: str
    undone_at: str


@dataclass(frozen=True)
class OwedMessage:
    """A message a move owes the players, written in the same transaction as the move."""

    kind: str
    """`POST` or `DM`."""
    version: int
    """The game's version the message is about."""
    body: dict[str, Any]
    """What the front end needs to say it (JSON): words, whom to ping or DM, ..."""


@dataclass(frozen=True)
class Owed:
    """A message of the outbox not delivered yet."""

    id: int
    game_id: int
    kind: str
    version: int
    body: dict[str, Any]
    created_at: datetime
    attempts: int
    """Failed attempts so far (an attempt may still have reached Discord)."""
    next_at: datetime
    last_error: str | None


@dataclass(frozen=True)
class Away:
    """A player away from all their games (a holiday), as stored (table `away`)."""

    user_id: str
    since: datetime
    until: datetime
    """When the away time ends by itself (at most 14 days after `since`)."""
    mode: str = AWAY_PAUSE

    def active_at(self, moment: datetime) -> bool:
        """Still away at `moment` (a row whose time is up stays until it is ended)."""
        return moment < self.until


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def stamp_of(moment: datetime) -> str:
    """How the outbox writes a moment (ISO 8601, UTC, milliseconds): such stamps sort
    like the moments they stand for."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def moment_of(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# Each entry brings the schema from version N to N + 1; never edit a shipped one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            thread_id INTEGER,
            creator_id TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            players TEXT NOT NULL,
            state TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            message_id INTEGER,
            lobby_message_id INTEGER,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
        # one game in its lobby or under way per channel (finished ones are kept)
        """
        CREATE UNIQUE INDEX games_one_open_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'active')
        """,
        "CREATE INDEX games_thread ON games (thread_id)",
        """
        CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            version INTEGER NOT NULL,
            player TEXT NOT NULL,
            notation TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, version)
        )
        """,
    ),
    (
        # the events the current prompt message tells (see GameRow.turn_events)
        "ALTER TABLE games ADD COLUMN turn_events TEXT NOT NULL DEFAULT '{}'",
    ),
    (
        # deadlines (bot.core.deadlines), the result of a game ended early and the 'ended'
        # status; SQLite cannot change a CHECK constraint, so the table is rebuilt
        # (with foreign keys off, see `migrate`)
        """
        CREATE TABLE games_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            thread_id INTEGER,
            creator_id TEXT NOT NULL,
            status TEXT NOT NULL
                CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'ended')),
            players TEXT NOT NULL,
            state TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            message_id INTEGER,
            lobby_message_id INTEGER,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            turn_events TEXT NOT NULL DEFAULT '{}',
            turn_seconds INTEGER NOT NULL DEFAULT 172800,
            auction_seconds INTEGER NOT NULL DEFAULT 86400,
            result TEXT
        )
        """,
        """
        INSERT INTO games_new (id, guild_id, channel_id, thread_id, creator_id, status, players,
            state, version, message_id, lobby_message_id, created_at, updated_at, turn_events)
        SELECT id, guild_id, channel_id, thread_id, creator_id, status, players, state,
            version, message_id, lobby_message_id, created_at, updated_at, turn_events
        FROM games
        """,
        "DROP TABLE games",
        "ALTER TABLE games_new RENAME TO games",
        """
        CREATE UNIQUE INDEX games_one_open_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'active')
        """,
        "CREATE INDEX games_thread ON games (thread_id)",
        # why a move was made for its player ('deadline': passed when time ran out)
        "ALTER TABLE moves ADD COLUMN note TEXT",
        # what the deadline driver did for a game's current version (0, 1 = half-time, ...)
        """
        CREATE TABLE reminders (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            version INTEGER NOT NULL,
            sent INTEGER NOT NULL,
            last_at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE end_votes (
            game_id INTEGER NOT NULL REFERENCES games (id),
            version INTEGER NOT NULL,
            voter TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, voter)
        )
        """,
        """
        CREATE TABLE notify_prefs (
            user_id TEXT PRIMARY KEY,
            dm INTEGER NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
    ),
    (
        # the version whose prompt `message_id` carries: a crash between saving a move
        # and posting it leaves it behind `version`, and the bot re-posts at start-up
        "ALTER TABLE games ADD COLUMN prompt_version INTEGER",
        "UPDATE games SET prompt_version = version",
    ),
    (
        # the messages each move owes the players (bot.core.delivery), written with the
        # move and marked once delivered; `next_at` is when to try again
        """
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games (id),
            version INTEGER NOT NULL,
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_at TEXT NOT NULL,
            last_error TEXT,
            delivered_at TEXT,
            message_id INTEGER
        )
        """,
        "CREATE INDEX outbox_owed ON outbox (game_id, id) WHERE delivered_at IS NULL",
    ),
    (
        # heads-up (bot.core.presence): a notice when the player before you starts a turn
        "ALTER TABLE notify_prefs ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0",
    ),
    (
        # away (bot.core.presence): a player away from all their games until `until`
        # (`mode` 'pause': their deadlines wait), and, per game, the moment the clock of
        # the decision awaited at `version` started again when its player came back
        """
        CREATE TABLE away (
            user_id TEXT PRIMARY KEY,
            since TEXT NOT NULL,
            until TEXT NOT NULL,
            mode TEXT NOT NULL DEFAULT 'pause'
        )
        """,
        """
        CREATE TABLE deadline_restarts (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            version INTEGER NOT NULL,
            at TEXT NOT NULL
        )
        """,
    ),
    (
        # taking moves back (issue 11.2): each undo bumps the game's `undo_epoch`, which
        # buttons carry beside the version (the version goes down, then up again along
        # another line of play); the moves taken back leave the move log for this audit
        # table, which says who took them back and when
        "ALTER TABLE games ADD COLUMN undo_epoch INTEGER NOT NULL DEFAULT 0",
        """
        CREATE TABLE undone_moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            undo_epoch INTEGER NOT NULL,
            version INTEGER NOT NULL,
            player TEXT NOT NULL,
            notation TEXT NOT NULL,
            at TEXT NOT NULL,
            note TEXT,
            undone_by TEXT NOT NULL,
            undone_at TEXT NOT NULL,
            PRIMARY KEY (game_id, undo_epoch, version)
        )
        """,
    ),
    (
        # answers in advance (issue 11.3): a player queued to answer a city auction who
        # will pass when it reaches them; `auction` is the version of the move that
        # opened that auction, so a later auction starts with none
        """
        CREATE TABLE advance_passes (
            game_id INTEGER NOT NULL REFERENCES games (id),
            player TEXT NOT NULL,
            auction INTEGER NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
    ),
    (
        # AI players (issue 14 points 4-5): AI seats are seats whose id is `ai:<n>`; a
        # game's `absent` setting says what a passed deadline does, `taken_over` lists
        # the human seats the AI plays for now, and the votes to hand one over are kept
        # until it is (or its owner takes it back)
        "ALTER TABLE games ADD COLUMN absent TEXT NOT NULL DEFAULT 'wait'",
        "ALTER TABLE games ADD COLUMN taken_over TEXT NOT NULL DEFAULT '[]'",
        """
        CREATE TABLE takeover_votes (
            game_id INTEGER NOT NULL REFERENCES games (id),
            player TEXT NOT NULL,
            voter TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, player, voter)
        )
        """,
    ),
    (
        # the languages (issue 13): a game's public messages and pictures are in its
        # `language`; a player's own answers in their Discord client's, remembered here
        # for what is sent to them later, outside an interaction (DMs, reminders)
        "ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
        """
        CREATE TABLE user_locales (
            user_id TEXT PRIMARY KEY,
            locale TEXT NOT NULL,
            seen_at TEXT NOT NULL
        )
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def _seats_json(players: Iterable[Seat]) -> str:
    return json.dumps([{"id": s.user_id, "name": s.name} for s in players])


def _json(state: dict[str, Any] | str) -> str:
    return state if isinstance(state, str) else json.dumps(state)


def _row(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        creator_id=row["creator_id"],
        status=row["status"],
        players=tuple(Seat(p["id"], p["name"]) for p in json.loads(row["players"])),
        state_json=row["state"],
        version=row["version"],
        message_id=row["message_id"],
        lobby_message_id=row["lobby_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        turn_events=json.loads(row["turn_events"]),
        turn_seconds=row["turn_seconds"],
        auction_seconds=row["auction_seconds"],
        prompt_version=row["prompt_version"],
        undo_epoch=row["undo_epoch"],
        absent=row["absent"],
        taken_over=tuple(json.loads(row["taken_over"])),
        language=row["language"],
    )


def _owed(row: aiosqlite.Row) -> Owed:
    return Owed(
        id=row["id"],
        game_id=row["game_id"],
        kind=row["kind"],
        version=row["version"],
        body=json.loads(row["body"]),
        created_at=moment_of(row["created_at"]),
        attempts=row["attempts"],
        next_at=moment_of(row["next_at"]),
        last_error=row["last_error"],
    )


def _owed_inserts(
    game_id: int, owed: Sequence[OwedMessage], stamp: str
) -> list[tuple[str, tuple[Any, ...]]]:
    return [
        (
            "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, message.version, message.kind, json.dumps(message.body), stamp, stamp),
        )
        for message in owed
    ]


def _away(row: aiosqlite.Row) -> Away:
    return Away(
        user_id=row["user_id"],
        since=moment_of(row["since"]),
        until=moment_of(row["until"]),
        mode=row["mode"],
    )


def reminder_step(game_id: int, version: int, sent: int, at: str) -> tuple[str, tuple[Any, ...]]:
    """The statement recording that `sent` deadline steps are done for the game's
    `version` (`bot.core.deadlines`; a game has one such record, for its current version)."""
    return (
        "INSERT INTO reminders (game_id, version, sent, last_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
        "sent = excluded.sent, last_at = excluded.last_at",
        (game_id, version, sent, at),
    )


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


P = ParamSpec("P")
T = TypeVar("T")


def _guarded(
    method: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Turn the database's own failures (locked, full, damaged) into `StoreError`.

    Integrity errors (a constraint broken: a bug, not the weather) pass unchanged."""

    @functools.wraps(method)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await method(*args, **kwargs)
        except (sqlite3.OperationalError, sqlite3.InternalError) as error:
            raise StoreError(_one_line(error)) from error
        except sqlite3.DatabaseError as error:
            if type(error) is not sqlite3.DatabaseError:
                raise
            raise StoreError(_one_line(error)) from error

    return guarded


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
                f"the database {database} cannot be opened: {_one_line(error)}"
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


async def _connect(path: str, *, wait: float) -> aiosqlite.Connection:
    connecting = aiosqlite.connect(path, isolation_level=None)
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
    text = _one_line(error)
    if "locked" in text or "busy" in text:
        return f"the database {path} is locked by another program; stop it first"
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in text:
        return f"the database {path} cannot be opened: the file is not a database ({text})"
    return (
        f"the database {path} cannot be opened: {text}; check that the file and its "
        "folder exist and are writable"
    )


class Store:
    """Open with `await Store.open(path)`; close with `await store.close()`."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        lock: ProcessLock | None = None,
    ) -> None:
        self._db = db
        self._reader = reader if reader is not None else db
        self._lock_file = lock
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str, *, exclusive: bool = False) -> Store:
        """Open (creating and migrating) the database at `path`.

        `exclusive`: this process is the only bot on the file (a second one refuses to
        start). Anything that keeps the file from being used raises `StartupError`, one
        line saying what and where, with nothing left open behind it.
        """
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

    async def close(self) -> None:
        async with self._write:
            if self._reader is not self._db:
                await self._reader.close()
            await self._db.close()
        if self._lock_file is not None:
            self._lock_file.release()

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """All rows of one statement on the read connection, fetched in one go: a
        statement left half-read would hold its snapshot open, and the next reads of
        other coroutines on the connection would miss what was committed since."""
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    @_guarded
    async def schema_version(self) -> int:
        tables = await self._read(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        )
        if not tables:
            return 0
        rows = await self._read("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

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
                    for statement in MIGRATIONS[version]:
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

    # ------------------------------------------------------------------ reading

    @_guarded
    async def get(self, game_id: int) -> GameRow | None:
        rows = await self._read("SELECT * FROM games WHERE id = ?", (game_id,))
        return _row(rows[0]) if rows else None

    @_guarded
    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel, or of a thread a game plays in."""
        rows = await self._read(
            "SELECT * FROM games WHERE status IN ('lobby', 'active') "
            "AND (channel_id = ? OR thread_id = ?) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return _row(rows[0]) if rows else None

    @_guarded
    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel or thread, whatever its status."""
        rows = await self._read(
            "SELECT * FROM games WHERE channel_id = ? OR thread_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return _row(rows[0]) if rows else None

    @_guarded
    async def moves(self, game_id: int, *, offset: int = 0, limit: int = 1000) -> list[MoveRow]:
        rows = await self._read(
            "SELECT version, player, notation, at FROM moves WHERE game_id = ? "
            "ORDER BY version LIMIT ? OFFSET ?",
            (game_id, limit, offset),
        )
        return [MoveRow(r["version"], r["player"], r["notation"], r["at"]) for r in rows]

    @_guarded
    async def move_time(self, game_id: int, version: int) -> str | None:
        """When the move that made `version` was saved (None if there is no such move)."""
        rows = await self._read(
            "SELECT at FROM moves WHERE game_id = ? AND version = ?", (game_id, version)
        )
        return str(rows[0]["at"]) if rows else None

    @_guarded
    async def undone_moves(self, game_id: int) -> list[UndoneMove]:
        """The moves taken back in a game, in the order they were made, undo by undo."""
        rows = await self._read(
            "SELECT * FROM undone_moves WHERE game_id = ? ORDER BY undo_epoch, version",
            (game_id,),
        )
        return [
            UndoneMove(
                r["undo_epoch"],
                r["version"],
                r["player"],
                r["notation"],
                r["at"],
                r["note"],
                r["undone_by"],
                r["undone_at"],
            )
            for r in rows
        ]

    @_guarded
    async def advance_passes(self, game_id: int, auction: int) -> set[str]:
        """The players who will pass in the auction opened at version `auction`."""
        rows = await self._read(
            "SELECT player FROM advance_passes WHERE game_id = ? AND auction = ?",
            (game_id, auction),
        )
        return {str(r["player"]) for r in rows}

    @_guarded
    async def move_count(self, game_id: int) -> int:
        rows = await self._read("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else 0

    @_guarded
    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Rows of one read-only statement (for the modules keeping their own tables)."""
        return await self._read(sql, params)

    # ------------------------------------------------------------------ writing

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """The write connection inside `BEGIN IMMEDIATE` ... `COMMIT` (rolled back on any
        failure), after a bounded wait for the other writes of this process."""
        try:
            await asyncio.wait_for(self._write.acquire(), WRITE_WAIT_SECONDS)
        except TimeoutError:
            raise StoreError("the database is busy (other writes are waiting)") from None
        try:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error, ValueError):
                    await self._db.execute("ROLLBACK")
                raise
        finally:
            self._write.release()

    @_guarded
    async def transaction(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> list[int]:
        """Run statements in one transaction; returns each one's rowcount."""
        counts: list[int] = []
        async with self._writing() as db:
            for sql, params in statements:
                cursor = await db.execute(sql, params)
                counts.append(cursor.rowcount)
                await cursor.close()
        return counts

    _transaction = transaction

    @_guarded
    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        creator: Seat,
        language: str = "en",
    ) -> GameRow:
        """A new game in its lobby, the creator seated; `ChannelBusy` if one is open here."""
        async with self._writing() as db:
            async with db.execute(
                "SELECT id FROM games WHERE status IN ('lobby', 'active') "
                "AND (channel_id = ? OR thread_id = ?)",
                (channel_id, channel_id),
            ) as cursor:
                busy = await cursor.fetchone()
            if busy is not None:
                raise ChannelBusy(int(busy[0]))
            stamp = now()
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, creator_id, status, "
                "players, version, created_at, updated_at, language) "
                "VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    creator.user_id,
                    LOBBY,
                    _seats_json([creator]),
                    stamp,
                    stamp,
                    language,
                ),
            )
            game_id = cursor.lastrowid
            await cursor.close()
        assert game_id is not None
        row = await self.get(game_id)
        assert row is not None
        return row

    async def set_players(
        self, game_id: int, players: Sequence[Seat], *, expected: Sequence[Seat] | None = None
    ) -> None:
        """Seat list of a game still in its lobby (and, if `expected` is given, still
        seating exactly those players); `StaleVersion` when it is not."""
        guard, params = "", [_seats_json(players), now(), game_id, LOBBY]
        if expected is not None:
            guard = " AND players = ?"
            params.append(_seats_json(expected))
        (count,) = await self._transaction(
            [
                (
                    "UPDATE games SET players = ?, updated_at = ? WHERE id = ? AND status = ?"
                    + guard,
                    tuple(params),
                )
            ]
        )
        if count == 0:
            raise StaleVersion(f"game {game_id} is no longer in its lobby with those players")

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._transaction(
            [("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id))]
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Where the game plays from now on: a thread, or (None) its channel itself."""
        await self._transaction(
            [("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))]
        )

    async def start(
        self,
        game_id: int,
        players: Sequence[Seat],
        state: dict[str, Any] | str,
        moves: Sequence[tuple[str, str]],
        *,
        turn_events: dict[str, Any] | None = None,
        at: str | None = None,
        owed: Sequence[OwedMessage] = (),
    ) -> None:
        """Lobby -> active with the seated players and the engine's first state (a dict,
        or its JSON already made), stamped `at` (default: now), with the messages the
        start owes the players (`owed`)."""
        version = len(moves)
        stamp = at or now()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "UPDATE games SET status = ?, players = ?, state = ?, version = ?, updated_at = ?, "
                "turn_events = ? WHERE id = ? AND status = ?",
                (
                    ACTIVE,
                    _seats_json(players),
                    _json(state),
                    version,
                    stamp,
                    json.dumps(turn_events or {}),
                    game_id,
                    LOBBY,
                ),
            )
        ]
        statements += [
            (
                "INSERT INTO moves (game_id, version, player, notation, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, index + 1, player, notation, stamp),
            )
            for index, (player, notation) in enumerate(moves)
        ]
        statements += _owed_inserts(game_id, owed, stamp_of(datetime.now(UTC)))
        await self._checked(statements, f"game {game_id} is no longer in its lobby")

    async def commit_move(
        self,
        game_id: int,
        expected_version: int,
        new_state: dict[str, Any] | str,
        new_version: int,
        moves: Sequence[tuple[str, str]],
        *,
        finished: bool = False,
        turn_events: dict[str, Any] | None = None,
        at: str | None = None,
        owed: Sequence[OwedMessage] = (),
        expected_epoch: int | None = None,
        notes: Mapping[int, str] | None = None,
    ) -> None:
        """Save a move in one transaction if the game is still at `expected_version`
        (and, if given, `expected_epoch`: no undo happened since it was read).

        `new_state` is the engine's state (a dict, or its JSON already made); `moves` are
        the log lines (player, notation) for versions expected+1..new, stamped `at`
        (default: now), `notes` why some of them were made for their player (version ->
        "forced", "advance", ...); `owed` the messages the move owes the players. Raises
        `StaleVersion` (and writes nothing) when the game moved on, `StoreError` (and
        writes nothing) when the database cannot take it.
        """
        if len(moves) != new_version - expected_version:
            raise ValueError("one log line per version step")
        stamp = at or now()
        epoch_guard = "" if expected_epoch is None else " AND undo_epoch = ?"
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "UPDATE games SET state = ?, version = ?, status = ?, updated_at = ?, "
                "turn_events = ? WHERE id = ? AND version = ? AND status = ?" + epoch_guard,
                (
                    _json(new_state),
                    new_version,
                    FINISHED if finished else ACTIVE,
                    stamp,
                    json.dumps(turn_events or {}),
                    game_id,
                    expected_version,
                    ACTIVE,
                    *(() if expected_epoch is None else (expected_epoch,)),
                ),
            )
        ]
        notes = notes or {}
        statements += [
            (
                "INSERT INTO moves (game_id, version, player, notation, at, note) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, version, player, notation, stamp, notes.get(version)),
            )
            for version, (player, notation) in enumerate(moves, start=expected_version + 1)
        ]
        statements += _owed_inserts(game_id, owed, stamp_of(datetime.now(UTC)))
        await self._checked(
            statements, f"game {game_id} is no longer at version {expected_version}"
        )

    @_guarded
    async def _checked(self, statements: Sequence[tuple[str, tuple[Any, ...]]], why: str) -> None:
        """Like `transaction`, but roll back and raise `StaleVersion` if the first
        statement (the guarded UPDATE) touched no row."""
        async with self._writing() as db:
            first, *rest = statements
            cursor = await db.execute(*first)
            updated = cursor.rowcount
            await cursor.close()
            if updated == 0:
                raise StaleVersion(why)
            for sql, params in rest:
                await db.execute(sql, params)

    async def undo_moves(
        self,
        game_id: int,
        expected_version: int,
        expected_epoch: int,
        new_state: dict[str, Any] | str,
        new_version: int,
        *,
        undone_by: str,
        turn_events: dict[str, Any],
        reminders_sent: int,
        owed: Sequence[OwedMessage] = (),
        at: str | None = None,
    ) -> None:
        """Take moves back in one transaction, if the game is still at `expected_version`
        in `expected_epoch`: the game returns to `new_state` (at `new_version`, a lower
        one) in the next epoch; the log's moves after `new_version` move to the audit
        table (`undone_moves`, with `undone_by` and the time); messages still owed for
        those versions are dropped (marked delivered, "taken back"), and so are passes in
        advance for an auction opened by a move taken back and votes to end the game cast
        in a state taken back. The deadline clock of the
        earlier decision is the one it had (the time of its move): `reminders_sent` is the
        number of its deadline steps to count as done (those due by now, so that none is
        taken at once because of the undo, and none twice). `owed` is what the undo
        itself owes the players. `StaleVersion` (nothing written) if the game moved on.
        """
        if new_version >= expected_version:
            raise ValueError("an undo goes back to an earlier version")
        stamp = at or now()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "UPDATE games SET state = ?, version = ?, undo_epoch = undo_epoch + 1, "
                "updated_at = ?, turn_events = ?, prompt_version = NULL "
                "WHERE id = ? AND version = ? AND undo_epoch = ? AND status = ?",
                (
                    _json(new_state),
                    new_version,
                    stamp,
                    json.dumps(turn_events),
                    game_id,
                    expected_version,
                    expected_epoch,
                    ACTIVE,
                ),
            ),
            (
                "INSERT INTO undone_moves (game_id, undo_epoch, version, player, notation, at, "
                "note, undone_by, undone_at) SELECT game_id, ?, version, player, notation, at, "
                "note, ?, ? FROM moves WHERE game_id = ? AND version > ?",
                (expected_epoch + 1, undone_by, stamp, game_id, new_version),
            ),
            ("DELETE FROM moves WHERE game_id = ? AND version > ?", (game_id, new_version)),
            (
                "UPDATE outbox SET delivered_at = ?, last_error = ? "
                "WHERE game_id = ? AND version > ? AND delivered_at IS NULL",
                (stamp_of(datetime.now(UTC)), "taken back", game_id, new_version),
            ),
            (
                "DELETE FROM advance_passes WHERE game_id = ? AND auction > ?",
                (game_id, new_version),
            ),
            # votes to end the game cast in a state taken back (a later one may be
            # reached again along another line of play)
            ("DELETE FROM end_votes WHERE game_id = ? AND version > ?", (game_id, new_version)),
            reminder_step(game_id, new_version, reminders_sent, stamp),
        ]
        statements += _owed_inserts(game_id, owed, stamp_of(datetime.now(UTC)))
        await self._checked(
            statements, f"game {game_id} is no longer at version {expected_version}"
        )

    async def set_advance_pass(
        self,
        game_id: int,
        player: str,
        auction: int,
        wanted: bool,
        *,
        version: int,
        undo_epoch: int,
    ) -> bool:
        """Record (`wanted`) or withdraw `player`'s pass in advance in the auction opened at
        version `auction`, if the game is still at `version` in `undo_epoch` (False, and
        nothing written, when it moved on). A pass in advance of an earlier auction is
        replaced."""
        still = (
            "EXISTS (SELECT 1 FROM games WHERE id = ? AND version = ? AND undo_epoch = ? "
            "AND status = ?)"
        )
        guard = (game_id, version, undo_epoch, ACTIVE)
        statement: tuple[str, tuple[Any, ...]]
        if wanted:
            statement = (
                "INSERT INTO advance_passes (game_id, player, auction, at) "
                f"SELECT ?, ?, ?, ? WHERE {still} "
                "ON CONFLICT (game_id, player) DO UPDATE SET auction = excluded.auction, "
                "at = excluded.at",
                (game_id, player, auction, now(), *guard),
            )
        else:
            statement = (
                f"DELETE FROM advance_passes WHERE game_id = ? AND player = ? AND {still}",
                (game_id, player, *guard),
            )
        (count,) = await self._transaction([statement])
        if count == 0 and not wanted:
            # nothing to withdraw is no failure, as long as the game is where it was
            rows = await self._read(f"SELECT {still}", guard)
            return bool(rows and rows[0][0])
        return count > 0

    @_guarded
    async def games_missing_their_prompt(self) -> list[int]:
        """Active games whose newest saved version was never posted (a crash in between,
        or a file written before the outbox) and that owe no message to post it."""
        rows = await self._read(
            "SELECT id FROM games g WHERE status = 'active' "
            "AND (prompt_version IS NULL OR prompt_version != version) "
            "AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id "
            "AND o.delivered_at IS NULL AND o.kind = 'post') ORDER BY id"
        )
        return [row["id"] for row in rows]

    async def set_prompt_message(self, game_id: int, version: int, message_id: int | None) -> bool:
        """Remember the message holding the prompt for `version` (ignored if outdated)."""
        (count,) = await self._transaction(
            [
                (
                    "UPDATE games SET message_id = ?, prompt_version = version "
                    "WHERE id = ? AND version = ?",
                    (message_id, game_id, version),
                )
            ]
        )
        return count > 0

    async def set_status(self, game_id: int, status: str, *, only_from: Sequence[str]) -> bool:
        """Change the status if it is one of `only_from`; False when it was not."""
        marks = ", ".join("?" for _ in only_from)
        (count,) = await self._transaction(
            [
                (
                    "UPDATE games SET status = ?, updated_at = ? "
                    f"WHERE id = ? AND status IN ({marks})",
                    (status, now(), game_id, *only_from),
                )
            ]
        )
        return count > 0

    # ------------------------------------------------------------------ the outbox

    async def owe(self, game_id: int, owed: Sequence[OwedMessage]) -> None:
        """Add messages owed outside a move (a fresh prompt asked for)."""
        await self._transaction(_owed_inserts(game_id, owed, stamp_of(datetime.now(UTC))))

    @_guarded
    async def owed(
        self, game_id: int | None = None, *, due_by: datetime | None = None
    ) -> list[Owed]:
        """Messages not delivered yet, oldest first: of one game, or of every game with
        one due by `due_by`."""
        where, params = "delivered_at IS NULL", list[Any]()
        if game_id is not None:
            where += " AND game_id = ?"
            params.append(game_id)
        if due_by is not None:
            where += (
                " AND game_id IN (SELECT game_id FROM outbox "
                "WHERE delivered_at IS NULL AND next_at <= ?)"
            )
            params.append(stamp_of(due_by))
        rows = await self._read(f"SELECT * FROM outbox WHERE {where} ORDER BY game_id, id", params)
        return [_owed(row) for row in rows]

    @_guarded
    async def next_owed_at(self) -> datetime | None:
        """When the earliest message still owed is to be tried again (None: nothing owed)."""
        rows = await self._read("SELECT MIN(next_at) FROM outbox WHERE delivered_at IS NULL")
        return moment_of(rows[0][0]) if rows and rows[0][0] else None

    async def delivery_failed(self, owed_id: int, next_at: datetime, error: str) -> None:
        """Count a failed attempt; try again at `next_at`."""
        await self._transaction(
            [
                (
                    "UPDATE outbox SET attempts = attempts + 1, next_at = ?, last_error = ? "
                    "WHERE id = ?",
                    (stamp_of(next_at), error[:500], owed_id),
                )
            ]
        )

    async def delivered(
        self,
        owed: Owed,
        message_id: int | None,
        *,
        prompt: bool = False,
        moved_to: int | None = None,
        note: str | None = None,
    ) -> None:
        """Mark a message delivered (`message_id`: where it is, if anywhere). `prompt`:
        it carries the game's prompt for its version; `moved_to`: the game plays in this
        channel or thread from now on (its own thread was gone, or refused the bot)."""
        stamp = stamp_of(datetime.now(UTC))
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "UPDATE outbox SET delivered_at = ?, message_id = ?, last_error = ? WHERE id = ?",
                (stamp, message_id, note, owed.id),
            )
        ]
        if prompt:
            statements.append(
                (
                    "UPDATE games SET message_id = ?, prompt_version = ? WHERE id = ?",
                    (message_id, owed.version, owed.game_id),
                )
            )
        if moved_to is not None:
            statements.append(
                (
                    "UPDATE games SET thread_id = CASE WHEN channel_id = ? THEN NULL ELSE ? END "
                    "WHERE id = ?",
                    (moved_to, moved_to, owed.game_id),
                )
            )
        await self._transaction(statements)

    # ------------------------------------------------------------------ heads-up and away

    @_guarded
    async def heads_up_wanted(self, user_id: str) -> bool:
        """Whether the player asked for a heads-up when the player before them starts."""
        rows = await self._read("SELECT heads_up FROM notify_prefs WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0]["heads_up"])

    async def set_heads_up(self, user_id: str, wanted: bool) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO notify_prefs (user_id, dm, heads_up, updated_at) "
                    "VALUES (?, 0, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                    "heads_up = excluded.heads_up, updated_at = excluded.updated_at",
                    (user_id, int(wanted), now()),
                )
            ]
        )

    @_guarded
    async def aways(self, user_ids: Sequence[str] | None = None) -> dict[str, Away]:
        """The players marked away (those of `user_ids`, or all), by user id. An away
        whose time is up is still here until `end_away` (see `Away.active_at`)."""
        if user_ids is None:
            rows = await self._read("SELECT * FROM away")
        elif not user_ids:
            return {}
        else:
            marks = ", ".join("?" for _ in user_ids)
            rows = await self._read(f"SELECT * FROM away WHERE user_id IN ({marks})", user_ids)
        return {row["user_id"]: _away(row) for row in rows}

    @_guarded
    async def active_games_of(self, user_id: str) -> list[GameRow]:
        """The games under way in which `user_id` plays."""
        rows = await self._read(
            "SELECT * FROM games WHERE status = ? AND players LIKE ? ORDER BY id",
            (ACTIVE, f"%{user_id}%"),
        )
        games = [_row(row) for row in rows]
        return [game for game in games if game.has_player(user_id)]

    async def set_away(self, away: Away, owed: Sequence[tuple[int, OwedMessage]]) -> None:
        """Mark a player away (replacing an earlier away), with the notices it owes the
        players of their games (game id, message), in one transaction."""
        stamp = stamp_of(datetime.now(UTC))
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO away (user_id, since, until, mode) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET since = excluded.since, "
                "until = excluded.until, mode = excluded.mode",
                (away.user_id, stamp_of(away.since), stamp_of(away.until), away.mode),
            )
        ]
        for game_id, message in owed:
            statements += _owed_inserts(game_id, [message], stamp)
        await self._transaction(statements)

    async def end_away(
        self,
        user_id: str,
        at: datetime,
        *,
        only_until: datetime | None = None,
        restarts: Sequence[tuple[int, int]] = (),
        owed: Sequence[tuple[int, OwedMessage]] = (),
    ) -> bool:
        """End a player's away at `at`, in one transaction with the restart of the clocks
        of the decisions awaited from them (game id, version: the clock of that version
        starts at `at`, its reminders counted afresh) and the notices it owes. With
        `only_until`, only an away ending then (not one changed meanwhile). False, and
        nothing written, when there is no such away."""
        guard, params = "", [user_id]
        if only_until is not None:
            guard = " AND until = ?"
            params.append(stamp_of(only_until))
        moment, stamp = stamp_of(at), stamp_of(datetime.now(UTC))
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("DELETE FROM away WHERE user_id = ?" + guard, tuple(params))
        ]
        for game_id, version in restarts:
            statements += [
                (
                    "INSERT INTO deadline_restarts (game_id, version, at) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
                    "at = excluded.at",
                    (game_id, version, moment),
                ),
                (
                    "INSERT INTO reminders (game_id, version, sent, last_at) "
                    "VALUES (?, ?, 0, ?) ON CONFLICT (game_id) DO UPDATE SET "
                    "version = excluded.version, sent = 0, last_at = excluded.last_at",
                    (game_id, version, at.astimezone(UTC).isoformat(timespec="seconds")),
                ),
            ]
        for game_id, message in owed:
            statements += _owed_inserts(game_id, [message], stamp)
        try:
            await self._checked(statements, f"{user_id} is not away (any more)")
        except StaleVersion:
            return False
        return True

    @_guarded
    async def deadline_restarts(
        self, game_id: int | None = None
    ) -> dict[int, tuple[int, datetime]]:
        """Game id -> (version, moment) at which the clock of the decision awaited at that
        version started again (its player came back)."""
        only_one = " WHERE game_id = ?" if game_id is not None else ""
        rows = await self._read(
            "SELECT game_id, version, at FROM deadline_restarts" + only_one,
            () if game_id is None else (game_id,),
        )
        return {row["game_id"]: (row["version"], moment_of(row["at"])) for row in rows}

    # ------------------------------------------------------------ languages (issue 13)

    async def set_language(self, game_id: int, language: str) -> None:
        """The language of a game's public messages and pictures from now on."""
        await self._transaction(
            [("UPDATE games SET language = ? WHERE id = ?", (language, game_id))]
        )

    async def remember_locale(self, user_id: str, locale: str) -> None:
        """The Discord locale `user_id`'s client was last seen in."""
        await self._transaction(
            [
                (
                    "INSERT INTO user_locales (user_id, locale, seen_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET "
                    "locale = excluded.locale, seen_at = excluded.seen_at",
                    (user_id, locale, now()),
                )
            ]
        )

    @_guarded
    async def locales(self, user_ids: Sequence[str]) -> dict[str, str]:
        """User id -> the Discord locale last seen for them (absent if never seen)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._read(
            f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})",
            tuple(user_ids),
        )
        return {row["user_id"]: row["locale"] for row in rows}


# ---------------------------------------------------------------------- AI players
# (issue 14): the games an AI may be awaited in, seats taken over, their votes, the
# `absent` setting. Kept together, portable SQL only.


class AiTables:
    """The store's part of the AI players (`bot.core.ai_seats`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def active_games(self) -> list[int]:
        """Every game under way (at start-up: those waiting for an AI go on)."""
        rows = await self.store.query(
            "SELECT id FROM games WHERE status = ? ORDER BY id", (ACTIVE,)
        )
        return [int(r["id"]) for r in rows]

    async def set_absent(self, game_id: int, mode: str) -> None:
        if mode not in ABSENT_MODES:
            raise ValueError(f"absent must be one of {ABSENT_MODES}, not {mode!r}")
        await self.store.transaction(
            [("UPDATE games SET absent = ? WHERE id = ?", (mode, game_id))]
        )

    async def set_taken_over(
        self, game_id: int, seats: Sequence[str], *, expected: Sequence[str]
    ) -> bool:
        """The seats the AI plays for now, if they are still `expected` (False if not);
        the votes about a seat whose hands change are dropped."""
        changed = set(seats) ^ set(expected)
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "UPDATE games SET taken_over = ? WHERE id = ? AND taken_over = ? AND status = ?",
                (json.dumps(sorted(seats)), game_id, json.dumps(sorted(expected)), ACTIVE),
            )
        ]
        statements += [
            ("DELETE FROM takeover_votes WHERE game_id = ? AND player = ?", (game_id, player))
            for player in sorted(changed)
        ]
        count, *_ = await self.store.transaction(statements)
        return count > 0

    async def add_takeover_vote(self, game_id: int, player: str, voter: str, at: str) -> list[str]:
        """Record `voter`'s vote to hand `player`'s seat to the AI; all its voters so far."""
        await self.store.transaction(
            [
                (
                    "INSERT INTO takeover_votes (game_id, player, voter, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, player, voter) DO NOTHING",
                    (game_id, player, voter, at),
                )
            ]
        )
        rows = await self.store.query(
            "SELECT voter FROM takeover_votes WHERE game_id = ? AND player = ? ORDER BY at, voter",
            (game_id, player),
        )
        return [str(r["voter"]) for r in rows]
