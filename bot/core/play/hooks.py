"""The game flow's extension points: where a capability above it (the clock, the community,
the server's settings, the AI seats) hooks in, instead of lines inside the service.

`Hooks` is a small typed registry of events, one field each; a capability registers on it
through its `install(service)` (`bot.core.assembly` installs every one on the
service it builds). The events, in the order a game meets them:

- `before_seat`: a lobby opens or a player takes a seat; a check raises a `Refusal` to
  refuse it (the server's limits, `bot.core.server.limits`).
- `before_start`: a lobby is about to start; a check raises a `Refusal` (the limits again).
- `picture_notes`: words by the names of seats on the game's picture (quiet hours,
  `bot.core.clock.hours`).
- `at_end`: a game ends; what its end writes in the same transaction as the move or the
  vote that ended it (the rating, `bot.core.community.ratings`).
- `after_announce`: a move or a start was saved and announced (the deadline clock, the
  AI seats).
- `after_game_over`: a game under way has ended (the matchmaking queue).
- `undo_steps`: the deadline steps to count as done when a move is taken back
  (`bot.core.clock.deadlines`).

The checks before let their refusal through; a hook after a move that fails is logged and
skipped, never failing the move.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from bot.core.delivery.outbox import Outcome
from bot.core.store import AtEnd, Away, GameRow, Tx
from rules import Game

log = logging.getLogger(__name__)

SeatCheck = Callable[[int | None, str, bool], Awaitable[None]]
"""(guild id, user id, whether a lobby opens) -> None, or a `Refusal` raised."""
StartCheck = Callable[[GameRow], Awaitable[None]]
"""The lobby about to start -> None, or a `Refusal` raised."""
PictureNotes = Callable[[GameRow, Game, Mapping[str, Away]], Awaitable[Mapping[str, str]]]
"""(row, game, the players away) -> a note by the name of some seats."""
EndWrites = Callable[[GameRow, Game, str, str | None], Awaitable[AtEnd | None]]
"""(row, game, when it ended, the player who quit if any) -> what to write with the end."""
AfterAnnounce = Callable[[Outcome], Awaitable[None]]
AfterGameOver = Callable[[GameRow], Awaitable[None]]
UndoSteps = Callable[[GameRow, Game], Awaitable[int]]
"""(row before the undo, the earlier game) -> deadline steps of its decision done already."""


class QuietHoursOf(Protocol):
    """The players' quiet hours as the game flow needs them (`bot.core.clock.hours`)."""

    async def quiet_end(self, user_id: str, moment: datetime) -> datetime | None:
        """When `user_id`'s quiet hours around `moment` end; None if they are active then."""
        ...


class NoQuietHours:
    """Nobody has quiet hours (until the clock installs them)."""

    async def quiet_end(self, user_id: str, moment: datetime) -> datetime | None:
        return None


@dataclass
class Hooks:
    """The registry: each field the hooks of one event, called in the order registered."""

    before_seat: list[SeatCheck] = field(default_factory=list)
    before_start: list[StartCheck] = field(default_factory=list)
    picture_notes: list[PictureNotes] = field(default_factory=list)
    at_end: list[EndWrites] = field(default_factory=list)
    after_announce: list[AfterAnnounce] = field(default_factory=list)
    after_game_over: list[AfterGameOver] = field(default_factory=list)
    undo_steps: UndoSteps | None = None

    async def check_seat(self, guild_id: int | None, user_id: str, *, lobby: bool) -> None:
        """Refuse one more seat of `user_id` (or, `lobby`, one more lobby opened by them)."""
        for check in self.before_seat:
            await check(guild_id, user_id, lobby)

    async def check_start(self, row: GameRow) -> None:
        """Refuse the start of `row`'s lobby."""
        for check in self.before_start:
            await check(row)

    async def notes(self, row: GameRow, game: Game, away: Mapping[str, Away]) -> dict[str, str]:
        """The picture's notes by the names of seats (a later hook's note wins)."""
        found: dict[str, str] = {}
        for notes in self.picture_notes:
            found.update(await notes(row, game, away))
        return found

    async def ending(
        self, row: GameRow, game: Game, *, ended_at: str, quitter: str | None = None
    ) -> AtEnd | None:
        """What `game`'s end writes in its own transaction (None: nothing)."""
        writes = [
            write
            for hook in self.at_end
            if (write := await hook(row, game, ended_at, quitter)) is not None
        ]
        if len(writes) <= 1:
            return writes[0] if writes else None

        async def write_all(tx: Tx) -> None:
            for write in writes:
                await write(tx)

        return write_all

    async def announced(self, outcome: Outcome) -> None:
        """Tell the `after_announce` hooks of a saved move or start."""
        for hook in self.after_announce:
            try:
                await hook(outcome)
            except Exception as error:
                log.warning(
                    "game %s channel %s: after-move hook failed: %r",
                    outcome.row.id,
                    outcome.row.play_channel_id,
                    error,
                )

    async def game_over(self, row: GameRow) -> None:
        """Tell the `after_game_over` hooks that `row`'s game, under way, has ended."""
        for hook in self.after_game_over:
            try:
                await hook(row)
            except Exception as error:
                log.warning("game %s: after-end hook failed: %r", row.id, error)

    async def steps_done_at_undo(self, row: GameRow, earlier: Game) -> int:
        """The deadline steps of `earlier`'s decision to count as done at an undo."""
        return 0 if self.undo_steps is None else await self.undo_steps(row, earlier)


__all__ = [
    "AfterAnnounce",
    "AfterGameOver",
    "EndWrites",
    "Hooks",
    "NoQuietHours",
    "PictureNotes",
    "QuietHoursOf",
    "SeatCheck",
    "StartCheck",
    "UndoSteps",
]
