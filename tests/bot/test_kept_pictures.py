"""One drawing per version (issues 37.3 and 35.4), through the real discord.py, the fake
Discord and the web app in-process on a read-only store of the bot's database (as the
web process opens it), on SQLite and PostgreSQL: the picture the bot posted for a version
is the web page's, drawn by nobody else; what the web draws is kept for the next
request; twenty step requests draw one picture, which the web's replay slider serves
too; a member past their limit is told to wait and nothing is drawn; turns a game does
not have answer 404 (web) or a refusal (Discord) without drawing.

Drawings are counted where the web and the replay's steps call the renderer."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

import bot.core.community.replays as replays_module
import bot.web.app as web_module
from bot.core.delivery.pictures import BlankRenderer
from bot.core.server.limits import PICTURES_PER_MINUTE
from bot.core.server.settings import Settings
from bot.core.store import Store, open_store
from bot.discord_app.client import MontanaBot
from bot.discord_app.components import PICTURE_NAME
from bot.web.app import SHELF, make_app
from render.replay import turn_count
from rules import Game
from rules.simulate import choose_action
from tests.bot.driver import Table, open_game, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

STEP = "montana-turn.png"


class Drawings:
    """Every picture the web or the replay's steps draw (the renderer's entry point
    each calls, wrapped)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        for module in (web_module, replays_module):
            monkeypatch.setattr(module, "render_game", self._counted(module.render_game))

    def _counted(self, draw: Callable[..., bytes]) -> Callable[..., bytes]:
        def counted(*args: Any, **kwargs: Any) -> bytes:
            self.count += 1
            return draw(*args, **kwargs)

        return counted


@dataclass
class Site:
    table: Table
    game_id: int
    thread: FakeChannel
    token: str
    web_store: Store
    server: TestServer
    url: str
    http: ClientSession
    drawings: Drawings

    async def get(self, path: str) -> tuple[int, bytes]:
        async with self.http.get(f"{self.url}/g/{self.token}{path}") as answer:
            return answer.status, await answer.read()

    def user(self, name: str) -> FakeUser:
        return next(u for u in self.table.users.values() if u.name == name)


async def _web(store: Store) -> TestServer:
    server = TestServer(make_app(store, poll_seconds=0.2, settings_seconds=0), host="127.0.0.1")
    await server.start_server()
    return server


