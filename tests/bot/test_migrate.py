"""`python -m bot migrate --from FILE --to URL` (issue 16.5): every row of a SQLite file
copied into PostgreSQL, ids kept; the games then go on identically on either."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.core.store import NOTICE, POST, Away, OwedMessage, Seat, Store, open_store
from rules import Game
from tests.bot.test_store_contract import ANA, BEN, play_one, started

ROOT = Path(__file__).resolve().parents[2]
CLEO = Seat("333", "Cleo")


def migrate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def filled(path: str) -> tuple[int, Game]:
    """A file with a game under way (moves, an undo, owed messages, a pass in advance),
    one ended by a vote, a lobby, preferences and an away player."""
    store = await open_store(path)
    try:
        game_id, game = await started(store, channel=10)
        start_state, start_version = game.to_dict(), game.version
        await play_one(store, game_id, game, owed=[OwedMessage(POST, game.version + 1, {})])
        await store.undo_moves(
            game_id,
            game.version,
            0,
            start_state,
            start_version,
            undone_by=ANA.user_id,
            turn_events={},
            reminders_sent=0,
        )
        game = Game.from_dict(start_state)
        for _ in range(3):
            await play_one(store, game_id, game, expected_epoch=1)
        await store.owe(game_id, [OwedMessage(NOTICE, game.version, {"x": 1})])
        await store.set_advance_pass(
            game_id, BEN.user_id, game.version, True, version=game.version, undo_epoch=1
        )
        ended, other = await started(store, channel=11, seed=9)
        await store.add_end_vote(ended, other.version, ANA.user_id, "2026-11-20T00:00:00")
        await store.end_game(ended, other.version, {"ranking": []})
        await store.create_lobby(guild_id=3, channel_id=12, thread_id=None, creator=CLEO)
        await store.set_dm(ANA.user_id, True)
        await store.set_heads_up(BEN.user_id, True)
        since = datetime(2026, 11, 1, tzinfo=UTC)
        await store.set_away(Away(CLEO.user_id, since, since + timedelta(days=2)), [])
        await store.record_deadline_step(game_id, game.version, 1, "2026-11-21T00:00:00+00:00")
        for name in ("Spring", "Summer"):  # a past season and the current one
            await store.start_season(3, name, ANA.user_id, "2026-11-22T00:00:00+00:00", min_games=5)
        return game_id, game
    finally:
        await store.close()


async def contents(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    found = {}
    for table in await store.tables():
        rows = await store.query(f"SELECT * FROM {table}")
        found[table] = sorted((tuple(row) for row in rows), key=repr)
    return found


def test_a_sqlite_file_is_copied_into_postgres_and_its_games_go_on_identically(
    tmp_path: Path, postgres_url: str
) -> None:
    path = str(tmp_path / "montana.sqlite3")
    game_id, game = asyncio.run(filled(path))

    done = migrate("--from", path, "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    assert "Copied" in done.stdout and "3 games" in done.stdout

    async def compare() -> None:
        old, new = await open_store(path), await open_store(postgres_url)
        try:
            before = await contents(old)
            assert before["games"] and before["moves"] and before["undone_moves"]
            assert len(before["seasons"]) == 2
            assert await contents(new) == before
            # the game goes on the same way in both
            twin = Game.from_dict(game.to_dict())
            for _ in range(4):
                await play_one(old, game_id, game, expected_epoch=1)
                await play_one(new, game_id, twin, expected_epoch=1)
            assert await old.get(game_id) is not None
            row_old, row_new = await old.get(game_id), await new.get(game_id)
            assert row_old is not None and row_new is not None
            assert (row_new.state, row_new.version) == (row_old.state, row_old.version)
            assert await new.moves(game_id) != []
            assert [(m.version, m.notation) for m in await new.moves(game_id)] == [
                (m.version, m.notation) for m in await old.moves(game_id)
            ]
            # new rows take new ids, after the copied ones
            lobby = await new.create_lobby(guild_id=3, channel_id=99, thread_id=None, creator=ANA)
            assert lobby.id == 4
            await new.owe(game_id, [OwedMessage(POST, twin.version, {})])
            ids = [o.id for o in await new.owed(game_id)]
            assert len(ids) == len(set(ids))
        finally:
            await old.close()
            await new.close()

    asyncio.run(compare())

    # a target that holds games is refused, and left as it was
    again = migrate("--from", path, "--to", postgres_url)
    assert again.returncode == 1
    assert "already holds 4 games" in again.stderr and "--replace" in again.stderr
    replaced = migrate("--from", path, "--to", postgres_url, "--replace")
    assert replaced.returncode == 0, replaced.stderr

    async def same_again() -> None:
        old, new = await open_store(path), await open_store(postgres_url)
        try:
            assert await contents(new) == await contents(old)
        finally:
            await old.close()
            await new.close()

    asyncio.run(same_again())


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    done = migrate("--from", str(tmp_path / "nope.sqlite3"), "--to", "postgresql://x@h/db")
    assert done.returncode == 2
    assert "No database file at" in done.stderr
