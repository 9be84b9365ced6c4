"""What the clock hooks into the game flow (`bot.core.play.hooks`): the players' quiet hours
as the service's `hours` (the outbox's heads-ups and direct messages wait for their end),
"quiet until 7:00 AM UTC" by the awaited player's name on the picture, and the deadline
steps an undo counts as done. `install` registers them; `bot.core.assembly`
calls it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from bot.core.clock.due import period_of, steps_due
from bot.core.clock.hours import HoursPrefs, active_seconds, picture_note
from bot.core.play.service import GameService
from bot.core.store import Away, GameRow, moment_of, now
from bot.core.wording.refusals import game_words
from rules import Game


def install(service: GameService) -> None:
    """Quiet hours and the deadline steps in `service`'s game flow."""
    hours = HoursPrefs(service.store)
    service.hours = hours
    store = service.store

    async def quiet_notes(row: GameRow, game: Game, away: Mapping[str, Away]) -> dict[str, str]:
        """ "quiet until 7:00 AM UTC" by the awaited player's name while they are inside
        their quiet hours (where it matters: their deadline waits)."""
        awaited = game.awaiting
        if awaited is None or awaited in away or row.ai_plays(awaited) or game.is_over:
            return {}
        until = await hours.quiet_end(awaited, datetime.now(UTC))
        return {} if until is None else {awaited: picture_note(until, game_words(row))}

    async def undo_steps(row: GameRow, earlier: Game) -> int:
        """The deadline steps of the earlier decision to count as done at an undo: its
        clock is the one it had (from the time of its move), and every step due by now
        counts as done, so none is taken at once because of the undo, and none twice."""
        if earlier.awaiting is None:
            return 0
        stamp = await store.move_time(row.id, earlier.version) or row.updated_at
        # counted in the awaited player's active hours, as the deadlines count them
        quiet = await hours.one(earlier.awaiting)
        elapsed = active_seconds(quiet, moment_of(stamp), moment_of(now()))
        period = period_of(earlier.pending.kind, row.turn_seconds, row.auction_seconds)
        return steps_due(elapsed, period)

    service.hooks.picture_notes.append(quiet_notes)
    service.hooks.undo_steps = undo_steps


__all__ = ["install"]
