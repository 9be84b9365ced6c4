"""The outbox: the messages a game owes its players, written in the transaction of
what owes them, then delivered in order, exactly once, with their attempts and
back-off (`bot.core.delivery`); mixed into `base.Store`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .model import ACTIVE, Owed, OwedMessage, moment_of, stamp_of
from .parts import Row, Statement, StoreParts, guarded

CLEAR = "clear"
"""An owed message (issue 41): the buttons of a prompt made stale by a newer one, to be
taken off (body: its `message_id` and the `channel_id` it lives in). Owed when the new
prompt is recorded, retried like a post, given up only when Discord says the message is
gone; version 0, so that an undo never drops it."""
RECHECK = "recheck"
"""An owed check (issue 41): a message was posted without knowing whether an earlier
attempt had gone out (Discord could not be read for too long); once it can be read, a
duplicate (the later message) is deleted (body: the outbox message's `owed_id` and kind
`of` — a move's post or a notice —, its `channel_id`, the `message_id` posted, `since`
when it was owed). Version 0."""


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
        looks_failing_since=(
            moment_of(row["looks_failing_since"]) if row["looks_failing_since"] else None
        ),
    )


def owed_inserts(game_id: int, owed: Sequence[OwedMessage], stamp: str) -> list[Statement]:
    """The statements owing `owed` for the game, run in the transaction of what owes
    them (a start, a move, an undo, an away)."""
    return [
        (
            "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, message.version, message.kind, json.dumps(message.body), stamp, stamp),
        )
        for message in owed
    ]


def _clear_owed(game_id: int, message_id: int, channel_id: int, stamp: str) -> Statement:
    """The statement owing a `CLEAR` of `message_id` (in `channel_id`) for the game."""
    body = {"message_id": message_id, "channel_id": channel_id}
    return (
        "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at, "
        "message_id, channel_id) VALUES (?, 0, ?, ?, ?, ?, ?, ?)",
        (game_id, CLEAR, json.dumps(body), stamp, stamp, message_id, channel_id),
    )


class OutboxTables(StoreParts):
    """Mixed into `base.Store`: the messages owed and their delivery."""

    def _owed_shard_filter(self) -> str:
        """` AND` the outbox row's game is of this process's shards, or nothing."""
        if self.shards is None:
            return ""
        return f" AND game_id IN (SELECT id FROM games WHERE {self.shards.clause()})"

    async def owe(self, game_id: int, owed: Sequence[OwedMessage]) -> None:
        """Add messages owed outside a move (a fresh prompt asked for)."""
        await self.transaction(owed_inserts(game_id, owed, stamp_of(datetime.now(UTC))))

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
        self,
        owed_id: int,
        next_at: datetime,
        error: str,
        *,
        failed_at: datetime | None = None,
        could_not_look: bool = False,
    ) -> None:
        """Count a failed attempt (made at `failed_at`, default now); try again at
        `next_at`. The first failure's moment is kept (`Owed.failing_since`), and, while
        the attempts fail because they `could_not_look` for an earlier one, the first
        such failure's (`Owed.looks_failing_since`; an attempt failing otherwise, after
        looking, forgets it)."""
        failed = stamp_of(failed_at or datetime.now(UTC))
        looks = "COALESCE(looks_failing_since, ?)" if could_not_look else "NULL"
        await self.transaction(
            [
                (
                    "UPDATE outbox SET attempts = attempts + 1, next_at = ?, last_error = ?, "
                    f"failing_since = COALESCE(failing_since, ?), looks_failing_since = {looks} "
                    "WHERE id = ?",
                    (
                        stamp_of(next_at),
                        error[:500],
                        failed,
                        *([failed] if could_not_look else []),
                        owed_id,
                    ),
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
        channel_id: int | None = None,
        stale: tuple[int, int] | None = None,
        unchecked: datetime | None = None,
    ) -> None:
        """Mark a message delivered (`message_id`: where it is, if anywhere; `channel_id`:
        the channel or thread it is in). `prompt`: it carries the game's prompt for its
        version; `moved_to`: the game plays in this channel or thread from now on (its own
        thread was gone, or refused the bot); `stale`: the previous prompt (message id,
        the channel it lives in), whose buttons are then owed a `CLEAR`, in the same
        transaction; `unchecked`: the message was posted without a look for an earlier
        attempt (owed since then): a `RECHECK` is owed, in the same transaction."""
        stamp = stamp_of(datetime.now(UTC))
        statements: list[Statement] = [
            (
                "UPDATE outbox SET delivered_at = ?, message_id = ?, last_error = ?, "
                "channel_id = ? WHERE id = ?",
                (stamp, message_id, note, channel_id, owed.id),
            )
        ]
        if stale is not None:
            statements.append(_clear_owed(owed.game_id, *stale, stamp))
        if unchecked is not None and message_id is not None:
            where = (message_id, channel_id)
            check = {
                "of": owed.kind,
                "owed_id": owed.id,
                "channel_id": channel_id,
                "message_id": message_id,
                "since": stamp_of(unchecked),
            }
            statements.append(
                (
                    "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at, "
                    "message_id, channel_id) VALUES (?, 0, ?, ?, ?, ?, ?, ?)",
                    (owed.game_id, RECHECK, json.dumps(check), stamp, stamp, *where),
                )
            )
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

    @guarded
    async def message_place(self, game_id: int, message_id: int) -> int | None:
        """The channel or thread a delivered message of the game lives in (None: not
        recorded, e.g. delivered before the outbox kept it)."""
        rows = await self._read(
            "SELECT channel_id FROM outbox WHERE game_id = ? AND message_id = ? "
            "AND kind NOT IN (?, ?) AND channel_id IS NOT NULL ORDER BY id DESC LIMIT 1",
            (game_id, message_id, CLEAR, RECHECK),
        )
        return int(rows[0][0]) if rows else None

    @guarded
    async def places_of_games_under_way(self) -> dict[int, set[int]]:
        """Game id -> every channel or thread a delivered message of the game is recorded
        in, for the games under way of this process's shards (one read for all)."""
        rows = await self._read(
            "SELECT DISTINCT game_id, channel_id FROM outbox WHERE channel_id IS NOT NULL "
            "AND game_id IN (SELECT id FROM games WHERE status = ?" + self._shard_filter() + ")",
            (ACTIVE,),
        )
        places: dict[int, set[int]] = {}
        for row in rows:
            places.setdefault(int(row["game_id"]), set()).add(int(row["channel_id"]))
        return places

    async def owe_clear(self, game_id: int, message_id: int, channel_id: int) -> None:
        """Owe a `CLEAR` of a message of the game found with live buttons though it is
        not the game's prompt (in `channel_id`)."""
        stamp = stamp_of(datetime.now(UTC))
        await self.transaction([_clear_owed(game_id, message_id, channel_id, stamp)])

    async def prompt_replaced(self, game_id: int, duplicate: int, kept: int) -> bool:
        """The game's prompt `duplicate` was deleted as a duplicate of `kept` (the same
        message, posted earlier): `kept` is the prompt (if `duplicate` still was)."""
        (count,) = await self.transaction(
            [
                (
                    "UPDATE games SET message_id = ? WHERE id = ? AND message_id = ?",
                    (kept, game_id, duplicate),
                )
            ]
        )
        return count > 0


__all__ = ["CLEAR", "RECHECK", "OutboxTables", "owed_inserts"]
