"""When the deadline steps of a decision are due: the arithmetic the deadline driver
(`bot.core.clock.deadlines`) and the undo (`bot.core.clock.flow`, hooked into
`bot.core.play.undo`) share.

A decision's clock starts at the time of the move that led to it. With T its deadline
(the auction answer's or the turn's), step 1 (the half-time reminder) is due at T/2,
step 2 (the deadline: an auction answer is passed, a turn is overdue) at T, and step
k + 1 at k·T. Time counts only the awaited player's active hours (outside their quiet
hours, `bot.core.clock.hours`): `elapsed` is their `active_seconds` since the clock started.
"""

from __future__ import annotations

AUCTION_ANSWER = "bid"
"""The kind of decision (`rules`' pending kind) that has the auction's deadline."""


def period_of(kind: str, turn_seconds: int, auction_seconds: int) -> int:
    """The deadline of a decision of this kind, in seconds."""
    return auction_seconds if kind == AUCTION_ANSWER else turn_seconds


def steps_due(elapsed: float, period: float) -> int:
    """How many deadline steps are due `elapsed` seconds after the clock started (0
    before half time); after a long outage only the latest counts, not every one missed."""
    if elapsed < period / 2:
        return 0
    if elapsed < period:
        return 1
    return int(elapsed // period) + 1


__all__ = ["AUCTION_ANSWER", "period_of", "steps_due"]
