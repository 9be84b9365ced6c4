"""A seeded chaos run: games played through `python -m bot` while Discord misbehaves.

    python -m bot.chaos --seed N --minutes M [--games G] [--players P] [--faults 5xx,kill,...]

The bot runs as its own process (drawing tiny pictures, `tests/bot/test_crash.py`'s
`bot_main_with_small_pictures`) against the loopback fake Discord
(`tests/bot/fakegateway.py`). `G` games are opened in channels of their own and played
at once by their players pressing the prompt's buttons (a legal move drawn at random,
typed with `/montana play` only when no button leads there). Meanwhile a schedule of
faults drawn from `random.Random(seed)` is applied for `M` minutes:

* ``5xx``: a burst of 500/502/503 answers to a game's posts, some performed anyway
  (Discord made the message, its answer was lost), with or without a ``Via`` header;
* ``429``: a burst of rate limits, with a ``Via`` header (discord.py waits and retries)
  or without (discord.py takes it for a Cloudflare ban and raises at once);
* ``403``: the game's thread starts refusing the bot's posts (Missing Permissions);
* ``history``: reads of a game's recent messages fail (the look for an earlier attempt);
* ``clear``: edits of a game's messages fail (clearing the old prompt's buttons);
* ``reconnect``: the gateway loses the events of a moment, asks the bot to reconnect,
  and replays them on its RESUME;
* ``kill``: SIGKILL of the bot process, restarted a moment later.

Then the run heals (no new faults, the pending ones withdrawn), settles (nothing owed
in the outbox, no request for a while), lets every game make a few more moves (no game
stalled), settles again and checks its invariants over the whole run:

* ``posted-once-in-order``: every owed post of every game is a message exactly once, in
  its game's channel or threads, in the order of the outbox, the last for the saved
  version (the invisible identity each message ends with names the owed message);
* ``one-live-prompt``: each game has one message with buttons, of its saved version;
* ``nothing-owed``: the outbox is empty;
* ``state-is-replay``: each saved state is its move log replayed from the setup;
* ``one-ping-per-decision``: no player pinged twice for the same state;
* ``no-error-press``: every press answered, and never with an error;
* ``no-stall``: every game moved after healing.

Printed: one line per fault applied (seconds since the run began), notes (what the
players met that is no verdict, the bot's warnings and tracebacks counted, where each game
plays at the end), one line per verdict (``ok`` or the violations); exit status 1 if any
invariant failed. The seed fixes the schedule of faults and every choice; how they
interleave with the bot's work still depends on timing, so one seed may break an
invariant in one run and not in the next.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.core.play import prompts
from bot.discord_app.delivery.announce import identity_of
from rules import Game
from rules.simulate import choose_action

if TYPE_CHECKING:
    from tests.bot.fakediscord import FakeChannel, FakeMessage, FakeUser, InteractionResult
    from tests.bot.fakegateway import BotProcess, FakeGateway

ROOT = Path(__file__).resolve().parents[1]
FAULT_KINDS = ("5xx", "429", "403", "history", "clear", "reconnect", "kill")
MESSAGES = "POST /channels/{id}/messages"
HISTORY = "GET /channels/{id}/messages"
EDIT = "PATCH /channels/{id}/messages/{id}"
VIA = {"Via": "1.1 google"}
MISSING_PERMISSIONS = 50013
QUIET = 1.5
"""Seconds without a request (and nothing owed) that count as settled."""
SETTLE_TIMEOUT = 60.0
MOVES_AFTER_HEALING = 2
STALL_TIMEOUT = 45.0
"""Seconds a game may take for its moves after healing before it counts as stalled."""
PROMPT_WAIT = 0.05
WENT_WRONG = "Something went wrong"


@dataclass
class Applied:
    """One fault applied: when (seconds since the run began), what."""

    at: float
    kind: str
    detail: str

    def line(self) -> str:
        return f"{self.at:7.2f}s  {self.kind:<9} {self.detail}"


@dataclass
class Table:
    """One channel where games are played one after another, and its players."""

    index: int
    channel: FakeChannel
    users: dict[str, FakeUser]
    rng: random.Random
    game_ids: list[int] = field(default_factory=list)
    moves: int = 0
    presses: int = 0
    last_move: float = field(default_factory=time.monotonic)
    longest_wait: float = 0.0

    @property
    def game_id(self) -> int:
        return self.game_ids[-1] if self.game_ids else 0


@dataclass
class Press:
    """A press (or typed move) and how it was answered."""

    table: int
    what: str
    sent: float
    result: InteractionResult


@dataclass
class Saved:
    """A game as the database file holds it."""

    row: dict[str, Any]
    log: list[tuple[int, str, str]]

    @property
    def version(self) -> int:
        return int(self.row["version"])

    @property
    def game(self) -> Game:
        state: dict[str, Any] = json.loads(self.row["state"])
        state.setdefault("log", [[player, notation] for _, player, notation in self.log])
        return Game.from_dict(state)


@dataclass
class Owed:
    id: int
    game_id: int
    version: int
    kind: str
    delivered: bool
    message_id: int | None


class Chaos:
    """One run: the fake, the bot process, the tables, the faults, the verdicts."""

    def __init__(
        self,
        gateway: FakeGateway,
        db: Path,
        *,
        seed: int,
        games: int,
        players: int = 2,
        kinds: tuple[str, ...] = FAULT_KINDS,
    ) -> None:
        self.kinds = kinds
        self.gateway = gateway
        self.db = db
        self.seed = seed
        self.rng = random.Random(seed)
        self.games = games
        self.players = players
        self.started = time.monotonic()
        self.process: BotProcess | None = None
        self.tables: list[Table] = []
        self.applied: list[Applied] = []
        self.presses: list[Press] = []
        self.disruptions: list[tuple[float, float]] = []
        """(start, end) of every moment the bot could not answer (killed, reconnecting)."""
        self.playing = True
        self.stalled: list[str] = []
        self.notes: list[str] = []
        self.restarts = 0
        self.reconnects_done = 0
        self.lines: list[str] = []
        self.echo: Callable[[str], None] = lambda line: print(line, flush=True)
        self.env = {
            **os.environ,
            "DISCORD_TOKEN": "fake-token-chaos",
            "MONTANA_DB": str(db),
            "MONTANA_GUILD_ID": str(gateway.guild_id),
            "MONTANA_PICTURE_PROCESSES": "0",
            "PYTHONPATH": str(ROOT),
        }

    def now(self) -> float:
        return time.monotonic() - self.started

    def log(self, line: str) -> None:
        self.lines.append(line)
        self.echo(line)

    # ------------------------------------------------------------------ the bot

    async def start_bot(self) -> None:
        command = [
            sys.executable,
            "-c",
            "from tests.bot.test_crash import bot_main_with_small_pictures as main; main()",
        ]
        self.process = await self.gateway.spawn(*command, env=self.env, cwd=str(ROOT))
        await self.gateway.wait_connected(timeout=60)

    async def kill_bot(self, down_for: float) -> None:
        start = time.monotonic()
        assert self.process is not None
        await self.process.kill()
        await self.gateway.wait_disconnected(timeout=20)
        await asyncio.sleep(down_for)
        await self.start_bot()
        self.restarts += 1
        self.disruptions.append((start, time.monotonic() + 1.0))

    # ------------------------------------------------------------------ the database

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.db, timeout=10)
        connection.row_factory = sqlite3.Row
        return connection

    def saved(self, game_id: int) -> Saved:
        with contextlib.closing(self._connect()) as connection:
            row = connection.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            log = connection.execute(
                "SELECT version, player, notation FROM moves WHERE game_id = ? ORDER BY version",
                (game_id,),
            ).fetchall()
        return Saved(dict(row), [(int(v), str(p), str(n)) for v, p, n in log])

    def owed(self) -> list[Owed]:
        with contextlib.closing(self._connect()) as connection:
            rows = connection.execute(
                "SELECT id, game_id, version, kind, delivered_at, message_id "
                "FROM outbox ORDER BY id"
            ).fetchall()
        return [
            Owed(
                int(r[0]),
                int(r[1]),
                int(r[2]),
                str(r[3]),
                r[4] is not None,
                None if r[5] is None else int(r[5]),
            )
            for r in rows
        ]

    def owed_now(self) -> int:
        with contextlib.closing(self._connect()) as connection:
            (count,) = connection.execute(
                "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"
            ).fetchone()
        return int(count)

    def newest_game_in(self, channel_id: int) -> tuple[int, str] | None:
        with contextlib.closing(self._connect()) as connection:
            found = connection.execute(
                "SELECT id, status FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            ).fetchone()
        return None if found is None else (int(found[0]), str(found[1]))

    # ------------------------------------------------------------------ the fake's messages

    def prompt(self, game_id: int, version: int) -> FakeMessage | None:
        """The message carrying the buttons of `game_id` at `version`, if posted."""
        for message in reversed(list(self.gateway.world.messages.values())):
            if message.deleted or message.ephemeral:
                continue
            if (game_id, version) in _states_on(message):
                return message
        return None

    def places(self, table: Table) -> set[int]:
        """The table's channel and the threads opened in it."""
        world = self.gateway.world
        return {table.channel.id} | {
            c.id for c in world.channels.values() if c.parent_id == table.channel.id
        }

    # ------------------------------------------------------------------ players

    async def open_game(self, table: Table) -> None:
        gateway = self.gateway
        first, *others = table.users.values()
        before = self.newest_game_in(table.channel.id)
        for _ in range(20):
            await self.until_connected()
            created = await gateway.slash(
                first, table.channel, "montana", "game", "new", expect_response=False
            )
            self.note_press(table, "game new", created)
            lobby = created.original
            if lobby is not None and "Join" in lobby.button_labels():
                break
            await asyncio.sleep(0.5)  # the bot was down: again
        else:
            raise RuntimeError(f"table {table.index}: no lobby")
        for user in others:
            await self.until_connected()
            self.note_press(
                table, "join", await gateway.press(user, lobby, label="Join", expect_response=False)
            )
        await self.until_connected()
        self.note_press(
            table, "start", await gateway.press(first, lobby, label="Start", expect_response=False)
        )
        deadline = time.monotonic() + 60
        while True:
            found = self.newest_game_in(table.channel.id)
            if found is not None and found != before and found[1] == "active":
                saved = self.saved(found[0])
                if self.prompt(found[0], saved.version) is not None:
                    table.game_ids.append(found[0])
                    table.last_move = time.monotonic()
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"table {table.index}: the game did not start")
            await asyncio.sleep(0.1)

    async def until_connected(self) -> None:
        while not self.gateway.connected:
            await asyncio.sleep(0.05)

    def note_press(self, table: Table, what: str, result: InteractionResult) -> None:
        table.presses += 1
        self.presses.append(Press(table.index, what, result.record.created, result))

    async def move(self, table: Table) -> bool:
        """One move of the table's game (False: nothing to do now, the prompt not yet
        posted, or the game over)."""
        saved = self.saved(table.game_id)
        if saved.row["status"] != "active":
            return False
        game = saved.game
        message = self.prompt(table.game_id, saved.version)
        if message is None or game.awaiting is None:
            return False
        pid, action = choose_action(game, table.rng)
        user = table.users[pid]
        names = {p: p for p in game.player_ids}
        codes = _codes_on(message)
        path = prompts.tap_path(game, pid, names, list(codes), f"a:{action}")
        await self.until_connected()
        if path is None:
            place = self.gateway.world.channels[message.channel_id]
            typed = await self.gateway.slash(
                user,
                place,
                "montana",
                "play",
                options={"move": str(action)},
                timeout=15,
                expect_response=False,
            )
            self.note_press(table, f"typed {action}", typed)
        else:
            for code in path:
                if code not in codes:  # the panel opened is not the one expected
                    said = message.content.replace("\n", " ")[:100]
                    self.notes.append(
                        f"table {table.index}: {code} not offered ({action}): {said!r}"
                    )
                    return False
                kind, custom_id = codes[code]
                if kind == "button":
                    result = await self.gateway.press(
                        user, message, custom_id, timeout=15, expect_response=False
                    )
                else:
                    result = await self.gateway.select(
                        user, message, custom_id, [code], timeout=15, expect_response=False
                    )
                self.note_press(table, f"{code} ({action})", result)
                if code.startswith("p:"):
                    opened = result.original
                    if opened is None:
                        return False  # not answered (the bot went down): from the start
                    message, codes = opened, _codes_on(opened)
        deadline = time.monotonic() + 20
        while self.saved(table.game_id).version == saved.version:
            if time.monotonic() > deadline:
                return False  # lost with a killed bot, or refused: pressed again
            await asyncio.sleep(0.05)
        table.moves += 1
        return True

    async def play(self, table: Table, *, moves: int | None = None) -> None:
        """Play the table's game (opening another when it ends) while `playing`, or
        until `moves` more moves were made."""
        goal = None if moves is None else table.moves + moves
        table.last_move = time.monotonic()
        while self.playing if goal is None else table.moves < goal:
            saved = self.saved(table.game_id)
            try:
                if saved.row["status"] != "active":
                    await self.open_game(table)
                    continue
                moved = await self.move(table)
            except (TimeoutError, OSError, RuntimeError, AssertionError, KeyError) as error:
                # a press the fake could not deliver (the bot went down meanwhile)
                self.notes.append(f"table {table.index}: {error!r}")
                moved = False
            if moved:
                waited = time.monotonic() - table.last_move
                table.longest_wait = max(table.longest_wait, waited)
                table.last_move = time.monotonic()
            else:
                await asyncio.sleep(PROMPT_WAIT)
            if goal is not None and time.monotonic() - table.last_move > STALL_TIMEOUT:
                self.stalled.append(
                    f"game {table.game_id} (table {table.index}) made no move for "
                    f"{STALL_TIMEOUT:.0f}s after healing (version {saved.version})"
                )
                return

    # ------------------------------------------------------------------ faults

    def schedule(self, seconds: float) -> list[tuple[float, str]]:
        """When each fault comes, drawn from the seed: about one every 3 s."""
        times: list[tuple[float, str]] = []
        at = self.rng.uniform(0.5, 2.0)
        while at < seconds:
            times.append((at, self.rng.choice(self.kinds)))
            at += self.rng.uniform(1.0, 5.0)
        return times

    async def chaos(self, seconds: float) -> None:
        start = time.monotonic()
        for at, kind in self.schedule(seconds):
            await asyncio.sleep(max(0.0, start + at - time.monotonic()))
            await self.apply(kind)

    def place_of(self, table: Table) -> FakeChannel:
        """Where the table's game plays now."""
        world = self.gateway.world
        if not table.game_id:
            return table.channel
        row = self.saved(table.game_id).row
        thread_id = row.get("thread_id")
        channel = world.channels.get(int(thread_id)) if thread_id else None
        return channel if channel is not None else table.channel

    async def apply(self, kind: str) -> None:
        rng, gateway = self.rng, self.gateway
        table = rng.choice(self.tables)
        place = self.place_of(table)
        where = f"game {table.game_id} in {'thread' if place.is_thread else 'channel'} {place.id}"
        detail = ""
        if kind == "5xx":
            status, times = rng.choice((500, 502, 503)), rng.randint(1, 4)
            performed, via = rng.random() < 0.5, rng.random() < 0.5
            gateway.inject_with(
                MESSAGES,
                status,
                headers=VIA if via else {},
                channel=place,
                times=times,
                performed=performed,
            )
            made = "made anyway, " if performed else ""
            detail = f"{times} posts answer {status} ({made}{'Via' if via else 'no Via'}), {where}"
        elif kind == "429":
            times, via = rng.randint(1, 4), rng.random() < 0.5
            retry_after = round(rng.uniform(0.1, 1.0), 2)
            gateway.inject_with(
                MESSAGES,
                429,
                headers=VIA if via else {},
                channel=place,
                times=times,
                retry_after=retry_after,
            )
            said = "Via" if via else "no Via"
            detail = f"{times} posts answer 429 retry_after={retry_after} ({said}), {where}"
        elif kind == "403":
            if not place.is_thread:
                kind, detail = "403", f"skipped: {where} plays in its channel already"
            else:
                times = rng.randint(1, 3)
                gateway.inject(
                    MESSAGES,
                    403,
                    code=MISSING_PERMISSIONS,
                    message="Missing Permissions",
                    channel=place,
                    times=times,
                )
                detail = f"the thread refuses {times} posts (403 Missing Permissions), {where}"
        elif kind == "history":
            status, times = rng.choice((500, 503, 403)), rng.randint(1, 4)
            gateway.inject(HISTORY, status, channel=place, times=times)
            detail = f"{times} history reads answer {status}, {where}"
        elif kind == "clear":
            # 503: discord.py does not retry it itself (500/502/504 it does, 5 times)
            status, times = rng.choice((503, 503, 500)), rng.randint(1, 3)
            gateway.inject(EDIT, status, channel=place, times=times)
            detail = f"{times} message edits answer {status}, {where}"
        elif kind == "reconnect":
            lost_for = round(rng.uniform(0.05, 1.0), 2)
            start = time.monotonic()
            self.log(Applied(self.now(), kind, f"events of {lost_for}s lost, then op 7").line())
            await gateway.reconnect(lost_for)
            with contextlib.suppress(TimeoutError):
                await gateway.wait_until(
                    lambda: len(gateway.resumed) > self.reconnects_done, timeout=15
                )
            self.reconnects_done = len(gateway.resumed)
            self.disruptions.append((start, time.monotonic() + 0.5))
            replayed = gateway.resumed[-1][1] if gateway.resumed else 0
            self.applied.append(Applied(self.now(), kind, f"resumed, {replayed} events replayed"))
            self.log(self.applied[-1].line())
            return
        elif kind == "kill":
            down_for = round(rng.uniform(0.2, 2.0), 2)
            self.log(Applied(self.now(), kind, f"SIGKILL, restart after {down_for}s").line())
            await self.kill_bot(down_for)
            self.applied.append(Applied(self.now(), kind, "restarted"))
            self.log(self.applied[-1].line())
            return
        self.applied.append(Applied(self.now(), kind, detail))
        self.log(self.applied[-1].line())

    def heal(self) -> None:
        withdrawn = sum(max(f.times, 0) for f in self.gateway.world.faults)
        for fault in self.gateway.world.faults:
            fault.times = 0
        self.log(f"{self.now():7.2f}s  healed    ({withdrawn} pending fault hits withdrawn)")

    async def settle(self, timeout: float = SETTLE_TIMEOUT) -> bool:
        """Wait until nothing is owed and no request came for `QUIET` seconds."""
        deadline = time.monotonic() + timeout
        recorded = len(self.gateway.recorded)
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            if len(self.gateway.recorded) != recorded:
                recorded, quiet_since = len(self.gateway.recorded), time.monotonic()
                continue
            if time.monotonic() - quiet_since >= QUIET and self.owed_now() == 0:
                self.log(f"{self.now():7.2f}s  settled")
                return True
        self.log(f"{self.now():7.2f}s  not settled after {timeout:.0f}s")
        return False

    def described(self, message: FakeMessage) -> str:
        """A message as a verdict names it: its id, where, the state of its buttons."""
        channel = self.gateway.world.channels.get(message.channel_id)
        where = "thread" if channel is not None and channel.is_thread else "channel"
        states = "/".join(str(version) for _, version in sorted(_states_on(message)))
        return f"{message.id} in its {where}, v{states or '-'}"

    def where_games_play(self) -> list[str]:
        return [
            f"game {game_id} plays in its "
            f"{'thread' if self.saved(game_id).row['thread_id'] else 'channel'}"
            for table in self.tables
            for game_id in table.game_ids
        ]

    def bot_warnings(self) -> list[str]:
        """The bot processes' warnings and errors, counted by their words."""
        said: Counter[str] = Counter()
        for process in self.gateway.processes:
            in_traceback = False
            for line in process.stderr_lines:
                if line.startswith("Traceback"):
                    in_traceback = True
                elif in_traceback and not line.startswith(" "):
                    said["traceback: " + line.strip()[:100]] += 1
                    in_traceback = False
                if " WARNING " in line or " ERROR " in line:
                    words = re.sub(r"\[[^]]*\] |\d+", "", line.split(" ", 3)[-1]).strip()
                    said[words[:100]] += 1
        return [f"bot said {count}x: {words}" for words, count in said.most_common(12)]

    # ------------------------------------------------------------------ verdicts

    def verdicts(self) -> dict[str, list[str]]:
        world = self.gateway.world
        owed = self.owed()
        by_id = {o.id: o for o in owed}
        game_table = {g: t for t in self.tables for g in t.game_ids}
        me = world.bot_user.id
        marked: dict[int, list[FakeMessage]] = {}
        stray: list[str] = []
        for message in world.messages.values():
            if message.deleted or message.ephemeral:
                continue
            if int((message.payload.get("author") or {}).get("id") or 0) != me:
                continue
            identity = identity_of(message.raw_content)
            if identity is None:
                continue
            if identity not in by_id:
                stray.append(f"message {message.id} names owed message {identity}, unknown")
                continue
            marked.setdefault(identity, []).append(message)
        found: dict[str, list[str]] = {name: [] for name in INVARIANTS}
        posted = found["posted-once-in-order"]
        posted += stray
        for game_id, table in sorted(game_table.items()):
            saved = self.saved(game_id)
            places = self.places(table)
            posts = [o for o in owed if o.game_id == game_id and o.kind == "post"]
            previous = 0
            for entry in posts:
                copies = marked.get(entry.id, [])
                if len(copies) > 1:
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) is "
                        f"{len(copies)} messages {[m.id for m in copies]}"
                    )
                recorded = world.messages.get(entry.message_id or 0)
                if entry.delivered and (recorded is None or recorded.deleted):
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) delivered "
                        f"as message {entry.message_id}, which is not there"
                    )
                elif recorded is not None and copies and copies[0].id != recorded.id:
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) recorded as "
                        f"message {recorded.id}, posted as {[m.id for m in copies]}"
                    )
                elif recorded is not None and not copies and recorded.edits == 0:
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) recorded as "
                        f"message {recorded.id}, which does not carry it"
                    )
                for copy in [*copies, *([recorded] if recorded is not None else [])]:
                    if copy.channel_id not in places:
                        posted.append(
                            f"game {game_id}: post {entry.id} in channel {copy.channel_id}, "
                            "not its game's"
                        )
                if recorded is not None:
                    if recorded.id < previous:
                        posted.append(
                            f"game {game_id}: post {entry.id} (v{entry.version}) shown before "
                            "the one owed before it"
                        )
                    previous = recorded.id
            if posts and posts[-1].version != saved.version:
                posted.append(
                    f"game {game_id}: the last post is of v{posts[-1].version}, "
                    f"saved v{saved.version}"
                )
            for entry in owed:
                if (
                    entry.game_id == game_id
                    and entry.kind != "post"
                    and len(marked.get(entry.id, [])) > 1
                ):
                    posted.append(
                        f"game {game_id}: owed {entry.kind} {entry.id} is "
                        f"{len(marked[entry.id])} messages"
                    )
            # one live prompt
            live = [
                m
                for o in owed
                if o.game_id == game_id
                for m in marked.get(o.id, [])
                if m.interactive_components()
            ]
            if saved.row["status"] == "active":
                current = [m for m in live if (game_id, saved.version) in _states_on(m)]
                if len(live) != 1 or len(current) != 1:
                    found["one-live-prompt"].append(
                        f"game {game_id} (v{saved.version}): {len(live)} messages with "
                        f"buttons ({', '.join(self.described(m) for m in live)}), "
                        f"{len(current)} of its saved version"
                    )
            elif len(live) > 1:
                found["one-live-prompt"].append(
                    f"game {game_id} (over): {len(live)} messages with buttons"
                )
            # the state is its log replayed
            game = saved.game
            problem = _replay_problem(saved, game)
            if problem:
                found["state-is-replay"].append(f"game {game_id}: {problem}")
            # one ping per decision
            pings: Counter[tuple[int, int]] = Counter()
            for o in owed:
                if o.game_id != game_id:
                    continue
                for m in marked.get(o.id, []):
                    for user_id in m.pinged_ids:
                        pings[(user_id, o.version)] += 1
            for (user_id, version), count in sorted(pings.items()):
                if count > 1:
                    found["one-ping-per-decision"].append(
                        f"game {game_id}: user {user_id} pinged {count} times for v{version}"
                    )
        waiting = [o for o in owed if not o.delivered]
        if waiting:
            found["nothing-owed"].append(
                f"{len(waiting)} owed: "
                + ", ".join(f"{o.kind} {o.id} (game {o.game_id} v{o.version})" for o in waiting[:5])
            )
        for press in self.presses:
            result = press.result
            record = result.record
            text = "" if record.response_type is None else result.text
            excused = any(start <= press.sent <= end for start, end in self.disruptions)
            if record.errors and not (excused and record.response_type is None):
                found["no-error-press"].append(f"table {press.table} {press.what}: {record.errors}")
            elif WENT_WRONG in text:
                found["no-error-press"].append(f"table {press.table} {press.what}: {text[:120]}")
            elif record.response_type is None and not excused:
                found["no-error-press"].append(f"table {press.table} {press.what}: no answer")
        found["no-stall"] += self.stalled
        errors = [e for e in world.errors if "printed a traceback" not in e]
        found["no-error-press"] += [f"the fake: {e}" for e in errors[:5]]
        return found


