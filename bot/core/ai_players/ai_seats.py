"""AI players in the bot (issue 14 points 4-6): AI seats, seats taken over, hints.

A seat is played by the AI when it is an AI seat (id `ai:<n>`, added in the lobby) or a
human seat handed over (`GameRow.taken_over`: by a vote of the other humans, or by the
game's `absent` setting when a deadline passes) until its owner reclaims it.

`AiPlayers` runs them. Whenever a game may wait for the AI — after every announced move
(`on_announced`, the service's hook), at start-up for every game under way, after a
takeover — it wakes that game's task, which waits `delay` seconds (the players see the
picture first), reads the game, asks `ai.decide_from_state` in a separate process (the
event loop never runs the search) and plays the answer through `GameService.play` like
a press: a normal logged move, message and picture, guarded by the version and undo
epoch it read. A stale version means someone else moved: the game is read again and
decided afresh, so a move is never applied twice. The decision is seeded from (game,
version, undo epoch), so after a restart the same state gets the same move.

A seat can also be handed over where this process does not see it happen: an away
with the AI (`bot.core.delivery.presence`) written by the process of another shard, in a game of
this one. So every `SWEEP_SECONDS` the games of this process's shards with a seat taken
over are woken too (a wake that finds no AI awaited does nothing).

`hint` asks the same question for the awaited human and words the answer (`ai.explain`).
Levels (issue 27): an AI seat plays its own level (`ai:<n>:<level>`), a seat taken over
the level the opener chose for the AI seats (`GameRow.ai_level`), a hint `HINT_LEVEL`.

AI work is bounded and fair (issue 21 point 4): a decision is searched once per state
and level (game, version, undo epoch, player, policy) and shared by every hint asked
for it, and by the AI seat deciding that state (`decide`); hints are limited per member
(`limits.HintRate`, the server's `hints_per_minute`); they run in a worker process of
their own at a lower priority, so the AI seats (their pool: `workers` processes, the
`MONTANA_AI_PROCESSES` setting) never wait behind them. And a game whose every seat the
AI plays does not run: it pauses, saying why, until a person takes a seat back.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import ai
from bot.core.clock.deadlines import Absence
from bot.core.play.service import STALE_WORDS, BrokenGame, GameService, Outcome, Refusal
from bot.core.runtime import metrics
from bot.core.runtime.workers import worker_pool
from bot.core.server.limits import HintRate, all_seats_ai, limits_of
from bot.core.store import (
    ABSENT_AI_MOVE,
    ABSENT_AI_SEAT,
    ABSENT_MODES,
    ABSENT_WAIT,
    ACTIVE,
    AiTables,
    GameRow,
    StoreError,
)
from bot.core.wording import words
from bot.core.wording.refusals import game_words
from i18n import Translator, translatable, translatable_in
from rules import Game

log = logging.getLogger(__name__)

ABSENT_LABELS = {
    ABSENT_WAIT: translatable_in("option choice", "wait: reminders only"),
    ABSENT_AI_MOVE: translatable_in("option choice", "ai-move: the AI plays the overdue decision"),
    ABSENT_AI_SEAT: translatable_in(
        "option choice", "ai-seat: the AI takes the seat until reclaimed"
    ),
}
"""Each `absent` setting's label among the `absent:` option's choices (`ABSENT_CHOICES`
of the Discord adapter shows the same words)."""
# Translators: {modes} lists the labels of the absent option's choices, each quoted:
# “wait: reminders only”, “ai-move: …”, or “ai-seat: …”.
WRONG_ABSENT = translatable(
    "“{value}” is not an absent setting: choose {modes} in {/game settings:absent}. "
    "Nothing was changed."
)
"""The answer to an `absent` value no setting has."""


def absent_choices(t: Translator) -> str:
    """The `absent:` option's choices in `t`'s language, as a refusal offers them."""
    return words.choices_worded((t.translate(label) for label in ABSENT_LABELS.values()), t)


DEFAULT_DELAY_SECONDS = 1.5
"""How long the AI waits before moving, so the players see the picture first."""
SWEEP_SECONDS = 60.0
"""How often the games with a seat taken over are woken (see the module's docstring)."""
RETRY_SECONDS = 30.0
"""After a failure (the database busy, a broken state), when the game is tried again."""
HINT_LEVEL = "hard"
"""`/montana hint` asks the strongest level (an AI seat plays its own level,
`GameRow.ai_level`)."""
HINT_NICENESS = 19
"""How much lower the hint worker's priority is than the AI seats' (`os.nice`)."""
DECISIONS_KEPT = 512
"""Decisions remembered for the hints and AI seats asking again for the same state."""
DecisionKey = tuple[int, int, int, str, str]
"""(game, version, undo epoch, player, policy): a state, whose decision, at what level."""

ABSENT_MESSAGES = {
    ABSENT_WAIT: translatable("wait (reminders only)"),
    ABSENT_AI_MOVE: translatable("the AI plays the overdue decision"),
    ABSENT_AI_SEAT: translatable("the AI takes the seat until its owner reclaims it"),
}
"""What each `absent` setting does, in words (`absent_words` in a language)."""
ABSENT_WORDS = {mode: message.id for mode, message in ABSENT_MESSAGES.items()}
CHANGED_MEANWHILE = translatable("The game changed meanwhile; please try again.")
NOT_ABSENT = translatable(
    "{who} is here: a vote to hand their seat to the AI is possible only while they are "
    "away ({/me away}) or once their deadline for the decision awaited from them "
    "has passed."
)
VOTED_ALREADY = translatable(
    "You voted already; your vote counts until the seat is handed over or its player is back."
)
AbsenceOf = Callable[[GameRow, str], Awaitable[Absence | None]]
"""Whether a player is absent from a game now, and since when (the deadline driver's
`absence_of`)."""


def _stamp(moment: datetime) -> str:
    """How a vote's moment is written (as `store.now` writes it: such stamps sort)."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def absent_words(mode: str, t: Translator) -> str:
    message = ABSENT_MESSAGES.get(mode)
    return t.translate(message) if message is not None else mode


def decision_seed(game_id: int, version: int, undo_epoch: int) -> int:
    """The seed of the AI's decision in this state: the same after a restart."""
    return zlib.crc32(f"{game_id}:{version}:{undo_epoch}".encode())


def awaited_ai(row: GameRow, game: Game) -> str | None:
    """The seat the AI must answer for now, if the game waits for one."""
    pid = game.awaiting
    return pid if row.status == ACTIVE and pid is not None and row.ai_plays(pid) else None


@dataclass(frozen=True)
class Hint:
    """The AI's suggestion for the awaited player, in the state it was made for."""

    row: GameRow
    player: str
    decision: ai.Decision
    text: str

    @property
    def notation(self) -> str:
        return str(self.decision.action)


@dataclass(frozen=True)
class TakeoverVote:
    voters: list[str]
    needed: int
    done: bool
    row: GameRow


def _decide(
    state: dict[str, Any], player: str, policy: str, seed: int
) -> tuple[ai.Decision, float]:
    """In the worker process: the decision and its CPU time."""
    start = time.process_time()
    decision = ai.decide_from_state(state, player, policy, seed)
    return decision, time.process_time() - start


def _ready() -> bool:
    return True


def default_executor(workers: int = 1) -> concurrent.futures.Executor:
    """The AI seats' worker processes, which end with the bot even when it is killed."""
    return worker_pool(workers)


def default_hint_executor() -> concurrent.futures.Executor:
    """The hints' worker process, at a lower priority than the AI seats'."""
    return worker_pool(1, niceness=HINT_NICENESS)


def paused_words(row: GameRow) -> str:
    """Why a game whose every seat the AI plays does not go on, and how it does."""
    t = game_words(row)
    owners = [seat.name for seat in row.humans if seat.user_id in row.taken_over]
    return "⏸ " + t.gettext(
        "The game is paused: the AI now plays every seat, and it does not play on alone. "
        "It goes on as soon as a player takes their seat back with {/me reclaim} "
        "({players}).",
        players=", ".join(owners),
    )


class AiPlayers:
    def __init__(
        self,
        service: GameService,
        *,
        delay: float = DEFAULT_DELAY_SECONDS,
        policy: str | None = None,
        executor: concurrent.futures.Executor | None = None,
        hint_executor: concurrent.futures.Executor | None = None,
        workers: int = 1,
        hint_rate: HintRate | None = None,
    ) -> None:
        self.service = service
        self.tables = AiTables(service.store)
        self.delay = delay
        self.policy = policy
        """One policy for every seat and hint (the bench, tests); None: the levels."""
        self.workers = workers
        self._executor = executor
        self._own_executor = executor is None
        self._hint_executor = hint_executor
        self._own_hint_executor = hint_executor is None
        self.hint_rate = hint_rate or HintRate()
        self._decisions: OrderedDict[DecisionKey, asyncio.Future[ai.Decision]] = OrderedDict()
        self._paused: dict[int, tuple[int, int]] = {}
        """Games said to be paused (all their seats the AI's) by this process, and in
        which state (version, undo epoch): paused again after a move, it is said again."""
        self.searches = 0
        """Decisions searched (a shared one counts once)."""
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._notes: dict[int, str] = {}
        self._stopping = False
        self._sweeper: asyncio.Task[None] | None = None
        self.absence_of: AbsenceOf | None = None
        """Whether a seat's player is absent (set by the front end; None: nobody ever
        is, so no seat is voted over)."""
        self.latencies: list[float] = []
        """Seconds from reading a game to its AI move saved (for the bench)."""
        self.decision_cpu: list[float] = []
        """CPU seconds of each decision in the worker (for the bench)."""

    # ------------------------------------------------------------------ running

    @property
    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            self._executor = default_executor(self.workers)
        return self._executor

    @property
    def hint_executor(self) -> concurrent.futures.Executor:
        if self._hint_executor is None:
            self._hint_executor = default_hint_executor()
        return self._hint_executor

    async def warm_up(self) -> None:
        """Start the workers and load the AI in them now (else the first move does)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.executor, _ready) for _ in range(self.workers)),
            loop.run_in_executor(self.hint_executor, _ready),
        )

    async def start(self) -> None:
        """Wake every game under way: those waiting for the AI (a restart) go on."""
        self._stopping = False
        for game_id in await self.tables.active_games():
            self.wake(game_id)
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_now_and_then(), name="ai-sweep")

    async def sweep(self) -> int:
        """Wake every game of this process's shards with a seat taken over; how many."""
        games = await self.tables.games_taken_over()
        for game_id in games:
            self.wake(game_id)
        return len(games)

    async def _sweep_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except StoreError as error:
                log.warning("waking the games the AI plays in failed: %s", error)

    async def stop(self) -> None:
        """Stop the games' tasks (a move being saved is not cut: the store's transaction
        is all or nothing, and the next start decides again) and the worker."""
        self._stopping = True
        sweeper, self._sweeper = self._sweeper, None
        tasks = [*self._tasks.values(), *([sweeper] if sweeper is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        self._decisions.clear()
        if self._own_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._own_hint_executor and self._hint_executor is not None:
            self._hint_executor.shutdown(wait=False, cancel_futures=True)
            self._hint_executor = None

    async def on_announced(self, outcome: Outcome) -> None:
        """The service's hook: a move was announced; the AI may be awaited now."""
        awaited = outcome.awaited
        if awaited is not None and outcome.row.ai_plays(awaited):
            self.wake(outcome.row.id)

    def wake(self, game_id: int) -> None:
        """Look at this game soon (after `delay`): if it waits for the AI, move."""
        if self._stopping:
            return
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        self._tasks[game_id] = asyncio.create_task(self._drive(game_id), name=f"ai-{game_id}")

    async def idle(self) -> None:
        """Wait until no game's AI is about to move (tests, the console, the bench)."""
        while tasks := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _drive(self, game_id: int) -> None:
        delay = self.delay
        try:
            while True:
                self._again.discard(game_id)
                await asyncio.sleep(delay)
                delay = self.delay
                try:
                    played = await self.play_once(game_id)
                except BrokenGame:
                    return  # logged once by the service; an operator must repair it
                except (StoreError, Refusal) as error:
                    log.warning("game %s: the AI could not move now: %s", game_id, error)
                    played, delay = False, RETRY_SECONDS
                    self._again.add(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("game %s: the AI's move failed", game_id)
                    played, delay = False, RETRY_SECONDS
                    self._again.add(game_id)
                if not played and game_id not in self._again:
                    return
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def decide(self, row: GameRow, player: str, *, hint: bool = False) -> ai.Decision:
        """The AI's decision for `player` in the game as `row` holds it (off the loop).

        Searched once per state: a hint waits for the search of that state under way
        (or done); an AI seat takes a finished one, but never waits behind the hints'
        queue: it searches in its own pool (the same seed: the same decision)."""
        policy = self.policy_for(row, player, hint=hint)
        key: DecisionKey = (row.id, row.version, row.undo_epoch, player, policy)
        known = self._decisions.get(key)
        if known is not None and (hint or known.done()):
            self._decisions.move_to_end(key)
            return await asyncio.shield(known)
        # (an AI seat's search replaces a hint's still queued: later hints take it)
        search = asyncio.ensure_future(self._search(row, player, policy, hint=hint))
        search.add_done_callback(lambda done: self._forget_failed(key, done))
        self._decisions[key] = search
        self._decisions.move_to_end(key)
        while len(self._decisions) > DECISIONS_KEPT:
            self._decisions.popitem(last=False)
        return await asyncio.shield(search)

    def _forget_failed(self, key: DecisionKey, search: asyncio.Future[ai.Decision]) -> None:
        """A search that failed (or was cancelled) is not shared: the next asks again."""
        failed = search.cancelled() or search.exception() is not None
        if failed and self._decisions.get(key) is search:
            del self._decisions[key]

    def policy_for(self, row: GameRow, player: str, *, hint: bool) -> str:
        """The policy deciding for `player`: the hints' level, or the seat's."""
        if self.policy is not None:
            return self.policy
        return HINT_LEVEL if hint else row.ai_level(player)

    async def _search(self, row: GameRow, player: str, policy: str, *, hint: bool) -> ai.Decision:
        state = row.state
        assert state is not None
        seed = decision_seed(row.id, row.version, row.undo_epoch)
        loop = asyncio.get_running_loop()
        executor = self.hint_executor if hint else self.executor
        self.searches += 1
        started = metrics.clock()
        try:
            decision, cpu = await loop.run_in_executor(
                executor, _decide, state, player, policy, seed
            )
        except concurrent.futures.BrokenExecutor:
            # the worker died (killed, out of memory): the next decision starts a new one
            if hint and self._own_hint_executor and self._hint_executor is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self._hint_executor = None
            elif not hint and self._own_executor and self._executor is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
            raise
        if not hint:
            self.decision_cpu.append(cpu)
            metrics.ai_decided(row.guild_id, metrics.clock() - started)
        return decision

    async def _decide_and_play(self, row: GameRow, player: str, note: str) -> ai.Decision:
        """The AI's decision for `player` in the state `row` holds, played like a press
        (guarded by that state's version and undo epoch)."""
        decision = await self.decide(row, player)
        await self.service.play(
            row.id,
            player,
            decision.action,
            expected_version=row.version,
            expected_epoch=row.undo_epoch,
            note=note,
            by_ai=True,
            # a person's seat only while the AI still holds it: a reclaim, or a return
            # from away, saved while it decided makes its move out of date
            expected_taken_over=row.taken_over if player in row.taken_over else None,
        )
        return decision

    async def play_once(self, game_id: int, *, note: str = "") -> bool:
        """Make the AI's move if the game waits for the AI now; whether one was made.
        A move made meanwhile by someone else (stale) counts as made: look again."""
        started = time.perf_counter()
        row = await self.service.get(game_id)
        if row.status != ACTIVE:
            return False
        if all_seats_ai(row):
            await self._pause(row)
            return False
        self._paused.pop(game_id, None)
        game = self.service.game_of(row)
        player = awaited_ai(row, game)
        if player is None:
            return False
        note = note or self._notes.pop(game_id, "")
        try:
            decision = await self._decide_and_play(row, player, note)
        except Refusal as refusal:
            if refusal.marked is not STALE_WORDS:
                raise
            log.info("game %s: moved meanwhile; the AI looks again", game_id)
            if note:
                self._notes[game_id] = note
            return True
        self.latencies.append(time.perf_counter() - started)
        log.info("game %s: the AI played %s for %s", game_id, decision.action, player)
        return True

    async def _pause(self, row: GameRow) -> None:
        """The AI plays every seat: say once that the game waits for a person (with
        what the hand-over itself would have said with the AI's move)."""
        state = (row.version, row.undo_epoch)
        if self._paused.get(row.id) == state:
            return
        note = self._notes.pop(row.id, "")
        text = paused_words(row)
        await self.service.repost(row, note=f"{note}\n{text}" if note else text)
        self._paused[row.id] = state
        log.info("game %s: paused, the AI plays every seat", row.id)

    # ------------------------------------------------------------------ absent players

    async def at_deadline(self, row: GameRow, player: str, period_words: str) -> bool:
        """A deadline of `player` passed (the deadline driver's hook): per the game's
        `absent` setting the AI takes the seat, or plays this one decision. Whether it
        did (False: the driver goes on as without AI)."""
        if row.absent == ABSENT_WAIT or row.ai_plays(player) or not row.has_player(player):
            return False
        name = row.names.get(player, player)
        t = game_words(row)
        if row.absent == ABSENT_AI_SEAT:
            note = "⏰ " + t.gettext(
                "{who} did not move within {period}, so the AI plays their seat until they "
                "take it back with {/me reclaim}.",
                who=name,
                period=period_words,
            )
            await self._hand_over(row, player, note)
            return True
        note = "⏰ " + t.gettext(
            "{who} did not move within {period}, so the AI played this for them.",
            who=name,
            period=period_words,
        )
        game = self.service.game_of(row)
        if game.awaiting != player:
            return False
        try:
            await self._decide_and_play(row, player, note)
        except Refusal as refusal:
            log.info("no AI move on the deadline: %s", refusal.message)
            return True
        return True

    async def _hand_over(self, row: GameRow, player: str, note: str) -> GameRow:
        seats = sorted({*row.taken_over, player})
        if not await self.tables.set_taken_over(row.id, seats, expected=row.taken_over):
            raise Refusal(CHANGED_MEANWHILE)
        log.info("game %s: the AI takes the seat of %s", row.id, player)
        self._notes[row.id] = note
        self.wake(row.id)
        return replace(row, taken_over=tuple(seats))

    async def vote_takeover(self, target: int | GameRow, voter: str, player: str) -> TakeoverVote:
        """`voter` votes to hand `player`'s seat to the AI. Only while `player` is absent
        (away, or overdue: `absence_of`), and only the votes cast during this absence
        count; a majority of the other humans (the voter included) hands it over at
        once. A present player's seat is never voted over, not even by the one other
        player of a 2-player game; a second vote of the same voter is refused."""
        row = await self.service.row_of(target)
        async with self.service.lock(row.id):
            row = await self.service.get(row.id)
            if row.status != ACTIVE:
                raise Refusal(translatable("Only a game under way can hand a seat to the AI."))
            if not row.has_player(voter) or (row.ai_plays(voter) and voter not in row.taken_over):
                raise Refusal(
                    translatable("Only the players of this game can vote to hand a seat to the AI.")
                )
            if not row.has_player(player) or row.ai_plays(player):
                name = row.names.get(player)
                if name is not None:
                    raise Refusal(translatable("{who} is played by the AI already."), who=name)
                raise Refusal(
                    translatable("That player is not in this game; name one of its human players.")
                )
            if voter == player:
                raise Refusal(
                    translatable(
                        "You cannot vote about your own seat. To let the AI play it, ask the "
                        "others to vote, or set {/game settings:absent} in {/game settings}."
                    )
                )
            names = row.names
            absence = await self.absence_of(row, player) if self.absence_of else None
            if absence is None:
                raise Refusal(NOT_ABSENT, who=names.get(player, player))
            others = [s.user_id for s in row.humans if s.user_id != player]
            needed = len(others) // 2 + 1
            await self.tables.lapse_takeover_votes(row.id, player, _stamp(absence.since))
            if voter in await self.tables.takeover_voters(row.id, player):
                raise Refusal(VOTED_ALREADY)
            voters = await self.tables.add_takeover_vote(row.id, player, voter, _stamp(absence.at))
            counted = [v for v in voters if v in others]
            if len(counted) < needed:
                return TakeoverVote(counted, needed, False, row)
            note = game_words(row).gettext(
                "The other players voted to hand {who}'s seat to the AI until they take it "
                "back with {/me reclaim}.",
                who=names.get(player, player),
            )
            row = await self._hand_over(row, player, note)
            return TakeoverVote(counted, needed, True, row)

    async def reclaim(self, target: int | GameRow, user_id: str) -> GameRow:
        """The owner takes their seat back from the AI."""
        row = await self.service.row_of(target)
        async with self.service.lock(row.id):
            row = await self.service.get(row.id)
            if row.status != ACTIVE:
                raise Refusal(translatable("This game is not under way."))
            if user_id not in row.taken_over:
                raise Refusal(
                    translatable(
                        "The AI is not playing your seat in this game: there is nothing to "
                        "take back."
                    )
                )
            seats = [p for p in row.taken_over if p != user_id]
            if not await self.tables.set_taken_over(row.id, seats, expected=row.taken_over):
                raise Refusal(CHANGED_MEANWHILE)
            self._notes.pop(row.id, None)
            log.info("game %s: %s took their seat back from the AI", row.id, user_id)
            self.wake(row.id)  # a game paused with the AI alone goes on
            return replace(row, taken_over=tuple(seats))

    async def set_absent(self, row: GameRow, mode: str) -> GameRow:
        if mode not in ABSENT_MODES:
            refused = mode[:40]
            raise Refusal(
                lambda t: t.translate(WRONG_ABSENT, value=refused, modes=absent_choices(t))
            )
        await self.tables.set_absent(row.id, mode)
        return replace(row, absent=mode)

    # ------------------------------------------------------------------ hints

    async def hint(self, target: int | GameRow, user_id: str) -> Hint:
        """The AI's suggested move for the awaited player, with its reason in words."""
        row = await self.service.row_of(target)
        turn = await self.service.check_turn(row, user_id, None)
        over = self.hint_rate.take(user_id, await limits_of(self.service.store, row.guild_id))
        if over is not None:
            raise Refusal(over.message, **over.fields)
        decision = await self.decide(turn.row, user_id, hint=True)
        text = ai.explain(decision, turn.row.names)
        return Hint(turn.row, user_id, decision, text)


__all__ = [
    "ABSENT_LABELS",
    "ABSENT_WORDS",
    "DEFAULT_DELAY_SECONDS",
    "WRONG_ABSENT",
    "AiPlayers",
    "Hint",
    "TakeoverVote",
    "absent_choices",
    "awaited_ai",
    "decision_seed",
]
