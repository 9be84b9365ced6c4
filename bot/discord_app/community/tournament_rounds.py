"""What runs a tournament's rounds (issue 40), without anyone asking: `advance`, one pass
at a time per tournament in a process, carries it as far as it goes now.

A round's seating is recorded once (`Store.record_round`), then each table is opened in
a thread of the server's games channel like matchmaking's (else the tournament's
channel), seated in one transaction (`Store.open_tournament_table`, once per table),
started through the service without the lobby's checks (a member's limit of games under
way never refuses a tournament table; the game counts for their later lobbies and
finds), and announced once, mentioning its players. A table left in its lobby (a crash
between seating and starting) is started by the next pass. The next round is seated
when every game of the round has ended (`TournamentWatch`: a tournament game ends, and
once at start-up); when there is none, the final standing and the champion are owed
once through the outbox (`Store.finish_tournament`, said by `TournamentEndSender`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.core.clock.pace import PACES
from bot.core.community import tournaments as core
from bot.core.community.tournament_pairing import Standing
from bot.core.delivery.outcome import Ticket
from bot.core.runtime import incidents
from bot.core.server.server_settings import server_settings
from bot.core.store import ABSENT_WAIT, LOBBY, ChannelBusy, GameRow, Owed, Seat, stamp_of
from bot.core.store.tournaments import (
    DONE,
    RUNNING,
    TournamentRecord,
    TournamentRow,
    TournamentTable,
)
from bot.core.wording.refusals import Refusal
from bot.discord_app.app import MontanaApp
from bot.discord_app.components import delivery_problem
from i18n import Translator, translatable, translator
from rules import Game

log = logging.getLogger(__name__)

CANNOT_POST_END = translatable(
    "I cannot post the tournament's final standing in {where} (deleted, or a permission "
    "is missing)."
)


_locks: weakref.WeakKeyDictionary[MontanaApp, dict[int, asyncio.Lock]] = weakref.WeakKeyDictionary()
"""One pass at a time per tournament (in this process; the store keeps two processes
from opening a table twice)."""


def _lock(bot: MontanaApp, tournament_id: int) -> asyncio.Lock:
    return _locks.setdefault(bot, {}).setdefault(tournament_id, asyncio.Lock())


def tournament_t(row: TournamentRow) -> Translator:
    """The tournament's language: what everyone reads about it."""
    return translator(row.language)


# ------------------------------------------------------------------ the words


def table_words(
    row: TournamentRow, number: int, table: int, seats: tuple[Seat, ...], where: str
) -> str:
    return tournament_t(row).gettext(
        "🏆 **{name}**, round {round}, table {table}: {players}. Your game has started in "
        "{where}. Good game!",
        name=row.name,
        round=number,
        table=table,
        players=", ".join(f"<@{s.user_id}>" for s in seats),
        where=where,
    )


def round_words(row: TournamentRow, number: int, tables: int, byes: tuple[str, ...]) -> str:
    t = tournament_t(row)
    text = t.ngettext(
        "🏆 **{name}**: round {round} is seated, {n} table.",
        "🏆 **{name}**: round {round} is seated, {n} tables.",
        tables,
        name=row.name,
        round=number,
    )
    if byes:
        text += " " + t.gettext(
            "A bye this round for {players}.", players=", ".join(f"<@{b}>" for b in byes)
        )
    return text


def standing_lines(record: TournamentRecord, lines: list[Standing], t: Translator) -> str:
    names = {e.user_id: e.name for e in record.entrants}
    body = [core.standings_header(t)] + [
        core.standing_line(s, names.get(s.user_id, s.user_id)) for s in lines
    ]
    return "```\n" + "\n".join(body) + "\n```"


def final_words(record: TournamentRecord, winner: str | None, lines: list[Standing]) -> str:
    t = tournament_t(record.tournament)
    head = (
        t.gettext(
            "🏆 **{name}** is over. Champion: <@{winner}>! Congratulations.",
            name=record.tournament.name,
            winner=winner,
        )
        if winner is not None
        else t.gettext("🏆 **{name}** is over.", name=record.tournament.name)
    )
    return head + "\n" + standing_lines(record, lines[:20], t)


# ------------------------------------------------------------------ the rounds


