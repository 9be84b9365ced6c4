"""What is due, decided without Discord or a database (issue 9, point 3): `step_for` is
a pure function of a game's stored clock and the time it is given."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.clock.deadlines import Awaited, Deadlines, Watch, next_due, step_for

MOVED = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TURN = Awaited("ana", "main")
BID = Awaited("ben", "bid")


def watch(sent: int = 0) -> Watch:
    return Watch(1, 10, MOVED, Deadlines(turn_seconds=48 * 3600, auction_seconds=24 * 3600), sent)


def at(hours: float) -> datetime:
    return MOVED + timedelta(hours=hours)


def test_a_turn_is_reminded_at_half_time_then_overdue_once_per_period() -> None:
    assert step_for(watch(), TURN, at(23.9)) is None
    half = step_for(watch(), TURN, at(24))
    assert half is not None and (half.kind, half.sent) == ("remind", 1)
    assert step_for(watch(sent=1), TURN, at(47)) is None
    overdue = step_for(watch(sent=1), TURN, at(48))
    assert overdue is not None and (overdue.kind, overdue.sent) == ("overdue", 2)
    assert overdue.deadline == at(48)
    assert step_for(watch(sent=2), TURN, at(95)) is None
    again = step_for(watch(sent=2), TURN, at(96))
    assert again is not None and (again.kind, again.sent) == ("overdue", 3)


def test_an_unanswered_auction_is_passed_at_its_deadline() -> None:
    half = step_for(watch(), BID, at(12))
    assert half is not None and half.kind == "remind" and half.period == 24 * 3600
    passed = step_for(watch(sent=1), BID, at(24))
    assert passed is not None and passed.kind == "pass"


def test_after_a_long_outage_missed_reminders_are_not_all_sent() -> None:
    """Down for a week: one overdue step, recorded as if the missed ones were taken."""
    late = step_for(watch(), TURN, at(7 * 24))
    assert late is not None and late.kind == "overdue"
    assert late.sent == 7 * 24 // 48 + 1
    assert step_for(watch(sent=late.sent), TURN, at(7 * 24)) is None


def test_nobody_awaited_means_nothing_due_and_the_next_due_time_is_the_earliest() -> None:
    assert step_for(watch(), None, at(1000)) is None
    soon = Watch(2, 3, MOVED, Deadlines(turn_seconds=3600, auction_seconds=3600), 0)
    assert next_due([(watch(), TURN), (soon, BID), (watch(), None)]) == at(0.5)
    assert next_due([(watch(), None)]) is None
