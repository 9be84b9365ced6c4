"""Benchmark: N games played at once through the real discord.py layer, HTTP faked.

    python -m bot.bench [--games 20] [--seed S] [--players 0] [--real-every 1] [--moves 0]
                        [--pictures thread|process] [--bot in-process|process]
                        [--keep-history] [--db FILE|URL|postgres] [--idle N] [--think S]

Each game is opened with `/montana game new`, Join and Start, then played to its end by
the random policy (`rules.simulate.choose_action`), every move tapped through the
buttons and menus a player would use (typed with `/montana play` when no button
leads there). The bot runs unchanged (`MontanaBot`, its store, renderer); only
Discord is the in-process fake of `tests/bot/fakediscord/`, so this needs the
repository checkout, not just the installed package.

Every picture is drawn for real unless `--real-every N` asks for every Nth only.

Printed: interactions per second; the latency from an interaction's receipt to the
bot's first answer, and from the press that makes a move to the moment the request
carrying its picture reaches (the fake) Discord — what a player waits for, whether the
bot posts at once or through an outbox — each as median, 99th percentile and max; the
requests to channels and threads per saved move (what Discord's per-channel rate
limits count); the bot's CPU seconds per move and its peak memory (RSS); the event
loop's largest stall, measured by a ticker that sleeps 10 ms and records how late it
wakes; and the whole run's wall and CPU seconds, so runs can be compared on a shared
machine. The aims
(issue 16.4), with 200 games at once on either store: first answer p99 <= 200 ms,
picture posted p99 <= 1 s, no stall over 100 ms, peak memory <= 500 MiB. `--think S`
gives players a pause before each move (exponential, mean S), as people playing
asynchronously take; without it every game presses as fast as the bot answers.
In-process (the default) the players, the fake and the bot share one process and
one event loop, so the figures include the harness's own work (choosing moves,
serving the fake's REST, its garbage). `--bot process` runs `python -m bot` as its
own process against the loopback fake (`tests/bot/fakegateway.py`) and measures
the stall and the garbage collections inside the bot process only; there the
environment variable BENCH_GC_THRESHOLD="a,b,c" sets the bot's `gc.set_threshold`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bot.core.delivery.pictures import ProcessRenderer, SampledRenderer
from bot.core.play import prompts
from bot.core.play.service import PillowRenderer
from rules import Game
from rules.simulate import choose_action

if TYPE_CHECKING:
    from tests.bot.fakediscord import (
        FakeChannel,
        FakeDiscordBase,
        FakeMessage,
        FakeUser,
        InteractionRecord,
        InteractionResult,
    )

    from .core.store import GameRow, Store

TICK = 0.010
LATENCY_AIM = 0.200
"""Issue 16.4's aims: the first answer's p99, ..."""
PICTURE_AIM = 1.0
"""... the press -> picture posted p99, ..."""
STALL_AIM = 0.100
"""... the event loop's largest stall ..."""
MEMORY_AIM_MIB = 500
"""... and the peak memory (RSS)."""
PICTURE_WAIT = 30.0
OPENING_AT_ONCE = 10
"""Games being opened (new, join, start) at one time: 200 started in the same second
would measure a flood no server sees, not play."""
"""Seconds a move's picture may take to be posted before the bench counts it missing."""
CHANNEL_MESSAGE = re.compile(r"/channels/(\d+)/messages(?:/\d+)?$")


class StallMeter:
    """How late a task sleeping `TICK` seconds wakes up: the loop's responsiveness."""

    def __init__(self) -> None:
        self.lateness: list[float] = []
        self.worst: list[tuple[float, float]] = []
        """(lateness, seconds since start) of the largest stalls."""
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        start = time.perf_counter()
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            late = time.perf_counter() - before - TICK
            self.lateness.append(late)
            if late > STALL_AIM / 2:
                self.worst = sorted([*self.worst, (late, before - start)], reverse=True)[:5]

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._tick())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def largest(self) -> float:
        return max(self.lateness, default=0.0)


