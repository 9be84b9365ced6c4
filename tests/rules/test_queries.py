"""Queries the bot shows before a move agree with what the move then does.

RULES.md 7.1.3 (double field, lines of exactly 4, the field's cow, the touching lakes'
canteens), 7.1.5 ("A bonus settlement is placed only while the player has settlements
left") and 7.1.4 ("For each of the 3 builds left unused, take 1 coin").
"""

import random

from rules import Game
from rules.simulate import choose_action


def test_build_gains_and_stop_coins_predict_the_move() -> None:
    builds = stops = 0
    for seed in range(6):
        game = Game.new(["ana", "ben", "cleo"][: 2 + seed % 2], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            pid, action = choose_action(game, rng)
            expected_gains = None
            expected_coins = None
            if action.verb == "build":
                expected_gains = game.build_gains(pid, action.args[0])
            if action.verb == "stop":
                expected_coins = game.unused_build_coins()
            for event in game.apply(pid, action):
                if event.kind == "build" and expected_gains is not None:
                    builds += 1
                    assert event.data["bonuses"] == expected_gains.bonuses
                    assert event.data["gained"].get("cows", 0) == int(expected_gains.cow)
                    assert event.data["gained"].get("canteens", 0) == len(
                        expected_gains.canteen_lakes
                    )
                    expected_gains = None
                if event.kind == "stop" and expected_coins is not None:
                    stops += 1
                    assert event.data["coins"] == expected_coins
    assert builds > 50 and stops > 5
