"""Game records: `/montana game export [game]` attaches a game's record
(`montana-<game>.txt`, the format of `rules/README.md`, "Game records") for the asker
alone: the game of this channel or thread (running, else the last one), or a past
game of it by its number (`/montana game history` lists them)."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.core.community.records import file_name, record_text
from bot.core.play.service import Refusal
from bot.core.store import GameRow
from bot.discord_app.components import DynamicItems, service_of, user_t
from bot.discord_app.group import answer, channel_id_of, game_group, tracked
from i18n import translatable

NOT_HERE = translatable(
    "Game #{game} was not played in this channel: {/game history} lists the games played here."
)


async def game_to_export(interaction: discord.Interaction[Any], game: int | None) -> GameRow:
    """The game asked for, if it belongs here: a started game of this channel or its
    thread (a lobby is skipped for the last game played here)."""
    service = service_of(interaction)
    channel_id = channel_id_of(interaction)
    if game is not None:
        row = await service.store.get(game)
        if row is None or channel_id not in (row.channel_id, row.play_channel_id):
            raise Refusal(NOT_HERE, game=game)
        return row
    row = await service.latest_here(channel_id)
    if row.state_json is None:
        # a lobby here: the game played before it, if any
        past = await service.store.past_games(channel_id, 1)
        if past and past[0].state_json is not None:
            return past[0]
    return row


@game_group.command(
    name="export", description="The game's record as a text file, to keep or load offline"
)
@app_commands.describe(game="A past game's number, as the game history lists it; default: this one")
@tracked
async def export_command(interaction: discord.Interaction[Any], game: int | None = None) -> None:
    t = user_t(interaction)
    row = await game_to_export(interaction, game)
    server = interaction.guild.name if interaction.guild is not None else None
    text = await record_text(service_of(interaction).store, row, server=server)
    await answer(
        interaction,
        t.gettext(
            "The record of game #{game}. Load it offline with "
            "`bash scripts/run-bot.sh console --record {file}`.",
            game=row.id,
            file=file_name(row),
        ),
        file=discord.File(io.BytesIO(text.encode("utf-8")), filename=file_name(row)),
    )


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__ = ["game_to_export"]
