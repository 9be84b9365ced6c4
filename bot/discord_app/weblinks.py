"""The link to a game's live web page (issue 28): a URL button "Open the live board",
only when `MONTANA_WEB_URL` is set and the game's server has its web pages on."""

from __future__ import annotations

from typing import Any

import discord

from i18n import Translator, translatable

from ..core.server_settings import server_settings
from ..core.store import GameRow, Store
from .components import Components

OPEN_LIVE_BOARD = translatable("Open the live board")


def page_url(web_url: str, token: str) -> str:
    return f"{web_url.rstrip('/')}/g/{token}"


async def live_board_view(
    store: Store, web_url: str | None, row: GameRow, t: Translator
) -> discord.ui.View | None:
    """A view holding the page's link button (None: no web pages to link)."""
    if web_url is None or row.state_json is None:
        return None
    if row.guild_id is not None and not (await server_settings(store, row.guild_id)).web:
        return None
    view = Components()
    view.add_item(
        discord.ui.Button[Any](
            style=discord.ButtonStyle.link,
            label=t.translate(OPEN_LIVE_BOARD),
            url=page_url(web_url, await store.web_token(row.id)),
        )
    )
    return view
