"""Buttons and selects that survive restarts, and what a press does.

Every component is a `DynamicItem` whose custom_id holds only small keys:
`mt:<game id>:<state version>:<code>` for buttons, `ms:<game id>:<version>:<menu>` for
selects (their option values are codes). The game itself is read from the store at
press time, so a button posted before a restart still works; one whose version is
older than the game's answers "this prompt is out of date" and changes nothing.
Codes are made by `bot.prompts` (`a:<notation>`, `p:<panel>`, `board`) plus the
lobby's `join`, `leave` and `start`.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from . import prompts
from .prompts import Panel, UnknownChoice
from .service import GameService, Outcome, Refusal
from .store import LOBBY, GameRow, Seat

if TYPE_CHECKING:
    from .client import MontanaBot

log = logging.getLogger(__name__)

JOIN, LEAVE, START = "join", "leave", "start"
LOBBY_CODES = (JOIN, LEAVE, START)
LOBBY_VERSION = 0
PICTURE_NAME = "montana.png"
UNKNOWN_BUTTON = (
    "I do not recognise this button (it may come from an older version of the bot). "
    "Use the newest game message or `/montana board`."
)
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class HasService(Protocol):
    service: GameService


def service_of(interaction: discord.Interaction[Any]) -> GameService:
    return cast("HasService", interaction.client).service


def bot_of(interaction: discord.Interaction[Any]) -> MontanaBot:
    return cast("MontanaBot", interaction.client)


def button_id(game_id: int, version: int, code: str) -> str:
    return f"mt:{game_id}:{version}:{code}"


def select_id(game_id: int, version: int, menu: str) -> str:
    return f"ms:{game_id}:{version}:{menu}"


# ------------------------------------------------------------------ components


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mt:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9}):(?P<code>.{1,80})",
):
    def __init__(self, game_id: int, version: int, choice: prompts.Choice) -> None:
        super().__init__(
            discord.ui.Button(
                label=choice.label[:80],
                style=STYLES[choice.style],
                disabled=choice.disabled,
                custom_id=button_id(game_id, version, choice.code),
                row=choice.row,
            )
        )
        self.game_id = game_id
        self.version = version
        self.code = choice.code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChoiceButton:
        return cls(int(match["game"]), int(match["version"]), prompts.Choice(match["code"], "·"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await handle_choice(interaction, self.game_id, self.version, self.code)


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ms:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9}):(?P<menu>[a-z]{1,20})",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        menu: prompts.Menu,
        *,
        row: int | None = None,
        select: discord.ui.Select[discord.ui.View] | None = None,
    ) -> None:
        if select is None:
            select = discord.ui.Select(
                custom_id=select_id(game_id, version, menu.name),
                placeholder=menu.placeholder[:150],
                options=[
                    discord.SelectOption(
                        label=option.label[:100],
                        value=option.code[:100],
                        description=(option.description or None)
                        and (option.description or "")[:100],
                    )
                    for option in menu.options[: prompts.MAX_OPTIONS]
                ],
                row=row,
            )
        super().__init__(select)
        self.game_id = game_id
        self.version = version

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
            select=select,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # a tampered client may send this id on a button, which has no values
        values = self.item.values if isinstance(self.item, discord.ui.Select) else []
        if not values:
            await reply(interaction, "Pick one of the options.")
            return
        await handle_choice(interaction, self.game_id, self.version, values[0])


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


def panel_view(game_id: int, version: int, panel: Panel) -> discord.ui.View | None:
    """The components of a panel (None when it has nothing to press)."""
    if not panel.buttons and not panel.menus:
        return None
    view = Components()
    used_rows = {choice.row or 0 for choice in panel.buttons}
    free_rows = [r for r in range(5) if r not in used_rows]
    for choice in panel.buttons:
        view.add_item(ChoiceButton(game_id, version, choice))
    for menu, row in zip(panel.menus, free_rows, strict=False):
        if menu.options:
            view.add_item(ChoiceSelect(game_id, version, menu, row=row))
    return view


def lobby_view(game_id: int) -> discord.ui.View:
    return cast(
        "discord.ui.View",
        panel_view(
            game_id,
            LOBBY_VERSION,
            Panel(
                "",
                (
                    prompts.Choice(JOIN, "Join", "success"),
                    prompts.Choice(LEAVE, "Leave", "secondary"),
                    prompts.Choice(START, "Start", "primary"),
                ),
            ),
        ),
    )


def picture_file(picture: bytes) -> discord.File:
    return discord.File(io.BytesIO(picture), filename=PICTURE_NAME)


# ------------------------------------------------------------------ replies


async def reply(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    text = text[:2000]
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


def seat_of(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)


def lobby_text(row: GameRow) -> str:
    if row.status != LOBBY:
        if row.status == "active":
            return f"**Montana** — the game is under way in <#{row.play_channel_id}>."
        return f"**Montana** — this game was {row.status}."
    players = ", ".join(f"<@{s.user_id}>" for s in row.players)
    return (
        f"**Montana** — a new game is open ({len(row.players)}/4): {players}.\n"
        "Press **Join** to take a seat (2 to 4 players), then **Start**. "
        "The seat order is drawn at random when the game starts."
    )


# ------------------------------------------------------------------ the press handler


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
        await service.check_turn(game_id, user_id, version)
        await interaction.response.defer()
        outcome = await service.play(game_id, user_id, code[2:], expected_version=version)
        await after_press(interaction, outcome, user_id)
        return
    raise UnknownChoice(code)


def _from_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def open_panel(
    interaction: discord.Interaction[Any], row: GameRow, version: int, code: str
) -> None:
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    await service.check_turn(row.id, user_id, version)
    game = service.game_of(row)
    panel = prompts.sub_panel(game, user_id, code, row.names)
    view = panel_view(row.id, version, panel)
    if _from_ephemeral(interaction):
        await interaction.response.edit_message(content=panel.text, view=view)
    elif view is not None:
        await interaction.response.send_message(panel.text, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(panel.text, ephemeral=True)


NOT_POSTED = (
    "Your move is saved, but I could not post it in <#{channel}>. Please check that I may "
    "send messages and attach files there; `/montana board` posts the game again."
)


async def after_press(
    interaction: discord.Interaction[Any], outcome: Outcome, user_id: str
) -> None:
    """Tidy the presser's ephemeral panel: the next step if still theirs, else a receipt."""
    if not outcome.announced:
        await reply(interaction, NOT_POSTED.format(channel=outcome.row.play_channel_id))
    if not _from_ephemeral(interaction):
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
        "Your board:", file=discord.File(io.BytesIO(picture), filename="board.png"), ephemeral=True
    )


