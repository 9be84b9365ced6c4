"""The `/montana` slash commands.

Commands and buttons reach the same service code: a typed move is checked against
the game exactly like a button press, only without a state version (it applies to
the game as it is now). Answers that concern only the caller are ephemeral.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec

import discord
from discord import app_commands

from rules import Game

from . import prompts, words
from .service import Refusal
from .store import ABANDONED, ACTIVE, ENDED, LOBBY
from .views import (
    NOT_POSTED,
    bot_of,
    lobby_text,
    lobby_view,
    panel_view,
    picture_file,
    seat_of,
    service_of,
    start_game,
)

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()

montana = app_commands.Group(
    name="montana",
    description="Play the board game Montana in this channel",
    guild_only=True,
)


async def _answer(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Answer a slash command ephemerally, before or after deferring it."""
    text = text[:2000]
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


P = ParamSpec("P")


def tracked(
    command: Callable[Concatenate[discord.Interaction[Any], P], Coroutine[Any, Any, None]],
) -> Callable[Concatenate[discord.Interaction[Any], P], Coroutine[Any, Any, None]]:
    """Count the command as in flight (a shutdown waits for it); refuse while stopping."""

    @functools.wraps(command)
    async def run(
        interaction: discord.Interaction[Any], /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        try:
            async with bot_of(interaction).busy():
                await command(interaction, *args, **kwargs)
        except Refusal as refusal:
            await _answer(interaction, refusal.message)

    return run


def channel_id_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.channel_id is None:
        raise Refusal("Use this command in a server channel.")
    return interaction.channel_id


# ------------------------------------------------------------------ the lobby


@montana.command(name="new", description="Open a new game in this channel (2-4 players)")
@app_commands.describe(
    turn_hours="Hours a player has for a turn (default 48)",
    auction_hours="Hours to answer the city auction before the bot passes (default 24)",
)
@tracked
async def new(
    interaction: discord.Interaction[Any],
    turn_hours: app_commands.Range[int, 1, 720] | None = None,
    auction_hours: app_commands.Range[int, 1, 720] | None = None,
) -> None:
    service = service_of(interaction)
    try:
        channel_id = channel_id_of(interaction)
        in_thread = isinstance(interaction.channel, discord.Thread)
        row = await service.open_lobby(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            thread_id=channel_id if in_thread else None,
            creator=seat_of(interaction.user),
        )
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    callback = await interaction.response.send_message(
        lobby_text(row), view=lobby_view(row.id), allowed_mentions=NO_PINGS
    )
    if callback.message_id is not None:
        await service.store.set_lobby_message(row.id, callback.message_id)
    bot = bot_of(interaction)
    await bot.deadlines.set_hours(
        row.id, turn_hours or bot.settings.turn_hours, auction_hours or bot.settings.auction_hours
    )
    log.info("game %s channel %s: lobby opened", row.id, channel_id)


async def _lobby_change(interaction: discord.Interaction[Any], joining: bool) -> None:
    service = service_of(interaction)
    try:
        row = await service.game_here(channel_id_of(interaction))
        if joining:
            row = await service.join(row.id, seat_of(interaction.user))
        else:
            row = await service.leave(row.id, str(interaction.user.id))
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    if row.lobby_message_id is not None:
        lobby = bot_of(interaction).get_partial_messageable(row.channel_id)
        try:
            await lobby.get_partial_message(row.lobby_message_id).edit(
                content=lobby_text(row),
                view=lobby_view(row.id) if row.status == LOBBY else None,
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException as error:
            log.warning("game %s: could not update the lobby message: %s", row.id, error)
    await _answer(
        interaction,
        ("You joined. " if joining else "You left. ")
        + f"Players: {', '.join(s.name for s in row.players) or 'nobody'}.",
    )


@montana.command(name="join", description="Take a seat in the game waiting for players here")
@tracked
async def join(interaction: discord.Interaction[Any]) -> None:
    await _lobby_change(interaction, joining=True)


@montana.command(name="leave", description="Leave the game here before it starts")
@tracked
async def leave(interaction: discord.Interaction[Any]) -> None:
    await _lobby_change(interaction, joining=False)


@montana.command(name="start", description="Start the game: the seat order is drawn at random")
@tracked
async def start(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    try:
        row = await service.game_here(channel_id_of(interaction))
        await start_game(interaction, row.id)
    except Refusal as refusal:
        await _answer(interaction, refusal.message)


@montana.command(
    name="abandon", description="End the game here without a result (creator or channel managers)"
)
@tracked
async def abandon(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    try:
        row = await service.game_here(channel_id_of(interaction))
        may_manage = interaction.permissions.manage_channels
        row = await service.abandon(row.id, str(interaction.user.id), may_manage=may_manage)
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    await interaction.response.send_message(
        f"{interaction.user.display_name} abandoned the game of Montana. "
        "Open a new one with `/montana new`.",
        allowed_mentions=NO_PINGS,
    )
    channel = bot_of(interaction).get_partial_messageable(row.play_channel_id)
    for message_id in (row.message_id, row.lobby_message_id):
        if message_id is None:
            continue
        target = (
            channel
            if message_id == row.message_id
            else (bot_of(interaction).get_partial_messageable(row.channel_id))
        )
        with contextlib.suppress(discord.HTTPException):
            await target.get_partial_message(message_id).edit(view=None)


# ------------------------------------------------------------------ looking at the game


@montana.command(name="board", description="Post the current picture and prompt again")
@tracked
async def board(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    try:
        row = await service.latest_here(channel_id_of(interaction))
        game = service.game_of(row)
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if row.status == ACTIVE:
        await service.repost(row.id)
    else:
        picture = await service.game_picture(row, game)
        channel = bot_of(interaction).get_partial_messageable(row.play_channel_id)
        await channel.send(
            words.results(game, row.names),
            file=picture_file(picture),
            allowed_mentions=NO_PINGS,
        )
    await _answer(interaction, f"The board is posted in <#{row.play_channel_id}>.")


@montana.command(name="status", description="A text summary of the game (only you see it)")
@tracked
async def status(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    try:
        row = await service.latest_here(channel_id_of(interaction))
        if row.status == LOBBY:
            await _answer(interaction, lobby_text(row))
            return
        game = service.game_of(row)
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    lines = words.status(game, row.names).split("\n")
    if row.status in STOPPED_EARLY:  # nobody is waited for any more
        lines[0] = STOPPED_EARLY[row.status]
    await _answer(interaction, "\n".join(lines))


STOPPED_EARLY = {
    ENDED: "This game was ended early by a vote; below are its standings when it ended.",
    ABANDONED: "This game was abandoned.",
}


@montana.command(name="rules", description="The rules of Montana in short")
@tracked
async def rules(interaction: discord.Interaction[Any]) -> None:
    await _answer(interaction, words.RULES_HELP)


@montana.command(name="log", description="The moves so far, in notation (only you see it)")
@app_commands.describe(page="1 = the latest moves, 2 = the ones before, ...")
@tracked
async def log_command(interaction: discord.Interaction[Any], page: int = 1) -> None:
    service = service_of(interaction)
    try:
        row = await service.latest_here(channel_id_of(interaction))
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    from .history import log_page_text, log_view  # it adds commands to this module's group

    text, page, pages = await log_page_text(service, row, page)
    view = log_view(row.id, page, pages)
    await _answer(interaction, text, **({"view": view} if view else {}))


# ------------------------------------------------------------------ moves


async def typed_move(interaction: discord.Interaction[Any], notation: str) -> None:
    """A move typed as a command: same checks and effects as the matching button."""
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    try:
        row = await service.game_here(channel_id_of(interaction))
        await service.check_turn(row.id, user_id, None)
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await service.play(row.id, user_id, notation)
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    if not outcome.announced:
        await _answer(interaction, NOT_POSTED.format(channel=outcome.row.play_channel_id))
    elif outcome.awaited == user_id:
        panel = prompts.public_panel(outcome.game, outcome.row.names)
        view = panel_view(outcome.row.id, outcome.version, panel)
        text = f"{outcome.text}\n{panel.text}"
        await _answer(interaction, text, **({"view": view} if view else {}))
    else:
        await _answer(interaction, f"Done: {outcome.text}")


async def _game_for_autocomplete(interaction: discord.Interaction[Any]) -> Game | None:
    """The game of this channel, or None: autocomplete offers nothing rather than refuse."""
    service = service_of(interaction)
    try:
        return service.game_of(await service.game_here(channel_id_of(interaction)))
    except Refusal:
        return None


async def move_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The caller's legal moves now, in notation, starting with what they typed."""
    game = await _game_for_autocomplete(interaction)
    if game is None:
        return []
    typed = " ".join(current.lower().split())
    moves = [str(a) for a in game.legal_actions(str(interaction.user.id))]
    return [app_commands.Choice(name=move, value=move) for move in moves if move.startswith(typed)][
        :25
    ]


@montana.command(
    name="play", description="Make a move in notation, e.g. 'build C4' or 'bank 3 copper stone'"
)
@app_commands.describe(move="The move in notation (the list shows your legal moves)")
@app_commands.autocomplete(move=move_autocomplete)
@tracked
async def play(
    interaction: discord.Interaction[Any], move: app_commands.Range[str, 1, 100]
) -> None:
    await typed_move(interaction, move)


async def field_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The fields the caller may build on right now, cheapest first, with their costs."""
    game = await _game_for_autocomplete(interaction)
    if game is None:
        return []
    user_id = str(interaction.user.id)
    if game.awaiting != user_id:
        return []
    typed = current.strip().upper()
    choices = []
    for option in prompts.build_options(game, user_id):
        label = option.code.split()[-1]
        if typed and typed not in option.label.upper():
            continue
        name = option.label + (f" ({option.description})" if option.description else "")
        choices.append(app_commands.Choice(name=name[:100], value=label))
    return choices[:25]


@montana.command(name="build", description="Build a settlement on a field")
@app_commands.describe(field="The field's label, e.g. C4 (the list shows the ones you can pay)")
@app_commands.autocomplete(field=field_autocomplete)
@tracked
async def build(
    interaction: discord.Interaction[Any], field: app_commands.Range[str, 1, 8]
) -> None:
    await typed_move(interaction, f"build {field}")


@montana.command(name="recruit", description="Recruit: spin the wheel for 2 workers")
@tracked
async def recruit(interaction: discord.Interaction[Any]) -> None:
    await typed_move(interaction, "recruit")


@montana.command(name="stop", description="Stop building (and take a coin for each build left)")
@tracked
async def stop(interaction: discord.Interaction[Any]) -> None:
    await typed_move(interaction, "stop")


@montana.command(name="pass", description="Pass in the city auction")
@tracked
async def pass_(interaction: discord.Interaction[Any]) -> None:
    await typed_move(interaction, "pass")


@montana.command(name="end", description="End your turn (instead of using a canteen)")
@tracked
async def end(interaction: discord.Interaction[Any]) -> None:
    await typed_move(interaction, "end")


TRADE_CHOICES = [
    app_commands.Choice(name="1 grain", value="grain"),
    app_commands.Choice(name="1 pumpkin", value="pumpkin"),
    app_commands.Choice(name="1 small copper", value="copper"),
    app_commands.Choice(name="1 small stone", value="stone"),
    app_commands.Choice(name="3 coins", value="coins"),
    app_commands.Choice(name="a copper worker", value="worker copper"),
    app_commands.Choice(name="a stone worker", value="worker stone"),
    app_commands.Choice(name="a grain worker", value="worker grain"),
    app_commands.Choice(name="a pumpkin worker", value="worker pumpkin"),
]


@montana.command(name="trade", description="Trade a cow for a good, 3 coins or a worker")
@app_commands.describe(get="What you take for the cow")
@app_commands.choices(get=TRADE_CHOICES)
@tracked
async def trade(interaction: discord.Interaction[Any], get: app_commands.Choice[str]) -> None:
    await typed_move(interaction, f"trade {get.value}")


async def _open(interaction: discord.Interaction[Any], code: str) -> None:
    """Open one of the step panels (work, trade) as if its button had been pressed."""
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    try:
        row = await service.game_here(channel_id_of(interaction))
        await service.check_turn(row.id, user_id, None)
        game = service.game_of(row)
        panel = prompts.sub_panel(game, user_id, code, row.names)
    except Refusal as refusal:
        await _answer(interaction, refusal.message)
        return
    view = panel_view(row.id, row.version, panel)
    await _answer(interaction, panel.text, **({"view": view} if view else {}))


@montana.command(name="work", description="Work: the bank, a harvest place or the city")
@tracked
async def work(interaction: discord.Interaction[Any]) -> None:
    await _open(interaction, "p:work")


@montana.command(name="city", description="Go to the city (starts an auction)")
@tracked
async def city(interaction: discord.Interaction[Any]) -> None:
    await _open(interaction, "p:city")


__all__ = ["montana"]