class GcMeter:
    """How long each garbage collection holds everything up (it runs on the loop's thread)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, int]] = []
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((time.perf_counter() - self._started, info["generation"]))

    def start(self) -> None:
        gc.callbacks.append(self._callback)

    def stop(self) -> None:
        gc.callbacks.remove(self._callback)

    @property
    def largest(self) -> float:
        return max((pause for pause, _ in self.pauses), default=0.0)


class PostedPictures:
    """When each request carrying a file to a channel's messages (a post, or an edit of
    the prompt) reached the fake Discord: the moment a player sees the new picture.

    It watches the fake's request handler rather than the bot, so it stays right however
    the bot delivers (at once, or later through an outbox).
    """

    def __init__(self, fake: FakeDiscordBase) -> None:
        self.arrivals: dict[int, list[float]] = {}
        self.channel_requests = 0
        """Requests to channels and threads (`/channels/...`: posts, edits, reads)."""
        world = fake.world
        handle = world.handle

        def timed_handle(
            method: str,
            path: str,
            query: Mapping[str, str],
            body: object,
            files: Sequence[tuple[str, bytes]],
            interaction: InteractionRecord | None = None,
        ) -> tuple[int, object]:
            arrived = time.monotonic()
            self.channel_requests += path.startswith("/channels/")
            status, response = handle(method, path, query, body, files, interaction)
            posted = CHANNEL_MESSAGE.search(path)
            if files and posted and status < 300:
                self.arrivals.setdefault(int(posted.group(1)), []).append(arrived)
            return status, response

        world.handle = timed_handle  # type: ignore[method-assign]

    def first_after(self, channel_id: int, since: float) -> float | None:
        """The first picture posted in the channel since `since`; older ones are dropped."""
        arrivals = self.arrivals.get(channel_id, [])
        while arrivals and arrivals[0] < since:
            arrivals.pop(0)
        return arrivals.pop(0) if arrivals else None


@dataclass
class Table:
    """One game of the benchmark: its channel, players and what happened."""

    index: int
    channel: FakeChannel
    users: dict[str, FakeUser] = field(default_factory=dict)
    game_id: int = 0
    thread: FakeChannel | None = None
    moves: int = 0
    finished: bool = False


def codes_on(message: FakeMessage) -> dict[str, tuple[str, str]]:
    """code -> ("button" | "select", custom_id) for every enabled choice on a message."""
    found: dict[str, tuple[str, str]] = {}
    for component in message.interactive_components():
        custom_id = str(component.get("custom_id", ""))
        if component.get("disabled"):
            continue
        if component.get("type") == 2 and custom_id.startswith("mt:"):
            found[custom_id.split(":", 3)[3]] = ("button", custom_id)
        elif component.get("type") == 3 and custom_id.startswith("ms:"):
            for option in component.get("options") or []:
                found[str(option["value"])] = ("select", custom_id)
    return found


class Bench:
    def __init__(
        self,
        fake: FakeDiscordBase,
        store: Store,
        moves_cap: int,
        *,
        keep_history: bool,
        think: float = 0.0,
    ) -> None:
        self.fake = fake
        self.think = think
        """Mean seconds a player takes before each move (0: moves back to back)."""
        self.store = store
        self.moves_cap = moves_cap
        self.keep_history = keep_history
        self.interactions = 0
        self.unanswered = 0
        self.latencies: list[float] = []
        self.pictures = PostedPictures(fake)
        self.picture_latencies: list[float] = []
        """Seconds from the press that made a move until its picture was posted."""
        self.missing_pictures = 0
        self.moves = 0

    def harvest(self, result: InteractionResult) -> InteractionResult:
        """Count one finished interaction and note its latency."""
        self.interactions += 1
        record = result.record
        if record.response_type is None:
            self.unanswered += 1
        else:
            self.latencies.append(record.responded_at - record.created)
        return result

    def forget(self, results: Sequence[InteractionResult], *, keep: set[int]) -> None:
        """Drop what the fake keeps of a finished move (its interactions, their messages,
        the messages the bot no longer touches, the request log), so that the bench's
        own heap does not grow with every move: Discord's memory is not the bot's.
        """
        world = self.fake.world
        for result in results:
            record = result.record
            for message_id in (*record.message_ids, *record.followup_ids, *record.sent_ids):
                if message_id not in keep:
                    world.messages.pop(message_id, None)
            if record.component_message_id is not None and record.component_message_id not in keep:
                message = world.messages.get(record.component_message_id)
                if message is not None and message.ephemeral:
                    world.messages.pop(record.component_message_id, None)
            world.interactions.pop(record.id, None)
            world.interactions_by_token.pop(record.token, None)
        world.recorded.clear()

    async def open(self, table: Table) -> None:
        first, *others = table.users.values()
        created = self.harvest(
            await self.fake.slash(first, table.channel, "montana", "game", "new")
        )
        lobby = created.original
        if lobby is None:
            raise RuntimeError(f"table {table.index}: /montana game new gave no lobby: {created!r}")
        for user in others:
            self.harvest(await self.fake.press(user, lobby, label="Join"))
        self.harvest(await self.fake.press(first, lobby, label="Start"))
        row = await self.store.open_game_in(table.channel.id)
        deadline = time.perf_counter() + 60
        while row is None or row.status == "lobby" or not self.shown(row, -1):
            # a separate bot process may still be dealing the game and posting it
            if time.perf_counter() > deadline:
                raise RuntimeError(f"table {table.index}: the game did not start")
            await asyncio.sleep(0.01)
            row = await self.store.open_game_in(table.channel.id)
        table.game_id = row.id
        table.thread = self.fake.channel_by_id(row.play_channel_id)

    async def play(self, table: Table, rng: random.Random) -> None:
        while self.moves_cap == 0 or table.moves < self.moves_cap:
            if self.think:
                await asyncio.sleep(rng.expovariate(1 / self.think))
            row = await self.store.get(table.game_id)
            if row is None or row.state is None:
                raise RuntimeError(f"table {table.index}: game {table.game_id} vanished")
            game = Game.from_dict(row.state)
            # the saved state as parsed JSON is thousands of small lists and dicts: holding
            # it while the move is played would only feed the garbage collector
            version, message_id, names = row.version, row.message_id, row.names
            del row
            if game.is_over:
                table.finished = True
                return
            pid, action = choose_action(game, rng)
            results = await self.move(table, message_id, names, game, pid, str(action))
            pressed = results[-1].record.created  # the tap (or command) that made the move
            del game
            after = await self.store.get(table.game_id)
            deadline = time.perf_counter() + 30
            while after is not None and not self.shown(after, version):
                # a separate bot process may still be saving or posting the deferred move
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"table {table.index}: {pid} {action} did not apply")
                await asyncio.sleep(0.005)
                after = await self.store.get(table.game_id)
            if after is None:
                raise RuntimeError(f"table {table.index}: game {table.game_id} vanished")
            shown = after.message_id
            del after
            await self.picture_posted(table, pressed)
            if not self.keep_history:
                self.forget(results, keep={shown or 0})
                if message_id != shown:  # the old prompt, done with
                    self.fake.world.messages.pop(message_id or 0, None)
            table.moves += 1
            self.moves += 1

    async def picture_posted(self, table: Table, pressed: float) -> None:
        """Note how long the move pressed at `pressed` took to show its picture."""
        assert table.thread is not None
        deadline = time.monotonic() + PICTURE_WAIT
        while (posted := self.pictures.first_after(table.thread.id, pressed)) is None:
            if time.monotonic() > deadline:
                self.missing_pictures += 1
                return
            await asyncio.sleep(0.005)
        self.picture_latencies.append(posted - pressed)

    def shown(self, row: GameRow, before: int) -> bool:
        """The move made at version `before` is saved and its prompt posted."""
        if row.version <= before:
            return False
        if row.status != "active":
            return True
        message = self.fake.world.messages.get(row.message_id or 0)
        marker = f":{row.id}:{row.version}:"
        return message is not None and any(marker in c for c in message.custom_ids())

    async def move(
        self,
        table: Table,
        message_id: int | None,
        names: Mapping[str, str],
        game: Game,
        pid: str,
        notation: str,
    ) -> list[InteractionResult]:
        """Tap (or type) one move; the interactions it took."""
        user = table.users[pid]
        message = self.fake.world.messages.get(message_id) if message_id else None
        path = None
        if message is not None:
            path = prompts.tap_path(game, pid, names, list(codes_on(message)), f"a:{notation}")
        if message is None or path is None:
            assert table.thread is not None
            typed = await self.fake.slash(
                user, table.thread, "montana", "play", options={"move": notation}
            )
            return [self.harvest(typed)]
        results = []
        for code in path:
            kind, custom_id = codes_on(message)[code]
            if kind == "button":
                result = await self.fake.press(user, message, custom_id)
            else:
                result = await self.fake.select(user, message, custom_id, [code])
            results.append(self.harvest(result))
            if code.startswith("p:"):
                opened = result.original
                if opened is None:
                    raise RuntimeError(f"table {table.index}: {code} opened no panel")
                message = opened
        return results


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


@dataclass
class Figures:
    """What the bot's side measured: its event loop, garbage collections, CPU and memory."""

    lateness: list[float]
    worst: list[tuple[float, float]]
    gc_pauses: list[float]
    pictures: int
    cpu_seconds: float
    """CPU the bot's process used while the games were played (with its picture workers)."""
    peak_rss_kib: int
    """The bot's process's largest resident memory (`ru_maxrss`), in KiB."""