INVARIANTS = (
    "posted-once-in-order",
    "one-live-prompt",
    "nothing-owed",
    "state-is-replay",
    "one-ping-per-decision",
    "no-error-press",
    "no-stall",
)


def _replay_problem(saved: Saved, game: Game) -> str:
    if [v for v, _, _ in saved.log] != list(range(1, saved.version + 1)):
        return (
            f"the move log has versions {[v for v, _, _ in saved.log][-3:]}, saved v{saved.version}"
        )
    if game.version != saved.version:
        return f"the state says v{game.version}, the row v{saved.version}"
    record = {**game.record(), "actions": [[p, n] for _, p, n in saved.log]}
    if Game.replay(record).to_dict() != game.to_dict():
        return "the saved state is not its move log replayed"
    return ""


def _states_on(message: FakeMessage) -> set[tuple[int, int]]:
    """(game, version) of the game buttons on a message (`mt:<game>:<state>:<code>`)."""
    states = set()
    for custom_id in message.custom_ids():
        parts = custom_id.split(":", 3)
        if parts[0] in ("mt", "ms") and len(parts) == 4:
            with contextlib.suppress(ValueError):
                states.add((int(parts[1]), int(parts[2].split(".")[0])))
    return states


def _codes_on(message: FakeMessage) -> dict[str, tuple[str, str]]:
    """code -> ("button" | "select", custom_id) for every enabled choice on a message."""
    from tests.bot.driver import codes_on

    return codes_on(message)


