"""Quiet hours that cannot stall a game, and deadlines checked in the core (issue 35
points 1 and 6), through real discord.py and the fake Discord.

Time is moved, not waited for: the deadline driver's clock is set by the test from the
time of the game's last move as stored (`tests.bot.test_deadlines`). Forged option
values — what Discord's schema would never send, but a forged payload can — are sent by
building the command's data as the fake does and replacing the value afterwards.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.core.clock.hours import (
    MAX_QUIET_HOURS,
    WALL_FACTOR,
    WALL_SLACK,
    HoursError,
    QuietHours,
    after_active,
    counted_seconds,
    counted_until,
    quiet_hours,
)
from bot.core.clock.my_games import DIGEST_HOUR, DigestTask
from bot.discord_app.clock.mine import DigestSender
from bot.discord_app.delivery.notify import Notifier
from tests.bot.driver import (
    Table,
    game_at_main,
    make_bot,
    open_game,
    original,
    to_main_decision,
)
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.bot.fakediscord.interactions import InteractionResult
from tests.bot.test_deadlines import driver_at, last_move_time, manual_clock, two_player_game


async def slash_forged(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    path: tuple[str, ...],
    valid: dict[str, Any],
    forged: dict[str, Any],
) -> InteractionResult:
    """Run a slash command whose options are `valid` as Discord checks them, then
    replaced by `forged` in the payload (values Discord's schema would refuse)."""
    data = fake.world.command_data(channel, path, valid, fallback=fake._tree_commands(), user=user)

    def replace(options: list[dict[str, Any]]) -> None:
        for option in options:
            if option["name"] in forged and "value" in option:
                option["value"] = forged[option["name"]]
            replace(option.get("options") or [])

    replace(data["options"])
    record = fake.world.new_interaction(2, user, channel, data)
    return await fake._run(record, None, True, None)


# ------------------------------------------------------------------ point 1


def test_quiet_hours_last_at_most_twelve_hours_a_day() -> None:
    assert MAX_QUIET_HOURS == 12
    with pytest.raises(HoursError) as all_day:
        quiet_hours("00:01", "00:00", "UTC")
    assert all_day.value.kind == "long"
    with pytest.raises(HoursError):
        quiet_hours("20:00", "08:01", "Europe/Warsaw")
    assert quiet_hours("20:00", "08:00", "Europe/Warsaw").start.hour == 20
    assert quiet_hours("23:00", "08:00", "Europe/Warsaw").end.hour == 8


def test_a_deadline_passes_within_twice_its_length_and_a_night_in_wall_time() -> None:
    """docs/players.md "Quiet hours": a deadline counted in active hours passes at the
    latest twice its length plus 12 hours after its clock started, on the wall clock,
    whatever quiet hours are stored (here all but one minute a day, as an older bot saved)."""
    start = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)  # a daylight-saving change follows
    stored_long = QuietHours(time(0, 1), time(0, 0), "UTC")
    typed = [quiet_hours(*span, "Europe/Warsaw") for span in (("20", "8"), ("12", "0"))]
    for hours in (*typed, stored_long):
        for period in (3600.0, 48 * 3600.0, 720 * 3600.0):
            end = counted_until(hours, start, period)
            assert end <= start + timedelta(seconds=WALL_FACTOR * period + WALL_SLACK)
            assert counted_seconds(hours, start, end) >= period - 1
            assert counted_seconds(hours, start, end - timedelta(minutes=1)) < period
    # twelve quiet hours a day: the active hours alone end before the ceiling
    for period in (2 * 3600.0, 48 * 3600.0):
        assert counted_until(typed[0], start, period) == after_active(typed[0], start, period)
    # the one active minute a day: 48 hours pass within 108, not 2,880 days
    assert counted_until(stored_long, start, 48 * 3600.0) == start + timedelta(hours=108)


