"""Deadlines on Discord: reminders in the game's thread, the vote button, the commands.

What is due and what happens is decided in `bot.core.clock.deadlines`; this module only
says it: the half-time and overdue mentions (with a link to the game and, when
overdue, a "Vote to end the game" button), the end of a game by vote, and the
`/montana game settings` and `/montana game vote-end` commands.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

import bot.discord_app.cards as cards
from bot.core.ai_players.ai_seats import absent_words
from bot.core.clock.deadlines import DeadlineDriver, Deadlines, Step, VoteOutcome, period_text
from bot.core.clock.pace import hours_for, pace_words
from bot.core.delivery.picture_modes import pictures_words
from bot.core.play.service import Refusal
from bot.core.runtime import logs
from bot.core.store import (
    ABSENT_AI_MOVE,
    ABSENT_AI_SEAT,
    ABSENT_WAIT,
    ACTIVE,
    OPEN_STATUSES,
    GameRow,
)
from bot.core.wording import words
from bot.discord_app.components import (
    LANGUAGE_CHOICES,
    PACE_CHOICES,
    Components,
    DynamicItems,
    away_words,
    bot_of,
    game_t,
    language_name,
    reply,
    shown_name,
    timestamp,
    user_t,
)
from bot.discord_app.delivery.notify import Notifier, message_link
from bot.discord_app.delivery.picture_modes import PICTURES_CHOICES, check_pictures
from bot.discord_app.group import NO_PINGS, channel_id_of, game_group, tracked
from bot.discord_app.guard import VOTE_OFFER, run_press
from i18n import Translator, translatable
from rules import Game

log = logging.getLogger(__name__)

# The longest deadline is 720 h (30 days). The command options spell the number out:
# discord.py reads their annotations in the namespace of the module defining them.


SeatVote = Callable[[int, str, str], discord.ui.Item[Any]]
"""The button to vote a late player's seat to the AI: (game id, player, label) -> the
button. The AI players' feature owns it (`ai_players.aiplayers.TakeoverButton`, given by
the client), as the core's deadline driver hands a deadline to the AI (`at_deadline`)."""


class DiscordDeadlinePoster:
    """Says the deadline driver's steps in the game's channel or thread (and by DM);
    `seat_vote` adds the AI takeover vote under an overdue notice (`SeatVote`)."""

    def __init__(
        self, client: discord.Client, notifier: Notifier, *, seat_vote: SeatVote | None = None
    ) -> None:
        self.client = client
        self.notifier = notifier
        self.seat_vote = seat_vote

    def _link(self, row: GameRow, t: Translator) -> str:
        if row.message_id is None:
            return ""
        url = message_link(row.guild_id, row.play_channel_id, row.message_id)
        return " " + t.gettext("[Jump to the game]({url}).", url=url)

    async def remind(self, row: GameRow, game: Game, step: Step) -> None:
        player = step.awaited.player
        t = game_t(row)
        line = words.prompt_line(game, lambda pid: f"<@{pid}>", t)
        period = period_text(step.period, t)
        view: discord.ui.View | None = None
        overdue = step.kind == "overdue"
        if not overdue:
            due = timestamp(step.deadline)
            if step.awaited.kind == "bid":
                said = t.gettext(
                    "Half of the {period} deadline has passed; if no answer comes, I pass for "
                    "you {due}.",
                    period=period,
                    due=due,
                )
            else:
                said = t.gettext(
                    "Half of the {period} deadline has passed (due {due}).", period=period, due=due
                )
            text = "⏰ " + t.gettext("Reminder — {line} {said}", line=line, said=said)
        else:
            text = "⏰ " + t.gettext(
                "Overdue — {line} The {period} deadline has passed. The other players may now "
                "vote to end the game; the standings at that moment become its (unfinished) "
                "result. Or they may vote to let the AI play the seat until its owner takes "
                "it back.",
                line=line,
                period=period,
            )
            view = Components()
            view.add_item(
                EndVoteButton(row.id, row.version, t.pgettext("button", "Vote to end the game"))
            )
            if self.seat_vote is not None:
                label = t.pgettext("button", "Hand the seat to the AI")
                view.add_item(self.seat_vote(row.id, player, label))
        text += self._link(row, t)
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        try:
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[cards.user_ref(player)]
                ),
                view=view if view is not None else discord.utils.MISSING,
            )
        except discord.HTTPException as error:
            log.warning("could not post a deadline reminder: %s", error)
        own = await self.notifier.words_for(player)
        waiting = words.waiting_for(game, row.names, own)
        await self.notifier.send_dm(
            player,
            row,
            own.gettext("Overdue: {waiting}", waiting=waiting)
            if overdue
            else own.gettext("Reminder: {waiting}", waiting=waiting),
        )

    async def announce_end(self, row: GameRow, game: Game, voters: list[str], awaited: str) -> None:
        names = row.names
        t = game_t(row)
        text = (
            t.gettext(
                "The game was ended by a vote of {voters}: {who} was overdue. It is recorded "
                "as unfinished, with the standings at this moment.",
                voters=words.listed([names.get(v, v) for v in voters], t),
                who=names.get(awaited, awaited),
            )
            + "\n"
            + words.results(game, names, t)
        )
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        try:
            await channel.send(view=cards.simple(text), allowed_mentions=NO_PINGS)
            if row.message_id is not None:
                await cards.take_rows_off(self.client, row.play_channel_id, row.message_id)
        except discord.HTTPException as error:
            log.warning("could not post the end of the game: %s", error)


