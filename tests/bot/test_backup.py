"""Backups (issue 26.4): `python -m bot backup --to FILE` copies the SQLite database while
the bot runs and moves are being saved; the bot started on the copy (restored as the
operators' guide says) has every game, each one consistent, and each goes on with its next move.

Everything runs as separate processes against the loopback fake Discord: the bot
(`python -m bot`), the backup (`python -m bot backup`), then the restored bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.backup import main as backup_main
from bot.backup import restored_main
from bot.core.server.settings import Settings
from bot.discord_app.client import MontanaBot
from rules import Game
from tests.bot.driver import Table, open_game
from tests.bot.fakediscord import FakeDiscord
from tests.bot.fakegateway import FakeGateway
from tests.bot.test_crash import ROOT, Session, press
from tests.bot.test_faults_process import bot_env, shown_after, start_in_process, tap
from tests.pgserver import ThrowawayPostgres


async def move_on(session: Session) -> int:
    """The awaited player's first legal move, tapped through the prompt; the new version."""
    saved = session.saved()
    pid = saved.game.awaiting
    assert pid is not None
    message, code = await tap(session, saved.game.legal_actions(pid)[0])
    await press(session, session.users[pid], message, code)
    await shown_after(session, saved.version)
    return session.saved().version


async def keep_playing(session: Session, backed_up: asyncio.Event) -> None:
    """Move after move until the backup is made, then two more."""
    while not backed_up.is_set():
        await move_on(session)
    for _ in range(2):
        await move_on(session)


def versions(db: Path) -> dict[int, int]:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return dict(connection.execute("SELECT id, version FROM games").fetchall())


async def run_backup(target: Path, env: dict[str, str]) -> str:
    backup = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "backup",
        "--to",
        str(target),
        env=env,
        cwd=str(ROOT),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await backup.communicate()
    assert backup.returncode == 0, err.decode()
    return out.decode()


