"""The links to the web pages (issue 28): a game's live page (a URL button "Open the
live board"), a server's page and a player's page, only when `MONTANA_WEB_URL` is set
and the server has its web pages on."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.core.community.ratings import statistics_enabled
from bot.core.server.server_settings import server_settings
from bot.core.store import GameRow, Store
from bot.discord_app.components import Components
from i18n import Translator, translatable

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


OPEN_SERVER_PAGE = translatable("Open this server's page")
OPEN_PLAYER_PAGE = translatable("Open the player's page")


async def server_link(
    store: Store, web_url: str | None, guild_id: int, guild_name: str
) -> str | None:
    """The server's page address (its leaderboard, games and results), or None (no web
    address set, or the server switched its web pages off)."""
    if web_url is None or not (await server_settings(store, guild_id)).web:
        return None
    token = await store.server_web_token(guild_id, guild_name)
    return f"{web_url.rstrip('/')}/s/{token}"


async def player_link(
    store: Store, web_url: str | None, guild_id: int, guild_name: str, user_id: str
) -> str | None:
    """A player's page address on their server, or None: besides `server_link`'s
    reasons, a player who hides their statistics, or a server whose statistics are off,
    has no page."""
    if web_url is None or await store.stats_hidden(user_id):
        return None
    if not await statistics_enabled(store, guild_id):
        return None
    server = await server_link(store, web_url, guild_id, guild_name)
    return None if server is None else f"{server}/p/{user_id}"
