"""Each player's games, found through their seats (issue 25.2): `/montana me games` and
the daily digest ask "which games is this user in?" for one user, and a
`players LIKE '%id%'` would read every game's row. The table `game_seats` holds one row
per (user, game), written in the same transaction as the game's `players` (so it can
never disagree with them), and its key starts with the user: the lookup reads that
user's rows only. `digests` remembers the day each player's digest was last sent, so
a restart never sends a second one that day.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .model import OPEN_STATUSES, GameRow
from .parts import StoreParts, guarded

SeatStatement = tuple[str, tuple[Any, ...]]


def seat_statements(game_id: int, players_json: str) -> list[SeatStatement]:
    """The statements that make the seats of `game_id` those of `players_json`, **if**
    the game's row holds exactly that seat list now: run them after the guarded write of
    `players`, in its transaction; a write that did not happen changes no seat."""
    seated = [str(player["id"]) for player in json.loads(players_json)]
    holds = "EXISTS (SELECT 1 FROM games WHERE id = ? AND players = ?)"
    statements: list[SeatStatement] = [
        (f"DELETE FROM game_seats WHERE game_id = ? AND {holds}", (game_id, game_id, players_json))
    ]
    statements += [
        (
            f"INSERT INTO game_seats (user_id, game_id) "
            f"SELECT CAST(? AS TEXT), CAST(? AS BIGINT) WHERE {holds}",
            (user_id, game_id, game_id, players_json),
        )
        for user_id in dict.fromkeys(seated)
    ]
    return statements


class SeatTables(StoreParts):
    """The store's part of "my games" (mixed into `base.Store`)."""

    @guarded
    async def seated_games(
        self, user_id: str, guild_id: int | None = None, statuses: Sequence[str] = OPEN_STATUSES
    ) -> list[GameRow]:
        """The games `user_id` has a seat in, of those statuses (default: in the lobby
        or under way), in one server (`guild_id`) or in all; oldest first."""
        marks = ", ".join("?" for _ in statuses)
        where = " AND g.guild_id = ?" if guild_id is not None else ""
        params: tuple[Any, ...] = (user_id, *statuses)
        rows = await self._read(
            "SELECT g.* FROM game_seats s JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = ? AND g.status IN ({marks}){where} ORDER BY g.id",
            (*params, guild_id) if guild_id is not None else params,
        )
        return await self._rows(rows)

    @guarded
    async def digest_due(self, user_ids: Sequence[str], day: str) -> list[str]:
        """Of the players who asked for the daily digest (`notify_prefs.digest`), those
        among `user_ids` (all if empty) not sent one on `day` (YYYY-MM-DD) yet."""
        only = ""
        if user_ids:
            only = f" AND p.user_id IN ({', '.join('?' for _ in user_ids)})"
        rows = await self._read(
            "SELECT p.user_id FROM notify_prefs p LEFT JOIN digests d ON d.user_id = p.user_id "
            "WHERE p.digest = 1 AND (d.day IS NULL OR d.day < ?)" + only + " ORDER BY p.user_id",
            (day, *user_ids),
        )
        return [str(row[0]) for row in rows]

    @guarded
    async def digest_wanted(self, user_id: str) -> bool:
        rows = await self._read("SELECT digest FROM notify_prefs WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0][0])

    async def set_digest(self, user_id: str, wanted: bool, at: str) -> None:
        await self.transaction(
            [
                (
                    "INSERT INTO notify_prefs (user_id, dm, digest, updated_at) "
                    "VALUES (?, 0, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                    "digest = excluded.digest, updated_at = excluded.updated_at",
                    (user_id, int(wanted), at),
                )
            ]
        )

    async def claim_digest(self, user_id: str, day: str) -> bool:
        """Mark `user_id`'s digest of `day` as sent; False if it already was (by this
        process before a restart, or by another): then it must not be sent again."""
        (count,) = await self.transaction(
            [
                (
                    "INSERT INTO digests (user_id, day) VALUES (?, ?) ON CONFLICT (user_id) "
                    "DO UPDATE SET day = excluded.day WHERE digests.day < excluded.day",
                    (user_id, day),
                )
            ]
        )
        return count > 0


__all__ = ["SeatTables", "seat_statements"]
