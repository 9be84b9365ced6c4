"""Deadlines on Discord: reminders in the game's thread, the vote button, the commands.

What is due and what happens is decided in `bot.core.deadlines`; this module only
says it: the half-time and overdue mentions (with a link to the game and, when
overdue, a "Vote to end the game" button), the end of a game by vote, and the
`/montana game settings` and `/montana game vote-end` commands.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from rules import Game

from ..core import logs, words
from ..core.ai_seats import ABSENT_WORDS
from ..core.deadlines import DeadlineDriver, Deadlines, Step, VoteOutcome, period_text
from ..core.service import Refusal
from ..core.store import (
    ABSENT_AI_MOVE,
    ABSENT_AI_SEAT,
    ABSENT_WAIT,
    ACTIVE,
    OPEN_STATUSES,
    GameRow,
    StoreError,
)
from .aiplayers import TakeoverButton
from .components import Components, DynamicItems, bot_of, database_trouble, reply, timestamp
from .group import NO_PINGS, channel_id_of, game_group, tracked
from .notify import Notifier, message_link

log = logging.getLogger(__name__)

# The longest deadline is 720 h (30 days). The command options spell the number out:
# discord.py reads their annotations in the namespace of the module defining them.


class DiscordDeadlinePoster:
    """Says the deadline driver's steps in the game's channel or thread (and by DM)."""

    def __init__(self, client: discord.Client, notifier: Notifier) -> None:
        self.client = client
        self.notifier = notifier

    def _link(self, row: GameRow) -> str:
        if row.message_id is None:
            return ""
        url = message_link(row.guild_id, row.play_channel_id, row.message_id)
        return f" [Jump to the game]({url})."

    async def remind(self, row: GameRow, game: Game, step: Step) -> None:
        player = step.awaited.player
        line = words.prompt_line(game, lambda pid: f"<@{pid}>")
        period = period_text(step.period)
        view: discord.ui.View | None = None
        overdue = step.kind == "overdue"
        if not overdue:
            bid = step.awaited.kind == "bid"
            due = timestamp(step.deadline)
            text = f"⏰ Reminder — {line} Half of the {period} deadline has passed" + (
                f"; if no answer comes, I pass for you {due}." if bid else f" (due {due})."
            )
        else:
            text = (
                f"⏰ Overdue — {line} The {period} deadline has passed. "
                "The other players may now vote to end the game; the standings at that "
                "moment become its (unfinished) result. Or they may vote to let the AI "
                "play the seat until its owner takes it back."
            )
            view = Components()
            view.add_item(EndVoteButton(row.id, row.version))
            view.add_item(TakeoverButton(row.id, player))
        text += self._link(row)
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        try:
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(int(player))]
                ),
                view=view if view is not None else discord.utils.MISSING,
            )
        except discord.HTTPException as error:
            log.warning("could not post a deadline reminder: %s", error)
        await self.notifier.send_dm(
            player,
            row,
            ("Overdue: " if overdue else "Reminder: ") + words.waiting_for(game, row.names),
        )

    async def announce_end(self, row: GameRow, game: Game, voters: list[str], awaited: str) -> None:
        names = row.names
        who = " and ".join(names.get(v, v) for v in voters)
        text = (
            f"The game was ended by a vote of {who}: {names.get(awaited, awaited)} "
            "was overdue. It is recorded as unfinished, with the standings at this moment.\n"
            + words.results(game, names)
        )
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        try:
            await channel.send(text[:2000], allowed_mentions=NO_PINGS)
            if row.message_id is not None:
                await channel.get_partial_message(row.message_id).edit(view=None)
        except discord.HTTPException as error:
            log.warning("could not post the end of the game: %s", error)


def driver_of(interaction: discord.Interaction[Any]) -> DeadlineDriver:
    return bot_of(interaction).deadlines


class EndVoteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mv:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9})",
):
    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Vote to end the game",
                style=discord.ButtonStyle.danger,
                custom_id=f"mv:{game_id}:{version}",
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> EndVoteButton:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            async with bot_of(interaction).busy():
                outcome = await driver_of(interaction).vote(
                    self.game_id,
                    str(interaction.user.id),
                    self.version,
                    channel_id=interaction.channel_id,
                )
        except Refusal as refusal:
            await reply(interaction, refusal.message)
            return
        except StoreError as error:
            log.warning("a vote found the database failing: %s", error)
            await reply(interaction, database_trouble(error))
            return
        await answer_vote(interaction, outcome)


async def answer_vote(interaction: discord.Interaction[Any], outcome: VoteOutcome) -> None:
    """A vote short of the majority is said in the channel (no pings); the deciding
    vote's public message is the end of the game itself."""
    if outcome.ended:
        await reply(
            interaction, "Your vote is counted, and it ends the game: the standings are posted."
        )
        return
    await interaction.response.send_message(
        f"{outcome.voter_name} votes to end the game: {len(outcome.voters)} of the "
        f"{outcome.needed} votes needed.",
        allowed_mentions=NO_PINGS,
    )


