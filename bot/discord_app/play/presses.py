"""What a press on a game message does: a move, a step panel, the presser's board,
taking back the last move (Undo) or passing in advance in the city auction.

`handle_choice` serves every `ChoiceButton` and `ChoiceSelect` (through the client); a
code a feature above the game flow serves (the AI's Hint, `ai_players.aiplayers.PRESSES`)
is handed to it through `served`, which the client passes.
A press reads its game once: the row is loaded, checked for the presser, and passed
down to the service, whose save is guarded by the store's version (and undo epoch)
check.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Any

import discord

from bot.core.play import prompts
from bot.core.play.prompts import Panel, UnknownChoice
from bot.core.play.service import NO_BOARD, Outcome, Refusal
from bot.core.runtime import metrics
from bot.core.store import GameRow
from bot.core.wording import words
from bot.discord_app.components import (
    NOT_SHOWN,
    from_ephemeral,
    picture_file,
    reply,
    row_view,
    service_of,
    user_t,
)
from bot.discord_app.guard import LOBBY_OFFER, PROMPT_OFFER, run_press
from bot.discord_app.play.lobby import LOBBY_CODES, lobby_press
from i18n import Translator

log = logging.getLogger(__name__)

Press = Callable[[discord.Interaction[Any], GameRow, int, int], Awaitable[None]]
"""What a press of a prompt's code does when another feature serves it: called with the
game's row, and the version and epoch of the message pressed."""
NO_PRESSES: Mapping[str, Press] = MappingProxyType({})


async def handle_choice(
    interaction: discord.Interaction[Any],
    game_id: int,
    version: int,
    code: str,
    epoch: int = 0,
    served: Mapping[str, Press] = NO_PRESSES,
) -> None:
    """Whatever a button or select of a Montana message asks for (`version` and `epoch`:
    the game's state the message was made for), if that message offers it; `served`: the
    codes other features serve, by code."""
    offer = LOBBY_OFFER if code in LOBBY_CODES else PROMPT_OFFER

    async def act(row: GameRow) -> None:
        await _handle_choice(interaction, row, version, code, epoch, served)

    await run_press(interaction, game_id, offer, act)


async def _handle_choice(
    interaction: discord.Interaction[Any],
    row: GameRow,
    version: int,
    code: str,
    epoch: int,
    served: Mapping[str, Press],
) -> None:
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    if code in LOBBY_CODES:
        await lobby_press(interaction, row, code)
        return
    if code == prompts.BOARD:
        await send_own_board(interaction, row)
        return
    if code.startswith("p:"):
        await open_panel(interaction, row, version, code, epoch)
        return
    if code.startswith("a:"):
        pressed_at = metrics.clock()
        turn = await service.check_turn(row, user_id, version, epoch)
        await interaction.response.defer()
        outcome = await service.play(turn, user_id, code[2:], expected_version=version)
        if outcome.announced:
            metrics.picture_posted(row.guild_id, pressed_at)
        await after_press(interaction, outcome, user_id)
        return
    if code == prompts.UNDO:
        await undo_press(interaction, row, version, epoch)
        return
    press = served.get(code)
    if press is not None:  # the Hint button: `ai_players.aiplayers.send_hint`
        await press(interaction, row, version, epoch)
        return
    if code == prompts.IN_ADVANCE:
        standing = await service.pass_in_advance(
            row, user_id, expected_version=version, expected_epoch=epoch
        )
        await reply(interaction, words.pass_in_advance_said(standing, user_t(interaction)))
        return
    raise UnknownChoice(code)


async def undo_press(
    interaction: discord.Interaction[Any], row: GameRow, version: int, epoch: int
) -> None:
    """Undo: only the player whose move it would take back may press it."""
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    mover = prompts.last_mover(service.game_of(row))
    if mover is not None and mover != user_id and row.has_player(user_id):
        raise Refusal(lambda t: words.not_your_undo(mover, row.names, t))
    await interaction.response.defer()
    outcome = await service.undo(row, user_id, expected_version=version, expected_epoch=epoch)
    await after_press(interaction, outcome, user_id)


async def open_panel(
    interaction: discord.Interaction[Any],
    row: GameRow,
    version: int | None,
    code: str,
    epoch: int | None = None,
) -> None:
    """The ephemeral panel of a step (`p:<panel>`), or its next page in place."""
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    turn = await service.check_turn(row, user_id, version, epoch)
    panel = prompts.sub_panel(turn.game, user_id, code, row.names, user_t(interaction))
    view = row_view(row, panel)
    if from_ephemeral(interaction):
        await interaction.response.edit_message(content=panel.text, view=view)
    else:
        kwargs: dict[str, Any] = {"view": view} if view else {}
        await interaction.response.send_message(panel.text, ephemeral=True, **kwargs)


async def after_press(
    interaction: discord.Interaction[Any], outcome: Outcome, user_id: str
) -> None:
    """Tidy the presser's ephemeral panel: the next step if still theirs, else a receipt."""
    t = user_t(interaction)
    if not outcome.announced:
        await reply(interaction, t.translate(NOT_SHOWN, problem=outcome.problem_in(t)))
    if not from_ephemeral(interaction):
        return
    if outcome.awaited == user_id:
        panel = prompts.public_panel(outcome.game, outcome.row.names, t)
        view = row_view(outcome.row, panel)
        await interaction.edit_original_response(
            content=f"{outcome.text}\n{panel.text}"[:2000], view=view
        )
    else:
        await interaction.edit_original_response(
            content=t.gettext("Done: {what}", what=outcome.text)[:2000],
            view=receipt_view(outcome, t),
        )


def receipt_view(outcome: Outcome, t: Translator) -> discord.ui.View | None:
    """The Undo button under a mover's "Done: …" receipt, while they may still use it."""
    if outcome.actor is None or prompts.last_mover(outcome.game) != outcome.actor:
        return None
    undo = prompts.Choice(prompts.UNDO, prompts.undo_label(t))
    return row_view(outcome.row, Panel("", (undo,)))


async def send_own_board(interaction: discord.Interaction[Any], row: GameRow) -> None:
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    if not row.has_player(user_id):
        raise Refusal(NO_BOARD)
    await interaction.response.defer(ephemeral=True, thinking=True)
    t = user_t(interaction)
    picture = await service.board_picture(row, user_id, t.language)
    await interaction.followup.send(
        t.gettext("Your board:"), file=picture_file(picture, "board.png"), ephemeral=True
    )


__all__ = [
    "NO_PRESSES",
    "Press",
    "after_press",
    "handle_choice",
    "open_panel",
    "receipt_view",
    "send_own_board",
]
