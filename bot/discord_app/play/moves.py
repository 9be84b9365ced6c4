"""Moves typed as commands: `/montana play | build | recruit | work | city | trade |
pass | stop | end | undo`, with autocomplete of the caller's legal choices.

A typed move is checked against the game exactly like a button press, only without a
state version (it applies to the game as it is now). `/montana pass` typed by a player
queued to answer the running city auction later is their pass in advance (withdrawn by
pressing "Pass in advance"); `/montana undo` takes back the caller's last move.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.core.delivery.outbox import Outcome
from bot.core.play import passes, prompts
from bot.core.play.service import GameService, Refusal
from bot.core.store import GameRow
from bot.core.wording import words
from bot.discord_app.components import NOT_SHOWN, DynamicItems, row_view, service_of, user_t
from bot.discord_app.group import answer, channel_id_of, montana, tracked
from bot.discord_app.play.presses import open_panel, receipt_view
from rules import Game


async def caller_and_game(
    interaction: discord.Interaction[Any],
) -> tuple[GameService, str, GameRow]:
    """The service, who typed the command, and the game of this channel or thread."""
    service = service_of(interaction)
    row = await service.game_here(channel_id_of(interaction))
    return service, str(interaction.user.id), row


async def typed_move(interaction: discord.Interaction[Any], notation: str) -> None:
    """A move typed as a command: same checks and effects as the matching button."""
    service, user_id, row = await caller_and_game(interaction)
    turn = await service.check_turn(row, user_id, None)
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await service.play(turn, user_id, notation)
    await answer_typed(interaction, outcome, user_id)


async def answer_typed(
    interaction: discord.Interaction[Any], outcome: Outcome, user_id: str
) -> None:
    """What a typed move or undo tells its author: the next step if still theirs, else
    a receipt (with Undo while they may still take the move back)."""
    t = user_t(interaction)
    if not outcome.announced:
        await answer(interaction, t.translate(NOT_SHOWN, problem=outcome.problem_in(t)))
    elif outcome.awaited == user_id:
        panel = prompts.public_panel(outcome.game, outcome.row.names, t)
        view = row_view(outcome.row, panel)
        text = f"{outcome.text}\n{panel.text}"
        await answer(interaction, text, **({"view": view} if view else {}))
    else:
        view = receipt_view(outcome, t)
        done = t.gettext("Done: {what}", what=outcome.text)
        await answer(interaction, done, **({"view": view} if view else {}))


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
    for option in prompts.build_options(game, user_id, user_t(interaction)):
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


@montana.command(name="pass", description="Pass in the city auction, now or in advance")
@tracked
async def pass_(interaction: discord.Interaction[Any]) -> None:
    service, user_id, row = await caller_and_game(interaction)
    game = service.game_of(row) if row.state_json is not None else None
    if game is not None and user_id in passes.queued_later(game):
        await service.pass_in_advance(row, user_id, wanted=True)
        await answer(interaction, words.pass_in_advance_said(True, user_t(interaction)))
        return
    await typed_move(interaction, "pass")


@montana.command(name="undo", description="Take back your last move (until another player moves)")
@tracked
async def undo(interaction: discord.Interaction[Any]) -> None:
    service, user_id, row = await caller_and_game(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await service.undo(row, user_id)
    await answer_typed(interaction, outcome, user_id)


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
    """Open one of the step panels (work, city) as if its button had been pressed."""
    row = await service_of(interaction).game_here(channel_id_of(interaction))
    await open_panel(interaction, row, None, code)


@montana.command(name="work", description="Work: the bank, a harvest place or the city")
@tracked
async def work(interaction: discord.Interaction[Any]) -> None:
    await _open(interaction, "p:work")


@montana.command(name="city", description="Go to the city (starts an auction)")
@tracked
async def city(interaction: discord.Interaction[Any]) -> None:
    await _open(interaction, "p:city")


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__ = ["typed_move"]
