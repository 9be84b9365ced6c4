"""Fair play (issue 21 points 1, 2 and 5), through real discord.py and the fake Discord:
no seat is voted over while its player is here, nothing public repeats on demand, and a
lobby's opener powers pass to the next human when the opener leaves.

The AI decides in its worker process, as in production (`make_bot(ai_delay=0)`); time is
moved, not waited for (`tests/bot/test_deadlines.py`).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.store import stamp_of
from bot.core.wording import words
from tests.bot.driver import game_at_main, make_bot, original
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_deadlines import manual_clock

TAKEOVER = ("montana", "game", "takeover")


async def test_in_a_two_player_game_the_opponent_hands_over_only_an_absent_seat(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.1: the opponent alone can hand over an away or overdue seat, never a
    present one; the AI's moves for a seat are not its owner's to take back."""
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    bot = table.bot
    _, game = await table.game(game_id)
    awaited = game.awaiting
    assert awaited is not None
    other = next(p for p in game.player_ids if p != awaited)
    present, opponent = table.user(awaited), table.user(other)
    before = len(fake_discord.messages_in(thread))
    # seconds after the start, here and not overdue: refused, to the voter alone
    for user, seat in ((opponent, present), (present, opponent)):
        refused = await fake_discord.slash(user, thread, *TAKEOVER, options={"player": seat})
        assert refused.ephemeral
        assert f"{seat.name.title()} is here" in refused.text
        assert "away" in refused.text and "deadline" in refused.text
    assert len(fake_discord.messages_in(thread)) == before, "a refusal posts nothing"
    assert (await table.row(game_id)).taken_over == ()
    assert await bot.store.takeover_voters(game_id, awaited) == []
    # the player who is not awaited is never overdue, but once away their seat can go
    await fake_discord.slash(opponent, thread, "montana", "me", "away", options={"hours": 3})
    handed = await fake_discord.slash(present, thread, *TAKEOVER, options={"player": opponent})
    assert not handed.ephemeral and "the AI plays" in handed.text
    assert (await table.row(game_id)).taken_over == (other,)
    await fake_discord.slash(opponent, thread, "montana", "me", "reclaim")
    # overdue: the awaited player's deadline has passed; one vote of the one other suffices
    await manual_clock(bot, game_id, 49)
    handed = await fake_discord.slash(opponent, thread, *TAKEOVER, options={"player": present})
    assert not handed.ephemeral and "the AI plays" in handed.text
    assert handed.original is not None and handed.original.pinged_ids == []
    await bot.ai.idle()
    row = await table.row(game_id)
    assert row.taken_over == (awaited,)
    moves = await bot.store.moves(game_id)
    assert moves[-1].player == awaited, "the AI moved for the overdue player"
    # the owner cannot take the AI's moves back while it holds the seat
    undo = await fake_discord.slash(present, thread, "montana", "undo")
    assert undo.ephemeral and "/montana me reclaim" in undo.text and "first" in undo.text
    assert (await table.row(game_id)).version == row.version


