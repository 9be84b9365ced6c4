"""Turn and auction deadlines: which games are due, and what happens to them.

Each game has a turn deadline and an auction-answer deadline (seconds, in its row).
The clock of the awaited decision starts at the time of the game's last move (the
move log's `at` for the current version), so nothing needs scheduling: every due
time is computed from the database. What was already done for the current version
(`reminders.sent`) is stored too, so a restart neither forgets nor repeats a step.

A player away (`/montana me away`, `bot.core.delivery.presence`) pauses the clock of every
decision awaited from them: while they are away nothing is due for it — no half-time
reminder, no overdue, no auction pass. When they come back (`/montana me back`, or
their away time ends: the driver ends it at that moment, also when it runs late), the
clock of each decision then awaited from them restarts from that moment (stored in
`deadline_restarts` for that version, `Watch.started_at`), with a full deadline and
its reminders counted afresh; a decision handed to them while away starts its clock
then too. Votes to end the game wait for the same clock.

For the decision awaited now, with T its deadline (auction or turn):
- at T/2 the awaited player is mentioned again, once;
- at T an auction answer (`pending.kind == "bid"`) is answered `pass` on their behalf
  through the service, like a button press (said in the channel, marked in the log);
- at T, 2T, 3T ... any other decision gets an "overdue" reminder whose button lets the
  other players vote to end the game; a majority of them ends it, and the standings
  at that moment are stored as its unfinished result (status `ended`).

`step_for` decides what is due for one game, a pure function of what is stored and
the clock it is given. `DeadlineDriver` runs it for every game from one task that
sleeps until the next due time (or `poll_seconds`, whichever is sooner, or until woken
after a move), passes auction answers through the service and hands everything to be
said to a `DeadlinePoster` — the front end's part. Its clock is injectable, so tests
move time instead of waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Protocol

from babel.dates import format_timedelta

from bot.core.clock.deadline_hours import DEADLINE_HOURS, check_hours, hours_refused
from bot.core.clock.due import AUCTION_ANSWER, period_of, steps_due
from bot.core.clock.hours import HoursPrefs, QuietHours, counted_seconds, counted_until
from bot.core.delivery.presence import AwayChange
from bot.core.play.hooks import Hooks
from bot.core.play.service import GameService, Outcome, Refusal
from bot.core.runtime import incidents, logs
from bot.core.runtime.periodic import Clock, PeriodicTask
from bot.core.store import (
    ACTIVE,
    DEFAULT_AUCTION_SECONDS,
    DEFAULT_TURN_SECONDS,
    ENDED,
    LOBBY,
    DeadlineClock,
    GameRow,
    Store,
    now,
)
from bot.core.wording import words
from bot.core.wording.refusals import game_words
from i18n import Translator, translatable
from render.words import ENGLISH
from rules import Game

log = logging.getLogger(__name__)

FULL_PASS_POLLS = 10
"""Every this many polls (`poll_seconds`) the deadline task looks at every game again
(what changed without a move: a player back, a database edited); in between only at the
games that moved and those the heap says are due."""

HOUR = 3600
DEADLINE_STEP = 2
"""The step count recorded once a decision's deadline has passed (1: its half time)."""
LONGEST_SECONDS = DEADLINE_HOURS[1] * HOUR
"""No deadline is saved longer than this, whatever asks for it (the settings too)."""
SHORTEST_SECONDS = 60
"""Nor counted shorter than a minute (`Deadlines.stored`)."""
DEFAULT_POLL_SECONDS = 60.0
MIN_SLEEP_SECONDS = 1.0
"""Never spin: a step is recorded before it is taken, so the next due time moves on."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_time(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


OVER_ALREADY = translatable("This game is over already.")


def period_text(seconds: int, t: Translator = ENGLISH) -> str:
    """A deadline's length in `t`'s language, in hours and minutes as it was set: "48
    hours", "1 hour 30 minutes", "48 godzin", "1 heure 30 minutes", "48時間" (CLDR's units,
    through Babel: a unit never comes from the code)."""
    hours, rest = divmod(int(seconds), HOUR)
    minutes = rest // 60
    if not hours:
        minutes = max(minutes, 1)
    parts = []
    if hours:
        parts.append(
            format_timedelta(
                timedelta(hours=hours),
                granularity="hour",
                threshold=UNIT_KEPT,
                format="long",
                locale=t.language,
            )
        )
    if minutes:
        parts.append(
            format_timedelta(
                timedelta(minutes=minutes),
                granularity="minute",
                threshold=UNIT_KEPT,
                format="long",
                locale=t.language,
            )
        )
    if t.language == "ja":  # 48時間30分: Japanese writes a count and its unit together
        return "".join(part.replace(" ", "").replace("\u00a0", "") for part in parts)
    return " ".join(parts)


UNIT_KEPT = 10**9
"""Babel's `threshold` that keeps the unit asked for (48 hours stay hours, not 2 days)."""


