"""The lobby: `/montana game new | join | leave | start | abandon`, and its buttons.

`/montana game new` posts the lobby message with Join / Leave / Start; Start (button or
command) opens the game's thread, deals, and posts the first prompt there.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import Any, cast

import discord
from discord import app_commands

import bot.discord_app.cards as cards
from bot.core.clock.deadlines import HOUR
from bot.core.clock.pace import hours_for, pace_words
from bot.core.play import prompts
from bot.core.play.prompts import Panel
from bot.core.play.service import Refusal
from bot.core.server.limits import (
    DEFAULT_LIMITS,
    Limits,
    limits_of,
    lobby_expired_words,
    lobby_expiry_words,
)
from bot.core.server.server_settings import ServerSettings, server_settings, settings_of
from bot.core.store import ABANDONED, ABSENT_WAIT, LOBBY, PICTURES_EVERY_MOVE, GameRow
from bot.discord_app.components import (
    LANGUAGE_CHOICES,
    PACE_CHOICES,
    DynamicItems,
    bot_of,
    game_t,
    language_name,
    panel_view,
    seat_of,
    service_of,
    shown_name,
    user_t,
)
from bot.discord_app.delivery.announce import thread_name
from bot.discord_app.delivery.picture_modes import PICTURES_CHOICES, check_pictures
from bot.discord_app.group import NO_PINGS, answer, channel_id_of, game_group, tracked
from i18n import Translator, language_for_locale, translatable
from render.palette import GOLD

log = logging.getLogger(__name__)

JOIN, LEAVE, START = "join", "leave", "start"
ADD_AI, REMOVE_AI = "addai", "rmai"
ADD_AI_LEVEL = {"easy": "addai-easy", "normal": ADD_AI, "hard": "addai-hard"}
"""The code of each level's Add AI button (a lobby posted before the levels: normal)."""
LEVEL_OF_CODE = {code: level for level, code in ADD_AI_LEVEL.items()}
LOBBY_CODES = (JOIN, LEAVE, START, *ADD_AI_LEVEL.values(), REMOVE_AI)
LOBBY_VERSION = 0


LOBBY_COLOUR = discord.Colour.from_rgb(*GOLD)
"""The lobby card's accent: no player's colour (nobody is awaited yet), the board's gold."""


def lobby_card(row: GameRow, text: str, *, rows: bool = True) -> cards.Card:
    """The lobby message as a card: its words and, while it is open (and `rows`), Join /
    Leave / Start."""
    view = lobby_view(row) if rows and row.status == LOBBY else None
    return cards.simple(text, colour=LOBBY_COLOUR, rows=view)


def lobby_view(row: GameRow) -> discord.ui.View:
    """Join / Leave / Start, in the game's language."""
    t = game_t(row)
    return cast(
        "discord.ui.View",
        panel_view(
            row.id,
            LOBBY_VERSION,
            Panel(
                "",
                (
                    prompts.Choice(JOIN, t.pgettext("button", "Join"), "success"),
                    prompts.Choice(LEAVE, t.pgettext("button", "Leave"), "secondary"),
                    prompts.Choice(START, t.pgettext("button", "Start"), "primary"),
                    prompts.Choice(
                        ADD_AI_LEVEL["easy"], t.pgettext("button", "Add AI (easy)"), row=1
                    ),
                    # the plain Add AI plays normal, like the takeovers
                    prompts.Choice(ADD_AI_LEVEL["normal"], t.pgettext("button", "Add AI"), row=1),
                    prompts.Choice(
                        ADD_AI_LEVEL["hard"], t.pgettext("button", "Add AI (hard)"), row=1
                    ),
                    prompts.Choice(
                        REMOVE_AI, t.pgettext("button", "Remove AI"), "secondary", row=1
                    ),
                ),
            ),
        ),
    )


