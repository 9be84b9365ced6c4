"""Issue 35.3: an AI seat's move and a hint never read what decides future draws. The
game's seed and generator are secret while it runs (ARCHITECTURE.md, rules/); the
search tries spins on copies with its own dice (`ai.lookahead.try_action`), so a
decision is the same whatever the hidden seed of the state it is asked about."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.policies import LEVEL_NAMES, decide_from_state
from rules import Game
from rules.simulate import choose_action


def main_decisions(seed: int, count: int) -> list[dict[str, Any]]:
    """States of a 3-player game at a player's main action (RULES.md 3: recruit, whose
    spin is chance, is one of the choices), past the setup."""
    game = Game.new(["ana", "ai:1", "cleo"], seed=seed)
    rng = random.Random(seed)
    states: list[dict[str, Any]] = []
    while len(states) < count:
        if game.pending.kind == "main" and game.turn_number > 3 and rng.random() < 0.3:
            states.append(game.to_dict())
        game.apply(*choose_action(game, rng))
    return states


def hidden_seed(state: dict[str, Any], seed: int) -> dict[str, Any]:
    """The same state with another secret: its seed and generator drawn from `seed`."""
    generator = random.Random(seed)
    generator.random()
    version, internal, gauss = generator.getstate()
    return {**state, "seed": seed, "rng": [version, list(internal), gauss]}


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_an_ai_decides_the_same_whatever_the_hidden_seed(level: str) -> None:
    """RULES.md 5.1: the wheel "stops on one of the 8 segments uniformly at random" — an
    AI (a seat's move, or a hint: both are `decide_from_state`) that read the state's
    generator would know where. Same state, three different hidden seeds: the same
    action for the same reasons, at every level."""
    # the sixth is a position where a wheel read from the state (the copy's generator
    # left as it is) changes the easy level's choice between recruiting and the city
    for state in main_decisions(seed=33, count=6)[4:]:
        player = Game.from_dict(state).awaiting
        assert player is not None
        decisions = [
            decide_from_state(hidden_seed(state, secret), player, level, seed=5)
            for secret in (state["seed"], 1, 2**31 - 7)
        ]
        assert Game.from_dict(hidden_seed(state, 1)).visible_dict() == (
            Game.from_dict(state).visible_dict()
        )
        first = decisions[0]
        for other in decisions[1:]:
            assert (other.action, other.reasons) == (first.action, first.reasons), level
