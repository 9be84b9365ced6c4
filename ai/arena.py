"""Policies play each other: win rate and decision times.

    python -m ai.arena --players 2 --games 200 --seed 1 ai greedy
    python -m ai.arena --players 4 --games 200 --seed 1 --jobs 2 ai random random random
    python -m ai.arena --ladder --players 2 --games 200 --seed 1 --jobs 2

With --ladder no policy is named: each level plays the one below it (hard against
normal, normal against easy, easy against random) and easy also plays greedy, with
one line printed per pair. With 3 or 4 players the level below fills every other seat.

The first policy named is the one measured ("the subject"); the others fill the
other seats in the order given (repeated if fewer are named). Game k uses the game
seed `seed + k` and puts the subject in seat k mod players, so every seat is played
equally often. A shared first place counts 1/(number of winners): a tie of two
counts half. Decision times are the CPU time of the subject's process while it
decided, over the decisions that had more than one legal action (the others are
answered without thinking); with --jobs each game runs in one single-threaded
worker process, so every figure is one core's.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from rules import Game

from .policies import Policy, get

MAX_DECISIONS = 5000


@dataclass
class GameOutcome:
    score: float
    """The subject's share of first place: 1, 1/k for a tie of k, or 0."""
    settlements: int
    best_other_settlements: int
    decision_cpu_ms: list[float]
    decision_wall_ms: list[float]
    cpu_seconds: float
    finished: bool
    """False when the game was cut after MAX_DECISIONS (scored by its ranking then)."""


def seat_policies(specs: Sequence[str], players: int, index: int) -> list[str]:
    """The policy of each seat in game `index`: the subject rotates through the seats."""
    subject_seat = index % players
    others = [specs[1 + k % (len(specs) - 1)] for k in range(players - 1)]
    return [*others[:subject_seat], specs[0], *others[subject_seat:]]


def play_game(specs: Sequence[str], players: int, seed: int, index: int) -> GameOutcome:
    cpu_started = time.process_time()
    names = seat_policies(specs, players, index)
    ids = [f"p{seat + 1}" for seat in range(players)]
    subject = ids[index % players]
    policies: dict[str, Policy] = {pid: get(name) for pid, name in zip(ids, names, strict=True)}
    rngs = {pid: random.Random(f"{seed}/{index}/{pid}") for pid in ids}
    game = Game.new(ids, seed=seed + index)
    cpu_ms: list[float] = []
    wall_ms: list[float] = []
    for _ in range(MAX_DECISIONS):
        if game.is_over:
            break
        pid = game.awaiting
        assert pid is not None
        thinking = pid == subject and len(game.legal_actions(pid)) > 1
        wall, cpu = time.perf_counter(), time.process_time()
        decision = policies[pid].decide(game, pid, rngs[pid])
        if thinking:
            cpu_ms.append((time.process_time() - cpu) * 1000)
            wall_ms.append((time.perf_counter() - wall) * 1000)
        game.apply(pid, decision.action)
    result = game.result()
    standing = {s.player: s for s in result.ranking}
    winners = result.winners
    return GameOutcome(
        score=1 / len(winners) if subject in winners else 0.0,
        settlements=standing[subject].settlements,
        best_other_settlements=max(s.settlements for s in result.ranking if s.player != subject),
        decision_cpu_ms=cpu_ms,
        decision_wall_ms=wall_ms,
        cpu_seconds=time.process_time() - cpu_started,
        finished=game.is_over,
    )


def _play(job: tuple[Sequence[str], int, int, int]) -> GameOutcome:
    return play_game(*job)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


LADDER = (("hard", "normal"), ("normal", "easy"), ("easy", "random"), ("easy", "greedy"))
"""The adjacent pairs of the ladder, the stronger (measured) one first."""


def play_all(
    specs: Sequence[str], players: int, games: int, seed: int, jobs: int
) -> list[GameOutcome]:
    work = [(tuple(specs), players, seed, k) for k in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            return pool.map(_play, work, chunksize=1)
    return [_play(job) for job in work]


def ladder_line(subject: str, opponent: str, outcomes: list[GameOutcome]) -> str:
    rate = sum(o.score for o in outcomes) / len(outcomes)
    cpu_ms = [ms for o in outcomes for ms in o.decision_cpu_ms]
    return (
        f"{subject} vs {opponent}: win rate of {subject} {rate:.2f}, decision ms of "
        f"{subject}: median {percentile(cpu_ms, 50):.0f}, p99 {percentile(cpu_ms, 99):.0f}"
    )


def ladder(players: int, games: int, seed: int, jobs: int) -> None:
    print(f"ladder: {games} games of {players} players per pair, game seeds from {seed}")
    for subject, opponent in LADDER:
        wall_started = time.perf_counter()
        outcomes = play_all((subject, opponent), players, games, seed, jobs)
        wall = time.perf_counter() - wall_started
        print(f"{ladder_line(subject, opponent, outcomes)} (wall {wall:.0f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.arena", description=__doc__)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument(
        "--ladder", action="store_true", help="play each level against the one below"
    )
    parser.add_argument("policies", nargs="*", help="the subject first, then its opponents")
    args = parser.parse_args(argv)
    if args.ladder:
        if args.policies:
            parser.error("--ladder plays the levels: name no policy")
        ladder(args.players, args.games, args.seed, args.jobs)
        return 0
    if len(args.policies) < 2:
        parser.error("name at least two policies: the subject and its opponent(s)")
    for spec in args.policies:
        get(spec)  # an unknown name fails here, not in a worker

    wall_started, cpu_started = time.perf_counter(), time.process_time()
    outcomes = play_all(args.policies, args.players, args.games, args.seed, args.jobs)
    wall = time.perf_counter() - wall_started
    cpu = time.process_time() - cpu_started
    if args.jobs > 1:
        cpu += sum(o.cpu_seconds for o in outcomes)

    subject = args.policies[0]
    wins = sum(1 for o in outcomes if o.score == 1)
    ties = sum(1 for o in outcomes if 0 < o.score < 1)
    cpu_ms = [ms for o in outcomes for ms in o.decision_cpu_ms]
    wall_ms = [ms for o in outcomes for ms in o.decision_wall_ms]
    print(
        f"{args.games} games of {args.players} players, game seeds "
        f"{args.seed}..{args.seed + args.games - 1}: {subject} against "
        f"{', '.join(args.policies[1:])}, seats rotated"
    )
    unfinished = sum(1 for o in outcomes if not o.finished)
    print(
        f"wins {wins}, shared wins {ties}, losses {args.games - wins - ties}; "
        f"cut after {MAX_DECISIONS} decisions and ranked as they stood: {unfinished}"
    )
    print(
        "settlements per game (median): "
        f"{subject} {statistics.median(o.settlements for o in outcomes):g}, "
        f"best other {statistics.median(o.best_other_settlements for o in outcomes):g}"
    )
    print(f"decisions of {subject} with more than one legal action: {len(cpu_ms)} (CPU time)")
    wall_median, wall_p99 = percentile(wall_ms, 50), percentile(wall_ms, 99)
    print(f"decision wall ms: median {wall_median:.0f}, p99 {wall_p99:.0f}")
    print(f"wall time: {wall:.1f} s, CPU time: {cpu:.1f} s ({args.jobs} process(es))")
    print(f"win rate of {subject}: {sum(o.score for o in outcomes) / args.games:.2f}")
    print(f"decision ms: median {percentile(cpu_ms, 50):.0f}, p99 {percentile(cpu_ms, 99):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
