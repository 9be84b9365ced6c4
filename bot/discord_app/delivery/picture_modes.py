"""The **🖼 Board** button of a game whose `pictures` setting is `on-request` (issue 25.3;
`bot.core.delivery.picture_modes`): its messages carry no picture, and a press of the button
shows the game's current picture to the presser alone.

The button (`pb:<game>`) is a restart-proof `DynamicItem`; its press goes through
`guard.run_press` (`PICTURE_OFFER`: on the game's public messages) and reads the game
from the store, so it shows the game as it is when pressed, whichever message holds it.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.core.delivery.picture_modes import WRONG_PICTURES, is_pictures_mode, pictures_choices
from bot.core.play.service import Refusal
from bot.core.store import (
    PICTURES_END_OF_TURN,
    PICTURES_EVERY_MOVE,
    PICTURES_ON_REQUEST,
    GameRow,
)
from bot.discord_app.components import Components, DynamicItems, picture_file, service_of, user_t
from bot.discord_app.guard import Offer, Place, run_press
from i18n import Translator, translatable

log = logging.getLogger(__name__)

PICTURES_CHOICES = [  # the same words as `PICTURES_LABELS`
    app_commands.Choice(name="every move", value=PICTURES_EVERY_MOVE),
    app_commands.Choice(name="end of turn: words inside a turn", value=PICTURES_END_OF_TURN),
    app_commands.Choice(name="on request: a Board button", value=PICTURES_ON_REQUEST),
]
"""The `pictures:` option of {/game new} and {/game settings} (its value a plain `str`,
so a value Discord should have refused reaches `check_pictures`, which says which are
allowed)."""


def check_pictures(value: str | None) -> None:
    """Refuse a `pictures:` value that is no setting (`Refusal`, changing nothing)."""
    if value is not None and not is_pictures_mode(value):
        refused = value[:40]
        raise Refusal(
            lambda t: t.translate(WRONG_PICTURES, value=refused, modes=pictures_choices(t))
        )


PICTURE_OFFER = Offer(
    frozenset({Place.PROMPT, Place.OTHER}),
    translatable(
        "The 🖼 Board button works on the game's own messages (or use {/board}). "
        "Nothing was changed."
    ),
)
"""The Board button: on the game's prompt (and, harmlessly, any earlier public message
of it: the picture is always the current one)."""


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"pb:(?P<game>[0-9]{1,19})",
):
    def __init__(self, game_id: int, label: str = "·") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                emoji="🖼️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"pb:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_press(
            interaction, self.game_id, PICTURE_OFFER, lambda row: show(interaction, row)
        )


async def show(interaction: discord.Interaction[Any], row: GameRow) -> None:
    """The game's current picture, for the presser alone."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = service_of(interaction)
    picture = await service.game_picture(row, service.game_of(row))
    t = user_t(interaction)
    await interaction.edit_original_response(
        content=t.gettext("Game #{game} as it is now (only you see this picture).", game=row.id),
        attachments=[picture_file(picture)],
    )


def with_board_button(
    view: discord.ui.View | None, row: GameRow, t: Translator
) -> discord.ui.View | None:
    """`view` with the Board button added when `row`'s game shows its picture on request
    (last, on the lowest row with room; left out when the prompt's own components fill
    every row: {/board} still shows the game)."""
    if row.pictures != PICTURES_ON_REQUEST:
        return view
    view = view if view is not None else Components()
    button = BoardButton(row.id, t.pgettext("button", "Board"))
    used = [item.row for item in view.children if item.row is not None]
    for candidate in (*range(max(used, default=0), 5), None):
        button.item.row = candidate
        try:
            view.add_item(button)
        except ValueError:
            continue
        return view
    log.info("game %s: no room for the Board button on its prompt", row.id)
    return view


DYNAMIC_ITEMS: DynamicItems = (BoardButton,)

__all__ = [
    "DYNAMIC_ITEMS",
    "PICTURES_CHOICES",
    "PICTURE_OFFER",
    "BoardButton",
    "check_pictures",
    "with_board_button",
]
