"""The `/montana` command and its subgroups, and what every command of it shares.

The groups are defined here, on their own: each feature module (`play.lobby`,
`play.moves`, `clock.deadlines`, `community.past_games`, ...) adds its subcommands to them
when imported, and `client` assembles the features. Nothing here imports a feature. (The
`server` group, for a server's administrators, is defined with its commands in
`server.server`.)

Discord allows 25 subcommands or groups under a command and 25 subcommands in a group
(`tests/bot/test_command_tree.py` checks the tree against every limit):

    /montana  play build recruit work city trade pass stop end undo board status
              leaderboard stats records
    /montana game  new join leave start abandon settings vote-end log history rules replay
                    export
    /montana me  notify away back stats forget
    /montana server  settings games
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec

import discord
from discord import app_commands

from bot.core.play.service import Refusal
from i18n import translatable

from ..core.store import StoreError
from .cards import simple as card_of_text
from .components import bot_of, database_trouble, user_t
from .guard import counted, went_wrong

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()

montana = app_commands.Group(
    name="montana",
    description="Play the board game Montana in this channel",
    guild_only=True,
)
"""The moves and the looks at the game stay one word after `/montana` (`/montana build`,
`/montana board`): they are what players type most."""
game_group = app_commands.Group(
    name="game",
    description="Open, join, start, set up and look back on the game of this channel",
    parent=montana,
)
"""Once or rarely per game: the lobby, deadlines, votes, the log and history, the rules."""
me_group = app_commands.Group(
    name="me",
    description="Your own settings: how you hear that a game waits for you; away and back",
    parent=montana,
)
"""What each player sets for themselves, in every game."""


async def answer(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Answer a slash command ephemerally, before or after deferring it (`text` in the
    user's language: `user_t(interaction)`)."""
    text = text[:2000]
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def answer_card(
    interaction: discord.Interaction[Any], text: str, rows: discord.ui.View | None = None
) -> None:
    """Answer a slash command ephemerally with a card (`text` and `rows`), before or after
    deferring it: a list, where the answer is a table of things rather than one line."""
    card = card_of_text(text, rows=rows)
    if interaction.response.is_done():
        await interaction.edit_original_response(view=card, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(
            view=card, ephemeral=True, allowed_mentions=NO_PINGS
        )


P = ParamSpec("P")


def tracked(
    command: Callable[Concatenate[discord.Interaction[Any], P], Coroutine[Any, Any, None]],
) -> Callable[Concatenate[discord.Interaction[Any], P], Coroutine[Any, Any, None]]:
    """Count the command as in flight (a shutdown waits for it); refuse while stopping.

    A `Refusal` raised by the command is its ephemeral answer; so is a database that
    fails it (nothing was changed: a write is all or nothing); any other error is
    answered with an id the log has it under (`guard.went_wrong`)."""

    @functools.wraps(command)
    async def run(
        interaction: discord.Interaction[Any], /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        try:
            async with bot_of(interaction).busy():
                await bot_of(interaction).remember_locale(interaction)
                await counted(interaction, command(interaction, *args, **kwargs))
        except Refusal as refusal:
            await answer(interaction, refusal.text(user_t(interaction)))
        except StoreError as error:
            log.warning("a command found the database failing: %s", error)
            await answer(interaction, database_trouble(error, user_t(interaction)))
        except Exception as error:
            await went_wrong(interaction, error)

    return run


def channel_id_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.channel_id is None:
        raise Refusal(translatable("Use this command in a server channel."))
    return interaction.channel_id


__all__ = ["NO_PINGS", "answer", "channel_id_of", "game_group", "me_group", "montana", "tracked"]