@pytest.fixture
async def site(
    fake_discord: FakeDiscord, database: str, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Site]:
    settings = Settings(token=None, db_path=database, ai_delay_seconds=0.0)
    bot = MontanaBot(settings, renderer=BlankRenderer(), seed_source=random.Random(4))
    table = Table(fake_discord, bot)
    await fake_discord.start(bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    token = await bot.store.web_token(game_id)
    # the web process's own store: the bot's database opened read-only
    web_store = await open_store(database, read_only=True)
    server = await _web(web_store)
    drawings = Drawings(monkeypatch)
    try:
        async with ClientSession() as http:
            yield Site(
                table,
                game_id,
                thread,
                token,
                web_store,
                server,
                str(server.make_url("")),
                http,
                drawings,
            )
    finally:
        await server.close()
        await web_store.close()


async def _played_to(site: Site, turns: int) -> Game:
    """The game played by the random policy to turn `turns` and saved (as moves are)."""
    row, game = await site.table.game(site.game_id)
    rng = random.Random(5)
    while not game.is_over and turn_count(game) < turns:
        game.apply(*choose_action(game, rng))
    await site.table.bot.store.commit_move(
        site.game_id, row.version, game.to_dict(), game.version, game.log[row.version :]
    )
    return game


def _mark(row: Any) -> str:
    return f"{row.version}-{row.undo_epoch}"


async def test_the_picture_posted_for_a_version_is_the_web_pages_and_nobody_draws_it_again(
    site: Site,
) -> None:
    row, game = await site.table.game(site.game_id)
    posted = site.table.prompt_message(row).files[PICTURE_NAME]
    status, body = await site.get(f"/picture/{_mark(row)}.png?lang=en")
    assert status == 200 and body == posted, "the page shows the picture the bot posted"
    status, body = await site.get(f"/turn/{turn_count(game)}.png?lang=en")
    assert status == 200 and body == posted, "the slider at the turn in progress too"
    assert site.drawings.count == 0, "the web drew nothing the bot drew"

    # a language the bot did not post in: drawn once by the web, and kept beside the games
    status, french = await site.get(f"/picture/{_mark(row)}.png?lang=fr")
    assert status == 200 and french != posted and site.drawings.count == 1
    await site.server.app[SHELF].settled()  # written to the table after it was served
    again = await _web(site.web_store)  # a web process restarted: nothing in its memory
    try:
        async with site.http.get(
            str(again.make_url(f"/g/{site.token}/picture/{_mark(row)}.png?lang=fr"))
        ) as answer:
            assert answer.status == 200 and await answer.read() == french
    finally:
        await again.close()
    assert site.drawings.count == 1, "kept in the table: a second request draws nothing"


async def test_twenty_step_requests_draw_once_and_the_web_slider_serves_that_picture(
    site: Site,
) -> None:
    game = await _played_to(site, 6)
    ana = site.user("ana")
    view = original(
        await site.table.fake.slash(
            ana, site.thread, "montana", "game", "replay", options={"step": True}
        )
    )
    select = next(c for c in view.interactive_components() if c.get("type") == 3)
    await site.table.fake.select(ana, view, select["custom_id"], ["3"])
    assert view.content.startswith(f"**Turn 3 of {turn_count(game)}**")
    drawn = site.drawings.count
    picture = view.files[STEP]
    assert drawn >= 1
    for _ in range(PICTURES_PER_MINUTE - 2):  # 20 requests in all, the limit
        select = next(c for c in view.interactive_components() if c.get("type") == 3)
        await site.table.fake.select(ana, view, select["custom_id"], ["3"])
        assert view.files[STEP] == picture
    assert site.drawings.count == drawn, "turn 3 was drawn once for all its requests"
    await site.table.bot.replays.shelf.settled()  # type: ignore[union-attr]
    status, body = await site.get("/turn/3.png?lang=en")
    assert status == 200 and body == picture, "the web's slider serves the step's picture"
    assert site.drawings.count == drawn

    # the 21st request in the minute: the worded wait, and nothing drawn
    select = next(c for c in view.interactive_components() if c.get("type") == 3)
    refused = await site.table.fake.select(ana, view, select["custom_id"], ["5"])
    assert refused.ephemeral and "most replays and turns allowed (20 a minute)" in (refused.content)
    assert "please try again in" in refused.content
    assert view.content.startswith("**Turn 3 of"), "the view is left as it was"
    replayed = await site.table.fake.slash(ana, site.thread, "montana", "game", "replay")
    assert "most replays and turns allowed" in original(replayed).content
    assert site.drawings.count == drawn and site.table.bot.replays.drawn == 0
    # another member is not held by Ana's count
    ben_view = original(
        await site.table.fake.slash(
            site.user("ben"), site.thread, "montana", "game", "replay", options={"step": True}
        )
    )
    assert ben_view.files[STEP].startswith(b"\x89PNG")


def _step_id(view: FakeMessage, turn: str) -> str:
    custom_id = next(
        str(c["custom_id"])
        for c in view.interactive_components()
        if str(c.get("custom_id", "")).startswith("rs:")
    )
    head, _, _ = custom_id.rpartition(":")
    return f"{head.rpartition(':')[0]}:{turn}:n"


async def test_turns_a_game_does_not_have_are_refused_before_anything_is_drawn(
    site: Site,
) -> None:
    game = await _played_to(site, 4)
    last = turn_count(game)
    for turn in ("-1", "-7", "99999", "abc", "+1", "1.0", "%D9%A1", str(last + 1)):
        status, _ = await site.get(f"/turn/{turn}.png?lang=en")
        assert status == 404, turn
    assert site.drawings.count == 0, "an address that names no turn draws nothing"

    ana = site.user("ana")
    view = original(
        await site.table.fake.slash(
            ana, site.thread, "montana", "game", "replay", options={"step": True}
        )
    )
    shown, drawn = view.content, site.drawings.count
    forged = await site.table.fake.press_forged(ana, view, _step_id(view, "999999"))
    assert forged.ephemeral
    assert f"has no turn 999999: its turns go from 0 (the setup) to {last}" in forged.content
    select = next(c for c in view.interactive_components() if c.get("type") == 3)
    beyond = await site.table.fake.press_forged(
        ana, view, str(select["custom_id"]), values=[str(last + 1)]
    )
    assert f"has no turn {last + 1}" in beyond.content
    assert view.content == shown and site.drawings.count == drawn