@dataclass
class Report:
    applied: list[Applied]
    verdicts: dict[str, list[str]]
    moves: int
    presses: int
    restarts: int
    wall: float
    cpu: float
    notes: list[str] = field(default_factory=list)
    """What the players met that is no verdict (a press lost with a killed bot)."""

    @property
    def ok(self) -> bool:
        return not any(self.verdicts.values())


async def run(
    seed: int,
    minutes: float,
    games: int = 3,
    *,
    players: int = 2,
    folder: str | None = None,
    kinds: tuple[str, ...] = FAULT_KINDS,
    echo: Callable[[str], None] | None = None,
) -> Report:
    """One chaos run; the faults applied and the verdicts."""
    from tests.bot.fakegateway import FakeGateway

    wall, cpu = time.perf_counter(), _cpu()
    with tempfile.TemporaryDirectory(prefix="montana-chaos-") as scratch:
        db = Path(folder or scratch) / f"chaos-{seed}.sqlite3"
        async with FakeGateway(quiet_period=0.02) as gateway:
            chaos = Chaos(gateway, db, seed=seed, games=games, players=players, kinds=kinds)
            if echo is not None:
                chaos.echo = echo
            await chaos.start_bot()
            await gateway.wait_until(lambda: gateway.requests("PUT /applications"), timeout=30)
            for index in range(games):
                channel = gateway.add_channel(f"chaos-{index}")
                users = {}
                for seat in range(players):
                    user = gateway.add_user(f"c{index}p{seat}")
                    users[str(user.id)] = user
                chaos.tables.append(
                    Table(index, channel, users, random.Random(seed * 1000 + index))
                )
            await asyncio.gather(*(chaos.open_game(t) for t in chaos.tables))
            chaos.log(f"{chaos.now():7.2f}s  {games} games started, chaos for {minutes * 60:.0f}s")
            players_task = asyncio.gather(*(chaos.play(t) for t in chaos.tables))
            try:
                await chaos.chaos(minutes * 60)
            finally:
                chaos.playing = False
                await players_task
            chaos.heal()
            await chaos.settle()
            await asyncio.gather(*(chaos.play(t, moves=MOVES_AFTER_HEALING) for t in chaos.tables))
            await chaos.settle()
            verdicts = chaos.verdicts()
            if chaos.process is not None:
                await chaos.process.terminate()
            report = Report(
                chaos.applied,
                verdicts,
                sum(t.moves for t in chaos.tables),
                sum(t.presses for t in chaos.tables),
                chaos.restarts,
                time.perf_counter() - wall,
                _cpu() - cpu,
                [*chaos.notes, *chaos.bot_warnings(), *chaos.where_games_play()],
            )
    return report


def _cpu() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=1.0, help="how long faults come")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--faults", default=",".join(FAULT_KINDS), help="the fault kinds drawn from"
    )
    args = parser.parse_args(argv)
    kinds = tuple(k for k in args.faults.split(",") if k)
    unknown = [k for k in kinds if k not in FAULT_KINDS]
    if unknown:
        parser.error(f"unknown fault kinds {unknown}; known: {', '.join(FAULT_KINDS)}")
    report = asyncio.run(
        run(args.seed, args.minutes, args.games, players=args.players, kinds=kinds)
    )
    print(
        f"seed {args.seed}: {len(report.applied)} faults, {report.moves} moves, "
        f"{report.presses} presses, {report.restarts} restarts; "
        f"wall {report.wall:.1f}s, CPU {report.cpu:.1f}s (with the bot's)"
    )
    for note in report.notes[:25]:
        print(f"note: {note}")
    for name in INVARIANTS:
        problems = report.verdicts[name]
        print(f"{name:<22} {'ok' if not problems else 'VIOLATED'}")
        for problem in problems[:10]:
            print(f"    {problem}")
        if len(problems) > 10:
            print(f"    ... {len(problems) - 10} more")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
