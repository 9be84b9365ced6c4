"""RULES.md section 4: limited goods and workers (the shortage rule)."""

from __future__ import annotations

from rules import Game
from tests.rules import helpers as h


def _quarry_position(supply: int, holdings: dict[str, int]) -> Game:
    """Ann (seat 0) about to harvest quarry place 3 (pay 6, take 3 stone) with `supply`
    small stone in the supply and `holdings` stone on the players' boards."""
    game = h.new_game(4, seed=1)
    for pid in h.IDS:
        h.set_goods(game, pid, stone=0)
    for pid, count in holdings.items():
        h.set_goods(game, pid, stone=count)
    h.set_supply_goods(game, "stone", supply)
    h.set_workers(game, "ann", stone=1)
    game.player("ann").coins = 6
    return h.refresh(game)


def test_rulebook_example_harvesting_three_stone_with_two_in_the_supply() -> None:
    """4 "Rulebook example: a player harvests 3 stone with 2 in the supply. Every player with
    a stone returns one, the harvester included; then the harvester takes 3.\""""
    game = _quarry_position(2, {"ann": 1, "bob": 2, "cid": 0, "dot": 1})
    events = game.apply("ann", "harvest quarry 3 stone")
    shortage = h.of_kind(events, "shortage")
    assert len(shortage) == 1
    assert shortage[0].player == "ann"
    assert shortage[0].data == {
        "pool": "goods",
        "name": "stone",
        "needed": 3,
        "returned": {"ann": 1, "bob": 1, "dot": 1},
    }
    assert [game.player(p).goods["stone"] for p in h.IDS] == [3, 1, 0, 0]
    assert game.supply.goods["stone"] == 2
    assert h.of_kind(events, "harvest")[0].data["goods"] == {"stone": 3}
    h.assert_conserved(game)


def test_returning_repeats_until_the_supply_holds_enough() -> None:
    """4 "Repeat until the supply holds N or no player holds any. Then the taker takes N":
    one round is not enough when few players hold the good."""
    game = _quarry_position(0, {"bob": 2, "cid": 1})
    events = game.apply("ann", "harvest quarry 3 stone")
    assert h.of_kind(events, "shortage")[0].data["returned"] == {"bob": 2, "cid": 1}
    assert [game.player(p).goods["stone"] for p in h.IDS] == [3, 0, 0, 0]
    assert game.supply.goods["stone"] == 0
    h.assert_conserved(game)


def test_when_nobody_holds_any_the_taker_takes_all_there_are() -> None:
    """4 "(our ruling for the case no text covers: if even that fails, they take all there
    are)"."""
    game = _quarry_position(1, {"dot": 1})
    events = game.apply("ann", "harvest quarry 3 stone")
    assert h.of_kind(events, "shortage")[0].data["returned"] == {"dot": 1}
    assert h.of_kind(events, "harvest")[0].data["goods"] == {"stone": 2}
    assert game.player("ann").goods["stone"] == 2
    assert game.supply.goods["stone"] == 0
    h.assert_conserved(game)


def test_no_shortage_no_return() -> None:
    """4 "Whenever someone must take N ... and fewer than N are there": with N there,
    nobody returns anything."""
    game = _quarry_position(3, {"ann": 1, "bob": 2})
    events = game.apply("ann", "harvest quarry 3 stone")
    assert not h.of_kind(events, "shortage")
    assert [game.player(p).goods["stone"] for p in h.IDS] == [4, 2, 0, 0]


def test_workers_short_come_back_from_player_boards_not_from_the_worker_board() -> None:
    """4 "(or N workers of one colour) ... every player who has at least one of that ...
    colour on their player board, the taker included, returns exactly one to the supply
    (workers standing on the worker board are not touched)"."""
    game = h.new_game(4, seed=1)
    for pid in h.IDS:
        h.clear_workers(game, pid)
    h.set_workers(game, "ann", stone=1)
    h.set_workers(game, "bob", stone=2)
    h.set_workers(game, "dot", stone=1, grain=1)
    game.bank[0] = ["stone"]
    game.supply.workers["stone"] -= 1
    h.set_supply_workers(game, "stone", 0, parking="garden")
    parked = [list(p.small) for p in game.harvest["garden"]]
    events = h.recruit(game, 6)  # stone + stone
    shortage = h.of_kind(events, "shortage")
    assert shortage[0].data == {
        "pool": "workers",
        "name": "stone",
        "needed": 2,
        "returned": {"ann": 1, "bob": 1, "dot": 1},
    }
    assert [game.player(p).workers["stone"] for p in h.IDS] == [2, 1, 0, 0]
    assert game.player("dot").workers["grain"] == 1
    assert game.bank[0] == ["stone"]
    assert [list(p.small) for p in game.harvest["garden"]] == parked
    assert game.supply.workers["stone"] == 1
    h.assert_conserved(game)


