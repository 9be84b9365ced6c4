"""Tournaments a server runs itself (issue 40): the top-level command
`/montana-tournament` (`/montana` is at Discord's size limit) — `new`, `start`,
`standings`, `drop`, `cancel` — the sign-up message's **Join**/**Leave** buttons
(`mt:join:<id>`, `mt:leave:<id>`, restart-proof), and what runs the rounds.

Organising (`new`, `start`, `cancel`, dropping someone else) needs what opening a game
needs on the server (its opener role, or Manage Server: `matchmaking.may_open`); `start`,
`cancel` and dropping another player are the organiser's or a manager's.

The rounds run themselves (`advance`, one pass at a time per tournament in a process):
a round's seating is recorded once (`Store.record_round`), then each table is opened in
a thread of the server's games channel like matchmaking's (else the tournament's
channel), seated in one transaction (`Store.open_tournament_table`, once per table),
started through the service without the lobby's checks (a member's limit of games under
way never refuses a tournament table; the game counts for their later lobbies and
finds), and announced once, mentioning its players. A table left in its lobby (a crash
between seating and starting) is started by the next pass. The next round is seated
when every game of the round has ended (`TournamentWatch`: a game of the server ends,
and once at start-up); when there is none, the final standing and the champion are owed
once through the outbox (`Store.finish_tournament`, said by `TournamentEndSender`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import weakref
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.core.clock.pace import PACES
from bot.core.community import tournaments as core
from bot.core.community.matchmaking import pace_in_words
from bot.core.community.tournament_pairing import FORMATS, Standing
from bot.core.delivery.outcome import Ticket
from bot.core.runtime import incidents
from bot.core.server.server_settings import server_settings
from bot.core.store import (
    ABSENT_WAIT,
    LOBBY,
    ChannelBusy,
    GameRow,
    Owed,
    Seat,
    moment_of,
    stamp_of,
)
from bot.core.store.tournaments import (
    ALREADY,
    CANCELLED,
    DONE,
    FULL,
    JOINED,
    RUNNING,
    SIGNUP,
    TournamentRecord,
    TournamentRow,
    TournamentTable,
)
from bot.core.wording.refusals import Refusal
from bot.discord_app.app import MontanaApp
from bot.discord_app.community.matchmaking import may_open
from bot.discord_app.community.stats import answer_press
from bot.discord_app.components import (
    LANGUAGE_CHOICES,
    PACE_CHOICES,
    DynamicItems,
    bot_of,
    delivery_problem,
    language_name,
    seat_of,
    user_t,
)
from bot.discord_app.group import NO_PINGS, answer, tracked
from i18n import Translator, language_for_locale, translatable, translator
from i18n.commands import TOURNAMENT_COMMAND
from rules import Game

log = logging.getLogger(__name__)

tournament_group = app_commands.Group(
    name=TOURNAMENT_COMMAND,
    description="Tournaments this server runs: sign-up, rounds, standings",
    guild_only=True,
)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="groups, then a final table", value="groups"),
    app_commands.Choice(name="knockout by tables", value="knockout"),
]
TABLE_CHOICES = [app_commands.Choice(name=value, value=value) for value in core.TABLE_CHOICES]
NOT_FOUND = translatable(
    "There is no such tournament on this server: choose one from the list. Nothing was changed."
)
ORGANISER_ONLY = translatable(
    "Only the tournament's organiser, or a member who may manage the server, can do "
    "that. Nothing was changed."
)
ROLE_NEEDED = translatable(
    "In this server, only members with the role {role} (or who may manage the server) "
    "can organise a tournament. Nothing was changed."
)

_locks: weakref.WeakKeyDictionary[MontanaApp, dict[int, asyncio.Lock]] = weakref.WeakKeyDictionary()
"""One pass at a time per tournament (in this process; the store keeps two processes
from opening a table twice)."""


def _lock(bot: MontanaApp, tournament_id: int) -> asyncio.Lock:
    return _locks.setdefault(bot, {}).setdefault(tournament_id, asyncio.Lock())


def _t(row: TournamentRow) -> Translator:
    return translator(row.language)


# ------------------------------------------------------------------ the words


def signup_words(record: TournamentRecord, t: Translator) -> str:
    row = record.tournament
    head = t.gettext(
        "🏆 **{name}** — a Montana tournament: {format}; tables of {sizes} players, pace "
        "{pace}, language: {language}. Organised by <@{organiser}>.",
        name=row.name,
        format=core.format_words(row, t),
        sizes=core.sizes_words(row.table_sizes),
        pace=pace_in_words(row.pace, t),
        language=language_name(row.language),
        organiser=row.organiser_id,
    )
    names = ", ".join(e.name for e in record.entrants) or "—"
    if row.status == SIGNUP:
        until = (
            t.gettext(
                "Sign-up closes <t:{when}:R>.",
                when=int(moment_of(row.signup_until).timestamp()),
            )
            if row.signup_until is not None
            else t.gettext("Sign-up is open until the organiser starts it.")
        )
        size = (
            t.gettext("{n} of {most} places taken:", n=len(record.entrants), most=row.max_players)
            if row.max_players is not None
            else t.ngettext("{n} player signed up:", "{n} players signed up:", len(record.entrants))
        )
        return f"{head}\n{until} {size} {names}"
    if row.status == CANCELLED:
        return head + "\n" + t.gettext("This tournament was cancelled.")
    return (
        head
        + "\n"
        + t.ngettext(
            "Sign-up is closed: {n} player takes part: {names}. Follow it with "
            "{/montana-tournament standings}.",
            "Sign-up is closed: {n} players take part: {names}. Follow it with "
            "{/montana-tournament standings}.",
            len(record.entrants),
            names=names,
        )
    )


def table_words(
    row: TournamentRow, number: int, table: int, seats: tuple[Seat, ...], where: str
) -> str:
    return _t(row).gettext(
        "🏆 **{name}**, round {round}, table {table}: {players}. Your game has started in "
        "{where}. Good game!",
        name=row.name,
        round=number,
        table=table,
        players=", ".join(f"<@{s.user_id}>" for s in seats),
        where=where,
    )


def round_words(row: TournamentRow, number: int, tables: int, byes: tuple[str, ...]) -> str:
    t = _t(row)
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
    t = _t(record.tournament)
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


# ------------------------------------------------------------------ what is read


async def tournament_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The server's tournaments (sign-up open or under way first, then over) whose name
    contains what was typed."""
    if interaction.guild_id is None:
        return []
    rows = await bot_of(interaction).store.tournaments_of(interaction.guild_id)
    rows.sort(key=lambda r: (r.status == DONE, -r.id))
    typed = current.casefold()
    return [
        app_commands.Choice(name=f"{r.name} (#{r.id})"[:100], value=str(r.id))
        for r in rows
        if typed in r.name.casefold()
    ][:25]