@dataclass(frozen=True)
class Deadlines:
    turn_seconds: int = DEFAULT_TURN_SECONDS
    auction_seconds: int = DEFAULT_AUCTION_SECONDS

    def describe(self, t: Translator = ENGLISH) -> str:
        return t.gettext(
            "turn deadline {turn}, city auction answers {auction}",
            turn=period_text(self.turn_seconds, t),
            auction=period_text(self.auction_seconds, t),
        )

    def period(self, kind: str) -> int:
        """The deadline of a decision of this kind, in seconds."""
        return period_of(kind, self.turn_seconds, self.auction_seconds)

    @classmethod
    def stored(cls, turn_seconds: int, auction_seconds: int) -> Deadlines:
        """The deadlines as read: a value saved before they were checked (a forged
        `turn_hours: 1000000000`, or 0) counts as the nearest allowed, from a minute to
        `LONGEST_SECONDS`, so that no game's clock breaks the deadline pass."""

        def bounded(seconds: int) -> int:
            return max(SHORTEST_SECONDS, min(int(seconds), LONGEST_SECONDS))

        return cls(bounded(turn_seconds), bounded(auction_seconds))


@dataclass(frozen=True)
class Watch:
    """An active game's clock, as stored."""

    game_id: int
    version: int
    moved_at: datetime
    deadlines: Deadlines
    sent: int
    """Steps already taken for this version (0: none, 1: the half-time reminder, ...)."""
    restarted_at: datetime | None = None
    """When the clock of this version's decision started again (its player came back)."""

    @property
    def started_at(self) -> datetime:
        """When the clock of the awaited decision started."""
        return self.restarted_at or self.moved_at

    undo_epoch: int = 0
    """The game's undo epoch: after an undo a version can be reached again along another
    line of play, so a version alone does not say which decision is awaited."""


@dataclass(frozen=True)
class Awaited:
    player: str
    kind: str
    hours: QuietHours | None = None
    """The player's quiet hours: their clock counts only their active hours."""


@dataclass(frozen=True)
class Absence:
    """A player absent from a game: away, or overdue on the decision awaited from them."""

    away: bool
    """Away (`/montana me away`); else overdue."""
    since: datetime
    """When the absence began: the away's start, or the deadline that passed."""
    at: datetime
    """The moment it was found (by the deadline driver's clock)."""


def deadline_of(watch: Watch, kind: str, hours: QuietHours | None = None) -> datetime:
    """When the decision's deadline passes: its period counted in the awaited player's
    active hours (all hours without quiet ones, `bot.core.clock.hours`), at the latest
    `WALL_FACTOR` times the period after the clock started (`counted_until`)."""
    return counted_until(hours, watch.started_at, watch.deadlines.period(kind))


def overdue(watch: Watch, kind: str, hours: QuietHours | None, moment: datetime) -> bool:
    """Whether the decision's deadline has passed at `moment`: once its step was taken
    (`Watch.sent` of 2 or more) it stays passed, whatever quiet hours the awaited player
    sets afterwards (issue 35 point 1: nobody undoes their own lateness)."""
    return watch.sent >= DEADLINE_STEP or moment >= deadline_of(watch, kind, hours)


