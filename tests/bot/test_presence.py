"""Heads-up and away (issue 11 points 4 and 5), through real discord.py and the fake.

Done when "heads-up and away behave as above after a restart too": each behaviour is
checked as the players see it, and again with a new bot process on the same database.
Time is moved, not waited for: the deadline driver's clock is set by the test (see
`tests/bot/test_deadlines.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.core.delivery.pictures import blank_png
from bot.core.delivery.presence import away_length, heads_up_for
from bot.core.wording import words
from bot.discord_app.client import MontanaBot
from i18n import translator
from rules import Game
from tests.bot.driver import Table, make_bot, open_game, to_main_decision
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from tests.bot.games import at_first_main_decision
from tests.bot.test_deadlines import driver_at, last_move_time, manual_clock
from tests.bot.test_e2e_auction import start_auction

MESSAGES = "POST /channels/{id}/messages"


class NotesRenderer:
    """A tiny picture; remembers the seat notes each snapshot was asked to show."""

    def __init__(self) -> None:
        self.notes: list[dict[str, str]] = []

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        self.notes.append(dict(seat_notes or {}))
        return blank_png()

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        return self.game_picture(game, highlight=None, names=names)


def play_turn(game: Game) -> None:
    """The engine alone: first legal choices until the turn passes to another player."""
    starting = game.turn_player
    while game.turn_player == starting and not game.is_over:
        pid = game.awaiting
        assert pid is not None
        game.apply(pid, game.legal_actions(pid)[0])


async def finish_turn(table: Table, game_id: int, channel: FakeChannel | None = None) -> None:
    """The first legal choices, tapped (or typed in `channel`), until another player's
    turn starts."""
    _, game = await table.game(game_id)
    starting = game.turn_player
    while game.turn_player == starting:
        pid = game.awaiting
        assert pid is not None
        action = game.legal_actions(pid)[0]
        version = game.version
        if channel is None:
            assert await table.tap_move(game_id, action) is not None
        else:
            await table.type_move(channel, pid, action)
        _, game = await table.game(game_id)
        assert game.version > version, f"{action} was not made"


def heads_ups(fake: FakeDiscord, place: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.messages_in(place) if "heads-up" in m.content]


async def three_players(
    fake: FakeDiscord, db: Path, renderer: NotesRenderer | None = None
) -> tuple[Table, int, FakeChannel, list[str]]:
    """Ana, Ben and Cleo at the first main decision; their ids in seat order."""
    bot = make_bot(db, renderer, seed=2)
    await fake.start(bot)
    table = Table(fake, bot)
    game_id, thread, _ = await open_game(fake, table, fake.channel, "ana", "ben", "cleo")
    await to_main_decision(table, game_id)
    _, game = await table.game(game_id)
    return table, game_id, thread, game.player_ids


async def until_turn_of(table: Table, game_id: int, player: str) -> None:
    _, game = await table.game(game_id)
    while game.turn_player != player:
        await finish_turn(table, game_id)
        _, game = await table.game(game_id)


# ------------------------------------------------------------------ heads-up: when


def test_a_heads_up_is_owed_to_the_player_after_the_one_whose_turn_starts() -> None:
    """RULES.md 3.3: "the next player clockwise takes their turn" — the one after them
    is next; not in a 2-player game, where that is the player who has just moved."""
    game, first = at_first_main_decision(["ana", "ben", "cleo"], seed=4)
    before = game.turn_player
    play_turn(game)
    assert game.turn_player == game.players[(game.seat_of(first) + 1) % 3].id
    following = game.players[(game.turn + 1) % 3].id
    assert heads_up_for(game, before) == (following, game.turn_player)
    # the same state reached from a move inside the turn: no new turn, no heads-up
    assert heads_up_for(game, game.turn_player) is None
    duo, _ = at_first_main_decision(["ana", "ben"], seed=4)
    before = duo.turn_player
    play_turn(duo)
    assert duo.turn_player != before and heads_up_for(duo, before) is None


def test_no_heads_up_for_a_canteen_turn_nor_after_the_games_last_turn() -> None:
    """RULES.md 8: a canteen gives the same player a new turn; RULES.md 10: in the final
    round the game ends after the last seat's turn, so nobody comes after it."""
    game, first = at_first_main_decision(["ana", "ben", "cleo"], seed=4)
    state = game.to_dict()
    state["players"][game.seat_of(first)]["canteens"] = 1
    game = Game.from_dict(state)
    while game.pending.kind != "end":
        pid = game.awaiting
        assert pid is not None
        game.apply(pid, game.legal_actions(pid)[0])
    number = game.turn_number
    game.apply(first, "canteen")
    assert (game.turn_player, game.turn_number) == (first, number + 1)
    assert heads_up_for(game, first) is None
    # the final round: the last seat's turn starts, and the game ends with it
    state = game.to_dict()
    state["final_round"] = True
    game = Game.from_dict(state)
    while game.turn != game.last_seat:
        before = game.turn_player
        play_turn(game)
    assert not game.is_over and heads_up_for(game, before) is None


