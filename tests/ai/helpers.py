"""Playing games with policies for the AI tests (small search budgets keep them fast)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ai.decision import Decision
from ai.policies import Policy
from ai.search import SearchPolicy
from rules import Game

SMALL_AI = "ai:nodes=60,top=3,samples=2"


def small_ai() -> SearchPolicy:
    return SearchPolicy(nodes=60, top=3, samples=2)


def play_through(
    game: Game,
    policies: dict[str, Policy],
    seed: int,
    *,
    max_decisions: int = 3000,
) -> Iterator[tuple[Game, str, Decision]]:
    """Play `game` to its end; yields (game before the move, player, decision)."""
    rng = random.Random(seed)
    for _ in range(max_decisions):
        if game.is_over:
            return
        pid = game.awaiting
        assert pid is not None
        decision = policies[pid].decide(game, pid, rng)
        yield game, pid, decision
        game.apply(pid, decision.action)
    raise AssertionError(f"no end after {max_decisions} decisions")
