"""A move saved but never posted (the bot died in between) is shown after a restart.

Issue 4/5: "no prompt that stops working because the bot restarted" — the players must
not be left with the previous prompt's stale buttons and no mention.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.bot.driver import Table, make_bot, open_game
from tests.bot.fakediscord import FakeDiscord


async def test_a_saved_but_unposted_move_is_posted_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "m.sqlite3"
    table = Table(fake_discord, make_bot(db_path))
    await fake_discord.start(table.bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    row = await table.row(game_id)
    await fake_discord.stop(table.bot)
    # the crash window: the move was committed, its prompt never recorded as posted
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET prompt_version = version - 1 WHERE id = ?", (game_id,))
    posted_before = len(fake_discord.messages_in(thread))

    table.bot = make_bot(db_path, seed=99)
    await fake_discord.start(table.bot)
    fresh = await fake_discord.wait_for_message(
        thread, lambda m: m.interactive_components() != [], after=row.message_id or 0
    )
    row_after, game = await table.game(game_id)  # re-posted during start-up
    assert row_after.version == row.version, "re-posting is not a move"
    assert row_after.message_id == fresh.id
    assert game.awaiting is not None and fresh.pinged_ids == [int(game.awaiting)]
    assert f":{row_after.version}:" in fresh.custom_ids()[0]
    assert len(fake_discord.messages_in(thread)) == posted_before + 1

    # once shown, a further restart posts nothing more
    await fake_discord.stop(table.bot)
    table.bot = make_bot(db_path, seed=98)
    await fake_discord.start(table.bot)
    assert len(fake_discord.messages_in(thread)) == posted_before + 1
