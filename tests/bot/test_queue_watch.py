"""Finding a table (issue 25 point 5) without anyone running `/montana game find`: a
queued player who could not be matched (at the server's limit of games under way) is
matched when a game of theirs ends or the server raises its limit, and a queue a
restart left unmatched is matched when the bot starts. Through real discord.py and the
fake Discord."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.core.community.matchmaking import expiry_cut
from bot.core.store import ACTIVE, ENDED, QueuedPlayer, stamp_of
from tests.bot.driver import Table, make_bot, original, play_until
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_deadlines import manual_clock
from tests.bot.test_e2e_matchmaking import find, queued_ids
from tests.bot.test_e2e_ratings import finish
from tests.bot.test_server_admin import ADMIN


def table_found(fake: FakeDiscord, channel_id: int) -> list[str]:
    return [
        m.content for m in fake.messages_in(channel_id) if "the queue found a table" in m.content
    ]


async def test_a_player_at_the_limit_is_matched_when_their_game_is_abandoned(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    ana, ben, cleo = (fake_discord.add_user(name) for name in ("ana", "ben", "cleo"))
    queueing = fake_discord.add_channel("queueing")
    # Ana waits in the queue, then sits down at Ben's table: her one game under way
    await find(fake_discord, ana, queueing, players="2", pace="fast")
    bens = fake_discord.add_channel("bens-table")
    lobby = original(await fake_discord.slash(ben, bens, "montana", "game", "new"))
    await fake_discord.press(ana, lobby, label="Join")
    await fake_discord.press(ben, lobby, label="Start")
    bens_game = await bot.store.open_game_in(bens.id)
    assert bens_game is not None and bens_game.status == ACTIVE
    # Cleo would make a table with her, but Ana is at the server's limit
    waiting = await find(fake_discord, cleo, queueing, players="2", pace="fast")
    assert "Your place in this server's queue" in original(waiting).content
    assert await queued_ids(fake_discord, bot) == [str(ana.id), str(cleo.id)]
    assert table_found(fake_discord, queueing.id) == []

    # Ben abandons his game: Ana's seat under way is free, and nobody runs find
    thread = fake_discord.channel_by_id(bens_game.play_channel_id)
    await fake_discord.slash(ben, thread, "montana", "game", "abandon")

    (announced,) = table_found(fake_discord, queueing.id)
    assert f"<@{ana.id}>" in announced and f"<@{cleo.id}>" in announced
    assert await queued_ids(fake_discord, bot) == []
    new_game = await bot.store.open_game_in(
        next(t.id for t in fake_discord.threads if t.parent_id == queueing.id)
    )
    assert new_game is not None and new_game.status == ACTIVE
    assert {seat.user_id for seat in new_game.players} == {str(ana.id), str(cleo.id)}


async def test_a_player_at_the_limit_is_matched_when_their_game_ends_by_a_vote(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The other ways a game ends tell the queue too: here a vote to end it."""
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    table = Table(fake_discord, bot)
    ana, ben, cleo, dan = (fake_discord.add_user(n) for n in ("ana", "ben", "cleo", "dan"))
    for user in (ana, ben, cleo):
        table.users[str(user.id)] = user
    queueing = fake_discord.add_channel("queueing")
    await find(fake_discord, ana, queueing, players="2", pace="fast")
    # Ana, Ben and Cleo play; then Dan's table waits for Ana, at her limit
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana game new"))
    await fake_discord.press(ben, lobby, label="Join")
    await fake_discord.press(cleo, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    await find(fake_discord, dan, queueing, players="2", pace="fast")
    assert await queued_ids(fake_discord, bot) == [str(ana.id), str(dan.id)]
    await play_until(table, row.id, lambda game: game.awaiting == str(cleo.id))
    assert table_found(fake_discord, queueing.id) == []

    # Cleo is overdue (the clock moved past her 48 hours): Ana and Ben vote to end it
    driver = await manual_clock(bot, row.id, 49)
    await driver.run_due()
    thread = fake_discord.channel_by_id(row.play_channel_id)
    for voter in (ana, ben):
        await fake_discord.slash(voter, thread, "montana", "game", "vote-end")
    ended = await bot.store.get(row.id)
    assert ended is not None and ended.status == ENDED

    (announced,) = table_found(fake_discord, queueing.id)
    assert f"<@{ana.id}>" in announced and f"<@{dan.id}>" in announced
    assert await queued_ids(fake_discord, bot) == []


async def test_a_queue_left_unmatched_by_a_restart_is_matched_at_start(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    first = make_bot(db)
    await fake_discord.start(first)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    # two compatible entries saved, the process stopped before it matched them
    moment = datetime.now(UTC)
    for user in (ana, ben):
        entry = QueuedPlayer(
            guild_id=fake_discord.guild_id,
            user_id=str(user.id),
            name=user.name,
            counts=(2,),
            pace="fast",
            language="en",
            channel_id=fake_discord.channel.id,
            queued_at=stamp_of(moment),
        )
        assert await first.store.join_queue(entry, since=expiry_cut(moment))
    await fake_discord.stop(first)

    second = make_bot(db)
    await fake_discord.start(second)

    found = await fake_discord.wait_for_message(
        fake_discord.channel, lambda m: "the queue found a table" in m.content
    )
    assert {ana.id, ben.id} <= set(found.pinged_ids)
    await second.queue_watch.stop()  # the start's pass is over: nothing is left queued
    assert await queued_ids(fake_discord, second) == []


async def test_a_player_at_the_limit_is_matched_when_the_server_raises_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    ana, ben, cleo = (fake_discord.add_user(name) for name in ("ana", "ben", "cleo"))
    queueing = fake_discord.add_channel("queueing")
    await find(fake_discord, ana, queueing, players="2", pace="slow")
    lobby = original(await fake_discord.slash(ben, fake_discord.channel, "montana game new"))
    await fake_discord.press(ana, lobby, label="Join")
    await fake_discord.press(ben, lobby, label="Start")
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    await find(fake_discord, cleo, queueing, players="2", pace="slow")
    assert await queued_ids(fake_discord, bot) == [str(ana.id), str(cleo.id)]
    assert table_found(fake_discord, queueing.id) == []

    await fake_discord.slash(
        admin, fake_discord.channel, "montana server settings", options={"active_games": 2}
    )

    (announced,) = table_found(fake_discord, queueing.id)
    assert f"<@{ana.id}>" in announced and f"<@{cleo.id}>" in announced
    assert await queued_ids(fake_discord, bot) == []


async def test_a_player_at_the_limit_is_matched_when_their_game_is_played_to_its_end(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    table = Table(fake_discord, bot)
    ana, ben, cleo = (fake_discord.add_user(name) for name in ("ana", "ben", "cleo"))
    table.users.update({str(ana.id): ana, str(ben.id): ben})
    queueing = fake_discord.add_channel("queueing")
    await find(fake_discord, ana, queueing, players="2")
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana game new"))
    await fake_discord.press(ben, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    await find(fake_discord, cleo, queueing, players="2")
    assert table_found(fake_discord, queueing.id) == []

    await finish(fake_discord, table, row.id, fake_discord.channel_by_id(row.play_channel_id))

    assert (await table.row(row.id)).status == "finished"
    (announced,) = table_found(fake_discord, queueing.id)
    assert f"<@{ana.id}>" in announced and f"<@{cleo.id}>" in announced
    assert await queued_ids(fake_discord, bot) == []
