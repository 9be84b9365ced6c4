"""Metrics and health for operators (issue 26.3): `/metrics` scraped while a game is
played moves the counters and the press -> picture histogram as the players' presses do;
`/healthz` answers 200 only while the bot is connected and its database answers.

The game runs in a real `python -m bot` process against the loopback fake Discord (the
metrics server, the gateway check and the count of Discord's errors are those of the
running bot); the database going away is checked in-process, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from bot.core.runtime import metrics
from bot.core.runtime.errors import StartupError
from bot.core.server.settings import Settings
from bot.core.store import POST, OwedMessage, Shards, Store, open_store
from bot.discord_app.client import MontanaBot
from bot.discord_app.server.monitoring import MonitoringServer
from tests.bot.driver import Table, make_bot, original
from tests.bot.fakediscord import FakeDiscord
from tests.bot.fakegateway import FakeGateway
from tests.bot.test_crash import Session, press
from tests.bot.test_faults_process import MESSAGES, bot_env, shown_after, start_in_process, tap
from tests.bot.test_store_contract import ANA, BIG_GUILD, started

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def fetch(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> Samples:
    status, text = await fetch(port, "/metrics")
    assert status == 200
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def gauge(name: str, shard: str) -> float | None:
    return REGISTRY.get_sample_value(name, {"shard": shard})


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


# ---------------------------------------------------------------- the running bot


async def test_a_scrape_during_a_game_counts_its_moves_presses_and_pictures(
    fake_gateway: FakeGateway, tmp_path: Path
) -> None:
    port = free_port()
    users = {str(u.id): u for u in (fake_gateway.add_user("ana"), fake_gateway.add_user("ben"))}
    env = {**bot_env(fake_gateway, tmp_path / "m.sqlite3"), "MONTANA_METRICS_PORT": str(port)}
    session = Session(fake_gateway, tmp_path / "m.sqlite3", users, env)
    ana, ben = users.values()
    await start_in_process(session, ana, [(ben, "Join")])

    # ready once discord.py has had every server of the READY (it waits a moment for them)
    health = await fetch(port, "/healthz")
    for _ in range(200):
        if health[0] == 200:
            break
        assert health == (503, "not connected to Discord's gateway\n")
        await asyncio.sleep(0.1)
        health = await fetch(port, "/healthz")
    assert health == (200, "ok\n")
    before = await scrape(port)
    assert value(before, "montana_games_active", shard="0") == 1
    assert (
        value(
            before, "montana_interactions_total", shard="0", kind="montana game new", outcome="ok"
        )
        == 1
    )
    # Join and Start
    assert value(before, "montana_interactions_total", shard="0", kind="press", outcome="ok") == 2
    assert value(before, "montana_info", shards="0", database="sqlite") == 1
    assert value(before, "montana_healthy") == 1

    # Discord fails one post of a move with a 500 (discord.py tries again by itself)
    fault = fake_gateway.inject(MESSAGES, 500, channel=session.thread)
    moves = 0
    # at least three moves, and one of them posting a new message (a move that leaves the
    # turn with its player edits the prompt instead)
    while moves < 3 or not fault.hits:
        assert moves < 30, "no move posted a new message"
        moves += 1
        saved = session.saved()
        pid = saved.game.awaiting
        assert pid is not None
        action = saved.game.legal_actions(pid)[0]
        message, code = await tap(session, action)
        await press(session, session.users[pid], message, code)
        await shown_after(session, saved.version)
    after = await scrape(port)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("montana_moves_total", shard="0", by="person") == moves
    assert grew("montana_press_to_picture_seconds_count", shard="0") == moves
    assert grew("montana_press_to_picture_seconds_sum", shard="0") > 0
    # the histogram's buckets are cumulative: the +Inf bucket holds every press
    assert grew("montana_press_to_picture_seconds_bucket", shard="0", le="+Inf") == moves
    assert grew("montana_interactions_total", shard="0", kind="press", outcome="ok") >= moves
    assert value(after, "montana_discord_errors_total", status="500") == 1
    assert grew("montana_database_seconds_count", operation="commit_move") == moves
    assert value(after, "montana_outbox_backlog", shard="0") == 0
    assert value(after, "montana_outbox_oldest_age_seconds", shard="0") == 0
    assert value(after, "montana_games_active", shard="0") == 1

    # a refused command is counted as refused: there is a game in this channel already
    await fake_gateway.slash(ben, fake_gateway.channel, "montana", "game", "new")
    refused = await scrape(port)
    assert (
        value(
            refused,
            "montana_interactions_total",
            shard="0",
            kind="montana game new",
            outcome="refused",
        )
        == 1
    )

    assert session.process is not None
    assert await session.process.terminate() == 0, session.process.stderr


# ---------------------------------------------------------------- the database gone


@pytest.fixture
async def monitored(
    fake_discord: FakeDiscord, database: str
) -> AsyncIterator[tuple[MontanaBot, int]]:
    bot = MontanaBot(Settings(token=None, db_path=database, picture_processes=0))
    await fake_discord.start(bot)
    server = MonitoringServer(bot, "127.0.0.1", 0)
    await server.start()
    assert server.bound_port is not None
    try:
        yield bot, server.bound_port
    finally:
        await server.close()


async def test_health_fails_when_the_database_is_gone(monitored: tuple[MontanaBot, int]) -> None:
    bot, port = monitored
    # in-process there is no gateway socket: that reason is always given here
    status, text = await fetch(port, "/healthz")
    assert status == 503 and text.splitlines() == ["not connected to Discord's gateway"]
    await bot.store.close()
    status, text = await fetch(port, "/healthz")
    assert status == 503
    assert text.splitlines()[0] == "not connected to Discord's gateway"
    assert text.splitlines()[1].startswith("the database does not answer: ")
    # the scrape still answers, and says the bot is unhealthy
    samples = await scrape(port)
    assert value(samples, "montana_healthy") == 0


# ---------------------------------------------------------------- the store's reads


async def test_the_gauges_read_games_under_way_and_what_is_owed(database: str) -> None:
    store: Store = await open_store(database)
    try:
        await store.ping()
        other_guild = BIG_GUILD + (1 << 22)  # the next shard of two
        lobby = await store.create_lobby(
            guild_id=BIG_GUILD, channel_id=7, thread_id=None, creator=ANA
        )
        assert lobby.status == "lobby"
        first, game = await started(store, channel=10)
        second, _ = await started(store, channel=11)
        third, _ = await started(store, channel=12, guild=other_guild)
        assert sorted(await store.active_games_by_guild()) == [(BIG_GUILD, 2), (other_guild, 1)]
        assert await store.owed_by_guild() == []

        await store.owe(first, [OwedMessage(POST, game.version, {"n": 1})])
        await store.owe(second, [OwedMessage(POST, game.version, {"n": 2})])
        (owed,) = await store.owed_by_guild()
        guild, count, since = owed
        assert (guild, count) == (BIG_GUILD, 2)
        assert abs(since - datetime.now(UTC)) < timedelta(minutes=1)

        metrics.configure(2, None, "test")
        metrics.set_store_gauges(
            await store.active_games_by_guild(),
            await store.owed_by_guild(),
            since + timedelta(minutes=11),
        )
        shard = metrics.shard_of(BIG_GUILD)
        other = metrics.shard_of(other_guild)
        assert shard != other
        assert gauge("montana_games_active", shard) == 2
        assert gauge("montana_games_active", other) == 1
        assert gauge("montana_outbox_backlog", shard) == 2
        assert gauge("montana_outbox_backlog", other) == 0
        assert (gauge("montana_outbox_oldest_age_seconds", shard) or 0) >= 660
        assert gauge("montana_outbox_oldest_age_seconds", other) == 0

        for entry in await store.owed(first):
            await store.delivered(entry, 1)
        assert [(g, n) for g, n, _ in await store.owed_by_guild()] == [(BIG_GUILD, 1)]
        # a process serving one shard reads its own games only
        store.shards = Shards(2, (int(other),))
        assert await store.active_games_by_guild() == [(other_guild, 1)]
        assert await store.owed_by_guild() == []
        assert third
    finally:
        metrics.configure(None, None, "test")
        await store.close()


async def test_ai_decisions_and_their_moves_are_counted(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    def sample(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, {"shard": "0", **labels}) or 0.0

    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    ana = fake_discord.add_user("ana")
    table.users[str(ana.id)] = ana
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    await fake_discord.press(ana, lobby, label="Add AI")
    decisions = sample("montana_ai_decision_seconds_count")
    ai_moves = sample("montana_moves_total", by="ai")
    person_moves = sample("montana_moves_total", by="person")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    for _ in range(4):  # the person's moves, the AI answering each time it is its turn
        await bot.ai.idle()
        _, game = await table.game(row.id)
        assert game.awaiting == str(ana.id)
        await table.tap_move(row.id, game.legal_actions(game.awaiting)[0])
    await bot.ai.idle()
    made_by_ai = sample("montana_moves_total", by="ai") - ai_moves
    assert made_by_ai >= 1
    assert sample("montana_moves_total", by="person") - person_moves == 4
    # one decision per AI move (more if a move went stale while it decided)
    assert sample("montana_ai_decision_seconds_count") - decisions >= made_by_ai
    assert sample("montana_ai_decision_seconds_sum") > 0


async def test_a_metrics_port_in_use_stops_the_start_with_one_line(
    monitored: tuple[MontanaBot, int],
) -> None:
    bot, taken = monitored
    with pytest.raises(StartupError) as refused:
        await MonitoringServer(bot, "127.0.0.1", taken).start()
    assert f"127.0.0.1:{taken}" in str(refused.value)
    assert "MONTANA_METRICS_PORT" in str(refused.value)
