"""The link to a game's live web page (issue 28): a URL button "Open the live board",
only when `MONTANA_WEB_URL` is set and the game's server has its web pages on."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from i18n import Translator, translatable

from ..core.server_settings import server_settings
from ..core.store import GameRow, Store
from .components import Components

OPEN_LIVE_BOARD = translatable("Open the live board")


def page_url(web_url: str, token: str) -> str:
    return f"{web_url.rstrip('/')}/g/{token}"


def with_link(view: discord.ui.View | None, label: str, url: str) -> discord.ui.View:
    """`view` (or a new one) with the page's link button, if a row has room for it."""
    linked = view if view is not None else Components()
    with contextlib.suppress(ValueError):  # every row full: the buttons to play win
        linked.add_item(
            discord.ui.Button[Any](style=discord.ButtonStyle.link, label=label, url=url)
        )
    return linked


async def live_link(store: Store, web_url: str | None, row: GameRow) -> str | None:
    """The game's page address, or None (no web address set, not started, pages off)."""
    if web_url is None or row.state_json is None:
        return None
    if row.guild_id is not None and not (await server_settings(store, row.guild_id)).web:
        return None
    return page_url(web_url, await store.web_token(row.id))


async def live_board_view(
    store: Store, web_url: str | None, row: GameRow, t: Translator
) -> discord.ui.View | None:
    """A view holding the page's link button (None: no web pages to link)."""
    url = await live_link(store, web_url, row)
    if url is None:
        return None
    return with_link(None, t.translate(OPEN_LIVE_BOARD), url)
