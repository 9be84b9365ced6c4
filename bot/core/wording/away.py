"""Players away and the heads-up: the lines said when a player goes away, is away, is
back, or is next.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from babel.dates import format_skeleton

from i18n import Translator
from render.words import ENGLISH


def away_note(until: datetime, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """By an away player's name on the picture: "away until 3 Dec" (the date in UTC: a
    picture knows no reader's time zone; the messages give the moment itself), or "away
    until 3 Dec, AI plays" while the AI plays their seat."""
    moment = until.astimezone(UTC)
    # the language's own order and month: 3 Dec, 3 déc., 3 gru, 12月3日 ("d MMM" gave
    # the Japanese "3 12月")
    day = format_skeleton("MMMd", moment.date(), locale=t.language)
    if ai:
        return t.gettext("away until {date}, AI plays", date=day)
    return t.gettext("away until {date}", date=day)


def length_text(length: timedelta, t: Translator = ENGLISH) -> str:
    """timedelta(days=3, hours=12) -> "3 days 12 hours"."""
    hours = round(length.total_seconds() / 3600)
    days, hours = divmod(hours, 24)
    parts = [t.ngettext("{n} day", "{n} days", days)] if days else []
    if hours or not days:
        parts.append(t.ngettext("{n} hour", "{n} hours", hours))
    return " ".join(parts)


def away_line(name: str, until: str, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """Said with the prompt and in the status while a player is away (`until`: the moment
    as the front end shows it); `ai`: the AI plays their seat in this game meanwhile."""
    if ai:
        return t.gettext(
            "{who} is away until {until} — the AI plays for them.", who=name, until=until
        )
    return t.gettext(
        "{who} is away until {until} — their deadlines are paused.", who=name, until=until
    )


def went_away_line(name: str, until: str, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """Told to a game's players when one of them goes away (or changes the end)."""
    if ai:
        return t.gettext(
            "{who} is away until {until}; the AI plays their seat in this game until they "
            "are back.",
            who=name,
            until=until,
        )
    return t.gettext(
        "{who} is away until {until}; their deadlines in this game are paused until they are back.",
        who=name,
        until=until,
    )


def back_line(name: str, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """Told to a game's players when an away player is back; `ai`: the AI, which played
    their seat meanwhile, gives it back."""
    if ai:
        return t.gettext(
            "{who} is back and plays their own seat again; their deadlines run from now.",
            who=name,
        )
    return t.gettext("{who} is back; their deadlines run again from now.", who=name)


def heads_up_line(who: str, starting: str, t: Translator = ENGLISH) -> str:
    """The heads-up: `who` (as addressed) is next after `starting` (a name)."""
    return t.gettext(
        "{who}, heads-up: {starting} has started their turn — you are next.",
        who=who,
        starting=starting,
    )
