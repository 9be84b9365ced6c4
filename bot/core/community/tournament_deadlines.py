"""A tournament's round deadline (issue 40.3): the organiser may give each round a number
of days (`/montana-tournament new round_days:`); without one, a round waits for its
games as long as they last.

A round's deadline is the moment it was seated (`tournament_rounds.seated_at`) plus its
days, computed from what is stored: a restart keeps it. When it has passed, each game of
the round still running is ended as a vote to end ends an overdue game
(`bot.core.clock.deadlines`): the player the game waits for is placed last, the others by
the game's ranking at that moment (RULES.md 10), rated as such (`ratings.placings`), and
the table's outcome written, all in the transaction of its end (the `at_end` hooks) with
a post owed once in the game's thread through the outbox (`ROUND_DEADLINE`). The end is
guarded by the game's version: two processes, or a pass run again after a crash, never
end a game twice, and the next round is seated once (`Store.record_round`).

`RoundDeadlines` is the timer: it wakes at the earliest round deadline (and at least every
`poll_seconds`), and hands each tournament whose deadline has passed to `settle` (the
front end's pass, which ends the games and seats the next round). The front end also
settles an overdue round at start-up, in its pass over the running tournaments.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta

from bot.core.clock.deadlines import result_record
from bot.core.play.service import GameService
from bot.core.runtime import incidents
from bot.core.runtime.periodic import Clock, PeriodicTask
from bot.core.store import ACTIVE, ENDED, Tx, moment_of, now
from bot.core.store.tournaments import TournamentRow
from bot.core.wording.refusals import Refusal

log = logging.getLogger(__name__)

ROUND_DEADLINE = "round_deadline"
"""The outbox kind of the post in a game's thread saying that the round's deadline ended
it (body: the tournament, the round, the player placed last)."""
MAX_ROUND_DAYS = 30
DEFAULT_POLL_SECONDS = 3600.0


def round_deadline(row: TournamentRow, seated_at: str) -> datetime | None:
    """When a round seated at `seated_at` is due (None: the tournament has no deadline)."""
    if row.round_days is None:
        return None
    return moment_of(seated_at) + timedelta(days=row.round_days)


async def end_at_deadline(
    service: GameService, game_id: int, tournament: TournamentRow, number: int
) -> bool:
    """End a tournament game still running at its round's deadline, as a vote to end ends
    an overdue game: the awaited player last, the others by the ranking so far, rated,
    the table's outcome and the thread's post written in the same transaction. Whether
    this call ended it (False: it ended or moved meanwhile, or it waits for nobody)."""
    async with service.lock(game_id):
        row = await service.store.get(game_id)
        if row is None or row.status != ACTIVE or row.state_json is None:
            return False
        try:
            game = service.game_of(row)
        except Refusal as refusal:
            log.warning("game %s: not ended at the round's deadline: %s", game_id, refusal)
            return False
        awaited = game.awaiting
        if awaited is None:
            return False
        result = result_record(game, []) | {"reason": "round_deadline"}
        rated = await service.hooks.ending(row, game, ended_at=now(), quitter=awaited)
        body = {"tournament_id": tournament.id, "round": number, "awaited": awaited}

        async def write(tx: Tx) -> None:
            stamp = now()
            # owed first: the thread reads why the game ended before its summary
            await tx.execute(
                "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (row.id, row.version, ROUND_DEADLINE, json.dumps(body), stamp, stamp),
            )
            if rated is not None:
                await rated(tx)

        if not await service.store.end_game(row.id, row.version, result, at_end=write):
            return False
    log.info("game %s: ended at its round's deadline, %s overdue", row.id, awaited)
    service.delivery.wake()
    await service.game_over(replace(row, status=ENDED))
    return True


class RoundDeadlines(PeriodicTask):
    """Wakes at the earliest round deadline of the running tournaments and hands each
    tournament whose round is overdue to `settle` (a settled round's tournament has its
    next round seated, so it is not handed again for that round)."""

    TASK_NAME = "round deadlines"

    def __init__(
        self,
        service: GameService,
        settle: Callable[[int], Awaitable[None]],
        *,
        clock: Clock,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
    ) -> None:
        super().__init__(clock=clock, poll_seconds=poll_seconds)
        self.store = service.store
        self.settle = settle

    async def one_pass(self) -> datetime | None:
        moment = self.clock()
        upcoming: list[datetime] = []
        for tournament_id, seated_at, days in await self.store.round_deadlines():
            due = moment_of(seated_at) + timedelta(days=days)
            if due > moment:
                upcoming.append(due)
                continue
            try:
                await self.settle(tournament_id)
            except Exception as error:  # the next pass tries again
                incidents.record(log, error, f"tournament {tournament_id}: round deadline")
        return min(upcoming, default=None)


__all__ = [
    "MAX_ROUND_DAYS",
    "ROUND_DEADLINE",
    "RoundDeadlines",
    "end_at_deadline",
    "round_deadline",
]
