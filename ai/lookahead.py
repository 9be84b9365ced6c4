"""Trying an action on a copy of the game, with an honest wheel.

The game's generator lives in its state, so a plain copy would spin exactly what
the real game will spin next: the copy's generator is re-seeded from the policy's
own generator first, so a look-ahead only ever sees a possible future.
"""

from __future__ import annotations

import random

from rules import Action, Event, Game


def try_action(
    game: Game, player_id: str, action: Action, rng: random.Random
) -> tuple[Game, list[Event]]:
    """A copy of `game` after `player_id` played `action`, and the events it made."""
    copy = game.copy()
    copy.rng.seed(rng.getrandbits(64))
    events = copy.apply(player_id, action)
    return copy, events
