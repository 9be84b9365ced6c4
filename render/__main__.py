"""Render a random game: `python -m render --players 4 --seed 1 --moves 120 --out game.png`.

The moves are drawn by the rules simulator's random policy; `--final` plays on to
the end of the game and renders the results.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from rules import Game
from rules.simulate import choose_action

from . import render_game

PLAYER_IDS = ("ana", "ben", "cleo", "dan")
MAX_MOVES = 5000


def play(players: int, seed: int, moves: int, final: bool) -> tuple[Game, str | None]:
    """The game after `moves` random actions (or at its end); and the last field built."""
    game = Game.new(PLAYER_IDS[:players], seed=seed)
    rng = random.Random(seed)
    last_build: str | None = None
    limit = MAX_MOVES if final else moves
    for _ in range(limit):
        if game.is_over:
            break
        player_id, action = choose_action(game, rng)
        game.apply(player_id, action)
        if action.verb == "build":
            last_build = action.args[0]
    return game, last_build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=0, help="random actions to play")
    parser.add_argument("--final", action="store_true", help="play to the end of the game")
    parser.add_argument("--out", type=Path, required=True, help="PNG file to write")
    args = parser.parse_args(argv)
    game, _ = play(args.players, args.seed, args.moves, args.final)
    args.out.write_bytes(render_game(game))
    state = "over" if game.is_over else f"awaiting {game.awaiting}"
    print(f"{args.out}: {len(game.log)} actions, {state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