async def _chosen(interaction: discord.Interaction[Any], value: str) -> TournamentRecord:
    guild_id = interaction.guild_id
    digits = value.strip().lstrip("#")
    if guild_id is None or not digits.isdigit() or len(digits) > 18:
        raise Refusal(NOT_FOUND)
    record = await bot_of(interaction).store.tournament_record(int(digits))
    if record is None or record.tournament.guild_id != guild_id:
        raise Refusal(NOT_FOUND)
    return record


def _organises(interaction: discord.Interaction[Any], row: TournamentRow) -> bool:
    return str(interaction.user.id) == row.organiser_id or interaction.permissions.manage_guild


# ------------------------------------------------------------------ the commands


@tournament_group.command(name="new", description="Organise a tournament: its sign-up opens here")
@app_commands.describe(
    name="The tournament's name",
    format="Swiss (rounds by standings), groups then a final table, or knockout by tables",
    tables="Players per table (default 3-4)",
    rounds="Swiss only: the number of rounds (default 3)",
    advance="Knockout only: how many of each table go on (default 1)",
    group_size="Groups only: players per group (default the largest table)",
    pace="fast: 2 h a turn; normal: 24 h; slow: 72 h (default normal)",
    language="The games' language (default: yours)",
    signup_hours="Sign-up closes after this many hours (default: when you start it)",
    size="The most players who can sign up (default: no limit)",
)
@app_commands.choices(
    format=FORMAT_CHOICES, tables=TABLE_CHOICES, pace=PACE_CHOICES, language=LANGUAGE_CHOICES
)
@tracked
async def new(
    interaction: discord.Interaction[Any],
    name: str,
    format: app_commands.Choice[str] | None = None,
    tables: app_commands.Choice[str] | None = None,
    rounds: int | None = None,
    advance: int | None = None,
    group_size: int | None = None,
    pace: app_commands.Choice[str] | None = None,
    language: app_commands.Choice[str] | None = None,
    signup_hours: int | None = None,
    size: int | None = None,
) -> None:
    guild_id = interaction.guild_id
    if guild_id is None or interaction.channel_id is None:
        raise Refusal(translatable("Use this command in a server channel."))
    store = bot_of(interaction).store
    role = (await server_settings(store, guild_id)).opener_role
    if not may_open(interaction, role):
        raise Refusal(ROLE_NEEDED, role=f"<@&{role}>")
    chosen_format = format.value if format is not None else FORMATS[0]
    options = core.Options(
        name=name,
        format=chosen_format,
        tables=tables.value if tables is not None else "3-4",
        rounds=rounds,
        advance=advance,
        group_size=group_size,
        signup_hours=signup_hours,
        size=size,
    )
    plan = core.plan_of(options)
    moment = datetime.now(UTC)
    row = TournamentRow(
        id=0,
        guild_id=guild_id,
        name=name.strip(),
        format=plan.format,
        table_sizes=plan.table_sizes,
        rounds=plan.rounds,
        advance=plan.advance,
        group_size=plan.group_size,
        pace=pace.value if pace is not None else "normal",
        language=language.value
        if language is not None
        else language_for_locale(interaction.locale),
        signup_until=core.signup_until(options, moment),
        max_players=size,
        status=SIGNUP,
        organiser_id=str(interaction.user.id),
        channel_id=interaction.channel_id,
        message_id=None,
        created_at=stamp_of(moment),
        started_at=None,
        ended_at=None,
        champion_id=None,
    )
    tournament_id = await store.create_tournament(row)
    record = await store.tournament_record(tournament_id)
    assert record is not None
    t = _t(record.tournament)
    await interaction.response.send_message(
        signup_words(record, t), view=signup_view(tournament_id, t), allowed_mentions=NO_PINGS
    )
    with contextlib.suppress(discord.HTTPException):
        message = await interaction.original_response()
        await store.set_tournament_message(tournament_id, message.id)


