"""What a press on a game message does: a move, a step panel, or the presser's board.

`handle_choice` serves every `ChoiceButton` and `ChoiceSelect` (through the client).
A press reads its game once: the row is loaded, checked for the presser, and passed
down to the service, whose save is guarded by the store's version check.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..core import prompts
from ..core.prompts import UnknownChoice
from ..core.service import Outcome, Refusal
from ..core.store import GameRow, StoreError
from .components import (
    NOT_SHOWN,
    UNKNOWN_BUTTON,
    bot_of,
    database_trouble,
    from_ephemeral,
    panel_view,
    picture_file,
    reply,
    service_of,
)
from .lobby import LOBBY_CODES, lobby_press

log = logging.getLogger(__name__)


async def handle_choice(
    interaction: discord.Interaction[Any], game_id: int, version: int, code: str
) -> None:
    """Whatever a button or select of a Montana message asks for."""
    try:
        async with bot_of(interaction).busy():
            await _handle_choice(interaction, game_id, version, code)
    except Refusal as refusal:
        await reply(interaction, refusal.message)
    except UnknownChoice:
        await reply(interaction, UNKNOWN_BUTTON)
    except StoreError as error:
        log.warning("a press found the database failing: %s", error)
        await reply(interaction, database_trouble(error))


async def _handle_choice(
    interaction: discord.Interaction[Any], game_id: int, version: int, code: str
) -> None:
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    if code in LOBBY_CODES:
        await lobby_press(interaction, game_id, code)
        return
    row = await service.get(game_id)
    if code == prompts.BOARD:
        await send_own_board(interaction, row)
        return
    if code.startswith("p:"):
        await open_panel(interaction, row, version, code)
        return
    if code.startswith("a:"):
        turn = await service.check_turn(row, user_id, version)
        await interaction.response.defer()
        outcome = await service.play(turn, user_id, code[2:], expected_version=version)
        await after_press(interaction, outcome, user_id)
        return
    raise UnknownChoice(code)


async def open_panel(
    interaction: discord.Interaction[Any], row: GameRow, version: int | None, code: str
) -> None:
    """The ephemeral panel of a step (`p:<panel>`), or its next page in place."""
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    turn = await service.check_turn(row, user_id, version)
    panel = prompts.sub_panel(turn.game, user_id, code, row.names)
    view = panel_view(row.id, row.version, panel)
    if from_ephemeral(interaction):
        await interaction.response.edit_message(content=panel.text, view=view)
    else:
        kwargs: dict[str, Any] = {"view": view} if view else {}
        await interaction.response.send_message(panel.text, ephemeral=True, **kwargs)


async def after_press(
    interaction: discord.Interaction[Any], outcome: Outcome, user_id: str
) -> None:
    """Tidy the presser's ephemeral panel: the next step if still theirs, else a receipt."""
    if not outcome.announced:
        await reply(interaction, NOT_SHOWN.format(problem=outcome.problem))
    if not from_ephemeral(interaction):
        return
    if outcome.awaited == user_id:
        panel = prompts.public_panel(outcome.game, outcome.row.names)
        view = panel_view(outcome.row.id, outcome.version, panel)
        await interaction.edit_original_response(
            content=f"{outcome.text}\n{panel.text}"[:2000], view=view
        )
    else:
        await interaction.edit_original_response(content=f"Done: {outcome.text}"[:2000], view=None)


async def send_own_board(interaction: discord.Interaction[Any], row: GameRow) -> None:
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    if not row.has_player(user_id):
        raise Refusal("You are not playing in this game, so you have no board here.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    picture = await service.board_picture(row, user_id)
    await interaction.followup.send(
        "Your board:", file=picture_file(picture, "board.png"), ephemeral=True
    )


__all__ = ["after_press", "handle_choice", "open_panel", "send_own_board"]
