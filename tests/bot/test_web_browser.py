"""The games' web pages in a real browser (issue 28): Debian's headless Chromium, driven
by Selenium through Debian's chromedriver (installed by `scripts/test.sh`, never
downloaded), on a page served from the bot's store while the game is played through
the real discord.py and the fake Discord.

Selenium blocks: its calls run in a thread, so that the page's server (on this test's
event loop) keeps answering. With MONTANA_WEB_SCREENSHOTS=<folder> the pages are also
saved as pictures there (docs/web-desktop.png, docs/web-phone.png).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp.test_utils import TestServer

from bot.core.delivery.pictures import BlankRenderer
from bot.core.server.server_settings import WEB, change_server_settings
from bot.web.app import make_app
from render.replay import turn_count
from rules.simulate import choose_action
from tests.bot.driver import Table, make_bot, open_game
from tests.bot.fakediscord import FakeDiscord

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

LIVE_SECONDS = 2.0
"""The issue's promise: a saved move is on the open page within 2 s, without a reload."""
LOAD_SECONDS = 60.0
"""A page and its pictures loading on a shared machine (drawing is seconds there)."""
DESKTOP = (1280, 900)
PHONE = (390, 844)
T = TypeVar("T")


def _chromedriver() -> str:
    found = shutil.which("chromedriver")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromedriver is missing: install Debian's chromium-driver")
        pytest.skip("chromedriver is missing (scripts/test.sh installs Debian's chromium-driver)")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    if shutil.which("chromium"):
        options.binary_location = str(shutil.which("chromium"))
    driver = webdriver.Chrome(service=Service(_chromedriver()), options=options)
    try:
        yield driver
    finally:
        driver.quit()


async def off_loop(call: Callable[[], T]) -> T:
    return await asyncio.to_thread(call)


class Page:
    def __init__(self, driver: Any, url: str) -> None:
        self.driver = driver
        self.url = url

    async def open(self, path: str, size: tuple[int, int] = DESKTOP) -> None:
        def go() -> None:
            self.driver.set_window_size(*size)
            self.driver.get(self.url + path)

        await off_loop(go)

    async def script(self, code: str) -> Any:
        return await off_loop(lambda: self.driver.execute_script(code))

    async def until(self, code: str, seconds: float = LOAD_SECONDS) -> Any:
        """Wait for the script `code` (an expression) to be true in the page."""
        return await off_loop(
            lambda: WebDriverWait(self.driver, seconds, poll_frequency=0.05).until(
                lambda d: d.execute_script(f"return {code}")
            )
        )

    async def text(self, css: str) -> str:
        return str(await off_loop(lambda: self.driver.find_element(By.CSS_SELECTOR, css).text))

    async def screenshot(self, name: str) -> None:
        folder = os.environ.get("MONTANA_WEB_SCREENSHOTS")
        if folder:
            await off_loop(lambda: self.driver.save_screenshot(str(Path(folder) / name)))


PICTURES_SHOWN = (
    "document.getElementById('picture').complete"
    " && document.getElementById('picture').naturalWidth > 0"
    " && document.getElementById('step').complete"
    " && document.getElementById('step').naturalWidth > 0"
)


