"""A tournament's round deadline (issue 40.3), through real discord.py and the fake
Discord: when a round's days have passed, a game of it still running is ended as a vote
to end ends an overdue game — the player it waits for placed last, the others by the
ranking of that moment, rated — its table counted in the standings, its thread told
once, and the next round seated; by the timer and a second process at once (the game
ended once, the round seated once), and by the start-up pass after a restart during
which the deadline passed. And the standings' chart of the points after each round."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.core.community import tournaments as core
from bot.core.community.ratings import placings
from bot.core.community.tournament_chart import points_by_round
from bot.core.community.tournament_deadlines import ROUND_DEADLINE
from bot.core.play.service import GameService
from bot.discord_app.community import tournaments as front
from bot.web.app import make_app
from tests.bot.driver import Table, embed_of, make_bot, original
from tests.bot.fakediscord import FakeDiscord, FakeUser
from tests.bot.test_e2e_ratings import to_the_last_move
from tests.bot.test_e2e_tournament_restart import OtherProcess
from tests.bot.test_server_admin import ADMIN
from tests.bot.tournament_helpers import (
    finish_round,
    game_of,
    new_tournament,
    pure,
    record_of,
    sign_up,
)

TOLD = "the round's deadline has passed, so this game has ended"


async def two_tables(fake: FakeDiscord, bot: Any) -> tuple[int, dict[str, FakeUser]]:
    """A Swiss of 6 over 2 rounds with a 2-day round deadline, started: round 1 at 2
    tables of 3."""
    admin = fake.add_user("admin", permissions=ADMIN)
    players = [fake.add_user(f"p{i}") for i in range(6)]
    tournament_id, signup = await new_tournament(
        fake, admin, name="Cup", tables="3", rounds=2, round_days=2
    )
    assert "Each round lasts at most 2 days" in signup.content
    await sign_up(fake, signup, players)
    await fake.slash(
        admin, fake.channel, "montana-tournament start", options={"tournament": str(tournament_id)}
    )
    await bot.tournament_watch.idle()
    return tournament_id, {str(u.id): u for u in players}


async def finish_first_table(fake: FakeDiscord, bot: Any, tournament_id: int, users: Any) -> int:
    """Play table 1 of round 1 to its end; the game id of table 2, left running."""
    record = await record_of(bot, tournament_id)
    first, second = record.tables[1]
    table = Table(fake, bot, users=users)
    assert first.game_id is not None and second.game_id is not None
    player, action = await to_the_last_move(table, first.game_id, seed=first.game_id)
    row = await game_of(bot, first.game_id)
    await table.type_move(fake.channel_by_id(row.play_channel_id), player, action)
    await bot.ai.idle()
    await bot.tournament_watch.idle()
    # a few moves in table 2, then it stalls
    row = await game_of(bot, second.game_id)
    game = GameService.game_of(row)
    assert game.awaiting is not None
    return second.game_id


def three_days_ago() -> str:
    return (datetime.now(UTC) - timedelta(days=3)).isoformat(timespec="seconds")


async def pass_the_deadline(bot: Any, tournament_id: int, number: int) -> None:
    """Move the round's seating 3 days back (time passing, as the store sees it)."""
    moment = three_days_ago()
    await bot.store.transaction(
        [
            (
                "UPDATE tournament_rounds SET seated_at = ? WHERE tournament_id = ? AND round = ?",
                (moment, tournament_id, number),
            )
        ]
    )


async def check_ended_at_deadline(
    fake: FakeDiscord, bot: Any, tournament_id: int, game_id: int
) -> None:
    row = await game_of(bot, game_id)
    assert row.status == "ended"
    assert row.result_json is not None
    result = json.loads(row.result_json)
    assert result["reason"] == "round_deadline"
    awaited = result["awaited"]
    game = GameService.game_of(row)
    assert game.awaiting == awaited
    record = await record_of(bot, tournament_id)
    table = next(t for t in record.tables[1] if t.game_id == game_id)
    # the awaited player last, the others by the ranking so far; the same as rated
    assert table.outcome is not None
    places = dict(zip(table.players, table.outcome["places"], strict=True))
    assert places[awaited] == len(table.players)
    assert all(places[p] < places[awaited] for p in table.players if p != awaited)
    assert json.loads(core.outcome_of(row, game, awaited, table.players)) == table.outcome
    rated = {p.seat.user_id: p.place for p in placings(row, game, awaited)}
    assert rated == places
    results = await bot.store.query(
        "SELECT player, place, quit FROM game_results WHERE game_id = ?", (game_id,)
    )
    assert {str(r[0]): int(r[1]) for r in results} == places
    assert {str(r[0]) for r in results if r[2]} == {awaited}
    # the standings count it: everyone has played one game
    assert all(s.games == 1 for s in core.standings_of(record))
    # round 2 seated once, its tables under way
    assert record.last_round == 2
    assert all(t.game_status == "active" for t in record.tables[2])
    assert int((await bot.store.query("SELECT COUNT(*) FROM tournament_rounds"))[0][0]) == 2
    # its thread told once, through the outbox
    owed = await bot.store.query("SELECT COUNT(*) FROM outbox WHERE kind = ?", (ROUND_DEADLINE,))
    assert int(owed[0][0]) == 1
    await bot.service.delivery.run_due()
    thread = fake.channel_by_id(row.play_channel_id)
    told = [m for m in fake.messages_in(thread) if TOLD in m.content]
    assert len(told) == 1 and f"<@{awaited}>" in told[0].content and "round 1" in told[0].content


