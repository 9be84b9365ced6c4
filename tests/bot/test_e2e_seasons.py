"""Seasons (issue 40 point 5) through real discord.py and the fake Discord, on SQLite and
PostgreSQL: `/montana server settings season:` starts one (refused to a non-admin, a bad
name refused, nothing changed either way); a game rated in it counts in the season's
leaderboard and statistics, shown by default, and in the all-time ones, shown on
request; the next season's start keeps the ended one's champion, named on the
leaderboard and on the server's web page."""

from __future__ import annotations

from typing import Any

import discord
from aiohttp.test_utils import TestClient, TestServer

from bot.core.community import ratings
from bot.core.store import FORGOTTEN_NAME, PlayerRating
from bot.discord_app.client import MontanaBot
from bot.web.app import make_app
from tests.bot.driver import Table, embed_of
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.bot.test_e2e_ratings import _save_ratings, bot_on, finish

ADMIN = discord.Permissions(manage_guild=True)
SETTINGS = "montana server settings"


async def play(
    fake: FakeDiscord, table: Table, channel: FakeChannel, users: list[FakeUser], seed: int
) -> int:
    """A game of `users` opened, started and played to its end in `channel` (its last
    move typed, so its end is rated as any game's)."""
    for user in users:
        table.users[str(user.id)] = user
    created = await fake.slash(users[0], channel, "montana", "game", "new")
    assert created.original is not None
    for user in users[1:]:
        await fake.press(user, created.original, label="Join")
    await fake.press(users[0], created.original, label="Start")
    row = await table.bot.store.open_game_in(channel.id)
    assert row is not None
    await finish(fake, table, row.id, fake.channel_by_id(row.play_channel_id), seed=seed)
    assert (await table.row(row.id)).status == "finished"
    return row.id


def board_names(embed: dict[str, Any]) -> list[str]:
    """The names on the leaderboard's table, best first."""
    lines = embed.get("description", "").splitlines()
    rows = [line for line in lines if line.split() and line.split()[0].isdigit()]
    return [line.split("  ")[-1].removesuffix(" ◀") for line in rows]


def field(embed: dict[str, Any], name: str) -> str:
    return next((f["value"] for f in embed.get("fields", []) if f["name"] == name), "")


async def test_a_season_rates_its_games_alone_and_keeps_its_champion(
    fake_discord: FakeDiscord, database: str
) -> None:
    bot = bot_on(database)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    guild = fake_discord.guild_id
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    # a veteran of the server, rated before any season
    old = fake_discord.add_user("old")
    veteran = PlayerRating(str(old.id), "old", 30.0, 2.0, 1480, 9, 5, 0, 2, "2026-01-01T00:00:00")
    await bot.store.in_transaction(lambda tx: _save_ratings(tx, guild, [veteran]))
    # one game before the season: all time only
    await play(fake_discord, table, fake_discord.channel, [ana, ben], seed=11)
    before = await bot.store.rating_of(guild, str(ana.id))
    assert before is not None and before.games == 1
    board = await fake_discord.slash(ana, fake_discord.channel, "montana", "leaderboard")
    assert embed_of(board)["title"] == "🏆 Montana leaderboard — Montana Test"
    assert field(embed_of(board), "Past seasons' champions") == ""

    started = await fake_discord.slash(
        admin, fake_discord.channel, SETTINGS, options={"season": "Spring 2027"}
    )
    assert "season 1 (Spring 2027) started" in started.text
    assert "- Season: season 1 (Spring 2027), since <t:" in started.text
    assert "Champion" not in started.text  # no season ended
    for seed in range(5):
        game = await play(fake_discord, table, fake_discord.channel, [ana, ben], seed=20 + seed)
    season_rows = await bot.store.season_results_of(guild, 1, str(ana.id))
    assert len(season_rows) == 5

    # the leaderboard: this season by default, ana and ben alone
    board = await fake_discord.slash(ana, fake_discord.channel, "montana", "leaderboard")
    embed = embed_of(board)
    assert embed["title"].endswith(", season 1 (Spring 2027)")
    ana_name, ben_name = [(await table.row(game)).seat_names[str(u.id)] for u in (ana, ben)]
    assert sorted(board_names(embed)) == sorted([ana_name, ben_name])
    season_ana = await bot.store.season_rating_of(guild, 1, str(ana.id))
    all_ana = await bot.store.rating_of(guild, str(ana.id))
    assert season_ana is not None and all_ana is not None
    assert (season_ana.games, all_ana.games) == (5, 6)
    assert f"{season_ana.rating:>6} {5:>5}" in embed["description"]
    # all time on request: the veteran too, and ana's all-time rating
    board = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "leaderboard", options={"period": "all"}
    )
    embed = embed_of(board)
    assert embed["title"].endswith(", all time")
    assert sorted(board_names(embed)) == sorted([ana_name, ben_name, "old"])
    assert f"{all_ana.rating:>6} {6:>5}" in embed["description"]
    # the statistics likewise
    stats = await fake_discord.slash(ana, fake_discord.channel, "montana", "stats")
    assert embed_of(stats)["title"].endswith("on this server, season 1 (Spring 2027)")
    assert field(embed_of(stats), "Games").startswith("5 games, ")
    stats = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "stats", options={"period": "all"}
    )
    assert embed_of(stats)["title"].endswith("on this server, all time")
    assert field(embed_of(stats), "Games").startswith("6 games, ")

    # the next season: the ended one's champion is its leaderboard's first
    (first,) = await bot.store.season_leaderboard(
        guild, 1, min_games=ratings.PROVISIONAL_GAMES, offset=0, limit=1
    )
    started = await fake_discord.slash(
        admin, fake_discord.channel, SETTINGS, options={"season": "Summer 2027"}
    )
    assert "season 2 (Summer 2027) started" in started.text
    assert (
        f"Champion of season 1 (Spring 2027): {first.name}, with a rating of {first.rating}."
        in started.text
    )
    board = await fake_discord.slash(ben, fake_discord.channel, "montana", "leaderboard")
    embed = embed_of(board)
    assert embed["title"].endswith(", season 2 (Summer 2027)")
    assert board_names(embed) == [] and "Nobody has 5 rated games" in embed["description"]
    assert field(embed, "Past seasons' champions") == (
        f"• season 1 (Spring 2027): {first.name}, rating {first.rating}"
    )
    # the all-time board goes on, and names the champions too
    board = await fake_discord.slash(
        ben, fake_discord.channel, "montana", "leaderboard", options={"period": "all"}
    )
    assert sorted(board_names(embed_of(board))) == sorted([ana_name, ben_name, "old"])
    assert first.name in field(embed_of(board), "Past seasons' champions")
    nothing = await fake_discord.slash(ana, fake_discord.channel, "montana", "stats")
    assert "has no finished game in season 2 (Summer 2027) yet" in nothing.text

    # the server's web page: this season's leaderboard and the past champions
    async with TestClient(
        TestServer(make_app(bot.store, poll_seconds=0.2, settings_seconds=0))
    ) as client:
        token = await bot.store.server_web_token(guild, "Montana Test")
        page = await (await client.get(f"/s/{token}")).text()
        assert "Leaderboard, season 2 (Summer 2027)" in page
        assert f"<li>season 1 (Spring 2027): {first.name}, rating {first.rating}</li>" in page

    # a champion who asks to be forgotten stays the season's champion, unnamed
    champion = ana if first.player == str(ana.id) else ben
    await bot.store.forget_player(str(champion.id))
    (ended,) = [s for s in await bot.store.seasons_of(guild) if not s.current]
    assert ended.champion_name == FORGOTTEN_NAME
    assert await bot.store.season_rating_of(guild, 1, str(champion.id)) is None
    board = await fake_discord.slash(ben, fake_discord.channel, "montana", "leaderboard")
    assert "(a former player)" in field(embed_of(board), "Past seasons' champions")