async def test_all_day_quiet_hours_are_refused_with_the_limit_and_why(
    fake_discord: FakeDiscord,
) -> None:
    ana = fake_discord.add_user("ana")
    await fake_discord.start(make_bot(Path(":memory:")))
    channel = fake_discord.channel
    all_day = await fake_discord.slash(
        ana,
        channel,
        "montana me hours",
        options={"from": "00:01", "to": "00:00", "timezone": "Europe/Warsaw"},
    )
    assert all_day.ephemeral
    assert "at most 12 hours a day" in all_day.content
    assert "00:01–00:00" in all_day.content and "Nothing was changed" in all_day.content
    still = await fake_discord.slash(ana, channel, "montana me hours")
    assert "You have no quiet hours" in still.content
    # in the asker's language
    ana.locale = "fr"
    french = await fake_discord.slash(
        ana, channel, "montana me hours", options={"from": "19", "to": "8", "timezone": "UTC"}
    )
    assert "12" in french.content and "19:00–08:00" in french.content
    assert "at most" not in french.content
    ana.locale = "en-US"
    twelve = await fake_discord.slash(
        ana, channel, "montana me hours", options={"from": "20", "to": "8", "timezone": "UTC"}
    )
    assert "Your quiet hours are 8:00\u202fPM to 8:00\u202fAM (UTC)" in twelve.content
    # one of the three changed alone is checked the same way
    longer = await fake_discord.slash(ana, channel, "montana me hours", options={"to": "10"})
    assert "at most 12 hours a day" in longer.content
    kept = await fake_discord.slash(ana, channel, "montana me hours")
    assert "8:00\u202fPM to 8:00\u202fAM" in kept.content


