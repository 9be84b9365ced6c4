"""Games in a known state for the tests of panels and words."""

from __future__ import annotations

from collections.abc import Sequence

from rules import Game


def at_first_main_decision(players: Sequence[str], seed: int) -> tuple[Game, str]:
    """A new game played (first legal choice each time) through the setup to the first
    "recruit, work or build" decision; the game and the player awaited there."""
    game = Game.new(list(players), seed=seed)
    while game.pending.kind != "main":
        pid = game.awaiting
        assert pid is not None
        game.apply(pid, game.legal_actions(pid)[0])
    assert game.awaiting is not None
    return game, game.awaiting