async def test_a_backup_made_during_play_restores_and_every_game_goes_on(
    fake_gateway: FakeGateway, tmp_path: Path
) -> None:
    db = tmp_path / "live" / "montana.sqlite3"
    names = ("ana", "ben", "cy", "dee")
    users = {str(u.id): u for u in (fake_gateway.add_user(name) for name in names)}
    ana, ben, cy, dee = users.values()
    env = bot_env(fake_gateway, db)
    first = Session(fake_gateway, db, users, env)
    await start_in_process(first, ana, [(ben, "Join")])
    # a second game, in another channel, on the same bot
    second = Session(fake_gateway, db, users, env, process=first.process)
    other = fake_gateway.add_channel("second")
    lobby = (await fake_gateway.slash(cy, other, "montana", "game", "new")).original
    assert lobby is not None
    await fake_gateway.press(dee, lobby, label="Join")
    await fake_gateway.press(cy, lobby, label="Start")
    await fake_gateway.wait_until(lambda: len(fake_gateway.threads) == 2, timeout=20)
    second.thread = fake_gateway.threads[-1]
    (second.game_id,) = [game for game in versions(db) if game != first.game_id]
    await fake_gateway.wait_until(lambda: second.prompt() is not None, timeout=20)
    started = versions(db)

    backed_up = asyncio.Event()
    players = [asyncio.create_task(keep_playing(s, backed_up)) for s in (first, second)]
    # the backup is made once both games have moved, while they go on moving
    await fake_gateway.wait_until(
        lambda: all(versions(db)[g] > v for g, v in started.items()), timeout=30
    )
    copy = tmp_path / "montana-backup.sqlite3"
    said = await run_backup(copy, env)
    backed_up.set()
    await asyncio.gather(*players)
    assert said.startswith(f"Copied {db} into {copy}")
    assert first.process is not None
    assert await first.process.terminate() == 0, first.process.stderr

    in_copy = versions(copy)
    finished = versions(db)
    for game, version in in_copy.items():
        # moves were saved before the copy and after it: it was made during play
        assert started[game] < version < finished[game]
    with contextlib.closing(sqlite3.connect(copy)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    # restore (docs/operators.md, "Backups"): the copy in place of the database, the bot on it
    restored = tmp_path / "restored" / "montana.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(copy, restored)
    env = bot_env(fake_gateway, restored)
    for session in (first, second):
        session.db, session.env = restored, env
    await first.start_bot(small_pictures=True)
    second.process = first.process
    for session in (first, second):
        saved = session.saved()
        assert saved.version == in_copy[session.game_id]
        # every game whole: its state is its move log replayed
        record = {**saved.game.record(), "actions": [[p, n] for _, p, n in saved.log]}
        assert Game.replay(record).to_dict() == saved.game.to_dict()
        # the restored bot posted every game's prompt afresh: the players' messages had
        # moved on since the copy (their buttons are those of later versions)
        assert session.thread is not None
        version = saved.version
        await fake_gateway.wait_until(
            lambda s=session, v=version: s.prompt(v) is not None,  # type: ignore[misc]
            timeout=20,
        )
        assert session.prompt() == session.prompt(version), "only the fresh prompt has buttons"
        assert await move_on(session) > saved.version
    assert await first.process.terminate() == 0, first.process.stderr


def test_a_backup_refuses_what_it_cannot_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "copy.sqlite3"
    assert backup_main(["--from", str(tmp_path / "none.sqlite3"), "--to", str(target)]) == 2
    assert "No database file at" in capsys.readouterr().err
    secret = "postgresql://bot:hunter2@db.example/montana"
    assert backup_main(["--from", secret, "--to", "montana.dump"]) == 2
    said = capsys.readouterr().err
    assert "pg_dump --format=custom --no-owner --file=montana.dump" in said
    assert "hunter2" not in said
    database = tmp_path / "m.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.commit()
    target.write_text("keep me")
    assert backup_main(["--from", str(database), "--to", str(target)]) == 2
    assert "exists already" in capsys.readouterr().err and target.read_text() == "keep me"
    assert not list(tmp_path.glob(".*partial"))


async def test_a_postgres_dump_restored_and_readied_lets_every_game_go_on(
    fake_discord: FakeDiscord, postgres_server: ThrowawayPostgres, tmp_path: Path
) -> None:
    """The operators' guide's commands: pg_dump while the bot plays, pg_restore into an empty
    database, `restored`, and the bot started on it."""

    def bot_on(database: str) -> MontanaBot:
        return MontanaBot(Settings(token=None, db_path=database), seed_source=random.Random(2))

    async def next_move(table: Table, game_id: int) -> None:
        _, game = await table.game(game_id)
        assert game.awaiting is not None
        assert await table.tap_move(game_id, game.legal_actions(game.awaiting)[0]) is not None

    live = postgres_server.create_database()
    table = Table(fake_discord, bot_on(live))
    await fake_discord.start(table.bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await next_move(table, game_id)
    dumped = (await table.row(game_id)).version
    dump = tmp_path / "montana.dump"
    pg_dump = [str(postgres_server.bin / "pg_dump"), "--format=custom", "--no-owner"]
    subprocess.run([*pg_dump, f"--file={dump}", live], check=True, capture_output=True)
    for _ in range(2):  # the game goes on after the dump
        await next_move(table, game_id)
    assert (await table.row(game_id)).version > dumped
    await fake_discord.stop(table.bot)

    restored = postgres_server.create_database()
    pg_restore = [str(postgres_server.bin / "pg_restore"), "--no-owner"]
    subprocess.run(
        [*pg_restore, f"--dbname={restored}", str(dump)], check=True, capture_output=True
    )
    assert await asyncio.to_thread(restored_main, ["--db", restored]) == 0
    again = Table(fake_discord, bot_on(restored), users=table.users)
    await fake_discord.start(again.bot)
    row = await again.row(game_id)
    assert row.version == dumped
    # at start the bot posted the game's prompt afresh, for the restored version
    prompt = again.prompt_message(row)
    versions = {custom_id.split(":")[2] for custom_id in prompt.custom_ids()}
    assert versions == {str(dumped)}
    await next_move(again, game_id)
    assert (await again.row(game_id)).version > dumped