async def test_a_stalled_game_ends_at_the_round_deadline_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    tournament_id, users = await two_tables(fake_discord, bot)
    stalled = await finish_first_table(fake_discord, bot, tournament_id, users)
    # before the deadline the timer ends nothing: round 1 waits for its game
    await bot.tournament_watch.deadlines.one_pass()
    await bot.tournament_watch.idle()
    assert (await game_of(bot, stalled)).status == "active"
    assert (await record_of(bot, tournament_id)).last_round == 1
    await pass_the_deadline(bot, tournament_id, 1)
    # the timer and a second process at once: the game ended once, round 2 seated once
    await asyncio.gather(
        bot.tournament_watch.deadlines.one_pass(),
        front.advance(OtherProcess(bot), tournament_id),  # type: ignore[arg-type]
    )
    await bot.tournament_watch.idle()
    await check_ended_at_deadline(fake_discord, bot, tournament_id, stalled)
    # passes again change nothing
    await bot.tournament_watch.deadlines.one_pass()
    await front.advance(bot, tournament_id)
    await bot.tournament_watch.idle()
    await check_ended_at_deadline(fake_discord, bot, tournament_id, stalled)


async def test_the_deadline_passing_during_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db)
    await fake_discord.start(bot)
    tournament_id, users = await two_tables(fake_discord, bot)
    stalled = await finish_first_table(fake_discord, bot, tournament_id, users)
    await fake_discord.stop(bot)
    # the round's days pass while the bot is down
    with sqlite3.connect(db) as down:
        down.execute(
            "UPDATE tournament_rounds SET seated_at = ? WHERE tournament_id = ? AND round = 1",
            (three_days_ago(), tournament_id),
        )
    again = make_bot(db)
    await fake_discord.start(again)
    await again.tournament_watch.idle()
    await check_ended_at_deadline(fake_discord, again, tournament_id, stalled)


async def test_a_round_deadline_out_of_range_is_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    for days in (0, 31):
        refused = await fake_discord.slash(
            admin,
            fake_discord.channel,
            "montana-tournament new",
            options={"name": "Cup", "round_days": days},
        )
        assert "round_days" in refused.text and "is 1 to 30" in refused.text
        assert "Nothing was created." in refused.text
    assert await bot.store.tournaments_of(fake_discord.guild_id) == []


async def test_the_standings_show_a_chart_of_the_points_from_the_second_round(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    tournament_id, users = await two_tables(fake_discord, bot)
    asker = next(iter(users.values()))
    option = {"tournament": str(tournament_id)}
    await finish_round(fake_discord, bot, await record_of(bot, tournament_id), users)
    one = await fake_discord.slash(
        asker, fake_discord.channel, "montana-tournament standings", options=option
    )
    assert embed_of(one) and not one.files  # a single round: no chart
    token = await bot.store.server_web_token(fake_discord.guild_id, "Montana Test")
    base = f"/s/{token}/t/{tournament_id}"
    async with TestClient(TestServer(make_app(bot.store), host="127.0.0.1")) as http:
        assert 'id="standings-chart"' not in await (await http.get(base)).text()
        assert (await http.get(f"{base}/standings.png")).status == 404
    await finish_round(fake_discord, bot, await record_of(bot, tournament_id), users)
    record = await record_of(bot, tournament_id)
    assert record.tournament.status == "finished"
    shown = await fake_discord.slash(
        asker, fake_discord.channel, "montana-tournament standings", options=option
    )
    picture = shown.files["standings.png"]
    assert picture.startswith(b"\x89PNG")
    gallery = [c for c in original(shown).walk_components() if c.get("type") == 12]
    assert [i["media"]["url"] for g in gallery for i in g["items"]] == [
        "attachment://standings.png"
    ]
    # the lines: the leaders' points after rounds 1 and 2, as the pure standings say
    plan = core.plan_from(record.tournament)
    entrants, dropped = core.entrants_of(record)
    played = core.played_of(record)
    after = [
        {s.user_id: s.points for s in pure().standings(plan, entrants, played[:k], dropped)}
        for k in (1, 2)
    ]
    final = pure().standings(plan, entrants, played, dropped)
    assert points_by_round(record) == [
        (s.user_id, [after[0][s.user_id], after[1][s.user_id]]) for s in final
    ]
    (tmp_path / "standings.png").write_bytes(picture)
    # the tournament's web page shows the same chart
    async with TestClient(TestServer(make_app(bot.store), host="127.0.0.1")) as http:
        page = await (await http.get(base)).text()
        assert f'<img id="standings-chart" src="{base}/standings.png?lang=en"' in page
        served = await http.get(f"{base}/standings.png?lang=en")
        assert served.status == 200 and served.content_type == "image/png"
        assert (await served.read()).startswith(b"\x89PNG")
