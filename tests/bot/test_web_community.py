"""A server's web page and its players' pages (issue 28) over HTTP, from games played to
their end through the real discord.py and the fake Discord: the leaderboard ranked as
`/montana leaderboard` ranks it, the games under way and the results linked to their
pages, a player's record and rating chart, the links from Discord, and the 404s that
keep hidden players, servers with their pages off and guessed addresses private."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from bot.core.community import ratings
from bot.core.community import standings as community
from bot.core.community.ratings import PROVISIONAL_GAMES
from bot.core.server.server_settings import WEB, change_server_settings
from bot.core.server.settings import Settings
from bot.core.store import PlayerRating
from bot.discord_app.client import MontanaBot
from bot.web.app import NAMES_SECONDS, make_app
from bot.web.server_pages import BoardLine, GameLine, server_page
from i18n import translator
from tests.bot.driver import PNG, Table, embed_of, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.bot.test_e2e_ratings import _save_ratings, finish

WEB_URL = "https://mt.example"


def _links(message: FakeMessage) -> list[tuple[str, str]]:
    return [
        (str(c["label"]), str(c["url"]))
        for c in message.walk_components()
        if c.get("type") == 2 and "url" in c
    ]


async def play(fake: FakeDiscord, table: Table, players: list[FakeUser]) -> tuple[int, FakeChannel]:
    """`/montana game new` by the first player, Join by the others, Start: the game and
    where it plays."""
    created = await fake.slash(players[0], fake.channel, "montana", "game", "new")
    lobby = created.original
    assert lobby is not None
    for user in players[1:]:
        await fake.press(user, lobby, label="Join")
    await fake.press(players[0], lobby, label="Start")
    row = await table.bot.store.open_game_in(fake.channel.id)
    assert row is not None
    return row.id, fake.channel_by_id(row.play_channel_id)


@dataclass
class Server:
    fake: FakeDiscord
    table: Table
    users: dict[str, FakeUser]
    finished: list[int]
    under_way: int
    token: str
    url: str
    http: ClientSession

    @property
    def guild(self) -> int:
        return self.fake.guild_id

    async def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        async with self.http.get(self.url + path, headers=headers, allow_redirects=False) as r:
            return r.status, dict(r.headers), await r.read()

    async def page(self, path: str = "", **headers: str) -> str:
        status, _, body = await self.get(f"/s/{self.token}{path}", **headers)
        assert status == 200, path
        return body.decode()

    async def slash(self, who: str, *path: str, **options: Any) -> Any:
        return await self.fake.slash(
            self.users[who], self.fake.channel, "montana", *path, options=options or None
        )


async def server_with_games(
    fake: FakeDiscord,
    tmp_path: Path,
    names: tuple[str, str, str, str] = ("ana", "ben", "cy", "dan"),
) -> AsyncIterator[Server]:
    """Ana, Ben and Cy finish four games together, Ana and Ben a fifth (Cy stays
    provisional: 4 rated games), and Ana and Dan play one under way; the server's page
    token comes from the link `/montana leaderboard` carries. `names`: their Discord
    names (`users` keeps them under ana, ben, cy and dan)."""
    bot = MontanaBot(
        Settings(token=None, db_path=str(tmp_path / "m.sqlite3"), web_url=WEB_URL + "/"),
        seed_source=random.Random(3),
    )
    table = Table(fake, bot)
    await fake.start(bot)
    users = {
        key: fake.add_user(name)
        for key, name in zip(("ana", "ben", "cy", "dan"), names, strict=True)
    }
    for user in users.values():
        table.users[str(user.id)] = user
    finished = []
    for number in range(PROVISIONAL_GAMES):
        seated = ["ana", "ben", "cy"] if number < PROVISIONAL_GAMES - 1 else ["ana", "ben"]
        game_id, thread = await play(fake, table, [users[name] for name in seated])
        await finish(fake, table, game_id, thread, seed=10 + number)
        finished.append(game_id)
    under_way, _ = await play(fake, table, [users["ana"], users["dan"]])
    asked = await fake.slash(users["ana"], fake.channel, "montana", "leaderboard")
    (link,) = _links(original(asked))
    assert link[0] == "Open this server's page" and link[1].startswith(f"{WEB_URL}/s/")
    token = link[1].rsplit("/", 1)[1]
    server = TestServer(make_app(bot.store, poll_seconds=0.2, settings_seconds=0), host="127.0.0.1")
    await server.start_server()
    async with ClientSession() as http:
        yield Server(fake, table, users, finished, under_way, token, str(server.make_url("")), http)
    await server.close()


@pytest.fixture
async def server(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Server]:
    async for made in server_with_games(fake_discord, tmp_path):
        yield made


def _leaderboard_names(page: str) -> list[str]:
    """The names of the leaderboard's lines, in their order on the page."""
    table = page.split('<table id="leaderboard">', 1)[1].split("</table>", 1)[0]
    return [
        cell.split(">", 1)[1].split("</a>", 1)[0]
        for cell in table.split('<th scope="row" class="name"><a href=')[1:]
    ]


