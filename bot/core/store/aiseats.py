"""AI players (issue 14): the games an AI may be awaited in, the seats it plays for
people (taken over by a vote, `votes`, a deadline or an away), the `absent` setting
(mixed into `base.Store`; `base.AiTables` names them for `bot.core.ai_players`)."""

from __future__ import annotations

from collections.abc import Sequence

from .model import ABSENT_MODES, ACTIVE
from .parts import StoreParts, guarded
from .rows import taken_over_update


class AiSeatTables(StoreParts):
    """Mixed into `base.Store`: AI seats and seats taken over."""

    @guarded
    async def active_game_ids(self) -> list[int]:
        """Every game under way of this process's shards (at start-up: those waiting
        for an AI go on)."""
        rows = await self._read(
            "SELECT id FROM games WHERE status = ?" + self._shard_filter() + " ORDER BY id",
            (ACTIVE,),
        )
        return [int(r["id"]) for r in rows]

    @guarded
    async def games_with_seats_taken_over(self) -> list[int]:
        """The games under way of this process's shards in which the AI plays a human's
        seat (taken over by a vote, a deadline or an away)."""
        rows = await self._read(
            "SELECT id FROM games WHERE status = ? AND taken_over <> ?"
            + self._shard_filter()
            + " ORDER BY id",
            (ACTIVE, "[]"),
        )
        return [int(r["id"]) for r in rows]

    async def set_absent(self, game_id: int, mode: str) -> None:
        if mode not in ABSENT_MODES:
            raise ValueError(f"absent must be one of {ABSENT_MODES}, not {mode!r}")
        await self.transaction([("UPDATE games SET absent = ? WHERE id = ?", (mode, game_id))])

    async def set_taken_over(
        self, game_id: int, seats: Sequence[str], *, expected: Sequence[str]
    ) -> bool:
        """The seats the AI plays for now, if they are still `expected` (False if not);
        the votes about a seat whose hands change are dropped."""
        changed = set(seats) ^ set(expected)
        statements = [taken_over_update(game_id, seats, expected)]
        statements += [
            ("DELETE FROM takeover_votes WHERE game_id = ? AND player = ?", (game_id, player))
            for player in sorted(changed)
        ]
        # a seat its owner takes back while away stays theirs until that away ends
        statements += [
            (
                "UPDATE away_seats SET reclaimed = 1 WHERE game_id = ? AND user_id = ?",
                (game_id, player),
            )
            for player in sorted(set(expected) - set(seats))
        ]
        count, *_ = await self.transaction(statements)
        return count > 0


__all__ = ["AiSeatTables"]