def due_at(watch: Watch, kind: str, hours: QuietHours | None = None) -> datetime:
    """When the next step for this decision is due (inside the active hours of the
    awaited player, whose quiet hours are `hours`)."""
    period = watch.deadlines.period(kind)
    offset = period / 2 if watch.sent == 0 else period * watch.sent
    return counted_until(hours, watch.started_at, offset)


StepKind = Literal["remind", "overdue", "pass"]


@dataclass(frozen=True)
class Step:
    """What is due for one game: its half-time reminder, an overdue notice, or the
    pass of an unanswered auction."""

    watch: Watch
    awaited: Awaited
    kind: StepKind
    sent: int
    """The step count to record for the game's version once this step is taken."""

    @property
    def period(self) -> int:
        return self.watch.deadlines.period(self.awaited.kind)

    @property
    def deadline(self) -> datetime:
        return deadline_of(self.watch, self.awaited.kind, self.awaited.hours)


def step_for(watch: Watch, awaited: Awaited | None, now: datetime) -> Step | None:
    """The step due for a game at `now`, or None (nobody awaited, or nothing due yet).
    Only the awaited player's active hours count (`Awaited.hours`)."""
    if awaited is None or now < due_at(watch, awaited.kind, awaited.hours):
        return None
    period = watch.deadlines.period(awaited.kind)
    elapsed = counted_seconds(awaited.hours, watch.started_at, now)
    # after a long outage, catch up without sending every missed reminder
    sent = max(steps_due(elapsed, period), watch.sent + 1)
    kind: StepKind = "remind"
    if overdue(watch, awaited.kind, awaited.hours, now):
        kind = "pass" if awaited.kind == AUCTION_ANSWER else "overdue"
    return Step(watch, awaited, kind, sent)


def next_due(games: Iterable[tuple[Watch, Awaited | None]]) -> datetime | None:
    """The earliest time something becomes due among `games` (a game whose due time
    cannot be computed is left out: the driver logs it)."""
    found: list[datetime] = []
    for watch, awaited in games:
        if awaited is not None:
            with contextlib.suppress(ArithmeticError):
                found.append(due_at(watch, awaited.kind, awaited.hours))
    return min(found, default=None)


# ------------------------------------------------------------------ the store's part


class DeadlineStore:
    """The deadline tables (migration 3 of `bot.core.store`)."""

    def __init__(self, store: Store, hooks: Hooks | None = None) -> None:
        self.store = store
        self.hooks = hooks or Hooks()
        """The game flow's hooks: what a game's end writes with it (its rating)."""

    async def deadlines(self, game_id: int) -> Deadlines:
        seconds = await self.store.deadline_seconds(game_id)
        return Deadlines() if seconds is None else Deadlines.stored(*seconds)

    async def set_deadlines(self, game_id: int, deadlines: Deadlines) -> None:
        await self.store.set_deadline_seconds(
            game_id, deadlines.turn_seconds, deadlines.auction_seconds
        )

    async def watches(self, game_id: int | None = None) -> list[Watch]:
        """The clocks of every active game of this process's shards (or of one)."""
        clocks = await self.store.clocks(game_id)
        restarts = await self.store.deadline_restarts(game_id)
        return [watch_of(clock, restarts) for clock in clocks]

    async def record_step(self, game_id: int, version: int, sent: int, at: datetime) -> None:
        await self.store.record_deadline_step(
            game_id, version, sent, at.isoformat(timespec="seconds")
        )

    async def mark_move(self, game_id: int, version: int, note: str) -> None:
        await self.store.note_move(game_id, version, note)

    async def add_vote(self, game_id: int, version: int, voter: str, at: datetime) -> list[str]:
        """Record `voter`'s vote for this state; the voters of this state so far."""
        return await self.store.add_end_vote(
            game_id, version, voter, at.isoformat(timespec="seconds")
        )

    async def voters(self, game_id: int, version: int) -> list[str]:
        """The voters so far to end the game in this state."""
        return await self.store.end_voters(game_id, version)

    async def end_game(self, row: GameRow, game: Game, result: dict[str, Any]) -> bool:
        """Active -> ended with `result` stored, if the game is still at its version;
        rated in the same transaction, the overdue player placed last (the `at_end`
        hooks of `bot.core.play.hooks`: `bot.core.community.ratings`)."""
        at_end = await self.hooks.ending(row, game, ended_at=now(), quitter=game.awaiting)
        return await self.store.end_game(row.id, row.version, result, at_end=at_end)