async def test_the_server_page_ranks_as_the_leaderboard_and_links_its_games(
    server: Server,
) -> None:
    status, headers, body = await server.get(f"/s/{server.token}")
    page = body.decode()
    assert status == 200 and "default-src 'none'" in headers["Content-Security-Policy"]
    assert "<script>" not in page and "style=" not in page, "nothing inline (the CSP)"
    assert "<h1>Montana on Montana Test</h1>" in page, "the server's name, as the bot saw it"
    # the leaderboard: the same people in the same order as /montana leaderboard
    board = await server.table.bot.store.leaderboard(
        server.guild, min_games=PROVISIONAL_GAMES, offset=0, limit=10
    )
    assert sorted(r.name for r in board) == ["Ana", "Ben"]
    assert _leaderboard_names(page) == [r.name for r in board]
    embed = embed_of(await server.slash("dan", "leaderboard"))["description"]
    embed_names = [line.split()[-1] for line in embed.splitlines() if line.strip()[:1].isdigit()]
    assert embed_names == [r.name for r in board]
    for place, rating in enumerate(board, start=1):
        link = f'href="/s/{server.token}/p/{rating.player}?lang=en">{rating.name}</a>'
        assert link in page
        assert f'<td class="place">{place}</td>' in page
        assert f'<td class="number">{rating.rating}</td>' in page
    cy = server.users["cy"]
    cy_rating = await server.table.bot.store.rating_of(server.guild, str(cy.id))
    assert cy_rating is not None and cy_rating.games == PROVISIONAL_GAMES - 1
    assert "Cy" not in _leaderboard_names(page), "a provisional player is not ranked yet"
    assert "AI (" not in page
    # the game under way: whose turn and what they must do, its pace, its page
    store = server.table.bot.store
    tokens = await store.web_tokens_of([server.under_way, *server.finished])
    under_way = page.split('<ul id="under-way"', 1)[1].split("</ul>", 1)[0]
    assert f'<a href="/g/{tokens[server.under_way]}?lang=en">Game #{server.under_way}</a>' in (
        under_way
    )
    assert "Ana, Dan" in under_way and "The game is waiting for " in under_way
    assert "Pace: " in under_way
    # the results: the latest first, each with its standings, its day and its page
    results = page.split('<ul id="results"', 1)[1].split("</ul>", 1)[0]
    shown = [int(part.split("</a>", 1)[0]) for part in results.split(">Game #")[1:]]
    assert shown == list(reversed(server.finished))
    for game_id in server.finished:
        assert f'href="/g/{tokens[game_id]}?lang=en"' in results
    assert results.count("Ended on ") == len(server.finished)
    last, game = await server.table.game(server.finished[-1])
    winner = game.result().ranking[0]
    assert f"1. {last.names[winner.player]} — " in results


