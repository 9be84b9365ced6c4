"""The store contract, on SQLite and on PostgreSQL (`store` runs each test on both):
migrations, one open game per channel, the optimistic move check; and the SQLite file's
own cases (WAL, folders, a file written by an older bot)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.core.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    SCHEMA_VERSION,
    ChannelBusy,
    Seat,
    StaleVersion,
    Store,
)
from rules import Game

ANA = Seat("111", "Ana")
BEN = Seat("222", "Ben")


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        database = str(tmp_path / "m.sqlite3")
    else:
        database = request.getfixturevalue("postgres_url")
    store = await Store.open(database)
    yield store
    await store.close()


async def test_fresh_file_is_migrated_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    store = await Store.open(str(path))
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    # opening again neither fails nor re-runs migrations
    again = await Store.open(str(path))
    assert await again.schema_version() == SCHEMA_VERSION
    await again.close()


async def test_a_version_1_file_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    from bot.core.store import MIGRATIONS
    from bot.core.store.dialect import statements_for

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (1)")
        for statement in statements_for(MIGRATIONS[0], "sqlite"):
            db.execute(statement)
        db.execute(
            "INSERT INTO games (guild_id, channel_id, creator_id, status, players, version, "
            "created_at, updated_at) VALUES (1, 10, '111', 'lobby', "
            '\'[{"id": "111", "name": "Ana"}]\', 0, \'then\', \'then\')'
        )
    store = await Store.open(str(path))
    assert await store.schema_version() == SCHEMA_VERSION > 1
    row = await store.open_game_in(10)
    assert row is not None and row.names == {"111": "Ana"} and row.turn_events == {}
    await store.close()


async def test_missing_folders_are_created(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "data" / "games" / "m.sqlite3"))
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    await (await Store.open(str(path))).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(RuntimeError, match="newer"):
        await Store.open(str(path))


async def test_one_open_game_per_channel_and_thread(store: Store) -> None:
    row = await store.create_lobby(guild_id=1, channel_id=10, thread_id=None, creator=ANA)
    with pytest.raises(ChannelBusy) as busy:
        await store.create_lobby(guild_id=1, channel_id=10, thread_id=None, creator=BEN)
    assert busy.value.game_id == row.id
    await store.set_thread(row.id, 77)
    # the game's thread counts as the same place
    with pytest.raises(ChannelBusy):
        await store.create_lobby(guild_id=1, channel_id=77, thread_id=77, creator=BEN)
    assert (await store.open_game_in(77)) is not None
    # another channel is free
    other = await store.create_lobby(guild_id=1, channel_id=11, thread_id=None, creator=BEN)
    assert other.id != row.id
    # once abandoned, the channel takes a new game; the old row is kept
    assert await store.set_status(row.id, ABANDONED, only_from=("lobby", "active"))
    again = await store.create_lobby(guild_id=1, channel_id=10, thread_id=None, creator=BEN)
    assert again.id != row.id
    assert (await store.get(row.id)) is not None


async def _started(store: Store) -> tuple[int, Game]:
    row = await store.create_lobby(guild_id=1, channel_id=10, thread_id=None, creator=ANA)
    await store.set_players(row.id, [ANA, BEN])
    game = Game.new(["111", "222"], seed=4)
    await store.start(row.id, [ANA, BEN], game.to_dict(), game.log)
    return row.id, game


async def test_start_saves_state_and_setup_log(store: Store) -> None:
    game_id, game = await _started(store)
    row = await store.get(game_id)
    assert row is not None
    assert row.status == ACTIVE
    assert row.version == game.version
    assert Game.from_dict(row.state or {}) == game
    assert [(m.player, m.notation) for m in await store.moves(game_id)] == game.log
    assert row.names == {"111": "Ana", "222": "Ben"}


async def test_commit_move_is_atomic_and_version_checked(store: Store) -> None:
    game_id, game = await _started(store)
    before = game.version
    pid = game.awaiting
    assert pid is not None
    game.apply(pid, game.legal_actions(pid)[0])
    new_lines = game.log[before:]
    await store.commit_move(game_id, before, game.to_dict(), game.version, new_lines)
    row = await store.get(game_id)
    assert row is not None and row.version == game.version
    # a second writer that read the old version is turned away and writes nothing
    with pytest.raises(StaleVersion):
        await store.commit_move(game_id, before, {"bogus": True}, game.version, new_lines)
    row = await store.get(game_id)
    assert row is not None and row.state == game.to_dict()
    assert await store.move_count(game_id) == game.version


async def test_concurrent_commits_of_one_version_apply_once(store: Store) -> None:
    game_id, game = await _started(store)
    before = game.version
    pid = game.awaiting
    assert pid is not None
    game.apply(pid, game.legal_actions(pid)[0])
    lines = game.log[before:]
    results = await asyncio.gather(
        *(
            store.commit_move(game_id, before, game.to_dict(), game.version, lines)
            for _ in range(5)
        ),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, StaleVersion) for r in results if r is not None)
    assert await store.move_count(game_id) == game.version


async def test_finished_games_are_kept_and_free_the_channel(store: Store) -> None:
    game_id, game = await _started(store)
    await store.commit_move(game_id, game.version, game.to_dict(), game.version, [], finished=True)
    row = await store.get(game_id)
    assert row is not None and row.status == FINISHED
    assert await store.open_game_in(10) is None
    assert (await store.latest_game_in(10)) == row


async def test_two_connections_share_the_file(tmp_path: Path) -> None:
    """A restarted bot (a new Store on the same file) sees every committed move."""
    path = str(tmp_path / "m.sqlite3")
    first = await Store.open(path)
    game_id, game = await _started(first)
    await first.close()
    second = await Store.open(path)
    row = await second.get(game_id)
    assert row is not None and Game.from_dict(row.state or {}) == game
    await second.close()


async def test_a_pass_in_advance_is_written_only_for_the_state_it_was_asked_in(
    store: Store,
) -> None:
    """Issue 11.3: a pass in advance is checked against the game's version and undo
    epoch in the same statement that records it."""
    lobby = await store.create_lobby(guild_id=1, channel_id=10, thread_id=None, creator=ANA)
    game = Game.new([ANA.user_id, BEN.user_id], seed=1)
    await store.start(lobby.id, [ANA, BEN], game.to_dict(), game.log)
    version = game.version
    assert not await store.set_advance_pass(
        lobby.id, BEN.user_id, 7, True, version=version - 1, undo_epoch=0
    )
    assert not await store.set_advance_pass(
        lobby.id, BEN.user_id, 7, True, version=version, undo_epoch=1
    )
    assert await store.advance_passes(lobby.id, 7) == set()
    assert await store.set_advance_pass(
        lobby.id, BEN.user_id, 7, True, version=version, undo_epoch=0
    )
    assert await store.advance_passes(lobby.id, 7) == {BEN.user_id}
    assert await store.advance_passes(lobby.id, 8) == set()  # another auction
    assert await store.set_advance_pass(
        lobby.id, BEN.user_id, 7, False, version=version, undo_epoch=0
    )
    assert await store.advance_passes(lobby.id, 7) == set()
