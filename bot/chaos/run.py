"""A chaos run played: the players' presses, the faults applied, the run as a whole and
its command line (`python -m bot.chaos`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import resource
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bot.chaos.model import (
    EDIT,
    FAULT_KINDS,
    HISTORY,
    INVARIANTS,
    MESSAGES,
    MISSING_PERMISSIONS,
    MOVES_AFTER_HEALING,
    PROMPT_WAIT,
    STALL_TIMEOUT,
    VIA,
    Applied,
    Press,
    Table,
    codes_on,
)
from bot.core.play import prompts
from rules.simulate import choose_action

if TYPE_CHECKING:
    from tests.bot.fakediscord import FakeChannel, InteractionResult

from bot.chaos.verdicts import Verdicts


class Chaos(Verdicts):
    """One run: the players and the faults, on the state and verdicts below."""

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
        codes = codes_on(message)
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
            pressed = message
            for code in path:
                if code not in codes:  # the panel opened is not the one expected
                    said = message.content.replace("\n", " ")[:100]
                    row = saved.row
                    self.notes.append(
                        f"table {table.index}: {code} not offered ({action}) after a press "
                        f"on message {pressed.id} in {pressed.channel_id} (game: prompt "
                        f"{row['message_id']}, thread {row['thread_id']}, channel "
                        f"{row['channel_id']}): {said!r}"
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
                    message, codes = opened, codes_on(opened)
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
                now = self.saved(table.game_id)
                prompt = self.prompt(table.game_id, now.version)
                shown = "none" if prompt is None else f"{prompt.id} in {prompt.channel_id}"
                self.stalled.append(
                    f"game {table.game_id} (table {table.index}) made no move for "
                    f"{STALL_TIMEOUT:.0f}s after healing (version {now.version}, "
                    f"{now.row['status']}, awaiting {now.game.awaiting}, prompt {shown}, "
                    f"recorded {now.row['message_id']} for v{now.row['prompt_version']})"
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
        elif kind == "archived":
            threads = sorted(self.places(table) - {table.channel.id})
            if not threads:
                detail = f"skipped: {where} has no thread"
            else:
                thread = gateway.world.channels[rng.choice(threads)]
                gateway.archive(thread)
                detail = f"Discord archived thread {thread.id} (edits answer 50083), {where}"
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
    bot_log: str | None = None,
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
            if bot_log is not None:
                with open(bot_log, "w", encoding="utf-8") as log_file:
                    for number, process in enumerate(gateway.processes, 1):
                        log_file.write(f"==== bot process {number}\n")
                        log_file.writelines(f"{line.rstrip()}\n" for line in process.stderr_lines)
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
    parser.add_argument("--log", help="write the bot processes' logs to this file")
    args = parser.parse_args(argv)
    kinds = tuple(k for k in args.faults.split(",") if k)
    unknown = [k for k in kinds if k not in FAULT_KINDS]
    if unknown:
        parser.error(f"unknown fault kinds {unknown}; known: {', '.join(FAULT_KINDS)}")
    report = asyncio.run(
        run(
            args.seed,
            args.minutes,
            args.games,
            players=args.players,
            kinds=kinds,
            bot_log=args.log,
        )
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
