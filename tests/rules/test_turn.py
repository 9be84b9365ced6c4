"""RULES.md section 3: a turn (one action, clean-up, canteen, next player, 8 workers)."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest

from rules import Game, IllegalAction, data
from rules.simulate import choose_action
from tests.rules import helpers as h


def test_a_turn_offers_exactly_the_three_actions_and_cow_trades() -> None:
    """3 "On your turn you **must** take exactly one action: **A Recruit**, **B Work** or
    **C Build**. In addition, at any moment of your own turn ... you may trade cows"."""
    game = h.new_game(4, seed=1)
    assert game.pending.kind == "main"
    assert h.verbs(game) <= {"recruit", "bank", "harvest", "city", "build", "trade"}
    assert {"recruit", "bank", "harvest", "city", "trade"} <= h.verbs(game)
    with pytest.raises(IllegalAction, match="not a main action"):
        game.apply("ann", "end")
    with pytest.raises(IllegalAction, match="not a main action"):
        game.apply("ann", "pass")


def test_one_action_per_turn_then_the_next_player_clockwise() -> None:
    """3 "The turn then ends ... 3. Otherwise the next player clockwise takes their turn."
    One Work action ends the turn: the same player cannot also recruit."""
    game = h.new_game(3, seed=1)
    ann, bob, cid = h.IDS[:3]
    h.set_workers(game, ann, grain=1)
    events = game.apply(ann, "bank 1 grain")
    assert h.kinds(events)[-2:] == ["turn_end", "turn"]
    assert game.awaiting == bob and game.turn_player == bob
    with pytest.raises(IllegalAction):
        game.apply(ann, "recruit")
    h.set_workers(game, bob, grain=1)
    game.apply(bob, "bank 2 grain")
    assert game.turn_player == cid
    h.set_workers(game, cid, grain=2)
    game.apply(cid, "bank 3 grain grain")
    assert game.turn_player == ann and game.pending.kind == "main"


def test_clean_up_empties_a_full_bank_at_the_end_of_the_turn() -> None:
    """3.1 "If every bank space is occupied, all workers on the bank go to the general
    supply ... Those spaces are free again from the next turn on.\""""
    game = h.new_game(4, seed=1)
    ann = h.player_id(game, 0)
    h.clear_workers(game, ann)
    h.set_workers(game, ann, stone=1, copper=2, grain=3, pumpkin=1)
    game.apply(ann, "bank 4 grain grain grain")
    # spaces 1 and 3 were filled in earlier turns
    game.bank[0] = ["copper"]
    game.bank[2] = ["copper", "stone"]
    game.supply.workers["copper"] -= 2
    game.supply.workers["stone"] -= 1
    bob = h.start_turn(game, 1)
    h.set_workers(game, bob, pumpkin=1)
    supply_before = dict(game.supply.workers)
    events = game.apply(bob, "bank 2 pumpkin")
    cleanup = h.of_kind(events, "cleanup")
    assert cleanup and cleanup[0].data["cleared"] == ["bank"]
    assert game.bank == [[], [], [], []]
    assert game.supply.workers["grain"] == supply_before["grain"] + 3
    assert game.supply.workers["copper"] == supply_before["copper"] + 2
    assert game.supply.workers["stone"] == supply_before["stone"] + 1
    assert game.supply.workers["pumpkin"] == supply_before["pumpkin"] + 1
    h.assert_conserved(game)


def test_no_clean_up_while_a_bank_space_is_free() -> None:
    """3.1 "If every bank space is occupied" — with three of four occupied the workers stay,
    and only the free space can be used next turn."""
    game = h.new_game(4, seed=1)
    ann = h.player_id(game, 0)
    h.set_workers(game, ann, grain=3, copper=1)
    game.apply(ann, "bank 4 grain grain grain")
    game.bank[0] = ["stone"]  # filled in an earlier turn
    game.supply.workers["stone"] -= 1
    bob = h.start_turn(game, 1)
    h.set_workers(game, bob, pumpkin=1)
    events = game.apply(bob, "bank 2 pumpkin")
    assert not h.of_kind(events, "cleanup")
    assert game.bank == [["stone"], ["pumpkin"], [], ["grain"] * 3]
    h.clear_workers(game, "cid")
    h.set_workers(game, "cid", copper=3)
    assert {a for a in h.legal(game) if a.startswith("bank")} == {"bank 3 copper copper"}
    h.assert_conserved(game)


