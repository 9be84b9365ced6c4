"""Benchmark: games with AI seats played at once through the game service, to measure
what the AI costs the event loop.

    python -m bot.aibench [--games 4] [--players 3] [--seed 1] [--level hard] [--policy ai]
                          [--executor process|thread] [--real-pictures]
                          [--hints 60] [--hint-pool own|shared]

Each game seats one human (played by the random policy, `rules.simulate.choose_action`,
as soon as it is awaited) and `players - 1` AI seats run by `bot.core.ai_players.ai_seats.AiPlayers`
exactly as the bot runs them (no delay): every AI move is decided in the worker and
saved, announced and hooked through `GameService`. Discord is left out (a silent
announcer); the pictures are tiny unless `--real-pictures`.

Printed: the event loop's longest stall, measured by a ticker that sleeps 10 ms and
records how late it wakes (aim: at most 50 ms); the AI move latency, from reading the
game to the move saved and announced, as median, 99th percentile and max; the count of
AI moves; the decisions' CPU time in the worker; the wall and CPU seconds of the run
(the bot process, and the worker's).
`--executor thread` runs the AI in a thread of the bot process instead, for comparison.

`--hints N` floods the bot with hints meanwhile (issue 21 point 4): N hint requests are
kept queued at all times, each for a different state (none shares another's search),
as many members pressing Hint at once would. The AI seats' move latency (wall) and
decision CPU are then printed as median and p99 with the hints answered; the aim is
the AI seats' p99 unchanged (at most 1 s) while 60 hints are queued. The hints run in
their own lower-priority worker as in the bot (`--hint-pool own`); `--hint-pool shared`
puts them in the AI seats' worker, as before, for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from bot.core.ai_players.ai_seats import AiPlayers
from bot.core.assembly import game_service
from bot.core.delivery.pictures import BlankRenderer
from bot.core.play.service import GameService, PillowRenderer, Renderer
from bot.core.runtime.workers import worker_pool
from rules.simulate import choose_action

from .core.store import AI_LEVELS, DEFAULT_AI_LEVEL, GameRow, Seat, Store

TICK = 0.010
STALL_AIM = 0.050


class Ticker:
    """How late a 10 ms sleep wakes: the longest is the loop's longest stall."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            self.worst = max(self.worst, time.perf_counter() - before - TICK)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


async def start_game(
    service: GameService, number: int, players: int, seed: int, level: str = DEFAULT_AI_LEVEL
) -> int:
    human = Seat(f"human-{number}", f"P{number}")
    row = await service.open_lobby(
        guild_id=None, channel_id=1000 + number, thread_id=None, creator=human
    )
    for _ in range(players - 1):
        await service.add_ai(row.id, human.user_id, level)
    await service.start(row.id, human.user_id, seed=seed)
    return row.id


async def human_plays(service: GameService, game_id: int, rng: random.Random) -> int:
    """The human seat's moves, whenever awaited, until the game ends; how many."""
    moves = 0
    while True:
        row = await service.get(game_id)
        game = service.game_of(row)
        if game.is_over or row.status != "active":
            return moves
        pid = game.awaiting
        if pid is not None and not row.ai_plays(pid):
            _, action = choose_action(game, rng)
            await service.play(row.id, pid, action)
            moves += 1
        else:
            await asyncio.sleep(0.02)


HINT_GAME_CHANNEL = 999


async def hint_state(
    service: GameService, seed: int, *, channel: int = HINT_GAME_CHANNEL, main_actions: int = 0
) -> tuple[GameRow, str]:
    """A game of two humans waiting for one of them to choose a main action (after
    `main_actions` random ones): the state the hints are asked in."""
    # players of their own per game: the limit of games under way is per member
    ana, ben = Seat(f"hint-ana-{channel}", "Ana"), Seat(f"hint-ben-{channel}", "Ben")
    row = await service.open_lobby(guild_id=None, channel_id=channel, thread_id=None, creator=ana)
    await service.join(row.id, ben)
    await service.start(row.id, ana.user_id, seed=seed)
    rng = random.Random(seed)
    while True:  # on to a main action, the decision that needs the longest search
        row = await service.get(row.id)
        game = service.game_of(row)
        awaited = game.awaiting
        assert awaited is not None
        if game.pending.kind == "main":
            if main_actions <= 0:
                return row, awaited
            main_actions -= 1
        _, action = choose_action(game, rng)
        await service.play(row.id, awaited, action)


async def hint_answers(
    service: GameService, players: AiPlayers, seed: int, count: int
) -> list[float]:
    """Seconds to answer `count` hints asked one at a time, each for a main action of a
    game of its own, from its start to its middle (what a player pressing Hint waits)."""
    answered: list[float] = []
    for n in range(count):
        row, awaited = await hint_state(
            service, seed + n, channel=HINT_GAME_CHANNEL + 1 + n, main_actions=n % 30
        )
        started = time.perf_counter()
        await players.decide(row, awaited, hint=True)
        answered.append(time.perf_counter() - started)
    return answered