@tournament_group.command(name="start", description="Close the sign-up and seat the first round")
@app_commands.describe(tournament="The tournament")
@app_commands.autocomplete(tournament=tournament_choices)
@tracked
async def start(interaction: discord.Interaction[Any], tournament: str) -> None:
    record = await _chosen(interaction, tournament)
    row = record.tournament
    t = user_t(interaction)
    if not _organises(interaction, row):
        raise Refusal(ORGANISER_ONLY)
    if row.status == CANCELLED:
        raise Refusal(translatable("This tournament was cancelled."))
    if row.status != SIGNUP:
        raise Refusal(translatable("This tournament has started already. Nothing was changed."))
    least = core.least_entrants(core.plan_from(row))
    if len(record.entrants) < least:
        raise Refusal(
            translatable(
                "This tournament needs at least {least} players to start; {n} signed up. "
                "Nothing was changed."
            ),
            least=least,
            n=len(record.entrants),
        )
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = bot_of(interaction)
    moment = stamp_of(datetime.now(UTC))
    if not await bot.store.set_tournament_status(row.id, RUNNING, only_from=(SIGNUP,), at=moment):
        raise Refusal(translatable("This tournament has started already. Nothing was changed."))
    await _refresh_signup(bot, row.id)
    await advance(bot, row.id)
    await answer(
        interaction,
        t.gettext("The tournament has started: the first round's tables are open."),
    )