def cpu_seconds(who: int = resource.RUSAGE_SELF) -> float:
    """CPU seconds (user + system) of this process, or of its waited-for children."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def peak_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


Run = tuple["Bench", list[Table], float, Figures, list[str]]
"""The bench's record, the tables, seconds taken, the bot's figures, the fake's errors."""


async def add_idle_games(store: Store, count: int, seed: int) -> None:
    """`count` games under way that nobody plays during the run (each a few moves in),
    as a bot serving many servers holds: they are there for every scan and query."""
    from .core.store import Seat

    rng = random.Random(seed)
    for index in range(count):
        seats = [Seat(str(900_000 + index * 4 + n), f"idle{n}") for n in range(2 + index % 3)]
        lobby = await store.create_lobby(
            guild_id=None, channel_id=10**15 + index, thread_id=None, creator=seats[0]
        )
        game = Game.new([seat.user_id for seat in seats], seed=seed * 7919 + index)
        for _ in range(rng.randrange(5, 40)):
            if game.is_over:
                break
            game.apply(*choose_action(game, rng))
        await store.start(lobby.id, seats, game.to_dict(), game.log)


def _tables(fake: FakeDiscordBase, args: argparse.Namespace) -> list[Table]:
    tables = []
    for index in range(args.games):
        table = Table(index, fake.add_channel(f"table-{index}"))
        for seat in range(args.players or 2 + index % 3):
            user = fake.add_user(f"t{index}p{seat}")
            table.users[str(user.id)] = user
        tables.append(table)
    return tables


