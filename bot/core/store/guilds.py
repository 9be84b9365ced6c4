"""The store's statements about servers (guilds), mixed into `base.Store`: each
server's settings (issue 21: its limits, `bot.core.server.limits`) and the counts the limits
are checked against.

`guild_settings` holds one row per server and setting name, its value as text: a
later setting (a server's default deadlines, language ...) is one more name, with no
new table or column. A server that never set a value has no row: the bot's default.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .model import ACTIVE, LOBBY, GameRow, now
from .parts import StoreParts


class GuildTables(StoreParts):
    """Mixed into `Store`: these use its `query` and `transaction` (both guarded)."""

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """The settings a server changed from the defaults, by name."""
        rows = await self.query(
            "SELECT name, value FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {str(r["name"]): str(r["value"]) for r in rows}

    async def set_guild_settings(self, guild_id: int, values: Mapping[str, str | None]) -> None:
        """Change some of a server's settings at once; None puts one back to its default."""
        stamp = now()
        statements: list[tuple[str, tuple[Any, ...]]] = []
        for name, value in sorted(values.items()):
            if value is None:
                statements.append(
                    (
                        "DELETE FROM guild_settings WHERE guild_id = ? AND name = ?",
                        (guild_id, name),
                    )
                )
            else:
                statements.append(
                    (
                        "INSERT INTO guild_settings (guild_id, name, value, updated_at) "
                        "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, name) DO UPDATE SET "
                        "value = excluded.value, updated_at = excluded.updated_at",
                        (guild_id, name, value, stamp),
                    )
                )
        if statements:
            await self.transaction(statements)

    async def open_lobbies_by(self, guild_id: int | None, user_id: str) -> int:
        """How many lobbies `user_id` opened in this server (None: outside any) and
        has not started or closed."""
        where = "guild_id IS NULL" if guild_id is None else "guild_id = ?"
        params: tuple[Any, ...] = () if guild_id is None else (guild_id,)
        rows = await self.query(
            f"SELECT COUNT(*) AS n FROM games WHERE {where} AND status = ? AND creator_id = ?",
            (*params, LOBBY, user_id),
        )
        return int(rows[0]["n"])

    async def games_under_way_of(self, guild_id: int | None, user_id: str) -> int:
        """How many games under way in this server `user_id` has a seat in."""
        where = "guild_id IS NULL" if guild_id is None else "guild_id = ?"
        params: tuple[Any, ...] = () if guild_id is None else (guild_id,)
        rows = await self.query(
            f"SELECT id, players FROM games WHERE {where} AND status = ? AND players LIKE ?",
            (*params, ACTIVE, f"%{user_id}%"),
        )
        # LIKE finds candidates; the seat list itself decides (an id inside another)
        return sum(any(seat.get("id") == user_id for seat in _seats(r["players"])) for r in rows)

    async def games_open_in_guild(self, guild_id: int, limit: int = 50) -> list[GameRow]:
        """A server's games under way and open lobbies (its moderators' list, issue 26),
        oldest first, at most `limit` (index `games_guild_status`)."""
        rows = await self.query(
            "SELECT * FROM games WHERE guild_id = ? AND status IN (?, ?) ORDER BY id LIMIT ?",
            (guild_id, ACTIVE, LOBBY, limit),
        )
        return await self._rows(rows)

    async def open_lobbies(self) -> list[GameRow]:
        """Every lobby of this process's shards, oldest first (their expiry)."""
        rows = await self.query(
            "SELECT * FROM games WHERE status = ?" + self._shard_filter() + " ORDER BY id",
            (LOBBY,),
        )
        return await self._rows(rows)


def _seats(players: str) -> list[dict[str, Any]]:
    seats = json.loads(players)
    return [seat for seat in seats if isinstance(seat, dict)]


__all__ = ["GuildTables"]
