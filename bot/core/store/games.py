"""A game's row apart from its moves: the games of a channel (open, latest, past ones),
which games still lack their prompt, the prompt's message, the status, the thread, the
language (mixed into `base.Store`)."""

from __future__ import annotations

from collections.abc import Sequence

from .model import ABANDONED, ENDED, FINISHED, GameRow, now
from .parts import StoreParts, guarded


class GameTables(StoreParts):
    """Mixed into `base.Store`: each game's own row."""

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
    async def past_games(self, channel_id: int, limit: int) -> list[GameRow]:
        """The finished, ended and abandoned games of a channel or thread, newest first."""
        rows = await self._read(
            "SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?) "
            "AND status IN (?, ?, ?) ORDER BY id DESC LIMIT ?",
            (channel_id, channel_id, FINISHED, ENDED, ABANDONED, limit),
        )
        return await self._rows(rows)

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

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Where the game plays from now on: a thread, or (None) its channel itself."""
        await self.transaction(
            [("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))]
        )

    async def set_language(self, game_id: int, language: str) -> None:
        """The language of a game's public messages and pictures from now on."""
        await self.transaction(
            [("UPDATE games SET language = ? WHERE id = ?", (language, game_id))]
        )


__all__ = ["GameTables"]