async def test_a_games_page_leads_back_to_its_servers_page(server: Server) -> None:
    store = server.table.bot.store
    tokens = await store.web_tokens_of([server.under_way])
    status, _, body = await server.get(f"/g/{tokens[server.under_way]}?lang=fr")
    assert status == 200
    back = f'<a id="back" href="/s/{server.token}?lang=fr">← Retour à Montana Test</a>'
    assert back in body.decode(), "the server's page, in the page's language"
    # a server whose page the bot never linked has none to lead to
    await store.transaction([("DELETE FROM web_server_tokens WHERE guild_id = ?", (server.guild,))])
    status, _, body = await server.get(f"/g/{tokens[server.under_way]}")
    assert status == 200 and 'id="back"' not in body.decode()


async def test_the_server_page_speaks_the_readers_language(server: Server) -> None:
    french = await server.page("", **{"Accept-Language": "fr-FR,fr;q=0.9"})
    assert '<html lang="fr">' in french and "Classement" in french
    assert "Parties en cours" in french and "Partie n°\xa0" in french
    japanese = await server.page("?lang=ja", **{"Accept-Language": "fr"})
    assert '<html lang="ja">' in japanese and "進行中のゲーム" in japanese
    assert f'/s/{server.token}/p/{server.users["ana"].id}?lang=ja"' in japanese


async def test_a_players_page_shows_their_record_and_rating_chart(server: Server) -> None:
    ana = server.users["ana"]
    page = await server.page(f"/p/{ana.id}")
    record = await community.player_record(server.table.bot.store, server.guild, str(ana.id))
    assert record.stats is not None and record.stats.games == PROVISIONAL_GAMES
    assert "<h1>Ana on this server</h1>" in page
    # the same words as /montana stats's fields
    asked = await server.slash("ana", "stats")
    for field in embed_of(asked)["fields"]:
        assert f"<dt>{escape(field['name'])}</dt><dd>{escape(field['value'])}</dd>" in page
    assert f'<a id="back" href="/s/{server.token}?lang=en">' in page
    chart = f"/s/{server.token}/p/{ana.id}/rating.png?lang=en"
    assert f'src="{chart}"' in page
    assert 'alt="The rating of Ana after each rated game on this server, now ' in page
    status, headers, body = await server.get(chart)
    assert status == 200 and body.startswith(PNG) and headers["Content-Type"] == "image/png"
    assert body == await community.rating_chart_of(
        "Ana", record.stats, record.place, translator("en")
    ), "the chart /montana stats draws"
    # a provisional player has a page too: their record, no place
    cy_page = await server.page(f"/p/{server.users['cy'].id}")
    assert f"(provisional: {PROVISIONAL_GAMES - 1} of {PROVISIONAL_GAMES} rated games)" in cy_page


async def test_a_hidden_player_is_off_the_page_and_their_page_is_not_found(
    server: Server,
) -> None:
    ben = server.users["ben"]
    hidden = await server.slash("ben", "me", "stats", hidden=True)
    assert "hidden" in hidden.content
    page = await server.page()
    assert _leaderboard_names(page) == ["Ana"]
    assert f"/p/{ben.id}" not in page
    for path in (f"/p/{ben.id}", f"/p/{ben.id}/rating.png"):
        status, _, _ = await server.get(f"/s/{server.token}{path}")
        assert status == 404, path
    own = await server.slash("ben", "stats")
    assert embed_of(own) and _links(original(own)) == [], "no link to a page that is not there"
    shown = await server.slash("ben", "me", "stats", hidden=False)
    assert "shown again" in shown.content
    assert _leaderboard_names(await server.page()) != ["Ana"]


