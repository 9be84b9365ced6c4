"""A game's pace: named presets of its two deadlines (issue 25.4).

`/montana game new pace:` and `/montana game settings pace:` take a preset instead of
(or besides: exact hours win) the turn and auction hours. Nothing stores the pace
itself: a game whose deadlines match a preset is shown by the preset's name, any
other by its hours, so changing the hours by hand can never leave a stale name.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.clock.deadline_hours import check_hours
from bot.core.clock.deadlines import HOUR, Deadlines, period_text
from bot.core.play.service import Refusal
from i18n import Message, Translator, translatable, translatable_in


@dataclass(frozen=True)
class Pace:
    key: str
    name: Message
    turn_hours: float
    auction_hours: float

    @property
    def seconds(self) -> tuple[int, int]:
        return round(self.turn_hours * HOUR), round(self.auction_hours * HOUR)


PACES: dict[str, Pace] = {
    pace.key: pace
    for pace in (
        Pace("fast", translatable_in("pace", "fast"), 2, 1),
        Pace("normal", translatable_in("pace", "normal"), 24, 12),
        Pace("slow", translatable_in("pace", "slow"), 72, 24),
    )
}
"""The presets, fastest first (the order of the command's choices)."""


PACE_ALLOWED = translatable("pace must be one of: {allowed}; not {value}. Nothing was changed.")


def hours_for(
    pace: str | None, turn_hours: float | None, auction_hours: float | None
) -> tuple[float | None, float | None]:
    """The deadlines asked for: the preset's, each replaced by exact hours when given
    (None: not asked for, the current or default value stays). Hours given are checked
    here (`check_hours`), whatever the front end let through: a refusal changes nothing."""
    turn_hours = check_hours("turn_hours", turn_hours)
    auction_hours = check_hours("auction_hours", auction_hours)
    if pace is not None and pace not in PACES:
        raise Refusal(PACE_ALLOWED, allowed=", ".join(PACES), value=pace[:40])
    preset = PACES.get(pace) if pace is not None else None
    return (
        turn_hours if turn_hours is not None else preset.turn_hours if preset else None,
        auction_hours if auction_hours is not None else preset.auction_hours if preset else None,
    )


def pace_of(turn_seconds: int, auction_seconds: int) -> Pace | None:
    """The preset these deadlines are, or None."""
    for pace in PACES.values():
        if pace.seconds == (turn_seconds, auction_seconds):
            return pace
    return None


def pace_label(turn_seconds: int, auction_seconds: int, t: Translator) -> str:
    """Short, for a list: "fast", or "30 hours / 5 hours" (turn / auction) for other hours."""
    pace = pace_of(turn_seconds, auction_seconds)
    if pace is not None:
        return t.translate(pace.name)
    return f"{period_text(turn_seconds, t)} / {period_text(auction_seconds, t)}"


def pace_words(turn_seconds: int, auction_seconds: int, t: Translator) -> str:
    """In full: "fast (turn deadline 2 hours, city auction answers 1 hour)", or the hours alone."""
    pace = pace_of(turn_seconds, auction_seconds)
    hours = Deadlines(turn_seconds, auction_seconds).describe(t)
    if pace is None:
        return hours
    return t.gettext("{pace} ({hours})", pace=t.translate(pace.name), hours=hours)
