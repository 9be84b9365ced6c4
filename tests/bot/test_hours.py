"""Quiet hours and time zones (issue 25 point 1), decided without Discord or a database:
`bot.core.clock.hours` and the deadline steps are pure functions of stored times and a given
clock, so the clock is moved by giving another moment."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from bot.core.clock.deadlines import Awaited, Deadlines, Watch, next_due, step_for
from bot.core.clock.hours import (
    HoursError,
    QuietHours,
    active_from,
    active_seconds,
    after_active,
    is_quiet,
    parse_clock,
    quiet_hours,
    quiet_until,
    zone_choices,
    zone_named,
)

WARSAW_NIGHT = QuietHours(time(23), time(8), "Europe/Warsaw")
"""23:00 to 08:00 in Warsaw: 22:00 to 07:00 UTC in winter (CET, UTC+1)."""


def utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=UTC)


def test_a_moment_inside_a_night_across_midnight_is_quiet() -> None:
    assert not is_quiet(WARSAW_NIGHT, utc(10, 21, 59))
    assert is_quiet(WARSAW_NIGHT, utc(10, 22))
    assert is_quiet(WARSAW_NIGHT, utc(11, 3))
    assert not is_quiet(WARSAW_NIGHT, utc(11, 7))
    assert quiet_until(WARSAW_NIGHT, utc(11, 3)) == utc(11, 7)
    assert quiet_until(WARSAW_NIGHT, utc(11, 12)) is None
    assert not is_quiet(None, utc(11, 3))


def test_the_active_hours_start_when_the_night_ends() -> None:
    assert active_from(WARSAW_NIGHT, utc(10, 23)) == utc(11, 7)
    assert active_from(WARSAW_NIGHT, utc(11, 9)) == utc(11, 9)


def test_a_24_hour_deadline_counts_24_active_hours() -> None:
    """15 active hours a day: 24 of them from 12:00 UTC are 10 up to the night (22:00
    UTC) and 14 the next day from 07:00, so the deadline ends at 21:00 UTC of the next
    day instead of 12:00."""
    start = utc(10, 12)
    ends = after_active(WARSAW_NIGHT, start, 24 * 3600)
    assert ends == utc(11, 21)
    assert active_seconds(WARSAW_NIGHT, start, ends) == 24 * 3600
    assert active_seconds(WARSAW_NIGHT, start, utc(11, 7)) == 10 * 3600
    assert after_active(None, start, 24 * 3600) == utc(11, 12)


def test_a_count_ending_as_the_night_begins_ends_in_the_morning() -> None:
    assert after_active(WARSAW_NIGHT, utc(10, 12), 10 * 3600) == utc(11, 7)
    assert after_active(WARSAW_NIGHT, utc(10, 23), 0) == utc(11, 7)


def test_daylight_saving_moves_the_night_in_utc() -> None:
    """Warsaw goes from CEST (UTC+2) to CET on 25 October 2026: 23:00 local is 21:00
    UTC before and 22:00 UTC after."""
    summer = datetime(2026, 10, 20, 21, 30, tzinfo=UTC)
    winter = datetime(2026, 10, 30, 21, 30, tzinfo=UTC)
    assert is_quiet(WARSAW_NIGHT, summer)
    assert not is_quiet(WARSAW_NIGHT, winter)


def test_hours_as_typed() -> None:
    assert parse_clock("08:00") == time(8)
    assert parse_clock("8") == time(8)
    assert parse_clock("22h30") == time(22, 30)
    assert parse_clock("24") == time(0)
    for wrong in ("25", "8:61", "eight", ""):
        with pytest.raises(HoursError) as refused:
            parse_clock(wrong)
        assert refused.value.kind == "time"
    with pytest.raises(HoursError) as refused:
        quiet_hours("23", "8", "Mars/Olympus")
    assert refused.value.kind == "zone"
    with pytest.raises(HoursError) as refused:
        quiet_hours("8", "08:00", "UTC")
    assert refused.value.kind == "same"


def test_time_zones_offered_as_typed_and_from_the_locale() -> None:
    assert zone_choices("", "pl")[0] == "Europe/Warsaw"
    assert zone_choices("", "ja")[0] == "Asia/Tokyo"
    typed = zone_choices("new york", None)
    assert typed == ["America/New_York"]
    assert len(zone_choices("a", "fr")) == 25
    assert zone_choices("europe", "fr")[0] == "Europe/Paris"
    assert zone_named("warsaw") == "Europe/Warsaw"  # typed without choosing from the list
    assert zone_named("Asia/Tokyo") == "Asia/Tokyo"
    for wrong in ("europe", "Mars", " "):
        with pytest.raises(HoursError):
            zone_named(wrong)


def test_a_deadline_spanning_the_players_night_ends_that_many_active_hours_later() -> None:
    """The awaited player's clock stops during their quiet hours: the half-time
    reminder of a 24 h turn started at 12:00 UTC is due at 12 active hours, i.e. 09:00
    UTC of the next day (10 hours before the night, 2 after), not at midnight."""
    moved = utc(10, 12)
    clock = Watch(1, 5, moved, Deadlines(turn_seconds=24 * 3600, auction_seconds=3600), 0)
    awaited = Awaited("ana", "main", WARSAW_NIGHT)
    assert step_for(clock, awaited, utc(11, 0)) is None  # 12 h later, but at night
    assert next_due([(clock, awaited)]) == utc(11, 9)
    half = step_for(clock, awaited, utc(11, 9))
    assert half is not None and (half.kind, half.sent) == ("remind", 1)
    assert half.deadline == utc(11, 21)
    after_half = Watch(1, 5, moved, clock.deadlines, 1)
    assert step_for(after_half, awaited, utc(11, 20, 59)) is None
    overdue = step_for(after_half, awaited, utc(11, 21))
    assert overdue is not None and (overdue.kind, overdue.sent) == ("overdue", 2)
    # without quiet hours the same clock is overdue at noon
    plain = step_for(after_half, Awaited("ana", "main"), utc(11, 12))
    assert plain is not None and plain.kind == "overdue"


def test_a_step_due_at_night_waits_for_the_morning_once() -> None:
    """A turn started at 21:00 UTC with a 2 h deadline: 1 active hour before the night,
    so its half-time reminder is due at once (21:00 + 1 h = 22:00 is the night's start:
    it waits for 07:00), and its deadline one hour later."""
    moved = utc(10, 21)
    clock = Watch(1, 5, moved, Deadlines(turn_seconds=2 * 3600, auction_seconds=3600), 0)
    awaited = Awaited("ana", "main", WARSAW_NIGHT)
    assert step_for(clock, awaited, utc(10, 22)) is None
    assert step_for(clock, awaited, utc(11, 6, 59)) is None
    morning = step_for(clock, awaited, utc(11, 7))
    assert morning is not None and morning.kind == "remind"
    assert morning.deadline == utc(11, 8)
