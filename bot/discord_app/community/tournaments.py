"""Tournaments a server runs itself (issue 40): the top-level command
`/montana-tournament` (`/montana` is at Discord's size limit) — `new`, `start`,
`standings`, `drop`, `cancel` — the sign-up message's **Join**/**Leave** buttons
(`mt:join:<id>`, `mt:leave:<id>`, restart-proof).

Organising (`new`, `start`, `cancel`, dropping someone else) needs what opening a game
needs on the server (its opener role, or Manage Server: `matchmaking.may_open`); `start`,
`cancel` and dropping another player are the organiser's or a manager's.

The rounds run themselves: `tournament_rounds.advance`, after `start`, a drop-out, each
tournament game's end and at start-up (`tournament_rounds.TournamentWatch`).
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

import bot.discord_app.cards as cards
from bot.core.community import tournaments as core
from bot.core.community.matchmaking import pace_in_words
from bot.core.community.tournament_chart import standings_picture
from bot.core.community.tournament_pairing import FORMATS
from bot.core.server.server_settings import server_settings
from bot.core.store import (
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
)
from bot.core.wording.refusals import Refusal
from bot.discord_app.app import MontanaApp
from bot.discord_app.community.matchmaking import may_open
from bot.discord_app.community.stats import answer_press
from bot.discord_app.community.tournament_rounds import advance, standing_lines, tournament_t
from bot.discord_app.components import (
    LANGUAGE_CHOICES,
    PACE_CHOICES,
    DynamicItems,
    bot_of,
    language_name,
    seat_of,
    user_t,
)
from bot.discord_app.group import NO_PINGS, answer, tracked
from i18n import Translator, language_for_locale, translatable
from i18n.commands import TOURNAMENT_COMMAND

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
    if row.round_days is not None:
        head += " " + t.ngettext(
            "Each round lasts at most {n} day: a game still running then ends, the player "
            "it waits for placed last.",
            "Each round lasts at most {n} days: a game still running then ends, the player "
            "it waits for placed last.",
            row.round_days,
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
    round_days="Each round's deadline in days (1-30; default: a round waits for its games)",
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
    round_days: int | None = None,
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
        round_days=round_days,
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
        round_days=round_days,
    )
    tournament_id = await store.create_tournament(row)
    record = await store.tournament_record(tournament_id)
    assert record is not None
    t = tournament_t(record.tournament)
    await interaction.response.send_message(
        view=cards.simple(signup_words(record, t), rows=signup_view(tournament_id, t)),
        allowed_mentions=NO_PINGS,
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
    if not core.can_be_played(row, len(record.entrants)):
        raise Refusal(
            translatable(
                "{n} players cannot play this tournament to its end at tables of {sizes}: a "
                "knockout must come down to one final table. Let more players sign up, or "
                "cancel it and organise one with other options. Nothing was changed."
            ),
            n=len(record.entrants),
            sizes=core.sizes_words(row.table_sizes),
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
    embed = standings_embed(record, t)
    picture = await standings_picture(record, t)
    if picture is None:
        await interaction.response.send_message(
            view=cards.from_embed(embed), ephemeral=True, allowed_mentions=NO_PINGS
        )
        return
    embed.set_image(url=f"attachment://{CHART_FILE}")
    await interaction.response.send_message(
        view=cards.from_embed(embed),
        file=discord.File(io.BytesIO(picture), filename=CHART_FILE),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


CHART_FILE = "standings.png"
"""The standings chart's attachment (points after each complete round, from round 2)."""


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
    view.add_item(SignUpButton(JOIN, tournament_id, t.pgettext("button", "Join")))
    view.add_item(SignUpButton(LEAVE, tournament_id, t.pgettext("button", "Leave")))
    return view


JOIN, LEAVE = "join", "leave"


class SignUpButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mt:(?P<what>join|leave):(?P<id>[0-9]{1,18})",
):
    """The sign-up card's Join (`mt:join:<tournament>`) and Leave (`mt:leave:…`) buttons."""

    def __init__(self, what: str, tournament_id: int, label: str = "·") -> None:
        style = discord.ButtonStyle.success if what == JOIN else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"mt:{what}:{tournament_id}")
        )
        self.what = what
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SignUpButton:
        return cls(match["what"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        act = _join if self.what == JOIN else _leave
        await answer_press(interaction, lambda: act(interaction, self.tournament_id))


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
    t = tournament_t(record.tournament)
    await interaction.response.edit_message(
        view=cards.simple(signup_words(record, t), rows=signup_view(tournament_id, t))
    )


async def _refresh_signup(bot: MontanaApp, tournament_id: int) -> None:
    """The sign-up message as the tournament now stands (its buttons gone once closed)."""
    record = await bot.store.tournament_record(tournament_id)
    if record is None or record.tournament.message_id is None:
        return
    row, message_id = record.tournament, record.tournament.message_id
    t = tournament_t(row)
    view = signup_view(row.id, t) if row.status == SIGNUP else None
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(message_id)
    try:
        await message.edit(view=cards.simple(signup_words(record, t), rows=view))
    except discord.HTTPException as error:
        log.info("tournament %s: sign-up message not updated: %s", row.id, error)


DYNAMIC_ITEMS: DynamicItems = (SignUpButton,)

__all__ = [
    "DYNAMIC_ITEMS",
    "SignUpButton",
    "advance",
    "standings_embed",
    "tournament_group",
]
