"""Tournaments' seating and standings at a large server's scale: `python -m bot.tourneybench`.

usage: python -m bot.tourneybench [--players N] [--rounds N] [--sizes 3,4]
                                  [--swisses N] [--samples N] [--seed N]

Plays `--swisses` (5) Swisses of `--players` (200) over `--rounds` (7) rounds of tables
of `--sizes` (3 and 4) with random outcomes (seeded: a place drawn per seat, a tie now
and then, the settlements built), timing each `seat_round` (one per round), and
`--samples` (200)
`standings` of the record as it stood after a random round, the last round half played.
Prints per call the median and p99 of wall and CPU time, with issue 40's aim for
`standings` (p99 <= 50 ms), and how many repeated meetings the seatings made.

The functions are importable (`play`, `outcome_of`, `timed`), for a bench that adds the
store's reading time to the same record.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.core.community.tournament_pairing import (
    SWISS,
    Outcome,
    Plan,
    PlayedRound,
    seat_round,
    standings,
)

STANDINGS_AIM_MS = 50.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


@dataclass(frozen=True)
class Timing:
    """One call's wall and CPU seconds."""

    wall: float
    cpu: float


def timed(work: Callable[[], object]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu)


def line(name: str, timings: list[Timing], aim_ms: float | None = None) -> str:
    walls = [t.wall * 1000 for t in timings]
    cpus = [t.cpu * 1000 for t in timings]
    wall99 = percentile(walls, 0.99)
    text = (
        f"{name}: wall p50 {percentile(walls, 0.5):.1f} ms, p99 {wall99:.1f} ms; "
        f"CPU p50 {percentile(cpus, 0.5):.1f} ms, p99 {percentile(cpus, 0.99):.1f} ms "
        f"({len(timings)} calls)"
    )
    if aim_ms is not None:
        text += f"  (aim p99 <= {aim_ms:.0f} ms: {'met' if wall99 <= aim_ms else 'MISSED'})"
    return text


def outcome_of(rng: random.Random, table: tuple[str, ...]) -> Outcome:
    """A random finished game of `table`: places in a random order, now and then a
    complete tie for a place (RULES.md 10's shared win), settlements by place."""
    order = list(table)
    rng.shuffle(order)
    places: dict[str, int] = {}
    for index, player in enumerate(order):
        tied = index > 0 and rng.random() < 0.1
        places[player] = places[order[index - 1]] if tied else index + 1
    return Outcome(
        table,
        tuple(places[p] for p in table),
        tuple(max(0, 12 - 2 * places[p] + rng.randint(-1, 1)) for p in table),
    )


def play(
    plan: Plan, entrants: list[str], rng: random.Random, seat_times: list[Timing] | None = None
) -> list[PlayedRound]:
    """Every round of `plan`, seated by `seat_round` and played with random outcomes."""
    played: list[PlayedRound] = []
    while True:
        seating = None

        def seat() -> None:
            nonlocal seating
            seating = seat_round(plan, entrants, played)

        timing = timed(seat)
        if seating is None:
            return played
        if seat_times is not None:
            seat_times.append(timing)
        played.append(
            PlayedRound(
                seating.number,
                seating.tables,
                tuple(outcome_of(rng, t) for t in seating.tables),
                seating.byes,
            )
        )


def repeats(played: list[PlayedRound]) -> int:
    """Pairs seated together again, counted once per meeting after their first."""
    seen: set[frozenset[str]] = set()
    again = 0
    for one in played:
        for table in one.seated:
            for index, a in enumerate(table):
                for b in table[index + 1 :]:
                    pair = frozenset((a, b))
                    again += pair in seen
                    seen.add(pair)
    return again


def measure(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    sizes = tuple(int(s) for s in args.sizes.split(","))
    plan = Plan(SWISS, sizes, rounds=args.rounds)
    entrants = [str(10**17 + n) for n in range(args.players)]
    seat_times: list[Timing] = []
    again = 0
    for _ in range(args.swisses):
        played = play(plan, entrants, rng, seat_times)
        again += repeats(played)
    standing_times: list[Timing] = []
    for _ in range(args.samples):
        cut = rng.randint(1, len(played))
        record = played[:cut]
        last = record[-1]
        half = len(last.outcomes) // 2
        record[-1] = PlayedRound(
            last.number,
            last.seated,
            last.outcomes[:half] + (None,) * (len(last.outcomes) - half),
            last.byes,
        )
        standing_times.append(timed(functools.partial(standings, plan, entrants, record)))
    print(
        f"tourneybench: {args.swisses} Swisses of {args.players} players, {len(played)} rounds "
        f"of tables of {args.sizes}, {again} repeated meetings"
    )
    print(line("seat_round", seat_times))
    print(line("standings", standing_times, STANDINGS_AIM_MS))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200, help="entrants (200)")
    parser.add_argument("--rounds", type=int, default=7, help="Swiss rounds (7)")
    parser.add_argument("--sizes", default="3,4", help="table sizes (3,4)")
    parser.add_argument("--swisses", type=int, default=5, help="Swisses played (5)")
    parser.add_argument("--samples", type=int, default=200, help="standings timed (200)")
    parser.add_argument("--seed", type=int, default=1)
    measure(parser.parse_args(argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
