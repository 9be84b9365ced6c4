"""Buttons and selects that survive restarts, and the small helpers every feature uses.

Every component is a `DynamicItem` whose custom_id holds only small keys:
`mt:<game id>:<state>:<code>` for buttons, `ms:<game id>:<state>:<menu>` for selects
(their option values are codes). The state is the game's version, followed by
`.<undo epoch>` once moves have been taken back in the game (an id without it is of
epoch 0, so buttons posted before undo existed keep working): an undo lowers the
version, which later rises again along another line of play, so the version alone
would make a button of the undone line current again. The game itself is read from the
store at press time, so a button posted before a restart still works; one whose
version or epoch is not the game's answers "this prompt is out of date" and changes
nothing. Codes are made by `bot.core.play.prompts` (`a:<notation>`, `p:<panel>`, `board`,
`undo`, `inadvance`) plus the lobby's `join`, `leave` and `start`. A press is handed to the client
(`MontanaApp.handle_choice`), which the features (`presses`, `lobby`) serve: this
module knows no feature.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

import aiohttp
import discord
from discord import app_commands

from bot.core.delivery.outbox import Blocked, DeliveryProblem, Dropped, TryAgain
from bot.core.play import prompts
from bot.core.play.prompts import Panel
from bot.core.play.service import GameService
from bot.core.runtime.names import clean_name
from bot.core.wording import words
from bot.core.wording.refusals import why_not_saved
from i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    Language,
    Message,
    Translator,
    is_language,
    language_for_locale,
    translatable,
    translator,
)

from ..core.store import Away, GameRow, Seat, StoreError
from .app import MontanaApp
from .cards import walk
from .emojis import installed as installed_emojis

log = logging.getLogger(__name__)

PICTURE_NAME = "montana.png"
UNKNOWN_BUTTON = translatable(
    "I do not recognise this button (it may come from an older version of the bot). "
    "Use the newest game message or {/board}."
)
NOT_SHOWN = translatable("Your move is saved, but it is not shown yet: {problem}")
DATABASE_TROUBLE = translatable(
    "Nothing was changed: I could not reach the saved games just now ({why}). "
    "Please try again in a moment."
)

# Discord's JSON error codes the bot tells apart
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
CANNOT_MESSAGE_USER = 50007
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def bot_of(interaction: discord.Interaction[Any]) -> MontanaApp:
    """The bot that received `interaction`, as its features see it (`app.MontanaApp`)."""
    return cast("MontanaApp", interaction.client)


def service_of(interaction: discord.Interaction[Any]) -> GameService:
    return bot_of(interaction).service


LANGUAGE_CHOICES = [
    app_commands.Choice(name=LANGUAGE_NAMES[language], value=language) for language in LANGUAGES
]
"""A `language:` option's choices, each language in its own name ("Polski", "日本語")."""

PACE_CHOICES = [
    app_commands.Choice(name="fast: turns 2 h, city auction 1 h", value="fast"),
    app_commands.Choice(name="normal: turns 24 h, city auction 12 h", value="normal"),
    app_commands.Choice(name="slow: turns 72 h, city auction 24 h", value="slow"),
]
"""A `pace:` option's choices (`bot.core.clock.pace.PACES`; exact hours given beside win)."""


def language_name(code: str) -> str:
    return LANGUAGE_NAMES[code] if is_language(code) else code


def user_language(interaction: discord.Interaction[Any]) -> Language:
    """The language of what only this user sees (an ephemeral answer): their client's."""
    return language_for_locale(interaction.locale)


def user_t(interaction: discord.Interaction[Any]) -> Translator:
    return translator(user_language(interaction))


def game_t(row: GameRow) -> Translator:
    """The words of what everyone at the table sees: the game's language."""
    return translator(row.language if is_language(row.language) else "en")


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time zone; style "R" is
    relative ("in 3 hours"), "f" the date and time ("3 December 2026 18:00")."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def away_words(row: GameRow, player: str, away: Away, t: Translator) -> str:
    """ "Ana is away until <moment> — their deadlines are paused." (or "— the AI plays for
    them." while it plays her seat in this game), each reader in their own time zone."""
    return words.away_line(
        row.seat_names.get(player, player),
        timestamp(away.until, "f"),
        t,
        ai=player in row.taken_over,
    )


def quiet_note(until: datetime, t: Translator) -> str:
    """ "quiet until <time>" (the end of a player's quiet hours), each reader in their
    own time zone and time format (a Discord timestamp)."""
    return t.gettext("quiet until {time}", time=timestamp(until, "t"))


