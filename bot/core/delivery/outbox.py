"""Delivering the messages each move owes the players: in order, exactly once, retried.

A move is saved together with the messages it owes (the store's outbox): its post in
the game's channel or thread and, for a player who asked for them, a direct message
that the game waits for them. `Delivery` hands them to the front end (`Announcer`,
`TurnNotifier`) and marks each one delivered:

* a game's posts go out in the order of its versions; one waits for those before it;
* the newest post of a game carries the prompt (picture, buttons, the ping); an older
  one still owed (Discord was down meanwhile) is posted as words only, so every move's
  words are shown and exactly one prompt is live;
* a direct message goes out even when the post before it failed (it then links the
  channel instead of the message), and not at all once the game waits for someone else;
* a notice (`NOTICE`: a heads-up, a player away or back; `bot.core.delivery.presence`) goes to
  the front end's `NoticeSender` after the posts before it (a notice by direct message
  even when they failed), and not at all once it is void (`Notice.void_reason`);
* a failure is retried with back-off (`Backoff`: by the time since the message's first
  failed attempt) by a task (`start`), also after a restart: the outbox is in the
  database. The messages waiting behind a failing post wait as long as it does
  (`Store.postpone_owed`), so the task sleeps until an attempt is really due. Every
  attempt at one message carries the same key (`Ticket.key`, Discord's message nonce)
  and identity (`Ticket.owed_id`, which the front end writes into the message so that
  it can be told in what Discord gives back), and a retry (`Ticket.retry`) may find
  that an earlier attempt did reach Discord, so the front end looks first;
* while posts back off because Discord failed for now, the task asks the front end
  every `Backoff.probe_every` seconds whether Discord answers again (`Prober`, a cheap
  read); once it does, every game that failed so is tried at once, so a long outage
  (the waits at their cap) ends for the players seconds after Discord is back;
* a delivery that cannot be recorded (the database refuses the write) is owed like a
  failed post: held in memory and tried again with the same back-off, when the front
  end finds the message by its identity instead of posting it again.

What the front end raises says what kind of failure it was: `TryAgain` (Discord or the
network failed for now: soon again), `Blocked` (a permission is missing or the place is
gone, people must act: tried now and then, and at once at the next move or
`/montana board`), `Dropped` (it can never be delivered, e.g. closed DMs: given up).
Each carries words saying why, for the players.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol, cast

from bot.core.delivery.picture_modes import wants_picture
from bot.core.delivery.presence import HEADS_UP, YOUR_TURN, Notice
from bot.core.runtime import incidents, logs
from bot.core.runtime.periodic import Clock, PeriodicTask
from bot.core.store import (
    ACTIVE,
    DM,
    FINISHED,
    NOTICE,
    POST,
    Away,
    GameRow,
    Owed,
    OwedMessage,
    Store,
    StoreError,
)
from i18n import SOURCE_LANGUAGE, Message, Translator, translatable, translator
from rules import Event, Game

log = logging.getLogger(__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


# ------------------------------------------------------------------ what is shown


@dataclass(frozen=True)
class Ticket:
    """Which owed message an `Outcome` delivers."""

    key: str
    """The same at every attempt at this message, and unique to it (a nonce)."""
    since: datetime
    """When the message was owed: nothing posted for it can be older."""
    retry: bool
    """An earlier attempt may have reached the players: look before posting again."""
    owed_id: int = 0
    """The owed message's id in the outbox: its identity, the same at every attempt and
    unique to it (two messages with the same words never share it)."""
    version: int = 0
    """The game's version the message is about."""


NOT_POSTED_YET = translatable("the message could not be posted yet; I keep trying")


