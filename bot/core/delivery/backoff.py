"""When to try a failed message again: the back-off (`Backoff`), the messages whose
outcome the store could not record (`Holds`), and the games waiting for Discord to
answer again (`Outage`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.delivery.problems import Blocked, DeliveryProblem, TryAgain
from bot.core.store import GameRow, Owed


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


class Holds:
    """The owed messages whose delivery (or failure) the store could not record, by
    outbox id, and when to try each again (its own `next_at` says nothing then)."""

    def __init__(self, backoff: Backoff) -> None:
        self.backoff = backoff
        self.by_id: dict[int, Hold] = {}

    def hold(self, entry: Owed, problem: DeliveryProblem, now: datetime) -> Hold:
        """Try `entry` again later, its outcome not recorded: with the back-off, from the
        first time that failed."""
        earlier = self.by_id.get(entry.id)
        since = earlier.since if earlier is not None else now
        wait = self.backoff.delay((now - since).total_seconds(), problem)
        hold = Hold(entry.game_id, since, now + timedelta(seconds=wait))
        self.by_id[entry.id] = hold
        return hold

    def release(self, owed_id: int) -> None:
        """The outcome of the message is recorded now."""
        self.by_id.pop(owed_id, None)

    def keep_owed(self, game_id: int, owed_ids: set[int]) -> None:
        """Forget the held messages of a game no longer owed (recorded meanwhile, or
        superseded)."""
        for gone in [i for i, h in self.by_id.items() if h.game_id == game_id]:
            if gone not in owed_ids:
                del self.by_id[gone]

    def due_at(self, entry: Owed) -> datetime:
        """When `entry` is really due: its `next_at`, or later while it is held."""
        hold = self.by_id.get(entry.id)
        return entry.next_at if hold is None else max(entry.next_at, hold.until)


class Outage:
    """The games whose last post failed for now (`TryAgain`), oldest first, and when to
    ask the front end whether Discord answers again (`Prober`, every `probe_every`
    seconds while any game waits)."""

    def __init__(self, probe_every: float) -> None:
        self.probe_every = probe_every
        self.games: dict[int, GameRow] = {}
        self.next_probe: datetime | None = None

    def failed(self, row: GameRow, problem: DeliveryProblem, now: datetime) -> None:
        """A post failed: when for now, the game waits for Discord to answer again."""
        if not isinstance(problem, TryAgain):  # people must act: the back-off says when
            self.posted(row.id)
            return
        self.games.setdefault(row.id, row)
        if self.next_probe is None:
            self.next_probe = now + timedelta(seconds=self.probe_every)

    def posted(self, game_id: int) -> None:
        """A post of the game went out: it waits for Discord no more."""
        if self.games.pop(game_id, None) is not None and not self.games:
            self.next_probe = None  # no game waits for Discord any more

    def probe_due(self, now: datetime) -> GameRow | None:
        """A game to ask about, when it is time to ask (the next question is planned
        then); None otherwise."""
        if not self.games or self.next_probe is None or now < self.next_probe:
            return None
        self.next_probe = now + timedelta(seconds=self.probe_every)
        return next(iter(self.games.values()))

    def answered(self) -> list[int]:
        """Discord answers again: the games that waited for it (none wait any more)."""
        games = list(self.games)
        self.games.clear()
        self.next_probe = None
        return games

    @property
    def wake_at(self) -> datetime | None:
        """When to ask next (None: no game waits for Discord)."""
        return self.next_probe if self.games else None