async def test_a_refused_or_bad_season_changes_nothing(
    fake_discord: FakeDiscord, database: str
) -> None:
    bot: MontanaBot = bot_on(database)
    await fake_discord.start(bot)
    guild = fake_discord.guild_id
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    ana = fake_discord.add_user("ana")
    refused = await fake_discord.slash(
        ana, fake_discord.channel, SETTINGS, options={"season": "Spring"}
    )
    assert refused.ephemeral
    assert "Only members allowed to manage this server" in refused.text
    assert "Nothing was changed" in refused.text
    for bad in ("x" * 41, "   ", "Spring\n2027"):
        answered = await fake_discord.slash(
            admin, fake_discord.channel, SETTINGS, options={"season": bad, "turn_hours": 5}
        )
        assert answered.ephemeral
        assert "A season's name has 1 to 40 characters on one line" in answered.text
        assert "Nothing was changed" in answered.text
    assert await bot.store.seasons_of(guild) == []
    assert await bot.store.guild_settings(guild) == {}  # the other option was not saved
    shown = await fake_discord.slash(admin, fake_discord.channel, SETTINGS)
    assert "- Season: none (the leaderboard is all time)" in shown.text
    # a name of 40 characters is taken, its spaces tidied
    started = await fake_discord.slash(
        admin, fake_discord.channel, SETTINGS, options={"season": "  " + "y" * 40}
    )
    assert f"season 1 ({'y' * 40}) started" in started.text
    assert [s.number for s in await bot.store.seasons_of(guild)] == [1]


async def test_the_all_time_leaderboard_pages_as_all_time(
    fake_discord: FakeDiscord, database: str
) -> None:
    bot = bot_on(database)
    await fake_discord.start(bot)
    guild = fake_discord.guild_id
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    users = [fake_discord.add_user(f"p{n:02}") for n in range(12)]
    players = [
        PlayerRating(str(u.id), u.name, 25.0, 2.0, 1500 - 10 * n, 6, 2, 0, 1, "2026-01-01")
        for n, u in enumerate(users)
    ]
    await bot.store.in_transaction(lambda tx: _save_ratings(tx, guild, players))
    await fake_discord.slash(admin, fake_discord.channel, SETTINGS, options={"season": "One"})
    first = await fake_discord.slash(
        users[0], fake_discord.channel, "montana", "leaderboard", options={"period": "all"}
    )
    assert embed_of(first)["title"].endswith(", all time")
    assert first.original is not None
    second = await fake_discord.press(users[0], first.original, label="Next ▶")
    assert embed_of(second)["title"].endswith(", all time")
    assert board_names(embed_of(second)) == ["p10", "p11", "p00"]
    assert "Page 2 of 2" in embed_of(second)["footer"]["text"]
    # the season's own board has nobody yet, and no page to turn
    season = await fake_discord.slash(users[0], fake_discord.channel, "montana", "leaderboard")
    assert embed_of(season)["title"].endswith(", season 1 (One)")
    assert board_names(embed_of(season)) == []
