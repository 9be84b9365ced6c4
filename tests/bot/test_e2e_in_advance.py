"""Passing in advance in a city auction (issue 11.3): a player queued to answer later
says now that they will pass; when the auction reaches them the pass is applied in the
same save as the move that reached them, without asking. Withdrawable until then, kept
across a restart, bound to that one auction."""

from __future__ import annotations

from pathlib import Path

from bot.core.play.service import IN_ADVANCE_NOTE
from rules import Action
from tests.bot.driver import give_pumpkins, make_bot, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from tests.bot.test_e2e_auction import grid_button, start_auction
from tests.bot.test_e2e_forced import notes_of

PASS_IN_ADVANCE = "Pass in advance"


def newest(fake: FakeDiscord, thread: FakeChannel) -> FakeMessage:
    return fake.messages_in(thread)[-1]


async def test_a_pass_in_advance_is_applied_when_the_auction_comes_round(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (a, b, c) = await start_auction(fake_discord, tmp_path)
    names = (await table.row(game_id)).names
    prompt = newest(fake_discord, thread)
    assert f"<@{b}>, the city auction" in prompt.content
    assert PASS_IN_ADVANCE in prompt.button_labels()
    # only a player queued to answer later may press it
    waited = await fake_discord.press(table.user(b), prompt, label=PASS_IN_ADVANCE)
    assert "waiting for your answer now" in waited.content
    opener = await fake_discord.press(table.user(a), prompt, label=PASS_IN_ADVANCE)
    assert "You opened this city auction" in opener.content
    pressed = await fake_discord.press(table.user(c), prompt, label=PASS_IN_ADVANCE)
    assert pressed.ephemeral and "You will pass in this city auction" in pressed.content
    assert "again" in pressed.content  # how to withdraw it
    # nothing public is said about it, and the game waits for Ben as before
    assert newest(fake_discord, thread).id == prompt.id
    before = await table.row(game_id)

    await fake_discord.press(table.user(b), prompt, grid_button(prompt, 2, 1)["custom_id"])

    _, game = await table.game(game_id)
    assert game.log[before.version : before.version + 2] == [(b, "place 2 1"), (c, "pass")]
    message = newest(fake_discord, thread)
    assert f"{names[c]} passed in advance." in message.content
    assert int(c) not in message.pinged_ids and f"<@{c}>" not in message.content
    # one save: both moves stamped alike, one message for them; the log says why
    logged = await notes_of(table.bot, game_id)
    assert logged[before.version + 2] == (c, "pass", IN_ADVANCE_NOTE)
    stamps = await table.bot.store.moves(game_id, offset=before.version, limit=2)
    assert stamps[0].at == stamps[1].at
    assert [m.id for m in fake_discord.messages_in(thread) if m.id > prompt.id] == [message.id]
    shown = original(await fake_discord.slash(table.user(a), thread, "montana", "game", "log"))
    assert f"{before.version + 2}. {names[c]}: pass  (passed in advance)" in shown.content


async def test_a_pass_in_advance_can_be_withdrawn_before_the_turn_comes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (_, b, c) = await start_auction(fake_discord, tmp_path)
    prompt = newest(fake_discord, thread)
    await fake_discord.press(table.user(c), prompt, label=PASS_IN_ADVANCE)
    withdrawn = await fake_discord.press(table.user(c), prompt, label=PASS_IN_ADVANCE)
    assert "withdrawn" in withdrawn.content
    await fake_discord.press(table.user(b), prompt, grid_button(prompt, 2, 1)["custom_id"])
    _, game = await table.game(game_id)
    assert game.awaiting == c and game.pending.kind == "bid"
    message = newest(fake_discord, thread)
    assert message.pinged_ids == [int(c)] and f"<@{c}>, the city auction" in message.content


async def test_a_typed_pass_before_ones_turn_is_a_pass_in_advance_kept_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (_, b, c) = await start_auction(fake_discord, tmp_path)
    typed = await fake_discord.slash(table.user(c), thread, "montana", "pass")
    assert "You will pass in this city auction" in typed.content
    prompt = newest(fake_discord, thread)
    await fake_discord.stop(table.bot)
    table.bot = make_bot(tmp_path / "m.sqlite3", seed=99)
    await fake_discord.start(table.bot)
    await fake_discord.press(table.user(b), prompt, grid_button(prompt, 3, 1)["custom_id"])
    _, game = await table.game(game_id)
    assert (c, "pass") in game.log and game.awaiting != c
    assert "passed in advance" in newest(fake_discord, thread).content


async def test_a_pass_in_advance_is_bound_to_its_auction(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """An auction taken back and opened again is another auction: a pass in advance
    given in the first one is not applied in the second."""
    table, game_id, thread, (a, b, c) = await start_auction(fake_discord, tmp_path)
    prompt = newest(fake_discord, thread)
    await fake_discord.press(table.user(c), prompt, label=PASS_IN_ADVANCE)
    said = await fake_discord.slash(table.user(a), thread, "montana", "undo")
    assert "took back: went to the city" in said.content
    give_pumpkins(tmp_path / "m.sqlite3", game_id, 3)
    assert await table.tap_move(game_id, Action("city", ("1", "1"))) is not None
    prompt = newest(fake_discord, thread)
    await fake_discord.press(table.user(b), prompt, grid_button(prompt, 2, 1)["custom_id"])
    _, game = await table.game(game_id)
    assert game.awaiting == c
    assert newest(fake_discord, thread).pinged_ids == [int(c)]
