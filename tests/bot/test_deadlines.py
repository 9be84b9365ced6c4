"""Deadlines through real discord.py: reminders, auction timeouts, votes to end, settings.

Time is moved, not waited for: the deadline driver's clock is replaced by one the test
sets, measured from the time of the game's last move as stored.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.core.clock.deadlines import DeadlineDriver, parse_time
from bot.core.server.settings import Settings, SettingsError, load_settings
from bot.discord_app.client import MontanaBot
from tests.bot.driver import Table, game_at_main, make_bot, open_game, original, to_main_decision
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from tests.bot.test_e2e_auction import start_auction


async def last_move_time(bot: MontanaBot, game_id: int) -> datetime:
    row = await bot.store.get(game_id)
    assert row is not None
    moves = await bot.store.moves(game_id, offset=row.version - 1, limit=1)
    return parse_time(moves[0].at)


async def driver_at(bot: MontanaBot, moment: datetime) -> DeadlineDriver:
    """Stop the background task and set the driver's clock to `moment`."""
    driver = bot.deadlines
    await driver.stop()
    driver.clock = lambda: moment
    return driver


async def manual_clock(bot: MontanaBot, game_id: int, hours: float) -> DeadlineDriver:
    """Stop the background task and set the driver's clock `hours` after the last move."""
    return await driver_at(bot, await last_move_time(bot, game_id) + timedelta(hours=hours))


async def two_player_game(fake: FakeDiscord, db: Path) -> tuple[Table, int, FakeChannel]:
    return await game_at_main(fake, db, "ana", "ben")


def new_messages(fake: FakeDiscord, thread: FakeChannel, after: FakeMessage) -> list[FakeMessage]:
    return [m for m in fake.messages_in(thread) if m.id > after.id]


async def test_half_deadline_reminder_mentions_once_even_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    row, game = await table.game(game_id)
    awaited = game.awaiting
    assert awaited is not None and game.pending.kind == "main"
    prompt = fake_discord.messages_in(thread)[-1]
    # before half of the 48 h nothing happens
    driver = await manual_clock(table.bot, game_id, 23)
    assert await driver.run_due() == 0
    assert fake_discord.messages_in(thread)[-1].id == prompt.id
    # at half time: one mention of the awaited player, with a link to the prompt
    driver = await manual_clock(table.bot, game_id, 25)
    assert await driver.run_due() == 1
    (reminder,) = new_messages(fake_discord, thread, prompt)
    assert reminder.pinged_ids == [int(awaited)]
    assert (
        f"<@{awaited}>, your turn" in reminder.content
        and "Half of the 48 hours" in reminder.content
    )
    link = f"https://discord.com/channels/{fake_discord.guild_id}/{thread.id}/{row.message_id}"
    assert link in reminder.content
    due = int((await last_move_time(table.bot, game_id) + timedelta(hours=48)).timestamp())
    assert f"(due <t:{due}:R>)" in reminder.content
    asked = await fake_discord.slash(table.user(awaited), thread, "montana", "game", "settings")
    assert f"{row.names[awaited]}'s move is due <t:{due}:R>" in asked.content
    assert await driver.run_due() == 0
    # a restart: a new client on the same file does not repeat it
    await fake_discord.stop(table.bot)
    again = make_bot(db, seed=3)
    await fake_discord.start(again)
    driver = await manual_clock(again, game_id, 30)
    assert await driver.run_due() == 0
    assert new_messages(fake_discord, thread, prompt) == [reminder]
    # nor does it lose the next step: at the deadline the turn is overdue
    driver = await manual_clock(again, game_id, 48.5)
    assert await driver.run_due() == 1
    overdue = new_messages(fake_discord, thread, prompt)[-1]
    assert "Overdue" in overdue.content and overdue.pinged_ids == [int(awaited)]
    assert "Vote to end the game" in overdue.button_labels()
    # and it keeps being reminded, once per deadline period
    assert await driver.run_due() == 0
    driver = await manual_clock(again, game_id, 97)
    assert await driver.run_due() == 1
    assert "Overdue" in new_messages(fake_discord, thread, prompt)[-1].content
    # a move resets the clock: nothing is due for the new state
    table.bot = again
    _, game = await table.game(game_id)
    assert await table.tap_move(game_id, game.legal_actions(awaited)[0]) is not None
    after_move = fake_discord.messages_in(thread)[-1]
    driver = await manual_clock(again, game_id, 1)
    assert await driver.run_due() == 0
    assert fake_discord.messages_in(thread)[-1].id == after_move.id