def driver_of(interaction: discord.Interaction[Any]) -> DeadlineDriver:
    return bot_of(interaction).deadlines


class EndVoteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mv:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9})",
):
    def __init__(self, game_id: int, version: int, label: str = "Vote to end the game") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
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
        async def vote(row: GameRow) -> None:
            driver = driver_of(interaction)
            outcome = await driver.vote(row, str(interaction.user.id), self.version)
            await answer_vote(interaction, outcome, await driver.service.get(self.game_id))

        await run_press(interaction, self.game_id, VOTE_OFFER, vote)


async def answer_vote(
    interaction: discord.Interaction[Any], outcome: VoteOutcome, row: GameRow
) -> None:
    """A vote short of the majority is said in the channel (no pings, in the game's
    language); the deciding vote's public message is the end of the game itself."""
    if outcome.ended:
        await reply(
            interaction,
            user_t(interaction).gettext(
                "Your vote is counted, and it ends the game: the standings are posted."
            ),
        )
        return
    await interaction.response.send_message(
        game_t(row).gettext(
            "{who} votes to end the game: {n} of the {needed} votes needed.",
            who=outcome.voter_name,
            n=len(outcome.voters),
            needed=outcome.needed,
        ),
        allowed_mentions=NO_PINGS,
    )


# ------------------------------------------------------------------ commands


def may_manage(interaction: discord.Interaction[Any], row: GameRow) -> bool:
    return row.creator_id == str(interaction.user.id) or interaction.permissions.manage_channels


async def due_text(driver: DeadlineDriver, row: GameRow, t: Translator) -> str:
    """ "Ana's move is due in 5 hours." for the game's awaited decision ("" if none), or
    that its deadline is paused while Ana is away."""
    due = await driver.due_of(row)
    if due is None:
        return ""
    player, moment = due
    name = row.names.get(player, player)
    away = await driver.presence.away_of(player, driver.clock())
    if away is not None:
        return " " + away_words(row, player, away, t)
    return " " + t.gettext("{who}'s move is due {when}.", who=name, when=timestamp(moment))


ABSENT_CHOICES = [
    app_commands.Choice(name="wait: reminders only", value=ABSENT_WAIT),
    app_commands.Choice(name="ai-move: the AI plays the overdue decision", value=ABSENT_AI_MOVE),
    app_commands.Choice(
        name="ai-seat: the AI takes the seat until reclaimed", value=ABSENT_AI_SEAT
    ),
]


