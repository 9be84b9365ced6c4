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
* a notice (`NOTICE`: a heads-up, a player away or back; `bot.core.presence`) goes to
  the front end's `NoticeSender` after the posts before it (a notice by direct message
  even when they failed), and not at all once it is void (`Notice.void_reason`);
* a failure is retried with back-off (`Backoff`) by a task (`start`), also after a
  restart: the outbox is in the database. Every attempt at one message carries the
  same key (`Ticket.key`, Discord's message nonce), and a retry (`Ticket.retry`) may
  find that an earlier attempt did reach Discord, so the front end looks first.

What the front end raises says what kind of failure it was: `TryAgain` (Discord or the
network failed for now: soon again), `Blocked` (a permission is missing or the place is
gone, people must act: tried now and then, and at once at the next move or
`/montana board`), `Dropped` (it can never be delivered, e.g. closed DMs: given up).
Each carries words saying why, for the players.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol

from i18n import SOURCE_LANGUAGE, Message, Translator, translatable, translator
from rules import Event, Game

from . import incidents, logs
from .periodic import Clock, PeriodicTask
from .presence import Notice
from .store import ACTIVE, DM, FINISHED, NOTICE, POST, Away, GameRow, Owed, Store, StoreError

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

    def text(self, t: Translator) -> str:
        return self._wording(t)


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
    first: float = 2.0
    """Seconds before the first retry; each further one waits twice as long ..."""
    most: float = 300.0
    """... but never longer than this."""
    blocked: float = 600.0
    """Seconds between tries while a permission is missing (an admin may grant it)."""

    def delay(self, attempts: int, problem: DeliveryProblem) -> float:
        """Seconds to wait after the `attempts`-th failed attempt."""
        if isinstance(problem, Blocked):
            return self.blocked
        wait = min(self.most, self.first * 2.0 ** max(attempts - 1, 0))
        return max(wait, problem.retry_after or 0.0)


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
        self.render = render
        self.load_game = load_game
        self.lock = lock
        self.backoff = backoff or Backoff()
        self._started_at = utcnow()
        self._attempted: set[int] = set()
        self.senders: dict[str, OtherSender] = {}
        """The front end's senders of the outbox's other kinds (e.g. a game's summary,
        `bot.core.ratings.SUMMARY`), after the posts before them; a kind without one is
        marked delivered unsaid."""
        self._shown: dict[int, tuple[int | None, int | None, int | None]] = {}
        """Game id -> (prompt message, its version, thread) as this process last delivered
        them: a press may have read its row just before that was recorded."""

    # ---- the task: what is owed, now (also what a previous run left) and whenever due

    async def one_pass(self) -> datetime | None:
        await self.run_due()
        return await self.store.next_owed_at()

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

        return sum(await asyncio.gather(*(one(game_id) for game_id in game_ids)))

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
        owed = await self._without_superseded(owed)
        posts = [entry for entry in owed if entry.kind == POST]
        newest = posts[-1] if posts else None
        for entry in owed:
            if not force and entry.next_at > now:
                if entry.kind == POST:
                    report.problem = report.problem or TryAgain(entry.last_error or "")
                continue
            if entry.kind == POST:
                if report.problem is not None:
                    continue  # in order: a post waits for the ones before it
                prompt = (
                    entry is newest
                    and entry.version == report.row.version
                    and report.row.status in (ACTIVE, FINISHED)
                )
                await self._post(report, game, entry, prompt=prompt)
            elif entry.kind == DM:
                await self._direct(report, game, entry)
            elif entry.kind == NOTICE:
                notice = Notice.of(entry.body)
                if report.problem is not None and not notice.dm:
                    continue  # in order: a line in the thread waits for the posts before it
                await self._notice(report, game, entry, notice)
            elif report.problem is None:
                await self._other(report, game, entry)
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
        return Ticket(key=f"montana-{entry.id}", since=entry.created_at, retry=not fresh)

    async def _post(self, report: Report, game: Game, entry: Owed, *, prompt: bool) -> None:
        row = report.row
        body = entry.body
        in_place = body.get("in_place")
        picture = b""
        away: Mapping[str, Away] = {}
        if prompt:
            if self.away_in is not None:
                away = await self.away_in(row)
            try:
                picture = await self.render(row, game, body.get("highlight"), away)
            except Exception:
                log.exception("drawing version %s failed; posting its words alone", entry.version)
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
        )
        try:
            answer = await self.announcer.announce(outcome)
        except DeliveryProblem as problem:
            report.problem = problem
            await self._failed(entry, problem)
            return
        except Exception as error:
            report.problem = unexpected(error, f"posting version {entry.version} failed")
            await self._failed(entry, report.problem)
            return
        posted = answer if isinstance(answer, Posted) else Posted(answer)
        report.posted[entry.version] = posted
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
        await self._delivered(
            entry,
            posted.message_id,
            prompt=prompt,
            moved_to=posted.moved_to,
            note="; ".join(posted.notes) or None,
        )

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

    async def _failed(self, entry: Owed, problem: DeliveryProblem) -> None:
        attempts = entry.attempts + 1
        wait = self.backoff.delay(attempts, problem)
        log.warning(
            "%s of version %s not delivered (attempt %d, next in %.0f s): %s",
            entry.kind,
            entry.version,
            attempts,
            wait,
            problem.words,
        )
        try:
            await self.store.delivery_failed(
                entry.id, self.clock() + timedelta(seconds=wait), problem.words
            )
        except StoreError as error:
            log.warning("could not record the failed delivery: %s", error)
        self.wake()

    async def _delivered(
        self,
        entry: Owed,
        message_id: int | None,
        *,
        prompt: bool = False,
        moved_to: int | None = None,
        note: str | None = None,
    ) -> None:
        try:
            await self.store.delivered(
                entry, message_id, prompt=prompt, moved_to=moved_to, note=note
            )
        except StoreError as error:
            # shown but not marked: a later attempt finds it (same key, or by looking)
            log.warning("could not mark version %s delivered: %s", entry.version, error)


__all__ = [
    "Announcer",
    "Backoff",
    "Blocked",
    "Delivery",
    "DeliveryProblem",
    "Dropped",
    "NoticeSender",
    "OtherSender",
    "Outcome",
    "Posted",
    "Report",
    "SilentAnnouncer",
    "Ticket",
    "TryAgain",
    "TurnNotifier",
]
