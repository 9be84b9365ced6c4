"""The games' web pages (issue 28) over HTTP, on the bot's own store, with games played
through the real discord.py and the fake Discord: the page, its pictures and words, its
languages, its safety headers, and the 404s that keep the pages private."""

from __future__ import annotations

import json
import random
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from html import escape
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse, ClientSession
from aiohttp.test_utils import TestServer

from bot.core.delivery.pictures import BlankRenderer
from bot.core.server.server_settings import WEB, change_server_settings
from bot.core.server.settings import Settings
from bot.discord_app.client import MontanaBot
from bot.web.app import make_app
from bot.web.pages import game_page, game_words, language_of
from i18n import translator
from tests.bot.driver import Table, make_bot, open_game, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage

PNG = b"\x89PNG\r\n\x1a\n"


@dataclass
class Site:
    table: Table
    game_id: int
    thread: FakeChannel
    token: str
    url: str
    http: ClientSession

    async def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        async with self.http.get(self.url + path, headers=headers, allow_redirects=False) as r:
            return r.status, dict(r.headers), await r.read()


async def _told(stream: ClientResponse) -> dict[str, Any]:
    """The page's words the next event of a stream tells (heartbeats skipped)."""
    while True:
        line = (await stream.content.readline()).decode().strip()
        assert line or not stream.content.at_eof(), "the event stream ended"
        if line.startswith("data: "):
            told: dict[str, Any] = json.loads(line[len("data: ") :])
            return told