async def test_discord_links_the_players_page_from_stats(server: Server) -> None:
    ana = server.users["ana"]
    asked = await server.slash("ben", "stats", player=ana)
    assert _links(original(asked)) == [
        ("Open the player's page", f"{WEB_URL}/s/{server.token}/p/{ana.id}")
    ]
    server.users["ben"].locale = "fr"
    french = await server.slash("ben", "leaderboard")
    assert _links(original(french)) == [
        ("Ouvrir la page du serveur", f"{WEB_URL}/s/{server.token}")
    ]


async def test_a_server_with_statistics_off_shows_its_games_without_a_leaderboard(
    server: Server,
) -> None:
    store = server.table.bot.store
    await store.set_guild_settings(server.guild, {ratings.STATISTICS: ratings.OFF})
    page = await server.page()
    assert "This server switched its statistics and ratings off: there is no leaderboard." in page
    assert '<table id="leaderboard">' not in page
    assert f"Game #{server.under_way}</a>" in page and "Ended on " in page, "its games still"
    ana = server.users["ana"]
    status, _, _ = await server.get(f"/s/{server.token}/p/{ana.id}")
    assert status == 404
    asked = await server.slash("ben", "stats", player=ana)
    assert _links(original(asked)) == [], "no player page to link"
    board = await server.slash("ben", "leaderboard")
    assert [label for label, _ in _links(original(board))] == ["Open this server's page"]


async def test_a_server_that_switched_web_pages_off_has_none_and_discord_links_none(
    server: Server,
) -> None:
    await change_server_settings(server.table.bot.store, server.guild, {WEB: "off"})
    ana = server.users["ana"]
    for path in ("", f"/p/{ana.id}", f"/p/{ana.id}/rating.png"):
        status, _, body = await server.get(f"/s/{server.token}{path}")
        assert status == 404, path
        assert "There is no page here" in body.decode(errors="replace") or path.endswith(".png")
    board = await server.slash("ben", "leaderboard")
    stats = await server.slash("ben", "stats", player=ana)
    assert _links(original(board)) == [] and _links(original(stats)) == []
    await change_server_settings(server.table.bot.store, server.guild, {WEB: "on"})
    assert "Montana on" in await server.page()


async def test_guessed_addresses_are_not_found(server: Server) -> None:
    ana = server.users["ana"]
    for path in (
        f"/s/{server.guild}",
        f"/s/{server.guild}/p/{ana.id}",
        f"/s/{server.token}/p/ai-level:normal",
        f"/s/{server.token}/p/{server.users['dan'].id}",  # no finished game here
        f"/s/{server.token}/p/123",
        f"/s/{server.token}x",
    ):
        status, headers, _ = await server.get(path)
        assert status == 404, path
        assert "Content-Security-Policy" in headers


async def test_an_ai_level_is_never_among_the_people(server: Server) -> None:
    level = PlayerRating(
        "ai-level:hard", "AI (hard)", 40.0, 1.0, 1900, 30, 25, 3, 9, "2026-11-01T00:00:00+00:00"
    )
    await server.table.bot.store.in_transaction(lambda tx: _save_ratings(tx, server.guild, [level]))
    page = await server.page()
    assert "AI (hard)" not in page and sorted(_leaderboard_names(page)) == ["Ana", "Ben"]
    status, _, _ = await server.get(f"/s/{server.token}/p/ai-level:hard")
    assert status == 404


