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
* a new prompt makes the previous one stale: its buttons are taken off, in the channel
  or thread it was posted in; if that fails, the record of the new prompt owes it
  (kind `clear`), retried like a post; a post made without a look for an earlier
  attempt (Discord could not be read for too long) owes a `recheck` that deletes a
  duplicate (`bot.core.delivery.stale`);
* a delivery that cannot be recorded (the database refuses the write) is owed like a
  failed post: held in memory and tried again with the same back-off, when the front
  end finds the message by its identity instead of posting it again.

What the front end raises says what kind of failure it was: `TryAgain` (Discord or the
network failed for now: soon again), `Blocked` (a permission is missing or the place is
gone, people must act: tried now and then, and at once at the next move or
`/montana board`), `Dropped` (it can never be delivered, e.g. closed DMs: given up).
Each carries words saying why, for the players.

The parts: `outcome` (what the front end is handed, and its protocols), `problems` (the
failures it raises), `backoff` (when to try again), `quiet` (the players' quiet hours);
this module is the delivery itself, and the one name callers import them by.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import cast

from bot.core.delivery.backoff import Backoff, Hold, Holds, Outage
from bot.core.delivery.outcome import (
    NOT_POSTED_YET,
    Announcer,
    NoticeSender,
    Outcome,
    Posted,
    Prober,
    SilentAnnouncer,
    Ticket,
    TurnNotifier,
)
from bot.core.delivery.picture_modes import wants_picture
from bot.core.delivery.presence import HEADS_UP, YOUR_TURN, Notice
from bot.core.delivery.problems import (
    STORED_MARK,
    Blocked,
    CannotLook,
    DeliveryProblem,
    Dropped,
    TryAgain,
    unexpected,
)
from bot.core.delivery.quiet import QuietEnd, QuietHours
from bot.core.delivery.stale import StalePrompts
from bot.core.runtime import logs
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
    Store,
    StoreError,
)
from rules import Game

log = logging.getLogger(__name__)


def utcnow() -> datetime:
    return datetime.now(UTC)


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
"""When a player's quiet hours around a moment end (None: they are active then)."""
LoadGame = Callable[[GameRow], Game]
GameLock = Callable[[int], asyncio.Lock]

CONCURRENT_GAMES = 8
"""Games delivered at once by the task: a game whose Discord calls hang (discord.py
retries some failures itself for seconds) holds up only its own messages."""
DEFAULT_POLL_SECONDS = 300.0


Supersede = Callable[..., Awaitable[bool]]
"""How `without_superseded` records a message delivered unsaid (`Delivery._delivered`)."""