class HintFlood:
    """Keeps `queued` hints asked at all times, each for a state of its own, until stopped."""

    def __init__(self, players: AiPlayers, row: GameRow, player: str, queued: int) -> None:
        self.players = players
        self.row = row
        self.player = player
        self.queued = queued
        self.answered: list[float] = []
        self._next = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._ask_again_and_again()) for _ in range(self.queued)]

    async def _ask_again_and_again(self) -> None:
        while not self._stopping:
            self._next += 1
            # another game id each time: no two hints share a search
            row = replace(self.row, id=1_000_000 + self._next)
            started = time.perf_counter()
            await self.players.decide(row, self.player, hint=True)
            self.answered.append(time.perf_counter() - started)

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(options: argparse.Namespace) -> int:
    renderer: Renderer = PillowRenderer() if options.real_pictures else BlankRenderer()
    executor: concurrent.futures.Executor | None = (
        concurrent.futures.ThreadPoolExecutor(max_workers=1)
        if options.executor == "thread"
        else None
    )
    if executor is None and options.hint_pool == "shared":
        executor = worker_pool(1)
    hint_executor = executor if options.hint_pool == "shared" else None
    flood: HintFlood | None = None
    flood_answered = 0
    answers: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        service = game_service(store, renderer=renderer)
        players = AiPlayers(
            service,
            delay=0,
            policy=options.policy,
            executor=executor,
            hint_executor=hint_executor,
        )
        service.after_announce.append(players.on_announced)
        rng = random.Random(options.seed)
        try:
            # the workers are started (and the AI package loaded in them) before measuring
            await players.warm_up()
            ids = [
                await start_game(service, n, options.players, options.seed + n, options.level)
                for n in range(options.games)
            ]
            if options.hints:
                row, awaited = await hint_state(service, options.seed)
                flood = HintFlood(players, row, awaited, options.hints)
                flood.start()
                await asyncio.sleep(0.5)  # the queue fills before the AI seats start
            ticker = Ticker()
            ticker.start()
            wall, cpu = time.perf_counter(), time.process_time()
            for game_id in ids:
                players.wake(game_id)
            humans = await asyncio.gather(
                *(human_plays(service, g, random.Random(rng.random())) for g in ids)
            )
            await players.idle()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            ticker.stop()
            if flood is not None:
                await flood.stop()
                flood_answered, flood = len(flood.answered), None
            answers = await hint_answers(service, players, options.seed, options.hint_answers)
        finally:
            if flood is not None:
                await flood.stop()
            await players.stop()
            if executor is not None:
                executor.shutdown(cancel_futures=True)
            await store.close()
    latencies = [s * 1000 for s in players.latencies]
    decisions = [s * 1000 for s in players.decision_cpu]
    print(
        f"{options.games} games of {options.players} ({options.players - 1} AI seats each), "
        f"{f'policy {options.policy}' if options.policy else f'level {options.level}'}, "
        f"AI in a {options.executor}"
    )
    print(f"AI moves: {len(latencies)}, human moves: {sum(humans)}")
    if options.hints:
        print(
            f"hint flood: {options.hints} hints queued at all times ({options.hint_pool} "
            f"pool), {flood_answered} answered meanwhile"
        )
    if answers:
        hints = [s * 1000 for s in answers]
        print(
            f"hint answer ms (one at a time, {len(hints)} hints): median "
            f"{statistics.median(hints):.0f}, p99 {percentile(hints, 0.99):.0f}"
        )
    if latencies:
        print(
            f"AI move latency ms: median {statistics.median(latencies):.0f}, "
            f"p99 {percentile(latencies, 0.99):.0f}, max {max(latencies):.0f}"
        )
    if decisions:
        print(
            f"decision CPU ms (in the worker): median {statistics.median(decisions):.0f}, "
            f"p99 {percentile(decisions, 0.99):.0f}"
        )
    stall = ticker.worst * 1000
    verdict = "ok" if ticker.worst <= STALL_AIM else f"over the {STALL_AIM * 1000:.0f} ms aim"
    print(f"longest event-loop stall ms: {stall:.0f} ({verdict})")
    print(f"wall s: {wall:.1f}, bot CPU s: {cpu:.1f}, worker CPU s: {sum(decisions) / 1000:.1f}")
    return 0


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot.aibench", description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games at once (default 4)")
    parser.add_argument(
        "--players", type=int, default=3, choices=(2, 3, 4), help="seats per game, 1 human"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--level", choices=AI_LEVELS, default=DEFAULT_AI_LEVEL, help="the AI seats' level"
    )
    parser.add_argument(
        "--policy", default=None, help="one policy for every seat and hint instead of levels"
    )
    parser.add_argument("--executor", choices=("process", "thread"), default="process")
    parser.add_argument("--real-pictures", action="store_true", help="draw every picture")
    parser.add_argument(
        "--hint-answers",
        type=int,
        default=0,
        help="then hints asked one at a time: their answer time (default 0)",
    )
    parser.add_argument(
        "--hints", type=int, default=0, help="hints kept queued meanwhile (default 0)"
    )
    parser.add_argument(
        "--hint-pool",
        choices=("own", "shared"),
        default="own",
        help="hints in their own lower-priority worker (the bot) or the AI seats' (before)",
    )
    return parser.parse_args(list(argv))


def main(argv: Sequence[str] | None = None) -> int:
    return asyncio.run(run(parse_args(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    sys.exit(main())
