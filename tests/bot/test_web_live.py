"""The web process beside the bot (issue 28): it reads the bot's database and never
writes to it (SQLite opened read-only, PostgreSQL in read-only transactions), refuses a
database the bot has not made or migrated, and learns of moves from PostgreSQL's
notifications instead of reading the versions every second."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import ClientResponse, ClientSession
from aiohttp.test_utils import TestServer

from bot.core.delivery.pictures import BlankRenderer
from bot.core.runtime.errors import StartupError
from bot.core.store import SCHEMA_VERSION, Seat, Store, StoreError, open_store
from bot.web.app import WATCHER, make_app
from bot.web.serve import NICENESS
from render import render_game
from render.replay import turn_count
from rules import Game
from rules.simulate import choose_action
from tests.bot.driver import Table, make_bot, open_game
from tests.bot.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
HANG = 30.0
"""Seconds before a test that waits for something gives up (a hang guard, not a
measure: the benchmark measures)."""


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "m.sqlite3")


async def _started(store: Store) -> tuple[int, Game]:
    ana, ben = Seat("1", "Ana"), Seat("2", "Ben")
    row = await store.create_lobby(guild_id=None, channel_id=100, thread_id=None, creator=ana)
    await store.set_players(row.id, [ana, ben], expected=[ana])
    game = Game.new([ana.user_id, ben.user_id], seed=3)
    await store.start(row.id, [ana, ben], game.to_dict(), game.log)
    return row.id, game


async def _move(store: Store, game_id: int, game: Game) -> None:
    before = game.version
    game.apply(*choose_action(game, random.Random(before)))
    await store.commit_move(game_id, before, game.to_dict(), game.version, game.log[before:])


async def _next_mark(stream: ClientResponse) -> str:
    """The next mark an event stream tells (heartbeats and blank lines skipped)."""
    while True:
        line = (await asyncio.wait_for(stream.content.readline(), HANG)).decode().strip()
        if not line and stream.content.at_eof():
            raise AssertionError("the event stream ended")
        if line.startswith("data: "):
            told: str = json.loads(line[len("data: ") :])["mark"]
            return told


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _web_env(database: str) -> dict[str, str]:
    return {**os.environ, "MONTANA_DB": database, "PYTHONPATH": str(ROOT)}


@contextlib.asynccontextmanager
async def web_process(database: str) -> AsyncIterator[str]:
    """`python -m bot web` on `database`, as an operator starts it; its address."""
    port = _free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", "--port", str(port),
        env=_web_env(database), cwd=ROOT,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        async with ClientSession() as http:
            for _ in range(int(HANG / 0.05)):
                if process.returncode is not None:
                    break
                with contextlib.suppress(OSError):
                    async with http.get(f"{url}/static/web.css") as answer:
                        if answer.status == 200:
                            break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the web process did not start listening")
        if process.returncode is not None:
            assert process.stderr is not None
            raise AssertionError((await process.stderr.read()).decode())
        # the web gives way to the bot on a shared machine: its priority is 10 lower
        stat = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        web_niceness = int(stat[16])  # the 19th field of stat(5)
        assert web_niceness == min(19, os.nice(0) + NICENESS)
        yield url
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()


async def test_the_web_process_follows_the_bots_moves_on_a_file_it_only_reads(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table = Table(fake_discord, make_bot(db, renderer=BlankRenderer(), seed=4))
    await fake_discord.start(table.bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    token = await table.bot.store.web_token(game_id)
    row, game = await table.game(game_id)
    async with web_process(str(db)) as url, ClientSession() as http:
        async with http.get(f"{url}/g/{token}") as page:
            assert page.status == 200
            assert "The game is waiting for " in await page.text()
        async with http.get(f"{url}/g/{token}/events") as stream:
            assert await _next_mark(stream) == f"{row.version}-0"
            pid = game.awaiting
            assert pid is not None
            await table.tap_move(game_id, game.legal_actions(pid)[0])
            moved, _ = await table.game(game_id)
            assert moved.version > row.version, "the bot saves moves while the web reads"
            assert await _next_mark(stream) == f"{moved.version}-0"


async def test_the_web_process_stops_at_once_on_a_database_the_bot_has_not_made(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "none.sqlite3"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", "--port", str(_free_port()),
        env=_web_env(str(missing)), cwd=ROOT,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, said = await asyncio.wait_for(process.communicate(), HANG)
    assert process.returncode == 1
    assert "start the bot first" in said.decode()
    assert not missing.exists(), "the web process made no database"


async def test_a_read_only_store_reads_the_games_and_refuses_every_write(database: str) -> None:
    bot_store = await open_store(database)
    reader: Store | None = None
    try:
        game_id, game = await _started(bot_store)
        token = await bot_store.web_token(game_id)
        reader = await open_store(database, read_only=True)
        found = await reader.game_by_web_token(token)
        assert found is not None and found.id == game_id
        with pytest.raises(StoreError, match="read-only"):
            await reader.web_token(game_id)
        with pytest.raises(StoreError, match="read-only"):
            await _move(reader, game_id, Game.from_dict(game.to_dict()))
        # a statement slipped past the store's methods: the database itself refuses it
        with pytest.raises(StoreError):
            await reader.query("DELETE FROM web_tokens")
        assert await bot_store.web_token(game_id) == token
        await _move(bot_store, game_id, game)
        assert await reader.game_versions([game_id]) == {game_id: (game.version, 0)}
    finally:
        if reader is not None:
            await reader.close()
        await bot_store.close()


async def test_a_page_request_reads_its_games_version_without_its_state(database: str) -> None:
    store = await open_store(database)
    try:
        game_id, game = await _started(store)
        token = await store.web_token(game_id)
        assert await store.web_page_mark(token) == (game_id, None, game.version, 0)
        await _move(store, game_id, game)
        assert await store.web_page_mark(token) == (game_id, None, game.version, 0)
        assert await store.web_page_mark(str(game_id)) is None, "an id is no token"
        lobby = await store.create_lobby(
            guild_id=7, channel_id=200, thread_id=None, creator=Seat("1", "Ana")
        )
        assert await store.web_page_mark(await store.web_token(lobby.id)) is None, "not started"
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("found", "said"),
    [(1, "older than this code"), (SCHEMA_VERSION + 1, "newer than this code")],
)
async def test_a_read_only_store_refuses_a_schema_other_than_its_own(
    database: str, found: int, said: str
) -> None:
    bot_store = await open_store(database)
    try:
        await bot_store.transaction([("UPDATE schema_version SET version = ?", (found,))])
    finally:
        await bot_store.close()
    with pytest.raises(StartupError, match=said):
        await open_store(database, read_only=True)


async def test_a_read_only_store_refuses_a_missing_sqlite_file(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite3"
    with pytest.raises(StartupError, match="start the bot first"):
        await open_store(str(missing), read_only=True)
    assert not missing.exists()


async def test_on_postgresql_an_open_page_is_told_of_a_move_without_polling(
    postgres_url: str,
) -> None:
    bot_store = await open_store(postgres_url)
    reader = await open_store(postgres_url, read_only=True)
    # no poll of its own for an hour: a move reaching the page came by notification
    app = make_app(reader, poll_seconds=3600, safety_poll_seconds=3600)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        game_id, game = await _started(bot_store)
        token = await bot_store.web_token(game_id)
        watcher = app[WATCHER]
        async with (
            ClientSession() as http,
            http.get(server.make_url(f"/g/{token}/events")) as stream,
        ):
            assert await _next_mark(stream) == f"{game.version}-0"
            for _ in range(int(HANG / 0.01)):  # listening, and the read that follows
                if watcher.listening and watcher.polls:
                    break
                await asyncio.sleep(0.01)
            assert watcher.listening and watcher.polls == 1
            for _ in range(2):
                await _move(bot_store, game_id, game)  # another connection, another store
                assert await _next_mark(stream) == f"{game.version}-0"
            assert watcher.polls == 3, "one versions read per move told, of its game"
    finally:
        await server.close()
        await reader.close()
        await bot_store.close()


async def test_on_postgresql_a_lost_listening_connection_is_made_again(
    postgres_url: str,
) -> None:
    bot_store = await open_store(postgres_url)
    reader = await open_store(postgres_url, read_only=True)
    app = make_app(reader, poll_seconds=3600, safety_poll_seconds=3600)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        game_id, game = await _started(bot_store)
        token = await bot_store.web_token(game_id)
        watcher = app[WATCHER]
        async with (
            ClientSession() as http,
            http.get(server.make_url(f"/g/{token}/events")) as stream,
        ):
            assert await _next_mark(stream) == f"{game.version}-0"
            for _ in range(int(HANG / 0.01)):
                if watcher.listening and watcher.polls:
                    break
                await asyncio.sleep(0.01)
            # the server ends the listening connection (a restart, a network cut)
            ended = await bot_store.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'montana-web' AND query LIKE 'LISTEN%'"
            )
            assert [row[0] for row in ended] == [True]
            await _move(bot_store, game_id, game)
            assert await _next_mark(stream) == f"{game.version}-0"
            for _ in range(int(HANG / 0.01)):
                if watcher.listening:
                    break
                await asyncio.sleep(0.01)
            assert watcher.listening, "listening again"
            await _move(bot_store, game_id, game)
            assert await _next_mark(stream) == f"{game.version}-0"
    finally:
        await server.close()
        await reader.close()
        await bot_store.close()


async def test_the_replays_turn_in_progress_is_the_picture_of_the_game_now(
    tmp_path: Path,
) -> None:
    store = await open_store(str(tmp_path / "m.sqlite3"))
    server = TestServer(make_app(store), host="127.0.0.1")
    await server.start_server()
    try:
        game_id, game = await _started(store)
        while turn_count(game) < 2:
            await _move(store, game_id, game)
        base = f"/g/{await store.web_token(game_id)}"
        async with ClientSession() as http:

            async def get(path: str) -> bytes:
                async with http.get(server.make_url(base + path)) as answer:
                    assert answer.status == 200, path
                    return await answer.read()

            state = json.loads(await get("/state.json"))
            now = await get(f"/picture/{state['mark']}.png?lang=en")
            last = await get(f"/turn/{state['turns']}.png?lang=en&v={state['mark']}")
            first = await get(f"/turn/0.png?lang=en&v={state['mark']}")
        assert last == now, "the slider at its end shows the board now"
        assert first != now and first.startswith(b"\x89PNG")
        assert last == render_game(game, names={"1": "Ana", "2": "Ben"}, language="en")
    finally:
        await server.close()
        await store.close()


async def test_a_stopping_web_server_ends_the_open_pages_streams_at_once(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path / "m.sqlite3"))
    server = TestServer(make_app(store), host="127.0.0.1")
    await server.start_server()
    try:
        game_id, game = await _started(store)
        token = await store.web_token(game_id)
        async with (
            ClientSession() as http,
            http.get(server.make_url(f"/g/{token}/events")) as stream,
        ):
            assert await _next_mark(stream) == f"{game.version}-0"
            # without ending them, a restart would wait out aiohttp's shutdown timeout
            # (a minute) for the streams the open pages hold
            await asyncio.wait_for(server.close(), HANG)
            rest = await asyncio.wait_for(stream.content.read(), HANG)
            assert rest.strip() == b"" and stream.content.at_eof(), "the stream ended"
    finally:
        await server.close()
        await store.close()