@tournament_group.command(name="standings", description="A tournament's standings")
@app_commands.describe(tournament="The tournament")
@app_commands.autocomplete(tournament=tournament_choices)
@tracked
async def standings_command(interaction: discord.Interaction[Any], tournament: str) -> None:
    record = await _chosen(interaction, tournament)
    t = user_t(interaction)
    await interaction.response.send_message(
        embed=standings_embed(record, t), ephemeral=True, allowed_mentions=NO_PINGS
    )


def standings_embed(record: TournamentRecord, t: Translator) -> discord.Embed:
    row = record.tournament
    embed = discord.Embed(
        title=t.gettext("🏆 {name} — standings", name=row.name),
        colour=discord.Colour.from_rgb(40, 100, 215),
    )
    if row.status == SIGNUP:
        embed.description = t.gettext("Sign-up is open: no round has been played yet.")
        return embed
    lines = core.standings_of(record)
    embed.description = standing_lines(record, lines, t)[:4096]
    footer = core.tie_breaks_words(t)
    if row.status == DONE and row.champion_id is not None:
        names = {e.user_id: e.name for e in record.entrants}
        footer = (
            t.gettext("Champion: {name}.", name=names.get(row.champion_id, row.champion_id))
            + " "
            + footer
        )
    elif row.status == RUNNING:
        footer = t.gettext("Round {n} under way.", n=record.last_round) + " " + footer
    embed.set_footer(text=footer[:2048])
    return embed


@tournament_group.command(name="drop", description="Drop out of a tournament (or drop a player)")
@app_commands.describe(
    tournament="The tournament",
    player="The organiser: a player to drop (default: yourself)",
)
@app_commands.autocomplete(tournament=tournament_choices)
@tracked
async def drop(
    interaction: discord.Interaction[Any], tournament: str, player: discord.User | None = None
) -> None:
    record = await _chosen(interaction, tournament)
    row = record.tournament
    t = user_t(interaction)
    who = str((player or interaction.user).id)
    if who != str(interaction.user.id) and not _organises(interaction, row):
        raise Refusal(ORGANISER_ONLY)
    bot = bot_of(interaction)
    if row.status == SIGNUP:
        if not await bot.store.leave_tournament(row.id, who):
            raise Refusal(
                translatable("{player} is not signed up for this tournament. Nothing was changed."),
                player=f"<@{who}>",
            )
        await _refresh_signup(bot, row.id)
    elif not await bot.store.drop_out(row.id, who, stamp_of(datetime.now(UTC))):
        raise Refusal(
            translatable(
                "{player} is not playing in this tournament (not an entrant, dropped out "
                "already, or it is over). Nothing was changed."
            ),
            player=f"<@{who}>",
        )
    await answer(
        interaction,
        t.gettext(
            "{player} dropped out of {name}: not seated in its next rounds. Games under "
            "way go on, played by the server's absence policy when they are away.",
            player=f"<@{who}>",
            name=row.name,
        ),
        allowed_mentions=NO_PINGS,
    )
    # a drop may let a knockout or a round with nothing left to play move on
    await advance(bot, row.id)