@game_group.command(
    name="settings", description="Show or change this game's deadlines and language"
)
@app_commands.describe(
    turn_hours="Hours a player has for a turn (default 48)",
    auction_hours="Hours to answer the city auction before passing (default 24)",
    absent="What happens when a player's deadline passes (default: wait)",
    language="The language of the game's messages and pictures",
    pictures="When the game's messages carry its picture (default: every move)",
    pace="Both deadlines at once (exact hours given beside it win)",
)
@app_commands.choices(
    absent=ABSENT_CHOICES, language=LANGUAGE_CHOICES, pictures=PICTURES_CHOICES, pace=PACE_CHOICES
)
@tracked
async def settings_command(
    interaction: discord.Interaction[Any],
    turn_hours: app_commands.Range[int, 1, 720] | None = None,
    auction_hours: app_commands.Range[int, 1, 720] | None = None,
    absent: app_commands.Choice[str] | None = None,
    language: app_commands.Choice[str] | None = None,
    pictures: str | None = None,
    pace: app_commands.Choice[str] | None = None,
) -> None:
    driver = driver_of(interaction)
    row = await driver.service.game_here(channel_id_of(interaction))
    logs.bind_game(row.id, row.play_channel_id)
    current = Deadlines(row.turn_seconds, row.auction_seconds)
    t = user_t(interaction)
    turn, auction = hours_for(pace.value if pace else None, turn_hours, auction_hours)
    if all(change is None for change in (turn, auction, absent, language, pictures)):
        due = await due_text(driver, row, t) if row.status == ACTIVE else ""
        await reply(
            interaction,
            t.gettext(
                "This game's deadlines: {deadlines}; when a deadline passes: {absent}. "
                "Its language: {language}.",
                deadlines=pace_words(current.turn_seconds, current.auction_seconds, t),
                absent=absent_words(row.absent, t),
                language=language_name(row.language),
            )
            + " "
            + t.gettext("Pictures: {pictures}.", pictures=pictures_words(row.pictures, t))
            + due,
        )
        return
    check_pictures(pictures)
    if not may_manage(interaction, row):
        raise Refusal(
            lambda t: t.gettext(
                "Only the player who opened the game, or someone allowed to manage this "
                "channel, can change its settings. Now: {deadlines}; when a deadline "
                "passes: {absent}.",
                deadlines=current.describe(t),
                absent=absent_words(row.absent, t),
            )
        )
    if row.status not in OPEN_STATUSES:
        raise Refusal(translatable("This game is over."))
    said: list[str] = []
    who = row.seat_names.get(str(interaction.user.id)) or shown_name(interaction.user)
    if language is not None:
        row = await driver.service.set_language(
            row, str(interaction.user.id), language.value, may_manage=True
        )
        log.info("language set by %s: %s", interaction.user.id, row.language)
    table = game_t(row)
    if turn is not None or auction is not None:
        new = await driver.set_hours(row.id, turn, auction)
        log.info("deadlines set by %s: %s", interaction.user.id, new)
        said.append(
            table.gettext(
                "{who} set the deadlines: {deadlines}.",
                who=who,
                deadlines=pace_words(new.turn_seconds, new.auction_seconds, table),
            )
        )
    if absent is not None:
        await bot_of(interaction).ai.set_absent(row, absent.value)
        log.info("absent set by %s: %s", interaction.user.id, absent.value)
        said.append(
            table.gettext(
                "{who} chose, when a deadline passes: {absent}.",
                who=who,
                absent=absent_words(absent.value, table),
            )
        )
    if pictures is not None:
        await driver.service.store.set_pictures(row.id, pictures)
        log.info("pictures set by %s: %s", interaction.user.id, pictures)
        said.append(
            table.gettext(
                "{who} chose for this game: {pictures}.",
                who=who,
                pictures=pictures_words(pictures, table),
            )
        )
    if language is not None:
        said.append(
            table.gettext(
                "{who} set the game's language: {language}.",
                who=who,
                language=language_name(row.language),
            )
        )
    await interaction.response.send_message("\n".join(said), allowed_mentions=NO_PINGS)


@game_group.command(
    name="vote-end", description="Vote to end a game whose awaited player is overdue"
)
@tracked
async def vote_end(interaction: discord.Interaction[Any]) -> None:
    driver = driver_of(interaction)
    row = await driver.service.game_here(channel_id_of(interaction))
    outcome = await driver.vote(row, str(interaction.user.id), None)
    await answer_vote(interaction, outcome, row)


DYNAMIC_ITEMS: DynamicItems = (EndVoteButton,)

__all__ = ["DYNAMIC_ITEMS", "DiscordDeadlinePoster", "EndVoteButton", "SeatVote", "timestamp"]
