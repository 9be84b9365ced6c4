"""AI players: `/montana hint`, `/montana game takeover`, `/montana me reclaim`, and the
button to vote a seat over to the AI.

The AI seats themselves are added in the lobby (`lobby.py`); `bot.core.ai_players.ai_seats` plays
them (the client runs it). A hint is the AI's move for the awaited player in the state
they see, with its reason, and a "Play it" button: a `ChoiceButton` with the move's
code (`a:<notation>`) and the state's version and undo epoch, so it plays through the
normal path and goes stale like any other button once the game moves on.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import discord
from discord import app_commands

from bot.core.ai_players.ai_seats import AiPlayers, TakeoverVote
from bot.core.play import prompts
from bot.core.play.prompts import Panel
from bot.core.store import GameRow
from bot.core.wording import words
from bot.discord_app.components import (
    Components,
    DynamicItems,
    bot_of,
    game_t,
    reply,
    row_view,
    service_of,
    shown_name,
    user_t,
)
from bot.discord_app.group import NO_PINGS, channel_id_of, game_group, me_group, montana, tracked
from bot.discord_app.guard import VOTE_OFFER, run_press
from bot.discord_app.play.presses import Press

log = logging.getLogger(__name__)

PLAY_IT = "▶ Play it"
TAKEOVER_LABEL = "Hand the seat to the AI"
"""The English labels (the buttons carry them in the reader's or the game's language)."""


def ai_of(interaction: discord.Interaction[Any]) -> AiPlayers:
    return bot_of(interaction).ai


async def send_hint(
    interaction: discord.Interaction[Any],
    row: GameRow,
    version: int | None = None,
    epoch: int | None = None,
) -> None:
    """The AI's suggestion for the presser, only to them, with a button to play it
    (`version`, `epoch`: the state of the Hint button pressed; None for the command)."""
    players = ai_of(interaction)
    user_id = str(interaction.user.id)
    await players.service.check_turn(row, user_id, version, epoch)  # refuse before thinking
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    hint = await players.hint(row, user_id)
    t = user_t(interaction)
    play_it = "▶ " + t.pgettext("button", "Play it")
    panel = Panel("", (prompts.Choice(f"a:{hint.notation}", play_it, "success"),))
    view = row_view(hint.row, panel)
    reasons = words.reasons_words(hint.decision.reasons, t, hint.row.names)
    if reasons:
        text = "💡 " + t.gettext(
            "The AI suggests **{move}** — {reasons}", move=hint.notation, reasons=reasons
        )
    else:
        text = "💡 " + t.gettext("The AI suggests **{move}**", move=hint.notation)
    assert view is not None  # the panel has its button
    await interaction.followup.send(text[:2000], ephemeral=True, view=view)


@montana.command(
    name="hint", description="Ask the AI for a move, with its reason (only you see it)"
)
@tracked
async def hint(interaction: discord.Interaction[Any]) -> None:
    row = await service_of(interaction).game_here(channel_id_of(interaction))
    await send_hint(interaction, row)


# ------------------------------------------------------------------ takeover


class TakeoverButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mk:(?P<game>[0-9]{1,19}):(?P<player>[0-9]{1,20})",
):
    """A vote to hand `player`'s seat to the AI (restart-proof: read at press time)."""

    def __init__(self, game_id: int, player: str, label: str = TAKEOVER_LABEL) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"mk:{game_id}:{player}",
            )
        )
        self.game_id = game_id
        self.player = player

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TakeoverButton:
        return cls(int(match["game"]), match["player"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def vote(row: GameRow) -> None:
            voter = str(interaction.user.id)
            outcome = await ai_of(interaction).vote_takeover(row, voter, self.player)
            await answer_takeover(interaction, outcome, self.player)

        await run_press(interaction, self.game_id, VOTE_OFFER, vote)


def takeover_view(row: GameRow, player: str) -> discord.ui.View:
    """The vote button, in the game's language."""
    view = Components()
    label = game_t(row).pgettext("button", "Hand the seat to the AI")
    view.add_item(TakeoverButton(row.id, player, label))
    return view


async def answer_takeover(
    interaction: discord.Interaction[Any], outcome: TakeoverVote, player: str
) -> None:
    """Said in the channel (no pings): the votes so far, with the button to vote, or
    that the AI plays the seat from now on."""
    names = outcome.row.names
    t = game_t(outcome.row)
    voter = names.get(str(interaction.user.id)) or shown_name(interaction.user)
    owner = outcome.row.names.get(player, player)
    if outcome.done:
        text = t.gettext(
            "{voter} votes too: the AI plays {owner}'s seat from now on, until they take it "
            "back with {/me reclaim}.",
            voter=voter,
            owner=owner.removesuffix(" (AI)"),
        )
        await interaction.response.send_message(text, allowed_mentions=NO_PINGS)
        return
    if len(outcome.voters) > 1:
        # said publicly once, with the first vote: a later one answers its voter alone
        await reply(
            interaction,
            user_t(interaction).gettext(
                "Your vote to hand {owner}'s seat to the AI counts: {n} of the {needed} "
                "votes needed.",
                owner=owner,
                n=len(outcome.voters),
                needed=outcome.needed,
            ),
        )
        return
    text = t.gettext(
        "{voter} votes to hand {owner}'s seat to the AI: {n} of the {needed} votes needed. "
        "The other players can vote with the button.",
        voter=voter,
        owner=owner,
        n=len(outcome.voters),
        needed=outcome.needed,
    )
    await interaction.response.send_message(
        text, view=takeover_view(outcome.row, player), allowed_mentions=NO_PINGS
    )


@game_group.command(name="takeover", description="Vote to let the AI play an absent player's seat")
@app_commands.describe(player="The player whose seat the AI should play")
@tracked
async def takeover(interaction: discord.Interaction[Any], player: discord.User) -> None:
    row = await service_of(interaction).game_here(channel_id_of(interaction))
    outcome = await ai_of(interaction).vote_takeover(row, str(interaction.user.id), str(player.id))
    await answer_takeover(interaction, outcome, str(player.id))


@me_group.command(name="reclaim", description="Take your seat back from the AI")
@tracked
async def reclaim(interaction: discord.Interaction[Any]) -> None:
    row = await service_of(interaction).game_here(channel_id_of(interaction))
    user_id = str(interaction.user.id)
    row = await ai_of(interaction).reclaim(row, user_id)
    name = row.names.get(user_id) or shown_name(interaction.user)
    await interaction.response.send_message(
        game_t(row).gettext(
            "{who} takes their seat back from the AI. {/board} shows the game.",
            who=name,
        ),
        allowed_mentions=NO_PINGS,
    )


DYNAMIC_ITEMS: DynamicItems = (TakeoverButton,)
PRESSES: Mapping[str, Press] = MappingProxyType({prompts.HINT: send_hint})
"""The prompt's codes this feature serves (`play.presses.handle_choice`, through the
client): the Hint button."""

__all__ = ["DYNAMIC_ITEMS", "PRESSES", "TakeoverButton", "send_hint", "takeover_view"]
