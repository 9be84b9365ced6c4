"""The baselines: greedy takes the best immediate gain by its documented score
(ai/README.md), random plays any legal move (building when it can, mostly)."""

from __future__ import annotations

import random

from ai import get
from ai.evaluate import Evaluator
from ai.policies import greedy_holdings
from rules import Action
from tests.rules.helpers import clear_goods, new_game, set_goods, start_turn


def test_greedy_builds_when_it_can_and_says_what_it_gains() -> None:
    game = new_game(players=2)
    pid = start_turn(game, 0)
    label = min(Evaluator(game).near, key=lambda la: sum(game.fields[la].cost.values()))
    clear_goods(game, pid)
    set_goods(game, pid, **game.fields[label].cost)
    decision = get("greedy").decide(game, pid, random.Random(1))
    assert decision.action == Action("build", (label,))
    after = game.copy()
    after.apply(pid, decision.action)
    gain = next(r for r in decision.reasons if r.kind == "best_immediate_gain")
    assert gain.value == round(10 * (greedy_holdings(after, 0) - greedy_holdings(game, 0)))
    assert gain.value > 0


def test_greedy_without_a_build_goes_to_the_city_row_that_pays_most() -> None:
    """Score: row 2's three goods (3) minus its column's pumpkins, plus the free
    pumpkin, beats every harvest, bank space and recruit."""
    game = new_game(players=2)
    pid = start_turn(game, 0)
    clear_goods(game, pid)
    decision = get("greedy").decide(game, pid, random.Random(1))
    assert decision.action == Action("city", ("2", "1"))


def test_random_plays_legal_moves_drawn_from_its_generator() -> None:
    game = new_game(players=3)
    pid = start_turn(game, 0)
    clear_goods(game, pid)  # nothing to build: random draws a kind of action, then one
    drawn = {get("random").decide(game, pid, random.Random(seed)).action for seed in range(20)}
    assert drawn <= set(game.legal_actions(pid))
    assert len(drawn) > 3
