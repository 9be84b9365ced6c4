"""Under combined faults: never two live prompts, never a move posted twice (issue 41).

Through real discord.py and the fake Discord: a clear of the old prompt that fails is
owed and retried like a post (outbox kind `clear`), addressed to the channel or thread
the old prompt lives in (also once the game moved out of its thread), and survives a
restart; a retry that cannot look whether its message went out waits instead of posting
blind, for at most `announce.BLIND_AFTER` counted from its first failed look (kept in the
outbox, so across restarts too), then posts with its identity and owes a recheck that
removes a duplicate, for moves and notices alike.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

from bot.discord_app.delivery import announce
from rules import Action
from tests.bot.driver import Table, make_bot
from tests.bot.fakediscord import FakeChannel, FakeDiscord
from tests.bot.test_faults import (
    MESSAGES,
    after,
    eventually,
    hand_over,
    live_prompts,
    shown_at,
    two_player_game,
)

EDITS = "PATCH /channels/{id}/messages/{id}"
HISTORY = "GET /channels/{id}/messages"
SLOW = 25.0
"""Seconds to wait for what the delivery task does after a few back-offs."""


def clears_owed(db: Path, game_id: int) -> list[tuple[int, str]]:
    """(message id, body) of the clears the game still owes."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT message_id, body FROM outbox WHERE game_id = ? AND kind = 'clear' "
            "AND delivered_at IS NULL",
            (game_id,),
        ).fetchall()
    return [(int(row[0]), str(row[1])) for row in rows]


async def board(fake: FakeDiscord, table: Table, game_id: int, place: FakeChannel) -> None:
    """The awaited player asks for the board again: a fresh prompt (the old one is
    cleared)."""
    _, game = await table.game(game_id)
    await fake.slash(table.user(game.awaiting or ""), place, "montana", "board")


