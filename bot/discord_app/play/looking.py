"""Looking at the game: `/montana board | status | rules | log`."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from bot.core.clock.pace import pace_words
from bot.core.play.service import GameService
from bot.core.server.limits import limits_of
from bot.core.store import ABANDONED, ACTIVE, ENDED, LOBBY, Away, GameRow
from bot.core.wording import words
from bot.discord_app.components import (
    DynamicItems,
    away_words,
    bot_of,
    delivery_problem,
    game_t,
    picture_file,
    quiet_note,
    service_of,
    user_t,
)
from bot.discord_app.delivery.notify import message_link
from bot.discord_app.delivery.weblinks import live_board_view
from bot.discord_app.group import NO_PINGS, answer, channel_id_of, game_group, montana, tracked
from bot.discord_app.play.history import log_page_text, log_view
from bot.discord_app.play.lobby import lobby_text
from i18n import Translator, translatable
from rules import Game

STOPPED_EARLY = {
    ENDED: translatable(
        "This game was ended early by a vote; below are its standings when it ended."
    ),
    ABANDONED: translatable("This game was abandoned."),
}


@montana.command(name="board", description="Post the current picture and prompt again")
@tracked
async def board(interaction: discord.Interaction[Any]) -> None:
    """Posts the game again for a player, once per move and without a ping; anyone else,
    or a player asking again before the game moves on, gets a link to its newest
    message, alone (issue 21.2: nothing public repeats on demand)."""
    service = service_of(interaction)
    row = await service.latest_here(channel_id_of(interaction))
    game = service.game_of(row)
    t = user_t(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    if not row.has_player(str(interaction.user.id)):
        await answer(interaction, not_yours(row, t))
        return
    bot = bot_of(interaction)
    live_link = await live_board_view(bot.store, bot.settings.web_url, row, t)
    linked: dict[str, Any] = {} if live_link is None else {"view": live_link}
    reposted = service.reposts.newest(row, prompt=row.status == ACTIVE)
    if reposted is not None:
        link = message_link(row.guild_id, row.play_channel_id, reposted)
        await answer(
            interaction,
            t.gettext(
                "The board was posted again already since the last move; it is here: {link}",
                link=link,
            ),
            **linked,
        )
        return
    if row.status == ACTIVE:
        # after whatever the game still owes; in a new thread if its thread is gone
        outcome = await service.repost(row, ping=False)  # the move's own message pinged
        if not outcome.announced:
            await answer(
                interaction,
                t.gettext("The board is not posted: {problem}", problem=outcome.problem_in(t)),
            )
            return
        if outcome.row.message_id is not None:
            service.reposts.note(outcome.row, outcome.row.message_id)
        notes = "".join(f"\n-# {note}" for note in outcome.notes)
        posted = t.gettext(
            "The board is posted in {where}.", where=f"<#{outcome.row.play_channel_id}>"
        )
        await answer(interaction, posted + notes, **linked)
        return
    picture = await service.game_picture(row, game)
    channel = bot_of(interaction).get_partial_messageable(row.play_channel_id)
    try:
        message = await channel.send(
            words.results(game, row.names, game_t(row)),
            file=picture_file(picture),
            allowed_mentions=NO_PINGS,
            **linked,
        )
    except discord.HTTPException as error:
        refused = t.gettext(
            "I cannot post in {where} (deleted, or a permission is missing).",
            where=f"<#{row.play_channel_id}>",
        )
        problem = delivery_problem(error, refused)
        await answer(
            interaction,
            t.gettext("The board is not posted: {problem}", problem=problem.text(t)),
        )
        return
    service.reposts.note(row, message.id)
    await answer(
        interaction,
        t.gettext("The board is posted in {where}.", where=f"<#{row.play_channel_id}>"),
        **linked,
    )


def not_yours(row: GameRow, t: Translator) -> str:
    """`/montana board` asked by someone not playing: where to look, for them alone."""
    if row.message_id is None:
        return t.gettext(
            "You are not playing in this game, so nothing is posted for you; it plays in {where}.",
            where=f"<#{row.play_channel_id}>",
        )
    return t.gettext(
        "You are not playing in this game, so nothing is posted for you; its newest "
        "message is here: {link}",
        link=message_link(row.guild_id, row.play_channel_id, row.message_id),
    )


async def quiet_lines(
    service: GameService, row: GameRow, game: Game, away: Mapping[str, Away], t: Translator
) -> list[str]:
    """The status's line on the awaited player while they are in their quiet hours."""
    awaited = game.awaiting
    if awaited is None or awaited in away or row.ai_plays(awaited):
        return []
    until = await service.hours.quiet_end(awaited, datetime.now(UTC))
    if until is None:
        return []
    return [
        t.gettext(
            "{who} is in their quiet hours ({quiet}): their deadline waits meanwhile.",
            who=row.names.get(awaited, awaited),
            quiet=quiet_note(until, t),
        )
    ]


@montana.command(name="status", description="A text summary of the game (only you see it)")
@tracked
async def status(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    row = await service.latest_here(channel_id_of(interaction))
    if row.status == LOBBY:
        limits = await limits_of(service.store, row.guild_id)
        await answer(interaction, lobby_text(row, user_t(interaction), limits=limits))
        return
    game = service.game_of(row)
    t = user_t(interaction)
    lines = words.status(game, row.names, t).split("\n")
    if row.status in STOPPED_EARLY:  # nobody is waited for any more
        lines[0] = t.translate(STOPPED_EARLY[row.status])
    elif row.status == ACTIVE:
        away = await service.presence.away_in(row)
        lines[1:1] = [
            away_words(row, seat.user_id, away[seat.user_id], t)
            for seat in row.players
            if seat.user_id in away
        ] + await quiet_lines(service, row, game, away, t)
        pace = pace_words(row.turn_seconds, row.auction_seconds, t)
        lines.insert(1, t.gettext("Pace: {pace}.", pace=pace))
    await answer(interaction, "\n".join(lines))


@game_group.command(name="rules", description="The rules of Montana in short")
@tracked
async def rules(interaction: discord.Interaction[Any]) -> None:
    first, *more = message_pages(words.rules_help(user_t(interaction)))
    await answer(interaction, first)
    for page in more:
        await interaction.followup.send(page, ephemeral=True)


MESSAGE_LIMIT = 2000
"""Discord's limit of a message's content, in characters."""


def message_pages(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """`text` in messages Discord takes, cut between lines (the rules in French, with
    their command mentions, are longer than one message)."""
    pages: list[str] = []
    page = ""
    for line in text.split("\n"):
        candidate = f"{page}\n{line}" if page else line
        if len(candidate) <= limit:
            page = candidate
            continue
        if page:
            pages.append(page)
        while len(line) > limit:
            pages.append(line[:limit])
            line = line[limit:]
        page = line
    return [*pages, page]


@game_group.command(name="log", description="The moves so far, in notation (only you see it)")
@app_commands.describe(page="1 = the latest moves, 2 = the ones before, ...")
@tracked
async def log_command(interaction: discord.Interaction[Any], page: int = 1) -> None:
    service = service_of(interaction)
    row = await service.latest_here(channel_id_of(interaction))
    t = user_t(interaction)
    text, page, pages = await log_page_text(service, row, page, t, typed=True)
    view = log_view(row.id, page, pages, t)
    await answer(interaction, text, **({"view": view} if view else {}))


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__: list[str] = []
