"""The README's example pictures: `python -m render.examples docs`.

Random games (the rules simulator's policy, fixed seeds) stopped at a moment worth
showing: a turn of several builds ended by "stop building", a city auction in which a
player was overtaken, and a finished game with its ranking. Names in Polish, Japanese
and with emoji, and a seat note.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

from rules import Game
from rules.recent import last_turn
from rules.simulate import choose_action

from . import render_game
from .__main__ import MAX_MOVES, PLAYER_IDS

NAMES = {"ana": "Zażółć", "ben": "さくら", "cleo": "Cleo 🐄", "dan": "Dan"}
NOTES = {"dan": "AI plays"}


def play_until(players: int, seed: int, stop: Callable[[Game], bool]) -> Game:
    """A random game played until `stop` holds (or to its end)."""
    game = Game.new(PLAYER_IDS[:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if game.is_over or stop(game):
            break
        player_id, action = choose_action(game, rng)
        game.apply(player_id, action)
    return game


def _several_builds_stopped(game: Game) -> bool:
    turn = last_turn(game)
    return (
        game.turn_number > 30
        and turn is not None
        and not turn.in_progress
        and len(turn.builds) >= 2
        and turn.unused_build_coins is not None
    )


def _overtaken(game: Game) -> bool:
    return (
        game.pending.kind == "bid"
        and game.auction is not None
        and game.auction.displaced is not None
    )


EXAMPLES: dict[str, tuple[int, int, Callable[[Game], bool]]] = {
    "snapshot-builds.png": (4, 1, _several_builds_stopped),
    "snapshot-city-auction.png": (4, 5, _overtaken),
    "snapshot-final.png": (3, 7, lambda game: False),
}
"""File name -> (players, seed, when to stop)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render.examples", description=__doc__)
    parser.add_argument("folder", type=Path, help="where the PNG files go")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    for name, (players, seed, stop) in EXAMPLES.items():
        game = play_until(players, seed, stop)
        path = args.folder / name
        path.write_bytes(render_game(game, names=NAMES, seat_notes=NOTES))
        print(f"{path}: {len(game.log)} actions, {game.pending.kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
