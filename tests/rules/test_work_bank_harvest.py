"""RULES.md sections 6, 6.1 (bank) and 6.2 (harvest)."""

from __future__ import annotations

import pytest

from rules import Game, IllegalAction, data
from tests.rules import helpers as h


def _worker(coins: int = 20, **workers: int) -> Game:
    """Ann to act with exactly these workers and coins."""
    game = h.new_game(4, seed=1)
    h.clear_workers(game, "ann")
    h.set_workers(game, "ann", **workers)
    game.player("ann").coins = coins
    return h.refresh(game)


# --- 6.1 bank


def test_rulebook_example_two_workers_on_a_bank_space_give_eight_coins() -> None:
    """6.1 "Rulebook example: 2 workers on a space → 8 coins.\""""
    game = _worker(coins=3, copper=1, pumpkin=1)
    events = game.apply("ann", "bank 3 copper pumpkin")
    assert h.of_kind(events, "bank")[0].data == {
        "space": 3,
        "workers": ["copper", "pumpkin"],
        "coins": 8,
    }
    assert game.player("ann").coins == 11
    assert game.bank[2] == ["copper", "pumpkin"]
    assert game.player("ann").worker_count == 0


@pytest.mark.parametrize(
    ("space", "workers", "coins"),
    [(1, "stone", 3), (2, "grain", 4), (3, "grain grain", 8), (4, "copper stone grain", 11)],
)
def test_each_bank_space_pays_its_coins(space: int, workers: str, coins: int) -> None:
    """6.1 "Put exactly the number of workers a free bank space shows (1–3, any colours) on
    it and take its coins"; 9 "bank spaces | 1 worker → 3 coins; 1 worker → 4 coins;
    2 workers → 8 coins; 3 workers → 11 coins"."""
    game = _worker(coins=0, copper=1, stone=1, grain=2)
    game.apply("ann", f"bank {space} {workers}")
    assert game.player("ann").coins == coins
    assert data.BANK[space - 1] == (len(workers.split()), coins)


def test_a_bank_space_takes_exactly_its_number_of_workers() -> None:
    """6.1 "Put exactly the number of workers a free bank space shows": one worker more or
    less is refused with the reason."""
    game = _worker(grain=3)
    with pytest.raises(IllegalAction, match="takes exactly 2 worker"):
        game.apply("ann", "bank 3 grain")
    with pytest.raises(IllegalAction, match="takes exactly 1 worker"):
        game.apply("ann", "bank 1 grain grain")
    with pytest.raises(IllegalAction, match="you do not have the workers"):
        game.apply("ann", "bank 3 copper copper")


def test_an_occupied_bank_space_is_not_free() -> None:
    """6.1 "a free bank space": a space holding workers stays taken until the clean-up."""
    game = _worker(grain=2)
    game.bank[2] = ["stone", "stone"]
    game.supply.workers["stone"] -= 2
    h.refresh(game)
    assert not any(a.startswith("bank 3") for a in h.legal(game))
    with pytest.raises(IllegalAction, match="already occupied"):
        game.apply("ann", "bank 3 grain grain")


def test_one_work_action_is_one_bank_space() -> None:
    """6 "(our ruling ... one Work action is one bank space, or one harvest place with its
    small box, or the city)": after a bank space the turn passes on."""
    game = _worker(grain=4)
    game.apply("ann", "bank 1 grain")
    assert game.turn_player == "bob" and game.pending.kind == "main"


# --- 6.2 harvest


def test_rulebook_example_one_beige_worker_on_a_grain_place() -> None:
    """6.2 "Rulebook example: 1 beige worker on a grain place, pay 6 coins, take 4 grain; then
    2 more workers on its small box, take 1 more grain.\""""
    game = _worker(coins=7, grain=1, stone=1, pumpkin=1)
    h.set_goods(game, "ann", grain=0)
    events = game.apply("ann", "harvest wheatfield 3 grain")
    assert h.of_kind(events, "harvest")[0].data == {
        "area": "wheatfield",
        "place": 3,
        "workers": ["grain"],
        "coins": 6,
        "goods": {"grain": 4},
    }
    assert game.player("ann").coins == 1
    assert game.player("ann").goods["grain"] == 4
    assert game.pending.kind == "extra" and game.awaiting == "ann"
    events = game.apply("ann", "extra stone pumpkin")
    assert h.of_kind(events, "extra")[0].data["goods"] == {"grain": 1}
    assert game.player("ann").goods["grain"] == 5
    assert game.player("ann").coins == 1
    place = game.harvest["wheatfield"][2]
    assert place.large == ["grain"] and place.small == ["stone", "pumpkin"]
    assert game.turn_player == "bob"
    h.assert_conserved(game)


