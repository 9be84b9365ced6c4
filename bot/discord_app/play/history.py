"""The whole move log, page by page.

`/montana game log` answers with one page (page 1 = the latest moves) and buttons to
page through the rest; the buttons are `DynamicItem`s (`ml:<game>:<page>:<tag>`) that
edit the same ephemeral answer. (A channel's past games are the community's:
`community.past_games`.)
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.core.community.ratings import AI_MOVE_NOTE
from bot.core.play.service import FORCED_NOTE, IN_ADVANCE_NOTE, GameService
from bot.core.store import GameRow
from bot.discord_app.components import Components, DynamicItems, service_of, user_t
from bot.discord_app.guard import LOG_PAGE_OFFER, run_press
from i18n import Translator, translatable_in

log = logging.getLogger(__name__)

PER_PAGE = 20
LINE_LIMIT = 90
"""A page of 20 such lines stays within Discord's 2000 characters."""
NOTES = {
    "deadline": translatable_in("log note", "passed on its deadline"),
    FORCED_NOTE: translatable_in("log note", "no other choice"),
    IN_ADVANCE_NOTE: translatable_in("log note", "passed in advance"),
    AI_MOVE_NOTE: translatable_in("log note", "played by the AI"),
}
"""How the log marks a move made for its player (the store's `moves.note`)."""


async def log_page_text(
    service: GameService, row: GameRow, page: int, t: Translator, *, typed: bool = False
) -> tuple[str, int, int]:
    """The text of a log page, the page shown (the nearest for a button; one `typed`
    that does not exist is refused) and the page count, in the reader's language `t`
    (the moves themselves stay in notation)."""
    lines, pages = await service.log_page(row, page, PER_PAGE, t, typed=typed)
    page = min(max(page, 1), pages)  # as `log_page` read it
    noted = await service.store.move_notes(row.id)
    notes = {
        f"{version}.": t.translate(NOTES[note]) if note in NOTES else note
        for version, note in noted.items()
    }
    marked = []
    for line in lines:
        note = notes.get(line.split(" ", 1)[0])
        marked.append((f"{line}  ({note})" if note else line)[:LINE_LIMIT])
    body = "\n".join(marked) or t.gettext("No moves yet.")
    title = t.gettext(
        "Moves, page {page} of {pages} (page 1 is the latest):", page=page, pages=pages
    )
    text = f"{title}\n```\n{body}\n```"
    return text[:2000], page, pages


def log_view(game_id: int, page: int, pages: int, t: Translator) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = Components()
    for tag, label, target in (
        ("f", "⏮ " + t.pgettext("button", "First moves"), pages),
        ("o", "◀ " + t.pgettext("button", "Older"), page + 1),
        ("n", t.pgettext("button", "Newer") + " ▶", page - 1),
        ("l", t.pgettext("button", "Latest") + " ⏭", 1),
    ):
        clamped = min(max(target, 1), pages)
        view.add_item(LogPageButton(game_id, clamped, tag, label, disabled=clamped == page))
    return view


class LogPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ml:(?P<game>[0-9]{1,19}):(?P<page>[0-9]{1,6}):(?P<tag>[a-z])",
):
    def __init__(
        self, game_id: int, page: int, tag: str, label: str = "·", *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"ml:{game_id}:{page}:{tag}",
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LogPageButton:
        return cls(int(match["game"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def turn_page(row: GameRow) -> None:
            service, t = service_of(interaction), user_t(interaction)
            text, page, pages = await log_page_text(service, row, self.page, t)
            view = log_view(row.id, page, pages, t)
            await interaction.response.edit_message(content=text, view=view)

        await run_press(interaction, self.game_id, LOG_PAGE_OFFER, turn_page)


DYNAMIC_ITEMS: DynamicItems = (LogPageButton,)

__all__ = [
    "DYNAMIC_ITEMS",
    "LogPageButton",
    "log_page_text",
    "log_view",
]
