"""The most recent turn, read back from the game's log: who moved and what they did.

A picture posted after a move shows what the last turn changed (every field built,
the workers placed, the city spaces taken) and says it in words, so the players who
were away see the whole turn, not only its last action. The log is the only record
needed: `last_turn(game)` groups its newest entries into the turn they belong to.

How a turn is recognised in the log (RULES.md 3, 6.3, 7.3, 8):
- a turn belongs to its turn player; it starts with that player's first entry (a
  cow trade or the main action), after an entry of another player's turn;
- the answers of an auction (`place`, `pass`, `upgrade`, `goods`) are entries of other
  players inside the turn; the engine also logs forced steps under the id of whoever
  was awaited, so entries of other players may sit in the middle of a turn: only a
  non-answer entry by someone else starts a new turn;
- a canteen ends the turn it is used in: the next entry of the same player starts a
  new one;
- the setup spins (and wild colours) of each player form a turn of their own.

Pure: reads `game.log`, `game.players` and a few state fields, changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import data
from .actions import Action, parse_action
from .game import Game

ANSWER_VERBS = frozenset({"place", "pass", "upgrade", "goods"})
"""Entries a player makes inside someone else's turn (the city auction and its rewards)."""
SETUP_VERBS = frozenset({"spin", "take"})


@dataclass(frozen=True)
class Move:
    """One logged action and who made it."""

    player: str
    action: Action


@dataclass(frozen=True)
class WorkerPlacement:
    """Workers put on the worker board: a bank space or a harvest place's box."""

    player: str
    colours: tuple[str, ...]
    space: int | None = None
    """Bank space 1..4, or None for a harvest box."""
    area: str | None = None
    place: int | None = None
    box: str | None = None
    """"large" (the action's box) or "small" (the extra box of the same place)."""


@dataclass(frozen=True)
class RecentTurn:
    """The moves of one turn, oldest first."""

    player: str
    """The turn player (in the setup: the player who spun)."""
    moves: tuple[Move, ...]
    setup: bool
    """The setup spins of `player`, not a turn of the game proper."""
    in_progress: bool
    """The turn is still going on: the moves are what was done so far."""
    number: int | None
    """The game's turn number (None for the setup)."""

    def verbs(self) -> list[str]:
        return [move.action.verb for move in self.moves]

    @property
    def builds(self) -> list[str]:
        """Every field built on in this turn, in order."""
        return [m.action.args[0] for m in self.moves if m.action.verb == "build"]

    @property
    def unused_build_coins(self) -> int | None:
        """Coins taken for unused builds when the player stopped (None: no `stop`)."""
        if "stop" not in self.verbs():
            return None
        return data.UNUSED_BUILD_COINS[len(self.builds)]

    @property
    def placements(self) -> list[WorkerPlacement]:
        """Workers put on the bank or on harvest boxes in this turn."""
        placed: list[WorkerPlacement] = []
        harvested: tuple[str, int] | None = None
        for move in self.moves:
            verb, args = move.action.verb, move.action.args
            if verb == "bank":
                placed.append(WorkerPlacement(move.player, args[1:], space=int(args[0])))
            elif verb == "harvest":
                harvested = (args[0], int(args[1]))
                placed.append(
                    WorkerPlacement(
                        move.player, args[2:], area=args[0], place=int(args[1]), box="large"
                    )
                )
            elif verb == "extra" and harvested is not None:
                placed.append(
                    WorkerPlacement(
                        move.player, args, area=harvested[0], place=harvested[1], box="small"
                    )
                )
        return placed

    @property
    def city_spaces(self) -> list[tuple[str, int, int]]:
        """(player, row, column) of every city space taken in this turn, in order."""
        return [
            (m.player, int(m.action.args[0]), int(m.action.args[1]))
            for m in self.moves
            if m.action.verb in ("city", "place")
        ]

    @property
    def auction_result(self) -> dict[str, tuple[int, int]]:
        """Where each representative stood when the bidding of this turn's auction ended
        (or stands now, while it goes on): the spaces the winners pay for."""
        standing: dict[str, tuple[int, int]] = {}
        for move in self.moves:
            verb, args = move.action.verb, move.action.args
            if verb in ("city", "place"):
                standing[move.player] = (int(args[0]), int(args[1]))
            elif verb == "pass":
                standing.pop(move.player, None)
        return standing

    @property
    def wheel_stops(self) -> list[int]:
        """The wheel segments whose workers were taken in this turn (spins and advances)."""
        stops: list[int] = []
        for move in self.moves:
            verb, args = move.action.verb, move.action.args
            if verb == "spin":
                stops.append(int(args[0]))
            elif verb == "advance" and int(args[0]) > 0 and stops:
                stops.append((stops[-1] - 1 + int(args[0])) % len(data.WHEEL) + 1)
        return stops


def _verb(notation: str) -> str:
    return notation.split(" ", 1)[0]


def _starts_turn(log: list[tuple[str, str]], index: int, setup_end: int) -> bool:
    """Does log entry `index` (not an answer) start a turn? It does unless the turn in
    progress before it is its own player's and was not ended by a canteen; the first
    entry after the setup spins always does."""
    if index == setup_end:
        return True
    player = log[index][0]
    for before in range(index - 1, -1, -1):
        earlier_player, notation = log[before]
        verb = _verb(notation)
        if verb in ANSWER_VERBS:
            continue
        return earlier_player != player or verb == "canteen"
    return True


def last_turn(game: Game) -> RecentTurn | None:
    """The most recent turn that has moves (the current one if it has any); None before
    the first move."""
    log = game.log
    # the setup is every spin and wild colour before the first turn's first move
    setup_end = next(
        (i for i, (_, notation) in enumerate(log) if _verb(notation) not in SETUP_VERBS), len(log)
    )
    start = None
    for index in range(len(log) - 1, -1, -1):
        if _verb(log[index][1]) not in ANSWER_VERBS and _starts_turn(log, index, setup_end):
            start = index
            break
    if start is None:
        return None
    moves = tuple(Move(player, parse_action(notation)) for player, notation in log[start:])
    owner = moves[0].player
    setup = start < setup_end
    if setup:
        in_progress = game.in_setup and game.awaiting == owner
        number = None
    else:
        ended = any(m.action.verb == "canteen" for m in moves)
        in_progress = not game.is_over and not ended and game.turn_player == owner
        number = game.turn_number if in_progress or game.is_over else game.turn_number - 1
    return RecentTurn(owner, moves, setup, in_progress, number)


def turn_starts(game: Game, first: int = 0) -> list[int]:
    """The index in `game.log` of the first entry of every turn, oldest first, the setup
    counted as one turn (index 0): what a replay shows one frame each of. `first`: only
    the starts at that index or later (whether an entry starts a turn depends on the
    entries before it only, so the starts of a longer log extend those of a shorter)."""
    log = game.log
    setup_end = next(
        (i for i, (_, notation) in enumerate(log) if _verb(notation) not in SETUP_VERBS), len(log)
    )
    starts = [0] if log and first <= 0 else []
    for index in range(max(setup_end, first), len(log)):
        verb = _verb(log[index][1])
        if index and verb not in ANSWER_VERBS and _starts_turn(log, index, setup_end):
            starts.append(index)
    return starts
