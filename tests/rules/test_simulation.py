"""Seeded random games with every invariant checked after every action (issue 2).

RULES.md 1 (component counts), 3 ("A player's board holds at most 8 workers"),
4 (the shortage rule moves pieces, never creates them) and 10 (every game ends):
`rules.simulate.check_invariants` checks conservation of goods, workers, cows and
settlements, the 8-worker limit, non-negative counts, a legal action for the awaited
player, the JSON round trip and replay of the record.
"""

import pytest

from rules import Game
from rules.simulate import InvariantError, check_invariants, play_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(10):
        stats = play_game(players, seed=500 + seed, check=True)
        assert stats.winners, "a finished game has at least one winner"
        assert stats.turns > 0


def test_checker_catches_a_created_piece() -> None:
    """The checker itself must fail when a good appears from nowhere (RULES.md 1)."""
    game = Game.new(["ana", "ben"], seed=3)
    game.players[0].goods["stone"] += 1
    with pytest.raises(InvariantError, match="stone"):
        check_invariants(game)


def test_checker_catches_a_ninth_worker() -> None:
    """RULES.md 3: "A player's board holds at most 8 workers"."""
    game = Game.new(["ana", "ben"], seed=3)
    moved = 9 - game.players[1].worker_count
    game.players[1].workers["grain"] += moved
    game.supply.workers["grain"] -= moved
    with pytest.raises(InvariantError, match="9 workers"):
        check_invariants(game)