async def test_background_task_posts_the_reminder_when_its_time_comes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    prompt = fake_discord.messages_in(thread)[-1]
    driver = table.bot.deadlines
    moment = await last_move_time(table.bot, game_id) + timedelta(hours=24, seconds=1)
    driver.clock = lambda: moment
    driver.wake()
    reminder = await fake_discord.wait_for_message(
        thread, lambda m: "Reminder" in m.content, after=prompt.id, timeout=5
    )
    assert reminder.pinged_ids


async def test_unanswered_auction_is_passed_on_the_deadline(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (_, b, c) = await start_auction(fake_discord, tmp_path)
    row, game = await table.game(game_id)
    assert game.pending.kind == "bid" and game.awaiting == b
    prompt = fake_discord.messages_in(thread)[-1]
    # half of the 24 h: a reminder that says a pass follows
    driver = await manual_clock(table.bot, game_id, 12.5)
    assert await driver.run_due() == 1
    reminder = fake_discord.messages_in(thread)[-1]
    assert (
        reminder.pinged_ids == [int(b)]
        and "if no answer comes, I pass for you <t:" in reminder.content
    )
    # at 24 h Ben is passed through the normal move path
    driver = await manual_clock(table.bot, game_id, 24.1)
    assert await driver.run_due() == 1
    moved, game = await table.game(game_id)
    assert moved.version == row.version + 1 and game.awaiting == c
    passed = new_messages(fake_discord, thread, reminder)[0]
    assert f"{row.names[b]} did not answer the city auction within 24 hours" in passed.content
    assert "passed for them" in passed.content and passed.files
    assert f"<@{c}>" in passed.content and passed.pinged_ids == [int(c)]
    assert not prompt.interactive_components(), "the old auction buttons are removed"
    # the move log has it, marked
    (line,) = await table.bot.store.moves(game_id, offset=row.version, limit=1)
    assert (line.player, line.notation) == (b, "pass")
    log = await fake_discord.slash(table.user(b), thread, "montana", "game", "log")
    assert f"{row.names[b]}: pass  (passed on its deadline)" in log.content
    # Cleo's clock starts with the pass: an hour later nothing is due
    driver = await manual_clock(table.bot, game_id, 1)
    assert await driver.run_due() == 0


async def test_majority_of_the_others_ends_an_overdue_game_with_its_standings(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "a", "b", "c", seed=2)
    bot = table.bot
    row, game = await table.game(game_id)
    late = game.awaiting
    assert late is not None
    first, second = [p for p in table.users if p != late]
    # no vote before the deadline
    driver = await manual_clock(bot, game_id, 47)
    early = await fake_discord.slash(table.user(first), thread, "montana", "game", "vote-end")
    assert early.ephemeral and "only once the awaited player is overdue" in early.content
    driver = await manual_clock(bot, game_id, 49)
    await driver.run_due()
    overdue = fake_discord.messages_in(thread)[-1]
    assert "Overdue" in overdue.content
    # the late player cannot vote; an outsider neither
    own = await fake_discord.press(table.user(late), overdue, label="Vote to end the game")
    assert own.ephemeral and "make your move" in own.content
    eve = fake_discord.add_user("eve")
    outsider = await fake_discord.press(eve, overdue, label="Vote to end the game")
    assert outsider.ephemeral and "Only the players" in outsider.content
    # one of two others is not a majority
    one = await fake_discord.press(table.user(first), overdue, label="Vote to end the game")
    assert not one.ephemeral and not original(one).pinged_ids
    assert f"{row.names[first]} votes to end the game: 1 of the 2 votes needed" in one.content
    assert (await table.row(game_id)).status == "active"
    # the second vote (by command) ends it
    two = await fake_discord.slash(table.user(second), thread, "montana", "game", "vote-end")
    assert two.ephemeral and "ends the game" in two.content
    ended = await table.row(game_id)
    assert ended.status == "ended" and ended.version == row.version
    with sqlite3.connect(db) as raw:
        (stored,) = raw.execute("SELECT result FROM games WHERE id = ?", (game_id,)).fetchone()
    result = json.loads(stored)
    expected = game.result()
    assert result["finished"] is False and not expected.finished
    assert [(s["player"], s["place"]) for s in result["ranking"]] == [
        (s.player, s.place) for s in expected.ranking
    ]
    assert sorted(result["voters"]) == sorted([first, second])
    # the rated game's summary is owed after it and may already be posted (a busy machine)
    said = next(
        m for m in reversed(fake_discord.messages_in(thread)) if not m.content.startswith("📊")
    )
    assert "ended by a vote" in said.content and "Standings so far" in said.content
    assert not said.pinged_ids
    assert not table.prompt_message(ended).interactive_components()
    # no more moves; the channel is free for a new game
    refused = await fake_discord.slash(table.user(late), thread, "montana", "recruit")
    assert refused.ephemeral and (await table.row(game_id)).version == row.version
    status = await fake_discord.slash(table.user(first), thread, "montana", "status")
    assert status.content.startswith("This game was ended early by a vote")
    assert "waiting for" not in status.content
    history = await fake_discord.slash(table.user(first), thread, "montana", "game", "history")
    assert f"#{game_id} · " in history.content
    leaders = [row.names[s.player] for s in expected.ranking if s.place == 1]
    assert f"ended early by a vote, {' and '.join(leaders)} leading" in history.content
    again = await fake_discord.slash(
        table.user(first), fake_discord.channel, "montana", "game", "new"
    )
    assert not again.ephemeral


async def test_deadlines_set_at_new_and_changed_only_by_creator_or_manager(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    mod = fake_discord.add_user("mo", permissions=discord.Permissions(manage_channels=True))
    created = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "game", "new", options={"turn_hours": 12}
    )
    assert created.original is not None
    await fake_discord.press(ben, created.original, label="Join")
    shown = await fake_discord.slash(ben, fake_discord.channel, "montana", "game", "settings")
    assert (
        shown.ephemeral and "turn deadline 12 hours, city auction answers 24 hours" in shown.content
    )
    refused = await fake_discord.slash(
        ben, fake_discord.channel, "montana", "game", "settings", options={"turn_hours": 1}
    )
    assert refused.ephemeral and "Only the player who opened the game" in refused.content
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    assert (await bot.deadlines.db.deadlines(row.id)).turn_seconds == 12 * 3600
    by_mod = await fake_discord.slash(
        mod, fake_discord.channel, "montana", "game", "settings", options={"auction_hours": 6}
    )
    assert not by_mod.ephemeral and "city auction answers 6 hours" in by_mod.content
    by_creator = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "game", "settings", options={"turn_hours": 72}
    )
    assert "turn deadline 72 hours, city auction answers 6 hours" in by_creator.content
    assert (await bot.deadlines.db.deadlines(row.id)).auction_seconds == 6 * 3600


