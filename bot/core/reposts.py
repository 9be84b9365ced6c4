"""`/montana board` re-posts, at most one per game state (issue 21.2).

A player who cannot find the game's prompt may have it posted again; asking again
before the game moves on gets a link to the re-posted message instead of another copy
(a flood of posts and pictures on demand). What was re-posted is kept in memory, per
process: each game is served by one process, and after a restart one more re-post of
the same state is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .store import GameRow


@dataclass(frozen=True)
class Reposted:
    version: int
    undo_epoch: int
    message_id: int


class Reposts:
    def __init__(self) -> None:
        self._done: dict[int, Reposted] = {}

    def newest(self, row: GameRow, *, prompt: bool = True) -> int | None:
        """The message re-posted for the game's current state (None: the state was not
        re-posted yet). `prompt`: only while it still carries the game's prompt (else,
        e.g. moved to a new thread, it may be posted again)."""
        done = self._done.get(row.id)
        if done is None or (done.version, done.undo_epoch) != (row.version, row.undo_epoch):
            return None
        return done.message_id if not prompt or done.message_id == row.message_id else None

    def note(self, row: GameRow, message_id: int) -> None:
        """`message_id` re-posted the game's state of `row`."""
        self._done[row.id] = Reposted(row.version, row.undo_epoch, message_id)


__all__ = ["Reposts"]
