"""`/montana me games`: every game of the asker in this server, those waiting for them
first; `/montana-games`: the same in every server, also in a DM with the bot; and the
daily digest DM of the games waiting for them (issue 25.2; `bot.core.clock.my_games`).

`/montana-games` is a top-level command of its own because Discord applies a command's
contexts to all its subcommands: `/montana` is for servers only, so nothing under it can
be used in a DM. Its name starts with `montana`, so a player typing `/montana` in a DM
finds it. A game of a server the bot is no longer in is left out of it and of the
digest (nobody can play it, and its links lead nowhere); one of a server the player has
left is still listed: it still counts them, and its deadlines still run.

Each game is one line: where it plays, its players and pace, what it waits for, since
when and until when (Discord timestamps: each reader sees their own time zone), and a
link to its newest message. The answer is for the asker alone, cut to Discord's 2,000
characters with a count of the games left out (the waiting ones come first, so those
are the ones kept).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.core.clock.my_games import MyGame, my_games
from bot.core.clock.pace import pace_label
from bot.core.store import Shards
from bot.discord_app.components import DynamicItems, bot_of, timestamp, user_t
from bot.discord_app.delivery.notify import Notifier, message_link
from bot.discord_app.group import answer, answer_card, me_group, tracked
from i18n import Translator
from i18n.commands import GAMES_COMMAND
from render.words import awaited_task

log = logging.getLogger(__name__)

LIMIT = 2000


def game_line(mine: MyGame, user_id: str, t: Translator, server: str | None = None) -> str:
    """One game; `server`: the name of its server, put before its channel (a list of
    several servers' games)."""
    row = mine.row

    def place(channel_id: int) -> str:
        return f"<#{channel_id}>" if server is None else f"{server} › <#{channel_id}>"

    players = ", ".join(seat.name for seat in row.players if seat.user_id != user_id)
    pace = pace_label(row.turn_seconds, row.auction_seconds, t)
    if mine.game is None:
        link = (
            message_link(row.guild_id, row.channel_id, row.lobby_message_id)
            if row.lobby_message_id is not None
            else f"<#{row.channel_id}>"
        )
        if mine.since is None:
            return t.gettext(
                "🪑 {where} — lobby ({seated}/4 seated; {pace}): {link}",
                where=place(row.channel_id),
                seated=len(row.players),
                pace=pace,
                link=link,
            )
        # Translators: {since} is a relative time, e.g. "3 hours ago".
        return t.gettext(
            "🪑 {where} — lobby ({seated}/4 seated; {pace}), opened {since}: {link}",
            where=place(row.channel_id),
            seated=len(row.players),
            pace=pace,
            since=timestamp(mine.since),
            link=link,
        )
    link = (
        message_link(row.guild_id, row.play_channel_id, row.message_id)
        if row.message_id is not None
        else f"<#{row.play_channel_id}>"
    )
    fields = {
        "where": place(row.play_channel_id),
        "players": players or "—",
        "pace": pace,
        "due": timestamp(mine.deadline) if mine.deadline else "—",
        "link": link,
    }
    if mine.waits_for_me:
        task = awaited_task(mine.game, t)
        if mine.since is None:
            return t.gettext(
                "▶ **Your move** in {where} (with {players}; {pace}): {task} — due {due}: {link}",
                task=task,
                **fields,
            )
        # Translators: {since} is a relative time, e.g. "3 hours ago".
        return t.gettext(
            "▶ **Your move** in {where} (with {players}; {pace}): {task} — your turn began "
            "{since}, due {due}: {link}",
            task=task,
            since=timestamp(mine.since),
            **fields,
        )
    awaited = mine.awaited
    who = row.names.get(awaited, awaited) if awaited else "—"
    if mine.since is None:
        return t.gettext(
            "⏳ {where} (with {players}; {pace}): waiting for {who}, due {due}: {link}",
            who=who,
            **fields,
        )
    # Translators: {since} is a relative time, e.g. "3 hours ago".
    return t.gettext(
        "⏳ {where} (with {players}; {pace}): waiting for {who}, whose turn began {since}, "
        "due {due}: {link}",
        who=who,
        since=timestamp(mine.since),
        **fields,
    )


def games_text(
    heading: str,
    games: Sequence[MyGame],
    user_id: str,
    t: Translator,
    servers: Mapping[int, str] | None = None,
) -> str:
    """The heading and one line per game, cut within Discord's 2,000 characters;
    `servers`: the names of the games' servers, to show with each (several servers)."""
    text = heading
    for shown, mine in enumerate(games):
        server = None
        if servers is not None and mine.row.guild_id is not None:
            server = servers.get(mine.row.guild_id)
        line = "\n" + game_line(mine, user_id, t, server)
        more = "\n" + t.ngettext("… and {n} more.", "… and {n} more.", len(games) - shown)
        if len(text) + len(line) + len(more) > LIMIT:
            return text + more
        text += line
    return text


def with_footer(text: str, *sentences: str) -> str:
    """`text` and a small-print line of as many of `sentences` as fit in a message (the
    first ones first)."""
    for count in range(len(sentences), 0, -1):
        footer = "\n-# " + " ".join(sentences[:count])
        if len(text) + len(footer) <= LIMIT:
            return text + footer
    return text


def everywhere_hint(t: Translator) -> str:
    """Where to see every server's games: `/montana me games` lists one server's."""
    return t.gettext(
        "Your games of every server, any time, also in a DM with me: {/montana-games}."
    )


@me_group.command(name="games", description="All your games here, those waiting for you first")
@tracked
async def games_command(interaction: discord.Interaction[Any]) -> None:
    user_id = str(interaction.user.id)
    t = user_t(interaction)
    # Discord offers `/montana` in servers only: every server's games are `/montana-games`
    games = await my_games(bot_of(interaction).deadlines, user_id, interaction.guild_id)
    if not games:
        await answer(
            interaction,
            with_footer(
                t.gettext("You have no game under way or open here. Open one with {/game new}."),
                everywhere_hint(t),
            ),
        )
        return
    waiting = sum(1 for mine in games if mine.waits_for_me)
    heading = t.ngettext(
        "**Your games here** — {n} waits for you:",
        "**Your games here** — {n} wait for you:",
        waiting,
    )
    text = games_text(heading, games, user_id, t)
    await answer_card(interaction, with_footer(text, everywhere_hint(t)))


class KnowsServers(Protocol):
    """What `within_reach` and `server_names` read of a client (the bot, or the plain
    discord.py client of `DigestSender`): the servers it is in."""

    def is_ready(self) -> bool: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


def within_reach(
    client: KnowsServers, shards: Shards | None, games: Sequence[MyGame]
) -> list[MyGame]:
    """`games` without those of a server the bot is no longer in. Only a server of this
    process's `shards` can be told gone (another process's server is not in
    `client.guilds`), and only once the client is ready (before, its servers are not
    all known yet)."""
    if not client.is_ready():
        return list(games)
    return [
        mine
        for mine in games
        if mine.row.guild_id is None
        or client.get_guild(mine.row.guild_id) is not None
        or (shards is not None and not shards.serves(mine.row.guild_id))
    ]


def server_names(client: KnowsServers, games: Sequence[MyGame]) -> dict[int, str]:
    """The names of the games' servers this process knows, as safe markdown."""
    names = {}
    for mine in games:
        guild_id = mine.row.guild_id
        guild = client.get_guild(guild_id) if guild_id is not None else None
        if guild_id is not None and guild is not None and guild.name:
            plain = discord.utils.escape_mentions(guild.name)
            names[guild_id] = f"**{discord.utils.escape_markdown(plain)}**"
    return names


@app_commands.command(
    name=GAMES_COMMAND,
    description="All your Montana games in every server, those waiting for you first",
)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
@tracked
async def games_everywhere_command(interaction: discord.Interaction[Any]) -> None:
    """Usable in a DM with the bot (and in a server, where it says the same). The bot is
    installed in servers only: a user install would need the application set up for it."""
    user_id = str(interaction.user.id)
    t = user_t(interaction)
    client = bot_of(interaction)
    found = await my_games(client.deadlines, user_id, None)
    games = within_reach(client, client.store.shards, found)
    if not games:
        await answer(
            interaction,
            t.gettext(
                "You have no game under way or open in any server. Open one with {/game new} "
                "in a server's channel."
            ),
        )
        return
    waiting = sum(1 for mine in games if mine.waits_for_me)
    heading = t.ngettext(
        "**Your games in every server** — {n} waits for you:",
        "**Your games in every server** — {n} wait for you:",
        waiting,
    )
    text = games_text(heading, games, user_id, t, server_names(client, games))
    await answer_card(interaction, text)


class DigestSender:
    """Sends the daily digest by DM (`bot.core.clock.my_games.DigestTask`'s front end)."""

    def __init__(self, client: discord.Client, notifier: Notifier) -> None:
        self.client = client
        self.notifier = notifier

    async def __call__(self, user_id: str, games: Sequence[MyGame]) -> None:
        games = within_reach(self.client, self.notifier.store.shards, games)
        if not games:
            return  # only games of servers the bot has left: nothing anyone can play
        t = await self.notifier.words_for(user_id)
        heading = t.ngettext(
            "**Montana** — good morning! {n} game waits for you:",
            "**Montana** — good morning! {n} games wait for you:",
            len(games),
        )
        text = games_text(heading, games, user_id, t, server_names(self.client, games))
        text = with_footer(
            text, t.gettext("Stop these with {/me notify:digest=False}."), everywhere_hint(t)
        )
        channel = await self.client.create_dm(discord.Object(int(user_id)))
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        log.info("digest sent to %s: %d games", user_id, len(games))


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__ = [
    "DYNAMIC_ITEMS",
    "DigestSender",
    "game_line",
    "games_everywhere_command",
    "games_text",
    "within_reach",
]