@dataclass(frozen=True)
class Outcome:
    """An accepted move (or the start of a game, or a fresh prompt) and what to show."""

    row: GameRow
    """The game's row after the move."""
    game: Game
    actor: str | None
    """Who moved (None for the start of the game or a fresh prompt)."""
    events: list[Event]
    text: str
    """What happened, in words."""
    picture: bytes
    """The picture of the game (b"" when the message carries none)."""
    previous_message_id: int | None
    """The message holding the game's prompt so far (its buttons go stale once a new
    prompt is posted)."""
    awaited_changed: bool = True
    """Whether someone else must act now (they are pinged); False while the same player
    goes on deciding (`text` is then the running account of their moves)."""
    message_id: int | None = field(default=None, compare=False)
    announced: bool = True
    """False when showing the move failed so far (it is saved all the same)."""
    prompt: bool = True
    """The message carries the game's current prompt: picture, the awaited player's
    mention and buttons. An older move still owed is shown as words only."""
    in_place: bool = False
    """Update `previous_message_id` (the same player's prompt) instead of posting."""
    ticket: Ticket | None = None
    notes: tuple[str, ...] = ()
    """What the message had to leave out, or where it had to go instead, in words."""
    away: Mapping[str, Away] = field(default_factory=dict)
    """The game's players away now (the prompt says so for the awaited one)."""
    quiet: Mapping[str, datetime] = field(default_factory=dict)
    """The awaited player, when inside their quiet hours now, and when those end: the
    prompt says so and does not ping them (a `YOUR_TURN` notice is owed for then)."""
    problem: str = ""
    """Why the move is not shown yet (when `announced` is False), in English words."""
    problem_words: DeliveryProblem | None = field(default=None, compare=False)
    """The same, to be said in a reader's language (`problem_in`)."""

    def problem_in(self, t: Translator) -> str:
        """Why the move is not shown yet, in `t`'s language."""
        if self.problem_words is not None:
            return self.problem_words.text(t)
        if self.problem == NOT_POSTED_YET.id:
            return t.translate(NOT_POSTED_YET)
        return self.problem

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def finished(self) -> bool:
        return self.game.is_over

    @property
    def awaited(self) -> str | None:
        return self.game.awaiting


@dataclass(frozen=True)
class Posted:
    """A delivered message, as the front end reports it."""

    message_id: int | None
    moved_to: int | None = None
    """The channel or thread the game plays in from now on, when the message had to go
    elsewhere (its thread was deleted, or refuses the bot)."""
    notes: tuple[str, ...] = ()


class DeliveryProblem(Exception):
    """A message could not be delivered; `words` say why, for the players (in English:
    the logs and the outbox keep them), `text(t)` in a reader's language. Made from
    words already said, a marked `Message` and its fields, or a wording `lambda t: ...`."""

    def __init__(
        self,
        words: str | Message | Callable[[Translator], str],
        *,
        retry_after: float | None = None,
        fields: Mapping[str, object] | None = None,
    ) -> None:
        wording: Callable[[Translator], str]
        if isinstance(words, str):
            said = words
            wording = lambda t: said  # noqa: E731
        elif isinstance(words, Message):
            marked, filled = words, dict(fields or {})
            wording = lambda t: (  # noqa: E731
                t.gettext(marked.id, **filled)
                if marked.context is None
                else t.pgettext(marked.context, marked.id, **filled)
            )
        else:
            wording = words
        english = wording(translator(SOURCE_LANGUAGE))
        super().__init__(english)
        self.words = english
        self._wording = wording
        self.retry_after = retry_after
        self.stored = _stored(words, fields) or english
        """What the outbox keeps (`last_error`): a marked sentence as its English and
        fields (`STORED_MARK` + JSON), so that read back after a restart it is said in
        the game's language again (`from_stored`); other words as they are."""

    def text(self, t: Translator) -> str:
        return self._wording(t)

    @classmethod
    def from_stored(cls, stored: str) -> DeliveryProblem:
        """The problem the outbox kept (`stored`), to be said in any language again."""
        if stored.startswith(STORED_MARK):
            try:
                kept = json.loads(stored[len(STORED_MARK) :])
                marked = Message(kept["id"], context=kept.get("context"))
                return cls(marked, fields=dict(kept.get("fields") or {}))
            except (ValueError, KeyError, TypeError):
                pass
        return cls(stored)


STORED_MARK = "i18n:"


def _stored(words: object, fields: Mapping[str, object] | None) -> str | None:
    if not isinstance(words, Message) or words.plural is not None:
        return None
    kept = {"id": words.id, "context": words.context, "fields": dict(fields or {})}
    try:
        return STORED_MARK + json.dumps(kept, ensure_ascii=False)
    except (TypeError, ValueError):  # a field JSON cannot keep: the English words
        return None


class TryAgain(DeliveryProblem):
    """Discord (or the network) failed for now: try again soon."""


