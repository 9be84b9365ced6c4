"""`/montana me games`: every game of the asker, those waiting for them first, and the
daily digest DM of the games waiting for them (issue 25.2; `bot.core.my_games`).

Each game is one line: where it plays, its players and pace, what it waits for, since
when and until when (Discord timestamps: each reader sees their own time zone), and a
link to its newest message. The answer is for the asker alone, cut to Discord's 2,000
characters with a count of the games left out (the waiting ones come first, so those
are the ones kept).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from i18n import Translator
from render.words import awaited_task

from ..core.my_games import MyGame, my_games
from ..core.pace import pace_label
from .components import DynamicItems, bot_of, timestamp, user_t
from .group import answer, me_group, tracked
from .notify import Notifier, message_link

log = logging.getLogger(__name__)

LIMIT = 2000


def game_line(mine: MyGame, user_id: str, t: Translator) -> str:
    row = mine.row
    players = ", ".join(seat.name for seat in row.players if seat.user_id != user_id)
    pace = pace_label(row.turn_seconds, row.auction_seconds, t)
    if mine.game is None:
        link = (
            message_link(row.guild_id, row.channel_id, row.lobby_message_id)
            if row.lobby_message_id is not None
            else f"<#{row.channel_id}>"
        )
        return t.gettext(
            "🪑 {where} — lobby ({seated}/4 seated; {pace}), open since {since}: {link}",
            where=f"<#{row.channel_id}>",
            seated=len(row.players),
            pace=pace,
            since=timestamp(mine.since) if mine.since else "—",
            link=link,
        )
    link = (
        message_link(row.guild_id, row.play_channel_id, row.message_id)
        if row.message_id is not None
        else f"<#{row.play_channel_id}>"
    )
    since = timestamp(mine.since) if mine.since else "—"
    due = timestamp(mine.deadline) if mine.deadline else "—"
    if mine.waits_for_me:
        return t.gettext(
            "▶ **Your move** in {where} (with {players}; {pace}): {task} — waiting since "
            "{since}, due {due}: {link}",
            where=f"<#{row.play_channel_id}>",
            players=players or "—",
            pace=pace,
            task=awaited_task(mine.game, t),
            since=since,
            due=due,
            link=link,
        )
    awaited = mine.awaited
    return t.gettext(
        "⏳ {where} (with {players}; {pace}): waiting for {who} since {since}, due {due}: {link}",
        where=f"<#{row.play_channel_id}>",
        players=players or "—",
        pace=pace,
        who=row.names.get(awaited, awaited) if awaited else "—",
        since=since,
        due=due,
        link=link,
    )


def games_text(heading: str, games: Sequence[MyGame], user_id: str, t: Translator) -> str:
    """The heading and one line per game, cut within Discord's 2,000 characters."""
    text = heading
    for shown, mine in enumerate(games):
        line = "\n" + game_line(mine, user_id, t)
        more = "\n" + t.ngettext("… and {n} more.", "… and {n} more.", len(games) - shown)
        if len(text) + len(line) + len(more) > LIMIT:
            return text + more
        text += line
    return text


@me_group.command(name="games", description="All your games here, those waiting for you first")
@tracked
async def games_command(interaction: discord.Interaction[Any]) -> None:
    user_id = str(interaction.user.id)
    t = user_t(interaction)
    # in a server: its games; elsewhere (no server): every game of the asker
    games = await my_games(bot_of(interaction).deadlines, user_id, interaction.guild_id)
    if not games:
        await answer(
            interaction,
            t.gettext("You have no game under way or open here. Open one with {/game new}."),
        )
        return
    waiting = sum(1 for mine in games if mine.waits_for_me)
    heading = t.ngettext(
        "**Your games here** — {n} waits for you:",
        "**Your games here** — {n} wait for you:",
        waiting,
    )
    await answer(interaction, games_text(heading, games, user_id, t))


class DigestSender:
    """Sends the daily digest by DM (`bot.core.my_games.DigestTask`'s front end)."""

    def __init__(self, client: discord.Client, notifier: Notifier) -> None:
        self.client = client
        self.notifier = notifier

    async def __call__(self, user_id: str, games: Sequence[MyGame]) -> None:
        t = await self.notifier.words_for(user_id)
        heading = t.ngettext(
            "**Montana** — good morning! {n} game waits for you:",
            "**Montana** — good morning! {n} games wait for you:",
            len(games),
        )
        footer = "\n-# " + t.gettext("Stop these with {/me notify:digest=False}.")
        text = games_text(heading, games, user_id, t)
        if len(text) + len(footer) <= LIMIT:
            text += footer
        channel = await self.client.create_dm(discord.Object(int(user_id)))
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        log.info("digest sent to %s: %d games", user_id, len(games))


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__ = ["DYNAMIC_ITEMS", "DigestSender", "game_line", "games_text"]
