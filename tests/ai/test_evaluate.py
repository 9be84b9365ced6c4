"""The evaluation: settlements dominate, goods count by the fields they pay for."""

from __future__ import annotations

import random

from ai.evaluate import FAR, NEAR, Evaluator, position_value
from ai.search import SearchPolicy
from rules import Game, data
from tests.rules.helpers import clear_goods, new_game, set_cows, set_goods, start_turn

from .helpers import small_ai


def cost_of(game: Game, label: str) -> dict[str, int]:
    return dict(game.fields[label].cost)


def no_goods() -> dict[str, int]:
    return {good: 0 for good in data.GOODS}


def test_goods_that_pay_for_a_frontier_field_are_worth_more_than_goods_nobody_asks_for() -> None:
    game = new_game(players=2)
    evaluator = Evaluator(game)
    near = [t for t in evaluator.targets(0) if t.distance == NEAR]
    target = min(near, key=lambda t: t.size)
    paying = no_goods() | dict(target.cost)
    useless = no_goods()
    # as many goods, all of one kind that no frontier field can be paid with alone
    kind = next(
        g
        for g in data.GOODS
        if all(dict(t.cost).get(g, 0) < t.size or t.size > target.size for t in near)
    )
    useless[kind] = target.size
    plan = evaluator.plan(0, paying)
    assert target.label in plan.affordable
    assert plan.value > evaluator.plan(0, useless).value


def test_a_field_one_build_away_needs_a_frontier_field_first() -> None:
    game = new_game(players=2)
    evaluator = Evaluator(game)
    far = next(t for t in evaluator.targets(0) if t.distance == FAR)
    plan = evaluator.plan(0, no_goods() | dict(far.cost))
    assert far.label not in plan.affordable


def test_a_settlement_placed_is_worth_more_than_the_goods_it_cost() -> None:
    game = new_game(players=2)
    pid = start_turn(game, 0)
    label = game.buildable_fields(pid)[0] if game.buildable_fields(pid) else None
    if label is None:
        label = min(Evaluator(game).near, key=lambda la: sum(game.fields[la].cost.values()))
        set_goods(game, pid, **cost_of(game, label))
    before = position_value(game, 0)
    game.apply(pid, f"build {label}")
    assert position_value(game, 0) > before


def test_the_last_settlement_is_placed_rather_than_resources_hoarded() -> None:
    """Regression: valuing cows and goods beyond what the stock left can become made
    the AI keep its last settlement for ever (RULES.md 10: placing it ends the game)."""
    game = new_game(players=2)
    pid = start_turn(game, 0)
    me = game.player(pid)
    # place 11 of ana's 12 settlements on fields away from the start
    spots = [f for f in game.fields.values() if f.buildable and not f.settlements and not f.cow][
        -data.SETTLEMENTS[2] + 1 :
    ]
    for f in spots:
        f.settlements.append(pid)
        me.settlements_left -= 1
    assert me.settlements_left == 1
    frontier = Evaluator(game).near
    label = min(frontier, key=lambda la: sum(game.fields[la].cost.values()))
    clear_goods(game, pid)
    goods = cost_of(game, label)
    for spare in ("grain", "copper"):
        goods[spare] = goods.get(spare, 0) + 3
    set_goods(game, pid, **goods)
    set_cows(game, pid, 8)
    decision = SearchPolicy(nodes=200).decide(game, pid, random.Random(1))
    assert decision.action.verb in ("build", "trade"), decision
    small = small_ai().decide(game, pid, random.Random(1))
    assert small.action.verb in ("build", "trade"), small
