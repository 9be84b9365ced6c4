"""For a server's administrators and moderators (issue 26 points 1-2):
`/montana server settings` and `/montana server games`.

`settings` shows or changes the server's own settings (`bot.core.server.server_settings`):
the defaults of its new games, where its games are opened and announced, who may open
one, its limits and its statistics, each with where its value comes from. Only members
allowed to manage the server may use it.

`games` lists the server's games under way and open lobbies, with whom each waits for,
since when, whether it is overdue, and a link; each has a button to abandon the game
or close the lobby, which asks for a confirmation first. Members allowed to manage the
server or its channels may use it.

Discord applies a command's default permissions only to top-level commands (here
`/montana`, which every player uses), so the permission of each command, and of each
press of its buttons, is checked here, and a member without it is refused in words.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

import bot.discord_app.cards as cards
from bot.core.ai_players.ai_seats import absent_words
from bot.core.community import seasons, stats
from bot.core.community.ratings import PROVISIONAL_GAMES
from bot.core.delivery.picture_modes import pictures_words
from bot.core.play.service import Refusal
from bot.core.server import server_settings as names
from bot.core.server.server_settings import (
    SETTING_NAMES,
    ServerSettings,
    change_server_settings,
    server_settings,
)
from bot.core.store import ACTIVE, LOBBY, GameRow, Season, StoreError, moment_of
from bot.core.wording import words
from bot.discord_app.clock.deadlines import ABSENT_CHOICES
from bot.discord_app.components import (
    LANGUAGE_CHOICES,
    DynamicItems,
    bot_of,
    database_trouble,
    game_t,
    language_name,
    reply,
    service_of,
    shown_name,
    timestamp,
    user_t,
)
from bot.discord_app.delivery.notify import message_link
from bot.discord_app.delivery.picture_modes import PICTURES_CHOICES
from bot.discord_app.group import NO_PINGS, answer, answer_card, montana, tracked
from bot.discord_app.guard import SERVER_END_KIND, SERVER_GAMES_KIND, Kind, check_kind, went_wrong
from bot.discord_app.play.lobby import lobby_card, lobby_text
from i18n import Message, Translator, language_for_locale, translatable

log = logging.getLogger(__name__)

server_group = app_commands.Group(
    name="server",
    description="For the server's administrators: its settings and its games",
    parent=montana,
    # shown as a hint to Discord; it applies only to top-level commands, so each
    # command checks the permission itself
    default_permissions=discord.Permissions(manage_guild=True),
)

GAMES_SHOWN = 10
"""The games listed at once (each with its button; the message must stay under 2000
characters): the oldest first."""
GAMES_READ = 500
"""The open games read to find those within a channel moderator's reach."""
ALL = "all"

SETTING_LABELS: dict[str, Message] = {
    names.LANGUAGE: translatable("Language of new games"),
    names.TURN_HOURS: translatable("Hours for a turn"),
    names.AUCTION_HOURS: translatable("Hours to answer the city auction"),
    names.ABSENT: translatable("When a deadline passes"),
    names.PICTURES: translatable("Pictures of new games"),
    names.GAMES_CHANNEL: translatable("Channel for new games and results"),
    names.OPENER_ROLE: translatable("Role allowed to open games"),
    "open_lobbies": translatable("Open lobbies per member"),
    "lobby_days": translatable("Days before an unfilled lobby closes"),
    "active_games": translatable("Games under way per member"),
    "hints_per_minute": translatable("Hints per member and minute"),
    names.STATISTICS: translatable("Statistics and ratings"),
    names.WEB: translatable("Web pages of the games"),
}
"""What each server setting is, in the settings' list."""
NOT_ADMIN = translatable(
    "Only members allowed to manage this server can see or change its settings. "
    "Nothing was changed."
)
NOT_MODERATOR = translatable(
    "Only members allowed to manage this server or its channels can see and end its "
    "games. Nothing was changed."
)
OUT_OF_REACH = translatable(
    "You may end only the games of the channels you manage, and the game **#{game}** "
    "is in {where}. Nothing was changed."
)
NOT_THIS_SERVER = translatable("That game is not one of this server's. Nothing was changed.")
OUTSIDE_SERVER = translatable("Use this command in a server channel.")

