"""The store's part in an operator's tools: what a scrape and the health check read
(`metrics`: cheap aggregates of this process's shards, a trivial query that shows the
database answers), and the mark a backup leaves on its copy (`bot.backup`).
Mixed into `Store`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from .model import ACTIVE, moment_of, stamp_of
from .parts import StoreParts


class OperatorQueries(StoreParts):
    """The statements of an operator's tools; `Store` inherits them."""

    async def ping(self) -> None:
        """Raise unless the database answers a trivial query."""
        rows = await self._read("SELECT 1")
        if not rows or int(rows[0][0]) != 1:
            raise RuntimeError("the database gave no answer to SELECT 1")

    async def active_games_by_guild(self) -> list[tuple[int | None, int]]:
        """(guild id, how many games under way there), for the servers with any."""
        rows = await self._read(
            "SELECT guild_id, COUNT(*) FROM games WHERE status = ?"
            + self._shard_filter()
            + " GROUP BY guild_id",
            (ACTIVE,),
        )
        return [(_guild(row[0]), int(row[1])) for row in rows]

    async def owed_by_guild(self) -> list[tuple[int | None, int, datetime]]:
        """(guild id, messages owed and not delivered, when the oldest was owed), for the
        servers owed any."""
        rows = await self._read(
            "SELECT g.guild_id, COUNT(*), MIN(o.created_at) FROM outbox o "
            "JOIN games g ON g.id = o.game_id WHERE o.delivered_at IS NULL"
            + self._shard_filter("g.guild_id")
            + " GROUP BY g.guild_id"
        )
        return [(_guild(row[0]), int(row[1]), moment_of(str(row[2]))) for row in rows]

    async def outbox_ids_from(self, floor: int) -> None:
        """Number the next owed messages from `floor` on (each store its own way)."""
        raise NotImplementedError

    async def ready_for_restoring(self) -> None:
        """Make a backup's copy ready to be restored: by then the players' messages show
        later moves, and what was owed when it was made has been delivered by the bot
        that went on (the same nonces: Discord would answer with those later messages).
        So nothing is owed in it any more, and every game under way is marked as not
        showing its newest prompt: the bot restored on it posts each one afresh."""
        stamp = stamp_of(datetime.now(UTC))
        async with self._writing() as tx:
            await tx.execute(
                "UPDATE outbox SET delivered_at = ?, last_error = ? WHERE delivered_at IS NULL",
                (stamp, "owed when a backup was made; its restored bot posts a fresh prompt"),
            )
            await tx.execute("UPDATE games SET prompt_version = NULL WHERE status = ?", (ACTIVE,))


def _guild(value: Any) -> int | None:
    return None if value is None else int(value)


__all__ = ["OperatorQueries"]
