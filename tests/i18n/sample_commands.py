"""A small command tree shaped like `/montana`, for the command translator's tests."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from i18n import translatable

REFUSAL = translatable("Only the game's creator can change its language.")

montana = app_commands.Group(
    name="montana", description="Play the board game Montana in this channel", guild_only=True
)


@montana.command(name="build", description="Build a settlement on a field")
@app_commands.describe(field="The field's label, as on the picture")
async def build(interaction: discord.Interaction[Any], field: str) -> None:
    """Build on `field`."""


@montana.command(name="work", description="Send workers to a harvest area")
@app_commands.describe(area="Where the workers go")
@app_commands.choices(
    area=[
        app_commands.Choice(name="the mine", value="mine"),
        app_commands.Choice(name="the quarry", value="quarry"),
    ]
)
async def work(interaction: discord.Interaction[Any], area: str) -> None:
    """Work in `area`."""
