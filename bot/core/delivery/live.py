"""At most one live prompt per game, also for prompts left live before the clear records
existed (issue 41): once per start, every game under way has the newest messages of each
place it played in looked at, and every older message of the bot still carrying live
buttons of the game, besides its prompt, owes a `CLEAR` (`bot.core.delivery.stale`),
which the delivery works like any other: retried, given up only when the message is gone.

* The places: the game's channel, its thread, and every channel or thread a delivered
  message of the game was recorded in (`Store.places_of_games_under_way`), so a game
  moved between its thread and its channel is looked at in both. A game that moved
  before the outbox recorded where messages live is looked at where it plays now only.
* Bounded: the `LOOK_BACK` newest messages of a place, each place read once per sweep
  (the channel of many games' threads too), and at most `GAMES_PER_MINUTE` games a
  minute (the first at once), so a big server stays far from Discord's rate limits.
* Never in the way of a move: the sweep runs in its own task after start-up and holds
  no game's lock; a message newer than the game's recorded prompt is never touched (a
  prompt being posted now), the owed `CLEAR` never clears the game's prompt of the
  moment it runs, and a game owing a `RECHECK` is left to it (a recheck may make an
  earlier message the prompt again).

Why every game at every start rather than only games whose records predate the clear
records: a start is rare and the look is one read per place, while a prompt may be left
live by ways no record shows (a clear given up on a wrong place, a record lost with a
crash); looking at every game makes "one live prompt" hold after any start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from bot.core.delivery.problems import DeliveryProblem
from bot.core.store import ACTIVE, Store, StoreError
from bot.core.store.outbox import CLEAR, RECHECK

log = logging.getLogger(__name__)

LOOK_BACK = 50
"""The newest messages of a place looked at (one read: Discord gives up to 100)."""
GAMES_PER_MINUTE = 60
"""Games looked at a minute, at most (each one read per place not read yet)."""


class LiveButtons(Protocol):
    """What a front end's `Announcer` may also do: find the bot's messages that still
    carry live buttons of a game."""

    async def live_buttons(
        self, guild_id: int | None, channel_id: int, limit: int
    ) -> Mapping[int, Sequence[int]]:
        """Among the newest `limit` messages of `channel_id`, the bot's own that carry
        live buttons of a game: game id -> message ids. Raise a `DeliveryProblem` when
        the place cannot be read."""
        ...


Seen = dict[int, Mapping[int, Sequence[int]]]
"""Place -> what `LiveButtons.live_buttons` found there, in this sweep."""


class LivePromptSweep:
    """The once-per-start look for older live prompts (`start`, in a task of its own;
    `run` for one whole sweep). `wake`: the delivery is to work the clears owed now."""

    def __init__(
        self,
        store: Store,
        finder: LiveButtons,
        wake: Callable[[], None],
        *,
        games_per_minute: float = GAMES_PER_MINUTE,
    ) -> None:
        self.store = store
        self.finder = finder
        self.wake = wake
        self.pause = 60.0 / games_per_minute
        self._task: asyncio.Task[int] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run(), name="live-prompts")

    async def finished(self) -> int:
        """Wait for the sweep `start` began; how many clears it owed (0: none began)."""
        return await self._task if self._task is not None else 0

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def run(self) -> int:
        """Look at every game under way once; how many clears it owed."""
        try:
            games = await self.store.active_game_ids()
            places = await self.store.places_of_games_under_way()
        except StoreError as error:
            log.warning("could not read the games to look for older live prompts: %s", error)
            return 0
        seen: Seen = {}
        owed = 0
        for number, game_id in enumerate(games):
            reads = len(seen)
            try:
                owed += await self.sweep_game(game_id, places.get(game_id, set()), seen)
            except StoreError as error:
                log.warning("game %s: could not look for older live prompts: %s", game_id, error)
            except Exception:  # one game's trouble holds up no other
                log.exception("game %s: looking for older live prompts failed", game_id)
            if len(seen) > reads and number + 1 < len(games):
                await asyncio.sleep(self.pause)  # a read made: keep to the pace
        if owed:
            log.info("older live prompts found at start-up: %d clears owed", owed)
        return owed

    async def sweep_game(self, game_id: int, recorded: set[int], seen: Seen) -> int:
        """Owe a `CLEAR` for each older message of the game with live buttons; how many."""
        row = await self.store.get(game_id)
        if row is None or row.status != ACTIVE or row.message_id is None:
            return 0
        prompt = row.message_id
        owed = await self.store.owed(game_id)
        if any(entry.kind == RECHECK for entry in owed):
            return 0  # which message is the prompt is the recheck's to say
        clearing = {int(e.body.get("message_id") or 0) for e in owed if e.kind == CLEAR}
        places = {row.channel_id, *([row.thread_id] if row.thread_id else []), *recorded}
        found = 0
        for place in sorted(places):
            if place not in seen:
                try:
                    seen[place] = await self.finder.live_buttons(row.guild_id, place, LOOK_BACK)
                except DeliveryProblem as problem:
                    log.info("could not look at %s for live prompts: %s", place, problem.words)
                    seen[place] = {}
            for message_id in seen[place].get(game_id, ()):
                if message_id < prompt and message_id not in clearing:
                    log.info(
                        "game %s: message %s in %s still has live buttons",
                        game_id,
                        message_id,
                        place,
                    )
                    await self.store.owe_clear(game_id, message_id, place)
                    clearing.add(message_id)
                    found += 1
        if found:
            self.wake()
        return found


__all__ = ["GAMES_PER_MINUTE", "LOOK_BACK", "LiveButtons", "LivePromptSweep"]