async def advance(bot: MontanaApp, tournament_id: int) -> None:
    """Carry the tournament on as far as it goes now: open and start the current
    round's tables, seat the next round once every game of the current one has ended,
    or finish it. Safe to run again at any time, in any process."""
    async with _lock(bot, tournament_id):
        store = bot.store
        while True:
            record = await store.tournament_record(tournament_id)
            if record is None or record.tournament.status != RUNNING:
                return
            current = record.tables.get(record.last_round, ())
            waiting = False
            for table in current:
                if not await _carry_table(bot, record, table):
                    waiting = True
            if waiting:
                return
            record = await store.tournament_record(tournament_id)
            if record is None:
                return
            if any(t.outcome is None for t in record.tables.get(record.last_round, ())):
                return
            seating = core.next_seating(record)
            if seating is None or not seating.tables:
                await _finish(bot, record, core.champion_of(record))
                return
            if seating.number != record.last_round + 1:
                log.error(
                    "tournament %s: round %s seated after round %s; not carried on",
                    tournament_id,
                    seating.number,
                    record.last_round,
                )
                return
            if await store.record_round(
                tournament_id, seating.number, seating.tables, seating.byes
            ):
                text = round_words(
                    record.tournament, seating.number, len(seating.tables), seating.byes
                )
                await _say(bot, record.tournament.channel_id, text, seating.byes)


async def _carry_table(bot: MontanaApp, record: TournamentRecord, table: TournamentTable) -> bool:
    """Open, start, or count an abandoned table; whether it is done with (its game
    ended), else it is under way or could not be opened now."""
    if table.outcome is not None:
        return True
    if table.game_id is None:
        await _open(bot, record, table)
        return False
    if table.game_status == LOBBY:
        row = await bot.store.get(table.game_id)
        if row is not None:
            await _start(bot, record.tournament, table, row)
        return False
    if core.is_abandoned(table.game_status):
        await bot.store.set_table_outcome(table.game_id, core.abandoned_outcome(table.players))
        return True
    return False


async def _open(bot: MontanaApp, record: TournamentRecord, table: TournamentTable) -> None:
    row = record.tournament
    names = {e.user_id: e.name for e in record.entrants}
    seats = tuple(Seat(p, names.get(p, p)) for p in table.players)
    hours = {"turn_hours": bot.settings.turn_hours, "auction_hours": bot.settings.auction_hours}
    defaults = await server_settings(bot.store, row.guild_id, **hours)
    channel_id = defaults.games_channel or row.channel_id
    title = f"{row.name} — {table.round}.{table.number}: " + ", ".join(s.name for s in seats)
    thread = await _new_thread(bot, channel_id, title)
    if thread is not None and thread.parent_id is not None:
        channel_id = thread.parent_id
    turn_seconds, auction_seconds = PACES[row.pace].seconds
    try:
        game = await bot.store.open_tournament_table(
            row.guild_id,
            row.id,
            table.round,
            table.number,
            seats,
            channel_id=thread.id if thread is not None else channel_id,
            thread_id=thread.id if thread is not None else None,
            language=row.language,
            turn_seconds=turn_seconds,
            auction_seconds=auction_seconds,
        )
    except ChannelBusy as busy:
        log.warning("tournament %s: channel %s has game %s", row.id, channel_id, busy.game_id)
        game = None
    if game is None:
        # opened by another pass meanwhile (or the channel was busy): no second table
        if thread is not None:
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
        return
    log.info("game %s: table %s.%s of tournament %s", game.id, table.round, table.number, row.id)
    if defaults.absent != ABSENT_WAIT:
        game = await bot.ai.set_absent(game, defaults.absent)
    await _start(bot, row, table, game)


async def _start(
    bot: MontanaApp, row: TournamentRow, table: TournamentTable, game: GameRow
) -> None:
    """Start a table's game without the lobby's checks (a member's limit of games under
    way does not refuse a tournament table) and announce it once."""
    try:
        outcome = await bot.service.start(game, game.creator_id)
    except Refusal as refusal:  # started by another process meanwhile
        log.info("game %s: tournament table not started here: %s", game.id, refusal)
        return
    where = f"<#{outcome.row.play_channel_id}>"
    text = table_words(row, table.round, table.number, outcome.row.players, where)
    users = [s.user_id for s in outcome.row.players]
    await _say(bot, outcome.row.channel_id, text, users)


