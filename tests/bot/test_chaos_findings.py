"""Defects the five-minute chaos runs found (issue 41, `python -m bot.chaos --seed N
--minutes 5`), each made deterministic here.

A game's prompt stays usable wherever it was posted: a game goes on in its
channel once its thread refuses the bot, and a prompt the bot recorded in the thread
before that (found again there as the earlier attempt of a retried post, say) is still
the game's prompt. (A press on another game's message stays refused:
`tests/bot/test_hostile_input.py`.) Its buttons must work, or the game stalls: every press on it was
told "That button belongs to a game in another channel or thread" (seen in a chaos run,
`python -m bot.chaos --seed 1 --minutes 5`)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rules import Action
from tests.bot.driver import make_bot
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_faults import (
    MESSAGES,
    after,
    eventually,
    hand_over,
    live_prompts,
    two_player_game,
)
from tests.bot.test_faults_prompts import EDITS, HISTORY, SLOW


async def test_the_prompt_left_in_the_thread_the_game_moved_out_of_takes_the_move(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    row = await table.row(game_id)
    prompt = table.prompt_message(row)
    assert prompt.channel_id == thread.id
    # the game now plays in its channel; its recorded prompt is the one in the thread
    # (as the bot finds it after a restart)
    await fake_discord.stop(table.bot)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET thread_id = NULL WHERE id = ?", (game_id,))
    table.bot = make_bot(db, seed=99)
    await fake_discord.start(table.bot)
    assert await table.tap_move(game_id, Action("recruit")) is not None
    moved = await table.row(game_id)
    assert moved.version > row.version
    # the next prompt is posted where the game plays, the thread's is cleared
    channel = fake_discord.channel
    assert table.prompt_message(moved).channel_id == channel.id
    assert live_prompts(fake_discord, thread) == []


async def test_a_post_left_backing_off_by_a_killed_bot_goes_out_soon_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Seed 3: a post had failed for minutes when the bot was killed; its next try was
    minutes away (the back-off doubles up to 5 minutes) and the new process no longer
    knew Discord had been failing, so nothing asked whether it answered again: the game
    waited out the whole back-off after Discord was back."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    down = fake_discord.inject(MESSAGES, 503, channel=thread, times=1000)
    assert "keep trying" in (await hand_over(table, game_id)).text
    row = await table.row(game_id)
    assert row.prompt_version != row.version  # owed: Discord fails
    await fake_discord.stop(table.bot)
    # it had been failing for four minutes: the next try four minutes away
    now = datetime.now(UTC)
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE outbox SET next_at = ?, failing_since = ? "
            "WHERE game_id = ? AND delivered_at IS NULL",
            (
                (now + timedelta(minutes=4)).isoformat(timespec="milliseconds"),
                (now - timedelta(minutes=4)).isoformat(timespec="milliseconds"),
                game_id,
            ),
        )
    down.times = 0  # Discord is back
    table.bot = make_bot(db, seed=99)
    await fake_discord.start(table.bot)

    async def posted() -> bool:
        shown = await table.row(game_id)
        return shown.prompt_version == shown.version

    await eventually(posted, 20.0)
    assert live_prompts(fake_discord, thread) == [table.prompt_message(await table.row(game_id))]


async def test_an_earlier_attempt_found_as_words_only_loses_its_buttons_though_an_edit_fails(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Seed 1: a move's post went out (its answer lost) as the prompt; by its retry a
    later move was made, so the retry found it and, being words only now, took its
    buttons off with one edit, which Discord refused (503): the error was swallowed, and
    the thread kept an old message with live buttons for good."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    made = fake_discord.inject(MESSAGES, 502, channel=thread, performed=True, times=5)
    assert "keep trying" in (await hand_over(table, game_id)).text
    (went_out,) = after(fake_discord, thread, old)
    assert made.hits == 5 and went_out.interactive_components()
    # the next player moves before the retry: the retry finds the message went out, and
    # it is words only now; Discord refuses edits for a moment
    refused = fake_discord.inject(EDITS, 503, channel=thread, times=3)
    _, game = await table.game(game_id)
    assert game.awaiting is not None
    await table.bot.service.play(game_id, game.awaiting, game.legal_actions(game.awaiting)[0])

    async def one_live_prompt() -> bool:
        row = await table.row(game_id)
        live = live_prompts(fake_discord, thread)
        return row.prompt_version == row.version and [m.id for m in live] == [row.message_id]

    await eventually(one_live_prompt, SLOW)
    assert refused.hits == 3 and went_out.interactive_components() == []


async def test_a_retry_refused_its_look_posts_and_then_removes_the_duplicate(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Seed 4: a move's post went out (its answer lost); its retry's look at the thread
    was refused (403: no right to read the history), so it posted without knowing and
    owed no recheck: the move stood twice in the thread for good."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    fake_discord.inject(MESSAGES, 502, channel=thread, performed=True, times=5)
    refused = fake_discord.inject(HISTORY, 403, channel=thread, times=1)
    assert "keep trying" in (await hand_over(table, game_id)).text
    (first,) = after(fake_discord, thread, old)
    fake_discord.world.nonce_window = 0.0  # long ago: Discord no longer knows the nonce

    async def posted_once() -> bool:
        row = await table.row(game_id)
        return row.prompt_version == row.version and after(fake_discord, thread, old) == [first]

    await eventually(posted_once, SLOW)
    assert refused.hits == 1
    assert live_prompts(fake_discord, thread) == [first]
