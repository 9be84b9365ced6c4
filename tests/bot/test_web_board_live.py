"""The board page stays live (issue 38.7): a move the bot saves, tapped on a page or
pressed in Discord, reaches the open pages as it is announced (not at the next read of
the versions, which on SQLite comes only every second); and a tab left open a day keeps
working: its stream comes back after the server drops it (a restart), its session is
still good a day later, and once ended, signing in again lets the page move on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer

from bot.web.app import WATCHER, make_app
from bot.web.signin import SESSION_DAYS, OAuth
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_web_board import CLIENT_ID, SECRET, _a_move, _awaited, _user, board_for

GUARD = 60.0
"""Seconds a test waits for an event before failing (a guard against hanging, never a
measure: the figures are `python -m bot.webbench --play`'s)."""


class Page:
    """A page's event stream: the marks it is told, in order."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self._http = http
        self._url = url
        self._lines: AsyncIterator[bytes] | None = None
        self._answer: aiohttp.ClientResponse | None = None

    async def open(self) -> str:
        self._answer = await self._http.get(self._url)
        assert self._answer.status == 200
        self._lines = self._answer.content.__aiter__()
        return await self.next()

    async def next(self) -> str:
        """The next mark told; "" when the server ended the stream."""
        assert self._lines is not None
        while True:
            try:
                line = await asyncio.wait_for(self._lines.__anext__(), GUARD)
            except StopAsyncIteration:
                return ""
            text = line.decode().strip()
            if text.startswith("data: "):
                return str(json.loads(text[len("data: ") :])["mark"])

    def close(self) -> None:
        if self._answer is not None:
            self._answer.close()


async def test_a_move_tapped_or_pressed_reaches_the_open_pages_as_it_is_announced(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # the versions are read once an hour: only being told brings a move to the page
    async with board_for(tmp_path, fake=fake_discord, poll_seconds=3600) as board:
        mark, game, pid = await _awaited(board)
        page = Page(board.http, f"{board.url}/g/{board.token}/events?lang=en")
        try:
            assert await page.open() == mark
            signed = await board.sign_in(_user(board, pid))
            status, said = await board.move(
                signed, {"version": mark, "code": f"a:{_a_move(game, pid)}"}
            )
            assert status == 200, said
            assert await page.next() == said["version"] == (await board.now())[0]
            # the next move pressed in Discord: the same
            await board.table.bot.ai.idle()
            pressed, game = await board.now()
            other = game.awaiting
            assert other is not None and other != pid
            await board.table.tap_move(board.game_id, _a_move(game, other))
            moved = (await board.now())[0]
            assert moved != pressed
            assert await page.next() == moved
        finally:
            page.close()


async def test_a_tab_left_open_a_day_reconnects_and_moves_on_after_signing_in_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with board_for(tmp_path, fake=fake_discord) as board:
        mark, game, pid = await _awaited(board)
        other = next(p for p in board.table.users if p != pid)
        player, waiting = (
            await board.sign_in(_user(board, pid)),
            await board.sign_in(_user(board, other)),
        )
        first = Page(board.http, f"{board.url}/g/{board.token}/events?lang=en")
        assert await first.open() == mark
        # the server stops (a restart): it ends the open streams itself
        assert board.app is not None
        await board.app[WATCHER].end_streams()
        assert await first.next() == "", "the stream was dropped by the server"
        first.close()
        # the same pages served again on the same database (the bot restarted)
        again = make_app(
            board.table.bot.store,
            poll_seconds=0.2,
            settings_seconds=0,
            service=board.table.bot.service,
            oauth=OAuth(CLIENT_ID, SECRET, f"{board.url}/signin/callback", board.oauth_base),
            clock=board.clock,
        )
        server = TestServer(again, host="127.0.0.1")
        await server.start_server()
        board.url = str(server.make_url("")).rstrip("/")
        page = Page(board.http, f"{board.url}/g/{board.token}/events?lang=en")
        try:
            board.clock.now += timedelta(days=1)
            assert await page.open() == mark, "the page reconnected, told the game as it is"
            # a day later the tab's session and its token still move
            status, said = await board.move(
                player, {"version": mark, "code": f"a:{_a_move(game, pid)}"}
            )
            assert status == 200, said
            assert await page.next() == said["version"]
            # left longer than a session lasts unused: refused in words, nothing changes
            board.clock.now += timedelta(days=SESSION_DAYS, seconds=1)
            now, game = await board.now()
            assert game.awaiting == other
            move = {"version": now, "code": f"a:{_a_move(game, other)}"}
            status, said = await board.move(waiting, move)
            assert status == 401 and "session has ended" in said["said"], said
            assert (await board.now())[0] == now
            # signing in again renews it: the same page moves on, its stream still open
            renewed = await board.sign_in(_user(board, other))
            status, said = await board.move(renewed, move)
            assert status == 200, said
            assert await page.next() == said["version"] == (await board.now())[0]
        finally:
            page.close()
            await server.close()