@tournament_group.command(name="cancel", description="Call a tournament off")
@app_commands.describe(tournament="The tournament")
@app_commands.autocomplete(tournament=tournament_choices)
@tracked
async def cancel(interaction: discord.Interaction[Any], tournament: str) -> None:
    record = await _chosen(interaction, tournament)
    row = record.tournament
    if not _organises(interaction, row):
        raise Refusal(ORGANISER_ONLY)
    bot = bot_of(interaction)
    moment = stamp_of(datetime.now(UTC))
    if not await bot.store.set_tournament_status(
        row.id, CANCELLED, only_from=(SIGNUP, RUNNING), at=moment
    ):
        raise Refusal(translatable("This tournament is over already. Nothing was changed."))
    await _refresh_signup(bot, row.id)
    await answer(
        interaction,
        user_t(interaction).gettext(
            "{name} is cancelled: no round will be seated. Its games under way go on as "
            "ordinary games (still rated).",
            name=row.name,
        ),
    )


# ------------------------------------------------------------------ the sign-up


def signup_view(tournament_id: int, t: Translator) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(tournament_id, t.pgettext("button", "Join")))
    view.add_item(LeaveButton(tournament_id, t.pgettext("button", "Leave")))
    return view


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mt:join:(?P<id>[0-9]{1,18})",
):
    def __init__(self, tournament_id: int, label: str = "Join") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.success, custom_id=f"mt:join:{tournament_id}"
            )
        )
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> JoinButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer_press(interaction, lambda: _join(interaction, self.tournament_id))


class LeaveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mt:leave:(?P<id>[0-9]{1,18})",
):
    def __init__(self, tournament_id: int, label: str = "Leave") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"mt:leave:{tournament_id}",
            )
        )
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaveButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer_press(interaction, lambda: _leave(interaction, self.tournament_id))


async def _join(interaction: discord.Interaction[Any], tournament_id: int) -> None:
    bot = bot_of(interaction)
    seat = seat_of(interaction.user)
    said = await bot.store.join_tournament(tournament_id, seat, stamp_of(datetime.now(UTC)))
    if said == ALREADY:
        raise Refusal(translatable("You are signed up already."))
    if said == FULL:
        raise Refusal(translatable("This tournament is full. Nothing was changed."))
    if said != JOINED:
        raise Refusal(
            translatable("The sign-up of this tournament is closed. Nothing was changed.")
        )
    await _edit_signup(interaction, tournament_id)


async def _leave(interaction: discord.Interaction[Any], tournament_id: int) -> None:
    if not await bot_of(interaction).store.leave_tournament(
        tournament_id, str(interaction.user.id)
    ):
        raise Refusal(
            translatable(
                "You are not signed up, or the sign-up is closed (then {/montana-tournament "
                "drop} drops you out). Nothing was changed."
            )
        )
    await _edit_signup(interaction, tournament_id)


async def _edit_signup(interaction: discord.Interaction[Any], tournament_id: int) -> None:
    record = await bot_of(interaction).store.tournament_record(tournament_id)
    assert record is not None
    t = _t(record.tournament)
    await interaction.response.edit_message(
        content=signup_words(record, t), view=signup_view(tournament_id, t)
    )


async def _refresh_signup(bot: MontanaApp, tournament_id: int) -> None:
    """The sign-up message as the tournament now stands (its buttons gone once closed)."""
    record = await bot.store.tournament_record(tournament_id)
    if record is None or record.tournament.message_id is None:
        return
    row, message_id = record.tournament, record.tournament.message_id
    t = _t(row)
    view = signup_view(row.id, t) if row.status == SIGNUP else None
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(message_id)
    try:
        await message.edit(content=signup_words(record, t), view=view)
    except discord.HTTPException as error:
        log.info("tournament %s: sign-up message not updated: %s", row.id, error)


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


CANNOT_POST_END = translatable(
    "I cannot post the tournament's final standing in {where} (deleted, or a permission "
    "is missing)."
)


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


DYNAMIC_ITEMS: DynamicItems = (JoinButton, LeaveButton)

__all__ = [
    "DYNAMIC_ITEMS",
    "JoinButton",
    "LeaveButton",
    "TournamentEndSender",
    "TournamentWatch",
    "advance",
    "standings_embed",
    "tournament_group",
]