async def without_superseded(owed: Sequence[Owed], delivered: Supersede) -> list[Owed]:
    """`owed` without the fresh prompts asked for (`/montana board`) while an earlier
    message of the same version is still owed: that one becomes the prompt; and without
    the notices a later one makes void (`Notice.replaces_earlier`). Those left out are
    recorded delivered unsaid (`delivered`)."""
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
                await delivered(entry, None, note="superseded by an earlier message")
                continue
            versions.add(entry.version)
        elif entry.kind == NOTICE:
            key = Notice.of(entry.body).replaces_earlier
            if key is not None and later_notices[key] != entry.id:
                await delivered(entry, None, note="superseded by a later notice")
                continue
        kept.append(entry)
    return kept


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
        self.quiet = QuietHours(store, quiet_end)
        self.stale = StalePrompts(store, lambda: self.announcer)
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
        self._held = Holds(self.backoff)
        """The messages whose outcome the store could not record."""
        self.passes = 0
        """Passes the task ran (how busy it is while nothing can be delivered)."""
        self._pass_tasks: set[asyncio.Task[int]] = set()
        """The tasks delivering the games of a pass (`run_due`)."""
        self._outage = Outage(self.backoff.probe_every)
        """The games waiting for Discord to answer again."""

    # ---- the task: what is owed, now (also what a previous run left) and whenever due

    async def one_pass(self) -> datetime | None:
        self.passes += 1
        if self.passes == 1:
            await bring_forward_left_behind(self.store, self.backoff, self.clock(), self._attempted)
        await self.run_due()
        if await self._probe():
            await self.run_due()
        return await self.next_due()

    async def _probe(self) -> bool:
        """When it is time, ask the front end whether Discord answers again; if it does,
        make every game that failed for now due at once. Whether it did."""
        prober = self.announcer if hasattr(self.announcer, "probe") else None
        now = self.clock()
        row = self._outage.probe_due(now)
        if row is None or prober is None:
            return False
        try:
            answered = await cast(Prober, prober).probe(row)
        except Exception:
            log.exception("asking whether Discord answers again failed")
            answered = False
        if not answered:
            return False
        games = self._outage.answered()
        log.info("Discord answers again: trying the posts of %d games now", len(games))
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
        held = list(self._held.by_id.values())
        upcoming = await self.store.next_owed_at(besides=list(self._held.by_id))
        moments = [upcoming] if upcoming is not None else []
        probe_at = self._outage.wake_at
        if probe_at is not None and hasattr(self.announcer, "probe"):
            moments.append(probe_at)
        return min([*moments, *(hold.until for hold in held)], default=None)

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
        self._held.keep_owed(row.id, {entry.id for entry in owed})
        owed = await without_superseded(owed, self._delivered)
        posts = [entry for entry in owed if entry.kind == POST]
        newest = posts[-1] if posts else None
        waiting: list[int] = []
        """The messages waiting for a post before them that failed (or is not due)."""
        resume_at: datetime | None = None
        """When that post is tried again."""
        for entry in owed:
            in_line = entry.kind == POST or (entry.kind == NOTICE and not Notice.of(entry.body).dm)
            # another kind (`senders`: a game's summary) is a line in the thread too; a
            # stale prompt's clear (`CLEAR`) waits for nothing
            in_line = in_line or entry.kind not in (POST, DM, NOTICE, *StalePrompts.KINDS)
            if in_line and report.problem is not None:
                waiting.append(entry.id)
                continue  # in order: a post (a line in the thread) waits for the posts before
            due_at = self._held.due_at(entry)
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
            elif entry.kind in StalePrompts.KINDS:
                await self._stale_work(report, entry)
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
            looks_failing_since=entry.looks_failing_since,
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
        quiet = await self.quiet.awaited(row, game, body, self.clock()) if prompt else {}
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
            self._outage.failed(row, problem, self.clock())
            return await self._failed(entry, problem)
        except Exception as error:
            report.problem = unexpected(error, f"posting version {entry.version} failed")
            self._outage.failed(row, report.problem, self.clock())
            return await self._failed(entry, report.problem)
        self._outage.posted(row.id)
        posted = answer if isinstance(answer, Posted) else Posted(answer)
        place = posted.moved_to if posted.moved_to is not None else row.play_channel_id
        stale = await self.stale.cleared_or_owed(row, posted, place, prompt=prompt)
        report.posted[entry.version] = posted
        for user in quiet:  # before the post is recorded: a crash here posts it again
            await self.quiet.owe_turn(row, entry.version, user)
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
            channel_id=place,
            stale=stale,
            unchecked=entry.created_at if posted.unchecked else None,
        )
        if recorded:
            if stale is not None:  # a clear owed: the task tries it again
                self._wake_for_retry()
            return None
        # in order: the posts after it wait until it is recorded (found again by identity)
        report.problem = TryAgain(f"message {posted.message_id} could not be recorded")
        return self._held.by_id[entry.id].until

    async def _stale_work(self, report: Report, entry: Owed) -> None:
        """An owed `CLEAR` or `RECHECK` (`StalePrompts`), retried like a post."""
        if (work := self.stale.work(entry)) is None:
            await self._delivered(entry, None, note=f"no front end for {entry.kind}")
            return

        async def run() -> None:
            if (kept := await work(report.row)) is not None:  # a duplicate prompt deleted
                row = report.row = replace(report.row, message_id=kept)
                self._shown[row.id] = (kept, row.prompt_version, row.thread_id)

        await self._attempt(entry, f"{entry.kind} ({entry.body})", run)

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
        if await self.quiet.put_off(entry, user, self.clock()):
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
        if notice.kind in (HEADS_UP, YOUR_TURN) and await self.quiet.put_off(
            entry, notice.user, self.clock()
        ):
            return
        notices = self.notices
        await self._attempt(
            entry,
            f"{notice.kind} notice for {notice.user}",
            lambda: notices.send_notice(notice, row, game, self._ticket(entry)),
            place=None if notice.dm else row.play_channel_id,
        )

    async def _attempt(
        self,
        entry: Owed,
        what: str,
        send: Callable[[], Awaitable[int | Posted | None]],
        *,
        place: int | None = None,
    ) -> None:
        """Send one owed message that is no post, and record how it went: delivered,
        given up (`Dropped`), or to be tried again. `place`: where a message it posts
        lives (if posted without looking, `Posted.unchecked`, a `RECHECK` is owed)."""
        try:
            answer = await send()
        except Dropped as dropped:
            log.info("%s given up: %s", what, dropped.words)
            await self._delivered(entry, None, note=dropped.words)
        except DeliveryProblem as problem:
            await self._failed(entry, problem)
        except Exception as error:
            await self._failed(entry, unexpected(error, f"{what} failed"))
        else:
            posted = answer if isinstance(answer, Posted) else Posted(answer)
            there = place if posted.message_id is not None else None
            await self._delivered(
                entry,
                posted.message_id,
                channel_id=there,
                unchecked=entry.created_at if posted.unchecked and there is not None else None,
            )

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
            await self.store.delivery_failed(
                entry.id,
                next_at,
                problem.stored,
                failed_at=now,
                could_not_look=isinstance(problem, CannotLook),
            )
        except StoreError as error:
            log.warning("could not record the failed delivery: %s", error)
            next_at = self._held.hold(entry, problem, now).until
        else:
            self._held.release(entry.id)
        self._wake_for_retry()
        return next_at

    async def _delivered(
        self,
        entry: Owed,
        message_id: int | None,
        *,
        prompt: bool = False,
        moved_to: int | None = None,
        note: str | None = None,
        channel_id: int | None = None,
        stale: tuple[int, int] | None = None,
        unchecked: datetime | None = None,
    ) -> bool:
        """Record `entry` delivered; False when the store refused (it is then held, and
        tried again with the back-off: the next attempt finds the message by its
        identity)."""
        try:
            await self.store.delivered(
                entry,
                message_id,
                prompt=prompt,
                moved_to=moved_to,
                note=note,
                channel_id=channel_id,
                stale=stale,
                unchecked=unchecked,
            )
        except StoreError as error:
            hold = self._held.hold(entry, TryAgain(str(error)), self.clock())
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
        self._held.release(entry.id)
        return True


