"""A game's deadlines: their lengths, each game's clock (`bot.core.clock.deadlines`),
the deadline steps done for a version and the clocks started again when a player came
back (mixed into `base.Store`)."""

from __future__ import annotations

from datetime import datetime

from .model import ACTIVE, DeadlineClock, moment_of
from .parts import Statement, StoreParts, guarded


def reminder_step(game_id: int, version: int, sent: int, at: str) -> Statement:
    """The statement recording that `sent` deadline steps are done for the game's
    `version` (`bot.core.clock.deadlines`; a game has one such record, for its current version)."""
    return (
        "INSERT INTO reminders (game_id, version, sent, last_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
        "sent = excluded.sent, last_at = excluded.last_at",
        (game_id, version, sent, at),
    )


class DeadlineTables(StoreParts):
    """Mixed into `base.Store`: deadlines and their clocks."""

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


__all__ = ["DeadlineTables", "reminder_step"]
