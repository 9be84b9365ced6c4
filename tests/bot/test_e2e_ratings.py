"""Ratings, statistics, the leaderboard and the end-of-game summary through real
discord.py and the fake Discord, on SQLite and PostgreSQL (issue 22)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.core.community import ratings
from bot.core.server.settings import Settings
from bot.core.store import PlayerRating, SeatResult
from bot.core.store.ratings import rating_values
from bot.discord_app.client import MontanaBot
from rules import Game
from rules.simulate import choose_action
from tests.bot.driver import PNG, Table, embed_of, open_game
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser


def bot_on(database: str, seed: int = 1) -> MontanaBot:
    return MontanaBot(
        Settings(token=None, db_path=database, ai_delay_seconds=0.0),
        seed_source=random.Random(seed),
    )


async def to_the_last_move(table: Table, game_id: int, seed: int = 2) -> tuple[str, Any]:
    """Play the game (saved through the store, like moves) to one move before its end;
    the player and the move that ends it."""
    row, game = await table.game(game_id)
    rng = random.Random(seed)
    states = []
    while not game.is_over:
        states.append((game.to_dict(), game.version, choose_action(game, rng)))
        game.apply(*states[-1][2])
    state, version, (player, action) = states[-1]
    before = Game.from_dict(state)
    await table.bot.store.commit_move(
        game_id, row.version, before.to_dict(), before.version, before.log[row.version :]
    )
    assert version == before.version
    return player, action


async def finish(
    fake: FakeDiscord, table: Table, game_id: int, thread: FakeChannel, seed: int = 2
) -> None:
    player, action = await to_the_last_move(table, game_id, seed)
    await table.type_move(thread, player, action)
    await table.bot.ai.idle()


def summaries(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.messages_in(channel) if "summary" in m.content.lower()]


async def test_a_game_end_is_rated_once_summarised_and_shown_on_the_leaderboard(
    fake_discord: FakeDiscord, database: str
) -> None:
    bot = bot_on(database)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    assert thread.id != fake_discord.channel.id
    await finish(fake_discord, table, game_id, thread)
    row, game = await table.game(game_id)
    assert row.status == "finished"
    results: list[SeatResult] = await bot.store.game_results(game_id)
    assert len(results) == 2 and all(r.rated for r in results)
    # the summary in the thread: ranking with the tie-break figures, rating changes, length
    (summary,) = summaries(fake_discord, thread)
    winner = next(r for r in results if r.place == 1)
    assert f"1. {winner.name} — {winner.settlements} settlements" in summary.content
    assert (
        f"rating {winner.rating_after}? (+{(winner.rating_after or 0) - 1000})" in summary.content
    )
    assert "cows and canteens" in summary.content and "Length:" in summary.content
    assert summary.pinged_ids == []
    # and one short line in the parent channel, naming the winner and the thread
    lines = [m for m in fake_discord.messages_in(fake_discord.channel) if "is over" in m.content]
    assert (
        len(lines) == 1
        and winner.name in lines[0].content
        and f"<#{thread.id}>" in lines[0].content
    )
    # the leaderboard: one game is provisional, so nobody is on it yet; the asker is told why
    ana = next(u for u in table.users.values() if u.name == "ana")
    board = await fake_discord.slash(ana, fake_discord.channel, "montana", "leaderboard")
    assert board.ephemeral
    text = board.original.text if board.original else ""
    assert "4 more rated games to go" in text
    # the stats of a player, with the chart of their rating
    ben = next(u for u in table.users.values() if u.name == "ben")
    looked = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "stats", options={"player": ben}
    )
    assert looked.ephemeral
    embed = embed_of(looked)
    ben_result = next(r for r in results if r.seat == str(ben.id))
    assert ben_result.name in embed["title"]
    labels = {f["name"]: f["value"] for f in embed["fields"]}
    assert labels["Games"].startswith("1 game, ") and "Median time to answer" in labels
    assert labels["Rating"].startswith(f"{ben_result.rating_after}? (provisional: 1 of 5")
    assert looked.files["rating.png"].startswith(PNG)
    # posted on request
    posted = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "stats", options={"post": True}
    )
    ana_name = next(r.name for r in results if r.seat == str(ana.id))
    assert not posted.ephemeral and ana_name in embed_of(posted)["title"]
    records = await fake_discord.slash(ana, fake_discord.channel, "montana", "records")
    assert (
        records.ephemeral and f"Most settlements in a game: {winner.settlements}" in records.content
    )
    assert game.is_over


async def test_a_crash_between_the_last_move_and_the_summary_rates_once_and_posts_once(
    fake_discord: FakeDiscord, database: str
) -> None:
    bot = bot_on(database)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    player, action = await to_the_last_move(table, game_id)
    # Discord is down when the last move is saved: nothing of it reaches the players ...
    fake_discord.inject("POST /channels/{id}/messages", 503, times=10_000)
    fake_discord.inject("PATCH /channels/{id}/messages/{id}", 503, times=10_000)
    await table.type_move(thread, player, action)
    fake_discord.errors.clear()
    assert (await table.row(game_id)).status == "finished"
    assert summaries(fake_discord, thread) == []
    # ... and the bot dies before it could deliver them
    await fake_discord.stop(bot)
    fake_discord.world.faults.clear()
    again = bot_on(database)
    await fake_discord.start(again)
    table.bot = again
    summary = await fake_discord.wait_for_message(thread, lambda m: "summary" in m.content.lower())
    await fake_discord.wait_for_message(fake_discord.channel, lambda m: "is over" in m.content)
    await again.service.delivery.run_due()
    assert len(summaries(fake_discord, thread)) == 1
    assert (
        len([m for m in fake_discord.messages_in(fake_discord.channel) if "is over" in m.content])
        == 1
    )
    # rated once: one row per seat, one game counted for each player
    results = await again.store.game_results(game_id)
    assert len(results) == 2
    for result in results:
        rating = await again.store.rating_of(fake_discord.guild_id, result.player)
        assert rating is not None and rating.games == 1
        assert f"rating {result.rating_after}?" in summary.content
    assert await ratings.rate_past_games(again.store) == 0


async def test_hidden_statistics_and_forget_me(fake_discord: FakeDiscord, database: str) -> None:
    bot = bot_on(database)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await finish(fake_discord, table, game_id, thread)
    ana: FakeUser = next(u for u in table.users.values() if u.name == "ana")
    ben: FakeUser = next(u for u in table.users.values() if u.name == "ben")
    names = (await table.row(game_id)).seat_names
    hidden = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "me", "stats", options={"hidden": True}
    )
    assert hidden.ephemeral and "hidden" in hidden.content
    refused = await fake_discord.slash(
        ben, fake_discord.channel, "montana", "stats", options={"player": ana}
    )
    assert refused.ephemeral and "keeps their statistics hidden" in refused.content
    own = await fake_discord.slash(ana, fake_discord.channel, "montana", "stats")
    assert embed_of(own) and "Hidden from the others" in embed_of(own)["description"]
    asked = await fake_discord.slash(ana, fake_discord.channel, "montana", "me", "forget")
    assert asked.ephemeral and "cannot be undone" in asked.content
    assert set(asked.original.button_labels()) == {"Forget me", "Cancel"}  # type: ignore[union-attr]
    # somebody else cannot answer it
    assert asked.original is not None
    cancelled = await fake_discord.press(ana, asked.original, label="Cancel")
    assert "Nothing was deleted" in cancelled.content
    assert await bot.store.rating_of(fake_discord.guild_id, str(ana.id)) is not None
    asked = await fake_discord.slash(ana, fake_discord.channel, "montana", "me", "forget")
    assert asked.original is not None
    done = await fake_discord.press(ana, asked.original, label="Forget me")
    assert "gone from 1 finished game" in done.content
    assert await bot.store.rating_of(fake_discord.guild_id, str(ana.id)) is None
    row = await table.row(game_id)
    assert row.seat_names == {str(ana.id): "(a former player)", str(ben.id): names[str(ben.id)]}
    nothing = await fake_discord.slash(ana, fake_discord.channel, "montana", "stats")
    assert "no finished game on this server yet" in nothing.content


async def test_the_leaderboard_pages_and_shows_the_askers_line_off_the_page(
    fake_discord: FakeDiscord, database: str
) -> None:
    bot = bot_on(database)
    await fake_discord.start(bot)
    store = bot.store
    guild = fake_discord.guild_id
    users = [fake_discord.add_user(f"p{n:02}") for n in range(24)]
    # 24 calibrated players, rated as if they had played
    players = [
        PlayerRating(
            str(u.id), u.name, 25.0, 2.0, 1500 - 10 * n, 6, 2, 0, 1, "2026-01-01T00:00:00+00:00"
        )
        for n, u in enumerate(users)
    ]
    await store.in_transaction(lambda tx: _save_ratings(tx, guild, players))
    last = users[-1]
    first_page = await fake_discord.slash(last, fake_discord.channel, "montana", "leaderboard")
    description = embed_of(first_page)["description"]
    rows = [line for line in description.splitlines() if line.strip()[:1].isdigit()]
    assert [line.split()[0] for line in rows] == [*(str(n) for n in range(1, 11)), "24"]
    assert rows[-1].endswith("p23 ◀") and "…" in description
    assert "Page 1 of 3" in embed_of(first_page)["footer"]["text"]
    assert first_page.original is not None
    second = await fake_discord.press(last, first_page.original, label="Next ▶")
    rows = [
        line for line in embed_of(second)["description"].splitlines() if line.strip()[:1].isdigit()
    ]
    assert rows[0].split()[0] == "11" and len(rows) == 11
    third = await fake_discord.slash(
        last, fake_discord.channel, "montana", "leaderboard", options={"page": 3}
    )
    rows = [
        line for line in embed_of(third)["description"].splitlines() if line.strip()[:1].isdigit()
    ]
    assert (
        rows[-1].split()[0] == "24"
        and rows[-1].endswith("◀")
        and "…" not in embed_of(third)["description"]
    )


async def _save_ratings(tx: Any, guild: int, players: list[PlayerRating]) -> None:
    for p in players:
        await tx.execute(
            "INSERT INTO ratings (guild_id, player, name, mu, sigma, rating, games, wins, "
            "streak, best_streak, last_game_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild, *rating_values(p)),
        )


async def test_the_summary_speaks_the_games_language_and_answers_the_askers(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = bot_on(str(tmp_path / "m.sqlite3"))
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana, ben = (next(u for u in table.users.values() if u.name == n) for n in ("ana", "ben"))
    await fake_discord.slash(
        ana, fake_discord.channel, "montana", "game", "settings", options={"language": "pl"}
    )
    assert (await table.row(game_id)).language == "pl"
    await finish(fake_discord, table, game_id, thread)
    # the table sees Polish: the summary and the line in the channel
    (summary,) = [m for m in fake_discord.messages_in(thread) if "podsumowanie" in m.content]
    assert "Długość:" in summary.content and "ranking" in summary.content
    assert any("zakończona" in m.content for m in fake_discord.messages_in(fake_discord.channel))
    # each asker reads their own language
    ana.locale, ben.locale = "ja", "fr"
    looked = await fake_discord.slash(ana, fake_discord.channel, "montana", "stats")
    fields = {f["name"] for f in embed_of(looked)["fields"]}
    assert {"レーティング", "ゲーム", "回答時間の中央値"} <= fields
    board = await fake_discord.slash(ben, fake_discord.channel, "montana", "leaderboard")
    assert embed_of(board)["title"].startswith("🏆 Classement de Montana")
    records = await fake_discord.slash(ben, fake_discord.channel, "montana", "records")
    assert "Records de ce serveur" in records.content


async def test_a_game_ended_by_vote_is_rated_with_the_overdue_player_last(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    from tests.bot.driver import game_at_main
    from tests.bot.test_deadlines import manual_clock

    table, game_id, thread = await game_at_main(
        fake_discord, tmp_path / "m.sqlite3", "a", "b", "c", seed=2
    )
    bot = table.bot
    _, game = await table.game(game_id)
    late = game.awaiting
    assert late is not None
    first, second = [p for p in table.users if p != late]
    driver = await manual_clock(bot, game_id, 49)
    await driver.run_due()
    for voter in (first, second):
        await fake_discord.slash(table.user(voter), thread, "montana", "game", "vote-end")
    assert (await table.row(game_id)).status == "ended"
    await bot.service.delivery.run_due()
    (summary,) = summaries(fake_discord, thread)
    assert "(ended early by a vote)" in summary.content
    results = {r.seat: r for r in await bot.store.game_results(game_id)}
    assert results[late].place == 3 and results[late].quit
    late_line = next(line for line in summary.content.splitlines() if line.startswith("3. "))
    assert "placed last" in late_line and results[late].name in late_line
    assert all(r.rated and not r.finished for r in results.values())


async def test_a_server_with_statistics_off_sees_its_games_end_unrated(
    fake_discord: FakeDiscord, database: str
) -> None:
    """Issue 26.1 with 22: `/montana server settings statistics: off` keeps a server's
    games out of ratings and statistics (the game is marked seen, so switching back on
    never rates it later)."""
    bot = bot_on(database)
    await fake_discord.start(bot)
    await bot.store.set_guild_settings(fake_discord.guild_id, {ratings.STATISTICS: ratings.OFF})
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await finish(fake_discord, table, game_id, thread)
    row, _ = await table.game(game_id)
    assert row.status == "finished"
    assert await bot.store.game_results(game_id) == []
    for user_id in row.seat_names:
        assert await bot.store.rating_of(fake_discord.guild_id, user_id) is None
    await bot.store.set_guild_settings(fake_discord.guild_id, {ratings.STATISTICS: ratings.ON})
    assert await ratings.rate_past_games(bot.store) == 0


async def test_a_hidden_players_figures_stay_out_of_the_public_summary(
    fake_discord: FakeDiscord, database: str
) -> None:
    """Issue 35.7: the end-of-game summary, posted for everyone, shows a player who hid
    their statistics with their place and settlements but none of their figures: no
    rating, no change, no answer times (the others keep theirs)."""
    bot = bot_on(database)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana: FakeUser = next(u for u in table.users.values() if u.name == "ana")
    await fake_discord.slash(
        ana, fake_discord.channel, "montana me stats", options={"hidden": True}
    )
    await finish(fake_discord, table, game_id, thread)
    results: list[SeatResult] = await bot.store.game_results(game_id)
    (summary,) = summaries(fake_discord, thread)
    mine = next(r for r in results if r.seat == str(ana.id))
    theirs = next(r for r in results if r.seat != str(ana.id))
    lines = summary.content.splitlines()
    (ana_line,) = [line for line in lines if line.startswith(f"{mine.place}. ")]
    assert f"{mine.name} — {mine.settlements} settlements" in ana_line
    assert "rating" not in ana_line
    (ben_line,) = [line for line in lines if line.startswith(f"{theirs.place}. ")]
    assert f"rating {theirs.rating_after}?" in ben_line
    for line in lines:
        if line.startswith(("Median time to answer", "Fastest answer")):
            assert mine.name not in line, line
    assert mine.rated  # their games still count for the others' ratings