class Blocked(DeliveryProblem):
    """Only people can fix it (a permission, a deleted channel): try again now and then."""


class Dropped(DeliveryProblem):
    """It can never be delivered (closed DMs): give up on this message."""


def unexpected(
    error: BaseException, what: str, kind: type[DeliveryProblem] = TryAgain
) -> DeliveryProblem:
    """An error no one foresaw, logged with its traceback under an id; the players read
    only that id ("something went wrong (error `a1b2c3`) ...")."""
    incident = incidents.record(log, error, what)
    return kind(lambda t: incidents.went_wrong(incident, t))


class Announcer(Protocol):
    async def announce(self, outcome: Outcome) -> int | Posted | None:
        """Show the outcome; return the id of the message now holding it (or `Posted`).
        Raise a `DeliveryProblem` to say how it failed."""
        ...


class Prober(Protocol):
    """What a front end's `Announcer` may also do: say whether Discord answers again."""

    async def probe(self, row: GameRow) -> bool:
        """Whether Discord answers a cheap request about the game's place now (it may
        still refuse a post there: the attempt then says how)."""
        ...


class SilentAnnouncer:
    async def announce(self, outcome: Outcome) -> int | None:
        return None


class TurnNotifier(Protocol):
    """The front end's direct messages: "the game waits for you"."""

    async def notify_turn(
        self, user_id: str, row: GameRow, game: Game, message_id: int | None, key: str
    ) -> None:
        """Tell `user_id` (`message_id`: the game's message to link, if any).
        Raise a `DeliveryProblem` to say how it failed."""
        ...


class NoticeSender(Protocol):
    """The front end's notices: a line in the game's thread, or a direct message."""

    async def send_notice(
        self, notice: Notice, row: GameRow, game: Game, ticket: Ticket
    ) -> int | None:
        """Say `notice` for the game; the id of the message posted, if any. Raise a
        `DeliveryProblem` to say how it failed."""
        ...


# ------------------------------------------------------------------ when to try again


@dataclass(frozen=True)
class Backoff:
    """How long to wait after a failed attempt, by how long the message has been failing:
    `first`, then as long again as it has failed so far (so the waits double when the
    attempts keep to them: 2, 4, 8 s ...), never longer than `most`. Attempts made in
    between (each move made during an outage tries at once) do not lengthen the wait:
    once Discord is back, the next attempt is at most one wait away, and everything
    owed behind it goes out in the same pass."""

    first: float = 2.0
    """Seconds before the first retry ..."""
    most: float = 300.0
    """... and the longest wait."""
    blocked: float = 600.0
    """Seconds between tries while a permission is missing (an admin may grant it)."""
    probe_every: float = 10.0
    """Seconds between two questions to the front end whether Discord answers again,
    while posts back off because it failed for now."""

    def delay(self, failing_for: float, problem: DeliveryProblem) -> float:
        """Seconds to wait after a failed attempt, `failing_for` seconds after the first
        failed attempt at the same message (0 for the first)."""
        if isinstance(problem, Blocked):
            return self.blocked
        wait = min(self.most, self.first + max(failing_for, 0.0))
        return max(wait, problem.retry_after or 0.0)


@dataclass(frozen=True)
class Hold:
    """An owed message whose delivery (or failure) could not be recorded: when it first
    failed to be, and when to try again (kept in memory; after a restart the message is
    simply due, and a retry finds it by its identity)."""

    game_id: int
    since: datetime
    until: datetime


# ------------------------------------------------------------------ delivering


@dataclass
class Report:
    """What one delivery pass did for a game."""

    row: GameRow
    """The game's row as the pass left it (its prompt message, where it plays)."""
    posted: dict[int, Posted] = field(default_factory=dict)
    """The posts delivered, by version (a later one of the same version wins)."""
    problem: DeliveryProblem | None = None
    """Why the posts stopped, if they did."""


OtherSender = Callable[[Owed, GameRow, Game, Ticket], Awaitable[int | None]]
"""How a front end says an owed message of another kind (`Delivery.senders`): the id of
the message posted, if any; a `DeliveryProblem` to say how it failed."""
Render = Callable[[GameRow, Game, str | None, Mapping[str, Away]], Awaitable[bytes]]
"""The picture of a game (row, engine state, the field to highlight, the players away)."""
AwayIn = Callable[[GameRow], Awaitable[Mapping[str, Away]]]
"""The players of a game away now."""
QuietEnd = Callable[[str, datetime], Awaitable[datetime | None]]
"""When a player's quiet hours around a moment end (None: they are active then)."""
LoadGame = Callable[[GameRow], Game]
GameLock = Callable[[int], asyncio.Lock]