@pytest.fixture
async def site(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Site]:
    table = Table(fake_discord, make_bot(tmp_path / "m.sqlite3", renderer=BlankRenderer(), seed=4))
    await fake_discord.start(table.bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    token = await table.bot.store.web_token(game_id)
    server = TestServer(
        make_app(table.bot.store, poll_seconds=0.2, settings_seconds=0), host="127.0.0.1"
    )
    await server.start_server()
    async with ClientSession() as http:
        yield Site(table, game_id, thread, token, str(server.make_url("")), http)
    await server.close()


async def test_a_game_page_shows_whose_turn_the_picture_and_the_log(site: Site) -> None:
    status, headers, body = await site.get(f"/g/{site.token}")
    page = body.decode()
    assert status == 200
    row, _ = await site.table.game(site.game_id)
    assert "The game is waiting for " in page
    assert "Setup: " in page, "the setup's placements are the log's first line"
    assert f'src="/g/{site.token}/picture/{row.version}-0.png?lang=en"' in page
    assert 'alt="The board of the game now: ' in page
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert "<script>" not in page and "style=" not in page, "nothing inline (the CSP)"
    assert site.token != str(site.game_id)


async def test_the_picture_is_the_renderer_png_kept_for_good_by_its_version(site: Site) -> None:
    row, _ = await site.table.game(site.game_id)
    status, headers, body = await site.get(f"/g/{site.token}/picture/{row.version}-0.png")
    assert status == 200 and body.startswith(PNG)
    assert "immutable" in headers["Cache-Control"]
    old, headers, _ = await site.get(f"/g/{site.token}/picture/0-0.png?lang=fr")
    assert old == 302, "an old version's address leads to the picture now"
    assert headers["Location"].endswith(f"/picture/{row.version}-0.png?lang=fr")
    status, _, body = await site.get(f"/g/{site.token}/turn/0.png?v={row.version}-0")
    assert status == 200 and body.startswith(PNG)


async def test_the_page_speaks_the_readers_language_or_the_one_chosen(site: Site) -> None:
    _, _, french = await site.get(f"/g/{site.token}", **{"Accept-Language": "fr-CA,en;q=0.5"})
    assert '<html lang="fr">' in french.decode()
    assert "La partie attend " in french.decode()
    _, _, polish = await site.get(f"/g/{site.token}?lang=pl", **{"Accept-Language": "fr"})
    assert '<html lang="pl">' in polish.decode()
    status, _, state = await site.get(f"/g/{site.token}/state.json?lang=ja")
    assert status == 200 and json.loads(state)["waiting"].startswith("ゲームは")
    assert language_of(None, "de-DE,pl;q=0.3,ja;q=0.8") == "ja"
    assert language_of("xx", None) == "en"


async def test_a_game_id_in_place_of_the_token_is_not_found(site: Site) -> None:
    for path in (f"/g/{site.game_id}", f"/g/{site.game_id}/state.json", "/g/x/events"):
        status, headers, _ = await site.get(path)
        assert status == 404, path
        assert "Content-Security-Policy" in headers


async def test_a_server_that_switched_web_pages_off_has_none(site: Site) -> None:
    row, _ = await site.table.game(site.game_id)
    assert row.guild_id is not None
    await change_server_settings(site.table.bot.store, row.guild_id, {WEB: "off"})
    for path in ("", "/state.json", "/turn/0.png", "/events"):
        status, _, _ = await site.get(f"/g/{site.token}{path}")
        assert status == 404, path
    await change_server_settings(site.table.bot.store, row.guild_id, {WEB: "on"})
    status, _, _ = await site.get(f"/g/{site.token}")
    assert status == 200


async def test_names_are_escaped_on_the_page(site: Site) -> None:
    row, game = await site.table.game(site.game_id)
    hostile = "<script>alert(1)</script>"
    seats = tuple(replace(seat, name=hostile) for seat in row.players)
    row = replace(row, players=seats)
    page = game_page(row, game_words(row, game, translator("en")), site.token, "en")
    assert "<scriptalert" not in page
    assert seats[0].name == "<scriptalert(1)", "a name may keep an angle bracket"
    assert escape(seats[0].name) in page


async def test_a_saved_move_is_told_to_an_open_event_stream(site: Site) -> None:
    row, game = await site.table.game(site.game_id)
    async with site.http.get(f"{site.url}/g/{site.token}/events") as stream:
        first = await _told(stream)
        assert first["mark"] == f"{row.version}-0"
        assert first["log"][0].startswith("Setup: "), "the event carries the page's words"
        pid = game.awaiting
        assert pid is not None
        await site.table.tap_move(site.game_id, game.legal_actions(pid)[0])
        moved, _ = await site.table.game(site.game_id)
        assert moved.version > row.version
        told = await _told(stream)
        assert told["mark"] == f"{moved.version}-0"
        _, _, state = await site.get(f"/g/{site.token}/state.json")
        assert json.loads(state) == told, "the words of state.json"


async def test_an_event_stream_speaks_the_pages_language(site: Site) -> None:
    async with site.http.get(f"{site.url}/g/{site.token}/events?lang=fr") as stream:
        told = await _told(stream)
    _, _, state = await site.get(f"/g/{site.token}/state.json?lang=fr")
    assert told == json.loads(state)
    assert told["log"][0].startswith("Mise en place"), told["log"][0]


async def test_an_open_stream_ends_when_its_server_switches_web_pages_off(site: Site) -> None:
    row, game = await site.table.game(site.game_id)
    assert row.guild_id is not None
    async with site.http.get(f"{site.url}/g/{site.token}/events") as stream:
        await _told(stream)
        await change_server_settings(site.table.bot.store, row.guild_id, {WEB: "off"})
        pid = game.awaiting
        assert pid is not None
        await site.table.tap_move(site.game_id, game.legal_actions(pid)[0])
        rest = await stream.content.read()
        assert b"data: " not in rest, "the move's words were not sent"
        assert stream.content.at_eof()


async def test_an_open_page_gets_the_picture_it_was_told_of_and_an_old_one_leads_on(
    site: Site,
) -> None:
    row, game = await site.table.game(site.game_id)
    before = f"{row.version}-0"
    async with site.http.get(f"{site.url}/g/{site.token}/events") as stream:
        await _told(stream)
        status, _, _ = await site.get(f"/g/{site.token}/picture/{before}.png")
        assert status == 200
        pid = game.awaiting
        assert pid is not None
        await site.table.tap_move(site.game_id, game.legal_actions(pid)[0])
        now = (await _told(stream))["mark"]
        status, _, body = await site.get(f"/g/{site.token}/picture/{now}.png")
        assert status == 200 and body.startswith(PNG)
        status, headers, _ = await site.get(f"/g/{site.token}/picture/{before}.png")
        assert status == 302 and headers["Location"].endswith(f"/picture/{now}.png?lang=en")


async def test_a_token_is_made_once_per_game(site: Site) -> None:
    again = await site.table.bot.store.web_token(site.game_id)
    assert again == site.token and len(site.token) >= 24


def _link_buttons(message: FakeMessage) -> list[dict[str, object]]:
    return [c for c in message.walk_components() if c.get("type") == 2 and "url" in c]


async def test_with_a_web_address_prompts_and_board_answers_carry_the_live_board_link(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = MontanaBot(
        Settings(token=None, db_path=str(tmp_path / "m.sqlite3"), web_url="https://mt.example/"),
        renderer=BlankRenderer(),
        seed_source=random.Random(4),
    )
    table = Table(fake_discord, bot)
    await fake_discord.start(bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana = next(u for u in table.users.values() if u.name == "ana")
    asked = await fake_discord.slash(ana, thread, "montana", "board")
    buttons = _link_buttons(original(asked))
    token = await bot.store.web_token(game_id)
    assert [(b["label"], b["url"], b.get("custom_id")) for b in buttons] == [
        ("Open the live board", f"https://mt.example/g/{token}", None)
    ]
    row = await bot.store.get(game_id)
    assert row is not None and row.guild_id is not None
    prompt = table.prompt_message(row)
    assert [b["url"] for b in _link_buttons(prompt)] == [f"https://mt.example/g/{token}"]
    assert prompt.interactive_components(), "the buttons to play are still there"
    await change_server_settings(bot.store, row.guild_id, {WEB: "off"})
    again = await fake_discord.slash(ana, thread, "montana", "board")
    assert _link_buttons(original(again)) == [], "no link to a page switched off"
    _, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    await table.tap_move(game_id, game.legal_actions(pid)[0])
    moved, _ = await table.game(game_id)
    assert moved.version > row.version
    assert _link_buttons(table.prompt_message(moved)) == [], "nor on the next prompt"


async def test_without_a_web_address_prompts_and_board_answers_carry_no_link(site: Site) -> None:
    ana = next(u for u in site.table.users.values() if u.name == "ana")
    asked = await site.table.fake.slash(ana, site.thread, "montana", "board")
    assert _link_buttons(original(asked)) == []
    row, _ = await site.table.game(site.game_id)
    assert _link_buttons(site.table.prompt_message(row)) == []


async def test_with_a_web_port_the_bot_serves_the_pages_itself(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bot = MontanaBot(
        Settings(token=None, db_path=str(tmp_path / "m.sqlite3"), web_port=port),
        renderer=BlankRenderer(),
        seed_source=random.Random(4),
    )
    table = Table(fake_discord, bot)
    await fake_discord.start(bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    token = await bot.store.web_token(game_id)
    async with ClientSession() as http, http.get(f"http://127.0.0.1:{port}/g/{token}") as page:
        assert page.status == 200
        assert "The game is waiting for " in await page.text()
