"""Hostile and random text never crashes the engine and never changes the game.

Issue 2's public API: "validates before it changes anything; raises IllegalAction
... A failed apply leaves the game exactly as it was."
"""

import random

from rules import Game, IllegalAction
from rules.simulate import choose_action

WORDS = [
    *[
        "recruit",
        "spin",
        "take",
        "advance",
        "return",
        "bank",
        "harvest",
        "extra",
        "noextra",
        "city",
        "place",
        "pass",
    ],
    *["upgrade", "goods", "build", "stop", "trade", "canteen", "end", "worker", "coins"],
    *[
        "copper",
        "stone",
        "grain",
        "pumpkin",
        "bigcopper",
        "bigstone",
        "mine",
        "quarry",
        "garden",
        "wheatfield",
    ],
    *["0", "1", "2", "3", "4", "5", "8", "9", "-1", "99999999999999999999", "A1", "C4", "z"],
    "\x00",
    "'; DROP TABLE games;--",
    "Żółć",
    "日本",
    "😀",
]


def test_random_text_is_refused_cleanly_and_changes_nothing() -> None:
    rng = random.Random(2)
    game = Game.new(["ana", "ben", "cleo"], seed=9)
    refusals = 0
    for _ in range(3000):
        if game.is_over:
            game = Game.new(["ana", "ben", "cleo"], seed=rng.randrange(1000))
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 5)))
        player = game.awaiting if rng.random() < 0.8 else rng.choice(["ana", "ben", "cleo", "x"])
        assert player is not None
        before = game.to_dict()
        try:
            game.apply(player, text)
        except IllegalAction as refusal:
            refusals += 1
            assert str(refusal), "a refusal says why"
            assert game.to_dict() == before
        if rng.random() < 0.3 and not game.is_over:
            game.apply(*choose_action(game, rng))
    assert refusals > 2000