CONCURRENT_GAMES = 8
"""Games delivered at once by the task: a game whose Discord calls hang (discord.py
retries some failures itself for seconds) holds up only its own messages."""
DEFAULT_POLL_SECONDS = 300.0


class Delivery(PeriodicTask):
    """Delivers a game's owed messages (`deliver_held` by a move, `deliver` otherwise)
    and, once started, retries what failed (`run_due` in a task)."""

    TASK_NAME = "delivery"
    MIN_SLEEP_SECONDS = 0.5

    def __init__(
        self,
        store: Store,
        announcer: Announcer,
        *,
        render: Render,
        load_game: LoadGame,
        lock: GameLock,
        notifier: TurnNotifier | None = None,
        notices: NoticeSender | None = None,
        away_in: AwayIn | None = None,
        quiet_end: QuietEnd | None = None,
        clock: Clock = utcnow,
        backoff: Backoff | None = None,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
    ) -> None:
        super().__init__(clock=clock, poll_seconds=poll_seconds)
        self.store = store
        self.announcer = announcer
        self.notifier = notifier
        self.notices = notices
        self.away_in = away_in
        self.quiet_end = quiet_end
        self.render = render
        self.load_game = load_game
        self.lock = lock
        self.backoff = backoff or Backoff()
        self._started_at = utcnow()
        self._attempted: set[int] = set()
        self.senders: dict[str, OtherSender] = {}
        """The front end's senders of the outbox's other kinds (e.g. a game's summary,
        `bot.core.community.ratings.SUMMARY`), after the posts before them; a kind without one is
        marked delivered unsaid."""
        self._shown: dict[int, tuple[int | None, int | None, int | None]] = {}
        """Game id -> (prompt message, its version, thread) as this process last delivered
        them: a press may have read its row just before that was recorded."""
        self._held: dict[int, Hold] = {}
        """Outbox id -> when to try again, for the messages whose outcome the store
        could not record (its own `next_at` says nothing then)."""
        self.passes = 0
        """Passes the task ran (how busy it is while nothing can be delivered)."""
        self._pass_tasks: set[asyncio.Task[int]] = set()
        """The tasks delivering the games of a pass (`run_due`)."""
        self._outage: dict[int, GameRow] = {}
        """The games whose last post attempt failed for now (`TryAgain`), oldest first."""
        self._next_probe: datetime | None = None
        """When to ask the front end whether Discord answers again (`Prober`)."""

    # ---- the task: what is owed, now (also what a previous run left) and whenever due

    async def one_pass(self) -> datetime | None:
        self.passes += 1
        await self.run_due()
        if await self._probe():
            await self.run_due()
        return await self.next_due()

    async def _probe(self) -> bool:
        """When it is time, ask the front end whether Discord answers again; if it does,
        make every game that failed for now due at once. Whether it did."""
        prober = self.announcer if hasattr(self.announcer, "probe") else None
        now = self.clock()
        if not self._outage or self._next_probe is None or now < self._next_probe:
            return False
        self._next_probe = now + timedelta(seconds=self.backoff.probe_every)
        if prober is None:
            return False
        row = next(iter(self._outage.values()))
        try:
            answered = await cast(Prober, prober).probe(row)
        except Exception:
            log.exception("asking whether Discord answers again failed")
            answered = False
        if not answered:
            return False
        games = list(self._outage)
        log.info("Discord answers again: trying the posts of %d games now", len(games))
        self._outage.clear()
        self._next_probe = None
        try:
            await self.store.bring_owed_forward(games, now)
        except StoreError as error:
            log.warning("could not bring the owed messages forward: %s", error)
            return False
        return True

    def _wake_for_retry(self) -> None:
        """A failure outside the task's own pass (a move's delivery): the task works out
        again when to run. Within its pass it does so anyway, afterwards: waking it
        there would only run a pass for nothing."""
        current = asyncio.current_task()
        if current is None or (current is not self._task and current not in self._pass_tasks):
            self.wake()

    async def next_due(self) -> datetime | None:
        """When the earliest owed message is really due (None: nothing owed)."""
        held = list(self._held.values())
        upcoming = await self.store.next_owed_at(besides=list(self._held))
        moments = [upcoming] if upcoming is not None else []
        if self._outage and self._next_probe is not None and hasattr(self.announcer, "probe"):
            moments.append(self._next_probe)
        return min([*moments, *(hold.until for hold in held)], default=None)

    def _due_at(self, entry: Owed) -> datetime:
        hold = self._held.get(entry.id)
        return entry.next_at if hold is None else max(entry.next_at, hold.until)

    def after_failure(self) -> float:
        return self.backoff.first

    async def run_due(self) -> int:
        """Deliver what is due now in every game; returns how many messages went out."""
        owed = await self.store.owed(due_by=self.clock())
        game_ids = list(dict.fromkeys(entry.game_id for entry in owed))
        gate = asyncio.Semaphore(CONCURRENT_GAMES)

        async def one(game_id: int) -> int:
            async with gate:
                try:
                    report = await self.deliver(game_id)
                except Exception:
                    log.exception("game %s: delivering its messages failed", game_id)
                    return 0
                return len(report.posted) if report else 0

        tasks = [asyncio.create_task(one(game_id)) for game_id in game_ids]
        self._pass_tasks.update(tasks)
        try:
            return sum(await asyncio.gather(*tasks))
        finally:
            self._pass_tasks.difference_update(tasks)

    # ---- one game

    def latest(self, row: GameRow) -> GameRow:
        """`row` with the prompt message and place its delivery last recorded (a row read
        while a delivery of its game was under way tells the ones before)."""
        shown = self._shown.get(row.id)
        if shown is None or (shown[1] or -1) < (row.prompt_version or -1):
            return row
        message_id, prompt_version, thread_id = shown
        return replace(
            row, message_id=message_id, prompt_version=prompt_version, thread_id=thread_id
        )

    def forget(self, game_id: int) -> None:
        """Drop what this process last delivered for a game (an undo took its state back:
        the prompt recorded belongs to a line of play that is gone)."""
        self._shown.pop(game_id, None)

    async def deliver(self, game_id: int, *, force: bool = False) -> Report | None:
        """Deliver a game's owed messages that are due (all of them if `force`)."""
        async with self.lock(game_id):
            row = await self.store.get(game_id)
            if row is None:
                return None
            with logs.game_scope(row.id, row.play_channel_id):
                owed = await self.store.owed(game_id)
                try:
                    game = self.load_game(row)
                except Exception as error:
                    # the game itself cannot be read (see `GameService.game_of`, which
                    # logs it and says so in words): keep its messages, try again seldom;
                    # the other games go on
                    words = getattr(error, "message", None)
                    problem = (
                        Blocked(words)
                        if isinstance(words, str)
                        else unexpected(error, "loading the game failed", Blocked)
                    )
                    await self._failed_all(owed, problem)
                    return Report(row, problem=problem)
                return await self._deliver(row, game, owed, force=force)

    async def deliver_held(self, row: GameRow, game: Game) -> Report:
        """Deliver every owed message of a game now; the caller holds the game's lock and
        gives its row and state as just saved (they are not read again)."""
        owed = await self.store.owed(row.id)
        return await self._deliver(row, game, owed, force=True)

    async def _failed_all(self, owed: Sequence[Owed], problem: DeliveryProblem) -> None:
        for entry in owed:
            await self._failed(entry, problem)

    async def _deliver(
        self, row: GameRow, game: Game, owed: Sequence[Owed], *, force: bool
    ) -> Report:
        report = Report(row)
        now = self.clock()
        owed_ids = {entry.id for entry in owed}
        for gone in [i for i, h in self._held.items() if h.game_id == row.id and i not in owed_ids]:
            del self._held[gone]  # recorded meanwhile (or superseded)
        owed = await self._without_superseded(owed)
        posts = [entry for entry in owed if entry.kind == POST]
        newest = posts[-1] if posts else None
        waiting: list[int] = []
        """The messages waiting for a post before them that failed (or is not due)."""
        resume_at: datetime | None = None
        """When that post is tried again."""
        for entry in owed:
            in_line = entry.kind == POST or (entry.kind == NOTICE and not Notice.of(entry.body).dm)
            # another kind (`senders`: a game's summary) is a line in the thread too
            in_line = in_line or entry.kind not in (POST, DM, NOTICE)
            if in_line and report.problem is not None:
                waiting.append(entry.id)
                continue  # in order: a post (a line in the thread) waits for the posts before
            due_at = self._due_at(entry)
            if not force and due_at > now:
                if entry.kind == POST:
                    report.problem = TryAgain.from_stored(entry.last_error or "")
                    resume_at = due_at
                continue
            if entry.kind == POST:
                prompt = (
                    entry is newest
                    and entry.version == report.row.version
                    and report.row.status in (ACTIVE, FINISHED)
                )
                resume_at = await self._post(report, game, entry, prompt=prompt)
            elif entry.kind == DM:
                await self._direct(report, game, entry)
            elif entry.kind == NOTICE:
                await self._notice(report, game, entry, Notice.of(entry.body))
            else:
                await self._other(report, game, entry)
        if waiting and resume_at is not None:
            try:
                await self.store.postpone_owed(waiting, resume_at)
            except StoreError as error:
                log.warning("could not postpone the messages waiting: %s", error)
        return report

    async def _other(self, report: Report, game: Game, entry: Owed) -> None:
        send = self.senders.get(entry.kind)
        if send is None:
            await self._delivered(entry, None, note=f"no front end for {entry.kind}")
            return
        row, ticket = report.row, self._ticket(entry)
        await self._attempt(entry, f"{entry.kind} message", lambda: send(entry, row, game, ticket))

    async def _without_superseded(self, owed: Sequence[Owed]) -> list[Owed]:
        """`owed` without the fresh prompts asked for (`/montana board`) while an earlier
        message of the same version is still owed: that one becomes the prompt; and
        without the notices a later one makes void (`Notice.replaces_earlier`)."""
        kept: list[Owed] = []
        versions: set[int] = set()
        later_notices = {
            key: entry.id
            for entry in owed
            if entry.kind == NOTICE and (key := Notice.of(entry.body).replaces_earlier)
        }
        for entry in owed:
            if entry.kind == POST:
                if entry.body.get("repost") and entry.version in versions:
                    await self._delivered(entry, None, note="superseded by an earlier message")
                    continue
                versions.add(entry.version)
            elif entry.kind == NOTICE:
                key = Notice.of(entry.body).replaces_earlier
                if key is not None and later_notices[key] != entry.id:
                    await self._delivered(entry, None, note="superseded by a later notice")
                    continue
            kept.append(entry)
        return kept

    def _ticket(self, entry: Owed) -> Ticket:
        fresh = (
            entry.attempts == 0
            and entry.id not in self._attempted
            and entry.created_at >= self._started_at
        )
        self._attempted.add(entry.id)
        return Ticket(
            key=f"montana-{entry.id}",
            since=entry.created_at,
            retry=not fresh,
            owed_id=entry.id,
            version=entry.version,
        )

    async def _post(
        self, report: Report, game: Game, entry: Owed, *, prompt: bool
    ) -> datetime | None:
        """Post one owed message; when it failed (or could not be recorded), when it is
        tried again."""
        row = report.row
        body = entry.body
        in_place = body.get("in_place")
        picture = b""
        away: Mapping[str, Away] = {}
        if prompt:
            if self.away_in is not None:
                away = await self.away_in(row)
            # a post owed before the setting existed, or asked for again, ends a turn
            drawn = wants_picture(row.pictures, turn_ended=bool(body.get("turn_ended", True)))
            try:
                if drawn:
                    picture = await self.render(row, game, body.get("highlight"), away)
            except Exception:
                log.exception("drawing version %s failed; posting its words alone", entry.version)
        quiet = await self._quiet_awaited(row, game, body) if prompt else {}
        outcome = Outcome(
            row=row,
            game=game,
            actor=body.get("actor"),
            events=[],
            text=str(body.get("text", "")),
            picture=picture,
            previous_message_id=row.message_id,
            awaited_changed=bool(body.get("handover", True)),
            prompt=prompt,
            in_place=in_place is not None and in_place == row.message_id,
            ticket=self._ticket(entry),
            away=away,
            quiet=quiet,
        )
        try:
            answer = await self.announcer.announce(outcome)
        except DeliveryProblem as problem:
            report.problem = problem
            self._note_outage(row, problem)
            return await self._failed(entry, problem)
        except Exception as error:
            report.problem = unexpected(error, f"posting version {entry.version} failed")
            self._note_outage(row, report.problem)
            return await self._failed(entry, report.problem)
        if self._outage.pop(row.id, None) is not None and not self._outage:
            self._next_probe = None  # no game waits for Discord any more
        posted = answer if isinstance(answer, Posted) else Posted(answer)
        report.posted[entry.version] = posted
        for user in quiet:  # before the post is recorded: a crash here posts it again
            await self._owe_turn(row, entry.version, user)
        if prompt:
            row = replace(row, message_id=posted.message_id, prompt_version=entry.version)
        if posted.moved_to is not None:
            moved = posted.moved_to
            row = replace(row, thread_id=None if moved == row.channel_id else moved)
        report.row = row
        self._shown[row.id] = (row.message_id, row.prompt_version, row.thread_id)
        log.debug(
            "delivered version %s%s (message %s)",
            entry.version,
            "" if prompt else " in words only",
            posted.message_id,
        )
        recorded = await self._delivered(
            entry,
            posted.message_id,
            prompt=prompt,
            moved_to=posted.moved_to,
            note="; ".join(posted.notes) or None,
        )
        if recorded:
            return None
        # in order: the posts after it wait until it is recorded (found again by identity)
        report.problem = TryAgain(f"message {posted.message_id} could not be recorded")
        return self._held[entry.id].until

    async def _quiet_awaited(
        self, row: GameRow, game: Game, body: Mapping[str, object]
    ) -> dict[str, datetime]:
        """The awaited player and the end of their quiet hours, when the prompt would
        ping them now and they are inside them (else nobody)."""
        awaited = game.awaiting
        if (
            self.quiet_end is None
            or awaited is None
            or not body.get("handover", True)
            or row.status != ACTIVE
            or row.ai_plays(awaited)
        ):
            return {}
        until = await self.quiet_end(awaited, self.clock())
        return {awaited: until} if until is not None else {}

    async def _owe_turn(self, row: GameRow, version: int, user: str) -> None:
        """The ping a post left out inside `user`'s quiet hours, owed as a notice: it
        waits for the start of their active hours (`_quiet_now`), void if the game
        moved on by then."""
        notice = Notice(YOUR_TURN, user, turn=version)
        try:
            await self.store.owe(row.id, [OwedMessage(NOTICE, version, notice.body())])
        except StoreError as error:
            log.warning("could not owe the ping left out in quiet hours: %s", error)

    async def _quiet_now(self, entry: Owed, user: str) -> bool:
        """Whether `user` is inside their quiet hours now; if so, `entry` (a mention or
        direct message for them) is put off to the start of their active hours, when
        it is delivered (or dropped, if void by then), once."""
        if self.quiet_end is None:
            return False
        until = await self.quiet_end(user, self.clock())
        if until is None:
            return False
        try:
            await self.store.postpone_owed([entry.id], until)
        except StoreError as error:
            log.warning("could not put off a message in quiet hours: %s", error)
            return True
        log.info("%s for %s put off to the end of their quiet hours", entry.kind, user)
        return True

    def _note_outage(self, row: GameRow, problem: DeliveryProblem) -> None:
        """A post failed: when for now, the game waits for Discord to answer again."""
        if not isinstance(problem, TryAgain):  # people must act: the back-off says when
            if self._outage.pop(row.id, None) is not None and not self._outage:
                self._next_probe = None
            return
        self._outage.setdefault(row.id, row)
        if self._next_probe is None:
            self._next_probe = self.clock() + timedelta(seconds=self.backoff.probe_every)

    async def _direct(self, report: Report, game: Game, entry: Owed) -> None:
        row = report.row
        user = str(entry.body.get("user", ""))
        if (
            self.notifier is None
            or row.status != ACTIVE
            or game.awaiting != user
            or row.ai_plays(user)
        ):
            await self._delivered(entry, None, note="no longer waiting for them")
            return
        posted = report.posted.get(entry.version)
        message_id = posted.message_id if posted is not None else None
        if message_id is None and row.prompt_version == row.version:
            message_id = row.message_id
        if await self._quiet_now(entry, user):
            return
        notifier = self.notifier
        await self._attempt(
            entry,
            f"direct message to {user}",
            lambda: notifier.notify_turn(user, row, game, message_id, self._ticket(entry).key),
        )

    async def _notice(self, report: Report, game: Game, entry: Owed, notice: Notice) -> None:
        row = report.row
        void = "no front end for notices" if self.notices is None else None
        void = void or notice.void_reason(row, game)
        if self.notices is None or void is not None:
            await self._delivered(entry, None, note=void)
            return
        if notice.kind in (HEADS_UP, YOUR_TURN) and await self._quiet_now(entry, notice.user):
            return
        notices = self.notices
        await self._attempt(
            entry,
            f"{notice.kind} notice for {notice.user}",
            lambda: notices.send_notice(notice, row, game, self._ticket(entry)),
        )

    async def _attempt(
        self, entry: Owed, what: str, send: Callable[[], Awaitable[int | None]]
    ) -> None:
        """Send one owed message that is no post, and record how it went: delivered,
        given up (`Dropped`), or to be tried again."""
        try:
            message_id = await send()
        except Dropped as dropped:
            log.info("%s given up: %s", what, dropped.words)
            await self._delivered(entry, None, note=dropped.words)
        except DeliveryProblem as problem:
            await self._failed(entry, problem)
        except Exception as error:
            await self._failed(entry, unexpected(error, f"{what} failed"))
        else:
            await self._delivered(entry, message_id)

    async def _failed(self, entry: Owed, problem: DeliveryProblem) -> datetime:
        """Record a failed attempt; when the message is tried again."""
        attempts = entry.attempts + 1
        now = self.clock()
        since = entry.failing_since or now
        wait = self.backoff.delay((now - since).total_seconds(), problem)
        log.warning(
            "%s of version %s not delivered (attempt %d, failing for %.0f s, next in %.0f s): %s",
            entry.kind,
            entry.version,
            attempts,
            (now - since).total_seconds(),
            wait,
            problem.words,
        )
        next_at = now + timedelta(seconds=wait)
        try:
            await self.store.delivery_failed(entry.id, next_at, problem.stored, failed_at=now)
        except StoreError as error:
            log.warning("could not record the failed delivery: %s", error)
            next_at = self._hold(entry, problem).until
        else:
            self._held.pop(entry.id, None)
        self._wake_for_retry()
        return next_at

    def _hold(self, entry: Owed, problem: DeliveryProblem) -> Hold:
        """Try `entry` again later, its outcome not recorded: with the back-off, from the
        first time that failed."""
        now = self.clock()
        earlier = self._held.get(entry.id)
        since = earlier.since if earlier is not None else now
        wait = self.backoff.delay((now - since).total_seconds(), problem)
        hold = Hold(entry.game_id, since, now + timedelta(seconds=wait))
        self._held[entry.id] = hold
        return hold

    async def _delivered(
        self,
        entry: Owed,
        message_id: int | None,
        *,
        prompt: bool = False,
        moved_to: int | None = None,
        note: str | None = None,
    ) -> bool:
        """Record `entry` delivered; False when the store refused (it is then held, and
        tried again with the back-off: the next attempt finds the message by its
        identity)."""
        try:
            await self.store.delivered(
                entry, message_id, prompt=prompt, moved_to=moved_to, note=note
            )
        except StoreError as error:
            hold = self._hold(entry, TryAgain(str(error)))
            log.warning(
                "could not record %s of version %s delivered (message %s): %s; again at %s",
                entry.kind,
                entry.version,
                message_id,
                error,
                hold.until.isoformat(timespec="seconds"),
            )
            self._wake_for_retry()
            return False
        self._held.pop(entry.id, None)
        return True


__all__ = [
    "Announcer",
    "Backoff",
    "Blocked",
    "Delivery",
    "DeliveryProblem",
    "Dropped",
    "Hold",
    "NoticeSender",
    "OtherSender",
    "Outcome",
    "Posted",
    "Prober",
    "Report",
    "SilentAnnouncer",
    "Ticket",
    "TryAgain",
    "TurnNotifier",
]
