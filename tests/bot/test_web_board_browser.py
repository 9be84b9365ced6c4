"""A whole game played on the board in Debian's headless Chromium (issue 38, done-when):
a player signs in with Discord (the fake Discord's OAuth2) and plays a 2-player game
against an AI seat by tapping the targets over the picture (and a panel's choice, and
the choices the picture does not draw) only, at desktop size and at a 390 px phone
size, through the real web server, the real game service and the fake Discord, whose
thread gets each post of the game once and in order.

With MONTANA_WEB_SCREENSHOTS=<folder> the board is saved as pictures there
(docs/board-desktop.png, docs/board-phone.png).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import shutil
import socket
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp.test_utils import TestServer

from bot.core.delivery.renderer import PillowRenderer
from bot.core.server.settings import Settings
from bot.discord_app.client import MontanaBot
from bot.web.app import make_app
from bot.web.moves import TapRate
from bot.web.signin import OAuth
from render.targets import target_of
from rules.simulate import choose_action
from tests.bot.driver import Table, original
from tests.bot.fakediscord import FakeDiscord
from tests.bot.fakediscord.oauth import FakeOAuth

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

DESKTOP = (1280, 900)
PHONE = (390, 844)
TOUCH = 44
WAIT_SECONDS = 60.0
CLIENT_ID = "515151515151515151"
SECRET = "a-test-secret"
T = TypeVar("T")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    driver_path = shutil.which("chromedriver")
    if driver_path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromedriver is missing: install Debian's chromium-driver")
        pytest.skip("chromedriver is missing (scripts/test.sh installs Debian's chromium-driver)")
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    if shutil.which("chromium"):
        options.binary_location = str(shutil.which("chromium"))
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


async def off_loop(call: Callable[[], T]) -> T:
    return await asyncio.to_thread(call)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _until(driver: Any, code: str, seconds: float = WAIT_SECONDS) -> Any:
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(
        lambda d: d.execute_script(f"return {code}")
    )


def _tap(driver: Any, css: str) -> None:
    """Focus (the board brings a target out of sight into view), then click it as a
    pointer does: Chromium checks the element is what lies under the point."""
    element = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].focus()", element)
    element.click()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_a_whole_game_against_an_ai_seat_played_by_tapping_the_board(
    fake_discord: FakeDiscord, tmp_path: Path, chromium: Any, size: tuple[int, int]
) -> None:
    bot = MontanaBot(
        Settings(token=None, db_path=str(tmp_path / "m.sqlite3"), ai_delay_seconds=0),
        renderer=PillowRenderer(),  # the real pictures: the targets lie on them
        seed_source=random.Random(7),
    )
    table = Table(fake_discord, bot)
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    table.users[str(ana.id)] = ana
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    await fake_discord.press(ana, lobby, label="Add AI")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    game_id, thread = row.id, fake_discord.channel_by_id(row.play_channel_id)
    token = await bot.store.web_token(game_id)
    port = _free_port()
    site = f"http://localhost:{port}"  # a secure context: the Secure cookies are kept
    oauth = FakeOAuth(CLIENT_ID, SECRET, {f"{site}/signin/callback"})
    oauth.consenting = ana
    discord_oauth = TestServer(oauth.app(), host="127.0.0.1")
    await discord_oauth.start_server()
    app = make_app(
        bot.store,
        poll_seconds=0.2,
        settings_seconds=0,
        service=bot.service,
        oauth=OAuth(
            CLIENT_ID,
            SECRET,
            f"{site}/signin/callback",
            str(discord_oauth.make_url("")).rstrip("/"),
        ),
        tap_rate=TapRate(taps=10**6),
    )
    server = TestServer(app, host="127.0.0.1", port=port)
    await server.start_server()
    driver = chromium
    try:
        await bot.ai.idle()
        before = len(fake_discord.messages_in(thread))

        def sign_in() -> None:
            driver.delete_all_cookies()
            driver.set_window_size(*size)
            driver.get(f"{site}/g/{token}?lang=en")
            _until(driver, "!document.getElementById('signin').hidden")
            driver.find_element(By.ID, "signin").click()
            _until(driver, "!document.getElementById('signed-as').hidden")

        await off_loop(sign_in)
        assert (await off_loop(lambda: driver.find_element(By.ID, "signed-as").text)) == (
            "Signed in as Ana"
        )
        rng = random.Random(11)
        said_moves: list[str] = []
        sizes: list[float] = []
        shot = False
        awaited_at: dict[int, str | None] = {}
        """The player each version seen waits for (the AI moves only between them)."""
        while True:
            await bot.ai.idle()
            row, game = await table.game(game_id)
            awaited_at[row.version] = game.awaiting
            if game.is_over:
                break
            mark = f"{row.version}-{row.undo_epoch}"
            assert game.awaiting == str(ana.id), "the AI has moved: the game waits for ana"
            laid = (
                f"document.body.dataset.choices === '{mark}'"
                f" && document.body.dataset.mark === '{mark}'"
            )
            await off_loop(partial(_until, driver, laid))
            if not shot and game.pending.kind == "main":
                shot = True
                sizes = await off_loop(
                    lambda: driver.execute_script(
                        "return [...document.querySelectorAll('.target')].map(e => {"
                        " const r = e.getBoundingClientRect();"
                        " return Math.min(r.width, r.height) })"
                    )
                )
                folder = os.environ.get("MONTANA_WEB_SCREENSHOTS")
                if folder:
                    name = "board-phone.png" if size == PHONE else "board-desktop.png"
                    await off_loop(partial(driver.save_screenshot, str(Path(folder) / name)))
                assert await off_loop(lambda: driver.find_element(By.ID, "turn-note").text) == (
                    "Your turn: tap a highlighted place on the board, or a choice below it."
                )
            _, action = choose_action(game, rng)
            code = f"a:{action}"
            key = target_of(game, action)

            def tap(key: str | None = key, code: str = code) -> None:
                driver.execute_script("document.getElementById('said').textContent = ''")
                on_board = key is not None and driver.find_elements(
                    By.CSS_SELECTOR, f'.target[data-key="{key}"]'
                )
                if on_board:
                    _tap(driver, f'.target[data-key="{key}"]')
                    if not driver.find_element(By.ID, "panel").get_attribute("hidden"):
                        _tap(driver, f'#panel-choices button[data-code="{code}"]')
                else:
                    _tap(driver, f'#beside-choices button[data-code="{code}"]')
                _until(driver, "document.getElementById('said').textContent !== ''")

            await off_loop(tap)
            said = await off_loop(lambda: driver.find_element(By.ID, "said").text)
            after, _ = await table.game(game_id)
            assert after.version > row.version, f"{code}: {said}"
            said_moves.append(said)
        # at the zoom it opened with, every target of the first main decision was large
        # enough for a finger
        assert sizes and min(sizes) >= TOUCH - 0.5, sizes
        posts = fake_discord.messages_in(thread)[before:]
        assert await bot.store.owed(game_id) == [], "nothing left owed"
        texts = [post.content for post in posts]
        at = 0
        for said in said_moves:
            # each move from the page is told in the thread, in the order of the taps (a
            # turn's steps gather in its post, as when pressed in Discord)
            move = said.rstrip(".").split(". ")[-1].split(" (")[0].split(",")[0].split(" and ")[0]
            found = [i for i, text in enumerate(texts) if move in text and i >= at]
            assert found, (move, said)
            at = found[0]
        # exactly once, in order: the thread's posts are the outbox's delivered messages,
        # one to one, each outbox row's once, in the outbox's order
        rows = await bot.store.query(
            "SELECT id, kind, version, body, message_id FROM outbox WHERE game_id = ? "
            "AND delivered_at IS NOT NULL AND message_id IS NOT NULL "
            "AND kind NOT IN ('clear', 'recheck') ORDER BY id",
            (game_id,),
        )
        shown = {post.id for post in posts}
        outboxed = [row for row in rows if int(row["message_id"]) in shown]
        delivered = [int(row["message_id"]) for row in outboxed]
        assert list(dict.fromkeys(delivered)) == [post.id for post in posts], (
            "every post of the game in the thread is an outbox row's, in the outbox's order"
        )
        # a turn's steps gather in its post (later rows edit it): a post's rows follow
        # each other, none comes back to a post once the next one is made
        assert [message for message, _ in itertools.groupby(delivered)] == [p.id for p in posts]
        assert len({row["id"] for row in outboxed}) == len(outboxed), "each row delivered once"
        # the pings: the awaited player, once on each post handing them the turn, in order
        expected = [
            ana.id
            for row in outboxed
            if row["kind"] == "post"
            and json.loads(row["body"]).get("handover")
            and awaited_at.get(int(row["version"])) == str(ana.id)
        ]
        assert [user for post in posts for user in post.pinged_ids] == expected
        assert expected, "the player was pinged when the AI handed them the turn"
        assert "summary" in posts[-1].content
    finally:
        await server.close()
        await discord_oauth.close()