@pytest.fixture
async def game_page(
    fake_discord: FakeDiscord, tmp_path: Path, browser: Any
) -> AsyncIterator[tuple[Page, Table, int, str]]:
    table = Table(fake_discord, make_bot(tmp_path / "m.sqlite3", renderer=BlankRenderer(), seed=4))
    await fake_discord.start(table.bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    token = await table.bot.store.web_token(game_id)
    server = TestServer(make_app(table.bot.store, settings_seconds=0), host="127.0.0.1")
    await server.start_server()
    try:
        yield Page(browser, str(server.make_url(""))), table, game_id, token
    finally:
        await server.close()


async def _played_to_turn(table: Table, game_id: int, turn: int) -> None:
    """Moves saved (as the bot saves them) until the game reaches `turn`."""
    row, game = await table.game(game_id)
    rng = random.Random(5)
    while turn_count(game) < turn and not game.is_over:
        pid, action = choose_action(game, rng)
        game.apply(pid, action)
    await table.bot.store.commit_move(
        game_id, row.version, game.to_dict(), game.version, game.log[row.version :]
    )


async def test_a_game_page_shows_the_picture_whose_turn_and_the_log(game_page: Any) -> None:
    page, _, _, token = game_page
    await page.open(f"/g/{token}")
    await page.until(PICTURES_SHOWN)
    assert (await page.text("#waiting")).startswith("The game is waiting for ")
    log = await page.script(
        "return [...document.querySelectorAll('#log li')].map(e => e.textContent)"
    )
    assert log and log[0].startswith("Setup: ")
    alt = await page.script("return document.getElementById('picture').alt")
    assert alt.startswith("The board of the game now: ")
    await page.screenshot("web-desktop.png")


async def test_a_move_made_in_discord_appears_on_the_open_page_without_a_reload(
    game_page: Any,
) -> None:
    page, table, game_id, token = game_page
    await page.open(f"/g/{token}")
    await page.until(PICTURES_SHOWN)
    await page.script("window.notReloaded = true")
    row, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    before = await page.script("return document.querySelectorAll('#log li').length")
    await table.tap_move(game_id, game.legal_actions(pid)[0])
    moved, _ = await table.game(game_id)
    mark = f"{moved.version}-{moved.undo_epoch}"
    assert moved.version > row.version
    await page.until(f"document.body.dataset.mark === '{mark}'", LIVE_SECONDS)
    assert await page.script("return window.notReloaded === true"), "the page was not reloaded"
    assert f"/picture/{mark}.png" in await page.script(
        "return document.getElementById('picture').src"
    )
    assert f"/picture/{mark}.png" in await page.script(
        "return document.getElementById('step').src"
    ), "the replay's turn in progress is the picture now"
    after = await page.script("return document.querySelectorAll('#log li').length")
    assert after >= before
    fetched = await page.script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [name for name in fetched if "state.json" in name or "/turn/" in name], (
        "the event carried the words, and the picture is the replay's step: one image per move"
    )
    await page.until(PICTURES_SHOWN)


async def test_the_replay_slider_steps_through_the_turns_by_keyboard(game_page: Any) -> None:
    page, table, game_id, token = game_page
    await _played_to_turn(table, game_id, 3)
    _, game = await table.game(game_id)
    last = turn_count(game)
    await page.open(f"/g/{token}?lang=fr")
    await page.until(PICTURES_SHOWN)
    assert await page.text("#turn-shown") == str(last)
    slider = await off_loop(lambda: page.driver.find_element(By.ID, "turn"))
    await off_loop(lambda: slider.send_keys(Keys.ARROW_LEFT))
    assert await page.text("#turn-shown") == str(last - 1)
    assert f"/turn/{last - 1}.png" in await page.script(
        "return document.getElementById('step').src"
    )
    await off_loop(lambda: slider.send_keys(Keys.HOME))
    assert await page.text("#turn-shown") == "0"
    await page.until(PICTURES_SHOWN)
    assert "Tour 1\u202f: " in await page.text("#log"), "the log speaks the chosen language"


async def test_a_phone_sized_page_is_one_column_without_sideways_scrolling(
    game_page: Any,
) -> None:
    page, _, _, token = game_page
    await page.open(f"/g/{token}", PHONE)
    await page.until(PICTURES_SHOWN)
    assert await page.script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    columns = await page.script(
        "return getComputedStyle(document.querySelector('main')).gridTemplateColumns"
    )
    assert len(str(columns).split()) == 1, columns
    smallest = await page.script(
        "return Math.min(...[...document.querySelectorAll('p, li, label, a, h1, h2')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 16
    await page.screenshot("web-phone.png")


async def test_a_disabled_servers_page_and_a_game_id_for_a_token_are_not_found(
    game_page: Any,
) -> None:
    page, table, game_id, token = game_page
    await page.open(f"/g/{game_id}")
    assert await page.script("return document.title") == "404"
    assert await page.script("return document.getElementById('picture') === null")
    row, _ = await table.game(game_id)
    assert row.guild_id is not None
    await change_server_settings(table.bot.store, row.guild_id, {WEB: "off"})
    await page.open(f"/g/{token}")
    assert await page.script("return document.title") == "404"
    assert "switched off" in await page.text("main")
