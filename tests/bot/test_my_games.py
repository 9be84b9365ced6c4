"""Issue 25.2: `/montana me games` and the daily digest, through real discord.py."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.core.clock.my_games import DigestTask
from bot.core.store import Seat
from bot.discord_app.client import MontanaBot
from bot.discord_app.clock.mine import DigestSender
from bot.discord_app.delivery.notify import Notifier
from rules import Game
from tests.bot.driver import Table, make_bot, open_game, play_until
from tests.bot.fakediscord import FakeDiscord, FakeUser

OTHER_SERVER = 4242


async def game_elsewhere(
    bot: MontanaBot,
    ana: FakeUser,
    waiting_for_ana: bool,
    guild_id: int = OTHER_SERVER,
    channel_id: int = 77,
) -> int:
    """A game of Ana's in another server (written as that server's process would),
    waiting for her or not."""
    ana_seat, dan = Seat(str(ana.id), "ana"), Seat("999", "dan")
    row = await bot.store.create_lobby(
        guild_id=guild_id, channel_id=channel_id, thread_id=None, creator=ana_seat
    )
    await bot.store.set_players(row.id, [ana_seat, dan], expected=[ana_seat])
    for seed in range(50):
        game = Game.new([ana_seat.user_id, dan.user_id], seed=seed)
        if (game.awaiting == ana_seat.user_id) == waiting_for_ana:
            await bot.store.start(row.id, [ana_seat, dan], game.to_dict(), game.log)
            return row.id
    raise AssertionError("no seed starts with the player asked for")


async def test_my_games_lists_those_waiting_for_me_first_in_this_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    mine, mine_thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana = next(user for user in table.users.values() if user.name == "ana")
    ben = next(user for user in table.users.values() if user.name == "ben")
    ana_id = str(ana.id)
    await play_until(table, mine, lambda game: game.awaiting == ana_id)
    second = fake_discord.add_channel("second")
    cleo = fake_discord.add_user("cleo")
    table.users[str(cleo.id)] = cleo
    created = await fake_discord.slash(cleo, second, "montana", "game", "new")
    assert created.original is not None
    await fake_discord.press(ana, created.original, label="Join")
    await fake_discord.press(cleo, created.original, label="Start")
    theirs_row = await bot.store.open_game_in(second.id)
    assert theirs_row is not None
    await play_until(table, theirs_row.id, lambda game: game.awaiting == str(cleo.id))
    third = fake_discord.add_channel("third")
    await fake_discord.slash(ana, third, "montana", "game", "new", options={"pace": "fast"})
    await game_elsewhere(bot, ana, waiting_for_ana=True)
    listed = await fake_discord.slash(ana, third, "montana", "me", "games")
    assert listed.ephemeral
    text = listed.content
    assert text.startswith("**Your games here** — 1 waits for you:")
    *lines, hint = text.split("\n")[1:]
    assert len(lines) == 3 and "<#77>" not in text, "the other server's game is not listed here"
    assert hint.startswith("-# Your games of every server, any time, also in a DM with me: </")
    row = await table.row(mine)
    assert lines[0].startswith(
        f"▶ **Your move** in <#{mine_thread.id}> (with Ben; 48 hours / 24 hours)"
    )
    assert f"/{row.play_channel_id}/{row.message_id}" in lines[0], "a link to its newest message"
    assert "your turn began <t:" in lines[0] and ":R>, due <t:" in lines[0]
    theirs = await table.row(theirs_row.id)
    assert lines[1].startswith(f"⏳ <#{theirs.play_channel_id}> (with Cleo;")
    assert "waiting for Cleo, whose turn began <t:" in lines[1]
    assert lines[2].startswith(f"🪑 <#{third.id}> — lobby (1/4 seated; fast)")
    # Ben sees only his game, not Ana's others
    bens = await fake_discord.slash(ben, fake_discord.channel, "montana", "me", "games")
    assert bens.content.count("\n🪑") + bens.content.count("\n⏳") == 1
    assert "0 wait for you" in bens.content and "▶" not in bens.content


async def test_the_daily_digest_is_sent_once_a_day_when_a_game_waits(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana = next(user for user in table.users.values() if user.name == "ana")
    ana_id = str(ana.id)
    await play_until(table, game_id, lambda game: game.awaiting != ana_id)
    said = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "me", "notify", options={"digest": True}
    )
    assert "Daily digest: on" in said.content
    await bot.digests.stop()
    send = DigestSender(bot, Notifier(bot, bot.store))

    async def day_at(day: int, hour: int) -> int:
        """A digest pass at that moment (a new task each time: as after a restart, it
        knows only what the store says); the DMs Ana has then."""
        task = DigestTask(
            bot.deadlines, send, clock=lambda: datetime(2030, 1, day, hour, tzinfo=UTC)
        )
        await task.one_pass()
        return len(fake_discord.dms(ana))

    assert await day_at(1, 9) == 0, "nothing waits for Ana: no digest"
    await play_until(table, game_id, lambda game: game.awaiting == ana_id)
    assert await day_at(1, 15) == 0, "the day's digest was due at 08:00 already"
    assert await day_at(2, 7) == 0, "not before 08:00 UTC"
    elsewhere = fake_discord.join_guild("Board *Gamers*")
    await game_elsewhere(bot, ana, waiting_for_ana=True, guild_id=elsewhere)
    assert await day_at(2, 8) == 1
    digest = fake_discord.dms(ana)[-1].content
    assert digest.startswith("**Montana** — good morning! 2 games wait for you:")
    assert digest.count("▶ **Your move**") == 2, "the games of every server"
    assert "in **Montana Test** › <#" in digest, "each with its server's name"
    assert r"in **Board \*Gamers\*** › <#77>" in digest, "the other server's too"
    assert await day_at(2, 20) == 1, "once a day"
    assert await day_at(3, 8) == 2
    off = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "me", "notify", options={"digest": False}
    )
    assert "Daily digest: off" in off.content
    assert await day_at(4, 8) == 2


async def test_a_long_list_is_cut_within_discords_limit_with_a_count(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    # the most lobbies a server may let one member keep open (issue 21.3's limit)
    await bot.store.set_guild_settings(fake_discord.guild_id, {"open_lobbies": "25"})
    for number in range(25):
        channel = fake_discord.add_channel(f"table-{number}")
        await fake_discord.slash(ana, channel, "montana", "game", "new")
    listed = await fake_discord.slash(ana, fake_discord.channel, "montana", "me", "games")
    text = listed.content
    assert len(text) <= 2000
    shown = text.count("\n🪑 ")
    assert 0 < shown < 25
    # the count ends the list, before the small print when it fits
    assert text.split("\n-# ")[0].endswith(f"\n… and {25 - shown} more.")
