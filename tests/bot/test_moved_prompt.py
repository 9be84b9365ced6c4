"""A game's prompt stays usable wherever it was posted (issue 41): a game goes on in its
channel once its thread refuses the bot, and a prompt the bot recorded in the thread
before that (found again there as the earlier attempt of a retried post, say) is still
the game's prompt. (A press on another game's message stays refused:
`tests/bot/test_hostile_input.py`.) Its buttons must work, or the game stalls: every press on it was
told "That button belongs to a game in another channel or thread" (seen in a chaos run,
`python -m bot.chaos --seed 1 --minutes 5`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from rules import Action
from tests.bot.driver import make_bot
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_faults import live_prompts, two_player_game


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