async def test_hours_set_when_overdue_neither_move_the_deadline_nor_void_the_votes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35 point 1: a player overdue, with one vote to end the game cast against
    them, sets quiet hours that would make their 48 hours not yet over had they been set
    before; the deadline stays passed and the second vote ends the game."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "a", "b", "c", seed=2)
    bot = table.bot
    row, game = await table.game(game_id)
    late = game.awaiting
    assert late is not None
    first, second = [p for p in table.users if p != late]
    driver = await manual_clock(bot, game_id, 49)
    await driver.run_due()
    overdue = fake_discord.messages_in(thread)[-1]
    assert "Overdue" in overdue.content
    one = await fake_discord.press(table.user(first), overdue, label="Vote to end the game")
    assert "1 of the 2 votes needed" in one.content
    # the all-day hours of the issue are refused outright
    refused = await fake_discord.slash(
        table.user(late),
        thread,
        "montana me hours",
        options={"from": "00:01", "to": "00:00", "timezone": "UTC"},
    )
    assert "at most 12 hours a day" in refused.content
    # twelve hours a day, covering half of the 49 hours past: 25 active hours of 48
    moved = await last_move_time(bot, game_id)
    night = moved + timedelta(hours=1)
    accepted = await fake_discord.slash(
        table.user(late),
        thread,
        "montana me hours",
        options={
            "from": night.strftime("%H:%M"),
            "to": (night + timedelta(hours=12)).strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    assert "Your quiet hours are" in accepted.content
    absence = await driver.absence_of(await table.row(game_id), late)
    assert absence is not None and not absence.away, "still overdue"
    two = await fake_discord.slash(table.user(second), thread, "montana", "game", "vote-end")
    assert "ends the game" in two.content
    assert (await table.row(game_id)).status == "ended"
    assert (await table.row(game_id)).version == row.version


async def test_hours_set_just_after_a_deadline_passed_unseen_keep_it_passed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The deadline passed a moment ago and the task has not run yet: the change of
    hours first takes what is due under the old ones."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "a", "b", "c", seed=2)
    bot = table.bot
    _, game = await table.game(game_id)
    late = game.awaiting
    assert late is not None
    first, second = [p for p in table.users if p != late]
    driver = await manual_clock(bot, game_id, 30)
    await driver.run_due()  # the half-time reminder; the driver knows every game
    moved = await last_move_time(bot, game_id)
    await driver_at(bot, moved + timedelta(hours=49))
    one = await fake_discord.slash(table.user(first), thread, "montana", "game", "vote-end")
    assert "1 of the 2 votes needed" in one.content
    night = moved + timedelta(hours=1)
    await fake_discord.slash(
        table.user(late),
        thread,
        "montana me hours",
        options={
            "from": night.strftime("%H:%M"),
            "to": (night + timedelta(hours=12)).strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    two = await fake_discord.slash(table.user(second), thread, "montana", "game", "vote-end")
    assert "ends the game" in two.content


# ------------------------------------------------------------------ point 6


def saved_deadlines(db: Path) -> list[tuple[int, int]]:
    with sqlite3.connect(db) as raw:
        return list(raw.execute("SELECT turn_seconds, auction_seconds FROM games ORDER BY id"))


async def test_forged_huge_deadline_hours_are_refused_and_change_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db)
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    channel = fake_discord.channel
    for name in ("turn_hours", "auction_hours"):
        for value in (1_000_000_000, 0, -5, 721):
            new = await slash_forged(
                fake_discord, ana, channel, ("montana", "game", "new"), {name: 1}, {name: value}
            )
            assert new.ephemeral, (name, value)
            said = f"`{name}:` must be a whole number of hours from 1 to 720"
            assert said in new.content
            assert "Nothing was changed" in new.content
            assert saved_deadlines(db) == [], "no lobby was opened"
    # a French reader is told the option as their client lists it, not its code name
    ana.locale = "fr"
    refused = await slash_forged(
        fake_discord, ana, channel, ("montana", "game", "new"), {"turn_hours": 1}, {"turn_hours": 0}
    )
    assert "`heures_tour:`" in refused.content and "turn_hours" not in refused.content
    ana.locale = "en-US"
    created = await fake_discord.slash(
        ana, channel, "montana", "game", "new", options={"turn_hours": 12}
    )
    assert not created.ephemeral
    before = saved_deadlines(db)
    forged = await slash_forged(
        fake_discord,
        ana,
        channel,
        ("montana", "game", "settings"),
        {"turn_hours": 1},
        {"turn_hours": 1_000_000_000},
    )
    assert forged.ephemeral and "`turn_hours:` must be a whole number" in forged.content
    assert saved_deadlines(db) == before == [(12 * 3600, 24 * 3600)]


async def test_a_game_whose_deadline_step_fails_holds_up_no_other_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """One game's overdue step raises (its notice cannot be said): the failure is logged
    with an error id, and the other game's overdue notice still comes."""
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db, seed=2)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    broken_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "a", "b")
    other_channel = fake_discord.add_channel("other")
    game_id, thread, _ = await open_game(fake_discord, table, other_channel, "c", "d")
    await to_main_decision(table, broken_id)
    await to_main_decision(table, game_id)
    driver = await manual_clock(bot, game_id, 49)
    await driver_at(
        bot, max(driver.clock(), await last_move_time(bot, broken_id) + timedelta(hours=49))
    )
    poster = driver.poster
    remind = poster.remind

    async def failing(row: Any, game: Any, step: Any) -> None:
        if row.id == broken_id:
            raise RuntimeError("this game's thread is broken")
        await remind(row, game, step)

    poster.remind = failing  # type: ignore[method-assign]
    await driver.run_due()
    said = fake_discord.messages_in(thread)[-1]
    assert "Overdue" in said.content
    assert fake_discord.errors
    for error in fake_discord.errors:
        assert re.search(rf"error [0-9a-f]{{6}}: game {broken_id}: ", error), error
    fake_discord.errors.clear()


async def test_a_deadline_saved_beyond_the_calendar_breaks_no_pass(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35 point 6: a `turn_hours: 1000000000` saved before the hours were checked
    (or a 0) counts as the nearest allowed (720 hours, a minute): the deadline pass goes
    on, and the other game's overdue notice comes."""
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db, seed=2)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    huge_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "a", "b")
    other_channel = fake_discord.add_channel("other")
    game_id, thread, _ = await open_game(fake_discord, table, other_channel, "c", "d")
    await to_main_decision(table, huge_id)
    await to_main_decision(table, game_id)
    with sqlite3.connect(db) as raw:
        raw.execute(
            "UPDATE games SET turn_seconds = ?, auction_seconds = 0 WHERE id = ?",
            (1_000_000_000 * 3600, huge_id),
        )
    driver = await manual_clock(bot, game_id, 49)
    await driver.run_due()
    assert "Overdue" in fake_discord.messages_in(thread)[-1].content
    assert (await driver.db.deadlines(huge_id)).turn_seconds == 720 * 3600
    assert (await driver.db.deadlines(huge_id)).auction_seconds == 60
    await driver.one_pass()


