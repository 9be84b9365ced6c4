"""When Discord or the disk misbehaves (issue 10), through real discord.py and the fake.

Each test makes Discord (or the database) fail the way the real one does, and checks
what the players see: every saved move's message delivered exactly once (retried, not
doubled), degradations said in words, every interaction answered, no game holding up
another. The process-level cases (a kill mid-move, a second bot, a file that cannot be
opened) are in `test_faults_process.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from pathlib import Path

import discord
import pytest

import bot.core.store as store_module
from bot.core.clock.deadlines import parse_time
from bot.discord_app.client import MontanaBot
from rules import Action
from tests.bot.driver import Table, make_bot, open_game, original, to_main_decision
from tests.bot.fakediscord import (
    DEFERRED_UPDATE,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    InteractionResult,
)

MESSAGES = "POST /channels/{id}/messages"
RETRIED_WITHIN = 10.0
"""Seconds to wait for the bot to try a failed post again by itself (first after 2 s)."""


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = RETRIED_WITHIN) -> None:
    """Wait until `check` holds (the bot's background task does it), or fail."""
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, "still not so after the wait"
        await asyncio.sleep(0.02)


async def two_player_game(
    fake: FakeDiscord, db: Path, channel: FakeChannel | None = None, *names: str
) -> tuple[Table, int, FakeChannel]:
    """A started game at its first main decision (ana and ben unless named)."""
    bot = make_bot(db, seed=3)
    await fake.start(bot)
    table = Table(fake, bot)
    game_id, thread, _ = await open_game(
        fake, table, channel or fake.channel, *(names or ("ana", "ben"))
    )
    await to_main_decision(table, game_id)
    return table, game_id, thread


async def second_game(fake: FakeDiscord, table: Table) -> tuple[int, FakeChannel]:
    """Another game, in channel #other, at its first main decision (cy and dee)."""
    other = fake.add_channel("other")
    game_id, thread, _ = await open_game(fake, table, other, "cy", "dee")
    await to_main_decision(table, game_id)
    return game_id, thread


async def hand_over(table: Table, game_id: int) -> InteractionResult:
    """Tap the awaited player's first choices until the turn passes to someone else."""
    _, game = await table.game(game_id)
    mover = game.awaiting
    while True:
        assert game.awaiting is not None
        result = await table.tap_move(game_id, game.legal_actions(game.awaiting)[0])
        assert result is not None
        _, game = await table.game(game_id)
        if game.awaiting != mover:
            return result


def after(fake: FakeDiscord, place: FakeChannel, message: FakeMessage) -> list[FakeMessage]:
    return [m for m in fake.messages_in(place) if m.id > message.id]


def live_prompts(fake: FakeDiscord, place: FakeChannel) -> list[FakeMessage]:
    """Messages whose buttons can still be pressed."""
    return [m for m in fake.messages_in(place) if m.interactive_components()]


async def shown_at(table: Table, game_id: int, message: FakeMessage) -> bool:
    """Whether the game records `message` as its prompt for its newest version."""
    row = await table.row(game_id)
    return row.message_id == message.id and row.prompt_version == row.version


@contextlib.contextmanager
def write_lock_held_elsewhere(db: Path) -> Iterator[sqlite3.Connection]:
    """Another program holds the database's write lock until the block ends."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


# ------------------------------------------------------------------ 1. a transient 503


async def test_a_503_while_posting_a_move_is_retried_and_the_next_player_pinged_and_dmed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    row, game = await table.game(game_id)
    mover = game.awaiting
    waiting = next(pid for pid in row.names if pid != mover)
    wants_dm = {"mode": "dm"}
    await fake_discord.slash(
        table.user(waiting), thread, "montana", "me", "notify", options=wants_dm
    )
    prompt = table.prompt_message(row)

    fault = fake_discord.inject(MESSAGES, 503, channel=thread)
    pressed = await hand_over(table, game_id)
    assert fault.hits == 1
    assert "Your move is saved" in pressed.text and "keep trying" in pressed.text
    assert (await table.row(game_id)).version > row.version
    # the direct message does not wait for the channel: it links the thread meanwhile
    (dm,) = fake_discord.dms(table.user(waiting))
    assert dm.content.endswith(f"<#{thread.id}>")

    # the delivery tries again by itself; Discord takes it now
    posted = await fake_discord.wait_for_message(
        thread, lambda m: int(waiting) in m.pinged_ids, after=prompt.id, timeout=RETRIED_WITHIN
    )
    await eventually(lambda: shown_at(table, game_id, posted))
    assert after(fake_discord, thread, prompt) == [posted]
    assert posted.pinged_ids == [int(waiting)] and f"<@{waiting}>" in posted.content
    assert posted.files and posted.interactive_components()
    assert live_prompts(fake_discord, thread) == [posted]
    assert len(fake_discord.dms(table.user(waiting))) == 1  # not sent again
    # and the game goes on from the delivered prompt
    assert await table.tap_move(game_id, Action("recruit")) is not None


# ------------------------------------------------------------------ 2. created, then 502


async def test_a_502_after_discord_created_the_prompt_leaves_exactly_one(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    row, game = await table.game(game_id)
    prompt = table.prompt_message(row)

    # once: discord.py sends the same request again (same nonce): Discord gives back the
    # message it made instead of a second one
    fake_discord.inject(MESSAGES, 502, channel=thread, performed=True)
    pressed = await hand_over(table, game_id)
    assert "not shown" not in pressed.text
    (first,) = after(fake_discord, thread, prompt)
    row = await table.row(game_id)
    _, game = await table.game(game_id)
    assert first.pinged_ids == [int(game.awaiting or 0)] and row.message_id == first.id

    # every try answered 502 though the first made it: discord.py gives up, the bot tries
    # again later and finds the message there instead of posting it twice
    fault = fake_discord.inject(MESSAGES, 502, channel=thread, performed=True, times=5)
    pressed = await hand_over(table, game_id)
    assert fault.hits == 5 and "keep trying" in pressed.text
    (second,) = after(fake_discord, thread, first)
    _, game = await table.game(game_id)
    assert second.pinged_ids == [int(game.awaiting or 0)]
    await eventually(lambda: shown_at(table, game_id, second))  # tried again by itself
    assert after(fake_discord, thread, first) == [second]
    assert live_prompts(fake_discord, thread) == [second]


# ------------------------------------------------------------------ 3. missing permissions


async def test_without_attach_files_the_move_is_posted_without_its_picture_and_says_why(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    row = await table.row(game_id)
    prompt = table.prompt_message(row)
    fake_discord.deny_bot(fake_discord.channel, discord.Permissions(attach_files=True))
    pressed = await hand_over(table, game_id)
    assert "not shown" not in pressed.text
    posted = after(fake_discord, thread, prompt)[-1]
    _, game = await table.game(game_id)
    assert not posted.files
    assert "No picture" in posted.content and "**Attach Files**" in posted.content
    assert posted.pinged_ids == [int(game.awaiting or 0)] and posted.interactive_components()
    assert live_prompts(fake_discord, thread) == [posted]
    # the same player's prompt updated in place keeps working too
    _, game = await table.game(game_id)
    assert await table.tap_move(game_id, Action("recruit")) is not None
    assert (await table.row(game_id)).prompt_version == (await table.row(game_id)).version


async def bot_denied(
    fake: FakeDiscord, db: Path, permissions: discord.Permissions
) -> tuple[MontanaBot, FakeChannel]:
    """A bot whose permissions in #general (and its threads) lack `permissions`."""
    bot = make_bot(db, seed=3)
    await fake.start(bot)
    fake.deny_bot(fake.channel, permissions)
    return bot, fake.channel


async def test_without_send_messages_in_the_thread_the_game_plays_in_its_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    denied = discord.Permissions(send_messages_in_threads=True)
    bot, channel = await bot_denied(fake_discord, tmp_path / "m.sqlite3", denied)
    table = Table(fake_discord, bot)
    game_id, place, steps = await open_game(fake_discord, table, channel, "ana", "ben")
    assert place is channel  # the game moved out of the thread it could not post in
    row, game = await table.game(game_id)
    assert row.thread_id is None and row.prompt_version == row.version
    first = fake_discord.messages_in(channel)[-1]
    assert first.id == row.message_id and first.files and first.interactive_components()
    assert "I may not post in the game's thread" in first.content
    assert "**Send Messages in Threads**" in first.content
    assert first.pinged_ids == [int(game.awaiting or 0)]
    assert f"under way in <#{channel.id}>" in steps["lobby"].content
    # and it is played there
    assert await table.tap_move(game_id, game.legal_actions(game.awaiting or "")[0]) is not None
    assert (await table.row(game_id)).prompt_version == (await table.row(game_id)).version


async def test_without_send_messages_anywhere_start_says_which_permission_is_missing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    denied = discord.Permissions(send_messages=True, send_messages_in_threads=True)
    bot, channel = await bot_denied(fake_discord, tmp_path / "m.sqlite3", denied)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    lobby = original(await fake_discord.slash(ana, channel, "montana", "game", "new"))
    await fake_discord.press(ben, lobby, label="Join")
    started = await fake_discord.press(ana, lobby, label="Start")
    # the presser and the channel are told, naming the permissions
    told = [m for m in started.followups if m.ephemeral]
    assert told and "not shown yet" in told[0].content
    assert "**Send Messages in Threads**" in told[0].content
    assert "**Send Messages**" in told[0].content
    assert "not shown yet" in lobby.content and "/montana board" in lobby.content
    row = await bot.store.open_game_in(channel.id)
    assert row is not None and row.status == "active" and row.thread_id is not None
    thread = fake_discord.channel_by_id(row.thread_id)
    assert fake_discord.messages_in(thread) == []
    # /montana board says what really happened
    board = await fake_discord.slash(ana, channel, "montana", "board")
    assert board.content.startswith("The board is not posted") and "Send Messages" in board.content
    # once an admin grants it, /montana board shows the game
    fake_discord.deny_bot(channel, discord.Permissions.none())
    board = await fake_discord.slash(ana, channel, "montana", "board")
    assert board.content == f"The board is posted in <#{thread.id}>."
    # the first move's own message, now as the prompt (no second copy for the board)
    (prompt,) = fake_discord.messages_in(thread)
    assert "drawn at random" in prompt.content
    assert prompt.files and prompt.interactive_components() and prompt.pinged_ids


# ------------------------------------------------------------------ 4. a deleted thread


async def test_after_its_thread_is_deleted_board_opens_a_new_thread_and_the_game_goes_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    row, game = await table.game(game_id)
    fake_discord.delete_channel(thread)
    awaited = table.user(game.awaiting or "")
    board = await fake_discord.slash(awaited, fake_discord.channel, "montana", "board")
    (new_thread,) = fake_discord.threads
    assert new_thread.id != thread.id and new_thread.name.startswith("Montana — ")
    assert board.content.startswith(f"The board is posted in <#{new_thread.id}>.")
    (prompt,) = fake_discord.messages_in(new_thread)
    assert "thread was deleted" in prompt.content and prompt.files
    assert prompt.pinged_ids == []  # shown again on demand: never a ping (issue 21.2)
    moved = await table.row(game_id)
    assert (moved.thread_id, moved.message_id) == (new_thread.id, prompt.id)
    # the buttons of the new thread play the game on
    assert await table.tap_move(game_id, Action("recruit")) is not None
    assert (await table.row(game_id)).version > row.version
    # a new game in the channel is refused, saying how to show the running one
    refused = await fake_discord.slash(awaited, fake_discord.channel, "montana", "game", "new")
    assert "already" in refused.content and "/montana board" in refused.content


# ------------------------------------------------------------------ 5. an archived thread


async def test_in_an_archived_thread_the_prompt_is_posted_anew_instead_of_edited(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    row, game = await table.game(game_id)
    mover = game.awaiting
    prompt = table.prompt_message(row)
    fake_discord.archive(thread)  # a long turn: Discord archived the thread
    pressed = await table.tap_move(game_id, Action("recruit"))
    assert pressed is not None and "not shown" not in pressed.text
    row, game = await table.game(game_id)
    assert game.awaiting == mover  # the same player decides on ...
    (posted,) = after(fake_discord, thread, prompt)  # ... on a new message
    assert not thread.archived
    assert posted.pinged_ids == [] and posted.files and posted.interactive_components()
    assert live_prompts(fake_discord, thread) == [posted]
    assert (row.message_id, row.prompt_version) == (posted.id, row.version)


# ------------------------------------------------------------------ 6. a save that fails


async def test_a_press_whose_save_fails_is_answered_and_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "WRITE_WAIT_SECONDS", 0.2, raising=False)
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    row = await table.row(game_id)
    logged = await table.bot.store.move_count(game_id)
    messages = len(fake_discord.messages_in(thread))
    with write_lock_held_elsewhere(db):  # locked beyond the wait
        pressed = await table.tap_move(game_id, Action("recruit"))
    assert pressed is not None and pressed.response_type == DEFERRED_UPDATE
    (answer,) = pressed.followups
    assert answer.ephemeral and "Your move was not made" in answer.content
    assert "database is busy" in answer.content and "try again" in answer.content
    assert (await table.row(game_id)).version == row.version
    assert await table.bot.store.move_count(game_id) == logged
    assert len(fake_discord.messages_in(thread)) == messages
    # tried again, it is made and shown
    assert await table.tap_move(game_id, Action("recruit")) is not None
    shown = await table.row(game_id)
    assert shown.version > row.version and shown.prompt_version == shown.version


# ------------------------------------------------------------------ 7. reads while a write waits


async def test_a_write_waiting_for_the_database_holds_up_no_other_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, slow_game, _ = await two_player_game(fake_discord, db)
    other_game, other_thread = await second_game(fake_discord, table)
    fake_discord.world.response_deadline = 0.5  # late answers are errors of the fake
    with write_lock_held_elsewhere(db) as other_program:
        # a move in the first game waits for the lock (deferred, then saving) ...
        waiting = asyncio.create_task(table.tap_move(slow_game, Action("recruit")))
        await asyncio.sleep(0.2)
        assert not waiting.done()
        release = asyncio.get_running_loop().call_later(1.0, other_program.rollback)
        # ... while the other game's status and press are answered at once
        row, game = await table.game(other_game)
        status = await fake_discord.slash(
            table.user(game.awaiting or ""), other_thread, "montana", "status"
        )
        assert status.ephemeral and status.responded
        press = asyncio.create_task(table.tap_move(other_game, Action("recruit")))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        moved = await waiting  # the lock is released: the waiting move is saved
        await press
        release.cancel()
    assert moved is not None and "not made" not in moved.text
    for game_id in (slow_game, other_game):
        saved = await table.row(game_id)
        assert saved.prompt_version == saved.version > 0
    assert (await table.row(other_game)).version > row.version


async def test_a_slow_discord_in_one_game_holds_up_no_other_games_retry(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, slow_game, slow_thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    quick_game, quick_thread = await second_game(fake_discord, table)
    delivery = table.bot.service.delivery
    await delivery.stop()  # the test runs the retries itself, at a moment it chooses
    slow_last = fake_discord.messages_in(slow_thread)[-1]
    quick_last = fake_discord.messages_in(quick_thread)[-1]
    for game_id, thread in ((slow_game, slow_thread), (quick_game, quick_thread)):
        fake_discord.inject(MESSAGES, 503, channel=thread)
        assert "keep trying" in (await hand_over(table, game_id)).text
    # Discord is back, but answers the first game's posts only after a second
    fake_discord.inject(MESSAGES, channel=slow_thread, delay=1.0)
    owed = await table.bot.store.owed()
    moment = max(entry.next_at for entry in owed) + timedelta(seconds=1)
    delivery.clock = lambda: moment
    assert await delivery.run_due() == 2
    (slow_post,) = after(fake_discord, slow_thread, slow_last)
    (quick_post,) = after(fake_discord, quick_thread, quick_last)
    assert quick_post.id < slow_post.id, "the quick game's retry waited for the slow one"


# ------------------------------------------------------------------ 10. a broken game


def break_state(db: Path, game_id: int) -> None:
    with sqlite3.connect(db) as connection:
        (text,) = connection.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        state = json.loads(text)
        del state["players"]  # an engine state that no longer loads
        connection.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))


