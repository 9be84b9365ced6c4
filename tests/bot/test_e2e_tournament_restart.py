"""Tournaments are restart-proof (issue 40 point 7), through real discord.py and the fake
Discord: a crash between seating a round and starting its tables (the round recorded,
one table's game opened in its lobby, another not opened) is finished by the restarted
bot without a table twice; two bots on one database seating the same round at once open
each table once; a tournament table is never refused by a member's limit of games under
way, and counts for their later finds."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from bot.core.store import Seat, stamp_of
from bot.core.store.tournaments import RUNNING, SIGNUP
from bot.discord_app.community import tournaments as front
from tests.bot.driver import make_bot
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_server_admin import ADMIN
from tests.bot.tournament_helpers import (
    announcements,
    expected_seating,
    game_of,
    new_tournament,
    record_of,
    sign_up,
)


async def signed_up(fake: FakeDiscord, bot: object, n: int) -> int:
    admin = fake.add_user("admin", permissions=ADMIN)
    players = [fake.add_user(f"p{i}") for i in range(n)]
    tournament_id, signup = await new_tournament(fake, admin, name="Cup", tables="3-4")
    await sign_up(fake, signup, players)
    return tournament_id


async def count_games(bot: object) -> int:
    rows = await bot.store.query("SELECT COUNT(*) FROM games")  # type: ignore[attr-defined]
    return int(rows[0][0])


async def test_a_restart_between_seating_and_starting_finishes_the_round(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db)
    await fake_discord.start(bot)
    tournament_id = await signed_up(fake_discord, bot, 7)
    # what a crash leaves: round 1 recorded, table 1 opened (not started), table 2 not
    store = bot.store
    moment = stamp_of(datetime.now(UTC))
    assert await store.set_tournament_status(tournament_id, RUNNING, only_from=(SIGNUP,), at=moment)
    record = await record_of(bot, tournament_id)
    seating = expected_seating(record, 1, set())
    assert len(seating.tables) == 2
    assert await store.record_round(tournament_id, 1, seating.tables, seating.byes)
    names = {e.user_id: e.name for e in record.entrants}
    lobby = await store.open_tournament_table(
        fake_discord.guild_id,
        tournament_id,
        1,
        1,
        [Seat(p, names[p]) for p in seating.tables[0]],
        channel_id=fake_discord.channel.id,
        thread_id=None,
        language="en",
        turn_seconds=3600,
        auction_seconds=1800,
    )
    assert lobby is not None and lobby.status == "lobby"
    await fake_discord.stop(bot)
    # the restarted bot carries the tournament on at start-up
    again = make_bot(db)
    await fake_discord.start(again)
    await again.tournament_watch.idle()
    record = await record_of(again, tournament_id)
    tables = record.tables[1]
    assert tables[0].game_id == lobby.id  # the same game, started
    assert [t.game_status for t in tables] == ["active", "active"]
    assert await count_games(again) == 2
    for t in tables:
        assert len(announcements(fake_discord, f"round 1, table {t.number}:")) == 1
    # another pass finds nothing to do
    await front.advance(again, tournament_id)
    assert await count_games(again) == 2


class OtherProcess:
    """A second bot process on the same database and Discord, as the runtime sees it: its
    own pass, not held back by the first's lock (one process per server is the rule, so
    a second one stands for the moment a replacement starts before the first stopped)."""

    def __init__(self, bot: object) -> None:
        self._bot = bot

    def __getattr__(self, name: str) -> object:
        return getattr(self._bot, name)


async def test_two_processes_seating_the_same_round_open_each_table_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    first = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(first)
    tournament_id = await signed_up(fake_discord, first, 10)
    second = OtherProcess(first)
    moment = stamp_of(datetime.now(UTC))
    assert await first.store.set_tournament_status(
        tournament_id, RUNNING, only_from=(SIGNUP,), at=moment
    )
    await asyncio.gather(front.advance(first, tournament_id), front.advance(second, tournament_id))  # type: ignore[arg-type]
    record = await record_of(first, tournament_id)
    tables = record.tables[1]
    assert len(tables) == 3 and all(t.game_status == "active" for t in tables)
    assert await count_games(first) == len(tables)
    assert len({t.game_id for t in tables}) == len(tables)
    for t in tables:
        assert len(announcements(fake_discord, f"round 1, table {t.number}:")) == 1
    assert len(announcements(fake_discord, "round 1 is seated")) == 1
    # the threads of a loser of a race were deleted: one live thread per table
    live = [t for t in fake_discord.threads if not getattr(t, "deleted", False)]
    games = [await game_of(first, t.game_id) for t in tables]
    assert {g.thread_id for g in games} <= {t.id for t in live}


async def test_a_members_limit_never_refuses_a_tournament_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    tournament_id = await signed_up(fake_discord, bot, 3)
    record = await record_of(bot, tournament_id)
    player = record.entrants[0].user_id
    # the player plays a game under way already: at the limit of 1
    other = fake_discord.add_channel("other")
    ana = next(u for u in fake_discord.world.users.values() if str(u.id) == player)
    ben = fake_discord.add_user("ben")
    opened = await fake_discord.slash(ana, other, "montana game new")
    assert opened.original is not None
    await fake_discord.press(ben, opened.original, label="Join")
    await fake_discord.press(ana, opened.original, label="Start")
    assert await bot.store.games_under_way_of(fake_discord.guild_id, player) == 1
    admin = next(u for u in fake_discord.world.users.values() if u.name == "admin")
    await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana-tournament start",
        options={"tournament": str(tournament_id)},
    )
    await bot.tournament_watch.idle()
    record = await record_of(bot, tournament_id)
    assert [t.game_status for t in record.tables[1]] == ["active"]
    # the tournament game counts: a later find is refused by the limit
    assert await bot.store.games_under_way_of(fake_discord.guild_id, player) == 2
    refused = await fake_discord.slash(ana, fake_discord.channel, "montana game find")
    assert "game" in refused.text and "under way" in refused.text
