"""Reading games, the part every other part of the game flow stands on: a game's row (by
id, by channel), the engine's state of it (`BrokenGame` when it does not load, logged
once), the per-game lock every change runs under, the check that a button's version and
undo epoch are still the game's own, and the moves told in a prompt as stored in its row.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Any

from bot.core.runtime import logs
from bot.core.store import ACTIVE, LOBBY, GameRow, Store
from bot.core.wording.refusals import BrokenGame, Refusal
from i18n import translatable
from rules import Event, Game

log = logging.getLogger(__name__)

STALE_WORDS = translatable(
    "This prompt is out of date: the game has moved on since. "
    "Use the buttons on the newest message (or {/board})."
)
STALE = STALE_WORDS.id
NO_GAME_HERE = translatable("There is no Montana game here. Start one with {/game new}.")

_reported_broken: set[tuple[int, int, int]] = set()
"""The broken games logged already (id, version, state): each is logged once."""


def events_json(events: Sequence[Event]) -> list[list[Any]]:
    return [[e.kind, e.player, e.data] for e in events]


def events_of(data: Sequence[Sequence[Any]]) -> list[Event]:
    return [Event(kind, player, dict(d)) for kind, player, d in data]


class Games:
    """The games of a store as the game flow reads them, and their locks."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def get(self, game_id: int) -> GameRow:
        row = await self.store.get(game_id) if 0 < game_id < 2**63 else None
        if row is None:
            raise Refusal(translatable("That game does not exist (any more)."))
        logs.bind_game(row.id, row.play_channel_id)
        return row

    async def game_here(self, channel_id: int) -> GameRow:
        """The lobby or running game of this channel or thread."""
        row = await self.store.open_game_in(channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        logs.bind_game(row.id, row.play_channel_id)
        return row

    async def latest_here(self, channel_id: int) -> GameRow:
        """The running game here, or else the last one (finished games can be looked at)."""
        row = await self.store.open_game_in(channel_id)
        if row is None:
            row = await self.store.latest_game_in(channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        logs.bind_game(row.id, row.play_channel_id)
        return row

    async def row_of(self, game: int | GameRow) -> GameRow:
        """The row given, or read by id (a front end that read it already passes it)."""
        return game if isinstance(game, GameRow) else await self.get(game)

    @staticmethod
    def game_of(row: GameRow) -> Game:
        """The engine's state of a started game; `BrokenGame` when it does not load."""
        if row.state_json is None:
            raise Refusal(
                translatable(
                    "The game has not started yet: players join with the Join button or "
                    "{/game join}, then {/game start}."
                )
            )
        try:
            return Game.from_dict(json.loads(row.state_json))
        except Exception:
            reported = (row.id, row.version, hash(row.state_json))
            if reported not in _reported_broken:
                _reported_broken.add(reported)
                log.exception(
                    "game %s channel %s: its saved state (version %s) cannot be read; "
                    "the game is skipped until an operator repairs it",
                    row.id,
                    row.play_channel_id,
                    row.version,
                )
            raise BrokenGame(row.id) from None

    def current(
        self, row: GameRow, expected_version: int | None, expected_epoch: int | None
    ) -> Game:
        """The game of an active row, if a button's version (and epoch) is still its own."""
        if row.status == LOBBY:
            raise Refusal(
                translatable(
                    "The game has not started yet: {/game start} once everyone has joined."
                )
            )
        if row.status != ACTIVE:
            raise Refusal(translatable("This game is over: no more moves."))
        if expected_version is not None and expected_version != row.version:
            raise Refusal(STALE_WORDS)
        if expected_epoch is not None and expected_epoch != row.undo_epoch:
            raise Refusal(STALE_WORDS)
        return self.game_of(row)


__all__ = ["NO_GAME_HERE", "STALE", "STALE_WORDS", "Games", "events_json", "events_of"]