def lobby_text(
    row: GameRow,
    t: Translator | None = None,
    *,
    limits: Limits = DEFAULT_LIMITS,
    closed_unfilled: bool = False,
) -> str:
    """The lobby message, in the game's language (or `t`'s, for one reader);
    `limits`: its server's (when an unfilled lobby closes)."""
    t = t or game_t(row)
    if row.status != LOBBY:
        if row.status == "active":
            return t.gettext(
                "**Montana** — the game is under way in {where}.",
                where=f"<#{row.play_channel_id}>",
            )
        if row.status == ABANDONED and row.state_json is None and not row.humans:
            return t.gettext("**Montana** — the lobby has closed: its last player left.")
        if row.status == ABANDONED:
            if closed_unfilled:
                return lobby_expired_words(limits, t)
            return t.gettext("**Montana** — this game was abandoned.")
        return t.gettext("**Montana** — this game is over.")
    players = ", ".join(s.name if s.is_ai else f"<@{s.user_id}>" for s in row.players)
    return (
        t.gettext(
            "**Montana** — a new game is open ({seated}/4): {players}.\n"
            "Press **Join** to take a seat (2 to 4 players), then **Start**. "
            "The seat order is drawn at random when the game starts. Language: {language}.\n"
            "-# {opener} opened the game: they can add AI players (**Add AI**, 1 to 3), change "
            "its settings or abandon it.",
            opener=f"<@{row.creator_id}>",
            seated=len(row.players),
            players=players,
            language=language_name(row.language),
        )
        + "\n"
        + t.gettext("Pace: {pace}.", pace=pace_words(row.turn_seconds, row.auction_seconds, t))
        + "\n"
        + lobby_expiry_words(row, limits, t)
    )


async def lobby_press(interaction: discord.Interaction[Any], game: GameRow, code: str) -> None:
    """Join, Leave or Start pressed on the lobby message (`guard.run_press` checked it)."""
    service = service_of(interaction)
    user = seat_of(interaction.user)
    if code == JOIN:
        row = await service.join(game, user)
    elif code == LEAVE:
        row = await service.leave(game, user.user_id)
    elif code in LEVEL_OF_CODE:
        row = await service.add_ai(game, user.user_id, LEVEL_OF_CODE[code])
    elif code == REMOVE_AI:
        row = await service.remove_ai(game, user.user_id)
    else:
        await start_game(interaction, game)
        return
    limits = await limits_of(service.store, row.guild_id)
    await interaction.response.edit_message(view=lobby_card(row, lobby_text(row, limits=limits)))


