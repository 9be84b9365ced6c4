"""The city auction through buttons, a restart in the middle of it, refusals, races."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rules import Action
from tests.bot.driver import Table, give_pumpkins, make_bot, open_game, to_main_decision
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage


def grid_button(message: FakeMessage, row: int, col: int) -> dict[str, Any]:
    matches = [
        c
        for c in message.interactive_components()
        if c.get("custom_id", "").endswith(f":a:place {row} {col}")
    ]
    assert len(matches) == 1, message.custom_ids()
    return matches[0]


async def start_auction(
    fake: FakeDiscord, tmp_path: Path
) -> tuple[Table, int, FakeChannel, list[str]]:
    """Three players; the active one goes to the city, row 1 column 1. Seats in play order."""
    bot = make_bot(tmp_path / "m.sqlite3", seed=2)
    await fake.start(bot)
    table = Table(fake, bot)
    game_id, thread, _ = await open_game(fake, table, fake.channel, "ana", "ben", "cleo")
    await to_main_decision(table, game_id)
    give_pumpkins(tmp_path / "m.sqlite3", game_id, 3)
    _, game = await table.game(game_id)
    active = game.awaiting
    assert active is not None
    seat = game.seat_of(active)
    order = [game.players[(seat + k) % 3].id for k in range(3)]
    result = await table.tap_move(game_id, Action("city", ("1", "1")))
    assert result is not None
    return table, game_id, thread, order


async def test_three_player_auction_with_a_displacement_chain(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (a, b, c) = await start_auction(fake_discord, tmp_path)
    names = (await table.row(game_id)).names
    prompt = fake_discord.messages_in(thread)[-1]
    # Ben answers: mentioned, pinged, 16 spaces + Pass; Ana's space is not his to take
    assert f"<@{b}>" in prompt.content and prompt.pinged_ids == [int(b)]
    labels = prompt.button_labels()
    assert "Pass" in labels and sum(1 for label in labels if label.startswith("R")) == 16
    assert grid_button(prompt, 1, 1).get("disabled")
    assert not grid_button(prompt, 1, 2).get("disabled")
    # a press by the wrong player changes nothing
    wrong = await fake_discord.press(table.user(c), prompt, grid_button(prompt, 1, 2)["custom_id"])
    assert wrong.ephemeral and "not your move" in wrong.content
    assert names[b] in wrong.content
    # Ben overtakes Ana in row 1
    await fake_discord.press(table.user(b), prompt, grid_button(prompt, 1, 2)["custom_id"])
    prompt = fake_discord.messages_in(thread)[-1]
    assert f"{names[b]} overtook {names[a]} in row 1" in prompt.content
    assert f"<@{a}>, you were overtaken in the city — move or pass" in prompt.content
    assert prompt.pinged_ids == [int(a)]
    # row 1 is closed to Ana now (Ben stands on column 2; column 1 is to his left)
    assert grid_button(prompt, 1, 1).get("disabled") and grid_button(prompt, 1, 2).get("disabled")
    await fake_discord.press(table.user(a), prompt, grid_button(prompt, 2, 1)["custom_id"])
    # Cleo's one answer: she overtakes Ana again, in row 2
    prompt = fake_discord.messages_in(thread)[-1]
    assert f"<@{c}>, the city auction" in prompt.content
    await fake_discord.press(table.user(c), prompt, grid_button(prompt, 2, 2)["custom_id"])
    prompt = fake_discord.messages_in(thread)[-1]
    assert f"{names[c]} overtook {names[a]} in row 2" in prompt.content
    assert f"<@{a}>, you were overtaken" in prompt.content
    await fake_discord.press(table.user(a), prompt, grid_button(prompt, 3, 1)["custom_id"])
    # the auction ends: everyone pays, rewards are chosen with buttons (best first)
    _, game = await table.game(game_id)
    assert game.auction is not None and game.pending.kind == "reward"
    cows_before = game.player(b).cows
    while game.pending.kind == "reward":
        prompt = fake_discord.messages_in(thread)[-1]
        awaited = game.awaiting
        assert awaited is not None and f"<@{awaited}>" in prompt.content
        assert "choose your city reward for row" in prompt.content
        first = next(
            comp
            for comp in prompt.interactive_components()
            if ":a:upgrade" in comp["custom_id"] or ":a:goods" in comp["custom_id"]
        )
        await fake_discord.press(table.user(awaited), prompt, first["custom_id"])
        _, game = await table.game(game_id)
    assert game.auction is None
    assert game.player(b).cows == cows_before + 1  # row 1 gives a cow
    assert all(pos is None for pos in game.representatives)
    assert "paid" in "\n".join(m.content for m in fake_discord.messages_in(thread)[-4:])


async def test_restart_in_the_middle_of_an_auction(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (a, b, c) = await start_auction(fake_discord, tmp_path)
    old_prompt = fake_discord.messages_in(thread)[-1]
    version = (await table.row(game_id)).version
    await fake_discord.stop(table.bot)
    # a new process: a new client on the same database file
    table.bot = make_bot(tmp_path / "m.sqlite3", seed=99)
    await fake_discord.start(table.bot)
    # the button posted by the old client still works
    await fake_discord.press(table.user(b), old_prompt, grid_button(old_prompt, 1, 2)["custom_id"])
    row, game = await table.game(game_id)
    assert row.version > version
    assert game.representatives[game.seat_of(b)] == (1, 2)
    prompt = fake_discord.messages_in(thread)[-1]
    assert prompt.id == row.message_id and f"<@{a}>, you were overtaken" in prompt.content
    assert not old_prompt.interactive_components()  # the new client cleared the old prompt
    await fake_discord.press(table.user(a), prompt, label="Pass")
    _, game = await table.game(game_id)
    assert game.awaiting == c


async def test_two_presses_of_one_button_apply_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (_, b, _) = await start_auction(fake_discord, tmp_path)
    prompt = fake_discord.messages_in(thread)[-1]
    version = (await table.row(game_id)).version
    posted_before = len(fake_discord.messages_in(thread))
    custom_id = grid_button(prompt, 1, 3)["custom_id"]
    first, second = await asyncio.gather(
        fake_discord.press(table.user(b), prompt, custom_id),
        fake_discord.press(table.user(b), prompt, custom_id),
    )
    row, game = await table.game(game_id)
    assert row.version == version + 1
    assert game.log[-1] == (b, "place 1 3")
    assert len(fake_discord.messages_in(thread)) == posted_before + 1
    refusals = [r for r in (first, second) if r.followups or r.ephemeral]
    texts = [m.content for r in refusals for m in r.messages if m.ephemeral]
    assert len(texts) == 1 and "out of date" in texts[0]
    assert (await table.bot.store.move_count(game_id)) == row.version