# ------------------------------------------------------------------ commands


def may_manage(interaction: discord.Interaction[Any], row: GameRow) -> bool:
    return row.creator_id == str(interaction.user.id) or interaction.permissions.manage_channels


async def due_text(driver: DeadlineDriver, row: GameRow) -> str:
    """ "Ana's move is due in 5 hours." for the game's awaited decision ("" if none), or
    that its deadline is paused while Ana is away."""
    due = await driver.due_of(row)
    if due is None:
        return ""
    player, moment = due
    name = row.names.get(player, "The awaited player")
    away = await driver.presence.away_of(player, driver.clock())
    if away is not None:
        return " " + words.away_line(name, timestamp(away.until, "f"))
    return f" {name}'s move is due {timestamp(moment)}."


ABSENT_CHOICES = [
    app_commands.Choice(name="wait: reminders only", value=ABSENT_WAIT),
    app_commands.Choice(name="ai-move: the AI plays the overdue decision", value=ABSENT_AI_MOVE),
    app_commands.Choice(
        name="ai-seat: the AI takes the seat until reclaimed", value=ABSENT_AI_SEAT
    ),
]


@game_group.command(name="settings", description="Show or change this game's deadlines")
@app_commands.describe(
    turn_hours="Hours a player has for a turn (default 48)",
    auction_hours="Hours to answer the city auction before passing (default 24)",
    absent="What happens when a player's deadline passes (default: wait)",
)
@app_commands.choices(absent=ABSENT_CHOICES)
@tracked
async def settings_command(
    interaction: discord.Interaction[Any],
    turn_hours: app_commands.Range[int, 1, 720] | None = None,
    auction_hours: app_commands.Range[int, 1, 720] | None = None,
    absent: app_commands.Choice[str] | None = None,
) -> None:
    driver = driver_of(interaction)
    row = await driver.service.game_here(channel_id_of(interaction))
    logs.bind_game(row.id, row.play_channel_id)
    current = Deadlines(row.turn_seconds, row.auction_seconds)
    now_absent = f"when a deadline passes: {ABSENT_WORDS.get(row.absent, row.absent)}"
    if turn_hours is None and auction_hours is None and absent is None:
        due = await due_text(driver, row) if row.status == ACTIVE else ""
        await reply(interaction, f"This game's deadlines: {current.describe()}; {now_absent}.{due}")
        return
    if not may_manage(interaction, row):
        raise Refusal(
            "Only the player who opened the game, or someone allowed to manage this "
            f"channel, can change its settings. Now: {current.describe()}; {now_absent}."
        )
    if row.status not in OPEN_STATUSES:
        raise Refusal("This game is over.")
    said = []
    if turn_hours is not None or auction_hours is not None:
        new = await driver.set_hours(row.id, turn_hours, auction_hours)
        log.info("deadlines set by %s: %s", interaction.user.id, new)
        said.append(f"set the deadlines: {new.describe()}")
    if absent is not None:
        await bot_of(interaction).ai.set_absent(row, absent.value)
        log.info("absent set by %s: %s", interaction.user.id, absent.value)
        said.append(f"chose, when a deadline passes: {ABSENT_WORDS[absent.value]}")
    await interaction.response.send_message(
        f"{interaction.user.display_name} {' and '.join(said)}.",
        allowed_mentions=NO_PINGS,
    )


@game_group.command(
    name="vote-end", description="Vote to end a game whose awaited player is overdue"
)
@tracked
async def vote_end(interaction: discord.Interaction[Any]) -> None:
    driver = driver_of(interaction)
    row = await driver.service.game_here(channel_id_of(interaction))
    outcome = await driver.vote(row, str(interaction.user.id), None)
    await answer_vote(interaction, outcome)


DYNAMIC_ITEMS: DynamicItems = (EndVoteButton,)

__all__ = ["DYNAMIC_ITEMS", "DiscordDeadlinePoster", "EndVoteButton", "timestamp"]
