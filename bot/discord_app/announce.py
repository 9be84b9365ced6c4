"""Posting each accepted move in the game's channel or thread.

One message per move: the picture, what happened in words, the mention of whoever
must act now (pinged only when the turn passed to them) and their buttons. The
previous prompt's buttons are removed, so only the current one is pressable.
"""

from __future__ import annotations

import logging

import discord

from ..core import prompts, words
from ..core.service import Outcome
from .components import panel_view, picture_file

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def compose(outcome: Outcome) -> tuple[str, discord.ui.View | None]:
    """The text and the components of the message announcing `outcome`."""
    game = outcome.game
    names = outcome.row.names
    parts = [outcome.text] if outcome.text else []
    if game.is_over or outcome.row.status != "active":
        parts.append(words.results(game, names))
        view = None
    else:
        parts.append(words.prompt_line(game, mention))
        panel = prompts.public_panel(game, names)
        if panel.hint:
            parts.append(f"-# {panel.hint}")
        view = panel_view(outcome.row.id, outcome.version, panel)
    text = "\n".join(parts)
    if len(text) > MESSAGE_LIMIT:
        text = "…" + text[-(MESSAGE_LIMIT - 1) :]
    return text, view


class DiscordAnnouncer:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def announce(self, outcome: Outcome) -> int | None:
        row = outcome.row
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        content, view = compose(outcome)
        if not outcome.awaited_changed and outcome.previous_message_id is not None:
            # the same player decides on: update their prompt (picture, words, buttons)
            try:
                await channel.get_partial_message(outcome.previous_message_id).edit(
                    content=content,
                    attachments=[picture_file(outcome.picture)],
                    view=view,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return outcome.previous_message_id
            except discord.NotFound:
                log.warning(
                    "game %s channel %s: the prompt message is gone; posting a new one",
                    row.id,
                    row.play_channel_id,
                )
        awaited = outcome.awaited
        ping = [discord.Object(int(awaited))] if awaited and outcome.awaited_changed else []
        message = await channel.send(
            content,
            file=picture_file(outcome.picture),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=ping, replied_user=False
            ),
            view=view if view is not None else discord.utils.MISSING,
        )
        if outcome.previous_message_id is not None:
            try:
                await channel.get_partial_message(outcome.previous_message_id).edit(view=None)
            except discord.HTTPException as error:
                log.warning(
                    "game %s channel %s: could not clear the old prompt: %s",
                    row.id,
                    row.play_channel_id,
                    error,
                )
        return int(message.id)
