"""A whole game through real discord.py: slash commands and button presses only."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from bot.core.delivery.pictures import SampledRenderer
from rules.simulate import choose_action
from tests.bot.driver import PNG, Table, make_bot, open_game, original
from tests.bot.fakediscord import FakeDiscord

COLOUR = r"(copper|stone|grain|pumpkin)"
NOTATION = re.compile(
    rf"\b(a:|p:|build [A-Z]\d|bank \d|harvest \w+ \d|take {COLOUR} {COLOUR}|advance \d|"
    rf"place \d \d|city \d \d|trade (worker|coins)|goods {COLOUR} |upgrade {COLOUR}|noextra)"
)


async def test_lobby_to_first_moves(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, steps = await open_game(
        fake_discord, table, fake_discord.channel, "ana", "ben"
    )
    assert thread.is_thread and thread.name.startswith("Montana — ")
    _, game = await table.game(game_id)
    seats = [table.users[p.id].name.title() for p in game.players]
    assert thread.name == "Montana — " + ", ".join(seats)  # in seat order
    lobby = steps["lobby"]
    assert f"<#{thread.id}>" in lobby.content and not lobby.interactive_components()
    first = fake_discord.messages_in(thread)[-1]
    assert first.files and next(iter(first.files.values())).startswith(PNG)
    assert "drawn at random" in first.content
    row, game = await table.game(game_id)
    awaited = game.awaiting
    assert awaited is not None
    assert f"<@{awaited}>" in first.content
    assert first.pinged_ids == [int(awaited)]
    rng = random.Random(1)
    handovers = continuations = 0
    for _ in range(12):
        row, game = await table.game(game_id)
        pid, action = choose_action(game, rng)
        before = fake_discord.messages_in(thread)
        prompt = table.prompt_message(row)
        edits = prompt.edits
        result = await table.tap_move(game_id, action)
        assert result is not None, f"no buttons lead to {action}"
        after = fake_discord.messages_in(thread)
        new_row, new_game = await table.game(game_id)
        if new_game.awaiting != pid:
            # someone else must act: a new message, the old prompt loses its buttons
            handovers += 1
            assert len(after) == len(before) + 1
            assert new_row.message_id == after[-1].id
            assert not prompt.interactive_components()
            assert after[-1].pinged_ids == [int(new_game.awaiting or 0)]
        else:
            # the same player decides on: their prompt is updated in place
            continuations += 1
            assert len(after) == len(before) and new_row.message_id == prompt.id
            assert prompt.edits > edits and prompt.interactive_components()
            assert f":{new_row.version}:" in prompt.custom_ids()[0]
        posted = after[-1]
        assert next(iter(posted.files.values())).startswith(PNG)
    assert handovers and continuations


async def test_complete_two_player_game(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """From /montana game new to the results, every move tapped (or typed for a few)."""
    renderer = SampledRenderer()
    bot = make_bot(tmp_path / "m.sqlite3", renderer, seed=4)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    rng = random.Random(7)
    moves = 0
    typed_builds = 0
    while True:
        row, game = await table.game(game_id)
        if game.is_over:
            break
        pid, action = choose_action(game, rng)
        if action.verb == "build" and moves % 3 == 0:
            result = await table.type_move(thread, pid, action)
            typed_builds += 1
            assert result.ephemeral
        else:
            tapped = await table.tap_move(game_id, action)
            # the few builds beyond the 25 cheapest are typed
            result = tapped or await table.type_move(thread, pid, action)
        moves += 1
        # the move's post (the last one is followed by the game's summary)
        posted = [m for m in fake_discord.messages_in(thread) if "summary" not in m.content][-1]
        assert next(iter(posted.files.values())).startswith(PNG)
        new_row, new_game = await table.game(game_id)
        assert new_row.version > row.version, f"{action} did not apply: {result.text}"
        awaited = new_game.awaiting
        if awaited is not None and awaited != pid:
            # the player who must act now is mentioned and pinged, nobody else
            assert f"<@{awaited}>" in posted.content
            assert posted.pinged_ids == [int(awaited)]
        assert not NOTATION.search(posted.content), posted.content
    *_, final, summary = fake_discord.messages_in(thread)
    assert "summary" in summary.content
    assert "Final ranking" in final.content
    assert "The game is over" in final.content
    assert next(iter(final.files.values())).startswith(PNG)
    assert final.button_labels() == ["Replay", "Turn by turn"], "no move: only replays"
    assert (await table.row(game_id)).status == "finished"
    assert moves > 100 and table.taps > moves and typed_builds > 0
    assert renderer.calls > moves
    # a second game can now be opened in the channel
    again = await fake_discord.slash(
        table.users[pid], fake_discord.channel, "montana", "game", "new"
    )
    assert not again.ephemeral and "Join" in original(again).button_labels()


async def test_pressed_panels_leave_nothing_behind(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A step panel is an ephemeral message; discord.py would keep the view of each one
    alive 15 minutes (a timeout task per panel), which under load stalls the bot."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    rng = random.Random(3)
    tapped_moves = 0
    for _ in range(60):
        _, game = await table.game(game_id)
        _, action = choose_action(game, rng)
        if await table.tap_move(game_id, action) is None:
            await table.type_move(fake_discord.channel, str(game.awaiting), action)
        else:
            tapped_moves += 1
        if table.taps - tapped_moves >= 3:
            break
    assert table.taps - tapped_moves >= 3, "no step panel was opened"
    store = bot._connection._view_store
    assert not store._views and not store._synced_message_views
    watching = [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
    assert watching == []