def watch_of(clock: DeadlineClock, restarts: Mapping[int, tuple[int, datetime]]) -> Watch:
    return Watch(
        game_id=clock.game_id,
        version=clock.version,
        moved_at=parse_time(clock.moved_at),
        deadlines=Deadlines.stored(clock.turn_seconds, clock.auction_seconds),
        sent=clock.sent,
        restarted_at=restart_at(restarts, clock.game_id, clock.version),
        undo_epoch=clock.undo_epoch,
    )


def restart_at(
    restarts: Mapping[int, tuple[int, datetime]], game_id: int, version: int
) -> datetime | None:
    """When the clock of a game's decision at `version` started again, if it did."""
    restart = restarts.get(game_id)
    return restart[1] if restart is not None and restart[0] == version else None


def result_record(game: Game, voters: list[str]) -> dict[str, Any]:
    """What is stored for a game ended early: the ranking at that moment."""
    result = game.result()
    return {
        "finished": result.finished,
        "reason": "vote",
        "voters": voters,
        "awaited": game.awaiting,
        "ranking": [
            {
                "player": s.player,
                "place": s.place,
                "settlements": s.settlements,
                "cows_and_canteens": s.cows_and_canteens,
                "holdings": s.holdings,
            }
            for s in result.ranking
        ],
    }


@dataclass(frozen=True)
class VoteOutcome:
    voters: list[str]
    needed: int
    ended: bool
    voter_name: str


class DeadlinePoster(Protocol):
    """The front end's part: saying reminders and the end of a game by vote."""

    async def remind(self, row: GameRow, game: Game, step: Step) -> None:
        """Mention the awaited player again (half time, or overdue with a vote button)."""
        ...

    async def announce_end(
        self, row: GameRow, game: Game, voters: list[str], awaited: str
    ) -> None: ...


# ------------------------------------------------------------------ the driver