async def test_votes_count_only_for_the_state_they_were_cast_in(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=2)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "a", "b", "c")
    await to_main_decision(table, game_id)
    row, game = await table.game(game_id)
    late = game.awaiting
    assert late is not None
    first, second = [p for p in table.users if p != late]
    driver = await manual_clock(bot, game_id, 49)
    await driver.run_due()
    overdue = fake_discord.messages_in(thread)[-1]
    await fake_discord.press(table.user(first), overdue, label="Vote to end the game")
    # the late player moves at last (recruits): the old vote button is out of date
    recruit = next(a for a in game.legal_actions(late) if a.verb == "recruit")
    assert await table.tap_move(game_id, recruit) is not None
    stale = await fake_discord.press(table.user(second), overdue, label="Vote to end the game")
    assert stale.ephemeral and "out of date" in stale.content
    driver = await manual_clock(bot, game_id, 1)
    early = await fake_discord.slash(table.user(second), thread, "montana", "game", "vote-end")
    assert early.ephemeral and "overdue" in early.content
    # overdue again later: the earlier vote does not carry over
    moved, game = await table.game(game_id)
    assert moved.version > row.version and game.awaiting == late, "recruiting goes on"
    driver = await manual_clock(bot, game_id, 49)
    again = await fake_discord.slash(table.user(second), thread, "montana", "game", "vote-end")
    assert "1 of the 2 votes needed" in again.content
    assert (await table.row(game_id)).status == "active"


