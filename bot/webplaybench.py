"""`python -m bot.webbench --play`: taps on the board beside presses in Discord (issue 38).

    python -m bot.webbench --play [--games 50] [--pages 500] [--pressed 10] [--moves 4]
                                  [--think 5] [--pairs 2] [--db FILE|URL|postgres] [--seed 1]

The bot (this process: the bot of `bot.bench` against the in-process fake Discord, every
picture drawn by its picture workers) serves the game pages itself, as it does when it
owns the web port: signing in with Discord (against the fake Discord's OAuth2) and the
page's moves go through its game service. `--games` games of two are played by tapping
on their pages only: each game's tapping page (an in-process aiohttp client, signed in
as both players in turn) keeps its event stream open, posts the move
(`POST /g/<token>/move`), waits for the stream's event of the new version and fetches
the new picture; tap -> picture shown is that whole span. `--pages` watching pages
(event streams that fetch each new picture, in a process of their own at a lower
priority: `bot.webbench`'s readers) are spread over those games for the whole run.
Beside them `--pressed` games are played through the Discord buttons (`bot.bench`).

Rounds of `--moves` moves per game alternate: one where only the pressed games move,
then one where the tapped games move too (`--pairs` of each), so that the machine's
drift falls on both alike. Printed: tap -> picture shown (wall median, p99, max; aim
p99 <= 500 ms), the Discord press -> picture posted in the rounds with and without taps,
and this process's CPU per move in each kind of round (median over rounds), then the
run's wall and CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp
from aiohttp.test_utils import TestServer

from rules import Game
from rules.simulate import choose_action

from .bench import OPENING_AT_ONCE, Bench, Table, _tables, cpu_seconds, percentile, spread

TAP_AIM = 0.5
"""Issue 38: a tap's picture is shown on the tapping page within 500 ms (p99)."""
CLIENT_ID = "424242424242424242"
SECRET = "not-the-real-secret"


@dataclass
class Stream:
    """A tapping page's event stream: the newest version it was told of."""

    version: int = -1
    mark: str = ""
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def follow(self, http: aiohttp.ClientSession, base: str) -> None:
        async with http.get(f"{base}/events?lang=en") as stream:
            async for line in stream.content:
                text = line.decode().strip()
                if not text.startswith("data: "):
                    continue
                mark = json.loads(text[len("data: ") :])["mark"]
                async with self.changed:
                    self.version, self.mark = int(mark.split("-")[0]), mark
                    self.changed.notify_all()

    async def at_least(self, version: int) -> str:
        async with self.changed:
            await self.changed.wait_for(lambda: self.version >= version)
            return self.mark


@dataclass
class Tapper:
    """One game played from its page: the players' sessions, the page's stream."""

    table: Table
    token: str
    sessions: dict[str, tuple[str, str]]
    """Player id -> (cookie, CSRF token)."""
    stream: Stream = field(default_factory=Stream)
    taps: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


async def _sign_in(
    http: aiohttp.ClientSession, site: str, oauth: Any, user: Any
) -> tuple[str, str]:
    """Sign `user` in as a browser does (the redirects followed by hand)."""
    from bot.web.signin import LOGIN_COOKIE, SESSION_COOKIE
    from tests.bot.test_web_board import _cookie

    oauth.consenting = user
    async with http.get(f"{site}/signin?back=/", allow_redirects=False) as r:
        state = _cookie(r.headers.getall("Set-Cookie", []), LOGIN_COOKIE)
        authorize = r.headers["Location"]
    async with http.get(authorize, allow_redirects=False) as r:
        callback = r.headers["Location"]
    async with http.get(
        callback, headers={"Cookie": f"{LOGIN_COOKIE}={state}"}, allow_redirects=False
    ) as r:
        assert r.status == 302, (r.status, await r.text())
        cookie = f"{SESSION_COOKIE}={_cookie(r.headers.getall('Set-Cookie', []), SESSION_COOKIE)}"
    async with http.get(f"{site}/signin/me.json", headers={"Cookie": cookie}) as r:
        me = await r.json()
    return cookie, str(me["csrf"])


