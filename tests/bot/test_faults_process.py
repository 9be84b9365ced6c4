"""When the process misbehaves (issue 10): a kill at the wrong moment of a move, a second
bot on the same database, a database that cannot be opened.

The kills run `python -m bot` against the loopback fake Discord, which kills the process
at a chosen point: the request of the prompt's post is served (Discord made the message)
and the bot dies before it hears back.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import bot.core.store as store_module
from bot.core.runtime.errors import StartupError
from bot.core.store import Store
from rules import Action
from tests.bot.driver import codes_on, path_to
from tests.bot.fakediscord import FakeMessage, FakeUser
from tests.bot.fakegateway import FakeGateway
from tests.bot.test_crash import ROOT, Session, press, press_path

MESSAGES = "POST /channels/{id}/messages"
HISTORY = "GET /channels/{id}/messages"


def bot_env(gateway: FakeGateway, db: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DISCORD_TOKEN": "fake-token-faults-test",
        "MONTANA_DB": str(db),
        "MONTANA_GUILD_ID": str(gateway.guild_id),
        "PYTHONPATH": str(ROOT),
    }


async def started_game(gateway: FakeGateway, db: Path) -> Session:
    """A bot process and a two-player game in its thread, its first prompt posted."""
    users = {str(u.id): u for u in (gateway.add_user("ana"), gateway.add_user("ben"))}
    session = Session(gateway, db, users, bot_env(gateway, db))
    ana, ben = users.values()
    return await start_in_process(session, ana, [(ben, "Join")])


async def start_in_process(
    session: Session, opener: FakeUser, seating: Sequence[tuple[FakeUser, str]]
) -> Session:
    """Start the session's bot process; `opener` opens a game, each (user, label) of
    `seating` presses that lobby button, the opener starts; its first prompt posted."""
    gateway = session.gateway
    await session.start_bot(small_pictures=True)
    await gateway.wait_until(lambda: gateway.requests("PUT /applications"), timeout=20)
    lobby = (await gateway.slash(opener, gateway.channel, "montana", "game", "new")).original
    assert lobby is not None
    for user, label in seating:
        await gateway.press(user, lobby, label=label)
    await gateway.press(opener, lobby, label="Start")
    await gateway.wait_until(lambda: gateway.threads, timeout=20)
    session.thread = gateway.threads[-1]
    await gateway.wait_until(lambda: session.prompt() is not None, timeout=20)
    with contextlib.closing(sqlite3.connect(session.db)) as connection:
        (session.game_id,) = connection.execute("SELECT id FROM games").fetchone()
    return session


async def tap(session: Session, action: Action) -> tuple[FakeMessage, str]:
    """Open the panels leading to `action`: the message and code left to press."""
    saved = session.saved()
    game = saved.game
    pid = game.awaiting
    assert pid is not None
    prompt = session.prompt(saved.version)
    assert prompt is not None
    path = path_to(
        game, pid, {p: p for p in game.player_ids}, list(codes_on(prompt)), f"a:{action}"
    )
    assert path, f"no buttons lead to {action}"
    return await press_path(session, session.users[pid], prompt, path)


async def to_a_hand_over(session: Session) -> Action:
    """Play the awaited player's first choices up to the one that hands the turn over."""
    while True:
        saved = session.saved()
        game = saved.game
        pid = game.awaiting
        assert pid is not None
        action = game.legal_actions(pid)[0]
        probe = game.copy()
        probe.apply(pid, action)
        if probe.awaiting != pid:
            return action
        message, code = await tap(session, action)
        await press(session, session.users[pid], message, code)
        await shown_after(session, saved.version)


async def shown_after(session: Session, version: int) -> None:
    await session.gateway.wait_until(lambda: shown(session) > version, timeout=20)


def shown(session: Session) -> int:
    """The version whose prompt the database records as posted."""
    return int(session.saved().row["prompt_version"] or 0)


async def killed_once_discord_made_the_prompt(session: Session) -> FakeMessage:
    """Hand the turn over; the bot dies right after Discord created the new prompt.
    Returns the prompt the players see."""
    gateway = session.gateway
    assert session.thread is not None and session.process is not None
    action = await to_a_hand_over(session)
    saved = session.saved()
    before = session.prompt(saved.version)
    assert before is not None
    message, code = await tap(session, action)
    user = session.users[saved.game.awaiting or ""]
    process = session.process

    async def sigkill() -> None:  # before the answer goes out
        process.process.kill()

    fault = gateway.inject(MESSAGES, channel=session.thread, then=sigkill)
    pressed = asyncio.create_task(press(session, user, message, code, timeout=5))
    await gateway.wait_disconnected(timeout=20)
    assert await process.wait() != 0
    with contextlib.suppress(asyncio.CancelledError, TimeoutError):
        await pressed
    assert fault.hits == 1
    (made,) = [m for m in gateway.messages_in(session.thread) if m.id > before.id]
    assert session.saved().version > saved.version and shown(session) == saved.version
    return made