async def test_each_vote_is_said_publicly_once_and_a_repeat_answers_the_voter_alone(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.1 and 21.2: three players; the first vote is posted with its button, a
    repeat answers only the voter, and the majority of the others hands the seat over."""
    table, game_id, thread = await game_at_main(
        fake_discord, tmp_path / "m.sqlite3", "ana", "ben", "cleo"
    )
    bot = table.bot
    _, game = await table.game(game_id)
    absent = game.awaiting
    assert absent is not None
    first_voter, second_voter = (table.user(p) for p in game.player_ids if p != absent)
    await manual_clock(bot, game_id, 49)
    # a vote to end the game: each voter once, a repeat answers them alone
    end_vote = await fake_discord.slash(first_voter, thread, "montana", "game", "vote-end")
    assert not end_vote.ephemeral and "1 of the 2 votes needed" in end_vote.text
    count = len(fake_discord.messages_in(thread))
    end_again = await fake_discord.slash(first_voter, thread, "montana", "game", "vote-end")
    assert end_again.ephemeral and "You voted already" in end_again.text
    assert "1 of the 2 votes needed" in end_again.text
    assert len(fake_discord.messages_in(thread)) == count
    # a vote to hand the seat to the AI
    started = await fake_discord.slash(
        first_voter, thread, *TAKEOVER, options={"player": table.user(absent)}
    )
    vote = original(started)
    assert not vote.ephemeral and "1 of the 2 votes needed" in vote.content
    count = len(fake_discord.messages_in(thread))
    again = await fake_discord.slash(
        first_voter, thread, *TAKEOVER, options={"player": table.user(absent)}
    )
    pressed = await fake_discord.press(first_voter, vote, label="Hand the seat to the AI")
    for repeat in (again, pressed):
        assert repeat.ephemeral and "You voted already" in repeat.text
    assert len(fake_discord.messages_in(thread)) == count, "a repeated vote posts nothing"
    assert (await table.row(game_id)).taken_over == ()
    done = await fake_discord.press(second_voter, vote, label="Hand the seat to the AI")
    assert not done.ephemeral and "the AI plays" in done.text
    assert (await table.row(game_id)).taken_over == (absent,)


async def test_an_opener_who_leaves_hands_the_lobby_to_the_next_human_or_closes_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.5: the opener's powers (add AI, settings, abandon) pass to the next human
    in the lobby when the opener leaves; with none left, the lobby closes, saying so."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben, cleo = (fake_discord.add_user(name) for name in ("ana", "ben", "cleo"))
    channel = fake_discord.channel
    lobby = original(await fake_discord.slash(ana, channel, "montana", "game", "new"))
    assert f"<@{ana.id}> opened the game" in lobby.content
    for user in (ben, cleo):
        await fake_discord.press(user, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Add AI")
    await fake_discord.press(ana, lobby, label="Leave")
    # Ben joined first after Ana: the lobby is his now, and says so
    assert f"<@{ben.id}> opened the game" in lobby.content
    row = await bot.store.latest_game_in(channel.id)
    assert row is not None and row.creator_id == str(ben.id)
    for user in (ana, cleo):
        refused = await fake_discord.press(user, lobby, label="Add AI")
        assert refused.ephemeral and "Only the player who opened the game" in refused.text
    await fake_discord.press(ben, lobby, label="Add AI")
    assert "AI 2" in lobby.content
    settings = ("montana", "game", "settings")
    refused = await fake_discord.slash(cleo, channel, *settings, options={"absent": "ai-move"})
    assert refused.ephemeral and "Only the player who opened the game" in refused.text
    await fake_discord.slash(ben, channel, *settings, options={"absent": "ai-move"})
    assert (await bot.store.get(row.id)).absent == "ai-move"  # type: ignore[union-attr]
    # Ben leaves by the command: Cleo, the one human left, holds the powers, abandon too
    await fake_discord.slash(ben, channel, "montana", "game", "leave")
    assert f"<@{cleo.id}> opened the game" in lobby.content
    refused = await fake_discord.slash(ben, channel, "montana", "game", "abandon")
    assert refused.ephemeral and "Only the player who opened the game" in refused.text
    assert (await bot.store.get(row.id)).status == "lobby"  # type: ignore[union-attr]
    # the last human out: the AI seats alone are no table, the lobby closes and says so
    await fake_discord.press(cleo, lobby, label="Leave")
    assert "the lobby has closed: its last player left" in lobby.content
    assert not lobby.interactive_components()
    assert (await bot.store.get(row.id)).status == "abandoned"  # type: ignore[union-attr]
    # a new lobby can be opened here at once
    again = await fake_discord.slash(ana, channel, "montana", "game", "new")
    assert not again.ephemeral


async def test_board_posts_for_a_player_once_per_move_and_never_pings(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.2: `/montana board` by a non-player answers them alone; by a player it
    re-posts the game once per move, without a ping, then links the newest message."""
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    row, game = await table.game(game_id)
    awaited = game.awaiting
    assert awaited is not None and row.message_id is not None
    other = next(p for p in game.player_ids if p != awaited)
    eve = fake_discord.add_user("eve")
    count = len(fake_discord.messages_in(thread))
    for place in (thread, fake_discord.channel):
        looked = await fake_discord.slash(eve, place, "montana", "board")
        assert looked.ephemeral and "You are not playing in this game" in looked.text
        assert f"/{thread.id}/{row.message_id}" in looked.text
    assert len(fake_discord.messages_in(thread)) == count, "a non-player posts nothing"
    # a player: one fresh prompt for this move, pinging nobody
    posted = await fake_discord.slash(table.user(other), thread, "montana", "board")
    assert posted.ephemeral and f"The board is posted in <#{thread.id}>" in posted.text
    fresh = fake_discord.messages_in(thread)[-1]
    assert len(fake_discord.messages_in(thread)) == count + 1
    assert fresh.interactive_components() and fresh.files and fresh.pinged_ids == []
    # again before anyone moves, by either player: a link to it, and nothing posted
    for user in (other, awaited):
        again = await fake_discord.slash(table.user(user), thread, "montana", "board")
        assert again.ephemeral and "posted again already" in again.text
        assert f"/{thread.id}/{fresh.id}" in again.text
    assert len(fake_discord.messages_in(thread)) == count + 1
    # after a move, the board may be posted once more
    moved = await table.tap_move(game_id, next(a for a in game.legal_actions(awaited)))
    assert moved is not None
    await fake_discord.slash(table.user(other), thread, "montana", "board")
    newest = fake_discord.messages_in(thread)[-1]
    assert newest.id != fresh.id and newest.interactive_components() and newest.pinged_ids == []


async def test_a_move_taken_back_and_made_again_pings_the_next_player_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.2: a move/undo loop pings the player it hands over to at the first
    move only; every round still shows them the move, with their mention unpinged."""
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    _, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    other = next(p for p in game.player_ids if p != mover)
    bank = next(a for a in game.legal_actions(mover) if a.verb == "bank")
    pinged: list[list[int]] = []
    for _ in range(3):
        assert await table.tap_move(game_id, bank) is not None
        handed = fake_discord.messages_in(thread)[-1]
        assert f"<@{other}>" in handed.content and handed.interactive_components()
        pinged.append(handed.pinged_ids)
        undone = await fake_discord.slash(table.user(mover), thread, "montana", "undo")
        assert "took back" in fake_discord.messages_in(thread)[-1].content, undone.text
    assert pinged == [[int(other)], [], []]
    # made a fourth time, it still does not ping; the next decision, another's, does
    assert await table.tap_move(game_id, bank) is not None
    _, game = await table.game(game_id)
    assert game.awaiting == other
    reply = next(a for a in game.legal_actions(other) if a.verb == "bank")
    assert await table.tap_move(game_id, reply) is not None
    assert fake_discord.messages_in(thread)[-1].pinged_ids == [int(mover)]


async def test_away_and_back_toggled_post_one_line_per_game_an_hour_edited_to_the_newest(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.2: toggling `/montana me away` and `back` says it once per game and
    hour: each later line replaces the earlier one by an edit; after the hour, a new one."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "ana", "ben")
    row, game = await table.game(game_id)
    ana = next(p for p in game.player_ids if row.names[p] == "Ana")
    user = table.user(ana)
    count = len(fake_discord.messages_in(thread))
    for hours in (2, 5, 3):
        await fake_discord.slash(user, thread, "montana", "me", "away", options={"hours": hours})
        await fake_discord.slash(user, thread, "montana", "me", "back")
    await fake_discord.slash(user, thread, "montana", "me", "away", options={"hours": 4})
    lines = fake_discord.messages_in(thread)[count:]
    (line,) = lines
    until = (await table.bot.store.aways())[ana].until
    assert line.content == words.went_away_line("Ana", f"<t:{int(until.timestamp())}:f>")
    assert line.pinged_ids == []
    # an hour after that line was posted, the next one is a new line
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE presence_lines SET posted_at = ?",
            (stamp_of(datetime.now(UTC) - timedelta(hours=1, minutes=1)),),
        )
    await fake_discord.slash(user, thread, "montana", "me", "back")
    (_, back) = fake_discord.messages_in(thread)[count:]
    assert back.content == words.back_line("Ana") and back.pinged_ids == []
    assert line.content.startswith("Ana is away until")
