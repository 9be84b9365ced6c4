"""Finding a table (issue 25 point 5): `/montana game find players: pace: language:`.

The asker joins the server's queue (once per server) and sees their entry alone, with a
**Withdraw** button (`mq:withdraw:<the find's interaction>`, restart-proof); `/montana game
find` again shows it.
After each entry the queue is matched (`bot.core.community.matchmaking.find_table`): a table found
is opened in the server's games channel (`/montana server settings`), else in the
channel of the player who completed it — in a new thread there when it can —, its
players taken out of the queue in the transaction that seats them
(`Store.seat_from_queue`), started through the service like the lobby's Start, and
announced once, mentioning them.

The queue is matched again, without anyone asking, when one of its players may have
become matchable (`QueueWatch`): when a game under way of that server ends (a seat under
way is free again, under the server's limit of games under way), and once at start-up
(a restart between an entry and its matching).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import weakref
from collections.abc import Coroutine
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

import bot.discord_app.cards as cards
from bot.core.clock.pace import PACES
from bot.core.community.matchmaking import (
    ALREADY_QUEUED,
    ANY,
    NOT_QUEUED,
    PLAYER_CHOICES,
    Table,
    entry_words,
    expiry_cut,
    find_table,
    table_found_words,
)
from bot.core.runtime import incidents
from bot.core.server import limits
from bot.core.server.server_settings import server_settings
from bot.core.store import (
    ABANDONED,
    ABSENT_WAIT,
    LOBBY,
    ChannelBusy,
    GameRow,
    QueuedPlayer,
    Seat,
    stamp_of,
)
from bot.core.wording.refusals import Refusal, game_words
from bot.discord_app.app import MontanaApp
from bot.discord_app.components import (
    LANGUAGE_CHOICES,
    PACE_CHOICES,
    Components,
    DynamicItems,
    bot_of,
    seat_of,
    service_of,
    user_t,
)
from bot.discord_app.group import answer, game_group, tracked
from bot.discord_app.guard import QUEUE_KIND, check_kind
from i18n import language_for_locale, translatable

log = logging.getLogger(__name__)

ROLE_NEEDED_TO_FIND = translatable(
    "In this server, only members with the role {role} can open a game, and a table "
    "{/game find} seats is a game opened: ask its administrators for the role, or join a "
    "game someone opened. Nothing was changed."
)


def may_open(interaction: discord.Interaction[Any], role: int | None) -> bool:
    """Whether the member may open a game where `role` (the server's `opener_role`) is
    needed: no role is, or they have it, or they may manage the server (as
    `play.lobby.check_may_open` has it for {/game new})."""
    if role is None or interaction.permissions.manage_guild:
        return True
    user = interaction.user
    return isinstance(user, discord.Member) and user.get_role(role) is not None


NORMAL_PACE = "normal"
PLAYERS_CHOICES = [app_commands.Choice(name=value, value=value) for value in PLAYER_CHOICES]

_locks: weakref.WeakKeyDictionary[MontanaApp, dict[int, asyncio.Lock]] = weakref.WeakKeyDictionary()
"""One matching at a time per server (in this process)."""


def _lock(bot: MontanaApp, guild_id: int) -> asyncio.Lock:
    return _locks.setdefault(bot, {}).setdefault(guild_id, asyncio.Lock())


def withdraw_view(label: str, answer: int) -> Components:
    """The Withdraw button of the answer to interaction `answer` (a {/game find})."""
    view = Components()
    view.add_item(WithdrawButton(answer, label))
    return view


class WithdrawButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mq:withdraw:(?P<answer>[0-9]{1,20})",
):
    """Under the asker's own entry: take them out of the server's queue. It names the
    {/game find} it answers (`guard.Kind.bound`): pressed on any other message, it is
    refused and nothing changes."""

    def __init__(self, answer: int, label: str = "Withdraw") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.danger, custom_id=f"mq:withdraw:{answer}"
            )
        )
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> WithdrawButton:
        return cls(int(match["answer"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await withdraw(interaction, self.answer)


@tracked
async def withdraw(interaction: discord.Interaction[Any], answer: int) -> None:
    check_kind(interaction, QUEUE_KIND, answer)
    t = user_t(interaction)
    guild_id = interaction.guild_id
    left = guild_id is not None and await service_of(interaction).store.leave_queue(
        guild_id, str(interaction.user.id)
    )
    text = (
        t.gettext("You left this server's queue. {/game find} puts you back in it.")
        if left
        else t.translate(NOT_QUEUED)
    )
    await interaction.response.edit_message(content=text, view=None)


@game_group.command(name="find", description="Wait in this server's queue for a game to be found")
@app_commands.describe(
    players="The player counts you accept (default: any, 2 to 4)",
    pace="fast: 2 h a turn; normal: 24 h; slow: 72 h (default normal)",
    language="The game's language (default: yours)",
)
@app_commands.choices(players=PLAYERS_CHOICES, pace=PACE_CHOICES, language=LANGUAGE_CHOICES)
@tracked
async def find(
    interaction: discord.Interaction[Any],
    players: app_commands.Choice[str] | None = None,
    pace: app_commands.Choice[str] | None = None,
    language: app_commands.Choice[str] | None = None,
) -> None:
    t = user_t(interaction)
    guild_id = interaction.guild_id
    if guild_id is None or interaction.channel_id is None:
        raise Refusal(translatable("Use this command in a server channel."))
    store = service_of(interaction).store
    role = (await server_settings(store, guild_id)).opener_role
    if not may_open(interaction, role):
        raise Refusal(ROLE_NEEDED_TO_FIND, role=f"<@&{role}>")
    user_id = str(interaction.user.id)
    moment = datetime.now(UTC)
    since = expiry_cut(moment)
    button = withdraw_view(t.pgettext("button", "Withdraw"), interaction.id)
    queued = await store.queue_entry(guild_id, user_id, since=since)
    if queued is not None:
        text = t.translate(ALREADY_QUEUED) + "\n" + entry_words(queued, t)
        await answer(interaction, text, view=button)
        # a player queued before may have finished a game since (the limit of games)
        await _match_and_tell(interaction, guild_id)
        return
    over = await limits.over_limit(store, guild_id, user_id)
    if over is not None:
        raise Refusal(over.message, **over.fields)
    seat = seat_of(interaction.user)
    entry = QueuedPlayer(
        guild_id=guild_id,
        user_id=user_id,
        name=seat.name,
        counts=PLAYER_CHOICES[players.value if players is not None else ANY],
        pace=pace.value if pace is not None else NORMAL_PACE,
        language=language.value
        if language is not None
        else language_for_locale(interaction.locale),
        channel_id=interaction.channel_id,
        queued_at=stamp_of(moment),
    )
    if not await store.join_queue(entry, since=since):
        queued = await store.queue_entry(guild_id, user_id, since=since)
        text = t.translate(ALREADY_QUEUED) + ("\n" + entry_words(queued, t) if queued else "")
        await answer(interaction, text, view=button)
        return
    await answer(interaction, entry_words(entry, t), view=button)
    await _match_and_tell(interaction, guild_id)


async def _match_and_tell(interaction: discord.Interaction[Any], guild_id: int) -> None:
    """Match the server's queue; an asker seated by it is told where their game plays
    (instead of reading that they wait)."""
    for row in await match_queue(bot_of(interaction), guild_id):
        if row.has_player(str(interaction.user.id)) and row.status != ABANDONED:
            text = user_t(interaction).gettext(
                "A table was found at once: your game has started in {where}.",
                where=f"<#{row.play_channel_id}>",
            )
            await interaction.edit_original_response(content=text, view=None)


async def match_queue(bot: MontanaApp, guild_id: int) -> list[GameRow]:
    """Open every table the server's queue makes now (`bot`: the `MontanaApp`); the
    games started."""
    opened: list[GameRow] = []
    async with _lock(bot, guild_id):
        while True:
            store = bot.store
            moment = datetime.now(UTC)
            queue = await store.queued_in(guild_id, since=expiry_cut(moment))
            chosen = await limits.limits_of(store, guild_id)
            at_limit = set()
            for entry in queue:
                under_way = await store.games_under_way_of(guild_id, entry.user_id)
                if limits.check_active_games(under_way, chosen) is not None:
                    at_limit.add(entry.user_id)
            table = find_table(queue, at=moment, at_limit=at_limit)
            if table is None:
                return opened
            lost = await _without_the_right(bot, guild_id, table)
            if lost is None:
                return opened
            if lost:
                # queued before the server's opener role, or without it since: a table
                # found is a game opened, so they leave the queue (`find` says why)
                for user_id in lost:
                    await store.leave_queue(guild_id, user_id)
                log.info("queue of %s: %d without the opener role left it", guild_id, len(lost))
                continue
            row = await open_table(bot, guild_id, table, moment)
            if row is None:
                return opened
            opened.append(row)


async def _without_the_right(bot: MontanaApp, guild_id: int, table: Table) -> list[str] | None:
    """The table's players who may not open a game here now (`may_open`: the server's
    `opener_role` is set and they have neither it nor Manage Server, or they left the
    server), read from Discord when the table is found; None: Discord could not say
    (the table waits for the next matching)."""
    role = (await server_settings(bot.store, guild_id)).opener_role
    if role is None:
        return []
    guild = bot.get_guild(guild_id)
    if guild is None:
        return None
    lost: list[str] = []
    for player in table.players:
        try:
            member = await guild.fetch_member(int(player.user_id))
        except discord.NotFound:
            lost.append(player.user_id)
            continue
        except discord.HTTPException as error:
            log.warning("queue of %s: member %s unread: %s", guild_id, player.user_id, error)
            return None
        if not member.guild_permissions.manage_guild and member.get_role(role) is None:
            lost.append(player.user_id)
    return lost


class QueueWatch:
    """Matches a server's queue when a queued player may have become matchable without
    anyone running `/montana game find`: a game under way of that server ended
    (`GameService.after_game_over`), its limit of games under way changed
    (`look_again`, by `/montana server settings`), or the bot started (`start`: every
    server of its shards with a queue). Each in the background: the move, vote, abandon
    or setting that made it possible is not kept waiting for the table."""

    def __init__(self, bot: MontanaApp) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[None]] = set()

    async def game_over(self, row: GameRow) -> None:
        if row.guild_id is not None:
            self.look_again(row.guild_id)

    def look_again(self, guild_id: int) -> None:
        """Match the server's queue in the background."""
        self._spawn(self._match(guild_id))

    def start(self) -> None:
        self._spawn(self._match_every_queue())

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _match_every_queue(self) -> None:
        await self.bot.wait_until_ready()
        for guild_id in await self.bot.store.queued_guilds(since=expiry_cut(datetime.now(UTC))):
            await self._match(guild_id)

    async def _match(self, guild_id: int) -> None:
        try:
            opened = await match_queue(self.bot, guild_id)
        except Exception as error:  # the next game over, find or start tries again
            incidents.record(log, error, f"queue of {guild_id}: matching failed")
            return
        if opened:
            log.info("queue of %s: %d table(s) found without a find", guild_id, len(opened))


