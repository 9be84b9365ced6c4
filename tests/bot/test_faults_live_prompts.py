"""At most one live prompt per game, also for prompts a previous run left live with no
clear owed (issue 41): at start-up every game under way has the newest messages of its
places looked at once (its thread and its channel, and those it was moved out of), and
an older message of the bot with live buttons of the game is cleared.

Through real discord.py and the fake Discord: the state left behind is made by the bot
itself (a clear failing until it stops), then the clear's record is taken away, as a run
from before the clear records would have left it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import discord

from bot.core.delivery import live
from tests.bot.driver import Table, make_bot
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_faults import (
    MESSAGES,
    after,
    eventually,
    live_prompts,
    second_game,
    two_player_game,
)
from tests.bot.test_faults_prompts import EDITS, HISTORY, SLOW, board, clears_owed


def forget_clears(db: Path, game_id: int) -> None:
    """The outbox as a run from before the clear records left it: no clear owed."""
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM outbox WHERE game_id = ? AND kind = 'clear'", (game_id,))


async def restart(fake: FakeDiscord, table: Table, db: Path) -> None:
    table.bot = make_bot(db, seed=99)
    await fake.start(table.bot)


async def test_an_older_prompt_left_live_with_no_clear_owed_is_cleared_at_start_up(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    broken = fake_discord.inject(EDITS, 503, channel=thread, times=1000)
    await board(fake_discord, table, game_id, thread)
    (fresh,) = after(fake_discord, thread, old)
    await fake_discord.stop(table.bot)
    forget_clears(db, game_id)
    broken.times = 0
    assert live_prompts(fake_discord, thread) == [old, fresh]
    reads = len(fake_discord.requests(HISTORY))

    await restart(fake_discord, table, db)
    await eventually(lambda: _is(live_prompts(fake_discord, thread), [fresh]), SLOW)
    await eventually(lambda: _is(clears_owed(db, game_id), []))
    assert after(fake_discord, thread, old) == [fresh]  # nothing posted, nothing deleted
    # one read of the newest messages per place: the thread and its channel
    looked = fake_discord.requests(HISTORY)[reads:]
    assert sorted(r.path for r in looked) == sorted(
        f"/channels/{place.id}/messages" for place in (fake_discord.channel, thread)
    )
    assert {r.query.get("limit") for r in looked} == {str(live.LOOK_BACK)}


async def test_a_game_moved_out_of_its_thread_has_its_old_prompt_there_cleared_at_start_up(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    # the thread refuses the bot's posts and edits (a moderator): the game goes on in its
    # channel, and the old prompt in the thread keeps its buttons
    broken = fake_discord.inject(EDITS, 503, channel=thread, times=1000)
    fake_discord.deny_bot(fake_discord.channel, discord.Permissions(send_messages_in_threads=True))
    await board(fake_discord, table, game_id, thread)

    async def moved() -> bool:
        row = await table.row(game_id)
        return row.thread_id is None and row.prompt_version == row.version

    await eventually(moved, SLOW)
    await fake_discord.stop(table.bot)
    forget_clears(db, game_id)
    broken.times = 0
    channel = fake_discord.channel
    assert live_prompts(fake_discord, thread) == [old]
    (newest,) = live_prompts(fake_discord, channel)

    await restart(fake_discord, table, db)
    await eventually(lambda: _is(live_prompts(fake_discord, thread), []), SLOW)
    assert live_prompts(fake_discord, channel) == [newest]
    assert not old.deleted and not newest.deleted


async def test_an_old_prompt_in_a_thread_discord_archived_is_cleared_there(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    old = table.prompt_message(await table.row(game_id))
    broken = fake_discord.inject(EDITS, 503, channel=thread, times=1000)
    fake_discord.deny_bot(fake_discord.channel, discord.Permissions(send_messages_in_threads=True))
    await board(fake_discord, table, game_id, thread)
    await eventually(lambda: _is(live_prompts(fake_discord, fake_discord.channel) != [], True))
    await fake_discord.stop(table.bot)
    forget_clears(db, game_id)
    broken.times = 0
    # days later the thread the game left is archived by Discord (its edits answer 50083)
    fake_discord.archive(thread)

    await restart(fake_discord, table, db)
    await eventually(lambda: _is(live_prompts(fake_discord, thread), []), SLOW)
    await eventually(lambda: _is(clears_owed(db, game_id), []))
    assert not old.deleted and len(live_prompts(fake_discord, fake_discord.channel)) == 1


async def test_the_look_at_start_up_never_touches_the_prompts_and_reads_each_place_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    other_id, other_thread = await second_game(fake_discord, table)
    prompts = [table.prompt_message(await table.row(g)) for g in (game_id, other_id)]
    await fake_discord.stop(table.bot)
    posts, edits = len(fake_discord.requests(MESSAGES)), len(fake_discord.requests(EDITS))
    reads = len(fake_discord.requests(HISTORY))

    await restart(fake_discord, table, db)
    assert await table.bot.live_sweep.finished() == 0
    assert live_prompts(fake_discord, thread) == prompts[:1]
    assert live_prompts(fake_discord, other_thread) == prompts[1:]
    assert len(fake_discord.requests(EDITS)) == edits
    assert len(fake_discord.requests(MESSAGES)) == posts
    # each game's channel and thread read once
    places = (fake_discord.channel.id, thread.id, other_thread.parent_id, other_thread.id)
    looked = [r.path for r in fake_discord.requests(HISTORY)[reads:]]
    assert sorted(looked) == sorted(f"/channels/{place}/messages" for place in places)


async def _is(found: object, expected: object) -> bool:
    return found == expected
