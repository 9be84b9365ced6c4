"""The store's statements about the matchmaking queue (issue 25 point 5), mixed into
`base.Store`: who waits for a table in each server, and the one transaction that takes
a table's players out of the queue and seats them in a new game.

`match_queue` holds one row per server and player (a player is queued once per
server); `counts` are the player counts they accept ("2,3,4"), `pace` a preset of
`bot.core.clock.pace`, `channel_id` where they asked (the game's channel when the server
names none). A row older than the queue's expiry is ignored by the reads and replaced
by a new entry (`bot.core.community.matchmaking` decides the expiry; these take its cut-off).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .lobbies import insert_lobby
from .model import GameRow, Seat
from .parts import Row, StoreParts, guarded


@dataclass(frozen=True)
class QueuedPlayer:
    """One player waiting for a table in one server."""

    guild_id: int
    user_id: str
    name: str
    counts: tuple[int, ...]
    """The player counts they accept, ascending."""
    pace: str
    language: str
    channel_id: int
    queued_at: str
    """When they joined the queue (`model.stamp_of`: such stamps sort like moments)."""


class _QueueChanged(Exception):
    """A player of the table left the queue meanwhile: the transaction is undone."""


def _player_of(row: Row) -> QueuedPlayer:
    return QueuedPlayer(
        guild_id=int(row["guild_id"]),
        user_id=str(row["user_id"]),
        name=str(row["name"]),
        counts=tuple(sorted(int(n) for n in str(row["counts"]).split(",") if n)),
        pace=str(row["pace"]),
        language=str(row["language"]),
        channel_id=int(row["channel_id"]),
        queued_at=str(row["queued_at"]),
    )


class QueueTables(StoreParts):
    """Mixed into `Store`: these use its `query`, `transaction` and `_writing`."""

    async def queued_in(self, guild_id: int, *, since: str) -> list[QueuedPlayer]:
        """The server's queue, first queued first, without the entries queued before
        `since` (expired)."""
        rows = await self.query(
            "SELECT * FROM match_queue WHERE guild_id = ? AND queued_at >= ? "
            "ORDER BY queued_at, user_id",
            (guild_id, since),
        )
        return [_player_of(row) for row in rows]

    async def queued_guilds(self, *, since: str) -> list[int]:
        """The servers of this process's shards with someone in their queue (queued
        since `since`: not expired), which a pass at start-up matches."""
        rows = await self.query(
            "SELECT DISTINCT guild_id FROM match_queue WHERE queued_at >= ?"
            + self._shard_filter()
            + " ORDER BY guild_id",
            (since,),
        )
        return [int(row["guild_id"]) for row in rows]

    async def queue_entry(self, guild_id: int, user_id: str, *, since: str) -> QueuedPlayer | None:
        """`user_id`'s entry in the server's queue, unless it expired (before `since`)."""
        rows = await self.query(
            "SELECT * FROM match_queue WHERE guild_id = ? AND user_id = ? AND queued_at >= ?",
            (guild_id, user_id, since),
        )
        return _player_of(rows[0]) if rows else None

    async def join_queue(self, entry: QueuedPlayer, *, since: str) -> bool:
        """Queue `entry`; False (nothing changed) when the player is queued in this
        server already. An expired entry (before `since`) is replaced, and the server's
        other expired entries are dropped in the same transaction."""
        counts = await self.transaction(
            [
                (
                    "DELETE FROM match_queue WHERE guild_id = ? AND queued_at < ?",
                    (entry.guild_id, since),
                ),
                (
                    "INSERT INTO match_queue (guild_id, user_id, name, counts, pace, language, "
                    "channel_id, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, user_id) DO NOTHING",
                    (
                        entry.guild_id,
                        entry.user_id,
                        entry.name,
                        ",".join(str(n) for n in sorted(entry.counts)),
                        entry.pace,
                        entry.language,
                        entry.channel_id,
                        entry.queued_at,
                    ),
                ),
            ]
        )
        return counts[1] == 1

    async def leave_queue(self, guild_id: int, user_id: str) -> bool:
        """Take `user_id` out of the server's queue; False if they were not in it."""
        counts = await self.transaction(
            [
                (
                    "DELETE FROM match_queue WHERE guild_id = ? AND user_id = ?",
                    (guild_id, user_id),
                )
            ]
        )
        return counts[0] > 0

    @guarded
    async def seat_from_queue(
        self,
        guild_id: int,
        players: Sequence[Seat],
        *,
        since: str,
        channel_id: int,
        thread_id: int | None,
        language: str,
        turn_seconds: int,
        auction_seconds: int,
    ) -> GameRow | None:
        """In one transaction: take `players` out of the server's queue and open a game
        with them seated (in this order; the first is its opener), in its lobby until
        the service starts it. None (nothing changed) if one of them is no longer
        queued (withdrawn, or expired before `since`); `ChannelBusy` if the channel
        has a game already."""
        ids = [seat.user_id for seat in players]
        marks = ", ".join("?" for _ in ids)
        try:
            async with self._writing() as tx:
                taken = await tx.execute(
                    f"DELETE FROM match_queue WHERE guild_id = ? AND user_id IN ({marks}) "
                    "AND queued_at >= ?",
                    (guild_id, *ids, since),
                )
                if taken != len(ids):
                    raise _QueueChanged
                game_id = await insert_lobby(
                    tx,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    thread_id=thread_id,
                    players=players,
                    language=language,
                    deadlines=(turn_seconds, auction_seconds),
                )
        except _QueueChanged:
            return None
        return await self.get(game_id)


__all__ = ["QueueTables", "QueuedPlayer"]