RESET_CHOICES = [app_commands.Choice(name="all the settings", value=ALL)] + [
    app_commands.Choice(name=name.replace("_", " "), value=name) for name in SETTING_NAMES
]


def may_administer(interaction: discord.Interaction[Any]) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def may_moderate(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may manage the server, or the channels somewhere in it (here,
    or in another channel by its permission overwrites)."""
    permissions = interaction.permissions
    if interaction.guild_id is None:
        return False
    if permissions.manage_guild or permissions.manage_channels:
        return True
    guild, member = interaction.guild, interaction.user
    return (
        guild is not None
        and isinstance(member, discord.Member)
        and any(channel.permissions_for(member).manage_channels for channel in guild.channels)
    )


def may_manage_server(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server: every game of the server is within reach."""
    user = interaction.user
    return interaction.permissions.manage_guild or (
        isinstance(user, discord.Member) and user.guild_permissions.manage_guild
    )


def everywhere(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member's reach is the whole server: they manage it, or its channels
    by a role (not only by some channels' overwrites)."""
    user = interaction.user
    return may_manage_server(interaction) or (
        isinstance(user, discord.Member) and user.guild_permissions.manage_channels
    )


def within_reach(interaction: discord.Interaction[Any], row: GameRow) -> bool:
    """Whether the member may end `row`: they manage the server, or they may manage the
    channels of the game's channel (the lobby's, and where it plays, a thread counting as
    its channel) — the member's permissions in that channel, its overwrites included."""
    if row.guild_id != interaction.guild_id:
        return False
    if may_manage_server(interaction):
        return True
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    known = [
        channel
        for channel_id in dict.fromkeys((row.channel_id, row.play_channel_id))
        if (channel := guild.get_channel_or_thread(channel_id)) is not None
    ]
    # a channel or thread deleted meanwhile (or not known) does not decide; with none
    # known, only the server's managers reach the game
    return bool(known) and all(c.permissions_for(member).manage_channels for c in known)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise Refusal(OUTSIDE_SERVER)
    return interaction.guild_id


async def settings_here(interaction: discord.Interaction[Any]) -> ServerSettings:
    bot = bot_of(interaction)
    return await server_settings(
        bot.store,
        guild_of(interaction),
        turn_hours=bot.settings.turn_hours,
        auction_hours=bot.settings.auction_hours,
    )


# ------------------------------------------------------------------ settings


def value_words(name: str, chosen: ServerSettings, t: Translator, guild_locale: str | None) -> str:
    """A setting's value, as the settings' list says it."""
    if name == names.LANGUAGE:
        if chosen.language is not None:
            return language_name(chosen.language)
        return t.gettext(
            "the server's language ({language})",
            language=language_name(language_for_locale(guild_locale)),
        )
    if name in (names.TURN_HOURS, names.AUCTION_HOURS):
        hours = int(getattr(chosen, name))
        return t.ngettext("{n} hour", "{n} hours", hours)
    if name == names.ABSENT:
        return absent_words(chosen.absent, t)
    if name == names.PICTURES:
        return pictures_words(chosen.pictures, t)
    if name == names.GAMES_CHANNEL:
        if chosen.games_channel is None:
            return t.gettext("none: each game stays in its own channel")
        return f"<#{chosen.games_channel}>"
    if name == names.OPENER_ROLE:
        if chosen.opener_role is None:
            return t.gettext("everyone")
        return f"<@&{chosen.opener_role}>"
    if name in (names.STATISTICS, names.WEB):
        switched_on = chosen.statistics if name == names.STATISTICS else chosen.web
        return t.pgettext("setting", "on") if switched_on else t.pgettext("setting", "off")
    return str(chosen.value_of(name))


def settings_words(
    chosen: ServerSettings,
    t: Translator,
    guild_locale: str | None,
    season: Season | None = None,
) -> str:
    """Every setting with its value and where it comes from (the server or the bot),
    and the current season."""
    lines = [t.gettext("**This server's settings** (new games take them):")]
    for name in SETTING_NAMES:
        source = (
            t.gettext("set by this server")
            if chosen.from_server(name)
            else t.gettext("the bot's default")
        )
        lines.append(
            t.gettext(
                "- {setting}: {value} ({source})",
                setting=t.translate(SETTING_LABELS[name]),
                value=value_words(name, chosen, t, guild_locale),
                source=source,
            )
        )
    lines.append(
        t.gettext(
            "- Season: {season}, since {date}",
            season=stats.season_text(season, t),
            date=timestamp(moment_of(season.started_at), "D"),
        )
        if season is not None
        else t.gettext("- Season: none (the leaderboard is all time)")
    )
    lines.append(
        t.gettext(
            "-# Change one with the options of {/server settings}; {/server settings:reset} "
            "puts one back to the bot's default. The options of {/game new} still win."
        )
    )
    return "\n".join(lines)


@server_group.command(
    name="settings", description="Show or change this server's defaults, limits and channels"
)
@app_commands.describe(
    language="The language of new games (default: the server's)",
    turn_hours="Hours a player has for a turn in new games",
    auction_hours="Hours to answer the city auction in new games",
    absent="What happens in new games when a player's deadline passes",
    pictures="When new games' messages carry the picture",
    games_channel="Where matchmaking opens games and results are announced",
    opener_role="The role a member needs to open a game (default: everyone)",
    open_lobbies="Lobbies one member may have open at once",
    lobby_days="Days before an unfilled lobby closes",
    active_games="Games under way one member may play at once",
    hints_per_minute="Hints one member may ask for in a minute",
    statistics="Whether this server's games count in statistics and ratings",
    web="Whether this server's games have web pages (off: their pages answer 404)",
    season="Start a new season with this name (its leaderboard starts fresh)",
    reset="Put a setting back to the bot's default",
)
@app_commands.choices(
    language=LANGUAGE_CHOICES,
    absent=ABSENT_CHOICES,
    pictures=PICTURES_CHOICES,
    reset=RESET_CHOICES,
)
@tracked
async def settings_command(
    interaction: discord.Interaction[Any],
    language: app_commands.Choice[str] | None = None,
    turn_hours: app_commands.Range[int, 1, 720] | None = None,
    auction_hours: app_commands.Range[int, 1, 720] | None = None,
    absent: app_commands.Choice[str] | None = None,
    pictures: app_commands.Choice[str] | None = None,
    games_channel: discord.TextChannel | None = None,
    opener_role: discord.Role | None = None,
    open_lobbies: app_commands.Range[int, 1, 25] | None = None,
    lobby_days: app_commands.Range[int, 1, 90] | None = None,
    active_games: app_commands.Range[int, 1, 100] | None = None,
    hints_per_minute: app_commands.Range[int, 1, 60] | None = None,
    statistics: bool | None = None,
    web: bool | None = None,
    season: str | None = None,
    reset: app_commands.Choice[str] | None = None,
) -> None:
    guild_id = guild_of(interaction)
    if not may_administer(interaction):
        raise Refusal(NOT_ADMIN)
    if season is not None:
        seasons.season_name(season)  # a bad name is refused before anything is saved
    values: dict[str, str | None] = {}
    if reset is not None:
        for name in SETTING_NAMES if reset.value == ALL else (reset.value,):
            values[name] = None
    given: dict[str, object | None] = {
        names.LANGUAGE: language.value if language else None,
        names.TURN_HOURS: turn_hours,
        names.AUCTION_HOURS: auction_hours,
        names.ABSENT: absent.value if absent else None,
        names.PICTURES: pictures.value if pictures else None,
        names.GAMES_CHANNEL: games_channel.id if games_channel else None,
        # the @everyone role is everyone: no role needed
        names.OPENER_ROLE: (
            opener_role.id if opener_role and not opener_role.is_default() else None
        ),
        "open_lobbies": open_lobbies,
        "lobby_days": lobby_days,
        "active_games": active_games,
        "hints_per_minute": hints_per_minute,
    }
    for name, value in given.items():
        if value is not None:
            values[name] = str(value)
    if opener_role is not None and opener_role.is_default():
        values[names.OPENER_ROLE] = None
    if statistics is not None:
        values[names.STATISTICS] = names.ON if statistics else names.OFF
    if web is not None:
        values[names.WEB] = names.ON if web else names.OFF
    t = user_t(interaction)
    said = ""
    store = bot_of(interaction).store
    if values:
        await change_server_settings(store, guild_id, values)
        log.info("guild %s: settings changed by %s: %s", guild_id, interaction.user.id, values)
        if "active_games" in values:  # a member queued at the old limit may fit the new one
            bot_of(interaction).queue_watch.look_again(guild_id)
        said = t.gettext("Saved.") + "\n"
    if season is not None:
        started, ended = await seasons.start_season(
            store, guild_id, season, str(interaction.user.id)
        )
        log.info("guild %s: season %s started by %s", guild_id, started.number, interaction.user.id)
        said += season_started_words(started, ended, t) + "\n"
    chosen = await settings_here(interaction)
    await answer(
        interaction,
        said
        + settings_words(chosen, t, _locale(interaction), await store.current_season(guild_id)),
        allowed_mentions=NO_PINGS,
    )


def season_started_words(started: Season, ended: Season | None, t: Translator) -> str:
    """What starting a season did: the new season, and the ended one's champion."""
    lines = [
        t.gettext(
            "🏁 {season} started: its leaderboard and statistics start fresh; the all-time "
            "ones go on ({/leaderboard} with the period “all time”).",
            season=stats.season_text(started, t),
        )
    ]
    if ended is not None and ended.champion_name is None:
        lines.append(
            t.gettext(
                "{season} ended without a champion: nobody had {n} rated games in it.",
                season=stats.season_text(ended, t),
                n=PROVISIONAL_GAMES,
            )
        )
    elif ended is not None:
        lines.append(
            t.gettext(
                "Champion of {season}: {champion}, with a rating of {rating}.",
                season=stats.season_text(ended, t),
                champion=words.forgotten_worded(ended.champion_name or "", t),
                rating=ended.champion_rating,
            )
        )
    return "\n".join(lines)


def _locale(interaction: discord.Interaction[Any]) -> str | None:
    return str(interaction.guild_locale) if interaction.guild_locale is not None else None


# ------------------------------------------------------------------ games


async def game_line(interaction: discord.Interaction[Any], row: GameRow, t: Translator) -> str:
    """One game of the moderators' list: where, whom it waits for and since when,
    overdue or not, and a link."""
    bot = bot_of(interaction)
    message_id = row.message_id if row.status == ACTIVE else row.lobby_message_id
    channel_id = row.play_channel_id if row.status == ACTIVE else row.channel_id
    link = (
        message_link(row.guild_id, channel_id, message_id)
        if message_id is not None
        else f"<#{channel_id}>"
    )
    if row.status == LOBBY:
        # Translators: {since} is a relative time, e.g. "3 hours ago".
        return t.gettext(
            "- **#{game}** lobby in <#{channel}>, opened by {opener} {since}: waits for "
            "players ({seated}/4). {link}",
            game=row.id,
            channel=row.channel_id,
            opener=row.names.get(row.creator_id, row.creator_id),
            since=timestamp(moment_of(row.created_at)),
            seated=len(row.players),
            link=link,
        )
    due: tuple[str, datetime] | None = None
    with contextlib.suppress(Refusal):  # a state that cannot be read waits for nobody
        due = await bot.deadlines.due_of(row)
    if due is None:
        return t.gettext(
            "- **#{game}** in <#{channel}>: waits for nobody now. {link}",
            game=row.id,
            channel=row.play_channel_id,
            link=link,
        )
    player, deadline = due
    fields = {
        "game": row.id,
        "channel": row.play_channel_id,
        "who": row.names.get(player, player),
        "since": timestamp(moment_of(row.updated_at)),
        "due": timestamp(deadline),
        "link": link,
    }
    if deadline <= bot.deadlines.clock():
        # Translators: {since} is a relative time, e.g. "3 hours ago"; {due} too.
        return t.gettext(
            "- **#{game}** in <#{channel}>: waits for {who}, whose turn began {since}, "
            "**overdue** (due {due}). {link}",
            **fields,
        )
    # Translators: {since} is a relative time, e.g. "3 hours ago"; {due} one ahead, e.g.
    # "in 5 hours".
    return t.gettext(
        "- **#{game}** in <#{channel}>: waits for {who}, whose turn began {since}, due "
        "{due}. {link}",
        **fields,
    )


def games_view(rows: list[GameRow], t: Translator, answer: int) -> discord.ui.View | None:
    """The list's buttons, on the answer to interaction `answer` ({/server games})."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for row in rows:
        view.add_item(EndAskButton(row.id, answer, ending_label(row, t)))
    return view


def ending_label(row: GameRow, t: Translator) -> str:
    if row.status == LOBBY:
        return t.pgettext("button", "Close lobby #{game}", game=row.id)
    return t.pgettext("button", "Abandon #{game}", game=row.id)


@server_group.command(name="games", description="This server's games under way and open lobbies")
@tracked
async def games_command(interaction: discord.Interaction[Any]) -> None:
    guild_id = guild_of(interaction)
    if not may_moderate(interaction):
        raise Refusal(NOT_MODERATOR)
    await interaction.response.defer(ephemeral=True, thinking=True)
    t = user_t(interaction)
    # the games within the asker's reach: every one for the server's managers, those of
    # the channels they manage for the others
    every = await bot_of(interaction).store.games_open_in_guild(guild_id, GAMES_READ)
    rows = [row for row in every if within_reach(interaction, row)][: GAMES_SHOWN + 1]
    if not rows and not everywhere(interaction):
        await answer(
            interaction, t.gettext("No game is under way or open in the channels you manage.")
        )
        return
    if not rows:
        await answer(interaction, t.gettext("No game is under way or open in this server."))
        return
    shown = rows[:GAMES_SHOWN]
    lines = [
        t.gettext("**This server's games** (oldest first):")
        if everywhere(interaction)
        else t.gettext("**The games of the channels you manage** (oldest first):")
    ]
    lines += [await game_line(interaction, row, t) for row in shown]
    if len(rows) > GAMES_SHOWN:
        lines.append(
            t.ngettext(
                "-# Only the oldest {n} is shown: end some to see the others.",
                "-# Only the oldest {n} are shown: end some to see the others.",
                len(shown),
            )
        )
    text = "\n".join(lines)
    if len(text) > cards.TEXT_LIMIT:  # long names and links: the links go first
        text = "\n".join(re.sub(r" https://\S+$", "", line) for line in lines)
    await answer_card(interaction, text, games_view(shown, t, interaction.id))


async def run_moderator_press(
    interaction: discord.Interaction[Any],
    game_id: int,
    kind: Kind,
    answer: int,
    act: Callable[[GameRow], Awaitable[None]],
) -> None:
    """Like `guard.run_press` for the moderators' buttons, which are not on a game's
    message: pressed on the moderator's own message of `kind` (the answer to interaction
    `answer`); the presser must still be
    allowed to manage the server, or the channels of the game's channel
    (`within_reach`), and the game must be this server's; a refusal, a failing database
    or an unexpected error is answered to the presser alone."""
    try:
        async with bot_of(interaction).busy():
            await bot_of(interaction).remember_locale(interaction)
            check_kind(interaction, kind, answer)
            if not may_moderate(interaction):
                raise Refusal(NOT_MODERATOR)
            row = await service_of(interaction).get(game_id)
            if row.guild_id != interaction.guild_id:
                raise Refusal(NOT_THIS_SERVER)
            if not within_reach(interaction, row):
                raise Refusal(OUT_OF_REACH, game=row.id, where=f"<#{row.play_channel_id}>")
            await act(row)
    except Refusal as refusal:
        await reply(interaction, refusal.text(user_t(interaction)))
    except StoreError as error:
        log.warning("a moderator's press found the database failing: %s", error)
        await reply(interaction, database_trouble(error, user_t(interaction)))
    except Exception as error:
        await went_wrong(interaction, error)


class EndAskButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"sv:ask:(?P<game>[0-9]{1,19}):(?P<answer>[0-9]{1,20})",
):
    """ "Abandon #12" / "Close lobby #12" on the moderators' list (the answer to
    interaction `answer`, `guard.Kind.bound`): asks to confirm."""

    def __init__(self, game_id: int, answer: int, label: str = "End") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"sv:ask:{game_id}:{answer}",
            )
        )
        self.game_id = game_id
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> EndAskButton:
        return cls(int(match["game"]), int(match["answer"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def ask(row: GameRow) -> None:
            t = user_t(interaction)
            if row.status not in (LOBBY, ACTIVE):
                raise Refusal(translatable("This game is already over."))
            players = ", ".join(s.name for s in row.players) or "—"
            if row.status == LOBBY:
                question = t.gettext(
                    "Close the lobby **#{game}** in <#{channel}> (players: {players})? "
                    "Nobody can join it afterwards.",
                    game=row.id,
                    channel=row.channel_id,
                    players=players,
                )
            else:
                question = t.gettext(
                    "Abandon the game **#{game}** in <#{channel}> (players: {players})? It "
                    "ends without a result, and this cannot be undone.",
                    game=row.id,
                    channel=row.play_channel_id,
                    players=players,
                )
            view = discord.ui.View(timeout=None)
            view.add_item(
                EndConfirmButton(row.id, interaction.id, t.pgettext("button", "Yes, end it"))
            )
            await interaction.response.send_message(
                question, view=view, ephemeral=True, allowed_mentions=NO_PINGS
            )

        await run_moderator_press(interaction, self.game_id, SERVER_GAMES_KIND, self.answer, ask)


class EndConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"sv:end:(?P<game>[0-9]{1,19}):(?P<answer>[0-9]{1,20})",
):
    """The confirmation: the game is abandoned (the lobby closed) once, whoever presses
    again, or on two confirmations, is told it is over already."""

    def __init__(self, game_id: int, answer: int, label: str = "Yes, end it") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.danger,
                custom_id=f"sv:end:{game_id}:{answer}",
            )
        )
        self.game_id = game_id
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> EndConfirmButton:
        return cls(int(match["game"]), int(match["answer"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def end(row: GameRow) -> None:
            was_lobby = row.status == LOBBY
            service = service_of(interaction)
            ended = await service.abandon(row, str(interaction.user.id), may_manage=True)
            log.info("game %s: ended by moderator %s", row.id, interaction.user.id)
            t = user_t(interaction)
            await interaction.response.edit_message(
                content=(
                    t.gettext("The lobby **#{game}** is closed.", game=row.id)
                    if was_lobby
                    else t.gettext("The game **#{game}** is abandoned.", game=row.id)
                ),
                view=None,
            )
            await say_ended_by_moderator(interaction, ended, was_lobby)

        await run_moderator_press(interaction, self.game_id, SERVER_END_KIND, self.answer, end)


async def say_ended_by_moderator(
    interaction: discord.Interaction[Any], row: GameRow, was_lobby: bool
) -> None:
    """The table hears it where it plays, in the game's language; the game's buttons go."""
    bot = bot_of(interaction)
    if row.lobby_message_id is not None:
        lobby = bot.get_partial_messageable(row.channel_id).get_partial_message(
            row.lobby_message_id
        )
        with contextlib.suppress(discord.HTTPException):
            if was_lobby:  # its message says so: nobody else is told
                await lobby.edit(
                    view=lobby_card(row, lobby_text(row), rows=False), allowed_mentions=NO_PINGS
                )
            else:
                await cards.take_rows_off(bot, row.channel_id, row.lobby_message_id)
    if was_lobby:
        return
    with contextlib.suppress(discord.HTTPException):
        await bot.get_partial_messageable(row.play_channel_id).send(
            game_t(row).gettext(
                "{who}, a moderator of this server, abandoned the game of Montana. Open a "
                "new one with {/game new}.",
                who=shown_name(interaction.user),
            ),
            allowed_mentions=NO_PINGS,
        )
    if row.message_id is not None:
        with contextlib.suppress(discord.HTTPException):
            await cards.take_rows_off(bot, row.play_channel_id, row.message_id)


DYNAMIC_ITEMS: DynamicItems = (EndAskButton, EndConfirmButton)

__all__ = [
    "DYNAMIC_ITEMS",
    "may_administer",
    "may_manage_server",
    "may_moderate",
    "server_group",
    "settings_words",
    "within_reach",
]