async def _play_all(bench: Bench, tables: list[Table], seed: int) -> float:
    started = time.perf_counter()
    opening = asyncio.Semaphore(OPENING_AT_ONCE)

    async def open_one(table: Table) -> None:
        async with opening:
            await bench.open(table)

    await asyncio.gather(*(open_one(table) for table in tables))
    await asyncio.gather(
        *(bench.play(table, random.Random(seed * 1000 + table.index)) for table in tables)
    )
    return time.perf_counter() - started


async def run_in_process(
    args: argparse.Namespace, db: str, folder: str
) -> tuple[Bench, list[Table], float, Figures, list[str]]:
    """The bot in this process and event loop, Discord faked in-process."""
    from bot.core.server.settings import Settings
    from tests.bot.fakediscord import FakeDiscord

    from .discord_app.client import MontanaBot

    class PatientFakeDiscord(FakeDiscord):
        settle_timeout = 120.0  # a helper waits this long for one interaction's tasks

    drawer = ProcessRenderer() if args.pictures == "process" else PillowRenderer()
    renderer = SampledRenderer(args.real_every, drawer)
    bot = MontanaBot(
        Settings(token=None, db_path=db), renderer=renderer, seed_source=random.Random(args.seed)
    )
    fake = PatientFakeDiscord()
    try:
        await fake.start(bot)
        bench = Bench(fake, bot.store, args.moves, keep_history=args.keep_history, think=args.think)
        await add_idle_games(bot.store, args.idle, args.seed)
        tables = _tables(fake, args)
        meter, collections = StallMeter(), GcMeter()
        meter.start()
        collections.start()
        cpu_before = cpu_seconds(), cpu_seconds(resource.RUSAGE_CHILDREN)
        elapsed = await _play_all(bench, tables, args.seed)
        cpu_during = cpu_seconds() - cpu_before[0]
        await meter.stop()
        collections.stop()
        errors = list(fake.errors)
    finally:
        await fake.close()
        if isinstance(drawer, ProcessRenderer):
            drawer.close()  # waits for the workers, whose CPU then counts as children's
    cpu_during += cpu_seconds(resource.RUSAGE_CHILDREN) - cpu_before[1]
    figures = Figures(
        meter.lateness,
        meter.worst,
        [p for p, _ in collections.pauses],
        renderer.calls,
        cpu_during,
        peak_rss_kib(),
    )
    return bench, tables, elapsed, figures, errors


