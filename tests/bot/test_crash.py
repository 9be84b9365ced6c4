"""SIGKILL in the middle of a stream of moves: nothing answered is lost, nothing is torn.

The bot runs as a separate process (`python -m bot`) against the loopback fake
Discord and a database file. Its players tap through their moves; now and then a
press is sent and the process is killed a moment later (at once, while deferring,
while saving, while drawing, while posting). After every restart on the same file:

* the saved state is exactly what replaying the saved move log gives;
* every move the bot ever showed the players (a prompt carrying a newer version) is
  in the log, at the version it was made on;
* the buttons on the newest message either still work, or say the prompt is out of
  date (then `/montana board` posts a fresh one);

and finally the game is played on to its end.

To keep the game short enough, the restarted bot of the last round draws small
pictures (same bot, `PillowRenderer` patched, see `bot_main_with_small_pictures`), in a
thread of its process: picture worker processes would import their own, unpatched
renderer and draw full pictures (`Session.full_pictures` checks none was). The rounds
with kills use the real renderer in its worker processes, so kills land while a
picture is drawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.delivery.pictures import blank_png
from rules import Action, Game
from rules.simulate import choose_action
from tests.bot.driver import codes_on, path_to
from tests.bot.fakediscord import FakeChannel, FakeMessage, FakeUser, InteractionResult
from tests.bot.fakegateway import BotProcess, FakeGateway

ROOT = Path(__file__).resolve().parents[2]
KILL_DELAYS = (0.0, 0.01, 0.04, 0.08, 0.15, 0.3)
"""Seconds between sending a press and SIGKILL, one per round."""
MOVES_BETWEEN_KILLS = 4
SMALL_PICTURES = "MONTANA_TEST_SMALL_PICTURES"
TINY = blank_png()


def bot_main_with_small_pictures() -> None:
    """`python -m bot`, drawing a tiny PNG (`blank_png`) instead of the real picture (for
    long runs); `Session.start_bot` has it draw in a thread, where the patch holds."""
    import bot.__main__
    from bot.core.play.service import PillowRenderer

    def tiny(*args: Any, **kwargs: Any) -> bytes:
        return blank_png()

    PillowRenderer.game_picture = tiny  # type: ignore[method-assign]
    PillowRenderer.board_picture = tiny  # type: ignore[method-assign]
    sys.exit(bot.__main__.main([]))


@dataclass
class Saved:
    """The game as the database file holds it."""

    row: dict[str, Any]
    log: list[tuple[int, str, str]]

    @property
    def version(self) -> int:
        return int(self.row["version"])

    @property
    def state(self) -> dict[str, Any]:
        """The engine's state, its move log put back (it is saved without it: the moves
        table holds it), as the store reads it."""
        state: dict[str, Any] = json.loads(self.row["state"])
        state.setdefault("log", [[player, notation] for _, player, notation in self.log])
        return state

    @property
    def game(self) -> Game:
        return Game.from_dict(self.state)


@dataclass
class Session:
    gateway: FakeGateway
    db: Path
    users: dict[str, FakeUser]
    env: dict[str, str]
    game_id: int = 0
    thread: FakeChannel | None = None
    process: BotProcess | None = None
    made: list[tuple[int, str, str]] = field(default_factory=list)
    """(version before, player, notation) of every move whose press was sent."""
    small_since: int | None = None
    """Requests recorded before the bot drawing small pictures started (None: none did)."""

    async def start_bot(self, *, small_pictures: bool = False) -> None:
        env = dict(self.env)
        command = [sys.executable, "-m", "bot"]
        self.small_since = len(self.gateway.recorded) if small_pictures else None
        if small_pictures:
            # in a thread of the bot's process, where the patched renderer is: picture
            # worker processes would start their own, unpatched
            env["MONTANA_PICTURE_PROCESSES"] = "0"
            command = [
                sys.executable,
                "-c",
                "from tests.bot.test_crash import bot_main_with_small_pictures as main; main()",
            ]
        self.process = await self.gateway.spawn(*command, env=env, cwd=str(ROOT))
        await self.gateway.wait_connected(timeout=60)

    async def kill_bot(self) -> None:
        assert self.process is not None
        await self.process.kill()
        await self.gateway.wait_disconnected()

    def saved(self) -> Saved:
        with contextlib.closing(sqlite3.connect(self.db)) as connection:
            connection.row_factory = sqlite3.Row
            row = connection.execute("SELECT * FROM games WHERE id = ?", (self.game_id,)).fetchone()
            log = connection.execute(
                "SELECT version, player, notation FROM moves WHERE game_id = ? ORDER BY version",
                (self.game_id,),
            ).fetchall()
        return Saved(dict(row), [(int(v), str(p), str(n)) for v, p, n in log])

    def shown_version(self) -> int:
        """The newest state version whose prompt the bot ever sent to the players."""
        shown = 0
        for request in self.gateway.recorded:
            for custom_id in _custom_ids(request.json):
                parts = custom_id.split(":")
                if parts[0] in ("mt", "ms") and parts[1] == str(self.game_id):
                    shown = max(shown, int(parts[2]))
        return shown

    def full_pictures(self) -> list[int]:
        """The sizes of the pictures other than the tiny one that the bot sent since it
        started drawing small pictures."""
        assert self.small_since is not None, "the bot does not draw small pictures"
        return [
            len(data)
            for request in self.gateway.recorded[self.small_since :]
            for data in request.files.values()
            if data != TINY
        ]

    def prompt(self, version: int | None = None) -> FakeMessage | None:
        """The newest message in the thread with buttons (of state `version`, if given)."""
        assert self.thread is not None
        for message in reversed(self.gateway.messages_in(self.thread)):
            ids = [c for c in message.custom_ids() if c.startswith(("mt:", "ms:"))]
            if ids and (version is None or any(c.split(":")[2] == str(version) for c in ids)):
                return message
        return None


def _custom_ids(body: Any) -> list[str]:
    found: list[str] = []
    if isinstance(body, dict):
        if isinstance(body.get("custom_id"), str):
            found.append(body["custom_id"])
        for value in body.values():
            found += _custom_ids(value)
    elif isinstance(body, list):
        for value in body:
            found += _custom_ids(value)
    return found


def check_consistent(session: Session) -> Saved:
    """The file after a crash: state == replay(log), and no shown move is missing."""
    saved = session.saved()
    game = saved.game
    assert [v for v, _, _ in saved.log] == list(range(1, saved.version + 1))
    assert game.version == saved.version
    record = {**game.record(), "actions": [[p, n] for _, p, n in saved.log]}
    assert Game.replay(record).to_dict() == game.to_dict(), "the state is not its log replayed"
    shown = session.shown_version()
    assert saved.version >= shown, f"the bot showed version {shown} but saved {saved.version}"
    for version_before, pid, notation in session.made:
        if version_before < shown:  # answered: the move must be there, where it was made
            assert saved.log[version_before][1:] == (pid, notation), (version_before, notation)
    return saved


async def press_path(
    session: Session, user: FakeUser, message: FakeMessage, path: list[str]
) -> tuple[FakeMessage, str]:
    """Tap the panels of `path` (all but its last code); the message and code left to press."""
    for code in path[:-1]:
        opened = await press(session, user, message, code)
        assert opened.original is not None, opened
        message = opened.original
    return message, path[-1]


async def press(
    session: Session,
    user: FakeUser,
    message: FakeMessage,
    code: str,
    *,
    timeout: float | None = None,
    expect_response: bool = True,
) -> InteractionResult:
    kind, custom_id = codes_on(message)[code]
    gateway = session.gateway
    if kind == "button":
        return await gateway.press(
            user, message, custom_id, timeout=timeout, expect_response=expect_response
        )
    return await gateway.select(
        user, message, custom_id, [code], timeout=timeout, expect_response=expect_response
    )


async def next_move(
    session: Session, rng: random.Random
) -> tuple[Saved, str, Action, FakeMessage | None, list[str]] | None:
    """The awaited player's random move, its prompt and the taps leading to it (no taps
    when no button leads there); None when the game is over."""
    saved = session.saved()
    game = saved.game
    if game.is_over:
        return None
    pid, action = choose_action(game, rng)
    message = session.prompt(saved.version)
    if message is None:
        return saved, pid, action, None, []
    names = {pid: pid for pid in game.player_ids}
    path = path_to(game, pid, names, list(codes_on(message)), f"a:{action}")
    return saved, pid, action, message, path or []


async def make_move(session: Session, rng: random.Random) -> bool:
    """One move, tapped (or typed when no button leads to it); False when the game is over."""
    found = await next_move(session, rng)
    if found is None:
        return False
    saved, pid, action, message, path = found
    user = session.users[pid]
    session.made.append((saved.version, pid, str(action)))
    if message is None or not path:
        assert session.thread is not None
        typed = await session.gateway.slash(
            user,
            session.thread,
            "montana",
            "play",
            options={"move": str(action)},
            until=lambda r: session.saved().version > saved.version,
        )
        assert typed.ephemeral, typed
        return True
    message, code = await press_path(session, user, message, path)
    result = await press(session, user, message, code)
    assert "out of date" not in result.text, result
    await session.gateway.wait_until(
        lambda: session.shown_version() > saved.version or session.saved().game.is_over,
        timeout=30,
    )
    return True


async def crash_round(session: Session, rng: random.Random, delay: float) -> None:
    """A press, SIGKILL `delay` s later, a restart, and the checks after it."""
    while True:
        found = await next_move(session, rng)
        assert found is not None, "the game ended before the crash rounds did"
        if found[3] is not None and found[4]:
            break
        assert await make_move(session, rng)  # a typed move; the round needs a tapped one
    saved, pid, action, prompt, path = found
    assert prompt is not None
    user = session.users[pid]
    message, code = await press_path(session, user, prompt, path)
    session.made.append((saved.version, pid, str(action)))
    doomed = asyncio.create_task(
        press(session, user, message, code, timeout=5, expect_response=False)
    )
    await asyncio.sleep(delay)
    await session.kill_bot()
    doomed.cancel()
    with contextlib.suppress(asyncio.CancelledError, TimeoutError):
        await doomed
    after_kill = check_consistent(session)
    if after_kill.version > saved.version:  # saved before the kill: it is the pressed move
        assert after_kill.log[saved.version][1:] == (pid, str(action))
    else:
        assert after_kill.version == saved.version
        # lost with the process before it was saved: never answered, so not owed; a
        # later move made from the same version takes its place in the log
        assert session.made.pop() == (saved.version, pid, str(action))
    print(
        f"kill after {delay}s: pressed at v{saved.version}, saved v{after_kill.version}, "
        f"shown v{session.shown_version()}"
    )
    await session.start_bot()
    assert check_consistent(session).version == after_kill.version
    await old_buttons_after_restart(session, after_kill)


async def old_buttons_after_restart(session: Session, saved: Saved) -> None:
    """The newest buttons the players have: they work, or say they are out of date."""
    message = session.prompt()
    assert message is not None and session.thread is not None
    awaited = saved.game.awaiting
    assert awaited is not None
    user = session.users[awaited]
    (version,) = {int(c.split(":")[2]) for c in message.custom_ids()}
    if version == saved.version:
        # current: the next move is tapped on these very buttons (see `make_move`)
        assert session.prompt(saved.version) is message
        assert await make_move(session, random.Random(version))
        return
    # the bot died after saving the move but before showing it: the prompt is stale
    code = next(c for c in codes_on(message) if c.startswith(("a:", "p:")))
    stale = await press(session, user, message, code)
    assert "out of date" in stale.text, stale
    assert session.saved().version == saved.version
    reposted = await session.gateway.slash(
        user,
        session.thread,
        "montana",
        "board",
        until=lambda r: session.prompt(saved.version) is not None,
    )
    assert reposted.ephemeral


async def test_sigkill_mid_stream_loses_no_answered_move(tmp_path: Path) -> None:
    async with FakeGateway(quiet_period=0.02) as gateway:
        users = {str(u.id): u for u in (gateway.add_user("ana"), gateway.add_user("ben"))}
        env = {
            **os.environ,
            "DISCORD_TOKEN": "fake-token-crash-test",
            "MONTANA_DB": str(tmp_path / "m.sqlite3"),
            "MONTANA_GUILD_ID": str(gateway.guild_id),
            "PYTHONPATH": str(ROOT),
        }
        env.pop(SMALL_PICTURES, None)
        session = Session(gateway, tmp_path / "m.sqlite3", users, env)
        await session.start_bot()
        await gateway.wait_until(lambda: gateway.requests("PUT /applications"), timeout=20)
        ana, ben = users.values()
        created = await gateway.slash(ana, gateway.channel, "montana", "game", "new")
        lobby = created.original
        assert lobby is not None
        await gateway.press(ben, lobby, label="Join")
        await gateway.press(ana, lobby, label="Start")
        await gateway.wait_until(lambda: gateway.threads, timeout=20)
        session.thread = gateway.threads[-1]
        await gateway.wait_until(lambda: session.prompt() is not None, timeout=20)
        with contextlib.closing(sqlite3.connect(session.db)) as connection:
            (session.game_id,) = connection.execute("SELECT id FROM games").fetchone()
        rng = random.Random(3)
        rounds = 0
        for delay in KILL_DELAYS:
            for _ in range(MOVES_BETWEEN_KILLS):
                assert await make_move(session, rng)
            # a round needs a button move; skip ahead over typed-only builds
            while (found := await next_move(session, rng)) is not None and not found[4]:
                assert await make_move(session, rng)
            await crash_round(session, rng, delay)
            rounds += 1
        assert rounds == len(KILL_DELAYS)
        # the last restart: play on to the end (small pictures keep it quick)
        assert session.process is not None and await session.process.terminate() == 0
        await gateway.wait_disconnected()
        await session.start_bot(small_pictures=True)
        moves = 0
        while await make_move(session, rng):
            moves += 1
            assert moves < 3000
            if moves == 1:  # at once, not after a long game of full pictures
                assert session.full_pictures() == [], "tiny pictures only"
        print(f"{moves} moves to the end")
        final = check_consistent(session)
        assert final.row["status"] == "finished" and final.game.is_over
        # the last move's post, before the game's summary (bot.core.community.ratings)
        last = [m for m in gateway.messages_in(session.thread) if "summary" not in m.content][-1]
        assert "Final ranking" in last.content
        assert last.files and session.full_pictures() == [], "tiny pictures only"
        assert session.process is not None and await session.process.terminate() == 0
        assert not gateway.errors, gateway.errors