# ------------------------------------------------------------------ heads-up: how


async def test_heads_up_in_the_thread_or_by_dm_as_each_player_chose(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (first, second, third) = await three_players(
        fake_discord, tmp_path / "m.sqlite3"
    )
    names = (await table.row(game_id)).names
    shown = await fake_discord.slash(table.user(third), thread, "montana", "me", "notify")
    assert "Heads-up: off." in shown.content
    chose = await fake_discord.slash(
        table.user(third), thread, "montana", "me", "notify", options={"heads_up": True}
    )
    assert chose.ephemeral and "Heads-up: on" in chose.content and "thread" in chose.content
    chose = await fake_discord.slash(
        table.user(first),
        thread,
        "montana",
        "me",
        "notify",
        options={"mode": "dm", "heads_up": True},
    )
    assert "Heads-up: on" in chose.content and "by direct message" in chose.content
    await until_turn_of(table, game_id, first)
    before = fake_discord.messages_in(thread)[-1]
    starts: list[str] = []
    for _ in range(4):  # second, third, first, second
        await finish_turn(table, game_id)
        starts.append((await table.game(game_id))[1].turn_player)
    assert starts == [second, third, first, second]
    # Cleo (in the thread) is told each time Ben's turn starts, and only she is pinged,
    # right after the message that hands the game to Ben
    messages = [m for m in fake_discord.messages_in(thread) if m.id > before.id]
    told = [m for m in messages if "heads-up" in m.content]
    assert [m.content for m in told] == [
        f"<@{third}>, heads-up: {names[second]} has started their turn — you are next."
    ] * 2
    for line in told:
        assert line.pinged_ids == [int(third)]
        handing = messages[messages.index(line) - 1]
        assert handing.pinged_ids == [int(second)] and handing.files
    # Ana (DM mode) is told by direct message when Cleo's turn starts, not in the thread
    dm_heads_ups = [m for m in fake_discord.dms(table.user(first)) if "heads-up" in m.content]
    assert len(dm_heads_ups) == 1
    assert dm_heads_ups[0].content.startswith(
        f"Montana — {names[first]}, heads-up: {names[third]} has started their turn"
    )
    assert f"/{thread.id}/" in dm_heads_ups[0].content and not dm_heads_ups[0].pinged_ids
    # Ben did not opt in
    assert all(f"<@{second}>" not in m.content for m in told)
    # switched off: no more heads-ups for Cleo
    await fake_discord.slash(
        table.user(third), thread, "montana", "me", "notify", options={"heads_up": False}
    )
    await until_turn_of(table, game_id, first)
    await finish_turn(table, game_id)
    assert [m for m in heads_ups(fake_discord, thread) if m.id > before.id] == told


async def test_a_heads_up_owed_while_discord_was_down_is_delivered_once_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread, (first, second, third) = await three_players(fake_discord, db)
    await fake_discord.slash(
        table.user(third), thread, "montana", "me", "notify", options={"heads_up": True}
    )
    await until_turn_of(table, game_id, first)
    fault = fake_discord.inject(MESSAGES, 503, channel=thread, times=10_000)
    await finish_turn(table, game_id, channel=thread)  # typed: the buttons are not shown
    assert (await table.game(game_id))[1].turn_player == second
    assert heads_ups(fake_discord, thread) == []
    await fake_discord.stop(table.bot)
    fault.times = 0  # Discord is back
    table.bot = make_bot(db, seed=2)
    await fake_discord.start(table.bot)
    line = await fake_discord.wait_for_message(thread, lambda m: "heads-up" in m.content)
    assert line.pinged_ids == [int(third)]
    newest = [m for m in fake_discord.messages_in(thread) if m.id < line.id][-1]
    assert newest.pinged_ids == [int(second)], "after the message that hands the game to Ben"
    await table.bot.service.delivery.deliver(game_id, force=True)
    assert heads_ups(fake_discord, thread) == [line]
    assert await table.bot.store.owed(game_id) == []


async def test_a_heads_up_still_owed_when_that_turn_is_over_is_dropped(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (first, _, third) = await three_players(
        fake_discord, tmp_path / "m.sqlite3"
    )
    await fake_discord.slash(
        table.user(third), thread, "montana", "me", "notify", options={"heads_up": True}
    )
    await until_turn_of(table, game_id, first)
    fault = fake_discord.inject(MESSAGES, 503, channel=thread, times=10_000)
    await finish_turn(table, game_id, channel=thread)  # Ben's turn starts: Cleo is next
    await finish_turn(table, game_id, channel=thread)  # Cleo's turn
    await finish_turn(table, game_id, channel=thread)  # and Ana's again
    fault.times = 0
    await table.bot.service.delivery.deliver(game_id, force=True)
    assert heads_ups(fake_discord, thread) == []
    assert fake_discord.messages_in(thread)[-1].pinged_ids == [int(first)]
    assert await table.bot.store.owed(game_id) == []


# ------------------------------------------------------------------ away


def test_an_away_time_is_up_to_14_days() -> None:
    assert away_length(14, 0) == timedelta(days=14)
    assert away_length(0, 5) == timedelta(hours=5)
    with pytest.raises(ValueError, match="at most 14 days at a time, not 14 days 1 hour"):
        away_length(14, 1)
    with pytest.raises(ValueError, match="Say how long"):
        away_length(0, 0)


def test_the_picture_says_until_which_day_in_utc() -> None:
    late_in_tokyo = datetime(2026, 12, 3, 19, 30, tzinfo=UTC).astimezone(ZoneInfo("Asia/Tokyo"))
    assert late_in_tokyo.day == 4
    assert words.away_note(late_in_tokyo) == "away until Dec 3"
    # each language's own way of writing the day (issue 24.3)
    assert [
        words.away_note(late_in_tokyo, translator(language)) for language in ("fr", "pl", "ja")
    ] == ["absent·e jusqu’au 3 déc.", "nieobecność do 3 gru", "12月3日まで不在"]


async def away_until(bot: MontanaBot, user: str) -> datetime:
    aways = await bot.store.aways([user])
    return aways[user].until


async def test_away_pauses_the_deadlines_and_its_end_restarts_them_also_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    renderer = NotesRenderer()
    table, game_id, thread, seats = await three_players(fake_discord, db, renderer)
    row, game = await table.game(game_id)
    names = row.names
    late = game.awaiting
    assert late is not None
    other = next(p for p in seats if p != late)
    before = fake_discord.messages_in(thread)[-1]
    went = await fake_discord.slash(
        table.user(late), fake_discord.channel, "montana", "me", "away", options={"days": 2}
    )
    until = await away_until(table.bot, late)
    f_stamp = f"<t:{int(until.timestamp())}:f>"
    assert went.ephemeral and f"You are away until {f_stamp}" in went.content
    assert "in your 1 game under way" in went.content
    # the others are told once, in the game's thread, and nobody is pinged
    (told,) = [m for m in fake_discord.messages_in(thread) if m.id > before.id]
    assert told.content == words.went_away_line(names[late], f_stamp) and told.pinged_ids == []
    # status, settings and a fresh prompt say it, with the moment in each reader's time
    away_line = f"{names[late]} is away until {f_stamp} — their deadlines are paused."
    status = await fake_discord.slash(table.user(other), thread, "montana", "status")
    assert away_line in status.content
    settings = await fake_discord.slash(table.user(other), thread, "montana", "game", "settings")
    assert away_line in settings.content and "is due" not in settings.content
    await fake_discord.slash(table.user(other), thread, "montana", "board")
    prompt = fake_discord.messages_in(thread)[-1]
    assert away_line in prompt.content and f"<@{late}>" in prompt.content
    assert renderer.notes[-1] == {late: words.away_note(until)}
    # no half-time reminder, no overdue, no vote while away
    driver = await manual_clock(table.bot, game_id, 25)
    assert await driver.run_due() == 0
    driver = await manual_clock(table.bot, game_id, 47)
    assert await driver.run_due() == 0
    vote = await fake_discord.slash(table.user(other), thread, "montana", "game", "vote-end")
    assert vote.ephemeral and f"{names[late]} is away" in vote.content
    # a restart changes nothing of it
    await fake_discord.stop(table.bot)
    table.bot = make_bot(db, renderer, seed=2)
    await fake_discord.start(table.bot)
    driver = await manual_clock(table.bot, game_id, 47.5)
    assert await driver.run_due() == 0
    assert [m for m in fake_discord.messages_in(thread) if m.id > prompt.id] == []
    # the away time ends: said once, and the clock starts from that end
    driver = await driver_at(table.bot, until + timedelta(minutes=1))
    assert await driver.run_due() == 0
    assert await driver.run_due() == 0
    # (within the hour of the away line, the back line replaces it: issue 21.2)
    assert [m for m in fake_discord.messages_in(thread) if m.id > prompt.id] == []
    assert told.content == words.back_line(names[late]) and told.pinged_ids == []
    assert await table.bot.store.aways() == {}
    assert await driver.next_due() == until + timedelta(hours=24)
    driver = await driver_at(table.bot, until + timedelta(hours=24, seconds=1))
    assert await driver.run_due() == 1
    reminder = fake_discord.messages_in(thread)[-1]
    assert "Half of the 48 hours" in reminder.content and reminder.pinged_ids == [int(late)]
    assert f"(due <t:{int((until + timedelta(hours=48)).timestamp())}:R>)" in reminder.content
    driver = await driver_at(table.bot, until + timedelta(hours=48, seconds=1))
    assert await driver.run_due() == 1
    assert "Overdue" in fake_discord.messages_in(thread)[-1].content
    status = await fake_discord.slash(table.user(other), thread, "montana", "status")
    assert "is away" not in status.content


async def test_back_restarts_the_auction_clock_from_that_moment(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, (_, b, c) = await start_auction(fake_discord, tmp_path)
    row, game = await table.game(game_id)
    assert game.pending.kind == "bid" and game.awaiting == b
    await fake_discord.slash(
        table.user(b), fake_discord.channel, "montana", "me", "away", options={"days": 3}
    )
    # the 24 h to answer pass, and nobody passes for Ben: he is away
    driver = await manual_clock(table.bot, game_id, 30)
    assert await driver.run_due() == 0
    assert (await table.row(game_id)).version == row.version
    back = await fake_discord.slash(table.user(b), thread, "montana", "me", "back")
    assert back.ephemeral and "1 game waiting for you" in back.content
    told = fake_discord.messages_in(thread)[-1]
    assert told.content == words.back_line(row.names[b]) and told.pinged_ids == []
    ((version, restarted),) = (await table.bot.store.deadline_restarts(game_id)).values()
    assert version == row.version and restarted <= datetime.now(UTC)
    # his clock starts again at "back": half-time reminder at 12 h, the pass at 24 h
    driver = await driver_at(table.bot, restarted + timedelta(hours=11))
    assert await driver.run_due() == 0
    driver = await driver_at(table.bot, restarted + timedelta(hours=12, seconds=1))
    assert await driver.run_due() == 1
    assert "I pass for you" in fake_discord.messages_in(thread)[-1].content
    driver = await driver_at(table.bot, restarted + timedelta(hours=24, seconds=1))
    assert await driver.run_due() == 1
    moved, game = await table.game(game_id)
    assert moved.version == row.version + 1 and game.awaiting == c
    again = await fake_discord.slash(table.user(b), thread, "montana", "me", "back")
    assert again.ephemeral and "You are not away" in again.content


async def test_away_refuses_what_it_cannot_do_and_says_where_it_stands(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    channel = fake_discord.channel
    asked = await fake_discord.slash(ana, channel, "montana", "me", "away")
    assert asked.ephemeral and "You are not away" in asked.content
    too_long = await fake_discord.slash(
        ana, channel, "montana", "me", "away", options={"days": 14, "hours": 1}
    )
    assert too_long.ephemeral and "at most 14 days" in too_long.content
    nothing = await fake_discord.slash(ana, channel, "montana", "me", "away", options={"days": 0})
    assert nothing.ephemeral and "Say how long" in nothing.content
    assert await bot.store.aways() == {}
    went = await fake_discord.slash(ana, channel, "montana", "me", "away", options={"hours": 5})
    assert "in every game you play meanwhile" in went.content
    asked = await fake_discord.slash(ana, channel, "montana", "me", "away")
    until = await away_until(bot, str(ana.id))
    assert f"You are away until <t:{int(until.timestamp())}:f>" in asked.content
    assert until - datetime.now(UTC) <= timedelta(hours=5)
    # a game started while away: her decisions wait from the start
    ben = fake_discord.add_user("ben")
    lobby = (
        await fake_discord.slash(ana, channel, "montana", "game", "new", options={"turn_hours": 1})
    ).original
    assert lobby is not None
    await fake_discord.press(ben, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(channel.id)
    assert row is not None
    table = Table(fake_discord, bot, {str(ana.id): ana, str(ben.id): ben})
    await to_main_decision(table, row.id)
    while (await table.game(row.id))[1].awaiting != str(ana.id):
        await finish_turn(table, row.id)
    driver = await driver_at(bot, await last_move_time(bot, row.id) + timedelta(hours=2))
    assert await driver.run_due() == 0, "paused: 2 h into a 1 h deadline, and no reminder"
    assert await driver.next_due() == until
