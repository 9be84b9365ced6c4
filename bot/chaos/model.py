"""The chaos run's vocabulary: its settings, what it records (faults applied, tables,
presses, saved games, owed messages), the invariants it checks and the readings they share."""

from __future__ import annotations

import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules import Game

if TYPE_CHECKING:
    from tests.bot.fakediscord import FakeChannel, FakeMessage, FakeUser, InteractionResult

ROOT = Path(__file__).resolve().parents[2]
FAULT_KINDS = ("5xx", "429", "403", "history", "clear", "reconnect", "kill", "archived")
MESSAGES = "POST /channels/{id}/messages"
HISTORY = "GET /channels/{id}/messages"
EDIT = "PATCH /channels/{id}/messages/{id}"
VIA = {"Via": "1.1 google"}
MISSING_PERMISSIONS = 50013
QUIET = 1.5
"""Seconds without a request (and nothing owed) that count as settled."""
SETTLE_TIMEOUT = 60.0
MOVES_AFTER_HEALING = 2
STALL_TIMEOUT = 45.0
"""Seconds a game may take for its moves after healing before it counts as stalled."""
PROMPT_WAIT = 0.05
WENT_WRONG = "Something went wrong"


@dataclass
class Applied:
    """One fault applied: when (seconds since the run began), what."""

    at: float
    kind: str
    detail: str

    def line(self) -> str:
        return f"{self.at:7.2f}s  {self.kind:<9} {self.detail}"


@dataclass
class Table:
    """One channel where games are played one after another, and its players."""

    index: int
    channel: FakeChannel
    users: dict[str, FakeUser]
    rng: random.Random
    game_ids: list[int] = field(default_factory=list)
    moves: int = 0
    presses: int = 0
    last_move: float = field(default_factory=time.monotonic)
    longest_wait: float = 0.0

    @property
    def game_id(self) -> int:
        return self.game_ids[-1] if self.game_ids else 0


@dataclass
class Press:
    """A press (or typed move) and how it was answered."""

    table: int
    what: str
    sent: float
    result: InteractionResult


@dataclass
class Saved:
    """A game as the database file holds it."""

    row: dict[str, Any]
    log: list[tuple[int, str, str]]

    @property
    def version(self) -> int:
        return int(self.row["version"])

    @property
    def game(self) -> Game:
        state: dict[str, Any] = json.loads(self.row["state"])
        state.setdefault("log", [[player, notation] for _, player, notation in self.log])
        return Game.from_dict(state)


@dataclass
class Owed:
    id: int
    game_id: int
    version: int
    kind: str
    delivered: bool
    message_id: int | None


INVARIANTS = (
    "posted-once-in-order",
    "one-live-prompt",
    "nothing-owed",
    "state-is-replay",
    "one-ping-per-decision",
    "no-error-press",
    "no-stall",
)


def replay_problem(saved: Saved, game: Game) -> str:
    if [v for v, _, _ in saved.log] != list(range(1, saved.version + 1)):
        return (
            f"the move log has versions {[v for v, _, _ in saved.log][-3:]}, saved v{saved.version}"
        )
    if game.version != saved.version:
        return f"the state says v{game.version}, the row v{saved.version}"
    record = {**game.record(), "actions": [[p, n] for _, p, n in saved.log]}
    if Game.replay(record).to_dict() != game.to_dict():
        return "the saved state is not its move log replayed"
    return ""


def states_on(message: FakeMessage) -> set[tuple[int, int]]:
    """(game, version) of the game buttons on a message (`mt:<game>:<state>:<code>`)."""
    states = set()
    for custom_id in message.custom_ids():
        parts = custom_id.split(":", 3)
        if parts[0] in ("mt", "ms") and len(parts) == 4:
            with contextlib.suppress(ValueError):
                states.add((int(parts[1]), int(parts[2].split(".")[0])))
    return states


def codes_on(message: FakeMessage) -> dict[str, tuple[str, str]]:
    """code -> ("button" | "select", custom_id) for every enabled choice on a message."""
    from tests.bot.driver import codes_on

    return codes_on(message)