async def test_a_lobby_that_cannot_be_closed_holds_up_no_other(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The lobby expiry pass: one lobby's failure (its opening time unreadable) is logged
    with an error id, and the other lobby still closes, saying so."""
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db)
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    broken = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    assert not broken.ephemeral
    other_channel = fake_discord.add_channel("other")
    other = await fake_discord.slash(ben, other_channel, "montana", "game", "new")
    assert other.original is not None
    broken_row = await bot.store.open_game_in(fake_discord.channel.id)
    other_row = await bot.store.open_game_in(other_channel.id)
    assert broken_row is not None and other_row is not None
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET created_at = 'not a time' WHERE id = ?", (broken_row.id,))
    await bot.lobby_expiry.stop()
    bot.lobby_expiry.clock = lambda: datetime.now(UTC) + timedelta(days=7, minutes=1)
    await bot.lobby_expiry.one_pass()
    assert "this lobby closed: it did not start within 7 days" in other.original.content
    assert (await table_row(bot, broken_row.id)) == "lobby"
    assert fake_discord.errors
    for error in fake_discord.errors:
        assert re.search(rf"error [0-9a-f]{{6}}: game {broken_row.id}: ", error), error
    fake_discord.errors.clear()


async def table_row(bot: Any, game_id: int) -> str:
    row = await bot.store.get(game_id)
    assert row is not None
    return str(row.status)


Found = list[tuple[tuple[str, ...], dict[str, Any], list[dict[str, Any]]]]


def numeric_options(commands: list[dict[str, Any]]) -> Found:
    """Each bounded whole-number or number option: its command's path, itself, its siblings."""
    found: Found = []

    def walk(path: tuple[str, ...], options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if subs:
            for s in subs:
                walk((*path, s["name"]), s.get("options") or [])
            return
        for o in options:
            if o["type"] in (4, 10) and ("min_value" in o or "max_value" in o):
                found.append((path, o, options))

    for c in commands:
        walk((c["name"],), c.get("options") or [])
    return found


async def test_every_numeric_option_forged_out_of_range_is_refused_in_words(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35 point 6: each whole-number option of every command (hours, days, limits,
    pages...), sent far outside the range Discord's schema allows, gets an answer in words
    — never "something went wrong", never an error logged."""
    table, game_id, thread = await two_player_game(fake_discord, tmp_path / "m.sqlite3")
    _, game = await table.game(game_id)
    assert game.awaiting is not None
    player = table.user(game.awaiting)
    admin = fake_discord.add_user("admin", permissions=discord.Permissions(manage_guild=True))
    fake_discord.errors.clear()
    problems: list[str] = []
    options = numeric_options(fake_discord._tree_commands())
    named = {(path[-1], option["name"]) for path, option, _ in options}
    assert {("new", "turn_hours"), ("settings", "auction_hours"), ("away", "days")} <= named
    assert ("settings", "lobby_days") in named and len(options) >= 12
    for path, option, siblings in options:
        user = admin if "server" in path else player
        required = {
            o["name"]: o.get("min_value", 1) if o["type"] in (4, 10) else "x"
            for o in siblings
            if o.get("required") and o is not option
        }
        low = option.get("min_value", 0)
        for value in (10**12, -(10**12), low - 1, option.get("max_value", 10**6) + 1):
            valid = {**required, option["name"]: low}
            try:
                result = await slash_forged(
                    fake_discord, user, thread, path, valid, {option["name"]: value}
                )
            except Exception as error:
                problems.append(f"{path} {option['name']}={value}: raised {error!r}")
                continue
            if "server" in path and "must be" not in result.content:
                problems.append(f"{path} {option['name']}={value}: {result.content[:150]}")
            if "Something went wrong" in result.content or fake_discord.errors:
                said = f"{result.content[:150]} {fake_discord.errors[:1]}"
                problems.append(f"{path} {option['name']}={value}: {said}")
                fake_discord.errors.clear()
    assert not problems, "\n".join(problems)


async def test_a_digest_that_fails_holds_up_no_other(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The digest pass: one player's digest failing is logged with an error id, and the
    other player's digest still comes."""
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    first, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    other_channel = fake_discord.add_channel("other")
    second, _, _ = await open_game(fake_discord, table, other_channel, "cleo", "dan")
    await to_main_decision(table, first)
    await to_main_decision(table, second)
    awaited = []
    for game_id in (first, second):
        _, game = await table.game(game_id)
        assert game.awaiting is not None
        awaited.append(table.user(game.awaiting))
        await fake_discord.slash(
            awaited[-1], fake_discord.channel, "montana", "me", "notify", options={"digest": True}
        )
    failing, fine = awaited
    await bot.digests.stop()
    claim = bot.store.claim_digest

    async def claiming(user_id: str, day: str) -> bool:
        if user_id == str(failing.id):
            raise RuntimeError("this player's digest is broken")
        return await claim(user_id, day)

    monkeypatch.setattr(bot.store, "claim_digest", claiming)
    send = DigestSender(bot, Notifier(bot, bot.store))
    moment = datetime.now(UTC).replace(hour=DIGEST_HOUR, minute=1) + timedelta(days=1)
    await DigestTask(bot.deadlines, send, clock=lambda: moment).one_pass()
    assert len(fake_discord.dms(fine)) == 1
    assert not fake_discord.dms(failing)
    assert fake_discord.errors
    for error in fake_discord.errors:
        assert re.search(rf"error [0-9a-f]{{6}}: the digest of {failing.id} ", error), error
    fake_discord.errors.clear()


async def test_hours_set_when_overdue_keep_the_takeover_votes_cast_against_them(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35 point 1, the AI takeover vote: one vote cast while the player is overdue
    still counts after they set quiet hours that would have kept them in time."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "a", "b", "c", seed=2)
    bot = table.bot
    _, game = await table.game(game_id)
    late = game.awaiting
    assert late is not None
    first, second = [p for p in table.users if p != late]
    late_user = table.user(late)
    driver = await manual_clock(bot, game_id, 49)
    await driver.run_due()
    one = await fake_discord.slash(
        table.user(first), thread, "montana", "game", "takeover", options={"player": late_user}
    )
    assert "1 of the 2 votes needed" in original(one).content
    moved = await last_move_time(bot, game_id)
    await driver_at(bot, moved + timedelta(hours=50))  # an hour after that vote
    night = moved + timedelta(hours=1)
    await fake_discord.slash(
        late_user,
        thread,
        "montana me hours",
        options={
            "from": night.strftime("%H:%M"),
            "to": (night + timedelta(hours=12)).strftime("%H:%M"),
            "timezone": "UTC",
        },
    )
    two = await fake_discord.slash(
        table.user(second), thread, "montana", "game", "takeover", options={"player": late_user}
    )
    assert "the AI plays" in two.text
    await bot.ai.idle()
    assert (await table.row(game_id)).taken_over == (late,)