FIGURES_FILE = "BENCH_FIGURES_FILE"


def bot_process_main() -> None:
    """`python -m bot` with a loop ticker and a GC meter, for `--bot process`.

    Pictures are sampled like in-process (`BENCH_REAL_EVERY`); on a clean stop the
    figures are written as JSON to the file named by BENCH_FIGURES_FILE (a line on
    stderr would outgrow the harness's line limit: one number per 10 ms tick).
    """
    import json

    from . import __main__ as entry
    from .discord_app.client import MontanaBot

    draw = PillowRenderer.game_picture

    class Unpatched(PillowRenderer):
        def game_picture(
            self,
            game: Game,
            *,
            highlight: str | None,
            names: Mapping[str, str],
            seat_notes: Mapping[str, str] | None = None,
            language: str = "en",
        ) -> bytes:
            return draw(
                self,
                game,
                highlight=highlight,
                names=names,
                seat_notes=seat_notes,
                language=language,
            )

    sampled = SampledRenderer(int(os.environ.get("BENCH_REAL_EVERY", "1")), Unpatched())

    def game_picture(
        self: PillowRenderer,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        return sampled.game_picture(
            game, highlight=highlight, names=names, seat_notes=seat_notes, language=language
        )

    PillowRenderer.game_picture = game_picture  # type: ignore[method-assign]
    meter, collections = StallMeter(), GcMeter()
    setup_hook, close = MontanaBot.setup_hook, MontanaBot.close
    cpu_at_setup = 0.0

    async def measured_setup(self: MontanaBot) -> None:
        nonlocal cpu_at_setup
        await setup_hook(self)
        meter.start()
        collections.start()
        cpu_at_setup = cpu_seconds()

    async def reporting_close(self: MontanaBot) -> None:
        await meter.stop()
        figures = {
            "lateness": meter.lateness,
            "worst": meter.worst,
            "gc_pauses": [p for p, _ in collections.pauses],
            "pictures": sampled.calls,
            "cpu_seconds": cpu_seconds() - cpu_at_setup,
            "peak_rss_kib": peak_rss_kib(),
        }
        Path(os.environ[FIGURES_FILE]).write_text(json.dumps(figures))
        await close(self)

    if thresholds := os.environ.get("BENCH_GC_THRESHOLD"):  # e.g. "700,10,10" (Python's)
        gc.set_threshold(*(int(t) for t in thresholds.split(",")))
    MontanaBot.setup_hook = measured_setup  # type: ignore[method-assign]
    MontanaBot.close = reporting_close  # type: ignore[method-assign]
    sys.exit(entry.main([]))


async def run_as_process(
    args: argparse.Namespace, db: str, folder: str
) -> tuple[Bench, list[Table], float, Figures, list[str]]:
    """`python -m bot` as its own process against the loopback fake Discord."""
    import json

    from tests.bot.fakegateway import FakeGateway

    from .core.store import open_store

    root = Path(__file__).resolve().parents[1]
    figures_file = str(Path(folder) / "bot-figures.json")

    class PatientFakeGateway(FakeGateway):
        settle_timeout = 120.0

    async with PatientFakeGateway(quiet_period=0.01, deferred_update_grace=0.05) as fake:
        env = {
            **os.environ,
            "DISCORD_TOKEN": "bench-token",
            "MONTANA_DB": db,
            "MONTANA_GUILD_ID": str(fake.guild_id),
            "PYTHONPATH": str(root),
            "BENCH_REAL_EVERY": str(args.real_every),
            FIGURES_FILE: figures_file,
        }
        process = await fake.spawn(
            sys.executable,
            "-c",
            "from bot.bench import bot_process_main; bot_process_main()",
            env=env,
            cwd=str(root),
        )
        await fake.wait_connected(timeout=60)
        await fake.wait_until(lambda: fake.requests("PUT /applications"), timeout=30)
        store = await open_store(db)
        try:
            # the fake may attribute a request to the wrong interaction when several are in
            # flight, so it keeps everything (its heap is not the bot's here anyway)
            bench = Bench(fake, store, args.moves, keep_history=True, think=args.think)
            await add_idle_games(store, args.idle, args.seed)
            tables = _tables(fake, args)
            elapsed = await _play_all(bench, tables, args.seed)
        finally:
            await store.close()
            code = await process.terminate(timeout=30)
        errors = list(fake.errors)
        if code != 0:
            errors.append(f"the bot process exited with {code}")
        traceback_at = process.stderr.find("Traceback")
        if traceback_at >= 0:
            errors.insert(0, "the bot's first traceback:\n" + process.stderr[traceback_at:][:3000])
    if not Path(figures_file).exists():
        raise RuntimeError("the bot process wrote no figures:\n" + process.stderr[-2000:])
    data = json.loads(Path(figures_file).read_text())
    figures = Figures(
        data["lateness"],
        [tuple(w) for w in data["worst"]],
        data["gc_pauses"],
        data["pictures"],
        data["cpu_seconds"],
        data["peak_rss_kib"],
    )
    return bench, tables, elapsed, figures, errors


def spread(seconds: Sequence[float]) -> str:
    """ "median 3.0 ms, p99 16.2 ms, max 20.1 ms" of some durations."""
    if not seconds:
        return "none measured"
    return (
        f"median {statistics.median(seconds) * 1000:.1f} ms, "
        f"p99 {percentile(seconds, 0.99) * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms"
    )


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


async def run(args: argparse.Namespace) -> int:
    # the fake Discord lives in the repository's tests, beside this package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as servers:
        db = args.db or str(Path(folder) / "bench.sqlite3")
        store_name = "SQLite"
        if args.db in ("postgres", "postgresql"):
            from tests.pgserver import ThrowawayPostgres

            server = servers.enter_context(ThrowawayPostgres(durable=True))
            db = server.create_database("bench")
        if db.startswith(("postgresql://", "postgres://")):
            store_name = "PostgreSQL"
        runner = run_as_process if args.bot == "process" else run_in_process
        bench, tables, elapsed, figures, errors = await runner(args, db, folder)
    moves = sum(t.moves for t in tables)
    finished = sum(t.finished for t in tables)
    first_p99 = percentile(bench.latencies, 0.99)
    picture_p99 = percentile(bench.picture_latencies, 0.99)
    stall = max(figures.lateness, default=0.0)
    over = sum(1 for late in figures.lateness if late > STALL_AIM)
    pictures = "all real" if args.real_every == 1 else f"real every {args.real_every}th (+ last)"
    in_process = args.bot != "process"
    where = "this process" if in_process else "its own process (loopback fake)"
    loop = "event loop (bot and harness)" if in_process else "bot's event loop"
    bot = "this process: bot, harness and fake" if in_process else "the bot's process"
    think = f", players think {args.think:g} s on average" if args.think else ""
    print(
        f"Montana bench: {args.games} games at once (+{args.idle} idle), {store_name} store, "
        f"seed {args.seed}, bot in {where}, pictures {pictures}, drawn in a "
        f"{args.pictures}{think}"
    )
    print(
        f"  played: {finished}/{len(tables)} games to the end, {moves} moves, "
        f"{bench.interactions} interactions in {elapsed:.1f} s "
        f"({figures.pictures} pictures drawn)"
    )
    print(f"  interactions per second: {bench.interactions / elapsed:.1f}")
    print(f"  press -> first answer:   {spread(bench.latencies)}")
    print(
        f"  press -> picture posted: {spread(bench.picture_latencies)} "
        f"({len(bench.picture_latencies)} of {moves} moves)"
    )
    requests = bench.pictures.channel_requests
    print(
        f"  channel requests: {requests}, {requests / moves if moves else 0.0:.3f} per saved "
        "move (posts, edits and reads of channels and threads, the games' set-up included)"
    )
    per_move = figures.cpu_seconds / moves * 1000 if moves else 0.0
    print(
        f"  CPU while playing: {figures.cpu_seconds:.1f} s, {per_move:.1f} ms per move; "
        f"peak memory {figures.peak_rss_kib / 1024:.0f} MiB RSS ({bot})"
    )
    print(
        f"  {loop}: largest stall {stall * 1000:.1f} ms, "
        f"{over} stalls over {STALL_AIM * 1000:.0f} ms, "
        f"ticker p99 lateness {percentile(figures.lateness, 0.99) * 1000:.1f} ms"
    )
    big = sum(1 for pause in figures.gc_pauses if pause > STALL_AIM)
    print(
        f"  garbage collections: {len(figures.gc_pauses)}, largest pause "
        f"{max(figures.gc_pauses, default=0.0) * 1000:.1f} ms, "
        f"{big} over {STALL_AIM * 1000:.0f} ms"
    )
    if figures.worst:
        worst = ", ".join(f"{late * 1000:.0f} ms at {at:.1f} s" for late, at in figures.worst)
        print(f"  largest stalls: {worst}")
    peak_mib = figures.peak_rss_kib / 1024
    print(
        f"  aims: first answer p99 <= {LATENCY_AIM * 1000:.0f} ms "
        f"{verdict(first_p99 <= LATENCY_AIM)}; picture posted p99 <= {PICTURE_AIM:g} s "
        f"{verdict(picture_p99 <= PICTURE_AIM)}; no stall > {STALL_AIM * 1000:.0f} ms "
        f"{verdict(stall <= STALL_AIM)}; peak memory <= {MEMORY_AIM_MIB} MiB "
        f"{verdict(peak_mib <= MEMORY_AIM_MIB)}"
    )
    if bench.unanswered or bench.missing_pictures or errors:
        print(
            f"  problems: {bench.unanswered} unanswered, {bench.missing_pictures} moves "
            f"without a picture within {PICTURE_WAIT:.0f} s; {len(errors)} recorded by the fake:"
        )
        for error in errors[:10]:
            print(f"    {error}")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once (20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and moves (1)")
    parser.add_argument(
        "--players", type=int, default=0, choices=(0, 2, 3, 4), help="per game (0: 2, 3, 4 mixed)"
    )
    parser.add_argument(
        "--real-every",
        type=int,
        default=1,
        help="draw every Nth picture for real, a tiny PNG otherwise (default 1: all real)",
    )
    parser.add_argument(
        "--pictures",
        choices=("thread", "process"),
        default="process",
        help="draw in worker processes (as the bot started from the environment does, "
        "MONTANA_PICTURE_PROCESSES) or in a thread",
    )
    parser.add_argument(
        "--bot",
        choices=("in-process", "process"),
        default="in-process",
        help="run the bot in this process, or as `python -m bot` against the loopback fake",
    )
    parser.add_argument(
        "--keep-history",
        action="store_true",
        help="let the fake keep every message and request (its heap then slows the GC)",
    )
    parser.add_argument("--moves", type=int, default=0, help="stop each game after N (0: end)")
    parser.add_argument(
        "--db",
        default=None,
        help=(
            "the store the bot keeps its games in: a SQLite file (default: a temporary "
            "one), a postgresql:// URL, or 'postgres': a throwaway PostgreSQL server "
            "started for the run (needs initdb, see tests/pgserver.py)"
        ),
    )
    parser.add_argument(
        "--idle", type=int, default=0, help="games under way that nobody plays meanwhile (0)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player thinks before each move (0: back to back)",
    )
    args = parser.parse_args(argv)
    started, cpu_before = time.perf_counter(), cpu_seconds()
    code = asyncio.run(run(args))
    children = cpu_seconds(resource.RUSAGE_CHILDREN)
    own = cpu_seconds() - cpu_before
    print(
        f"  ran {time.perf_counter() - started:.1f} s wall, {own + children:.1f} s CPU "
        f"(this process {own:.1f} s, child processes {children:.1f} s)"
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
