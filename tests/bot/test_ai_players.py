"""AI players through real discord.py and the fake Discord (issue 14 points 4-6): AI
seats from the lobby to the end of a game, hints and "Play it", a takeover vote and a
reclaim, the `absent` setting at a deadline.

The AI's decisions run in its worker process, as in production; the bots here let it
move at once (`make_bot(ai_delay=0)`), and `bot.ai.idle()` waits for its moves.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import re
import signal
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.core.ai_players.ai_seats import AiPlayers
from bot.core.assembly import game_service
from bot.core.delivery.pictures import SampledRenderer
from bot.core.play.service import AI_PLAYS_NOTE, TAKEN_OVER, PillowRenderer
from bot.core.store import Seat, Store, is_ai_seat
from rules import Game
from rules.simulate import choose_action
from tests.bot.driver import (
    PNG,
    Table,
    codes_on,
    game_at_main,
    make_bot,
    original,
    play_until,
)
from tests.bot.fakediscord import FakeDiscord, FakeMessage
from tests.bot.test_deadlines import manual_clock

AI_MENTION = re.compile(r"<@!?ai:")


class NotesSeen(PillowRenderer):
    """The real renderer, noting the seat notes of every picture."""

    def __init__(self, seen: list[Mapping[str, str]]) -> None:
        self.seen = seen

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        self.seen.append(dict(seat_notes or {}))
        assert not any(name.endswith("(AI)") for name in names.values())
        return super().game_picture(
            game, highlight=highlight, names=names, seat_notes=seat_notes, language=language
        )


def chosen_moves_are_legal(game: Game) -> list[str]:
    """Replay the game's record, checking that each AI seat's chosen move was among the
    legal actions at that moment; the kinds of decision of the AI's moves."""
    replayed = Game.replay_start(game.record())
    forced = set(game.auto)
    kinds = []
    for index, (pid, notation) in enumerate(game.log):
        if is_ai_seat(pid) and index not in forced and not notation.startswith("spin "):
            legal = {str(a) for a in replayed.legal_actions(pid)}
            assert notation in legal, f"move {index + 1}: {notation!r} was not legal"
            kinds.append(replayed.pending.kind)
        replayed.replay_action(pid, notation)
    return kinds