async def test_the_leaderboards_page_buttons_keep_the_link(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = MontanaBot(
        Settings(token=None, db_path=str(tmp_path / "m.sqlite3"), web_url=WEB_URL),
        seed_source=random.Random(3),
    )
    await fake_discord.start(bot)
    users = [fake_discord.add_user(f"p{n:02}") for n in range(12)]
    players = [
        PlayerRating(
            str(u.id), u.name, 25.0, 2.0, 1500 - n, 6, 2, 0, 1, "2026-01-01T00:00:00+00:00"
        )
        for n, u in enumerate(users)
    ]
    await bot.store.in_transaction(lambda tx: _save_ratings(tx, fake_discord.guild_id, players))
    first = await fake_discord.slash(users[0], fake_discord.channel, "montana", "leaderboard")
    (link,) = _links(original(first))
    assert link[0] == "Open this server's page"
    assert first.original is not None
    second = await fake_discord.press(users[0], first.original, label="Next ▶")
    assert "Page 2 of 2" in embed_of(second)["footer"]["text"]
    assert _links(original(second)) == [link], "the page buttons and the link, still"


async def test_without_a_web_address_the_leaderboard_carries_no_link(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = MontanaBot(
        Settings(token=None, db_path=str(tmp_path / "m.sqlite3")), seed_source=random.Random(3)
    )
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    asked = await fake_discord.slash(ana, fake_discord.channel, "montana", "leaderboard")
    assert embed_of(asked) and _links(original(asked)) == []


async def test_a_hostile_name_is_escaped_on_the_server_and_player_pages(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    names = ("ana", "<img src=x onerror=alert(1)>&co", "cy", "dan")
    async for server in server_with_games(fake_discord, tmp_path, names):
        ben = server.users["ben"]
        rating = await server.table.bot.store.rating_of(server.guild, str(ben.id))
        assert rating is not None and rating.name.startswith("<Img"), "a name may keep a <"
        for page in (await server.page(), await server.page(f"/p/{ben.id}")):
            assert "<Img" not in page and escape(rating.name) in page


def test_names_are_escaped_on_the_server_page() -> None:
    hostile = "Zoé <img src=x onerror=alert(1)> & 'q'"
    line = BoardLine(1, "111", hostile, 1040, 6, 3, "+12")
    game = GameLine(7, "tok", hostile, f"The game is waiting for {hostile} to pass.", "Pace: fast.")
    page = server_page("tok", hostile, [line], 0, [game], [game], "en")
    assert "<img src=x" not in page and escape(hostile) in page
    assert page.count(escape(hostile)) >= 4, "the server's name, the line and both games"


async def test_forget_me_reaches_a_running_web_process_within_seconds(server: Server) -> None:
    """Issue 35.7: a game that is over keeps its version when `/montana me forget`
    renames a player in it; the running web process reads it again within
    `NAMES_SECONDS`, so its page (words, picture address, state) shows the new name
    without a restart."""
    store = server.table.bot.store
    game_id = server.finished[-1]
    token = (await store.web_tokens_of([game_id]))[game_id]
    row = await store.get(game_id)
    assert row is not None
    old_name = row.names[str(server.users["ana"].id)]
    status, _, body = await server.get(f"/g/{token}?lang=en")
    assert status == 200 and escape(old_name) in body.decode()
    _, _, before = await server.get(f"/g/{token}/state.json?lang=en")
    asked = await server.slash("ana", "me", "forget")
    done = await server.fake.press(server.users["ana"], original(asked), label="Forget me")
    assert "gone from" in done.text
    deadline = asyncio.get_running_loop().time() + NAMES_SECONDS + 3
    while True:
        status, _, body = await server.get(f"/g/{token}?lang=en")
        page = body.decode()
        if "(a former player)" in page:
            break
        assert asyncio.get_running_loop().time() < deadline, "the old name stayed"
        await asyncio.sleep(0.25)
    assert escape(old_name) not in page
    _, _, after = await server.get(f"/g/{token}/state.json?lang=en")
    assert old_name not in after.decode() and "(a former player)" in after.decode()
    assert json.loads(after)["mark"] != json.loads(before)["mark"]  # new picture address
    # the store keeps the English as a marker; each page words it in its reader's language
    for language, worded in (("fr", "(ancien joueur)"), ("ja", "（元プレイヤー）")):
        _, _, shown = await server.get(f"/g/{token}?lang={language}")
        assert worded in shown.decode() and "(a former player)" not in shown.decode()
        _, _, state = await server.get(f"/g/{token}/state.json?lang={language}")
        assert worded in json.dumps(json.loads(state), ensure_ascii=False)
