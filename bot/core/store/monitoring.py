"""What an operator's scrape and health check read from the store (`metrics`): cheap
aggregates of this process's shards, and a trivial query that shows the database answers.
Mixed into `Store`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .model import ACTIVE, moment_of

Row = Any


class MonitoringReads:
    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    def _shard_filter(self, column: str = "guild_id") -> str:
        raise NotImplementedError

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


def _guild(value: Any) -> int | None:
    return None if value is None else int(value)


__all__ = ["MonitoringReads"]