async def _say(bot: MontanaApp, channel_id: int, text: str, users: Any) -> None:
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(int(u)) for u in users]
    )
    try:
        await bot.get_partial_messageable(channel_id).send(text[:2000], allowed_mentions=mentions)
    except discord.HTTPException as error:
        log.warning("channel %s: tournament message not sent: %s", channel_id, error)


async def _new_thread(bot: MontanaApp, channel_id: int, title: str) -> discord.Thread | None:
    try:
        channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        if not isinstance(parent, discord.TextChannel):
            return None
        return await parent.create_thread(
            name=("Montana — " + title)[:100],
            auto_archive_duration=10080,
            type=discord.ChannelType.public_thread,
        )
    except discord.HTTPException as error:
        log.warning("channel %s: no thread for a tournament table: %s", channel_id, error)
        return None


async def _finish(bot: MontanaApp, record: TournamentRecord, winner: str | None) -> None:
    """The tournament over: its final standing owed once through the outbox, on its
    last game (a tournament without a game ends unsaid)."""
    games = [t.game_id for ts in record.tables.values() for t in ts if t.game_id is not None]
    row = record.tournament
    if not games:
        await bot.store.set_tournament_status(
            row.id, DONE, only_from=(RUNNING,), at=stamp_of(datetime.now(UTC))
        )
        return
    body = {"tournament_id": row.id, "channel_id": row.channel_id}
    if await bot.store.finish_tournament(row.id, winner, max(games), body):
        log.info("tournament %s: over, champion %s", row.id, winner)
        await bot.service.delivery.deliver(max(games))


class TournamentEndSender:
    """Says a tournament's final standing and champion (`Delivery.senders[TOURNAMENT_END]`)
    in the tournament's channel, once (on a retry, a message already posted is found)."""

    def __init__(self, client: discord.Client, store: Any) -> None:
        self.client = client
        self.store = store

    async def __call__(self, owed: Owed, row: GameRow, game: Game, ticket: Ticket) -> int | None:
        record = await self.store.tournament_record(int(owed.body["tournament_id"]))
        if record is None:
            return None
        channel_id = int(owed.body["channel_id"])
        text = final_words(record, record.tournament.champion_id, core.standings_of(record))
        channel = self.client.get_partial_messageable(channel_id, guild_id=row.guild_id)
        try:
            if ticket.retry:
                since = discord.Object(
                    discord.utils.time_snowflake(ticket.since - timedelta(seconds=5))
                )
                me = self.client.user
                async for message in channel.history(limit=50, after=since):
                    if (
                        me is not None
                        and message.author.id == me.id
                        and message.content.startswith(text[:100])
                    ):
                        return message.id
            users = [] if record.tournament.champion_id is None else [record.tournament.champion_id]
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(int(u)) for u in users]
            )
            message = await channel.send(text[:2000], allowed_mentions=mentions, nonce=ticket.key)
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, CANNOT_POST_END, where=f"<#{channel_id}>") from error
        return message.id


class TournamentWatch:
    """Carries tournaments on without anyone asking: when one of their games ends
    (`GameService.after_game_over`) and once at start-up (a restart in the middle of
    seating a round finishes it). Each in the background."""

    def __init__(self, bot: MontanaApp) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[None]] = set()

    async def game_over(self, row: GameRow) -> None:
        if row.guild_id is None:
            return
        table = await self.bot.store.tournament_of_game(row.id)
        if table is not None:
            self._spawn(self._advance(table[0]))

    def start(self) -> None:
        self._spawn(self._advance_all())

    async def idle(self) -> None:
        """Wait for the passes in flight (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advance_all(self) -> None:
        await self.bot.wait_until_ready()
        for tournament_id in await self.bot.store.running_tournaments():
            await self._advance(tournament_id)

    async def _advance(self, tournament_id: int) -> None:
        try:
            await advance(self.bot, tournament_id)
        except Exception as error:  # the next game's end or start-up tries again
            incidents.record(log, error, f"tournament {tournament_id}: the pass failed")


__all__ = [
    "TournamentEndSender",
    "TournamentWatch",
    "advance",
    "final_words",
    "standing_lines",
    "tournament_t",
]
