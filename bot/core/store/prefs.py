"""What the bot remembers of each player's wishes and whereabouts, mixed into `Store`:
the notifications they asked for (`notify_prefs`: a DM when a game waits, a heads-up),
the Discord locale their client was last seen in (`user_locales`) and the last away/back
line said about them in each game (`presence_lines`, so that a new one edits it)."""

from __future__ import annotations

from collections.abc import Sequence

from .model import now
from .parts import StoreParts, guarded


class PlayerTables(StoreParts):
    @guarded
    async def dm_wanted(self, user_id: str) -> bool:
        """Whether the player asked for a direct message when a game waits for them."""
        rows = await self._read("SELECT dm FROM notify_prefs WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0]["dm"])

    async def set_dm(self, user_id: str, wanted: bool) -> None:
        await self.transaction(
            [
                (
                    "INSERT INTO notify_prefs (user_id, dm, updated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, "
                    "updated_at = excluded.updated_at",
                    (user_id, int(wanted), now()),
                )
            ]
        )

    @guarded
    async def heads_up_wanted(self, user_id: str) -> bool:
        """Whether the player asked for a heads-up when the player before them starts."""
        rows = await self._read("SELECT heads_up FROM notify_prefs WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0]["heads_up"])

    async def set_heads_up(self, user_id: str, wanted: bool) -> None:
        await self.transaction(
            [
                (
                    "INSERT INTO notify_prefs (user_id, dm, heads_up, updated_at) "
                    "VALUES (?, 0, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                    "heads_up = excluded.heads_up, updated_at = excluded.updated_at",
                    (user_id, int(wanted), now()),
                )
            ]
        )

    @guarded
    async def presence_line(self, game_id: int, user_id: str) -> tuple[int, str] | None:
        """The message of the last away/back line said in a game about `user_id`, and
        when it was posted (issue 21.2), if any."""
        rows = await self._read(
            "SELECT message_id, posted_at FROM presence_lines WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return (int(rows[0]["message_id"]), str(rows[0]["posted_at"])) if rows else None

    async def set_presence_line(
        self, game_id: int, user_id: str, message_id: int, posted_at: str
    ) -> None:
        await self.transaction(
            [
                (
                    "INSERT INTO presence_lines (game_id, user_id, message_id, posted_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET "
                    "message_id = excluded.message_id, posted_at = excluded.posted_at",
                    (game_id, user_id, message_id, posted_at),
                )
            ]
        )

    async def remember_locale(self, user_id: str, locale: str) -> None:
        """The Discord locale `user_id`'s client was last seen in."""
        await self.transaction(
            [
                (
                    "INSERT INTO user_locales (user_id, locale, seen_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET "
                    "locale = excluded.locale, seen_at = excluded.seen_at",
                    (user_id, locale, now()),
                )
            ]
        )

    @guarded
    async def locales(self, user_ids: Sequence[str]) -> dict[str, str]:
        """User id -> the Discord locale last seen for them (absent if never seen)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._read(
            f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})",
            tuple(user_ids),
        )
        return {row["user_id"]: row["locale"] for row in rows}
