"""Quiet hours through real discord.py and the fake Discord (issue 25 point 1): the
player sets them with `/montana me hours`, and the deadlines of the decisions awaited
from them count only their active hours. Time is moved, not waited for: the deadline
driver's clock is set by the test, from the time of the game's last move as stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.clock.my_games import DigestTask
from bot.discord_app.clock.mine import DigestSender
from bot.discord_app.delivery.notify import Notifier
from tests.bot.driver import Table, make_bot, open_game, play_until
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_deadlines import (
    driver_at,
    last_move_time,
    new_messages,
    two_player_game,
)
from tests.bot.test_presence import finish_turn, heads_ups, three_players, until_turn_of


def minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


async def test_hours_are_set_shown_refused_when_wrong_and_cleared(
    fake_discord: FakeDiscord,
) -> None:
    ana = fake_discord.add_user("ana")
    await fake_discord.start(make_bot(Path(":memory:")))
    channel = fake_discord.channel
    asked = await fake_discord.slash(ana, channel, "montana", "me", "hours")
    assert asked.ephemeral and "You have no quiet hours" in asked.content
    wrong = await fake_discord.slash(
        ana, channel, "montana me hours", options={"from": "25:00", "to": "8"}
    )
    assert wrong.ephemeral and "“25:00” is not a time of day" in wrong.content
    half = await fake_discord.slash(ana, channel, "montana me hours", options={"from": "23"})
    assert "the first time" in half.content
    unknown = await fake_discord.slash(
        ana,
        channel,
        "montana me hours",
        options={"from": "23", "to": "8", "timezone": "Mars/Olympus"},
    )
    assert "“Mars/Olympus” is not a time zone I know" in unknown.content
    assert (
        "You have no quiet hours"
        in (await fake_discord.slash(ana, channel, "montana me hours")).content
    )
    done = await fake_discord.slash(
        ana,
        channel,
        "montana me hours",
        options={"from": "23:00", "to": "8", "timezone": "Europe/Warsaw"},
    )
    assert done.ephemeral
    assert "Your quiet hours are 11:00\u202fPM to 8:00\u202fAM (Europe/Warsaw)" in done.content
    # one of the three alone changes it
    later = await fake_discord.slash(ana, channel, "montana me hours", options={"to": "09:30"})
    assert "11:00\u202fPM to 9:30\u202fAM (Europe/Warsaw)" in later.content
    typed = await fake_discord.slash(
        ana, channel, "montana me hours", options={"timezone": "tokyo"}
    )  # typed without choosing from the list: the one zone of that name
    assert "11:00\u202fPM to 9:30\u202fAM (Asia/Tokyo)" in typed.content
    cleared = await fake_discord.slash(ana, channel, "montana me hours", options={"clear": True})
    assert "no quiet hours any more" in cleared.content
    assert (
        "You have no quiet hours"
        in (await fake_discord.slash(ana, channel, "montana me hours")).content
    )


async def test_time_zones_are_offered_as_typed_and_from_the_locale(
    fake_discord: FakeDiscord,
) -> None:
    ana = fake_discord.add_user("ana")
    await fake_discord.start(make_bot(Path(":memory:")))
    ana.locale = "pl"
    empty = await fake_discord.autocomplete(
        ana, fake_discord.channel, "montana me hours", options={"timezone": ""}, focused="timezone"
    )
    assert empty.choices[0]["value"] == "Europe/Warsaw"
    typed = await fake_discord.autocomplete(
        ana,
        fake_discord.channel,
        "montana me hours",
        options={"timezone": "new yo"},
        focused="timezone",
    )
    assert [(c["name"], c["value"]) for c in typed.choices] == [
        ("America/New York", "America/New_York")
    ]
    many = await fake_discord.autocomplete(
        ana, fake_discord.channel, "montana me hours", options={"timezone": "a"}, focused="timezone"
    )
    assert len(many.choices) == 25


async def test_a_deadline_spanning_the_players_night_ends_that_many_active_hours_later(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The awaited player's night (3 hours, UTC) starts 20 hours after the move: the
    half-time reminder of the 48 h turn comes at 24 active hours (3 hours later than
    without quiet hours), once, also across a restart; the turn is overdue after 48
    active hours, i.e. after two nights (6 hours later)."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    _, game = await table.game(game_id)
    awaited = game.awaiting
    assert awaited is not None
    moved = await last_move_time(table.bot, game_id)
    night = minute(moved + timedelta(hours=20))
    morning = night + timedelta(hours=3)
    set_hours = await fake_discord.slash(
        table.user(awaited),
        thread,
        "montana me hours",
        options={
            "from": night.strftime("%H:%M"),
            "to": morning.strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    assert "Your quiet hours are" in set_hours.content
    prompt = fake_discord.messages_in(thread)[-1]
    before_night = night - moved
    half = morning + timedelta(hours=24) - before_night
    assert half == moved + timedelta(hours=27)
    # at 24 hours by the wall clock only 21 active hours have passed: nothing
    driver = await driver_at(table.bot, moved + timedelta(hours=24))
    assert await driver.run_due() == 0
    assert await driver.next_due() == half
    driver = await driver_at(table.bot, half - timedelta(seconds=1))
    assert await driver.run_due() == 0
    assert new_messages(fake_discord, thread, prompt) == []
    driver = await driver_at(table.bot, half)
    assert await driver.run_due() == 1
    (reminder,) = new_messages(fake_discord, thread, prompt)
    assert reminder.pinged_ids == [int(awaited)]
    assert "Half of the 48 hours" in reminder.content
    # the deadline it names counts their active hours: 21 between the two nights
    deadline = moved + timedelta(hours=54)
    assert f"<t:{int(deadline.timestamp())}:R>" in reminder.content
    asked = await fake_discord.slash(table.user(awaited), thread, "montana", "game", "settings")
    assert f"is due <t:{int(deadline.timestamp())}:R>" in asked.content
    listed = await fake_discord.slash(table.user(awaited), thread, "montana", "me", "games")
    assert f"due <t:{int(deadline.timestamp())}:" in listed.content
    # a restart: a new bot on the same database neither repeats it nor loses the deadline
    await fake_discord.stop(table.bot)
    again = make_bot(db, seed=3)
    await fake_discord.start(again)
    driver = await driver_at(again, half + timedelta(hours=1))
    assert await driver.run_due() == 0
    driver = await driver_at(again, moved + timedelta(hours=48, minutes=30))
    assert await driver.run_due() == 0  # overdue without quiet hours, not with them
    driver = await driver_at(again, deadline - timedelta(seconds=1))
    assert await driver.run_due() == 0
    driver = await driver_at(again, deadline)
    assert await driver.run_due() == 1
    overdue = new_messages(fake_discord, thread, prompt)[-1]
    assert "Overdue" in overdue.content and overdue.pinged_ids == [int(awaited)]
    assert new_messages(fake_discord, thread, prompt) == [reminder, overdue]


async def test_a_reminder_due_at_night_arrives_at_the_start_of_active_hours_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A 2-hour turn whose half-time reminder (1 hour after the move) falls in the
    player's night, which begins a few seconds before it: the reminder comes when the
    night is over, seconds after their active hours start, once, also across a restart
    (a new bot on the same database)."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    _, game = await table.game(game_id)
    awaited = game.awaiting
    assert awaited is not None
    creator = next(user for user in table.users.values() if user.name == "ana")
    settings = await fake_discord.slash(
        creator, thread, "montana", "game", "settings", options={"turn_hours": 2}
    )
    assert "2 hours" in settings.content
    moved = await last_move_time(table.bot, game_id)
    night = minute(moved + timedelta(hours=1))
    morning = night + timedelta(hours=8)
    await fake_discord.slash(
        table.user(awaited),
        thread,
        "montana me hours",
        options={
            "from": night.strftime("%H:%M"),
            "to": morning.strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    prompt = fake_discord.messages_in(thread)[-1]
    arrives = morning + (timedelta(hours=1) - (night - moved))
    assert morning <= arrives < morning + timedelta(minutes=1)
    for hours in (1, 2, 5, 8.5):
        driver = await driver_at(table.bot, moved + timedelta(hours=hours))
        assert await driver.run_due() == 0
    assert await driver.next_due() == arrives
    assert new_messages(fake_discord, thread, prompt) == []
    await fake_discord.stop(table.bot)
    again = make_bot(db, seed=3)
    await fake_discord.start(again)
    driver = await driver_at(again, arrives)
    assert await driver.run_due() == 1
    (reminder,) = new_messages(fake_discord, thread, prompt)
    assert reminder.pinged_ids == [int(awaited)] and "Reminder" in reminder.content
    assert await driver.run_due() == 0
    await fake_discord.stop(again)
    third = make_bot(db, seed=3)
    await fake_discord.start(third)
    driver = await driver_at(third, arrives + timedelta(minutes=5))
    assert await driver.run_due() == 0
    assert new_messages(fake_discord, thread, prompt) == [reminder]


async def test_a_turn_handed_over_at_night_pings_at_the_start_of_active_hours_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The move that hands the turn to a player inside their quiet hours is posted
    without pinging them, saying until when they are quiet; the ping is owed in the
    outbox for the end of their quiet hours and comes then, once, also from a new bot
    on the same database; so does the direct message they asked for."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_player_game(fake_discord, db)
    _, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    sleeper = next(pid for pid in table.users if pid != mover)
    now = datetime.now(UTC)
    night, morning = minute(now - timedelta(hours=1)), minute(now + timedelta(hours=1))
    await fake_discord.slash(
        table.user(sleeper),
        thread,
        "montana me hours",
        options={
            "from": night.strftime("%H:%M"),
            "to": morning.strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    await fake_discord.slash(
        table.user(sleeper), thread, "montana", "me", "notify", options={"mode": "dm"}
    )
    for _ in range(30):
        _, game = await table.game(game_id)
        if game.awaiting == sleeper:
            break
        assert game.awaiting is not None
        assert await table.tap_move(game_id, game.legal_actions(game.awaiting)[0]) is not None
    assert game.awaiting == sleeper
    handed = fake_discord.messages_in(thread)[-1]
    assert int(sleeper) not in handed.pinged_ids
    assert f"is in their quiet hours (quiet until <t:{int(morning.timestamp())}:t>)" in (
        handed.content
    )
    status = await fake_discord.slash(table.user(mover), thread, "montana", "status")
    assert (
        f"is in their quiet hours (quiet until <t:{int(morning.timestamp())}:t>): their "
        "deadline waits meanwhile." in status.content
    )
    owed = [entry for entry in await table.bot.store.owed(game_id) if entry.kind == "notice"]
    assert [entry.body["notice"] for entry in owed] == ["your_turn"]
    delivery = table.bot.service.delivery
    await delivery.stop()
    delivery.clock = lambda: morning - timedelta(seconds=1)
    await delivery.run_due()
    assert new_messages(fake_discord, thread, handed) == []
    assert fake_discord.dms(table.user(sleeper)) == []  # their DM waits too
    await fake_discord.stop(table.bot)
    again = make_bot(db, seed=3)
    await fake_discord.start(again)
    delivery = again.service.delivery
    await delivery.stop()
    delivery.clock = lambda: morning
    await delivery.run_due()
    (ping,) = new_messages(fake_discord, thread, handed)
    assert ping.pinged_ids == [int(sleeper)]
    assert "your quiet hours are over: this game waits for your move" in ping.content
    await delivery.run_due()
    delivery.clock = lambda: morning + timedelta(hours=1)
    await delivery.run_due()
    assert new_messages(fake_discord, thread, handed) == [ping]
    (dm,) = fake_discord.dms(table.user(sleeper))
    assert dm.content.startswith("Montana — ")


async def test_a_heads_up_inside_quiet_hours_comes_when_they_end_or_not_at_all(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Cleo asked for heads-ups and is in her quiet hours when Ben's turn starts: the
    heads-up waits for the end of them and comes once; one whose turn is over by then
    is dropped."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread, (first, second, third) = await three_players(fake_discord, db)
    await fake_discord.slash(
        table.user(third), thread, "montana", "me", "notify", options={"heads_up": True}
    )
    now = datetime.now(UTC)
    night, morning = minute(now - timedelta(hours=1)), minute(now + timedelta(hours=1))
    await fake_discord.slash(
        table.user(third),
        thread,
        "montana me hours",
        options={
            "from": night.strftime("%H:%M"),
            "to": morning.strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    await until_turn_of(table, game_id, first)
    await finish_turn(table, game_id)
    assert (await table.game(game_id))[1].turn_player == second
    assert heads_ups(fake_discord, thread) == []
    await fake_discord.stop(table.bot)
    again = make_bot(db, seed=2)
    await fake_discord.start(again)
    delivery = again.service.delivery
    await delivery.stop()
    delivery.clock = lambda: morning
    await delivery.run_due()
    (line,) = heads_ups(fake_discord, thread)
    assert line.pinged_ids == [int(third)]
    await delivery.run_due()
    assert heads_ups(fake_discord, thread) == [line]
    # her night again: the next heads-up is put off, and void once Ben's turn is over
    table.bot = again
    delivery.clock = lambda: now
    await until_turn_of(table, game_id, first)
    await finish_turn(table, game_id)
    assert (await table.game(game_id))[1].turn_player == second
    await finish_turn(table, game_id)
    assert (await table.game(game_id))[1].turn_player == third
    delivery.clock = lambda: morning
    await delivery.run_due()
    assert heads_ups(fake_discord, thread) == [line]
    owed = [entry for entry in await again.store.owed(game_id) if entry.kind == "notice"]
    assert [entry.body["notice"] for entry in owed] == []


async def test_the_daily_digest_comes_when_the_players_active_hours_start(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Ana is quiet from 22:00 to 06:00 in Tokyo (UTC+9): her digest comes at 06:00 her
    time (21:00 UTC the day before), never inside her quiet hours, once a day of hers."""
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana = next(user for user in table.users.values() if user.name == "ana")
    ana_id = str(ana.id)
    await fake_discord.slash(
        ana, fake_discord.channel, "montana", "me", "notify", options={"digest": True}
    )
    await fake_discord.slash(
        ana,
        fake_discord.channel,
        "montana me hours",
        options={"from": "22", "to": "6", "timezone": "Asia/Tokyo"},
    )
    await play_until(table, game_id, lambda game: game.awaiting == ana_id)
    await bot.digests.stop()
    send = DigestSender(bot, Notifier(bot, bot.store))

    async def at(day: int, hour: int) -> tuple[int, datetime | None]:
        """A digest pass at that moment (UTC), as after a restart: the DMs Ana has then,
        and when the task wants to run next."""
        task = DigestTask(
            bot.deadlines, send, clock=lambda: datetime(2030, 1, day, hour, tzinfo=UTC)
        )
        next_at = await task.one_pass()
        return len(fake_discord.dms(ana)), next_at

    assert await at(1, 20) == (0, datetime(2030, 1, 1, 21, tzinfo=UTC))  # 05:00 in Tokyo
    assert (await at(1, 21))[0] == 1  # 06:00 on 2 January in Tokyo: her day starts
    assert (await at(2, 8))[0] == 1  # 17:00 the same day of hers
    assert await at(2, 20) == (1, datetime(2030, 1, 2, 21, tzinfo=UTC))  # quiet again
    assert (await at(2, 21))[0] == 2  # 3 January in Tokyo


async def test_a_table_found_by_the_queue_does_not_ping_a_player_in_quiet_hours(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The queue's announcement names the three players but pings only those outside
    their quiet hours."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    cleo = fake_discord.add_user("cleo")
    now = datetime.now(UTC)
    await fake_discord.slash(
        ben,
        fake_discord.channel,
        "montana me hours",
        options={
            "from": minute(now - timedelta(hours=1)).strftime("%H:%M"),
            "to": minute(now + timedelta(hours=1)).strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    for user in (ana, ben, cleo):
        await fake_discord.slash(
            user, fake_discord.channel, "montana game find", options={"players": "3"}
        )
    (announced,) = [
        m
        for m in fake_discord.messages_in(fake_discord.channel)
        if "the queue found a table" in m.content
    ]
    assert f"<@{ben.id}>" in announced.content
    assert set(announced.pinged_ids) == {ana.id, cleo.id}