async def test_a_game_with_ai_seats_runs_to_its_end(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", SampledRenderer(), seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    ana = fake_discord.add_user("ana")
    table.users[str(ana.id)] = ana
    created = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    lobby = original(created)
    assert {"Add AI", "Remove AI"} <= set(lobby.button_labels())
    for _ in range(3):
        await fake_discord.press(ana, lobby, label="Add AI")
    assert "(4/4)" in lobby.content and "AI 3" in lobby.content
    await fake_discord.press(ana, lobby, label="Remove AI")
    assert "(3/4)" in lobby.content and "AI 1, AI 2" in lobby.content
    assert "AI 3" not in lobby.content
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    game_id, thread = row.id, fake_discord.channel_by_id(row.play_channel_id)
    assert [s.name for s in row.players if s.is_ai] == ["AI 1", "AI 2"]
    rng = random.Random(2)
    human_moves = 0
    while True:
        await bot.ai.idle()
        row, game = await table.game(game_id)
        if game.is_over:
            break
        pid = game.awaiting
        # once the AI is done, the game always waits for the human
        assert pid == str(ana.id), f"the game waits for {pid} and nothing moves"
        _, action = choose_action(game, rng)
        done = await table.tap_move(game_id, action) or await table.type_move(thread, pid, action)
        assert (await table.row(game_id)).version > row.version, done.text
        human_moves += 1
    # the last move's post, then the game's summary (bot.core.community.ratings)
    messages = fake_discord.messages_in(thread)
    *_, final, summary = messages
    assert "summary" in summary.content
    assert "Final ranking" in final.content and next(iter(final.files.values())).startswith(PNG)
    assert (await table.row(game_id)).status == "finished"
    kinds = chosen_moves_are_legal(game)
    ai_moves = len(kinds)
    assert ai_moves > 30 and human_moves > 5
    # main actions and, in the city auction, the AI's answers
    assert {"main", "bid"} <= set(kinds), sorted(set(kinds))
    # an AI seat is named, never mentioned or pinged; the human is pinged on handovers
    assert not [m for m in messages if AI_MENTION.search(m.content)]
    assert all(m.pinged_ids in ([], [ana.id]) for m in messages)
    assert any("AI 1, your turn" in m.content or "AI 2, your turn" in m.content for m in messages)
    assert sum(m.pinged_ids == [ana.id] for m in messages) > 10
    # every AI move is in the log, with the move's message like a human's
    moves = await bot.store.moves(game_id)
    assert sum(is_ai_seat(m.player) for m in moves) >= ai_moves


async def test_only_the_opener_adds_ai_and_a_table_of_ai_alone_never_starts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    await fake_discord.press(ben, lobby, label="Join")
    refused = await fake_discord.press(ben, lobby, label="Add AI")
    assert refused.ephemeral
    assert "Only the player who opened the game can add AI players" in refused.content
    await fake_discord.press(ana, lobby, label="Add AI")
    await fake_discord.press(ana, lobby, label="Add AI")
    full = await fake_discord.press(ana, lobby, label="Add AI")
    assert "full" in full.content and "4 players at most" in full.content
    await fake_discord.press(ben, lobby, label="Leave")
    await fake_discord.press(ana, lobby, label="Add AI")
    most = await fake_discord.press(ana, lobby, label="Add AI")
    assert "3 AI seats at most" in most.content
    assert lobby.content.count("AI ") >= 3
    # the last human out: a table of AI seats alone is no game
    await fake_discord.press(ana, lobby, label="Leave")
    row = await bot.store.latest_game_in(fake_discord.channel.id)
    assert row is not None and row.status == "abandoned"
    assert not lobby.interactive_components()


def hint_button(message: FakeMessage) -> str:
    return codes_on(message)["hint"][1]


async def test_a_hint_answers_the_awaited_player_alone_and_play_it_plays_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    row, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    other = next(p for p in game.player_ids if p != pid)
    prompt = table.prompt_message(row)
    refused = await fake_discord.press(table.user(other), prompt, hint_button(prompt))
    assert refused.ephemeral and "It is not your move" in refused.text
    assert (await table.row(game_id)).version == row.version
    answered = await fake_discord.press(table.user(pid), prompt, hint_button(prompt))
    hint = answered.followups[-1] if answered.followups else original(answered)
    assert hint.ephemeral and "The AI suggests **" in hint.content
    suggested = hint.content.split("**")[1]
    assert suggested in {str(a) for a in game.legal_actions(pid)}
    assert len(hint.content.split(" — ", 1)[1]) > 5  # a reason in words
    # the same state gets the same suggestion (seeded by the game's state)
    typed = await fake_discord.slash(table.user(pid), thread, "montana", "hint")
    assert f"**{suggested}**" in typed.text
    # only the awaited player may play it (a forged press by another is refused); for
    # them it is a normal move
    play_id = codes_on(hint)[f"a:{suggested}"][1]
    play_it = await fake_discord.press_forged(table.user(other), prompt, play_id)
    assert "It is not your move" in play_it.text
    await fake_discord.press(table.user(pid), hint, label="▶ Play it")
    after = await table.row(game_id)
    assert after.version > row.version
    moves = await table.bot.store.moves(game_id, offset=row.version, limit=1)
    assert (moves[0].player, moves[0].notation) == (pid, suggested)
    # the hint's message now shows what comes next; the old button (replayed by a
    # client) is out of date and changes nothing
    assert "▶ Play it" not in hint.button_labels()
    again = await fake_discord.press_forged(table.user(pid), hint, play_id)
    assert "out of date" in again.text
    assert (await table.row(game_id)).version == after.version


async def test_a_takeover_vote_hands_the_seat_to_the_ai_until_its_owner_reclaims_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await game_at_main(
        fake_discord, tmp_path / "m.sqlite3", "ana", "ben", "cleo"
    )
    bot = table.bot
    notes: list[Mapping[str, str]] = []
    bot.service.renderer = NotesSeen(notes)
    row, game = await table.game(game_id)
    absent = game.awaiting
    assert absent is not None
    voters = [p for p in game.player_ids if p != absent]
    absent_user = table.user(absent)
    # the absent player cannot vote about their own seat
    own = await fake_discord.slash(
        absent_user, thread, "montana", "game", "takeover", options={"player": absent_user}
    )
    assert "your own seat" in own.text
    # nobody votes a present player's seat over: only once their deadline has passed
    early = await fake_discord.slash(
        table.user(voters[0]),
        thread,
        "montana",
        "game",
        "takeover",
        options={"player": absent_user},
    )
    assert early.ephemeral and "is here" in early.text
    assert await bot.store.takeover_voters(game_id, absent) == []
    await manual_clock(bot, game_id, 49)
    first = await fake_discord.slash(
        table.user(voters[0]),
        thread,
        "montana",
        "game",
        "takeover",
        options={"player": absent_user},
    )
    vote = original(first)
    assert not vote.ephemeral and "1 of the 2 votes needed" in vote.content
    assert vote.pinged_ids == []
    assert (await table.row(game_id)).taken_over == ()
    before = len(fake_discord.messages_in(thread))
    twice = await fake_discord.press(table.user(voters[0]), vote, label="Hand the seat to the AI")
    assert twice.ephemeral and "You voted already" in twice.text  # a vote counts once
    assert len(fake_discord.messages_in(thread)) == before, "a repeated vote posts nothing"
    decided = await fake_discord.press(table.user(voters[1]), vote, label="Hand the seat to the AI")
    assert "the AI plays" in decided.text
    await bot.ai.idle()
    row, game = await table.game(game_id)
    assert row.taken_over == (absent,)
    name = row.names[absent]
    assert name.endswith(" (AI)")
    moves = await bot.store.moves(game_id)
    assert any(m.player == absent for m in moves[-3:]), "the AI moved for the absent player"
    said = [m.content for m in fake_discord.messages_in(thread)]
    assert any("voted to hand" in text for text in said)
    assert any(f"{name}" in text for text in said)  # the words say who plays the seat
    # the picture marks the seat by its owner's name
    assert notes and notes[-1].get(absent) == AI_PLAYS_NOTE
    # while the AI plays their seat, the owner's presses are refused
    for _ in range(40):
        if game.awaiting == absent:
            break
        _, action = choose_action(game, random.Random(len(game.log)))
        await table.tap_move(game_id, action) or await table.type_move(
            thread, str(game.awaiting), action
        )
        await bot.ai.idle()
        row, game = await table.game(game_id)
    # the AI never leaves the absent player's decision waiting
    assert game.awaiting != absent
    pressed = await fake_discord.slash(absent_user, thread, "montana", "recruit")
    assert TAKEN_OVER in pressed.text or "It is not your move" in pressed.text
    # reclaim: the seat is theirs again, the words drop the marker
    back = await fake_discord.slash(absent_user, thread, "montana", "me", "reclaim")
    assert not original(back).ephemeral and "takes their seat back" in back.text
    row = await table.row(game_id)
    assert row.taken_over == () and not row.names[absent].endswith("(AI)")
    await bot.service.game_picture(row, bot.service.game_of(row))
    assert absent not in notes[-1]
    again = await fake_discord.slash(absent_user, thread, "montana", "me", "reclaim")
    assert again.ephemeral and "nothing to take back" in again.text
    row, game = await play_until(table, game_id, lambda game: game.awaiting == absent, moves=60)
    await bot.ai.idle()
    assert (await table.row(game_id)).version == row.version, "the AI left the seat alone"


async def test_the_absent_setting_lets_the_ai_play_an_overdue_decision_or_take_the_seat(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    bot = table.bot
    row, game = await table.game(game_id)
    creator = table.user(row.creator_id)
    pid = game.awaiting
    assert pid is not None
    shown = await fake_discord.slash(creator, thread, "montana", "game", "settings")
    assert "when a deadline passes: wait" in shown.text
    other = table.user(next(p for p in game.player_ids if p != row.creator_id))
    refused = await fake_discord.slash(
        other, thread, "montana", "game", "settings", options={"absent": "ai-move"}
    )
    assert refused.ephemeral and "Only the player who opened the game" in refused.text
    await fake_discord.slash(
        creator, thread, "montana", "game", "settings", options={"absent": "ai-move"}
    )
    assert (await table.row(game_id)).absent == "ai-move"
    driver = await manual_clock(bot, game_id, 49)
    assert await driver.run_due() == 1
    await bot.ai.idle()
    row = await table.row(game_id)
    moves = await bot.store.moves(game_id, offset=row.version - 1)
    assert moves and any(m.player == pid for m in moves)
    said = fake_discord.messages_in(thread)
    assert any("so the AI played this for them" in m.content for m in said)
    assert row.taken_over == ()  # one decision only
    # ai-seat: at the deadline the AI takes the seat and plays on
    await fake_discord.slash(
        creator, thread, "montana", "game", "settings", options={"absent": "ai-seat"}
    )
    row, game = await table.game(game_id)
    waiting = game.awaiting
    assert waiting is not None
    driver = await manual_clock(bot, game_id, 49)
    assert await driver.run_due() == 1
    await bot.ai.idle()
    row = await table.row(game_id)
    assert row.taken_over == (waiting,)
    assert any("so the AI plays their seat" in m.content for m in fake_discord.messages_in(thread))


async def test_ai_seats_never_count_in_a_vote_to_end_the_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Ana, Ben and an AI seat: when Ben is overdue, Ana is the majority of the others."""
    bot = make_bot(tmp_path / "m.sqlite3", seed=2)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    table.users.update({str(ana.id): ana, str(ben.id): ben})
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    await fake_discord.press(ben, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Add AI")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    game_id, thread = row.id, fake_discord.channel_by_id(row.play_channel_id)
    rng = random.Random(1)
    while True:
        await bot.ai.idle()
        row, game = await table.game(game_id)
        if game.awaiting == str(ben.id) and game.pending.kind == "main":
            break
        pid, action = choose_action(game, rng)
        await table.tap_move(game_id, action) or await table.type_move(thread, pid, action)
    driver = await manual_clock(bot, game_id, 49)
    assert await driver.run_due() == 1
    overdue = fake_discord.messages_in(thread)[-1]
    assert "Overdue" in overdue.content
    assert {"Vote to end the game", "Hand the seat to the AI"} <= set(overdue.button_labels())
    ended = await fake_discord.slash(ana, thread, "montana", "game", "vote-end")
    assert "ends the game" in ended.text
    assert (await table.row(game_id)).status == "ended"


async def test_two_wake_ups_at_once_make_the_ai_move_once(tmp_path: Path) -> None:
    """Two tasks deciding for the same state (a wake-up racing another): both decide the
    same move, one saves it, the other finds the version moved on and applies nothing."""
    store = await Store.open(str(tmp_path / "m.sqlite3"))
    service = game_service(store, renderer=SampledRenderer(every=1000))
    players = AiPlayers(service, delay=0)
    try:
        human = Seat("h", "Hana")
        lobby = await service.open_lobby(guild_id=None, channel_id=5, thread_id=None, creator=human)
        await service.add_ai(lobby.id, "h")
        await service.start(lobby.id, "h", seed=3)
        rng = random.Random(3)
        while True:
            row = await service.get(lobby.id)
            game = service.game_of(row)
            if game.awaiting == "ai:1":
                break
            await service.play(row.id, "h", choose_action(game, rng)[1])
        both = await asyncio.gather(players.play_once(row.id), players.play_once(row.id))
        assert list(both) == [True, True]
        after = service.game_of(await service.get(row.id))
        forced = set(after.auto)
        chosen = [
            (index, pid)
            for index, (pid, notation) in enumerate(after.log)
            if index >= row.version and index not in forced and not notation.startswith("spin ")
        ]
        assert chosen == [(row.version, "ai:1")], chosen
        assert len(players.decision_cpu) == 2  # decided twice, saved once
    finally:
        await players.stop()
        await store.close()


async def test_a_dead_worker_is_replaced_at_the_next_decision(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "m.sqlite3"))
    service = game_service(store, renderer=SampledRenderer(every=1000))
    players = AiPlayers(service, delay=0)
    try:
        lobby = await service.open_lobby(
            guild_id=None, channel_id=5, thread_id=None, creator=Seat("h", "Hana")
        )
        await service.add_ai(lobby.id, "h")
        await service.start(lobby.id, "h", seed=3)
        row = await service.get(lobby.id)
        await players.warm_up()
        pool = players.executor
        assert isinstance(pool, concurrent.futures.ProcessPoolExecutor)
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(concurrent.futures.BrokenExecutor):
            await players.decide(row, str(service.game_of(row).awaiting))
        decision = await players.decide(row, str(service.game_of(row).awaiting))
        assert players.executor is not pool
        assert str(decision.action) in {
            str(a) for a in service.game_of(row).legal_actions(str(service.game_of(row).awaiting))
        }
    finally:
        await players.stop()
        await store.close()