def test_clean_up_of_a_harvest_area_whose_large_boxes_are_all_occupied() -> None:
    """3.1 "For each harvest area whose **large** boxes are all occupied, all workers of that
    area (large and small boxes) go to the general supply." Other areas stay."""
    game = h.new_game(4, seed=1)
    ann = h.player_id(game, 0)
    h.set_workers(game, ann, copper=4, stone=2, grain=0, pumpkin=0)
    h.play(game, "harvest mine 1 copper", "extra copper")
    bob = h.start_turn(game, 1)
    h.set_workers(game, bob, copper=1, stone=1, grain=0, pumpkin=0)
    h.play(game, "harvest quarry 1 stone")  # a lone stone worker: no small box possible
    cid = h.start_turn(game, 2)
    h.clear_workers(game, cid)
    h.set_workers(game, cid, copper=1, pumpkin=2)
    game.player(cid).coins = 10
    h.play(game, "harvest mine 2 copper", "extra pumpkin pumpkin")
    dot = h.start_turn(game, 3)
    h.clear_workers(game, dot)
    h.set_workers(game, dot, grain=4)
    game.player(dot).coins = 10
    supply_before = dict(game.supply.workers)
    events = h.play(game, "harvest mine 3 grain grain", "noextra")
    cleanup = h.of_kind(events, "cleanup")
    assert cleanup and cleanup[0].data["cleared"] == ["mine"]
    assert all(not p.large and not p.small for p in game.harvest["mine"])
    assert game.harvest["quarry"][0].large == ["stone"]
    assert game.supply.workers == {
        "copper": supply_before["copper"] + 3,
        "stone": supply_before["stone"],
        "grain": supply_before["grain"] + 2,
        "pumpkin": supply_before["pumpkin"] + 2,
    }
    h.assert_conserved(game)


def test_a_player_board_holds_at_most_eight_workers() -> None:
    """3 "A player's board holds at most **8 workers**." A recruit that brings 7 workers to
    9 makes the player return one before the turn ends."""
    game = h.new_game(4, seed=1)
    ann = h.player_id(game, 0)
    h.set_workers(game, ann, copper=6, stone=1, grain=0, pumpkin=0)
    h.set_goods(game, ann, grain=0)
    h.set_cows(game, ann, 0)
    h.recruit(game, 4)  # copper + copper
    assert game.player(ann).worker_count == 9
    assert game.pending.kind == "return" and game.awaiting == ann
    assert h.legal(game) == {"return copper", "return stone"}
    game.apply(ann, "return copper")
    assert game.player(ann).worker_count == data.MAX_WORKERS
    assert game.turn_player == "bob"


def test_goods_coins_and_cows_are_unlimited_on_a_player_board() -> None:
    """3 "Goods, coins and cows are unlimited": a player with many goods and cows may still
    harvest and take more."""
    game = h.new_game(4, seed=1)
    ann = h.player_id(game, 0)
    h.set_goods(game, ann, grain=15)
    h.set_cows(game, ann, 9)
    game.player(ann).coins = 60
    h.set_workers(game, ann, grain=1)
    events = h.play(game, "harvest wheatfield 3 grain")
    assert h.of_kind(events, "harvest")[0].data["goods"] == {"grain": 4}
    assert game.player(ann).goods["grain"] == 19
    assert game.player(ann).coins == 54