__all__ = [
    "NOT_POSTED_YET",
    "STORED_MARK",
    "Announcer",
    "AwayIn",
    "Backoff",
    "Blocked",
    "CannotLook",
    "Delivery",
    "DeliveryProblem",
    "Dropped",
    "GameLock",
    "Hold",
    "LoadGame",
    "NoticeSender",
    "OtherSender",
    "Outcome",
    "Posted",
    "Prober",
    "QuietEnd",
    "Render",
    "Report",
    "SilentAnnouncer",
    "Ticket",
    "TryAgain",
    "TurnNotifier",
    "unexpected",
]


async def bring_forward_left_behind(
    store: Store, backoff: Backoff, now: datetime, tried: Collection[int] = ()
) -> None:
    """A new process: the posts a previous run left backing off after failing for now are
    tried at once (`tried`: those this process tried itself keep their back-off). Its
    memory of the outage (`Outage`) is gone with it, so no probe would bring them
    forward, and a game could wait out the whole back-off (up to `Backoff.most`) after
    Discord is back. A post still failing goes back to its back-off, and the probe asks
    for it again."""
    latest = now + timedelta(seconds=backoff.most)  # a missing permission: later
    try:
        owed = await store.owed(due_by=latest)
        games = sorted(
            {
                e.game_id
                for e in owed
                if e.kind == POST and e.attempts and e.id not in tried and now < e.next_at <= latest
            }
        )
        await store.bring_owed_forward(games, now)
    except StoreError as error:
        log.warning("could not bring forward the posts a previous run left: %s", error)
        return
    if games:
        log.info("trying now the posts of %d games a previous run left backing off", len(games))