# ------------------------------------------------------------------ the lobby


async def lobby_press(interaction: discord.Interaction[Any], game_id: int, code: str) -> None:
    service = service_of(interaction)
    user = seat_of(interaction.user)
    if code == JOIN:
        row = await service.join(game_id, user)
    elif code == LEAVE:
        row = await service.leave(game_id, user.user_id)
    else:
        await start_game(interaction, game_id)
        return
    view = lobby_view(game_id) if row.status == LOBBY else None
    await interaction.response.edit_message(content=lobby_text(row), view=view)


def thread_name(row: GameRow) -> str:
    return ("Montana — " + ", ".join(s.name for s in row.players))[:100]


async def start_game(interaction: discord.Interaction[Any], game_id: int) -> None:
    """Start from the Start button or `/montana start`: open the thread, deal, announce."""
    service = service_of(interaction)
    user_id = str(interaction.user.id)
    row = await service.check_start(game_id, user_id)
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
                await service.store.set_thread(game_id, thread.id)
            except discord.HTTPException as error:
                log.warning("game %s: could not open a thread: %s", game_id, error)
                note = " (I could not open a thread here, so the game plays in this channel.)"
    outcome = await service.start(game_id, user_id)
    row = outcome.row
    if thread is not None and thread.name != thread_name(row):
        # the thread was named in joining order; the seat order is known only now
        try:
            await thread.edit(name=thread_name(row))
        except discord.HTTPException as error:
            log.warning("game %s: could not rename the thread: %s", game_id, error)
    if row.lobby_message_id is not None:
        lobby = bot_of(interaction).get_partial_messageable(row.channel_id)
        try:
            await lobby.get_partial_message(row.lobby_message_id).edit(
                content=lobby_text(row) + note, view=None
            )
        except discord.HTTPException as error:
            log.warning("game %s: could not update the lobby message: %s", game_id, error)
    if not pressed_lobby:
        await interaction.edit_original_response(
            content=f"The game has started in <#{row.play_channel_id}>.{note}"
        )