async def _tap_round(
    tapper: Tapper,
    http: aiohttp.ClientSession,
    site: str,
    bench: Bench,
    moves: int,
    rng: random.Random,
) -> int:
    """`moves` moves tapped on `tapper`'s page; how many were made."""
    from bot.web.signin import CSRF_HEADER

    base = f"{site}/g/{tapper.token}"
    made = 0
    for _ in range(moves):
        if bench.think:
            await asyncio.sleep(rng.expovariate(1 / bench.think))
        row = await bench.store.get(tapper.table.game_id)
        assert row is not None and row.state is not None
        game = Game.from_dict(row.state)
        if game.is_over:
            return made
        pid, action = choose_action(game, rng)
        cookie, csrf = tapper.sessions[pid]
        body = json.dumps({"version": f"{row.version}-{row.undo_epoch}", "code": f"a:{action}"})
        tapped = time.perf_counter()
        async with http.post(
            f"{base}/move",
            data=body,
            headers={"Cookie": cookie, CSRF_HEADER: csrf, "Content-Type": "application/json"},
        ) as r:
            said = await r.json()
            if r.status != 200:
                tapper.refused.append(f"{r.status} {said.get('said')}")
                continue
        mark = await tapper.stream.at_least(int(str(said["version"]).split("-")[0]))
        async with http.get(f"{base}/picture/{mark}.png?lang=en") as r:
            await r.read()
            if r.status != 200:
                tapper.refused.append(f"picture {r.status}")
                continue
        tapper.taps.append(time.perf_counter() - tapped)
        made += 1
    return made


class Harness(Protocol):
    """What `bot.webbench` lends: its free port, its watching pages' process."""

    def free_port(self) -> int: ...

    async def start_readers(self, url: str, tokens: Sequence[str], folder: str) -> Any: ...

    def process_cpu_seconds(self, pid: int) -> float: ...


