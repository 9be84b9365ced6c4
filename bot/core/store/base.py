"""The store's interface and every statement it runs, written once for both databases.

`Store` holds one row per game, an append-only move log, the outbox of messages owed to
the players and the tables of the modules around it; its methods are the only SQL of
the bot. A database is reached through three primitives each store provides
(`sqlite.SqliteStore`, `postgres.PostgresStore`): `_read` (rows of one statement),
`_writing` (a transaction, `Tx`, committed at the end of the block or rolled back) and
`_failure` (which errors are the database's weather, raised as `StoreError`).
Statements use `?` placeholders and SQLite's words; `dialect` translates them for
PostgreSQL, so a method added here works on both without more code.

`commit_move` checks the version it expects (`UPDATE ... WHERE version = ?`) so two
processes or two presses can never both apply a move to the same state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, ClassVar

from bot.core.runtime.metrics import database_timed

from .guilds import GuildTables
from .hours import HoursTables
from .mine import SeatTables, seat_statements
from .model import (
    ABANDONED,
    ABSENT_MODES,
    ACTIVE,
    ENDED,
    FINISHED,
    LOBBY,
    Away,
    ChannelBusy,
    DeadlineClock,
    GameRow,
    MoveRow,
    Owed,
    OwedMessage,
    Seat,
    StaleVersion,
    UndoneMove,
    moment_of,
    now,
    stamp_of,
)
from .operators import OperatorQueries
from .parts import AtEnd, Row, Shards, StoreParts, guarded
from .pictures import PictureTables
from .prefs import PlayerTables
from .queue import QueueTables
from .ratings import RatingTables
from .rows import game_row, seats_json, stored_state, taken_over_json, taken_over_update
from .votes import VoteTables
from .web import WebTables


def _owed(row: Row) -> Owed:
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
        failing_since=moment_of(row["failing_since"]) if row["failing_since"] else None,
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


def _away(row: Row) -> Away:
    return Away(
        user_id=row["user_id"],
        since=moment_of(row["since"]),
        until=moment_of(row["until"]),
        mode=row["mode"],
    )


def reminder_step(game_id: int, version: int, sent: int, at: str) -> tuple[str, tuple[Any, ...]]:
    """The statement recording that `sent` deadline steps are done for the game's
    `version` (`bot.core.clock.deadlines`; a game has one such record, for its current version)."""
    return (
        "INSERT INTO reminders (game_id, version, sent, last_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
        "sent = excluded.sent, last_at = excluded.last_at",
        (game_id, version, sent, at),
    )


class Store(
    GuildTables,
    RatingTables,
    OperatorQueries,
    PictureTables,
    SeatTables,
    QueueTables,
    HoursTables,
    WebTables,
    VoteTables,
    PlayerTables,
    StoreParts,
):
    """Open with `await Store.open(database)` (`open_store`); close with
    `await store.close()`. The statements are here; the connection is the subclass's."""

    backends: ClassVar[list[type[Store]]] = []
    read_only = False
    """Opened to read only (the web process): every write raises `StoreError`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Store.backends.append(cls)

    @classmethod
    def handles(cls, database: str) -> bool:
        """Whether this store is the one for the database setting `database`."""
        return False

    @classmethod
    async def open(
        cls,
        database: str,
        *,
        exclusive: bool = False,
        shards: Shards | None = None,
        read_only: bool = False,
    ) -> Store:
        """Open (creating and migrating) the database named by `database`: a SQLite file
        path, or a `postgresql://` URL. `exclusive`: this process is the bot serving
        `shards` (all games if None); another process serving any of them is refused
        (`StartupError`). `read_only`: no migration, and every write fails (`readonly`)."""
        if cls is not Store:
            raise NotImplementedError
        chosen = next((b for b in reversed(Store.backends) if b.handles(database)), None)
        if chosen is None:
            raise ValueError(f"no store for {database!r}")
        return await chosen.open(database, exclusive=exclusive, shards=shards, read_only=read_only)

    async def close(self) -> None:
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def tables(self) -> list[str]:
        """The bot's tables (`schema_version` aside), `games` first: the others refer
        to it."""
        raise NotImplementedError

    async def after_copy(self) -> None:
        """Make the database ready for new rows after `copy.copy_database` wrote rows
        with their ids (PostgreSQL: move the identity columns past them)."""

    def _owed_shard_filter(self) -> str:
        """` AND` the outbox row's game is of this process's shards, or nothing."""
        if self.shards is None:
            return ""
        return f" AND game_id IN (SELECT id FROM games WHERE {self.shards.clause()})"

    @guarded
    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel, or of a thread a game plays in."""
        rows = await self._read(
            "SELECT * FROM games WHERE status IN ('lobby', 'active') "
            "AND (channel_id = ? OR thread_id = ?) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return (await self._rows(rows))[0] if rows else None

    @guarded
    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel or thread, whatever its status."""
        rows = await self._read(
            "SELECT * FROM games WHERE channel_id = ? OR thread_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return (await self._rows(rows))[0] if rows else None

    @guarded
    async def moves(self, game_id: int, *, offset: int = 0, limit: int = 1000) -> list[MoveRow]:
        rows = await self._read(
            "SELECT version, player, notation, at FROM moves WHERE game_id = ? "
            "ORDER BY version LIMIT ? OFFSET ?",
            (game_id, limit, offset),
        )
        return [MoveRow(r["version"], r["player"], r["notation"], r["at"]) for r in rows]

    @guarded
    async def move_time(self, game_id: int, version: int) -> str | None:
        """When the move that made `version` was saved (None if there is no such move)."""
        rows = await self._read(
            "SELECT at FROM moves WHERE game_id = ? AND version = ?", (game_id, version)
        )
        return str(rows[0]["at"]) if rows else None

    @guarded
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

    @guarded
    async def advance_passes(self, game_id: int, auction: int) -> set[str]:
        """The players who will pass in the auction opened at version `auction`."""
        rows = await self._read(
            "SELECT player FROM advance_passes WHERE game_id = ? AND auction = ?",
            (game_id, auction),
        )
        return {str(r["player"]) for r in rows}

    @guarded
    async def move_count(self, game_id: int) -> int:
        rows = await self._read("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else 0

    @guarded
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
        async with self._writing() as tx:
            busy = await tx.fetch(
                "SELECT id FROM games WHERE status IN ('lobby', 'active') "
                "AND (channel_id = ? OR thread_id = ?)",
                (channel_id, channel_id),
            )
            if busy:
                raise ChannelBusy(int(busy[0][0]))
            stamp = now()
            made = await tx.fetch(
                "INSERT INTO games (guild_id, channel_id, thread_id, creator_id, status, "
                "players, version, created_at, updated_at, language) "
                "VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    creator.user_id,
                    LOBBY,
                    seats_json([creator]),
                    stamp,
                    stamp,
                    language,
                ),
            )
            game_id = int(made[0][0])
            for sql, params in seat_statements(game_id, seats_json([creator])):
                await tx.execute(sql, params)
        row = await self.get(game_id)
        assert row is not None
        return row

    async def set_players(
        self,
        game_id: int,
        players: Sequence[Seat],
        *,
        expected: Sequence[Seat] | None = None,
        creator: str | None = None,
    ) -> None:
        """Seat list of a game still in its lobby (and, if `expected` is given, still
        seating exactly those players); `StaleVersion` when it is not. `creator`: the
        lobby's opener from now on (None: unchanged)."""
        opener = ""
        params: list[object] = [seats_json(players), now()]
        if creator is not None:
            opener = ", creator_id = ?"
            params.append(creator)
        guard = ""
        params += [game_id, LOBBY]
        if expected is not None:
            guard = " AND players = ?"
            params.append(seats_json(expected))
        update = (
            "UPDATE games SET players = ?, updated_at = ?"
            + opener
            + " WHERE id = ? AND status = ?"
            + guard,
            tuple(params),
        )
        await self._checked(
            [update, *seat_statements(game_id, seats_json(players))],
            f"game {game_id} is no longer in its lobby with those players",
        )

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self.transaction(
            [("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id))]
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Where the game plays from now on: a thread, or (None) its channel itself."""
        await self.transaction(
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
                    seats_json(players),
                    stored_state(state),
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
        statements += seat_statements(game_id, seats_json(players))
        await self._checked(statements, f"game {game_id} is no longer in its lobby")

    @database_timed  # the write of every move, timed whole
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
        expected_taken_over: Sequence[str] | None = None,
        at_end: AtEnd | None = None,
    ) -> None:
        """Save a move in one transaction if the game is still at `expected_version`
        (and, if given, `expected_epoch`: no undo happened since it was read; and
        `expected_taken_over`: the AI still plays those seats).

        `new_state` is the engine's state (a dict, or its JSON already made); `moves` are
        the log lines (player, notation) for versions expected+1..new, stamped `at`
        (default: now), `notes` why some of them were made for their player (version ->
        "forced", "advance", ...); `owed` the messages the move owes the players. Raises
        `StaleVersion` (and writes nothing) when the game moved on, `StoreError` (and
        writes nothing) when the database cannot take it. `at_end`: what a move that
        ends the game also writes in its transaction (its rating, `bot.core.community.ratings`).
        """
        if len(moves) != new_version - expected_version:
            raise ValueError("one log line per version step")
        stamp = at or now()
        guards = "" if expected_epoch is None else " AND undo_epoch = ?"
        guarded: tuple[Any, ...] = () if expected_epoch is None else (expected_epoch,)
        if expected_taken_over is not None:
            guards += " AND taken_over = ?"
            guarded += (taken_over_json(expected_taken_over),)
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "UPDATE games SET state = ?, version = ?, status = ?, updated_at = ?, "
                "turn_events = ? WHERE id = ? AND version = ? AND status = ?" + guards,
                (
                    stored_state(new_state),
                    new_version,
                    FINISHED if finished else ACTIVE,
                    stamp,
                    json.dumps(turn_events or {}),
                    game_id,
                    expected_version,
                    ACTIVE,
                    *guarded,
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
            statements, f"game {game_id} is no longer at version {expected_version}", at_end
        )

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
                    stored_state(new_state),
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
        (count,) = await self.transaction([statement])
        if count == 0 and not wanted:
            # nothing to withdraw is no failure, as long as the game is where it was
            rows = await self._read(f"SELECT {still}", guard)
            return bool(rows and rows[0][0])
        return count > 0

    @guarded
    async def games_missing_their_prompt(self) -> list[int]:
        """Active games whose newest saved version was never posted (a crash in between,
        or a file written before the outbox) and that owe no message to post it."""
        rows = await self._read(
            "SELECT id FROM games g WHERE status = 'active' "
            "AND (prompt_version IS NULL OR prompt_version != version) "
            "AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id "
            "AND o.delivered_at IS NULL AND o.kind = 'post')"
            + self._shard_filter("g.guild_id")
            + " ORDER BY id"
        )
        return [row["id"] for row in rows]

    async def set_prompt_message(self, game_id: int, version: int, message_id: int | None) -> bool:
        """Remember the message holding the prompt for `version` (ignored if outdated)."""
        (count,) = await self.transaction(
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
        (count,) = await self.transaction(
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
        await self.transaction(_owed_inserts(game_id, owed, stamp_of(datetime.now(UTC))))

    @guarded
    async def owed(
        self, game_id: int | None = None, *, due_by: datetime | None = None
    ) -> list[Owed]:
        """Messages not delivered yet, oldest first: of one game, or of every game (of
        this process's shards) with one due by `due_by`."""
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
            where += self._owed_shard_filter()
        rows = await self._read(f"SELECT * FROM outbox WHERE {where} ORDER BY game_id, id", params)
        return [_owed(row) for row in rows]

    @guarded
    async def next_owed_at(self, besides: Sequence[int] = ()) -> datetime | None:
        """When the earliest message still owed is to be tried again (None: nothing owed);
        `besides`: outbox ids left out (the caller knows better when they are due)."""
        where = "delivered_at IS NULL" + self._owed_shard_filter()
        if besides:
            where += f" AND id NOT IN ({', '.join('?' for _ in besides)})"
        rows = await self._read(f"SELECT MIN(next_at) FROM outbox WHERE {where}", list(besides))
        return moment_of(rows[0][0]) if rows and rows[0][0] else None

    async def delivery_failed(
        self, owed_id: int, next_at: datetime, error: str, *, failed_at: datetime | None = None
    ) -> None:
        """Count a failed attempt (made at `failed_at`, default now); try again at
        `next_at`. The first failure's moment is kept (`Owed.failing_since`)."""
        failed = stamp_of(failed_at or datetime.now(UTC))
        await self.transaction(
            [
                (
                    "UPDATE outbox SET attempts = attempts + 1, next_at = ?, last_error = ?, "
                    "failing_since = COALESCE(failing_since, ?) WHERE id = ?",
                    (stamp_of(next_at), error[:500], failed, owed_id),
                )
            ]
        )

    async def bring_owed_forward(self, game_ids: Sequence[int], moment: datetime) -> None:
        """Try the messages these games owe at `moment` at the latest (Discord answers
        again after an outage)."""
        if not game_ids:
            return
        marks = ", ".join("?" for _ in game_ids)
        stamp = stamp_of(moment)
        await self.transaction(
            [
                (
                    f"UPDATE outbox SET next_at = ? WHERE game_id IN ({marks}) AND next_at > ? "
                    "AND delivered_at IS NULL",
                    (stamp, *game_ids, stamp),
                )
            ]
        )

    async def postpone_owed(self, owed_ids: Sequence[int], next_at: datetime) -> None:
        """Try these messages no earlier than `next_at` (they wait for an earlier one that
        failed); no attempt is counted, and none is brought forward."""
        if not owed_ids:
            return
        marks = ", ".join("?" for _ in owed_ids)
        stamp = stamp_of(next_at)
        await self.transaction(
            [
                (
                    f"UPDATE outbox SET next_at = ? WHERE id IN ({marks}) AND next_at < ? "
                    "AND delivered_at IS NULL",
                    (stamp, *owed_ids, stamp),
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
                    "UPDATE games SET thread_id = "
                    "CASE WHEN channel_id = ? THEN NULL ELSE CAST(? AS BIGINT) END "
                    "WHERE id = ?",
                    (moved_to, moved_to, owed.game_id),
                )
            )
        await self.transaction(statements)

    # ----------------------------------------------------------- away (notifications: `prefs`)

    @guarded
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

    @guarded
    async def active_games_of(self, user_id: str) -> list[GameRow]:
        """The games under way in which `user_id` plays."""
        rows = await self._read(
            "SELECT * FROM games WHERE status = ? AND players LIKE ? ORDER BY id",
            (ACTIVE, f"%{user_id}%"),
        )
        games = [game_row(row) for row in rows]
        mine = {game.id for game in games if game.has_player(user_id)}
        return await self._rows([row for row in rows if row["id"] in mine])

    async def set_away(self, away: Away, owed: Sequence[tuple[int, OwedMessage]]) -> None:
        """Mark a player away (replacing an earlier away), with the notices it owes the
        players of their games (game id, message), in one transaction. The seats the
        player took back from the AI during an earlier away are forgotten: the new away
        hands every game over again if its mode says so (`hand_away_seats`)."""
        stamp = stamp_of(datetime.now(UTC))
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO away (user_id, since, until, mode) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET since = excluded.since, "
                "until = excluded.until, mode = excluded.mode",
                (away.user_id, stamp_of(away.since), stamp_of(away.until), away.mode),
            ),
            (
                "DELETE FROM away_seats WHERE user_id = ? AND reclaimed = 1",
                (away.user_id,),
            ),
        ]
        for game_id, message in owed:
            statements += _owed_inserts(game_id, [message], stamp)
        await self.transaction(statements)

    @guarded
    async def away_seats(self, user_id: str) -> dict[int, bool]:
        """The games whose seat `user_id`'s away handed to the AI: game id -> whether
        the player took that seat back meanwhile."""
        rows = await self._read(
            "SELECT game_id, reclaimed FROM away_seats WHERE user_id = ? ORDER BY game_id",
            (user_id,),
        )
        return {int(row["game_id"]): bool(row["reclaimed"]) for row in rows}

    @guarded
    async def users_with_away_seats(self) -> list[str]:
        """Everyone with a seat recorded in `away_seats` (start-up puts them right)."""
        rows = await self._read("SELECT DISTINCT user_id FROM away_seats ORDER BY user_id")
        return [str(row["user_id"]) for row in rows]

    @staticmethod
    def _seat_changes(
        user_id: str, hand_over: Sequence[GameRow], give_back: Sequence[GameRow]
    ) -> list[tuple[str, tuple[Any, ...]]]:
        """The updates of `games.taken_over` of an away's hand-over and give-back, each
        guarded by the row's `taken_over` as read (each must touch its row)."""
        return [
            *(
                taken_over_update(row.id, {*row.taken_over, user_id}, row.taken_over)
                for row in hand_over
            ),
            *(
                taken_over_update(row.id, set(row.taken_over) - {user_id}, row.taken_over)
                for row in give_back
            ),
        ]

    async def hand_away_seats(
        self, user_id: str, hand_over: Sequence[GameRow], give_back: Sequence[GameRow]
    ) -> bool:
        """In one transaction: the AI takes `user_id`'s seat in the games `hand_over`
        (recorded in `away_seats`) and gives it back in the games `give_back` (their
        records dropped), each game only if its `taken_over` is still as its row says
        and it is under way. False, and nothing written, if one of them changed."""
        guarded = self._seat_changes(user_id, hand_over, give_back)
        records: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO away_seats (user_id, game_id, reclaimed) VALUES (?, ?, 0) "
                "ON CONFLICT (user_id, game_id) DO UPDATE SET reclaimed = 0",
                (user_id, row.id),
            )
            for row in hand_over
        ]
        records += [
            ("DELETE FROM away_seats WHERE user_id = ? AND game_id = ?", (user_id, row.id))
            for row in give_back
        ]
        try:
            await self._checked_each(guarded, records, f"a game of {user_id} changed meanwhile")
        except StaleVersion:
            return False
        return True

    async def end_away(
        self,
        user_id: str,
        at: datetime,
        *,
        only_until: datetime | None = None,
        restarts: Sequence[tuple[int, int]] = (),
        owed: Sequence[tuple[int, OwedMessage]] = (),
        give_back: Sequence[GameRow] = (),
    ) -> bool:
        """End a player's away at `at`, in one transaction with the restart of the clocks
        of the decisions awaited from them (game id, version: the clock of that version
        starts at `at`, its reminders counted afresh), the notices it owes, and the
        seats the AI gives back (`give_back`, as in `hand_away_seats`; every record of
        `away_seats` of theirs is dropped). With `only_until`, only an away ending then
        (not one changed meanwhile). False, and nothing written, when there is no such
        away or a game of `give_back` changed meanwhile."""
        guard, params = "", [user_id]
        if only_until is not None:
            guard = " AND until = ?"
            params.append(stamp_of(only_until))
        moment, stamp = stamp_of(at), stamp_of(datetime.now(UTC))
        guarded = [
            # kept for the answer times of the statistics (`bot.core.community.ratings`)
            (
                "INSERT INTO away_periods (user_id, since, back_at) "
                "SELECT user_id, since, ? FROM away WHERE user_id = ?" + guard,
                (moment, *params),
            ),
            ("DELETE FROM away WHERE user_id = ?" + guard, tuple(params)),
            *self._seat_changes(user_id, (), give_back),
        ]
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("DELETE FROM away_seats WHERE user_id = ?", (user_id,))
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
            await self._checked_each(guarded, statements, f"{user_id} is not away (any more)")
        except StaleVersion:
            return False
        return True

    @guarded
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

    # ------------------------------------------------------------------ deadlines

    @guarded
    async def deadline_seconds(self, game_id: int) -> tuple[int, int] | None:
        """A game's turn and auction deadlines in seconds (None: no such game)."""
        rows = await self._read(
            "SELECT turn_seconds, auction_seconds FROM games WHERE id = ?", (game_id,)
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def set_deadline_seconds(
        self, game_id: int, turn_seconds: int, auction_seconds: int
    ) -> None:
        await self.transaction(
            [
                (
                    "UPDATE games SET turn_seconds = ?, auction_seconds = ? WHERE id = ?",
                    (turn_seconds, auction_seconds, game_id),
                )
            ]
        )

    @guarded
    async def clocks(self, game_id: int | None = None) -> list[DeadlineClock]:
        """The deadline clocks of one active game, or of every active game of this
        process's shards."""
        only = " AND g.id = ?" if game_id is not None else self._shard_filter("g.guild_id")
        rows = await self._read(
            "SELECT g.id, g.guild_id, g.version, g.undo_epoch, g.turn_seconds, "
            "g.auction_seconds, g.updated_at, "
            "(SELECT at FROM moves m WHERE m.game_id = g.id AND m.version = g.version) "
            "AS moved_at, r.version AS reminded_version, r.sent AS sent "
            "FROM games g LEFT JOIN reminders r ON r.game_id = g.id "
            "WHERE g.status = ?" + only,
            (ACTIVE,) if game_id is None else (ACTIVE, game_id),
        )
        return [
            DeadlineClock(
                game_id=int(r["id"]),
                guild_id=r["guild_id"],
                version=int(r["version"]),
                undo_epoch=int(r["undo_epoch"]),
                turn_seconds=int(r["turn_seconds"]),
                auction_seconds=int(r["auction_seconds"]),
                moved_at=str(r["moved_at"] or r["updated_at"]),
                sent=int(r["sent"]) if r["reminded_version"] == r["version"] else 0,
            )
            for r in rows
        ]

    async def record_deadline_step(self, game_id: int, version: int, sent: int, at: str) -> None:
        """`sent` deadline steps are done for the game's `version`."""
        await self.transaction([reminder_step(game_id, version, sent, at)])

    async def note_move(self, game_id: int, version: int, note: str) -> None:
        """Say why the move that made `version` was made for its player."""
        await self.transaction(
            [
                (
                    "UPDATE moves SET note = ? WHERE game_id = ? AND version = ?",
                    (note, game_id, version),
                )
            ]
        )

    @guarded
    async def move_notes(self, game_id: int) -> dict[int, str]:
        """Version -> why that move was made for its player (only the moves noted)."""
        rows = await self._read(
            "SELECT version, note FROM moves WHERE game_id = ? AND note IS NOT NULL", (game_id,)
        )
        return {int(r["version"]): str(r["note"]) for r in rows}

    async def end_game(
        self,
        game_id: int,
        version: int,
        result: dict[str, Any],
        *,
        at_end: AtEnd | None = None,
    ) -> bool:
        """Active -> ended with `result` stored, if the game is still at `version`;
        `at_end` writes in the same transaction (its rating, `bot.core.community.ratings`)."""
        update = (
            "UPDATE games SET status = ?, result = ?, updated_at = ? "
            "WHERE id = ? AND version = ? AND status = ?",
            (ENDED, json.dumps(result), now(), game_id, version, ACTIVE),
        )
        try:
            await self._checked([update], "the game moved on", at_end)
        except StaleVersion:
            return False
        return True

    # ------------------------------------------------------------------ history

    @guarded
    async def past_games(self, channel_id: int, limit: int) -> list[GameRow]:
        """The finished, ended and abandoned games of a channel or thread, newest first."""
        rows = await self._read(
            "SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?) "
            "AND status IN (?, ?, ?) ORDER BY id DESC LIMIT ?",
            (channel_id, channel_id, FINISHED, ENDED, ABANDONED, limit),
        )
        return await self._rows(rows)

    # ------------------------------------------------------------------ AI players
    # (issue 14): the games an AI may be awaited in, seats taken over (`votes`), the
    # `absent` setting

    @guarded
    async def active_game_ids(self) -> list[int]:
        """Every game under way of this process's shards (at start-up: those waiting
        for an AI go on)."""
        rows = await self._read(
            "SELECT id FROM games WHERE status = ?" + self._shard_filter() + " ORDER BY id",
            (ACTIVE,),
        )
        return [int(r["id"]) for r in rows]

    @guarded
    async def games_with_seats_taken_over(self) -> list[int]:
        """The games under way of this process's shards in which the AI plays a human's
        seat (taken over by a vote, a deadline or an away)."""
        rows = await self._read(
            "SELECT id FROM games WHERE status = ? AND taken_over <> ?"
            + self._shard_filter()
            + " ORDER BY id",
            (ACTIVE, "[]"),
        )
        return [int(r["id"]) for r in rows]

    async def set_absent(self, game_id: int, mode: str) -> None:
        if mode not in ABSENT_MODES:
            raise ValueError(f"absent must be one of {ABSENT_MODES}, not {mode!r}")
        await self.transaction([("UPDATE games SET absent = ? WHERE id = ?", (mode, game_id))])

    async def set_taken_over(
        self, game_id: int, seats: Sequence[str], *, expected: Sequence[str]
    ) -> bool:
        """The seats the AI plays for now, if they are still `expected` (False if not);
        the votes about a seat whose hands change are dropped."""
        changed = set(seats) ^ set(expected)
        statements = [taken_over_update(game_id, seats, expected)]
        statements += [
            ("DELETE FROM takeover_votes WHERE game_id = ? AND player = ?", (game_id, player))
            for player in sorted(changed)
        ]
        # a seat its owner takes back while away stays theirs until that away ends
        statements += [
            (
                "UPDATE away_seats SET reclaimed = 1 WHERE game_id = ? AND user_id = ?",
                (game_id, player),
            )
            for player in sorted(set(expected) - set(seats))
        ]
        count, *_ = await self.transaction(statements)
        return count > 0

    # ------------------------------------------------------------ languages (issue 13)

    async def set_language(self, game_id: int, language: str) -> None:
        """The language of a game's public messages and pictures from now on."""
        await self.transaction(
            [("UPDATE games SET language = ? WHERE id = ?", (language, game_id))]
        )


class AiTables:
    """The store's part of the AI players
    (`bot.core.ai_players.ai_seats`), as named store methods."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def active_games(self) -> list[int]:
        """Every game under way of this process's shards (at start-up: those waiting
        for an AI go on)."""
        return await self.store.active_game_ids()

    async def games_taken_over(self) -> list[int]:
        return await self.store.games_with_seats_taken_over()

    async def set_absent(self, game_id: int, mode: str) -> None:
        await self.store.set_absent(game_id, mode)

    async def set_taken_over(
        self, game_id: int, seats: Sequence[str], *, expected: Sequence[str]
    ) -> bool:
        return await self.store.set_taken_over(game_id, seats, expected=expected)

    async def add_takeover_vote(self, game_id: int, player: str, voter: str, at: str) -> list[str]:
        return await self.store.add_takeover_vote(game_id, player, voter, at)

    async def lapse_takeover_votes(self, game_id: int, player: str, before: str) -> None:
        await self.store.lapse_takeover_votes(game_id, player, before)

    async def takeover_voters(self, game_id: int, player: str) -> list[str]:
        return await self.store.takeover_voters(game_id, player)