class DeadlineDriver(PeriodicTask):
    TASK_NAME = "deadlines"
    MIN_SLEEP_SECONDS = MIN_SLEEP_SECONDS

    def __init__(
        self,
        service: GameService,
        poster: DeadlinePoster,
        *,
        clock: Clock = utcnow,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
    ) -> None:
        super().__init__(clock=clock, poll_seconds=poll_seconds)
        self.service = service
        self.poster = poster
        self.db = DeadlineStore(service.store, service.hooks)
        self.presence = service.presence
        self.hours = HoursPrefs(service.store)
        self._awaited: dict[int, tuple[tuple[int, int], Awaited | None]] = {}
        self._pass = asyncio.Lock()
        # the due times, so that a move costs the same whatever the number of games:
        # a heap of (due, game id, version, epoch), the entry each game has now (older
        # entries are skipped when they come up), and the games to look at again
        self._heap: list[tuple[datetime, int, int, int]] = []
        self._entry: dict[int, tuple[datetime, int, int, int]] = {}
        self._dirty: set[int] = set()
        self._scanned_at: datetime | None = None
        self.at_deadline: Callable[[GameRow, str, str], Awaitable[bool]] | None = None
        """Called when a decision's deadline passes (the player, the period in words)
        before the usual step; True when it dealt with it (the AI players, by the
        game's `absent` setting: `bot.core.ai_players.ai_seats`)."""

    # ---- the task

    async def stop(self) -> None:
        """Stop the task; a pass already running finishes first."""
        async with self._pass:  # let a step in progress complete
            task, self._task = self._task, None
            if task is not None:
                task.cancel()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def set_hours(
        self, game_id: int, turn_hours: float | None, auction_hours: float | None
    ) -> Deadlines:
        """Change a game's deadlines (None keeps one); returns them as they are now.
        Hours may be fractions (MONTANA_TURN_HOURS=0.3): kept as whole seconds."""
        for name, value in (("turn_hours", turn_hours), ("auction_hours", auction_hours)):
            # the settings' defaults may be fractions; nothing beyond 30 days, whatever asks
            if value is not None and (
                not math.isfinite(value) or not 0 < value * HOUR <= LONGEST_SECONDS
            ):
                raise hours_refused(name, value)
        current = await self.db.deadlines(game_id)
        new = Deadlines(
            turn_seconds=(
                round(turn_hours * HOUR) if turn_hours is not None else current.turn_seconds
            ),
            auction_seconds=(
                round(auction_hours * HOUR)
                if auction_hours is not None
                else current.auction_seconds
            ),
        )
        await self.db.set_deadlines(game_id, new)
        self._dirty.add(game_id)
        self.wake()
        return new

    async def settle(self, player: str) -> None:
        """Take the steps due now in the games awaiting `player`, before their quiet hours
        change: a deadline that passed under the old hours is recorded as passed
        (`overdue`), so new hours never move it back nor void the votes cast against them.
        Only those games are looked at (from the heap: the answer does not wait for a
        pass over every game); before the first pass, a whole pass."""
        try:
            if self._scanned_at is None:
                await self.one_pass()
                return
            async with self._pass:
                now = self.clock()
                mine = [
                    game_id
                    for game_id, (_, awaited) in self._awaited.items()
                    if awaited is not None and awaited.player == player
                ]
                for game_id in mine:
                    entry = self._entry.get(game_id)
                    if game_id not in self._dirty and (entry is None or entry[0] > now):
                        continue
                    for watch, awaited in await self._track(game_id):
                        if await self._step(watch, awaited):
                            await self._track(game_id)
        except Exception as error:  # the change of hours goes on; the task tries again
            incidents.record(log, error, "the deadline steps before a change of hours")

    def rescan(self) -> None:
        """Read every game's clock again at once: a player's quiet hours changed, which
        moves the due times of every decision awaited from them."""
        self._scanned_at = None
        self.wake()

    async def on_announced(self, outcome: Outcome) -> None:
        """The service's hook: a move restarts the clock of the awaited decision (of
        that game only: its due time is put in the heap afresh)."""
        row, game = outcome.row, outcome.game
        awaited = Awaited(game.awaiting, game.pending.kind) if game.awaiting else None
        self._awaited[row.id] = ((row.version, row.undo_epoch), awaited)
        self._dirty.add(row.id)
        self.wake()

    async def one_pass(self) -> datetime | None:
        """A whole pass over every game (`run_due`) at start and every
        `FULL_PASS_POLLS` polls; otherwise only the games that moved and those whose
        due time came, taken from the heap."""
        now = self.clock()
        full_every = timedelta(seconds=self.poll_seconds * FULL_PASS_POLLS)
        if self._scanned_at is None or now - self._scanned_at >= full_every:
            await self.run_due()
        else:
            await self._run_heap(now)
        return await self._next_from_heap()

    # ---- the heap of due times

    def _push(self, watch: Watch, awaited: Awaited | None) -> None:
        if awaited is None:
            self._entry.pop(watch.game_id, None)
            return
        try:
            due = due_at(watch, awaited.kind, awaited.hours)
        except Exception as error:  # e.g. a deadline beyond the calendar: this game alone
            self._entry.pop(watch.game_id, None)
            incidents.record(log, error, f"game {watch.game_id}: its deadline's due time")
            return
        entry = (due, watch.game_id, watch.version, watch.undo_epoch)
        if self._entry.get(watch.game_id) != entry:
            self._entry[watch.game_id] = entry
            heapq.heappush(self._heap, entry)

    def _rebuild(self, games: Iterable[tuple[Watch, Awaited | None]]) -> None:
        self._entry.clear()
        self._heap.clear()
        for watch, awaited in games:
            self._push(watch, awaited)
        # a game's entries left behind by its newer ones weigh on nothing but memory
        self._heap = list(self._entry.values())
        heapq.heapify(self._heap)
        self._dirty.clear()
        self._scanned_at = self.clock()

    async def _track(self, game_id: int) -> list[tuple[Watch, Awaited | None]]:
        """Read one game's clock again and put its due time in the heap."""
        games = await self._games(game_id)
        if not games:
            self._entry.pop(game_id, None)
            self._awaited.pop(game_id, None)
        for watch, awaited in games:
            self._push(watch, awaited)
        return games

    async def _run_heap(self, now: datetime) -> int:
        """End the away times that are over, look again at the games that moved, then
        take the steps the heap says are due."""
        taken = 0
        async with self._pass:
            for change in await self.presence.end_due(now):
                await self._tell(change)
                self._scanned_at = None  # clocks restarted: the next pass reads them all
            dirty, self._dirty = self._dirty, set()
            for game_id in dirty:
                await self._track(game_id)
            due: list[int] = []
            while self._heap and self._heap[0][0] <= now:
                entry = heapq.heappop(self._heap)
                if self._entry.get(entry[1]) == entry:  # else the game moved since
                    del self._entry[entry[1]]
                    due.append(entry[1])
            for game_id in due:
                for watch, awaited in await self._track(game_id):
                    if await self._step(watch, awaited):
                        taken += 1
                        await self._track(game_id)
        return taken

    async def _next_from_heap(self) -> datetime | None:
        while self._heap and self._entry.get(self._heap[0][1]) != self._heap[0]:
            heapq.heappop(self._heap)
        due = [self._heap[0][0] if self._heap else None, await self.presence.next_end()]
        return min((moment for moment in due if moment is not None), default=None)

    async def _tell(self, change: AwayChange) -> None:
        """Say an away time's end; a failure is logged with its error id, and the pass
        goes on with the others."""
        try:
            await self.presence.tell(change)
        except Exception as error:
            incidents.record(log, error, "saying that an away time ended failed")

    # ---- what is due

    async def awaited(self, game_id: int, version: int, undo_epoch: int = 0) -> Awaited | None:
        cached = self._awaited.get(game_id)
        if cached is not None and cached[0] == (version, undo_epoch):
            return cached[1]
        row = await self.service.store.get(game_id)
        found: Awaited | None = None
        if (
            row is not None
            and row.state_json is not None
            and (row.version, row.undo_epoch) == (version, undo_epoch)
        ):
            try:
                game = GameService.game_of(row)
            except Refusal:
                # its state cannot be read (logged once by `game_of`): no deadline runs
                # for it, and it does not hold up the other games' deadlines
                game = None
            if game is not None and game.awaiting is not None:
                found = Awaited(game.awaiting, game.pending.kind)
        self._awaited[game_id] = ((version, undo_epoch), found)
        return found

    async def _games(self, game_id: int | None = None) -> list[tuple[Watch, Awaited | None]]:
        """Each active game's clock and who it waits for; nobody while that player is
        away (their clock is paused)."""
        games = [
            (watch, await self.awaited(watch.game_id, watch.version, watch.undo_epoch))
            for watch in await self.db.watches(game_id)
        ]
        players = {awaited.player for _, awaited in games if awaited is not None}
        away = await self.presence.away_among(sorted(players), self.clock())
        quiet = await self.hours.of(players - set(away))
        return [
            (
                watch,
                None
                if awaited is None or awaited.player in away
                else replace(awaited, hours=quiet.get(awaited.player)),
            )
            for watch, awaited in games
        ]

    async def due_of(self, row: GameRow) -> tuple[str, datetime] | None:
        """Who the game waits for and when their decision is due (None if nobody)."""
        game = self.service.game_of(row)
        awaited = game.awaiting
        for watch in await self.db.watches(row.id):
            if awaited is not None and watch.version == row.version:
                hours = await self.hours.one(awaited)
                return awaited, deadline_of(watch, game.pending.kind, hours)
        return None

    async def absence_of(self, row: GameRow, player: str) -> Absence | None:
        """Whether `player` is absent from the game now (away, or their deadline for
        the decision awaited from them has passed), and since when; None if present."""
        moment = self.clock()
        away = await self.presence.away_of(player, moment)
        if away is not None:
            return Absence(True, away.since, moment)
        game = self.service.game_of(row)
        if game.awaiting != player:
            return None
        for watch in await self.db.watches(row.id):
            if (watch.version, watch.undo_epoch) == (row.version, row.undo_epoch):
                hours = await self.hours.one(player)
                deadline = deadline_of(watch, game.pending.kind, hours)
                if not overdue(watch, game.pending.kind, hours, moment):
                    return None
                if deadline > moment:
                    # passed under the hours of then, which quiet hours set since moved:
                    # it passed no earlier than without any (the votes since then count)
                    deadline = deadline_of(watch, game.pending.kind, None)
                return Absence(False, deadline, moment)
        return None

    async def next_due(self) -> datetime | None:
        """The next moment something is due: a deadline's step, or an away time's end."""
        due = [next_due(await self._games()), await self.presence.next_end()]
        return min((moment for moment in due if moment is not None), default=None)

    async def run_due(self) -> int:
        """End the away times that are over, then take every step due now, looking at
        every active game of this process's shards; returns how many steps were taken."""
        taken = 0
        async with self._pass:
            for change in await self.presence.end_due(self.clock()):
                await self._tell(change)
            for watch, awaited in await self._games():
                if await self._step(watch, awaited):
                    taken += 1
            self._rebuild(await self._games())
        return taken

    async def _step(self, watch: Watch, awaited: Awaited | None) -> bool:
        """Take the step due for one game now, if any; whether one was taken. Whatever
        fails for this game is logged with its error id (`incidents`) and holds up no
        other game's deadline."""
        try:
            return await self._step_of(watch, awaited)
        except Refusal as refusal:  # e.g. its state cannot be read (logged once)
            log.warning("game %s: no deadline step: %s", watch.game_id, refusal.message)
            return False
        except Exception as error:
            # one game's trouble must not hold up the others' deadlines
            incidents.record(log, error, f"game {watch.game_id}: a deadline step failed")
            return False

    async def _step_of(self, watch: Watch, awaited: Awaited | None) -> bool:
        step = step_for(watch, awaited, self.clock())
        if step is None:
            return False
        row = await self.service.store.get(watch.game_id)
        if (
            row is None
            or (row.version, row.undo_epoch) != (watch.version, watch.undo_epoch)
            or row.status != ACTIVE
        ):
            return False
        with logs.game_scope(row.id, row.play_channel_id):
            await self._take(row, step)
        return True

    async def _take(self, row: GameRow, step: Step) -> None:
        await self.db.record_step(row.id, row.version, step.sent, self.clock())
        if row.ai_plays(step.awaited.player):
            return  # the AI answers for this seat: nobody to remind
        if (
            step.kind != "remind"
            and self.at_deadline is not None
            and await self.at_deadline(
                row, step.awaited.player, period_text(step.period, game_words(row))
            )
        ):
            return
        game = self.service.game_of(row)
        if step.kind == "pass":
            await self._pass_for(row, step)
            return
        await self.poster.remind(row, game, step)
        log.info(
            "reminded %s (%s, version %s)",
            step.awaited.player,
            "overdue" if step.kind == "overdue" else "half",
            row.version,
        )

    async def _pass_for(self, row: GameRow, step: Step) -> None:
        player = step.awaited.player
        name = row.names.get(player, player)
        note = "⏰ " + game_words(row).gettext(
            "{who} did not answer the city auction within {period}, so I passed for them.",
            who=name,
            period=period_text(step.period, game_words(row)),
        )
        try:
            await self.service.play(
                row.id,
                player,
                "pass",
                expected_version=row.version,
                expected_epoch=row.undo_epoch,
                note=note,
            )
        except Refusal as refusal:
            log.info("no pass on timeout: %s", refusal.message)
            return
        await self.db.mark_move(row.id, row.version + 1, "deadline")
        log.info("passed for %s in the city auction (deadline, version %s)", player, row.version)

    # ---- votes to end

    async def vote(
        self,
        target: int | GameRow,
        voter: str,
        version: int | None,
    ) -> VoteOutcome:
        """`voter` votes to end the game (`version`: the state the button was made for;
        where it was pressed is the front end's to check: `guard.run_press`)."""
        row = await self.service.row_of(target)
        async with self.service.lock(row.id):
            if row.status == LOBBY:
                raise Refusal(translatable("The game has not started yet."))
            if row.status != ACTIVE:
                raise Refusal(OVER_ALREADY)
            if version is not None and version != row.version:
                raise Refusal(
                    translatable(
                        "This vote is out of date: the game has moved on since, so it is not "
                        "overdue any more."
                    )
                )
            game = self.service.game_of(row)
            awaited = game.awaiting
            if not row.has_player(voter):
                raise Refusal(translatable("Only the players of this game can vote to end it."))
            if awaited is None:
                raise Refusal(OVER_ALREADY)
            if voter == awaited:
                raise Refusal(
                    translatable(
                        "You are the player the game is waiting for: make your move, or ask "
                        "the creator to {/game abandon} the game."
                    )
                )
            away = await self.presence.away_of(awaited, self.clock())
            if away is not None:
                raise Refusal(
                    translatable(
                        "{who} is away, so their deadline is paused: a vote to end the game "
                        "is possible only once they are back and overdue."
                    ),
                    who=row.names.get(awaited, awaited),
                )
            watches = await self.db.watches(row.id)
            period = (await self.db.deadlines(row.id)).period(game.pending.kind)
            hours = await self.hours.one(awaited)
            if not watches or not overdue(watches[0], game.pending.kind, hours, self.clock()):
                names = row.names
                raise Refusal(
                    lambda t: t.gettext(
                        "A vote to end the game is possible only once the awaited player is "
                        "overdue ({period} without a move). {waiting}",
                        period=period_text(period, t),
                        waiting=words.waiting_for(game, names, t),
                    )
                )
            # the other human players: an AI seat never votes
            others = [s.user_id for s in row.humans if s.user_id != awaited]
            needed = len(others) // 2 + 1
            earlier = await self.db.voters(row.id, row.version)
            if voter in earlier:
                raise Refusal(
                    translatable(
                        "You voted already to end this game: {n} of the {needed} votes needed."
                    ),
                    n=len([v for v in earlier if v in others]),
                    needed=needed,
                )
            voters = await self.db.add_vote(row.id, row.version, voter, self.clock())
            counted = [v for v in voters if v in others]
            if len(counted) < needed:
                return VoteOutcome(counted, needed, False, row.names.get(voter, "A player"))
            if not await self.db.end_game(row, game, result_record(game, counted)):
                raise Refusal(translatable("The game has moved on meanwhile; the vote is void."))
            log.info("ended by a vote of %s while %s was overdue", counted, awaited)
            await self.poster.announce_end(row, game, counted, awaited)
            # the summary the end owes (`bot.core.community.ratings`) goes out after that line
            self.service.delivery.wake()
            await self.service.game_over(replace(row, status=ENDED))
            return VoteOutcome(counted, needed, True, row.names.get(voter, "A player"))


__all__ = [
    "DEFAULT_AUCTION_SECONDS",
    "DEFAULT_TURN_SECONDS",
    "Absence",
    "DeadlineDriver",
    "DeadlinePoster",
    "DeadlineStore",
    "Deadlines",
    "Step",
    "VoteOutcome",
    "check_hours",
    "due_at",
    "next_due",
    "period_text",
    "step_for",
]
