"""Quiet hours and a time zone per player (issue 25 point 1), pure functions of a clock.

A player sets, with `/montana me hours`, the hours of their day when the bot leaves them
alone (from `start` to `end` on their own clock, in an IANA time zone: 23:00 to 08:00 in
Europe/Warsaw is a night). Inside them:

* their deadlines do not run: a decision's clock counts only active hours, so a 24 h
  deadline ends after 24 active hours (`after_active`, `active_seconds`), and its
  half-time reminder and overdue notice fall inside active hours too;
* a step that would be due inside them waits for the start of their active hours
  (`active_from`): the deadline driver computes it from the stored times, so it is
  taken once, also after a restart (the step is recorded before it is taken).

Quiet hours cannot stall a game (issue 35 point 1): they last at most
`MAX_QUIET_HOURS` a day (a longer span is refused, `HoursError("long")`), and a deadline
counted in active hours passes at the latest `WALL_FACTOR` times its length plus 12 hours
after its clock started, on the wall clock (`wall_ceiling`, `counted_until`,
`counted_seconds`), whatever the hours.

Every function here takes the moments it works on; nothing reads a clock. Moments are
aware datetimes (UTC or any offset); the local wall clock of each day is turned into
UTC through `zoneinfo`, so a day with a daylight-saving change is as long as it is.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import cache
from typing import TYPE_CHECKING

from babel.dates import format_time

from i18n import Translator

if TYPE_CHECKING:
    from bot.core.store import Store

MAX_ZONE_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""

LOCALE_ZONES: dict[str, str] = {
    "en-US": "America/New_York",
    "en-GB": "Europe/London",
    "fr": "Europe/Paris",
    "pl": "Europe/Warsaw",
    "ja": "Asia/Tokyo",
    "de": "Europe/Berlin",
    "es-ES": "Europe/Madrid",
    "es-419": "America/Mexico_City",
    "it": "Europe/Rome",
    "nl": "Europe/Amsterdam",
    "pt-BR": "America/Sao_Paulo",
    "sv-SE": "Europe/Stockholm",
    "da": "Europe/Copenhagen",
    "no": "Europe/Oslo",
    "fi": "Europe/Helsinki",
    "cs": "Europe/Prague",
    "hu": "Europe/Budapest",
    "ro": "Europe/Bucharest",
    "el": "Europe/Athens",
    "bg": "Europe/Sofia",
    "uk": "Europe/Kyiv",
    "ru": "Europe/Moscow",
    "tr": "Europe/Istanbul",
    "ko": "Asia/Seoul",
    "zh-CN": "Asia/Shanghai",
    "zh-TW": "Asia/Taipei",
    "th": "Asia/Bangkok",
    "vi": "Asia/Ho_Chi_Minh",
    "hi": "Asia/Kolkata",
    "id": "Asia/Jakarta",
    "lt": "Europe/Vilnius",
    "hr": "Europe/Zagreb",
}
"""The time zone suggested first for a Discord locale (its most populous one)."""


MAX_QUIET_HOURS = 12
"""The longest quiet hours a day: at least as many active hours remain, so a deadline
runs at least half the time."""

WALL_FACTOR = 2
WALL_SLACK = MAX_QUIET_HOURS * 3600
"""A deadline counted in active hours passes at the latest `WALL_FACTOR` times its length
plus `WALL_SLACK` seconds (one longest night) after its clock started, in wall time: a
48 hour deadline within 108 hours, a 2 hour one within 16."""


GIVEN_SHOWN = 40
ZONE_NAME_LONGEST = 64
"""No IANA time zone name is longer (Discord's schema says so too, but it is checked)."""


class HoursError(ValueError):
    """Hours or a time zone that cannot be used; `.kind` says which ("time", "zone",
    "same", "long": more than `MAX_QUIET_HOURS` a day) for the words the player gets."""

    def __init__(self, kind: str, given: str = "") -> None:
        super().__init__(f"{kind}: {given!r}")
        self.kind = kind
        self.given = given[:GIVEN_SHOWN]
        """What was typed, as the words quote it back (its first `GIVEN_SHOWN` characters)."""


@dataclass(frozen=True)
class QuietHours:
    """A player's quiet hours: from `start` to `end` of their wall clock in `zone`
    (`end` before `start`: across midnight)."""

    start: time
    end: time
    zone: str

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zone_of(self.zone)


@cache
def zone_of(name: str) -> zoneinfo.ZoneInfo:
    """The time zone of an IANA name; `HoursError("zone")` if there is none of that name."""
    if name not in all_zones():
        raise HoursError("zone", name)
    return zoneinfo.ZoneInfo(name)


@cache
def all_zones() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted (the `tzdata` package
    provides them where the system has no zoneinfo database)."""
    return tuple(sorted(zoneinfo.available_timezones()))


_CLOCK = re.compile(r"^\s*(\d{1,2})(?:\s*[:h.]\s*(\d{2}))?\s*$")


def parse_clock(text: str) -> time:
    """A time of day typed as "08:00", "8:30", "8", "22h30" or "7.15";
    `HoursError("time")` if it is none."""
    match = _CLOCK.match(text)
    if match is None:
        raise HoursError("time", text)
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if hour == 24 and minute == 0:
        hour = 0
    if hour > 23 or minute > 59:
        raise HoursError("time", text)
    return time(hour, minute)


def quiet_minutes(begin: time, finish: time) -> int:
    """How long quiet hours from `begin` to `finish` last on the wall clock, in minutes
    (across midnight when `finish` comes first)."""
    minutes = (finish.hour * 60 + finish.minute) - (begin.hour * 60 + begin.minute)
    return minutes % (24 * 60)


def quiet_hours(start: str, end: str, zone: str) -> QuietHours:
    """Quiet hours as typed; `HoursError` when a time or the zone is wrong, when they
    start and end at the same time (no active hours, or no quiet ones), or when they
    last more than `MAX_QUIET_HOURS` ("long": a game could stall)."""
    begin, finish = parse_clock(start), parse_clock(end)
    zone_of(zone)
    if begin == finish:
        raise HoursError("same", start)
    if quiet_minutes(begin, finish) > MAX_QUIET_HOURS * 60:
        raise HoursError("long", f"{begin:%H:%M}–{finish:%H:%M}")
    return QuietHours(begin, finish, zone)


def zone_choices(typed: str, locale: str | None) -> list[str]:
    """At most 25 time zones for the autocomplete: those containing what was typed
    (spaces read as underscores), the locale's own first; the locale's when nothing is."""
    wanted = typed.strip().replace(" ", "_").lower()
    suggested = LOCALE_ZONES.get(locale or "") or LOCALE_ZONES.get((locale or "").split("-")[0])
    names = [name for name in all_zones() if wanted in name.lower()]
    if suggested is not None and suggested in names:
        names.remove(suggested)
        names.insert(0, suggested)
    if not wanted:
        names = ([suggested] if suggested else []) + ["UTC"]
        names += [name for name in LOCALE_ZONES.values() if name not in names]
    return names[:MAX_ZONE_CHOICES]


def zone_named(typed: str) -> str:
    """The IANA name meant by `typed`: itself, or the one zone whose name contains it
    ("warsaw" -> "Europe/Warsaw"); `HoursError("zone")` if none or several do."""
    if len(typed) > ZONE_NAME_LONGEST:
        raise HoursError("zone", typed)
    if typed in all_zones():
        return typed
    found = zone_choices(typed, None) if typed.strip() else []
    if len(found) != 1:
        raise HoursError("zone", typed)
    return found[0]


def _spans(hours: QuietHours, since: datetime) -> Iterator[tuple[datetime, datetime]]:
    """The quiet spans (UTC, in order) that end after `since`, without end."""
    tz = hours.tz
    day = since.astimezone(tz).date() - timedelta(days=1)
    across = hours.end <= hours.start
    while True:
        start = datetime.combine(day, hours.start, tz).astimezone(UTC)
        end_day = day + timedelta(days=1) if across else day
        end = datetime.combine(end_day, hours.end, tz).astimezone(UTC)
        if end > since:
            yield start, end
        day += timedelta(days=1)


def quiet_until(hours: QuietHours | None, moment: datetime) -> datetime | None:
    """When the quiet hours around `moment` end (the start of the active hours); None
    when `moment` is inside the active hours (or there are no quiet hours)."""
    if hours is None:
        return None
    start, end = next(_spans(hours, moment))
    return end if start <= moment else None


def is_quiet(hours: QuietHours | None, moment: datetime) -> bool:
    """Whether `moment` lies inside the quiet hours."""
    return quiet_until(hours, moment) is not None


def active_from(hours: QuietHours | None, moment: datetime) -> datetime:
    """The first moment from `moment` on inside the active hours: `moment` itself when
    it is active, else the end of the quiet hours it falls in."""
    return quiet_until(hours, moment) or moment


def active_seconds(hours: QuietHours | None, start: datetime, end: datetime) -> float:
    """How many active seconds lie between `start` and `end` (0 if `end` comes first)."""
    if end <= start:
        return 0.0
    total = (end - start).total_seconds()
    if hours is None:
        return total
    for quiet_start, quiet_end in _spans(hours, start):
        if quiet_start >= end:
            break
        overlap = min(quiet_end, end) - max(quiet_start, start)
        total -= max(overlap.total_seconds(), 0.0)
    return total


def after_active(hours: QuietHours | None, start: datetime, seconds: float) -> datetime:
    """The moment when `seconds` active seconds have passed since `start`: a deadline
    that counts only active hours. It always falls inside the active hours (a count
    that ends just as the quiet hours begin ends when they are over)."""
    if hours is None:
        return start + timedelta(seconds=seconds)
    cursor = start
    left = max(seconds, 0.0)
    for quiet_start, quiet_end in _spans(hours, start):
        if quiet_start > cursor:
            chunk = (quiet_start - cursor).total_seconds()
            if left < chunk:
                return cursor + timedelta(seconds=left)
            left -= chunk
        cursor = max(cursor, quiet_end)
    raise AssertionError("unreachable: the quiet spans never end")  # pragma: no cover


def wall_ceiling(start: datetime, seconds: float) -> datetime:
    """The latest a deadline of `seconds` counted from `start` may pass, on the wall clock:
    `WALL_FACTOR` times its length plus one longest night (`MAX_QUIET_HOURS`)."""
    return start + timedelta(seconds=WALL_FACTOR * max(seconds, 0.0) + WALL_SLACK)


def counted_until(hours: QuietHours | None, start: datetime, seconds: float) -> datetime:
    """When a deadline of `seconds` counted in active hours from `start` passes: after
    that many active seconds (`after_active`), but never later than `wall_ceiling`, so
    no quiet hours can stall a game. (Quiet hours of at most `MAX_QUIET_HOURS` a day
    always end the count before the ceiling, but for an hour on a daylight-saving day:
    the ceiling guards whatever hours were stored.)"""
    left = max(seconds, 0.0)
    if hours is None:
        return start + timedelta(seconds=left)
    ceiling = wall_ceiling(start, left)
    cursor = start
    for quiet_start, quiet_end in _spans(hours, start):  # as `after_active`, up to the ceiling
        if quiet_start > cursor:
            chunk = (quiet_start - cursor).total_seconds()
            if left < chunk:
                return min(cursor + timedelta(seconds=left), ceiling)
            left -= chunk
        cursor = max(cursor, quiet_end)
        if cursor >= ceiling:
            return ceiling
    raise AssertionError("unreachable: the quiet spans never end")  # pragma: no cover


def counted_seconds(hours: QuietHours | None, start: datetime, end: datetime) -> float:
    """The seconds a deadline's clock has counted from `start` to `end`: the active ones,
    or more once the wall clock nears the ceiling (the inverse of `counted_until`)."""
    wall = (end - start).total_seconds()
    return max(active_seconds(hours, start, end), (wall - WALL_SLACK) / WALL_FACTOR, 0.0)


def quiet_now(table: Iterable[tuple[str, QuietHours]], moment: datetime) -> dict[str, datetime]:
    """Of the players' quiet hours given, those quiet at `moment`, with when it ends."""
    found: dict[str, datetime] = {}
    for player, hours in table:
        until = quiet_until(hours, moment)
        if until is not None:
            found[player] = until
    return found


def picture_note(until: datetime, t: Translator) -> str:
    """By a quiet player's name on the picture: "quiet until 7:00 AM UTC" (a picture
    knows no reader's time zone; the messages give the moment itself), in the format of
    `t`'s language (Babel)."""
    moment = until.astimezone(UTC).time()
    clock = format_time(moment, format="short", locale=t.language) + " UTC"
    return t.gettext("quiet until {time}", time=clock)


# ------------------------------------------------------------------ the store's part


class HoursPrefs:
    """The players' quiet hours as stored (`bot.core.store.hours`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def of(self, user_ids: Iterable[str]) -> dict[str, QuietHours]:
        """The quiet hours of those of these players who set them (one read)."""
        stored = await self.store.quiet_hours_of(sorted(set(user_ids)))
        found: dict[str, QuietHours] = {}
        for user_id, (start, end, zone) in stored.items():
            try:
                found[user_id] = quiet_hours(start, end, zone)
            except HoursError:
                continue  # a zone this machine no longer knows: no quiet hours
        return found

    async def one(self, user_id: str) -> QuietHours | None:
        return (await self.of([user_id])).get(user_id)

    async def quiet_end(self, user_id: str, moment: datetime) -> datetime | None:
        """When `user_id`'s quiet hours around `moment` end; None if they are active then."""
        return quiet_until(await self.one(user_id), moment)

    async def set(self, user_id: str, hours: QuietHours, at: datetime) -> None:
        await self.store.set_quiet_hours(
            user_id,
            hours.start.strftime("%H:%M"),
            hours.end.strftime("%H:%M"),
            hours.zone,
            at.isoformat(timespec="seconds"),
        )

    async def clear(self, user_id: str) -> bool:
        return await self.store.clear_quiet_hours(user_id)


__all__ = [
    "MAX_QUIET_HOURS",
    "MAX_ZONE_CHOICES",
    "WALL_FACTOR",
    "WALL_SLACK",
    "HoursError",
    "HoursPrefs",
    "QuietHours",
    "active_from",
    "active_seconds",
    "after_active",
    "all_zones",
    "counted_seconds",
    "counted_until",
    "is_quiet",
    "parse_clock",
    "picture_note",
    "quiet_hours",
    "quiet_minutes",
    "quiet_now",
    "quiet_until",
    "wall_ceiling",
    "zone_choices",
    "zone_named",
    "zone_of",
]
