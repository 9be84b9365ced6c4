"""Heads-up and away on Discord: the notices, `/montana me away` and `/montana me back`.

Which notice is owed when, and what being away does to the deadlines, is decided in
`bot.core.delivery.presence`; the notices are owed in the outbox and delivered by
`bot.core.delivery.outbox`, which hands each to `DiscordNotices`: a heads-up is a line in the
game's thread mentioning (and pinging) only the player told, or a direct message in the
DM mode; "away until" and "back" are lines in the thread that ping nobody. Every
attempt at one notice carries the same nonce and identity, and a retry first looks for
an earlier attempt that went out, by its identity (as the moves' posts do): while it
cannot look it waits, and past the bound (`announce.BLIND_AFTER`) it posts and the core
owes a recheck that removes a duplicate.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

import bot.discord_app.cards as cards
from bot.core.delivery.outbox import Dropped, Posted, Ticket
from bot.core.delivery.presence import (
    CAME_BACK,
    HEADS_UP,
    WENT_AWAY,
    YOUR_TURN,
    AwayChange,
    Notice,
    away_length,
    away_refusal,
)
from bot.core.play.repeats import PresenceLines
from bot.core.play.service import Refusal
from bot.core.store import Away, GameRow
from bot.core.wording import words
from bot.discord_app.components import (
    DynamicItems,
    delivery_problem,
    game_t,
    reply,
    service_of,
    timestamp,
    user_t,
)
from bot.discord_app.delivery.announce import look_for_posted, marked, mention
from bot.discord_app.delivery.notify import Notifier, message_link
from bot.discord_app.group import NO_PINGS, me_group, tracked
from i18n import Translator, translatable
from rules import Game

log = logging.getLogger(__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


CANNOT_POST = translatable(
    "I cannot post in {where} (deleted, or a permission is missing); the next move or "
    "{/board} shows the game again."
)
"""Why a message owed in a game's channel cannot go out (the operators' log, the status)."""


class DiscordNotices:
    """Says the notices the outbox owes (the core's `NoticeSender`)."""

    def __init__(
        self, client: discord.Client, notifier: Notifier, lines: PresenceLines | None = None
    ) -> None:
        self.client = client
        self.notifier = notifier
        self.lines = lines
        """The away/back lines said so far (None: each is posted anew)."""

    async def send_notice(
        self, notice: Notice, row: GameRow, game: Game, ticket: Ticket
    ) -> Posted | None:
        names = row.names
        # the away player by their own name: the line itself says whether the AI plays
        name = row.seat_names.get(notice.user, notice.user)
        pinged: list[str] = []
        t = game_t(row)
        if notice.kind == HEADS_UP:
            starting = names.get(notice.turn_player or "", notice.turn_player or "?")
            if notice.dm:
                own = await self.notifier.words_for(notice.user)
                text = "Montana — " + words.heads_up_line(name, starting, own)
                await self.notifier.send_owed(notice.user, row, text, row.message_id, ticket.key)
                return None
            text = words.heads_up_line(mention(notice.user), starting, t)
            pinged = [notice.user]
        elif notice.kind == YOUR_TURN:
            # the ping the move's post left out inside their quiet hours
            text = t.gettext(
                "{who}, your quiet hours are over: this game waits for your move {link}",
                who=mention(notice.user),
                link=message_link(row.guild_id, row.play_channel_id, row.message_id)
                if row.message_id
                else "",
            ).rstrip()
            pinged = [notice.user]
        elif notice.kind == WENT_AWAY and notice.until is not None:
            text = words.went_away_line(name, timestamp(notice.until, "f"), t, ai=notice.ai)
            return await self._line(row, notice.user, text, ticket)
        elif notice.kind == CAME_BACK:
            text = words.back_line(name, t, ai=notice.ai)
            return await self._line(row, notice.user, text, ticket)
        else:
            raise Dropped(f"a notice of an unknown kind ({notice.kind!r})")
        return await self._post(row, text, pinged, ticket)

    async def _line(self, row: GameRow, user_id: str, text: str, ticket: Ticket) -> Posted:
        """An away or back line: it replaces, by an edit, the line about the same player
        posted in the game within the hour (`PresenceLines`); else a new one."""
        if self.lines is None:
            return await self._post(row, text, [], ticket)
        earlier = await self.lines.to_edit(row.id, user_id, utcnow())
        if earlier is not None:
            channel = self.client.get_partial_messageable(
                row.play_channel_id, guild_id=row.guild_id
            )
            try:
                await channel.get_partial_message(earlier).edit(
                    content=text, allowed_mentions=NO_PINGS
                )
                return Posted(earlier)
            except discord.NotFound:
                pass  # deleted meanwhile: a new line
            except (discord.DiscordException, OSError, TimeoutError) as error:
                raise delivery_problem(
                    error, CANNOT_POST, where=f"<#{row.play_channel_id}>"
                ) from error
        posted = await self._post(row, text, [], ticket)
        if posted.message_id is not None:
            await self.lines.posted(row.id, user_id, posted.message_id, utcnow())
        return posted

    async def _post(self, row: GameRow, text: str, pinged: list[str], ticket: Ticket) -> Posted:
        """A line where the game plays, pinging only `pinged`; posted without a look for an
        earlier attempt (`look_for_posted` could not look for too long): `unchecked`, the
        core owes a recheck that removes a duplicate."""
        try:
            earlier, looked = await look_for_posted(self.client, row, ticket)
            if earlier is not None:
                return Posted(earlier.id)
            channel = self.client.get_partial_messageable(
                row.play_channel_id, guild_id=row.guild_id
            )
            message = await channel.send(
                marked(text, ticket),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False,
                    roles=False,
                    users=[cards.user_ref(user) for user in pinged],
                    replied_user=False,
                ),
                nonce=ticket.key,
            )
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, CANNOT_POST, where=f"<#{row.play_channel_id}>") from error
        return Posted(message.id, unchecked=not looked)