async def test_a_broken_game_is_skipped_and_shown_as_broken_while_the_others_play_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, broken, broken_thread = await two_player_game(fake_discord, db)
    healthy, healthy_thread = await second_game(fake_discord, table)
    broken_row = await table.row(broken)
    healthy_row, healthy_game = await table.game(healthy)
    await fake_discord.stop(table.bot)
    break_state(db, broken)  # checked first: its id is the lower one
    table.bot = make_bot(db, seed=9)
    await fake_discord.start(table.bot)

    # the deadline pass reminds the healthy game; the broken one is skipped
    driver = table.bot.deadlines
    await driver.stop()
    (last,) = await table.bot.store.moves(healthy, offset=healthy_row.version - 1, limit=1)
    moment = parse_time(last.at) + timedelta(hours=25)
    driver.clock = lambda: moment
    assert await driver.run_due() == 1
    reminder = fake_discord.messages_in(healthy_thread)[-1]
    assert "Reminder" in reminder.content
    assert reminder.pinged_ids == [int(healthy_game.awaiting or 0)]

    # its players are told, whatever they press or type
    prompt = table.prompt_message(broken_row)
    awaited = next(iter(broken_row.names))
    pressed = await fake_discord.press(table.user(awaited), prompt, label="Recruit")
    expected = (
        f"This game's saved state cannot be read; an operator must look at it (game #{broken})."
    )
    assert pressed.text == expected
    status = await fake_discord.slash(table.user(awaited), broken_thread, "montana", "status")
    assert status.content == expected
    logged = [e for e in fake_discord.errors if "cannot be read" in e]
    assert len(logged) == 1, fake_discord.errors  # logged once, for the operator
    fake_discord.errors.clear()

    # a restart with both prompts to re-post: the bot starts, the healthy one is shown
    await fake_discord.stop(table.bot)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET prompt_version = version - 1")
    shown_before = len(fake_discord.messages_in(healthy_thread))
    table.bot = make_bot(db, seed=9)
    await fake_discord.start(table.bot)
    assert len(fake_discord.messages_in(healthy_thread)) == shown_before + 1
    fresh = fake_discord.messages_in(healthy_thread)[-1]
    assert fresh.interactive_components() and (await table.row(healthy)).message_id == fresh.id
    assert fresh.pinged_ids == [int(healthy_game.awaiting or 0)]