STATE = r"(?P<version>[0-9]{1,9})(?:\.(?P<epoch>[0-9]{1,9}))?"
"""A game's state in a custom_id: its version, and its undo epoch if not 0."""


def state_key(version: int, epoch: int) -> str:
    return f"{version}.{epoch}" if epoch else str(version)


def epoch_of(match: re.Match[str]) -> int:
    return int(match["epoch"] or 0)


def button_id(game_id: int, version: int, code: str, epoch: int = 0) -> str:
    return f"mt:{game_id}:{state_key(version, epoch)}:{code}"


def select_id(game_id: int, version: int, menu: str, epoch: int = 0) -> str:
    return f"ms:{game_id}:{state_key(version, epoch)}:{menu}"


_GAME_CHOICE = re.compile(r"m[ts]:([0-9]{1,19}):")


def games_with_live_choices(message: discord.Message) -> set[int]:
    """The games whose enabled buttons or selects (`ChoiceButton`, `ChoiceSelect`) a
    message carries: a prompt whose choices can still be pressed."""
    games: set[int] = set()
    for item in walk(message.components):  # a card's rows are inside its container
        custom_id = getattr(item, "custom_id", None)
        if not custom_id or getattr(item, "disabled", False):
            continue
        if (found := _GAME_CHOICE.match(custom_id)) is not None:
            games.add(int(found[1]))
    return games


# ------------------------------------------------------------------ components


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mt:(?P<game>[0-9]{1,19}):" + STATE + r":(?P<code>.{1,80})",
):
    def __init__(self, game_id: int, version: int, choice: prompts.Choice, epoch: int = 0) -> None:
        super().__init__(
            discord.ui.Button(
                label=choice.label[:80],
                style=STYLES[choice.style],
                disabled=choice.disabled,
                custom_id=button_id(game_id, version, choice.code, epoch),
                row=choice.row,
                emoji=installed_emojis().partial(choice.icon) if choice.icon else None,
            )
        )
        self.game_id = game_id
        self.version = version
        self.epoch = epoch
        self.code = choice.code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChoiceButton:
        return cls(
            int(match["game"]),
            int(match["version"]),
            prompts.Choice(match["code"], "·"),
            epoch_of(match),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await bot_of(interaction).handle_choice(
            interaction, self.game_id, self.version, self.code, self.epoch
        )


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ms:(?P<game>[0-9]{1,19}):" + STATE + r":(?P<menu>[a-z]{1,20})",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        menu: prompts.Menu,
        *,
        epoch: int = 0,
        row: int | None = None,
        select: discord.ui.Select[discord.ui.View] | None = None,
    ) -> None:
        if select is None:
            select = discord.ui.Select(
                custom_id=select_id(game_id, version, menu.name, epoch),
                placeholder=menu.placeholder[:150],
                options=[
                    discord.SelectOption(
                        label=option.label[:100],
                        value=option.code[:100],
                        description=(option.description or None)
                        and (option.description or "")[:100],
                        emoji=installed_emojis().partial(option.icon) if option.icon else None,
                    )
                    for option in menu.options[: prompts.MAX_OPTIONS]
                ],
                row=row,
            )
        super().__init__(select)
        self.game_id = game_id
        self.version = version
        self.epoch = epoch

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChoiceSelect:
        select = cast("discord.ui.Select[discord.ui.View]", item)
        return cls(
            int(match["game"]),
            int(match["version"]),
            prompts.Menu(match["menu"], "", ()),
            epoch=epoch_of(match),
            select=select,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # a tampered client may send this id on a button, which has no values
        values = self.item.values if isinstance(self.item, discord.ui.Select) else []
        if not values:
            await reply(interaction, user_t(interaction).gettext("Pick one of the options."))
            return
        await bot_of(interaction).handle_choice(
            interaction, self.game_id, self.version, values[0], self.epoch
        )


class Components(discord.ui.View):
    """The components of one message, which discord.py need not watch.

    Every item is a `DynamicItem`, dispatched by its registration on the client
    whatever message it comes from, so the view is stopped at birth and discord.py
    never stores it. A stored view of an ephemeral message would be kept alive 15
    minutes by a timeout task of its own: under load, thousands of views, their items
    and tasks, which every full garbage collection then has to traverse.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()


def panel_view(game_id: int, version: int, panel: Panel, epoch: int = 0) -> discord.ui.View | None:
    """The components of a panel for the game's state `version` in undo `epoch` (None
    when it has nothing to press)."""
    if not panel.buttons and not panel.menus:
        return None
    view = Components()
    used_rows = {choice.row or 0 for choice in panel.buttons}
    free_rows = [r for r in range(5) if r not in used_rows]
    for choice in panel.buttons:
        view.add_item(ChoiceButton(game_id, version, choice, epoch))
    for menu, row in zip(panel.menus, free_rows, strict=False):
        if menu.options:
            view.add_item(ChoiceSelect(game_id, version, menu, epoch=epoch, row=row))
    return view


def row_view(row: GameRow, panel: Panel) -> discord.ui.View | None:
    """The components of a panel for the game's state as `row` holds it."""
    return panel_view(row.id, row.version, panel, row.undo_epoch)