def _city_reward_position(row: int) -> Game:
    """Ann has chosen city row `row` column 1; everyone else passes; ann is to choose."""
    game = h.new_game(4, seed=1)
    game.apply("ann", f"city {row} 1")
    h.play(game, "pass", "pass", "pass")
    return game


def test_a_city_reward_is_declared_first_then_short_kind_by_kind() -> None:
    """4 "Each kind is handled on its own. Where a player takes several goods at once (a city
    reward), they first declare everything they take, then the rule is applied kind by
    kind.\""""
    game = h.new_game(4, seed=1)
    for pid in h.IDS:
        h.set_goods(game, pid, copper=0, stone=0, grain=1)
    h.set_goods(game, "bob", copper=1)
    h.set_goods(game, "cid", stone=1)
    h.set_supply_goods(game, "copper", 1)
    h.set_supply_goods(game, "stone", 0)
    grain_supply = game.supply.goods["grain"]
    game.apply("ann", "city 2 1")
    h.play(game, "pass", "pass", "pass")
    assert game.pending.kind == "reward" and game.awaiting == "ann"
    events = game.apply("ann", "goods copper copper stone")
    returned = {e.data["name"]: e.data["returned"] for e in h.of_kind(events, "shortage")}
    assert returned == {"copper": {"bob": 1}, "stone": {"cid": 1}}
    assert game.player("ann").goods["copper"] == 2 and game.player("ann").goods["stone"] == 1
    assert [game.player(p).goods["grain"] for p in h.IDS] == [1, 1, 1, 1]
    assert game.supply.goods["grain"] == grain_supply
    h.assert_conserved(game)


def test_no_cow_left_means_the_rewards_cow_is_not_received() -> None:
    """4 "Cows: if none is left in the supply, a reward's cow is simply not received (our
    ruling; the rulebook is silent)."""
    game = h.new_game(4, seed=1)
    h.set_cows(game, "dot", game.player("dot").cows + game.supply.cows)
    assert game.supply.cows == 0
    game.apply("ann", "city 1 1")
    events = h.play(game, "pass", "pass", "pass", "upgrade")
    assert h.of_kind(events, "reward")[0].data["gained"]["cows"] == 0
    assert game.player("ann").cows == 1
    h.assert_conserved(game)


def test_the_free_city_pumpkin_follows_the_shortage_rule() -> None:
    """4 "Whenever someone must take N of a good" and 6.3.1 "The active player takes 1
    pumpkin from the supply (shortage rule applies)": holders, the taker included, return
    one each, then the taker takes 1."""
    game = h.new_game(4, seed=1)
    h.set_goods(game, "bob", pumpkin=2)
    h.set_goods(game, "dot", pumpkin=0)
    h.set_supply_goods(game, "pumpkin", 0)
    events = game.apply("ann", "city 4 1")
    assert h.of_kind(events, "shortage")[0].data["returned"] == {"ann": 1, "bob": 1, "cid": 1}
    assert h.of_kind(events, "city")[0].data["free_pumpkin"] == 1
    assert [game.player(p).goods["pumpkin"] for p in h.IDS] == [1, 1, 0, 0]
    assert game.supply.goods["pumpkin"] == 2
    h.assert_conserved(game)


def test_coins_are_never_short() -> None:
    """4 "Coins are never short.": the bank pays its coins whatever the players hold."""
    game = h.new_game(4, seed=1)
    for pid in h.IDS:
        game.player(pid).coins = 500
    h.set_workers(game, "ann", grain=3)
    game.apply("ann", "bank 4 grain grain grain")
    assert game.player("ann").coins == 511