def test_turn_order_in_random_games() -> None:
    """3.3 "Otherwise the next player clockwise takes their turn", 8 (a canteen gives the same
    player a new turn) and 10 (after the final round's last seat, nobody plays): checked on
    every turn change of complete random games."""
    for players, seed in ((2, 61), (3, 62), (4, 63)):
        game = Game.new(h.IDS[:players], seed=seed)
        rng = random.Random(seed)
        turns_after_final = 0
        while not game.is_over:
            seat, was_final = game.turn, game.final_round
            in_setup = game.in_setup
            events = game.apply(*choose_action(game, rng))
            kinds = h.kinds(events)
            if in_setup or "turn" not in kinds:
                continue
            if "canteen" in kinds:
                assert game.turn == seat
            else:
                assert game.turn == (seat + 1) % players
            if was_final:
                turns_after_final += 1
                assert seat != players - 1
        assert h.kinds(events)[-1] == "game_over"
        assert game.turn == players - 1 and game.final_round
        assert turns_after_final <= players - 1 + data.CANTEENS_TOTAL


TRADES = {f"trade {good}" for good in data.TRADE_GOODS} | {"trade coins"}
TRADES |= {f"trade worker {colour}" for colour in data.COLOURS}


def _holds(workers: dict[str, int], combo: tuple[str, ...]) -> bool:
    return all(workers[c] >= combo.count(c) for c in combo)


def _expected_main_actions(game: Game, seat: int) -> set[str]:
    """RULES.md 3, 5, 6.1, 6.2, 6.3.1, 7.1.1-2 and 7.2 written out independently of the
    engine: what the turn player may choose at the start of their turn."""
    player = game.players[seat]
    pairs = list(combinations_with_replacement(data.COLOURS, 2))
    out = {"recruit"}
    for index, (needed, _coins) in enumerate(data.BANK):
        if not game.bank[index]:
            for combo in combinations_with_replacement(data.COLOURS, needed):
                if _holds(player.workers, combo):
                    out.add(" ".join(("bank", str(index + 1), *combo)))
    for area in data.AREAS:
        colour = data.AREA_COLOUR[area]
        boxes: list[tuple[str, ...]] = [(colour,)] if player.workers[colour] else []
        boxes += [pair for pair in pairs if _holds(player.workers, pair)]
        for index, (coins, _goods) in enumerate(data.HARVEST_PLACES[area]):
            if not game.harvest[area][index].large and player.coins >= coins:
                out |= {" ".join(("harvest", area, str(index + 1), *box)) for box in boxes}
    supply, anywhere = game.supply.goods["pumpkin"], sum(p.goods["pumpkin"] for p in game.players)
    own = player.goods["pumpkin"]
    pumpkins = own + 1 if supply else (own if own else (1 if anywhere else 0))
    for row in range(1, data.CITY_ROWS + 1):
        for col, cost in enumerate(data.CITY_COSTS, start=1):
            if cost <= pumpkins:
                out.add(f"city {row} {col}")
    if player.settlements_left:
        for f in game.fields.values():
            touches = any(n.start or n.settlements for n in h.neighbour_fields(game, f))
            payable = all(player.goods[g] >= n for g, n in f.cost.items())
            if f.buildable and not f.settlements and touches and payable:
                out.add(f"build {f.label}")
    return out | (TRADES if player.cows else set())


def test_main_actions_in_random_games_match_the_rules() -> None:
    """3 "you **must** take exactly one action: **A Recruit**, **B Work** or **C Build**" and
    "you may trade cows": at every start of a turn in random games the legal actions are
    exactly those the rules allow, computed here without the engine's help."""
    checked = 0
    for players, seed in ((2, 71), (3, 72), (4, 73), (4, 74)):
        game = Game.new(h.IDS[:players], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.pending.kind == "main":
                seat = game.turn
                assert h.legal(game) == _expected_main_actions(game, seat)
                checked += 1
            game.apply(*choose_action(game, rng))
    assert checked > 200