def picture_file(picture: bytes, filename: str = PICTURE_NAME) -> discord.File:
    return discord.File(io.BytesIO(picture), filename=filename)


# ------------------------------------------------------------------ replies


async def reply(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    text = text[:2000]
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


def database_trouble(error: StoreError, t: Translator) -> str:
    """What to answer when the database failed a command (nothing was changed)."""
    return t.translate(DATABASE_TROUBLE, why=why_not_saved(error, t))


def is_transient(error: BaseException) -> bool:
    """Whether Discord (or the way to it) failed for now: 5xx, 429, a timeout, a reset."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, discord.RateLimited | TimeoutError | aiohttp.ClientError | OSError)


def delivery_problem(
    error: BaseException, refused: str | Message | Callable[[Translator], str], **fields: object
) -> DeliveryProblem:
    """A Discord failure as the core's kind of delivery problem, in words (said in each
    reader's language: `problem.text(t)`).

    `refused` (a `Message` with `fields`, or a wording) says what Discord refused, for a
    refusal that only people can fix (a missing permission, a deleted channel)."""
    if isinstance(error, DeliveryProblem):
        return error
    if is_transient(error):
        retry_after = getattr(error, "retry_after", None)
        status = getattr(error, "status", None)
        if status:
            return TryAgain(
                translatable(
                    "Discord answered {status}; I keep trying and post it as soon as "
                    "Discord takes it."
                ),
                retry_after=retry_after,
                fields={"status": status},
            )
        log.warning("Discord could not be reached: %r", error)  # for the operators only
        return TryAgain(
            translatable(
                "Discord could not be reached just now; I keep trying and post it as soon "
                "as Discord takes it."
            ),
            retry_after=retry_after,
        )
    if isinstance(error, discord.HTTPException) and error.code == CANNOT_MESSAGE_USER:
        return Dropped(translatable("their direct messages are closed"))
    return Blocked(refused, fields=fields)


def shown_name(user: discord.abc.User) -> str:
    """The user's display name as the bot writes it: cleaned of mentions, links and
    markdown (`bot.core.runtime.names.clean_name`, the one cleaning of every name)."""
    return clean_name(user.display_name)


def seat_of(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)  # a Seat cleans its name


def from_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    """Whether the pressed component sits on an ephemeral message (a player's panel)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


DynamicItems = tuple[type[discord.ui.DynamicItem[Any]], ...]
"""What each feature module lists as `DYNAMIC_ITEMS`, for the client to register."""
DYNAMIC_ITEMS: DynamicItems = (ChoiceButton, ChoiceSelect)

__all__ = [
    "CANNOT_MESSAGE_USER",
    "DATABASE_TROUBLE",
    "DYNAMIC_ITEMS",
    "LANGUAGE_CHOICES",
    "MISSING_ACCESS",
    "MISSING_PERMISSIONS",
    "NOT_SHOWN",
    "PACE_CHOICES",
    "PICTURE_NAME",
    "THREAD_ARCHIVED",
    "UNKNOWN_BUTTON",
    "UNKNOWN_CHANNEL",
    "UNKNOWN_MESSAGE",
    "ChoiceButton",
    "ChoiceSelect",
    "Components",
    "DynamicItems",
    "bot_of",
    "database_trouble",
    "delivery_problem",
    "from_ephemeral",
    "game_t",
    "games_with_live_choices",
    "is_transient",
    "language_name",
    "panel_view",
    "picture_file",
    "reply",
    "row_view",
    "seat_of",
    "service_of",
    "shown_name",
    "timestamp",
    "user_language",
    "user_t",
]
