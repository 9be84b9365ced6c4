"""**Play on the board**: the prompt's button that launches the game as a Discord
Activity in the game's thread (issue 38.5; `bot.web.activity` is the Activity's page).

The button (`pa:<game>`) is a restart-proof `DynamicItem` and changes nothing: its
press answers the interaction with LAUNCH_ACTIVITY (callback type 12), and Discord opens
the Activity in the channel the press came from, where the Activity finds its game.
Anyone may press it (spectators watch; only a seat's owner moves, checked by the page's
moves). Put on prompts when the operator set `MONTANA_ACTIVITY=on`; if Discord refuses
(Activities not enabled for the application), the presser alone is told so.

With the Activity on, the global commands are synced with the app's entry point command
(`entry_point_payload`: type PRIMARY_ENTRY_POINT, handler DISCORD_LAUNCH_ACTIVITY), the
Activity's entry in Discord's App Launcher.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.core.store import ACTIVE, GameRow
from bot.discord_app.components import Components, DynamicItems, user_t
from i18n import LANGUAGES, Translator, translatable, translator

log = logging.getLogger(__name__)

PLAY_ON_THE_BOARD = translatable("Play on the board")
ENTRY_POINT_NAME = "play"
ENTRY_POINT_DESCRIPTION = translatable("Play Montana on the board, in Discord")
PRIMARY_ENTRY_POINT = 4
"""The application command type of the App Launcher's entry (Discord's Activities)."""
DISCORD_LAUNCH_ACTIVITY = 2
"""Its handler: Discord launches the Activity itself (no interaction reaches the bot)."""
GUILD, BOT_DM = 0, 1
CANNOT_LAUNCH = translatable(
    "Discord did not open the board here. Use “Open the live board” instead. Nothing was changed."
)


class LaunchButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"pa:(?P<game>[0-9]{1,19})",
):
    def __init__(self, game_id: int, label: str = "·") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                custom_id=f"pa:{game_id}",
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
    ) -> LaunchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            log.info("game %s: Discord refused to launch the Activity: %s", self.game_id, error)
            await interaction.response.send_message(
                user_t(interaction).translate(CANNOT_LAUNCH), ephemeral=True
            )


def with_launch_button(
    view: discord.ui.View | None, row: GameRow, t: Translator
) -> discord.ui.View | None:
    """`view` with "Play on the board" for a game under way, if a row has room (the
    buttons to play win: left out when every row is full)."""
    if row.status != ACTIVE:
        return view
    launched = view if view is not None else Components()
    try:
        launched.add_item(LaunchButton(row.id, t.translate(PLAY_ON_THE_BOARD)))
    except ValueError:
        log.info("game %s: no room for Play on the board on its prompt", row.id)
    return launched


def entry_point_payload() -> dict[str, Any]:
    """The app's entry point command as synced (with the global commands: Discord
    refuses a bulk overwrite that leaves out an app's entry point once Activities are
    on). Its own top-level command: nothing of `/montana`'s size limit is spent on it."""
    english = translator("en").translate(ENTRY_POINT_DESCRIPTION)
    return {
        "name": ENTRY_POINT_NAME,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "description": english,
        "description_localizations": {
            language: translator(language).translate(ENTRY_POINT_DESCRIPTION)
            for language in LANGUAGES
            if language != "en"
        },
        "integration_types": [GUILD],
        "contexts": [GUILD, BOT_DM],
    }


DYNAMIC_ITEMS: DynamicItems = (LaunchButton,)

__all__ = [
    "DYNAMIC_ITEMS",
    "PLAY_ON_THE_BOARD",
    "PRIMARY_ENTRY_POINT",
    "LaunchButton",
    "entry_point_payload",
    "with_launch_button",
]