def test_default_deadlines_come_from_the_settings() -> None:
    settings = load_settings({"MONTANA_TURN_HOURS": "12", "MONTANA_AUCTION_HOURS": "3"}, None)
    assert (settings.turn_hours, settings.auction_hours) == (12, 3)
    with pytest.raises(SettingsError, match="MONTANA_TURN_HOURS"):
        load_settings({"MONTANA_TURN_HOURS": "soon"}, None)
    with pytest.raises(SettingsError, match="MONTANA_AUCTION_HOURS"):
        load_settings({"MONTANA_AUCTION_HOURS": "0"}, None)


async def test_a_new_game_takes_the_default_deadlines_of_the_settings(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = MontanaBot(Settings(token=None, db_path=str(tmp_path / "m.sqlite3"), turn_hours=6))
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    shown = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "settings")
    assert "turn deadline 6 hours, city auction answers 24 hours" in shown.content


async def test_a_move_costs_the_deadline_task_one_game_whatever_the_number_of_games(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16.4: after a move the task reads the clock of the game that moved only,
    and a due step comes from its heap of due times, not from a scan of every game."""
    from bot.core.store import Seat
    from rules import Game

    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    bot = table.bot
    for index in range(30):  # idle games elsewhere, with deadlines far away
        lobby = await bot.store.create_lobby(
            guild_id=1, channel_id=10_000 + index, thread_id=None, creator=Seat("1", "A")
        )
        idle = Game.new(["1", "2"], seed=index)
        await bot.store.start(lobby.id, [Seat("1", "A"), Seat("2", "B")], idle.to_dict(), idle.log)
        await bot.store.set_deadline_seconds(lobby.id, 720 * 3600, 720 * 3600)
    driver = await manual_clock(bot, game_id, 1)
    # the whole pass comes back every 10 polls: here not within the day the test spans
    driver.poll_seconds = 24 * 3600
    reads: list[int | None] = []
    clocks = bot.store.clocks

    async def counted(game_id: int | None = None) -> list[Any]:
        reads.append(game_id)
        return await clocks(game_id)

    monkeypatch.setattr(bot.store, "clocks", counted)
    assert await driver.run_due() == 0  # a whole pass looks at every game
    assert None in reads
    reads.clear()

    row, game = await table.game(game_id)
    player = game.awaiting
    assert player is not None
    await bot.service.play(
        game_id, player, str(game.legal_actions(player)[0]), expected_version=row.version
    )
    prompt = fake_discord.messages_in(thread)[-1]
    await driver.one_pass()
    assert reads and set(reads) == {game_id}  # the game that moved, and no other
    reads.clear()

    # its half-time comes: the step is taken from the heap, still without a scan
    driver.clock = lambda: moment
    moment = await last_move_time(bot, game_id) + timedelta(hours=24, seconds=1)
    await driver.one_pass()
    assert set(reads) == {game_id}
    (reminder,) = new_messages(fake_discord, thread, prompt)
    assert "Reminder" in reminder.content and reminder.pinged_ids
    # taken once: the next pass finds nothing more due
    await driver.one_pass()
    assert new_messages(fake_discord, thread, prompt) == [reminder]
