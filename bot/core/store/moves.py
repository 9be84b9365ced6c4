"""A game's moves: the append-only log and its reads, a move saved in one transaction
with the optimistic version (and undo epoch) check (`commit_move`), moves taken back
(`undo_moves`, kept in `undone_moves`), passes in advance, notes on moves, and the end
of a game by a vote (mixed into `base.Store`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.core.runtime.metrics import database_timed

from .deadlines import reminder_step
from .model import (
    ACTIVE,
    ENDED,
    FINISHED,
    MoveRow,
    OwedMessage,
    StaleVersion,
    UndoneMove,
    now,
    stamp_of,
)
from .outbox import owed_inserts
from .parts import AtEnd, Statement, StoreParts, guarded
from .rows import stored_state, taken_over_json


class MoveTables(StoreParts):
    """Mixed into `base.Store`: the move log and the writes that move a game on."""

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
        statements: list[Statement] = [
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
        statements += owed_inserts(game_id, owed, stamp_of(datetime.now(UTC)))
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
        statements: list[Statement] = [
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
        statements += owed_inserts(game_id, owed, stamp_of(datetime.now(UTC)))
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
        statement: Statement
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


__all__ = ["MoveTables"]
