"""Two bot processes (`python -m bot`) on two shards of one PostgreSQL database
(issue 16.2, 16.3): each plays the games of its own guild's shard through its own
loopback fake gateway; one is killed mid-move (SIGKILL) and restarted; nothing is lost,
nothing applied twice, and a process never acts on the other shard's games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from bot.core.store import POST
from rules import Game
from tests.bot.fakegateway import FakeGateway
from tests.bot.test_crash import ROOT, SMALL_PICTURES, Saved, Session, check_consistent
from tests.bot.test_crash import crash_round as crash_round
from tests.bot.test_crash import make_move as make_move
from tests.pgserver import ThrowawayPostgres

SHARDS = 2
GUILDS = tuple(((1_000_000_000_000 + shard) << 22) | 7 for shard in range(SHARDS))
"""A guild on each shard: `(guild_id >> 22) % 2` is 0, then 1."""


class PgSession(Session):
    """`test_crash.Session` reading the game from PostgreSQL (with `psql`)."""

    server: ThrowawayPostgres
    database: str

    def sql(self, statement: str) -> str:
        done = subprocess.run(
            [
                str(self.server.bin / "psql"), "-At", "-h", "127.0.0.1",
                "-p", str(self.server.port), "-U", "postgres", "-d", self.database,
                "-c", statement,
            ],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return done.stdout.strip()

    def saved(self) -> Saved:
        row = json.loads(self.sql(f"SELECT row_to_json(g) FROM games g WHERE id = {self.game_id}"))
        lines = self.sql(
            "SELECT coalesce(json_agg(json_build_array(version, player, notation) "
            f"ORDER BY version), '[]') FROM moves WHERE game_id = {self.game_id}"
        )
        return Saved(row, [(int(v), str(p), str(n)) for v, p, n in json.loads(lines)])

    def undelivered(self, game_id: int) -> int:
        return int(
            self.sql(
                f"SELECT count(*) FROM outbox WHERE game_id = {game_id} AND delivered_at IS NULL"
            )
        )


async def start_game(session: PgSession) -> None:
    gateway = session.gateway
    await session.start_bot()
    await gateway.wait_until(lambda: gateway.requests("PUT /applications"), timeout=30)
    ana, ben = session.users.values()
    created = await gateway.slash(ana, gateway.channel, "montana", "game", "new")
    assert created.original is not None, created
    await gateway.press(ben, created.original, label="Join")
    await gateway.press(ana, created.original, label="Start")
    await gateway.wait_until(lambda: gateway.threads, timeout=30)
    session.thread = gateway.threads[-1]
    await gateway.wait_until(lambda: session.prompt() is not None, timeout=30)
    session.game_id = int(
        session.sql(
            f"SELECT id FROM games WHERE guild_id = {gateway.guild_id} AND status = 'active'"
        )
    )


async def test_two_processes_on_two_shards_lose_nothing_and_keep_to_their_games(
    postgres_server: ThrowawayPostgres, tmp_path: Path
) -> None:
    database = postgres_server.url(postgres_server.create_database().rsplit("/", 1)[1])
    async with contextlib.AsyncExitStack() as stack:
        sessions: list[PgSession] = []
        for shard, guild in enumerate(GUILDS):
            gateway = await stack.enter_async_context(
                FakeGateway(quiet_period=0.02, guild_id=guild)
            )
            users = {str(u.id): u for u in (gateway.add_user("ana"), gateway.add_user("ben"))}
            env = {
                **os.environ,
                "DISCORD_TOKEN": f"fake-token-shard-{shard}",
                "MONTANA_DB": database,
                "MONTANA_SHARD_COUNT": str(SHARDS),
                "MONTANA_SHARDS": str(shard),
                "MONTANA_GUILD_ID": str(guild),
                "PYTHONPATH": str(ROOT),
            }
            env.pop(SMALL_PICTURES, None)
            session = PgSession(gateway, tmp_path / "unused", users, env)
            session.server, session.database = postgres_server, database.rsplit("/", 1)[1]
            await start_game(session)
            sessions.append(session)
        first, second = sessions
        # each process identified as its own shard, and was told of its own guild only
        assert first.gateway.identifies[-1]["shard"] == [0, SHARDS]
        assert second.gateway.identifies[-1]["shard"] == [1, SHARDS]
        assert first.game_id != second.game_id

        # a third process claiming shard 0 is refused, with the reason
        refused = await first.gateway.spawn(
            sys.executable, "-m", "bot", env=first.env, cwd=str(ROOT)
        )
        assert await asyncio.wait_for(refused.wait(), 60) == 1
        assert "shard 0 (of 2) is already served by another bot process" in refused.stderr

        rng = random.Random(5)
        for _ in range(3):
            for session in sessions:
                assert await make_move(session, rng)

        # the first process dies mid-move and comes back: the round's checks (state ==
        # its log replayed, every shown move in the log, buttons work or say stale)
        await crash_round(first, rng, 0.04)
        assert await make_move(first, rng)

        # while the second process is down, a message its game owes waits for it: the
        # first process, restarted meanwhile, never delivers it (not its shard)
        await second.kill_bot()
        before = check_consistent(second)
        second.sql(
            "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at) VALUES "
            f"({second.game_id}, {before.version}, '{POST}', '{{}}', "
            "'2026-01-01T00:00:00.000+00:00', '2026-01-01T00:00:00.000+00:00')"
        )
        assert first.process is not None
        assert await first.process.terminate() == 0, first.process.stderr
        await first.start_bot()
        assert await make_move(first, rng)
        assert second.undelivered(second.game_id) == 1
        # its own process delivers it once back, and the game goes on
        await second.start_bot()
        await second.gateway.wait_until(lambda: second.undelivered(second.game_id) == 0, 30)
        assert await make_move(second, rng)

        # nothing applied twice, nothing torn: each log is its state, move by move
        for session in sessions:
            saved = check_consistent(session)
            assert [v for v, _, _ in saved.log] == list(range(1, saved.version + 1))
            assert Game.from_dict(saved.game.to_dict()).version == saved.version
        # the refused third process printed no traceback; neither fake saw a problem
        # other than that one's exit
        for session in sessions:
            problems = [e for e in session.gateway.errors if f"{refused.pid}" not in e]
            assert problems == [], problems
