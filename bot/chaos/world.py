"""What a chaos run knows and reads: the bot process, the database, the fake's messages,
healing and settling (`ChaosWorld`, the base of `Chaos`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.chaos.model import (
    FAULT_KINDS,
    QUIET,
    ROOT,
    SETTLE_TIMEOUT,
    Applied,
    Owed,
    Press,
    Saved,
    Table,
    states_on,
)

if TYPE_CHECKING:
    from tests.bot.fakediscord import FakeMessage
    from tests.bot.fakegateway import BotProcess, FakeGateway


class ChaosWorld:
    """One run's state: the fake, the bot process, the tables, what happened."""

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
        self.cut_short: set[int] = set()
        """Interactions the bot had received but not yet answered when it was killed."""
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
        self.cut_short |= {
            record.id for record in self.gateway.world.in_flight if record.response_type is None
        }
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
            if (game_id, version) in states_on(message):
                return message
        return None

    def places(self, table: Table) -> set[int]:
        """The table's channel and the threads opened in it."""
        world = self.gateway.world
        return {table.channel.id} | {
            c.id for c in world.channels.values() if c.parent_id == table.channel.id
        }

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
        states = "/".join(str(version) for _, version in sorted(states_on(message)))
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
