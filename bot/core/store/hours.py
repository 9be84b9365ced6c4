"""The store's statements about quiet hours (issue 25 point 1, `bot.core.clock.hours`), mixed
into `base.Store`: one row per player who set them — the wall-clock times "HH:MM" and
the IANA time zone, as the player chose them (the zone's rules are the machine's)."""

from __future__ import annotations

from collections.abc import Sequence

from .parts import StoreParts


class HoursTables(StoreParts):
    """Mixed into `Store`: these use its `query` and `transaction` (both guarded)."""

    async def quiet_hours_of(self, user_ids: Sequence[str]) -> dict[str, tuple[str, str, str]]:
        """(from, to, time zone) of each of these players who set quiet hours."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.query(
            f"SELECT user_id, quiet_from, quiet_to, zone FROM quiet_hours "
            f"WHERE user_id IN ({marks})",
            tuple(user_ids),
        )
        return {
            str(r["user_id"]): (str(r["quiet_from"]), str(r["quiet_to"]), str(r["zone"]))
            for r in rows
        }

    async def set_quiet_hours(
        self, user_id: str, quiet_from: str, quiet_to: str, zone: str, at: str
    ) -> None:
        await self.transaction(
            [
                (
                    "INSERT INTO quiet_hours (user_id, quiet_from, quiet_to, zone, updated_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                    "quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, "
                    "zone = excluded.zone, updated_at = excluded.updated_at",
                    (user_id, quiet_from, quiet_to, zone, at),
                )
            ]
        )

    async def clear_quiet_hours(self, user_id: str) -> bool:
        """Forget a player's quiet hours; whether they had any."""
        counts = await self.transaction([("DELETE FROM quiet_hours WHERE user_id = ?", (user_id,))])
        return bool(counts[0])


__all__ = ["HoursTables"]