@pytest.mark.parametrize("area", data.AREAS)
def test_each_area_yields_its_good_for_its_price(area: str) -> None:
    """6.2 "(mine → copper, quarry → stone, grain field → grain, garden → pumpkin)" and 9
    "pay 1 → 1; pay 3 → 2; pay 6 → 3 (4 for the grain field)"; no large pieces ("only from
    the city's upgrades, never from a harvest")."""
    good = {"mine": "copper", "quarry": "stone", "wheatfield": "grain", "garden": "pumpkin"}[area]
    expected = [(1, 1), (3, 2), (6, 4 if area == "wheatfield" else 3)]
    for place, (coins, amount) in enumerate(expected, start=1):
        game = _worker(coins=10, **{good: 1})
        h.set_goods(game, "ann", **{good: 0})
        game.apply("ann", f"harvest {area} {place} {good}")
        ann = game.player("ann")
        assert ann.coins == 10 - coins
        assert ann.goods[good] == amount
        assert ann.goods["bigcopper"] == ann.goods["bigstone"] == 0


def test_one_worker_must_match_the_area_two_may_be_any() -> None:
    """6.2.1 "put either 1 worker of the area's colour or 2 workers of any colours"."""
    game = _worker(grain=1, pumpkin=1, copper=1)
    harvest_mine_1 = {a for a in h.legal(game) if a.startswith("harvest mine 1 ")}
    assert harvest_mine_1 == {
        "harvest mine 1 copper",
        "harvest mine 1 copper grain",
        "harvest mine 1 copper pumpkin",
        "harvest mine 1 grain pumpkin",
    }
    with pytest.raises(IllegalAction, match="must be copper"):
        game.apply("ann", "harvest mine 1 grain")
    with pytest.raises(IllegalAction, match="expected 1 to 2 worker"):
        game.apply("ann", "harvest mine 1 copper grain pumpkin")


def test_the_large_box_coins_must_be_paid() -> None:
    """6.2.1 "pay the coins printed there": without them the place is refused."""
    game = _worker(coins=5, grain=1)
    assert "harvest wheatfield 2 grain" in h.legal(game)
    assert "harvest wheatfield 3 grain" not in h.legal(game)
    with pytest.raises(IllegalAction, match="costs 6 coins and you have 5"):
        game.apply("ann", "harvest wheatfield 3 grain")


def test_a_place_is_free_while_its_large_box_is_empty() -> None:
    """6.2 "A place is free while its large box is empty.\""""
    game = _worker(copper=2)
    game.harvest["mine"][0].large.append("stone")
    game.supply.workers["stone"] -= 1
    h.refresh(game)
    with pytest.raises(IllegalAction, match="place 1 of the mine is occupied"):
        game.apply("ann", "harvest mine 1 copper")
    game.apply("ann", "harvest mine 2 copper")
    assert game.harvest["mine"][1].large == ["copper"]


def test_the_small_box_follows_the_same_worker_rule_and_costs_nothing() -> None:
    """6.2.2 "optionally, put workers on that same place's small box by the same worker rule
    (1 matching or 2 any); it costs no coins; take the extra goods printed there"."""
    game = _worker(coins=3, pumpkin=2, grain=1)
    game.apply("ann", "harvest garden 2 pumpkin")
    assert game.player("ann").coins == 0
    assert h.legal(game) == {"extra pumpkin", "extra grain pumpkin", "noextra"} | {
        a for a in h.legal(game) if a.startswith("trade")
    }
    with pytest.raises(IllegalAction, match="must be pumpkin"):
        game.apply("ann", "extra grain")
    game.apply("ann", "extra pumpkin")
    assert game.player("ann").goods["pumpkin"] == 1 + 2 + 1
    assert game.harvest["garden"][1].small == ["pumpkin"]


def test_the_small_box_may_be_left_empty() -> None:
    """6.2.2 "Then, optionally": `noextra` ends the action with the small box empty."""
    game = _worker(copper=3)
    game.apply("ann", "harvest mine 1 copper")
    game.apply("ann", "noextra")
    assert game.harvest["mine"][0].small == []
    assert game.player("ann").workers["copper"] == 2
    assert game.turn_player == "bob"


def test_no_small_box_question_without_workers_for_it() -> None:
    """6.2.2 the small box needs 1 matching or 2 workers: with one unmatching worker left
    and no cow to trade for another, the game does not ask."""
    game = _worker(copper=1, grain=1)
    h.set_cows(game, "ann", 0)
    game.apply("ann", "harvest mine 1 copper")
    assert game.turn_player == "bob"


def test_a_cow_may_buy_the_worker_for_the_small_box() -> None:
    """3 "at any moment of your own turn, as often as you like, you may trade cows" with 7.2
    "or 1 worker of any colour" and 6.2.2 "Then, optionally, put workers on that same
    place's small box": a player whose last worker went on the large box, holding a cow, is
    still asked about the small box (as the engine asks about advancing to a player who
    holds a cow but no grain)."""
    game = _worker(copper=1)
    h.set_cows(game, "ann", 1)
    game.apply("ann", "harvest mine 1 copper")
    assert game.pending.kind == "extra" and game.awaiting == "ann"
    game.apply("ann", "trade worker copper")
    game.apply("ann", "extra copper")
    assert game.harvest["mine"][0].small == ["copper"]
