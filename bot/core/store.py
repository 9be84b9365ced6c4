"""The SQLite store: one row per game, an append-only move log, schema migrations.

Everything goes through one aiosqlite connection in WAL mode. Writes take an
asyncio lock and run in explicit `BEGIN IMMEDIATE` transactions, so a move (new
state + its log lines) is committed all at once or not at all; `commit_move` checks
the version it expects (`UPDATE ... WHERE version = ?`) so two processes or two
presses can never both apply a move to the same state.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

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
        return {seat.user_id: seat.name for seat in self.players}

    def has_player(self, user_id: str) -> bool:
        return any(seat.user_id == user_id for seat in self.players)


@dataclass(frozen=True)
class MoveRow:
    version: int
    player: str
    notation: str
    at: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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
    )


class Store:
    """Open with `await Store.open(path)`; close with `await store.close()`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> Store:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db)
        try:
            await store.migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        async with self._write:
            await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ) as cursor:
            if await cursor.fetchone() is None:
                return 0
        async with self._db.execute("SELECT version FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

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
                    raise RuntimeError(
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

    async def get(self, game_id: int) -> GameRow | None:
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return _row(row) if row else None

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel, or of a thread a game plays in."""
        async with self._db.execute(
            "SELECT * FROM games WHERE status IN ('lobby', 'active') "
            "AND (channel_id = ? OR thread_id = ?) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        ) as cursor:
            row = await cursor.fetchone()
        return _row(row) if row else None

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel or thread, whatever its status."""
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? OR thread_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        ) as cursor:
            row = await cursor.fetchone()
        return _row(row) if row else None

    async def moves(self, game_id: int, *, offset: int = 0, limit: int = 1000) -> list[MoveRow]:
        async with self._db.execute(
            "SELECT version, player, notation, at FROM moves WHERE game_id = ? "
            "ORDER BY version LIMIT ? OFFSET ?",
            (game_id, limit, offset),
        ) as cursor:
            rows = await cursor.fetchall()
        return [MoveRow(r["version"], r["player"], r["notation"], r["at"]) for r in rows]

    async def move_count(self, game_id: int) -> int:
        async with self._db.execute(
            "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Rows of one read-only statement (for the modules keeping their own tables)."""
        async with self._db.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    # ------------------------------------------------------------------ writing

    async def transaction(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> list[int]:
        """Run statements in one transaction; returns each one's rowcount."""
        return await self._transaction(statements)

    async def _transaction(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> list[int]:
        """Run statements in one transaction; returns each one's rowcount."""
        counts: list[int] = []
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    cursor = await self._db.execute(sql, params)
                    counts.append(cursor.rowcount)
                    await cursor.close()
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
        return counts

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        creator: Seat,
    ) -> GameRow:
        """A new game in its lobby, the creator seated; `ChannelBusy` if one is open here."""
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                async with self._db.execute(
                    "SELECT id FROM games WHERE status IN ('lobby', 'active') "
                    "AND (channel_id = ? OR thread_id = ?)",
                    (channel_id, channel_id),
                ) as cursor:
                    busy = await cursor.fetchone()
                if busy is not None:
                    raise ChannelBusy(int(busy[0]))
                stamp = now()
                cursor = await self._db.execute(
                    "INSERT INTO games (guild_id, channel_id, thread_id, creator_id, status, "
                    "players, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        thread_id,
                        creator.user_id,
                        LOBBY,
                        _seats_json([creator]),
                        stamp,
                        stamp,
                    ),
                )
                game_id = cursor.lastrowid
                await cursor.close()
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
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

    async def set_thread(self, game_id: int, thread_id: int) -> None:
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
    ) -> None:
        """Lobby -> active with the seated players and the engine's first state (a dict,
        or its JSON already made), stamped `at` (default: now)."""
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
    ) -> None:
        """Save a move in one transaction if the game is still at `expected_version`.

        `new_state` is the engine's state (a dict, or its JSON already made); `moves` are
        the log lines (player, notation) for versions expected+1..new, stamped `at`
        (default: now). Raises `StaleVersion` (and writes nothing) when the game moved on.
        """
        if len(moves) != new_version - expected_version:
            raise ValueError("one log line per version step")
        stamp = at or now()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "UPDATE games SET state = ?, version = ?, status = ?, updated_at = ?, "
                "turn_events = ? WHERE id = ? AND version = ? AND status = ?",
                (
                    _json(new_state),
                    new_version,
                    FINISHED if finished else ACTIVE,
                    stamp,
                    json.dumps(turn_events or {}),
                    game_id,
                    expected_version,
                    ACTIVE,
                ),
            )
        ]
        statements += [
            (
                "INSERT INTO moves (game_id, version, player, notation, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, expected_version + index + 1, player, notation, stamp),
            )
            for index, (player, notation) in enumerate(moves)
        ]
        await self._checked(
            statements, f"game {game_id} is no longer at version {expected_version}"
        )

    async def _checked(self, statements: Sequence[tuple[str, tuple[Any, ...]]], why: str) -> None:
        """Like `_transaction`, but roll back and raise `StaleVersion` if the first
        statement (the guarded UPDATE) touched no row."""
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                first, *rest = statements
                cursor = await self._db.execute(*first)
                updated = cursor.rowcount
                await cursor.close()
                if updated == 0:
                    raise StaleVersion(why)
                for sql, params in rest:
                    await self._db.execute(sql, params)
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    async def games_missing_their_prompt(self) -> list[int]:
        """Active games whose newest saved version was never posted (a crash in between)."""
        async with self._db.execute(
            "SELECT id FROM games WHERE status = 'active' "
            "AND (prompt_version IS NULL OR prompt_version != version) ORDER BY id"
        ) as cursor:
            return [row["id"] for row in await cursor.fetchall()]

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
