"""Tournaments' seating and standings (issue 40): pure functions of a tournament's record.

Nothing here reads a store or a clock and nothing is random: the same record gives the
same round, so seating a round again after a crash finds the tables already opened
(the store keys each table by tournament, round and table number).

A player is a user id (`str`). The record is the plan, the entrants in sign-up order,
the rounds played or under way and who dropped out; `seat_round` gives the next round's
tables and byes (or `None` when the tournament is over), `standings` the ranking at any
moment, finished tables counted and unfinished ones not.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

SWISS = "swiss"
GROUPS = "groups"
KNOCKOUT = "knockout"
FORMATS = (SWISS, GROUPS, KNOCKOUT)


@dataclass(frozen=True)
class Plan:
    """What the organiser chose. `table_sizes`: the sizes a table may have, e.g. (3, 4);
    `rounds`: a Swiss's number of rounds (other formats derive theirs); `advance`: how
    many of each knockout table go on; `group_size`: the groups' size before the final."""

    format: str
    table_sizes: tuple[int, ...]
    rounds: int = 3
    advance: int = 1
    group_size: int = 4


@dataclass(frozen=True)
class Outcome:
    """A finished table: its players in seat order and each one's place (1 is best, a
    complete tie shares a place: RULES.md 10) and settlements built."""

    players: tuple[str, ...]
    places: tuple[int, ...]
    settlements: tuple[int, ...]


@dataclass(frozen=True)
class PlayedRound:
    """A round seated: its tables in table order (`None` for one still being played,
    with its players in `seated`), and its byes."""

    number: int
    seated: tuple[tuple[str, ...], ...]
    outcomes: tuple[Outcome | None, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seating:
    """The tables of the next round (each a tuple of players in seat order) and its byes."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    """One player's line: rank (shared by complete ties), points, the tie-breaks in the
    order they apply, games finished, byes had, and whether they dropped out or are
    out of a knockout."""

    user_id: str
    rank: int
    points: float
    opponents_points: float
    settlements: int
    games: int
    byes: int
    dropped: bool
    eliminated: bool


def seat_round(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> Seating | None:
    """The next round's seating, or `None` when the tournament is over. Only called once
    every table of the last round in `played` is finished."""
    raise NotImplementedError


def standings(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> list[Standing]:
    """Every entrant's standing, best first."""
    raise NotImplementedError


def champion(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> str | None:
    """The winner once the tournament is over (`seat_round` gives `None`), else `None`."""
    raise NotImplementedError