def until_text(until: datetime) -> str:
    """ "<date and time> (<in 3 days>)", each reader in their own time zone."""
    return f"{timestamp(until, 'f')} ({timestamp(until)})"


@me_group.command(
    name="away", description="Pause your deadlines in all your games while you are away"
)
@app_commands.describe(
    days="Days away (at most 14 in all)",
    hours="Hours away, added to the days",
    ai="Let the AI play for you meanwhile (default: your moves wait)",
)
@tracked
async def away_command(
    interaction: discord.Interaction[Any],
    days: app_commands.Range[int, 0, 14] | None = None,
    hours: app_commands.Range[int, 0, 23] | None = None,
    ai: bool | None = None,
) -> None:
    presence = service_of(interaction).presence
    user_id = str(interaction.user.id)
    t = user_t(interaction)
    if days is None and hours is None and ai is None:
        await reply(interaction, away_status(await presence.away_of(user_id), t))
        return
    length: timedelta | None = None
    if days is not None or hours is not None:
        try:
            length = away_length(days or 0, hours or 0)
        except ValueError:
            raise Refusal(lambda t: away_refusal(days or 0, hours or 0, t)) from None
    try:
        change = await presence.go_away(user_id, length, ai=ai)
    except ValueError:  # `ai:` alone, and not away: how long?
        raise Refusal(lambda t: away_refusal(0, 0, t)) from None
    assert change.away is not None
    await reply(interaction, went_away_answer(change, change.away, t))
    await presence.tell(change)


def away_status(away: Away | None, t: Translator) -> str:
    """`/montana me away` asked with nothing: whether the player is away, and how."""
    if away is None:
        return t.gettext(
            "You are not away. {/me away} with {/me away:days} and {/me away:hours} pauses your "
            "deadlines in all your games for up to 14 days ({/me away:ai=True}: the AI plays "
            "for you)."
        )
    if away.ai_plays:
        return t.gettext(
            "You are away until {until}: the AI plays for you. {/me back} ends it now.",
            until=until_text(away.until),
        )
    return t.gettext(
        "You are away until {until}: your deadlines are paused. {/me back} ends it now.",
        until=until_text(away.until),
    )


def went_away_answer(change: AwayChange, away: Away, t: Translator) -> str:
    """What the player who went away is told (only they see it)."""
    games = len(change.games)
    until = until_text(away.until)
    if away.ai_plays and games:
        return t.ngettext(
            "You are away until {until}: the AI plays for you in your {n} game under way "
            "and in every game that starts meanwhile (their players are told). "
            "{/me back} ends it earlier.",
            "You are away until {until}: the AI plays for you in your {n} games under way "
            "and in every game that starts meanwhile (their players are told). "
            "{/me back} ends it earlier.",
            games,
            until=until,
        )
    if away.ai_plays:
        return t.gettext(
            "You are away until {until}: the AI plays for you in every game that starts "
            "meanwhile. {/me back} ends it earlier.",
            until=until,
        )
    if games:
        return t.ngettext(
            "You are away until {until}: your deadlines are paused in your {n} game under "
            "way (their players are told). {/me back} ends it earlier.",
            "You are away until {until}: your deadlines are paused in your {n} games under "
            "way (their players are told). {/me back} ends it earlier.",
            games,
            until=until,
        )
    return t.gettext(
        "You are away until {until}: your deadlines are paused in every game you play "
        "meanwhile. {/me back} ends it earlier.",
        until=until,
    )


@me_group.command(name="back", description="End your away time: your deadlines run again")
@tracked
async def back_command(interaction: discord.Interaction[Any]) -> None:
    presence = service_of(interaction).presence
    change = await presence.come_back(str(interaction.user.id))
    if change is None:
        raise Refusal(
            translatable(
                "You are not away. {/me away} with {/me away:days} and {/me away:hours} pauses "
                "your deadlines while you are away."
            )
        )
    waiting = len(change.paused)
    t = user_t(interaction)
    if waiting:
        said = t.ngettext(
            "Welcome back: your deadlines run again. {n} game waiting for you: the deadline "
            "starts again now.",
            "Welcome back: your deadlines run again. {n} games waiting for you: the deadline "
            "starts again now.",
            waiting,
        )
    else:
        said = t.gettext("Welcome back: your deadlines run again.")
    if change.handed:
        said += " " + t.ngettext(
            "The AI gives you back your seat in {n} game.",
            "The AI gives you back your seats in {n} games.",
            len(change.handed),
        )
    await reply(interaction, said)
    await presence.tell(change)


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__ = ["DYNAMIC_ITEMS", "DiscordNotices"]