async def run(args: argparse.Namespace, harness: Harness) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bot.core.delivery.pictures import ProcessRenderer
    from bot.core.server.settings import Settings
    from bot.web.app import make_app
    from bot.web.moves import TapRate
    from bot.web.signin import OAuth
    from tests.bot.fakediscord import FakeDiscord
    from tests.bot.fakediscord.oauth import FakeOAuth

    from .discord_app.client import MontanaBot

    class PatientFakeDiscord(FakeDiscord):
        settle_timeout = 120.0

    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as servers:
        db = args.db or str(Path(folder) / "bench.sqlite3")
        if args.db in ("postgres", "postgresql"):
            from tests.pgserver import ThrowawayPostgres

            server = servers.enter_context(ThrowawayPostgres(durable=True))
            db = server.create_database("webplaybench")
        store_name = "PostgreSQL" if db.startswith(("postgresql://", "postgres://")) else "SQLite"
        drawer = ProcessRenderer()
        bot = MontanaBot(
            Settings(token=None, db_path=db), renderer=drawer, seed_source=random.Random(args.seed)
        )
        fake = PatientFakeDiscord()
        readers: Any = None
        pages: TestServer | None = None
        discord_oauth: TestServer | None = None
        streams: list[asyncio.Task[None]] = []
        try:
            await fake.start(bot)
            store = bot.store
            bench = Bench(fake, store, 0, keep_history=False, think=args.think)
            pressed = _tables(fake, argparse.Namespace(games=args.pressed, players=0))
            tapped: list[Table] = []
            for index in range(args.games):
                table = Table(1000 + index, fake.add_channel(f"board-{index}"))
                for seat in range(2):
                    user = fake.add_user(f"b{index}p{seat}")
                    table.users[str(user.id)] = user
                tapped.append(table)
            opening = asyncio.Semaphore(OPENING_AT_ONCE)

            async def open_one(table: Table) -> None:
                async with opening:
                    await bench.open(table)

            await asyncio.gather(*(open_one(table) for table in [*pressed, *tapped]))
            port = harness.free_port()
            site = f"http://127.0.0.1:{port}"
            oauth = FakeOAuth(CLIENT_ID, SECRET, {f"{site}/signin/callback"})
            discord_oauth = TestServer(oauth.app(), host="127.0.0.1")
            await discord_oauth.start_server()
            app = make_app(
                store,
                shelf=bot.service.announcing.shelf,
                service=bot.service,
                oauth=OAuth(
                    CLIENT_ID,
                    SECRET,
                    f"{site}/signin/callback",
                    str(discord_oauth.make_url("")).rstrip("/"),
                ),
                tap_rate=TapRate(taps=10**9),
            )
            pages = TestServer(app, host="127.0.0.1", port=port)
            await pages.start_server()
            http = aiohttp.ClientSession(
                cookie_jar=aiohttp.DummyCookieJar(),
                timeout=aiohttp.ClientTimeout(total=None),
                connector=aiohttp.TCPConnector(limit=0),
            )
            try:
                tappers = []
                for table in tapped:
                    sessions = {
                        pid: await _sign_in(http, site, oauth, user)
                        for pid, user in table.users.items()
                    }
                    token = await store.web_token(table.game_id)
                    tappers.append(Tapper(table, token, sessions))
                for tapper in tappers:
                    streams.append(
                        asyncio.create_task(tapper.stream.follow(http, f"{site}/g/{tapper.token}"))
                    )
                    await tapper.stream.at_least(0)
                watched = [tappers[page % len(tappers)].token for page in range(args.pages)]
                readers = await harness.start_readers(site, watched, folder)
                # warming up, unmeasured: a move per game of both kinds
                bench.moves_cap += 1
                await asyncio.gather(
                    *(bench.play(t, random.Random(args.seed * 7 + t.index)) for t in pressed),
                    *(
                        _tap_round(t, http, site, bench, 1, random.Random(t.table.index))
                        for t in tappers
                    ),
                )
                for tapper in tappers:
                    tapper.taps.clear()
                quiet_pictures: list[float] = []
                busy_pictures: list[float] = []
                quiet_cpu: list[float] = []
                busy_cpu: list[float] = []
                for number in range(args.pairs * 2):
                    with_taps = number % 2 == 1
                    bench.moves_cap += args.moves
                    already, before, cpu = len(bench.picture_latencies), bench.moves, cpu_seconds()
                    made = await asyncio.gather(
                        *(
                            bench.play(t, random.Random(args.seed * 1000 + number * 97 + t.index))
                            for t in pressed
                        ),
                        *(
                            _tap_round(
                                t,
                                http,
                                site,
                                bench,
                                args.moves,
                                random.Random(args.seed * 1000 + number * 97 + t.table.index),
                            )
                            for t in (tappers if with_taps else [])
                        ),
                    )
                    moves = bench.moves - before + sum(m for m in made if isinstance(m, int))
                    per_move = (cpu_seconds() - cpu) / moves if moves else 0.0
                    (busy_cpu if with_taps else quiet_cpu).append(per_move)
                    (busy_pictures if with_taps else quiet_pictures).extend(
                        bench.picture_latencies[already:]
                    )
                readers_cpu = harness.process_cpu_seconds(readers.process.pid)
                _, failed = await readers.stop()
                readers = None
            finally:
                for task in streams:
                    task.cancel()
                await asyncio.gather(*streams, return_exceptions=True)
                await http.close()
        finally:
            if readers is not None:
                readers.process.kill()
                await readers.process.wait()
            if pages is not None:
                await pages.close()
            if discord_oauth is not None:
                await discord_oauth.close()
            await fake.close()
            drawer.close()
    taps = [seconds for tapper in tappers for seconds in tapper.taps]
    refused = [said for tapper in tappers for said in tapper.refused]
    tap_p99 = percentile(taps, 0.99)
    print(
        f"Montana board play bench: {args.games} games tapped on their pages, {args.pages} "
        f"watching pages, {args.pressed} games pressed in Discord, {store_name} store, "
        f"players think {args.think:g} s on average, {args.moves} moves per game per round, "
        f"{args.pairs} rounds without taps alternated with {args.pairs} with them"
    )
    print(
        f"  tap -> picture shown on the tapping page: {spread(taps)} ({len(taps)} taps); "
        f"p99 <= {TAP_AIM * 1000:.0f} ms {'met' if taps and tap_p99 <= TAP_AIM else 'MISSED'}"
    )
    print(f"  press -> picture posted, rounds without taps: {spread(quiet_pictures)}")
    print(f"  press -> picture posted, rounds with taps: {spread(busy_pictures)}")
    for name, cpus in (("without taps", quiet_cpu), ("with taps", busy_cpu)):
        median = statistics.median(cpus) * 1000 if cpus else 0.0
        print(f"  this process's CPU per move, rounds {name}: median {median:.1f} ms")
    print(f"  the watching pages' process (the harness's): {readers_cpu:.2f} s CPU")
    if refused or failed or bench.unanswered or bench.missing_pictures or fake.errors:
        print(
            f"  problems: {len(refused)} taps refused, {len(failed)} pages failed, "
            f"{bench.unanswered} unanswered, {bench.missing_pictures} moves without a "
            f"picture, {len(fake.errors)} recorded by the fake:"
        )
        for error in [*refused, *failed, *fake.errors][:10]:
            print(f"    {error}")
        return 1
    return 0
