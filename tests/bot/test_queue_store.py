"""The matchmaking queue's statements (issue 25 point 5), on SQLite and on PostgreSQL
alike: once per server, first queued first, expired entries ignored and replaced, and
the one transaction that takes a table out of the queue and seats it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.store import LOBBY, ChannelBusy, QueuedPlayer, Seat, Shards, open_store

GUILD = 1_234_567_890_123_456_789
OTHER_GUILD = 42
CUT = "2026-01-01T00:00:00.000+00:00"
"""Entries queued before this have expired."""


def entry(
    user: str, at: str, *, guild: int = GUILD, counts: tuple[int, ...] = (2, 3, 4)
) -> QueuedPlayer:
    return QueuedPlayer(
        guild_id=guild,
        user_id=user,
        name=f"P{user}",
        counts=counts,
        pace="normal",
        language="fr",
        channel_id=9_000_000_000_000_000_001,
        queued_at=at,
    )


async def test_a_player_is_queued_once_per_server_first_queued_first(store) -> None:
    assert await store.join_queue(entry("2", "2026-01-02T10:00:00.000+00:00"), since=CUT)
    assert await store.join_queue(
        entry("1", "2026-01-02T09:00:00.000+00:00", counts=(3,)), since=CUT
    )
    again = entry("2", "2026-01-02T11:00:00.000+00:00", counts=(4,))
    assert not await store.join_queue(again, since=CUT)
    assert await store.join_queue(replace(again, guild_id=OTHER_GUILD), since=CUT)
    queue = await store.queued_in(GUILD, since=CUT)
    assert [(p.user_id, p.counts) for p in queue] == [("1", (3,)), ("2", (2, 3, 4))]
    assert queue[1] == entry("2", "2026-01-02T10:00:00.000+00:00")
    assert [p.user_id for p in await store.queued_in(OTHER_GUILD, since=CUT)] == ["2"]


async def test_expired_entries_are_ignored_and_replaced(store) -> None:
    old = entry("1", "2025-12-20T00:00:00.000+00:00")
    await store.join_queue(old, since="2025-12-01T00:00:00.000+00:00")
    assert await store.queue_entry(GUILD, "1", since=CUT) is None
    assert await store.queued_in(GUILD, since=CUT) == []
    fresh = entry("1", "2026-01-03T00:00:00.000+00:00", counts=(2,))
    assert await store.join_queue(fresh, since=CUT)
    assert await store.queue_entry(GUILD, "1", since=CUT) == fresh


async def test_leaving_the_queue(store) -> None:
    await store.join_queue(entry("1", "2026-01-02T10:00:00.000+00:00"), since=CUT)
    assert await store.leave_queue(GUILD, "1")
    assert not await store.leave_queue(GUILD, "1")
    assert await store.queue_entry(GUILD, "1", since=CUT) is None


async def test_a_table_leaves_the_queue_in_the_transaction_that_seats_it(store) -> None:
    for n, user in enumerate(("1", "2", "3", "4")):
        await store.join_queue(entry(user, f"2026-01-02T10:0{n}:00.000+00:00"), since=CUT)
    seats = [Seat("1", "P1"), Seat("2", "P2"), Seat("3", "P3")]
    row = await store.seat_from_queue(
        GUILD,
        seats,
        since=CUT,
        channel_id=77,
        thread_id=77,
        language="fr",
        turn_seconds=7200,
        auction_seconds=3600,
    )
    assert row is not None and row.status == LOBBY and row.guild_id == GUILD
    assert list(row.players) == seats and row.creator_id == "1"
    assert (row.play_channel_id, row.language) == (77, "fr")
    assert (row.turn_seconds, row.auction_seconds) == (7200, 3600)
    assert [p.user_id for p in await store.queued_in(GUILD, since=CUT)] == ["4"]
    # each player's games (`/montana me games`) know it from the same transaction
    for seat in seats:
        assert [g.id for g in await store.seated_games(seat.user_id, GUILD)] == [row.id]
    assert await store.seated_games("4", GUILD) == []


async def test_a_table_with_a_player_gone_changes_nothing(store) -> None:
    for n, user in enumerate(("1", "2", "3")):
        await store.join_queue(entry(user, f"2026-01-02T10:0{n}:00.000+00:00"), since=CUT)
    await store.leave_queue(GUILD, "2")
    seats = [Seat("1", "P1"), Seat("2", "P2"), Seat("3", "P3")]
    made = await store.seat_from_queue(
        GUILD,
        seats,
        since=CUT,
        channel_id=77,
        thread_id=None,
        language="fr",
        turn_seconds=7200,
        auction_seconds=3600,
    )
    assert made is None
    assert await store.seated_games("1") == []
    assert [p.user_id for p in await store.queued_in(GUILD, since=CUT)] == ["1", "3"]
    assert await store.open_game_in(77) is None


async def test_a_table_is_not_seated_in_a_busy_channel(store) -> None:
    lobby = await store.create_lobby(
        guild_id=GUILD, channel_id=77, thread_id=None, creator=Seat("9", "P9")
    )
    for n, user in enumerate(("1", "2")):
        await store.join_queue(entry(user, f"2026-01-02T10:0{n}:00.000+00:00"), since=CUT)
    with pytest.raises(ChannelBusy):
        await store.seat_from_queue(
            GUILD,
            [Seat("1", "P1"), Seat("2", "P2")],
            since=CUT,
            channel_id=77,
            thread_id=None,
            language="en",
            turn_seconds=7200,
            auction_seconds=3600,
        )
    assert len(await store.queued_in(GUILD, since=CUT)) == 2
    assert (await store.open_game_in(77)).id == lobby.id


async def test_the_servers_with_a_queue_are_found_for_the_pass_at_start_up(store) -> None:
    assert await store.queued_guilds(since=CUT) == []
    await store.join_queue(entry("1", "2026-01-02T00:00:00.000+00:00"), since=CUT)
    await store.join_queue(entry("2", "2026-01-03T00:00:00.000+00:00"), since=CUT)
    await store.join_queue(
        entry("3", "2025-12-31T00:00:00.000+00:00", guild=OTHER_GUILD), since="2025-01-01"
    )
    # the other server's only entry has expired: nothing to match there
    assert await store.queued_guilds(since=CUT) == [GUILD]
    assert await store.queued_guilds(since="2025-01-01") == [OTHER_GUILD, GUILD]


async def test_a_process_finds_the_queues_of_its_own_shards_only(postgres_url: str) -> None:
    # PostgreSQL only: a SQLite file is served by one process, with every shard
    database = postgres_url
    store = await open_store(database)
    await store.join_queue(entry("1", "2026-01-02T00:00:00.000+00:00"), since=CUT)
    await store.close()
    guild_shard = (GUILD >> 22) % 2
    for serving, found in (((guild_shard,), [GUILD]), ((1 - guild_shard,), [])):
        sharded = await open_store(database, shards=Shards(2, serving))
        try:
            assert await sharded.queued_guilds(since=CUT) == found
        finally:
            await sharded.close()