async def test_a_503_on_clearing_the_old_prompt_is_retried_until_one_prompt_is_live(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    fault = fake_discord.inject(EDITS, 503, channel=thread)
    await board(fake_discord, table, game_id, thread)
    (fresh,) = after(fake_discord, thread, old)
    assert fault.hits == 1 and await shown_at(table, game_id, fresh)
    # the clear is owed, and the delivery task tries it again by itself
    await eventually(lambda: _is(live_prompts(fake_discord, thread), [fresh]))
    await eventually(lambda: _is(clears_owed(db, game_id), []))
    assert after(fake_discord, thread, old) == [fresh]  # nothing posted again


async def test_a_burst_of_5xx_on_the_clear_longer_than_discord_py_retries_is_outlasted(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    fault = fake_discord.inject(EDITS, 502, channel=thread, times=12)
    await board(fake_discord, table, game_id, thread)
    (fresh,) = after(fake_discord, thread, old)
    await eventually(lambda: _is(live_prompts(fake_discord, thread), [fresh]), SLOW)
    assert fault.hits == 12


async def test_a_game_moved_out_of_its_thread_clears_the_old_prompt_in_the_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    service = table.bot.service
    # Discord is down for the game's thread while the turn passes on and one more move
    # is made: both posts are owed
    down = fake_discord.inject(MESSAGES, 503, channel=thread, times=1000)
    _, game = await table.game(game_id)
    mover = game.awaiting
    while game.awaiting == mover:
        assert game.awaiting is not None
        await service.play(game_id, game.awaiting, game.legal_actions(game.awaiting)[0])
        _, game = await table.game(game_id)
    assert game.awaiting is not None
    await service.play(game_id, game.awaiting, game.legal_actions(game.awaiting)[0])
    # meanwhile a moderator took Send Messages in Threads from the bot; Discord is back
    fake_discord.deny_bot(fake_discord.channel, discord.Permissions(send_messages_in_threads=True))
    down.times = 0

    async def moved() -> bool:
        row = await table.row(game_id)
        return row.thread_id is None and row.prompt_version == row.version

    await eventually(moved, SLOW)
    channel = fake_discord.channel
    row = await table.row(game_id)
    newest = fake_discord.messages_in(channel)[-1]
    assert newest.id == row.message_id and newest.interactive_components()
    # the old prompt in the thread is cleared there, not looked for in the channel
    await eventually(lambda: _is(live_prompts(fake_discord, thread), []))
    assert old.interactive_components() == []
    assert live_prompts(fake_discord, channel) == [newest]
    await eventually(lambda: _is(clears_owed(db, game_id), []))


async def test_a_game_left_with_two_live_prompts_has_one_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    broken = fake_discord.inject(EDITS, 503, channel=thread, times=1000)
    await board(fake_discord, table, game_id, thread)
    (fresh,) = after(fake_discord, thread, old)
    assert live_prompts(fake_discord, thread) == [old, fresh]
    await fake_discord.stop(table.bot)  # the bot goes down with the clear still failing
    owed = [message for message, _ in clears_owed(db, game_id)]
    broken.times = 0

    table.bot = make_bot(db, seed=99)
    await fake_discord.start(table.bot)
    await eventually(lambda: _is(live_prompts(fake_discord, thread), [fresh]))
    assert owed == [old.id]  # what was owed across the restart
    await eventually(lambda: _is(clears_owed(db, game_id), []))
    assert after(fake_discord, thread, old) == [fresh]
    # and the game goes on from the one live prompt
    assert await table.tap_move(game_id, Action("recruit")) is not None


async def test_a_retry_that_cannot_look_waits_instead_of_posting_twice(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    # Discord makes the message but its answer is lost, again and again (discord.py's
    # own retries included); then the retries' looks at the thread fail for a while
    made = fake_discord.inject(MESSAGES, 502, channel=thread, performed=True, times=5)
    blind = fake_discord.inject(HISTORY, 503, channel=thread, times=3)
    pressed = await hand_over(table, game_id)
    assert made.hits == 5 and "keep trying" in pressed.text
    (posted,) = after(fake_discord, thread, old)
    fake_discord.world.nonce_window = 0.0  # long ago: Discord no longer knows the nonce

    await eventually(lambda: shown_at(table, game_id, posted), SLOW)
    assert blind.hits == 3
    assert after(fake_discord, thread, old) == [posted]  # never posted twice
    assert live_prompts(fake_discord, thread) == [posted]


async def _is(found: object, expected: object) -> bool:
    return found == expected


async def test_a_post_that_could_not_look_for_too_long_goes_out_and_its_duplicate_is_removed(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(announce, "BLIND_AFTER", 0.0)  # the bound is reached at once
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    fake_discord.inject(MESSAGES, 502, channel=thread, performed=True, times=5)
    blind = fake_discord.inject(HISTORY, 503, channel=thread, times=2)
    pressed = await hand_over(table, game_id)
    assert "keep trying" in pressed.text
    (first,) = after(fake_discord, thread, old)
    fake_discord.world.nonce_window = 0.0

    # the retry cannot look and posts (with the identity); the recheck owed finds both
    # once Discord shows the thread again, deletes the later, and the earlier is the prompt
    await eventually(lambda: shown_at(table, game_id, first), SLOW)
    assert blind.hits == 2
    assert after(fake_discord, thread, old) == [first]
    duplicates = [
        m
        for m in fake_discord.world.messages.values()
        if m.deleted and m.channel_id == thread.id and m.id > first.id
    ]
    mark = announce.identity_of(first.raw_content)
    assert len(duplicates) == 1 and mark is not None
    assert announce.identity_of(duplicates[0].raw_content) == mark
    await eventually(lambda: _is(live_prompts(fake_discord, thread), [first]))
    # and the game goes on from it
    _, game = await table.game(game_id)
    assert game.awaiting is not None
    assert await table.tap_move(game_id, game.legal_actions(game.awaiting)[0]) is not None


async def test_a_fresh_prompt_costs_one_post_and_one_edit_as_before(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    before = len(fake_discord.requests())
    await board(fake_discord, table, game_id, thread)
    made = [r.route for r in fake_discord.requests()[before:] if "/channels/" in r.path]
    assert made.count(MESSAGES) == 1 and made.count(EDITS) == 1  # the post, the old one's clear
    assert made.count(HISTORY) == 0
    assert len(live_prompts(fake_discord, thread)) == 1


def looks_failing_since(db: Path, owed_id: int) -> datetime | None:
    """When the outbox says a look for an earlier attempt at `owed_id` first failed."""
    with sqlite3.connect(db) as connection:
        (stamp,) = connection.execute(
            "SELECT looks_failing_since FROM outbox WHERE id = ?", (owed_id,)
        ).fetchone()
    return datetime.fromisoformat(stamp) if stamp else None


def backdate_looks(db: Path, owed_id: int, seconds: float) -> None:
    """The first failed look was `seconds` earlier than recorded (the bot was down
    meanwhile), and the message is due now."""
    first = looks_failing_since(db, owed_id)
    assert first is not None
    earlier = (first - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE outbox SET looks_failing_since = ?, next_at = ? WHERE id = ?",
            (earlier, now, owed_id),
        )


def owed_post(db: Path, game_id: int) -> int:
    """The id of the one post the game still owes."""
    with sqlite3.connect(db) as connection:
        (owed,) = connection.execute(
            "SELECT id FROM outbox WHERE game_id = ? AND kind = 'post' AND delivered_at IS NULL",
            (game_id,),
        ).fetchall()
    return int(owed[0])


async def test_the_bound_on_waiting_for_a_look_counts_from_the_first_failure_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    fake_discord.inject(MESSAGES, 502, channel=thread, performed=True, times=5)
    blind = fake_discord.inject(HISTORY, 503, channel=thread, times=1000)
    pressed = await hand_over(table, game_id)
    assert "keep trying" in pressed.text
    (first,) = after(fake_discord, thread, old)
    fake_discord.world.nonce_window = 0.0
    owed = owed_post(db, game_id)
    # the retry's look fails: the post waits, and the outbox keeps since when
    await eventually(lambda: _is(looks_failing_since(db, owed) is not None, True), SLOW)
    recorded = looks_failing_since(db, owed)
    await fake_discord.stop(table.bot)
    assert after(fake_discord, thread, old) == [first]  # waited, never posted blind
    # the bot stays down past the bound: at its restart the wait is over, though this
    # process never saw a look fail before
    backdate_looks(db, owed, announce.BLIND_AFTER + 1)
    table.bot = make_bot(db, seed=99)
    await fake_discord.start(table.bot)
    await eventually(lambda: _is(len(after(fake_discord, thread, old)), 2), SLOW)
    assert recorded is not None
    # posted with its identity; once the thread can be read, the duplicate goes
    blind.times = 0
    await eventually(lambda: shown_at(table, game_id, first), SLOW)
    await eventually(lambda: _is(after(fake_discord, thread, old), [first]), SLOW)
    await eventually(lambda: _is(live_prompts(fake_discord, thread), [first]))


async def test_a_notice_posted_without_a_look_for_too_long_loses_its_duplicate(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(announce, "BLIND_AFTER", 0.0)  # the bound is reached at once
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    prompt = table.prompt_message(await table.row(game_id))
    _, game = await table.game(game_id)
    waiting = next(p for p in game.player_ids if p != game.awaiting)
    # Discord makes the "away" line in the thread but its answer is lost; the retry's
    # look at the thread fails, so it posts again (with the identity)
    fake_discord.inject(MESSAGES, 502, channel=thread, performed=True, times=5)
    blind = fake_discord.inject(HISTORY, 503, channel=thread, times=2)
    await fake_discord.slash(
        table.user(waiting), fake_discord.channel, "montana", "me", "away", options={"hours": 2}
    )
    (line,) = after(fake_discord, thread, prompt)
    fake_discord.world.nonce_window = 0.0

    def copies() -> list[int]:
        mark = announce.identity_of(line.raw_content)
        assert mark is not None
        return [
            m.id
            for m in fake_discord.world.messages.values()
            if m.channel_id == thread.id and announce.identity_of(m.raw_content) == mark
        ]

    # the recheck owed finds both once Discord shows the thread again: the later goes
    await eventually(lambda: _is(len(copies()), 2), SLOW)
    await eventually(lambda: _is(after(fake_discord, thread, prompt), [line]), SLOW)
    assert blind.hits == 2
    assert line.edits == 0  # a notice has no buttons to take off
    assert live_prompts(fake_discord, thread) == [prompt]
