"""Refusals and the other slash commands, through real discord.py."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.core.wording.words import RULES_HELP, rules_help
from rules import Action
from tests.bot.driver import PNG, Table, make_bot, open_game, original, to_main_decision
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeHTTPError


async def started(fake: FakeDiscord, tmp_path: Path) -> tuple[Table, int, FakeChannel]:
    bot = make_bot(tmp_path / "m.sqlite3", seed=3)
    await fake.start(bot)
    table = Table(fake, bot)
    game_id, thread, _ = await open_game(fake, table, fake.channel, "ana", "ben")
    await to_main_decision(table, game_id)
    return table, game_id, thread


async def test_second_new_in_a_channel_points_to_the_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    _, _, thread = await started(fake_discord, tmp_path)
    cleo = fake_discord.add_user("cleo")
    for where in (fake_discord.channel, thread):
        again = await fake_discord.slash(cleo, where, "montana", "game", "new")
        assert again.ephemeral and "already" in again.content
        assert f"<#{thread.id}>" in again.content
    assert len(fake_discord.threads) == 1


async def test_out_of_turn_illegal_and_outsider_refusals(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    row, game = await table.game(game_id)
    awaited = game.awaiting
    assert awaited is not None
    other = next(pid for pid in table.users if pid != awaited)
    prompt = table.prompt_message(row)
    # a player out of turn, by button and by command
    pressed = await fake_discord.press(table.user(other), prompt, label="Recruit")
    assert pressed.ephemeral and "not your move" in pressed.content
    assert row.names[awaited] in pressed.content
    typed = await fake_discord.slash(table.user(other), thread, "montana", "recruit")
    assert typed.ephemeral and "not your move" in typed.content
    # someone who is not playing
    eve = fake_discord.add_user("eve")
    outsider = await fake_discord.press(eve, prompt, label="Recruit")
    assert outsider.ephemeral and "not playing in this game" in outsider.content
    board = await fake_discord.press(eve, prompt, label="My board")
    assert board.ephemeral and "not playing" in board.content
    # an illegal build: a mountain, and a field far from every settlement
    mountain = next(f.label for f in game.fields.values() if f.kind == "mountain")
    built = await fake_discord.slash(
        table.user(awaited), thread, "montana", "build", options={"field": mountain}
    )
    assert built.ephemeral and f"{mountain} is a mountain" in built.content
    assert "You may now: recruit" in built.content
    notation = await fake_discord.slash(
        table.user(awaited), thread, "montana", "play", options={"move": "dance wildly"}
    )
    assert notation.ephemeral and "unknown action" in notation.content
    # nothing changed, nothing was posted
    assert (await table.row(game_id)).version == row.version
    assert fake_discord.messages_in(thread)[-1].id == prompt.id


async def test_stale_button_changes_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    row, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    # open the Work panel (an ephemeral message with buttons of this version) ...
    panel = await fake_discord.press(table.user(pid), table.prompt_message(row), label="Work…")
    assert panel.ephemeral
    # ... then move on by typing, and come back to the panel
    await fake_discord.slash(table.user(pid), thread, "montana", "recruit")
    moved = await table.row(game_id)
    assert moved.version > row.version
    menu = next(c for c in original(panel).interactive_components() if c["type"] == 3)
    late = await fake_discord.select(
        table.user(pid), original(panel), menu["custom_id"], [menu["options"][0]["value"]]
    )
    assert "out of date" in late.text
    assert (await table.row(game_id)).version == moved.version


async def test_build_autocomplete_lists_legal_fields_with_costs(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    _, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    result = await fake_discord.autocomplete(
        table.user(pid), thread, "montana", "build", options={"field": ""}, focused="field"
    )
    values = [c["value"] for c in result.choices]
    assert set(values) == set(game.buildable_fields(pid))
    for choice in result.choices:
        assert choice["name"].startswith(choice["value"] + " — ")
    other = next(p for p in table.users if p != pid)
    none = await fake_discord.autocomplete(
        table.user(other), thread, "montana", "build", options={"field": ""}, focused="field"
    )
    assert none.choices == []
    if values:
        built = await fake_discord.slash(
            table.user(pid), thread, "montana", "build", options={"field": values[0]}
        )
        assert built.ephemeral
        assert f"built on {values[0]}" in fake_discord.messages_in(thread)[-1].content


async def test_status_rules_log_board_and_my_board(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    row = await table.row(game_id)
    ana = next(u for u in table.users.values() if u.name == "ana")
    status = await fake_discord.slash(ana, thread, "montana", "status")
    assert status.ephemeral and "**Ana**" in status.content and "coins" in status.content
    rules = await fake_discord.slash(ana, thread, "montana", "game", "rules")
    # the whole rules, in as many messages as Discord's 2000 characters need, their
    # commands named by mentions
    shown = [rules.original, *rules.followups]
    assert all(m is not None and m.ephemeral and len(m.content) <= 2000 for m in shown)
    assert "\n".join(m.content for m in shown if m is not None) == rules_help()
    assert rules_help() != RULES_HELP and "</montana undo:" in rules_help()
    log = await fake_discord.slash(ana, thread, "montana", "game", "log")
    assert log.ephemeral and "spin" in log.content and "page 1 of 1" in log.content
    before = table.prompt_message(row)
    posted = await fake_discord.slash(ana, fake_discord.channel, "montana", "board")
    assert posted.ephemeral and f"<#{thread.id}>" in posted.content
    fresh = fake_discord.messages_in(thread)[-1]
    assert fresh.id != before.id and next(iter(fresh.files.values())).startswith(PNG)
    assert not before.interactive_components() and fresh.interactive_components()
    # the re-posted prompt works: the awaited player recruits with it
    assert await table.tap_move(game_id, Action("recruit")) is not None
    assert (await table.row(game_id)).version > row.version
    mine = await fake_discord.press(ana, fake_discord.messages_in(thread)[-1], label="My board")
    assert mine.ephemeral or any(m.ephemeral for m in mine.messages)
    assert any(data.startswith(PNG) for data in mine.files.values())


async def test_abandon_by_creator_or_manager_only(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    row = await table.row(game_id)
    creator = table.user(row.creator_id)
    other = next(u for pid, u in table.users.items() if pid != row.creator_id)
    refused = await fake_discord.slash(other, thread, "montana", "game", "abandon")
    assert refused.ephemeral and "Only the player who opened" in refused.content
    fake_discord.set_permissions(other, discord.Permissions(manage_channels=True))
    done = await fake_discord.slash(other, thread, "montana", "game", "abandon")
    assert not done.ephemeral and "abandoned" in done.content
    assert (await table.row(game_id)).status == "abandoned"
    assert not table.prompt_message(row).interactive_components()
    # the channel is free for a new game
    new = await fake_discord.slash(creator, fake_discord.channel, "montana", "game", "new")
    assert not new.ephemeral and "Join" in original(new).button_labels()


async def test_lobby_buttons_and_commands(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    created = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    lobby = original(created)
    alone = await fake_discord.press(ana, lobby, label="Start")
    assert alone.ephemeral and "2 to 4 players" in alone.content
    joined = await fake_discord.slash(ben, fake_discord.channel, "montana", "game", "join")
    assert joined.ephemeral and "Ana, Ben" in joined.content
    assert f"<@{ben.id}>" in lobby.content
    twice = await fake_discord.press(ben, lobby, label="Join")
    assert twice.ephemeral and "already joined" in twice.content
    left = await fake_discord.press(ben, lobby, label="Leave")
    assert f"<@{ben.id}>" not in original(left).content
    await fake_discord.press(ben, lobby, label="Join")
    started = await fake_discord.slash(ben, fake_discord.channel, "montana", "game", "start")
    assert started.ephemeral and "has started in <#" in started.content
    assert len(fake_discord.threads) == 1 and not lobby.interactive_components()


async def test_a_game_opened_inside_a_thread_plays_there(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    row = await table.row(game_id)
    creator = table.user(row.creator_id)
    await fake_discord.slash(creator, thread, "montana", "game", "abandon")
    created = await fake_discord.slash(creator, thread, "montana", "game", "new")
    lobby = original(created)
    assert lobby.channel_id == thread.id
    other = next(u for pid, u in table.users.items() if pid != row.creator_id)
    await fake_discord.press(other, lobby, label="Join")
    await fake_discord.press(creator, lobby, label="Start")
    assert len(fake_discord.threads) == 1  # no thread inside the thread
    latest = fake_discord.messages_in(thread)[-1]
    assert "drawn at random" in latest.content and latest.interactive_components()


async def test_without_thread_permission_the_game_plays_in_the_channel(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise FakeHTTPError(403, "Missing Permissions", 50013)

    monkeypatch.setattr(fake_discord.world, "_create_thread", refuse)
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    await fake_discord.press(ben, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Start")
    assert not fake_discord.threads
    assert "plays in this channel" in lobby.content
    latest = fake_discord.messages_in(fake_discord.channel)[-1]
    assert "drawn at random" in latest.content and latest.interactive_components()


async def test_a_move_is_saved_even_when_it_cannot_be_posted(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    row, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    prompt = table.prompt_message(row)
    bank = next(a for a in game.legal_actions(pid) if a.verb == "bank")
    thread.locked = True  # a moderator locked the thread: the bot cannot post there
    pressed = await table.tap_move(game_id, bank)  # hands the turn over: a new message
    assert pressed is not None
    # the presser is told why, and what unblocks it
    assert "Your move is saved" in pressed.text and "/montana board" in pressed.text
    assert "is locked" in pressed.text
    assert (await table.row(game_id)).version > row.version
    thread.locked = False
    await fake_discord.slash(table.user(pid), thread, "montana", "board")
    fresh = fake_discord.messages_in(thread)[-1]
    assert fresh.id != prompt.id and fresh.interactive_components()
    assert not prompt.interactive_components()


async def test_play_autocomplete_offers_legal_moves(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await started(fake_discord, tmp_path)
    _, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    result = await fake_discord.autocomplete(
        table.user(pid), thread, "montana", "play", options={"move": "ba"}, focused="move"
    )
    legal = {str(a) for a in game.legal_actions(pid)}
    values = [c["value"] for c in result.choices]
    assert values and all(v.startswith("ba") and v in legal for v in values)
