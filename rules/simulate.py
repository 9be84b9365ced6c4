"""Random complete games: an invariant checker and the engine's benchmark.

    python -m rules.simulate --players 4 --games 50 --seed 1 --check
    python -m rules.simulate --players 4 --games 200 --seed 1

With `--check`, after every action: no piece is created or lost, nobody holds more
than 8 workers outside a recruit or trade in progress, no count is negative, the
awaited player has at least two legal actions (a single one is applied by the game,
RULES.md 7.3), the state survives a JSON round trip and the record replays to it. The
first violation stops the run (exit status 1) with the game's seed and the action.
Without `--check` it prints the benchmark figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass

from . import data
from .actions import Action
from .game import Game

PLAYER_NAMES = ("ana", "ben", "cleo", "dan")
MAX_ACTIONS = 5000
"""A game longer than this is reported as stuck."""


def choose_action(game: Game, rng: random.Random) -> tuple[str, Action]:
    """The awaited player and a random legal action, biased so that games finish.

    Building is preferred whenever it is possible; otherwise a kind of action (verb)
    is drawn first and then one action of that kind, so the many worker combinations
    of the bank and the harvest do not crowd out recruiting and the city.
    """
    player_id = game.awaiting
    if player_id is None:
        raise ValueError("the game is over: nobody is awaited")
    # one pass groups the actions by verb, in their order (the builds among them)
    by_verb: dict[str, list[Action]] = {}
    for action in game.legal_actions(player_id):
        group = by_verb.get(action.verb)
        if group is None:
            by_verb[action.verb] = [action]
        else:
            group.append(action)
    builds = by_verb.get("build")
    if builds and rng.random() < 0.9:
        return player_id, rng.choice(builds)
    verbs = list(by_verb)
    if len(verbs) > 1 and "trade" in by_verb and rng.random() < 0.9:
        verbs.remove("trade")
    verb = rng.choice(verbs)
    return player_id, rng.choice(by_verb[verb])


class InvariantError(AssertionError):
    pass


def check_invariants(game: Game, *, replayed: Game | None = None) -> None:
    """Raise `InvariantError` naming the first broken invariant of `game`.

    `replayed` is the game rebuilt from the record so far (see `play_game`); without
    it the whole record is replayed here.
    """
    n = len(game.players)
    for good in data.GOODS:
        total = game.supply.goods[good] + game.box[good] + sum(p.goods[good] for p in game.players)
        if total != data.GOODS_TOTAL[good]:
            raise InvariantError(f"{good}: {total} pieces instead of {data.GOODS_TOTAL[good]}")
    on_board: Counter[str] = Counter()
    for space in game.bank:
        on_board.update(space)
    for places in game.harvest.values():
        for place in places:
            on_board.update(place.large)
            on_board.update(place.small)
    for colour in data.COLOURS:
        total = (
            game.supply.workers[colour]
            + on_board[colour]
            + sum(p.workers[colour] for p in game.players)
        )
        if total != data.WORKERS_PER_COLOUR:
            raise InvariantError(f"{colour} workers: {total} instead of {data.WORKERS_PER_COLOUR}")
    cows = (
        game.supply.cows
        + sum(p.cows for p in game.players)
        + sum(f.cow for f in game.fields.values())
    )
    if cows != data.COWS_TOTAL:
        raise InvariantError(f"cows: {cows} instead of {data.COWS_TOTAL}")
    for p in game.players:
        placed = sum(f.settlements.count(p.id) for f in game.fields.values())
        if placed + p.settlements_left != data.SETTLEMENTS[n]:
            raise InvariantError(
                f"{p.id}'s settlements: {placed} placed + {p.settlements_left} left"
            )
        counts = [
            p.coins,
            p.cows,
            p.canteens,
            p.settlements_left,
            *p.goods.values(),
            *p.workers.values(),
        ]
        if min(counts) < 0:
            raise InvariantError(f"{p.id} holds a negative count: {p.to_dict()}")
        recruiting = game.pending.seat == game.players.index(p) and game.pending.kind in (
            "take",
            "advance",
            "return",
        )
        if p.worker_count > data.MAX_WORKERS and not recruiting:
            raise InvariantError(f"{p.id} holds {p.worker_count} workers")
    if min([*game.supply.goods.values(), *game.supply.workers.values(), game.supply.cows]) < 0:
        raise InvariantError(f"negative supply: {game.supply.to_dict()}")
    if not game.is_over:
        awaited = game.awaiting
        if awaited is None or not game.legal_actions(awaited):
            raise InvariantError(f"{awaited} is awaited with no legal action ({game.pending})")
        if len(game.legal_actions(awaited)) == 1:
            raise InvariantError(f"{awaited} is awaited for a forced step ({game.pending})")
    if Game.from_dict(json.loads(json.dumps(game.to_dict()))) != game:
        raise InvariantError("the JSON round trip changed the game")
    if replayed is None:
        replayed = Game.replay(game.record())
    if replayed != game:
        raise InvariantError("the record does not replay to the game")


@dataclass
class GameStats:
    actions: int
    turns: int
    winners: list[int]
    """Seats sharing first place."""


def play_game(players: int, seed: int, *, check: bool = False) -> GameStats:
    """Play one random game to its end; raises `InvariantError` with seed and action.

    With `check`, a second game is rebuilt from the log action by action (replay is a
    fold over the record, so this equals replaying the whole record each time) and
    compared after every action; the whole record is replayed once more at the end.
    """
    game = Game.new(PLAYER_NAMES[:players], seed=seed)
    rng = random.Random(seed)
    if check:
        replayed = Game.replay_start(game.record())
        for player_id, notation in game.log:
            replayed.replay_action(player_id, notation)
        check_invariants(game, replayed=replayed)
    actions = 0
    while not game.is_over:
        if actions >= MAX_ACTIONS:
            raise InvariantError(f"seed {seed}: no end after {MAX_ACTIONS} actions")
        player_id, action = choose_action(game, rng)
        logged = len(game.log)
        game.apply(player_id, action)
        actions += 1
        if check:
            try:
                for logged_id, notation in game.log[logged:]:
                    replayed.replay_action(logged_id, notation)
                check_invariants(game, replayed=replayed)
            except InvariantError as error:
                raise InvariantError(
                    f"seed {seed}, action {actions} ({player_id}: {action}): {error}"
                ) from error
    if check:
        check_invariants(game)
    winners = [game.player_ids.index(pid) for pid in game.result().winners]
    return GameStats(actions=actions, turns=game.turn_number, winners=winners)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.simulate", description=__doc__)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="check invariants after every action")
    args = parser.parse_args(argv)

    stats: list[GameStats] = []
    started = time.perf_counter()
    cpu_started = time.process_time()
    for index in range(args.games):
        seed = args.seed + index
        try:
            stats.append(play_game(args.players, seed, check=args.check))
        except InvariantError as error:
            print(f"VIOLATION: {error}", file=sys.stderr)
            return 1
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    total_actions = sum(s.actions for s in stats)
    wins = Counter(seat for s in stats for seat in s.winners)
    mode = "checked" if args.check else "benchmark"
    print(
        f"{args.games} games of {args.players} players ({mode}), "
        f"seeds {args.seed}..{args.seed + args.games - 1}"
    )
    # CPU time is what one core spends; wall time also counts other processes' load
    print(f"games per second:   {args.games / elapsed:.1f} (wall), {args.games / cpu:.1f} (CPU)")
    print(
        f"actions per second: {total_actions / elapsed:.0f} (wall), {total_actions / cpu:.0f} (CPU)"
    )
    print(f"turns per game:     median {statistics.median(s.turns for s in stats):.0f}")
    print(f"actions per game:   median {statistics.median(s.actions for s in stats):.0f}")
    print(
        "wins by seat:       "
        + ", ".join(f"seat {seat + 1}: {wins[seat]}" for seat in range(args.players))
    )
    print(f"ran {elapsed:.2f} s wall, {cpu:.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
