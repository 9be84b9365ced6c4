"""Quiet hours on Discord: `/montana me hours from: to: timezone:` (issue 25 point 1).

What quiet hours do to the deadlines is decided in `bot.core.clock.hours` and
`bot.core.clock.deadlines`; this module only takes the player's hours (the time zone chosen
from the IANA names with autocomplete, the player's Discord locale's zone suggested
first), stores them and tells the deadline driver to read every clock again.
"""

from __future__ import annotations

from datetime import datetime, time
from typing import Any

import discord
from babel.dates import format_time
from discord import app_commands

from bot.core.clock.hours import (
    MAX_QUIET_HOURS,
    HoursError,
    HoursPrefs,
    QuietHours,
    parse_clock,
    quiet_hours,
    quiet_until,
    zone_choices,
    zone_named,
)
from bot.core.play.service import Refusal
from bot.discord_app.components import DynamicItems, bot_of, reply, user_t
from bot.discord_app.delivery.presence import (
    utcnow,  # also registers /me away and back before /me hours
)
from bot.discord_app.group import me_group, tracked
from i18n import Translator


def clock_text(moment: time | datetime, t: Translator, hours: QuietHours | None = None) -> str:
    """A time of day in the reader's own format through Babel ("8:00 AM", "08:00"); a
    moment on the wall clock of `hours`' time zone."""
    if isinstance(moment, datetime):
        local = moment.astimezone(hours.tz) if hours is not None else moment
        return format_time(local.time(), format="short", locale=t.language)
    return format_time(moment, format="short", locale=t.language)


def hours_refusal(error: HoursError) -> Refusal:
    """Why the hours typed cannot be used, and what may be typed instead."""
    given = error.given
    if error.kind == "time":
        return Refusal(
            lambda t: t.gettext(
                "“{given}” is not a time of day: write it as 23:00 or 23 (hours 0 to 23, "
                "minutes 00 to 59). Nothing was changed.",
                given=given,
            )
        )
    if error.kind == "zone":
        return Refusal(
            lambda t: t.gettext(
                "“{given}” is not a time zone I know: choose one from the list "
                "{/me hours:timezone} offers (type a city, such as Warsaw or New York). "
                "Nothing was changed.",
                given=given,
            )
        )
    if error.kind == "long":
        return Refusal(
            lambda t: t.gettext(
                "Quiet hours may last at most {limit} hours a day, and {given} is longer: "
                "your deadlines run in the rest of the day, so that no game can stall "
                "waiting for you. Nothing was changed.",
                limit=MAX_QUIET_HOURS,
                given=given,
            )
        )
    return Refusal(
        lambda t: t.gettext(
            "Your quiet hours must start and end at different times (you gave {given} for "
            "both). Nothing was changed.",
            given=given,
        )
    )


def hours_status(hours: QuietHours | None, now: datetime, t: Translator) -> str:
    """What the player is told of their quiet hours (only they see it)."""
    if hours is None:
        return t.gettext(
            "You have no quiet hours: you may be mentioned and reminded at any time, and your "
            "deadlines run day and night. Set them with {/me hours} ({/me hours:from}, "
            "{/me hours:to}, {/me hours:timezone})."
        )
    said = t.gettext(
        "Your quiet hours are {start} to {end} ({zone}): nobody mentions or reminds you then "
        "(what is owed waits for the end of them), and your deadlines count only your active "
        "hours. {/me hours:clear=True} ends them.",
        start=clock_text(hours.start, t),
        end=clock_text(hours.end, t),
        zone=hours.zone,
    )
    until = quiet_until(hours, now)
    if until is not None:
        said += " " + t.gettext(
            "It is quiet for you now, until {time}.", time=clock_text(until, t, hours)
        )
    return said


async def zone_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """At most 25 time zones containing what was typed; the zone of the player's Discord
    locale first (and alone with a few common ones when nothing is typed)."""
    locale = interaction.locale.value if interaction.locale is not None else None
    return [
        app_commands.Choice(name=name.replace("_", " "), value=name)
        for name in zone_choices(current, locale)
    ]


@me_group.command(
    name="hours", description="Quiet hours: no mentions or reminders, and your deadlines pause"
)
@app_commands.rename(start="from", end="to")
@app_commands.describe(
    start="When your quiet hours start on your clock, e.g. 23:00 or 23",
    end="When they end, e.g. 08:00 or 8",
    timezone="Your time zone: type a city (e.g. Warsaw) and choose from the list",
    clear="True: no quiet hours any more",
)
@app_commands.autocomplete(timezone=zone_autocomplete)
@tracked
async def hours_command(
    interaction: discord.Interaction[Any],
    start: app_commands.Range[str, 1, 10] | None = None,
    end: app_commands.Range[str, 1, 10] | None = None,
    timezone: app_commands.Range[str, 1, 64] | None = None,
    clear: bool | None = None,
) -> None:
    bot = bot_of(interaction)
    prefs = HoursPrefs(bot.store)
    user_id = str(interaction.user.id)
    t = user_t(interaction)
    current = await prefs.one(user_id)
    if clear:
        await bot.deadlines.settle(user_id)
        if not await prefs.clear(user_id):
            raise Refusal(lambda t: hours_status(None, utcnow(), t))
        bot.deadlines.rescan()
        await reply(
            interaction,
            t.gettext(
                "Done: you have no quiet hours any more. Your deadlines run day and night again."
            ),
        )
        return
    if start is None and end is None and timezone is None:
        await reply(interaction, hours_status(current, utcnow(), t))
        return
    try:  # what was typed is checked first, whatever else is missing
        for given in (start, end):
            if given is not None:
                parse_clock(given)
        if timezone is not None:
            timezone = zone_named(timezone)
    except HoursError as error:
        raise hours_refusal(error) from None
    typed = (
        start or (current.start.strftime("%H:%M") if current else None),
        end or (current.end.strftime("%H:%M") if current else None),
        timezone or (current.zone if current else None),
    )
    if typed[0] is None or typed[1] is None or typed[2] is None:
        raise Refusal(
            lambda t: t.gettext(
                "Give {/me hours:from}, {/me hours:to} and {/me hours:timezone} the first time "
                "(for example 23:00, 08:00 and Europe/Warsaw); later any one of them changes "
                "it alone. Nothing was changed."
            )
        )
    try:
        hours = quiet_hours(typed[0], typed[1], typed[2])
    except HoursError as error:
        raise hours_refusal(error) from None
    # what is due under the old hours is taken first: a deadline passed stays passed
    await bot.deadlines.settle(user_id)
    await prefs.set(user_id, hours, utcnow())
    bot.deadlines.rescan()
    await reply(interaction, t.gettext("Done.") + " " + hours_status(hours, utcnow(), t))


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__ = ["DYNAMIC_ITEMS", "clock_text"]
