"""The votes of a game's players, mixed into `Store`: to end the game in its present
state (`end_votes`, one per voter, for the version they voted at) and to hand an absent
player's seat to the AI (`takeover_votes`, per seat; `bot.core.takeover` counts them)."""

from __future__ import annotations

from .parts import StoreParts, guarded


class VoteTables(StoreParts):
    async def add_end_vote(self, game_id: int, version: int, voter: str, at: str) -> list[str]:
        """Record `voter`'s vote to end the game in this state; the voters of this state
        so far, in the order they voted."""
        await self.transaction(
            [
                (
                    "INSERT INTO end_votes (game_id, version, voter, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, voter) DO UPDATE SET version = excluded.version, "
                    "at = excluded.at",
                    (game_id, version, voter, at),
                )
            ]
        )
        return await self.end_voters(game_id, version)

    @guarded
    async def end_voters(self, game_id: int, version: int) -> list[str]:
        """The voters so far to end the game at `version`, in the order they voted."""
        rows = await self._read(
            "SELECT voter FROM end_votes WHERE game_id = ? AND version = ? ORDER BY at, voter",
            (game_id, version),
        )
        return [str(r["voter"]) for r in rows]

    async def add_takeover_vote(self, game_id: int, player: str, voter: str, at: str) -> list[str]:
        """Record `voter`'s vote to hand `player`'s seat to the AI; all its voters so far."""
        await self.transaction(
            [
                (
                    "INSERT INTO takeover_votes (game_id, player, voter, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, player, voter) DO NOTHING",
                    (game_id, player, voter, at),
                )
            ]
        )
        return await self.takeover_voters(game_id, player)

    async def lapse_takeover_votes(self, game_id: int, player: str, before: str) -> None:
        """Drop the votes about `player`'s seat cast before `before` (an earlier
        absence of theirs: a vote counts only while they are away or overdue)."""
        await self.transaction(
            [
                (
                    "DELETE FROM takeover_votes WHERE game_id = ? AND player = ? AND at < ?",
                    (game_id, player, before),
                )
            ]
        )

    @guarded
    async def takeover_voters(self, game_id: int, player: str) -> list[str]:
        """The voters so far to hand `player`'s seat to the AI, in the order they voted."""
        rows = await self._read(
            "SELECT voter FROM takeover_votes WHERE game_id = ? AND player = ? ORDER BY at, voter",
            (game_id, player),
        )
        return [str(r["voter"]) for r in rows]