async def test_a_kill_after_discord_made_the_prompt_leaves_it_posted_once_after_the_restart(
    tmp_path: Path,
) -> None:
    async with FakeGateway(quiet_period=0.02) as gateway:
        session = await started_game(gateway, tmp_path / "m.sqlite3")
        thread = session.thread
        assert thread is not None
        for looking_refused in (False, True):
            made = await killed_once_discord_made_the_prompt(session)
            if looking_refused:
                # the restarted bot cannot read the thread's history: the nonce it sends
                # again makes Discord hand back the message it made
                gateway.inject(HISTORY, 403, code=50001, message="Missing Access", channel=thread)
            await session.start_bot(small_pictures=True)
            await gateway.wait_until(lambda: shown(session) == session.saved().version, timeout=20)
            saved = session.saved()
            awaited = saved.game.awaiting
            assert [m for m in gateway.messages_in(thread) if m.id >= made.id] == [made]
            assert made.pinged_ids == [int(awaited or 0)] and made.interactive_components()
            assert (saved.row["message_id"], shown(session)) == (made.id, saved.version)
            live = [m for m in gateway.messages_in(thread) if m.interactive_components()]
            assert live == [made], "the previous prompt's buttons are cleared"
        assert session.process is not None and await session.process.terminate() == 0
        assert not gateway.errors, gateway.errors


# ------------------------------------------------------------------ one bot per database


async def test_a_second_bot_on_the_same_database_refuses_to_start_with_one_line(
    fake_gateway: FakeGateway, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    env = bot_env(fake_gateway, db)
    first = await fake_gateway.spawn(sys.executable, "-m", "bot", env=env)
    await fake_gateway.wait_connected(timeout=30)
    second = await fake_gateway.spawn(sys.executable, "-m", "bot", env=env)
    assert await asyncio.wait_for(second.wait(), 30) == 1
    last = second.stderr.strip().splitlines()[-1]
    assert last.startswith(
        f"the database {db} is in use by another bot process (pid {first.pid}); stop it first"
    )
    assert "Traceback" not in second.stderr
    # the first one goes on answering alone
    ana = fake_gateway.add_user("ana")
    created = await fake_gateway.slash(ana, fake_gateway.channel, "montana", "game", "new")
    assert created.original is not None and "Join" in created.original.button_labels()
    assert await first.terminate() == 0


def test_a_second_store_on_the_same_file_is_refused_until_the_first_closes(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        path = str(tmp_path / "m.sqlite3")
        first = await Store.open(path, exclusive=True)
        with pytest.raises(StartupError) as refused:
            await Store.open(path, exclusive=True)
        assert str(refused.value) == (
            f"the database {path} is in use by another bot process (pid {os.getpid()}); "
            "stop it first"
        )
        await first.close()
        again = await Store.open(path, exclusive=True)  # the lock went with the first
        await again.close()

    with no_thread_left_behind():
        asyncio.run(scenario())


# ------------------------------------------------------------------ cannot be opened


@contextlib.contextmanager
def no_thread_left_behind() -> Iterator[None]:
    """The database's threads are all gone afterwards (a live one keeps a process alive)."""

    def workers() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if "connection_worker" in t.name]

    before = set(workers())
    yield
    for thread in set(workers()) - before:
        thread.join(timeout=2)
    assert [t for t in workers() if t not in before and t.is_alive()] == []


def test_a_database_that_cannot_be_opened_is_one_line_and_leaves_nothing_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "WRITE_WAIT_SECONDS", 0.1, raising=False)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is no database, just a file that is long enough" * 40)
    locked = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(locked, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the file
    cases = {
        garbage: "the file is not a database",
        locked: "is locked by another program",
        tmp_path: "cannot be opened",  # a folder, not a file
        Path("/proc/montana/m.sqlite3"): "cannot be opened",  # a place nothing can be written
    }
    try:
        for path, why in cases.items():
            with no_thread_left_behind(), pytest.raises(StartupError) as failed:
                asyncio.run(Store.open(str(path)))
            line = str(failed.value)
            assert why in line and str(path) in line and "\n" not in line, line
    finally:
        holder.close()


async def test_the_bot_exits_with_one_line_when_its_database_cannot_be_opened(
    fake_gateway: FakeGateway, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    db.write_bytes(b"not a database at all, but long enough to be read as one" * 40)
    process = await fake_gateway.spawn(sys.executable, "-m", "bot", env=bot_env(fake_gateway, db))
    assert await asyncio.wait_for(process.wait(), 30) == 1  # never hangs
    last = process.stderr.strip().splitlines()[-1]
    assert last.startswith(f"the database {db} cannot be opened: the file is not a database")
    assert "Traceback" not in process.stderr