async def open_table(
    bot: MontanaApp, guild_id: int, table: Table, moment: datetime
) -> GameRow | None:
    """Seat and start `table`'s game: the game's row after it (abandoned if the start
    was refused: its players left the queue with it), or None if it could not be
    opened (its players stay queued)."""
    service = bot.service
    hours = {"turn_hours": bot.settings.turn_hours, "auction_hours": bot.settings.auction_hours}
    defaults = await server_settings(service.store, guild_id, **hours)
    channel_id = defaults.games_channel or table.last_queued.channel_id
    seats = tuple(Seat(p.user_id, p.name) for p in table.players)
    thread = await _new_thread(bot, channel_id, seats)
    if thread is not None and thread.parent_id is not None:
        channel_id = thread.parent_id  # asked in a thread: the game's own beside it
    turn_seconds, auction_seconds = PACES[table.pace].seconds
    try:
        row = await service.store.seat_from_queue(
            guild_id,
            seats,
            since=expiry_cut(moment),
            channel_id=thread.id if thread is not None else channel_id,
            thread_id=thread.id if thread is not None else None,
            language=table.language,
            turn_seconds=turn_seconds,
            auction_seconds=auction_seconds,
        )
    except ChannelBusy as busy:
        log.warning("queue of %s: channel %s has game %s", guild_id, channel_id, busy.game_id)
        row = None
    if row is None:
        log.info("queue of %s: the table was not seated; its players stay queued", guild_id)
        if thread is not None:
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
        return None
    log.info("game %s: opened from the queue of %s", row.id, guild_id)
    try:
        if defaults.absent != ABSENT_WAIT:
            row = await bot.ai.set_absent(row, defaults.absent)
        row = await service.check_start(row, row.creator_id)
        outcome = await service.start(row, row.creator_id)
    except Refusal as refusal:
        log.warning("game %s: the queue's table did not start: %s", row.id, refusal)
        await service.store.set_status(row.id, ABANDONED, only_from=(LOBBY,))
        return replace(row, status=ABANDONED)  # its players left the queue with it
    where = f"<#{outcome.row.play_channel_id}>"
    text = table_found_words(table, where, game_words(outcome.row))
    # a player inside their quiet hours is named but not pinged (`bot.core.clock.hours`); the
    # game's first prompt owes the one it awaits a ping for the end of them
    awake = [
        cards.user_ref(seat.user_id)
        for seat in seats
        if await service.hours.quiet_end(seat.user_id, moment) is None
    ]
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=awake)
    try:
        await bot.get_partial_messageable(channel_id).send(text, allowed_mentions=mentions)
    except discord.HTTPException as error:
        log.warning("game %s: could not announce the queue's table: %s", row.id, error)
    return outcome.row


async def _new_thread(
    bot: MontanaApp, channel_id: int, seats: tuple[Seat, ...]
) -> discord.Thread | None:
    """A public thread for the game in `channel_id` (in its parent, for a thread); None:
    the game plays in the channel itself (not a text channel, or Discord refused)."""
    try:
        channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        if not isinstance(parent, discord.TextChannel):
            return None
        return await parent.create_thread(
            name=("Montana — " + ", ".join(s.name for s in seats))[:100],
            auto_archive_duration=10080,
            type=discord.ChannelType.public_thread,
        )
    except discord.HTTPException as error:
        log.warning(
            "channel %s: could not open a thread for the queue's table: %s", channel_id, error
        )
        return None


DYNAMIC_ITEMS: DynamicItems = (WithdrawButton,)

__all__ = ["DYNAMIC_ITEMS", "QueueWatch", "WithdrawButton", "match_queue", "open_table"]