async def start_game(interaction: discord.Interaction[Any], game: int | GameRow) -> None:
    """Start from the Start button or `/montana game start`: open the thread, deal, announce."""
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    row = await service.check_start(game, user_id)
    pressed_lobby = (
        interaction.message is not None and interaction.message.id == row.lobby_message_id
    )
    await interaction.response.defer(thinking=not pressed_lobby, ephemeral=not pressed_lobby)
    note = ""
    thread: discord.Thread | None = None
    if row.thread_id is None:
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(
                    name=thread_name(row),
                    message=discord.Object(row.lobby_message_id) if row.lobby_message_id else None,
                    auto_archive_duration=10080,
                    type=discord.ChannelType.public_thread,
                )
                await service.store.set_thread(row.id, thread.id)
                row = replace(row, thread_id=thread.id)
            except discord.HTTPException as error:
                log.warning("game %s: could not open a thread: %s", row.id, error)
                note = " " + game_t(row).gettext(
                    "(I could not open a thread here, so the game plays in this channel.)"
                )
    outcome = await service.start(row, user_id)
    row = outcome.row
    if thread is not None and thread.name != thread_name(row):
        # the thread was named in joining order; the seat order is known only now
        try:
            await thread.edit(name=thread_name(row))
        except discord.HTTPException as error:
            log.warning("game %s: could not rename the thread: %s", row.id, error)
    if not outcome.announced:
        # the players and the presser must not wait for a message that is not coming
        note += "\n⚠️ " + game_t(row).gettext(
            "Its first message is not shown yet: {problem}",
            problem=outcome.problem_in(game_t(row)),
        )
    if row.lobby_message_id is not None:
        lobby = bot_of(interaction).get_partial_messageable(row.channel_id)
        try:
            await lobby.get_partial_message(row.lobby_message_id).edit(
                view=lobby_card(row, lobby_text(row) + note, rows=False),
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException as error:
            log.warning("game %s: could not update the lobby message: %s", row.id, error)
    told = (
        user_t(interaction).gettext(
            "The game has started in {where}.", where=f"<#{row.play_channel_id}>"
        )
        + note
    )[:2000]
    if not pressed_lobby:
        await interaction.edit_original_response(content=told)
    elif not outcome.announced:
        await interaction.followup.send(told, ephemeral=True)


# ------------------------------------------------------------------ commands


@game_group.command(name="new", description="Open a new game in this channel (2-4 players)")
@app_commands.describe(
    turn_hours="Hours a player has for a turn (default 48)",
    auction_hours="Hours to answer the city auction before the bot passes (default 24)",
    language="The language of the game's messages and pictures (default: the server's)",
    pictures="When the game's messages carry its picture (default: every move)",
    pace="Both deadlines at once (exact hours given beside it win)",
)
@app_commands.choices(language=LANGUAGE_CHOICES, pictures=PICTURES_CHOICES, pace=PACE_CHOICES)
@tracked
async def new(
    interaction: discord.Interaction[Any],
    turn_hours: app_commands.Range[int, 1, 720] | None = None,
    auction_hours: app_commands.Range[int, 1, 720] | None = None,
    language: app_commands.Choice[str] | None = None,
    pictures: str | None = None,
    pace: app_commands.Choice[str] | None = None,
) -> None:
    check_pictures(pictures)
    # the hours given are checked in the core before anything is saved
    asked = hours_for(pace.value if pace else None, turn_hours, auction_hours)
    service = service_of(interaction)
    bot = bot_of(interaction)
    channel_id = channel_id_of(interaction)
    in_thread = isinstance(interaction.channel, discord.Thread)
    # the server's own defaults (`/montana server settings`); the options given win
    hours = {"turn_hours": bot.settings.turn_hours, "auction_hours": bot.settings.auction_hours}
    defaults = (
        await server_settings(service.store, interaction.guild_id, **hours)
        if interaction.guild_id is not None
        else settings_of({}, **hours)
    )
    check_may_open(interaction, defaults)
    row = await service.open_lobby(
        guild_id=interaction.guild_id,
        channel_id=channel_id,
        thread_id=channel_id if in_thread else None,
        creator=seat_of(interaction.user),
        language=language.value
        if language is not None
        else defaults.language or language_for_locale(interaction.guild_locale),
    )
    if defaults.absent != ABSENT_WAIT:
        row = await bot.ai.set_absent(row, defaults.absent)
    if pictures is not None or defaults.pictures != PICTURES_EVERY_MOVE:
        await service.store.set_pictures(row.id, pictures or defaults.pictures)
    limits = await limits_of(service.store, row.guild_id)
    turn, auction = asked[0] or defaults.turn_hours, asked[1] or defaults.auction_hours
    # the lobby message shows the pace; the answer does not wait for its saving
    shown = replace(row, turn_seconds=round(turn * HOUR), auction_seconds=round(auction * HOUR))
    callback = await interaction.response.send_message(
        view=lobby_card(row, lobby_text(shown, limits=limits)), allowed_mentions=NO_PINGS
    )
    if callback.message_id is not None:
        await service.store.set_lobby_message(row.id, callback.message_id)
    await bot.deadlines.set_hours(row.id, turn, auction)
    log.info("game %s channel %s: lobby opened", row.id, channel_id)


ROLE_NEEDED = translatable(
    "In this server, only members with the role {role} can open a game; ask its "
    "administrators for it, or join a game someone opened. Nothing was changed."
)


def check_may_open(interaction: discord.Interaction[Any], defaults: ServerSettings) -> None:
    """Refuse a member without the server's role for opening games (its managers may)."""
    role = defaults.opener_role
    if role is None or interaction.permissions.manage_guild:
        return
    user = interaction.user
    if isinstance(user, discord.Member) and user.get_role(role) is not None:
        return
    raise Refusal(ROLE_NEEDED, role=f"<@&{role}>")


async def _lobby_change(interaction: discord.Interaction[Any], joining: bool) -> None:
    service = service_of(interaction)
    row = await service.game_here(channel_id_of(interaction))
    if joining:
        row = await service.join(row, seat_of(interaction.user))
    else:
        row = await service.leave(row, str(interaction.user.id))
    if row.lobby_message_id is not None:
        lobby = bot_of(interaction).get_partial_messageable(row.channel_id)
        try:
            limits = await limits_of(service.store, row.guild_id)
            await lobby.get_partial_message(row.lobby_message_id).edit(
                view=lobby_card(row, lobby_text(row, limits=limits)), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as error:
            log.warning("game %s: could not update the lobby message: %s", row.id, error)
    t = user_t(interaction)
    players = ", ".join(s.name for s in row.players)
    if joining:
        said = t.gettext("You joined. Players: {players}.", players=players)
    elif players:
        said = t.gettext("You left. Players: {players}.", players=players)
    else:
        said = t.gettext("You left. Nobody is left in the game.")
    await answer(interaction, said)


@game_group.command(name="join", description="Take a seat in the game waiting for players here")
@tracked
async def join(interaction: discord.Interaction[Any]) -> None:
    await _lobby_change(interaction, joining=True)


@game_group.command(name="leave", description="Leave the game here before it starts")
@tracked
async def leave(interaction: discord.Interaction[Any]) -> None:
    await _lobby_change(interaction, joining=False)


@game_group.command(name="start", description="Start the game: the seat order is drawn at random")
@tracked
async def start(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    row = await service.game_here(channel_id_of(interaction))
    await start_game(interaction, row)


@game_group.command(
    name="abandon", description="End the game here without a result (creator or channel managers)"
)
@tracked
async def abandon(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    row = await service.game_here(channel_id_of(interaction))
    may_manage = interaction.permissions.manage_channels
    row = await service.abandon(row, str(interaction.user.id), may_manage=may_manage)
    await interaction.response.send_message(
        game_t(row).gettext(
            "{who} abandoned the game of Montana. Open a new one with {/game new}.",
            who=row.seat_names.get(str(interaction.user.id)) or shown_name(interaction.user),
        ),
        allowed_mentions=NO_PINGS,
    )
    bot = bot_of(interaction)
    for message_id, channel_id in (
        (row.message_id, row.play_channel_id),
        (row.lobby_message_id, row.channel_id),
    ):
        if message_id is None:
            continue
        with contextlib.suppress(discord.HTTPException):
            await cards.take_rows_off(bot, channel_id, message_id)


async def say_lobby_closed(bot: discord.Client, row: GameRow, limits: Limits) -> None:
    """`limits.LobbyExpiry`'s hook: the lobby message says it closed unfilled, and why."""
    if row.lobby_message_id is None:
        return
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.lobby_message_id)
    try:
        await message.edit(
            view=lobby_card(row, lobby_text(row, limits=limits, closed_unfilled=True), rows=False),
            allowed_mentions=NO_PINGS,
        )
    except discord.HTTPException as error:
        log.warning("game %s: could not say that the lobby closed: %s", row.id, error)


DYNAMIC_ITEMS: DynamicItems = ()
"""The lobby's buttons are `ChoiceButton`s (codes join/leave/start)."""

__all__ = [
    "LOBBY_CODES",
    "lobby_press",
    "lobby_text",
    "lobby_view",
    "say_lobby_closed",
    "start_game",
]
