"""A server's page and a player's page in a real browser (issue 28): Debian's headless
Chromium through Selenium, as `test_web_browser.py` drives it (its browser and page
helpers), on pages served from the store of games played to their end through the real
discord.py and the fake Discord (`test_web_community.server_with_games`).

With MONTANA_WEB_SCREENSHOTS=<folder> the pages are saved as pictures there
(docs/web-server-desktop.png, docs/web-server-phone.png, docs/web-player-desktop.png,
docs/web-player-phone.png).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_web_community import Server, server_with_games

pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.bot.test_web_browser import DESKTOP, PHONE, Page, browser, off_loop

__all__ = ["browser"]  # the module's browser fixture, shared

LONG_NAME = "bartholomew-of-the-long-prairie"
"""A Discord name as long as Discord allows (32): the phone's table must wrap it."""
CHART_SHOWN = (
    "document.getElementById('chart') !== null"
    " && document.getElementById('chart').complete"
    " && document.getElementById('chart').naturalWidth > 0"
)
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture
async def community(
    fake_discord: FakeDiscord, tmp_path: Path, browser: Any
) -> AsyncIterator[tuple[Page, Server]]:
    names = ("ana", LONG_NAME, "cy", "dan")
    async for server in server_with_games(fake_discord, tmp_path, names):
        yield Page(browser, server.url), server


async def _texts(page: Page, css: str) -> list[str]:
    found = await page.script(
        f"return [...document.querySelectorAll({css!r})].map(e => e.textContent.trim())"
    )
    return [str(text) for text in found]


async def test_the_server_page_lists_the_leaderboard_and_games_and_leads_to_a_players_chart(
    community: tuple[Page, Server],
) -> None:
    page, server = community
    await page.open(f"/s/{server.token}")
    board = await server.table.bot.store.leaderboard(server.guild, min_games=5, offset=0, limit=10)
    assert await _texts(page, "#leaderboard tbody th.name") == [r.name for r in board]
    under_way = await _texts(page, "#under-way h3")
    assert under_way == [f"Game #{server.under_way}"]
    results = await _texts(page, "#results h3")
    assert results == [f"Game #{game_id}" for game_id in reversed(server.finished)]
    await page.screenshot("web-server-desktop.png")
    # by keyboard: Tab to the first player's link, Enter follows it
    first = board[0]
    link = await off_loop(
        lambda: page.driver.find_element(By.CSS_SELECTOR, "#leaderboard tbody th.name a")
    )
    await off_loop(lambda: link.send_keys(Keys.ENTER))
    await page.until(CHART_SHOWN)
    assert await page.script("return location.pathname") == f"/s/{server.token}/p/{first.player}"
    assert await page.text("h1") == f"{first.name} on this server"
    alt = await page.script("return document.getElementById('chart').alt")
    assert alt.startswith(f"The rating of {first.name} after each rated game")
    labels = await _texts(page, "#record dt")
    assert labels[:2] == ["Rating", "Games"]
    await page.screenshot("web-player-desktop.png")
    # and back to the server's page
    back = await off_loop(lambda: page.driver.find_element(By.ID, "back"))
    await off_loop(lambda: back.send_keys(Keys.ENTER))
    await page.until("document.getElementById('leaderboard') !== null")


async def test_on_a_phone_both_pages_are_one_column_without_sideways_scrolling(
    community: tuple[Page, Server],
) -> None:
    page, server = community
    await page.open(f"/s/{server.token}", PHONE)
    await page.until("document.getElementById('leaderboard') !== null")
    names = await _texts(page, "#leaderboard tbody th.name")
    assert any(len(name) >= len(LONG_NAME) for name in names), "the long name is there"
    assert await page.script(f"return {NO_SIDEWAYS_SCROLL}")
    table_width = await page.script(
        "return document.getElementById('leaderboard').getBoundingClientRect().right"
    )
    assert table_width <= PHONE[0], "the table fits the screen: no scrolling inside it either"
    columns = await page.script(
        "return getComputedStyle(document.querySelector('main')).gridTemplateColumns"
    )
    assert len(str(columns).split()) == 1, columns
    smallest = await page.script(
        "return Math.min(...[...document.querySelectorAll('p, li, a, h1, h2, h3, th, td')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 16
    await page.screenshot("web-server-phone.png")
    ana = server.users["ana"]
    await page.open(f"/s/{server.token}/p/{ana.id}", PHONE)
    await page.until(CHART_SHOWN)
    assert await page.script(f"return {NO_SIDEWAYS_SCROLL}")
    chart_right = await page.script(
        "return document.getElementById('chart').getBoundingClientRect().right"
    )
    assert chart_right <= PHONE[0], "the chart shrinks to the screen"
    smallest = await page.script(
        "return Math.min(...[...document.querySelectorAll('p, a, h1, dt, dd')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 16
    await page.screenshot("web-player-phone.png")
    await page.open(f"/s/{server.token}", DESKTOP)


async def test_a_hidden_players_page_is_not_found_in_the_browser(
    community: tuple[Page, Server],
) -> None:
    page, server = community
    await server.slash("ana", "me", "stats", hidden=True)
    await page.open(f"/s/{server.token}/p/{server.users['ana'].id}")
    assert await page.script("return document.title") == "404"
    assert await page.script("return document.getElementById('chart') === null")
