"""RULES.md section 6.3: the city, an auction in which the other players answer out of
turn."""

from __future__ import annotations

import random

import pytest

from rules import Event, Game, IllegalAction, NotYourTurn, data
from rules.simulate import choose_action
from tests.rules import helpers as h


def _auction(players: int = 4, active: int = 0, pumpkins: int = 4) -> Game:
    """Seat `active` to choose their action; every player holds `pumpkins` pumpkins, one
    small copper and one small stone."""
    game = h.new_game(players, seed=1)
    for pid in h.IDS[:players]:
        h.set_goods(game, pid, pumpkin=pumpkins, copper=1, stone=1)
    h.start_turn(game, active)
    return game


def _places(game: Game) -> set[str]:
    return {a for a in h.legal(game) if a.startswith("place")}


def test_the_active_player_takes_a_free_pumpkin_then_places() -> None:
    """6.3.1 "The active player takes 1 pumpkin from the supply (shortage rule applies),
    then puts their representative on a space of the city." 6.3.2: the others answer one by
    one clockwise and "do not get the free pumpkin"."""
    game = _auction(pumpkins=0)
    h.set_goods(game, "cid", pumpkin=1)
    supply = game.supply.goods["pumpkin"]
    events = game.apply("ann", "city 3 1")
    assert h.of_kind(events, "city")[0].data == {"row": 3, "column": 1, "free_pumpkin": 1}
    assert game.player("ann").goods["pumpkin"] == 1
    assert game.supply.goods["pumpkin"] == supply - 1
    assert game.city_grid() == {(3, 1): "ann"}
    # bob, holding no pumpkin, could only pass: done for him (RULES.md 7.3); cid is asked
    assert game.log[-1] == ("bob", "pass")
    assert game.pending.kind == "bid" and game.awaiting == "cid"
    assert game.turn_player == "ann"
    assert game.player("bob").goods["pumpkin"] == game.player("dot").goods["pumpkin"] == 0
    game.apply("cid", "pass")
    assert game.log[-2:] == [("cid", "pass"), ("dot", "pass")]
    assert game.player("ann").goods["pumpkin"] == 0  # paid column 1 back
    assert game.supply.goods["pumpkin"] == supply


def test_only_spaces_the_player_can_pay_now() -> None:
    """6.3.1 "A player may only occupy a space whose cost they can pay right now (they pay
    later)"; the active player counts the free pumpkin. 9 "4 columns costing 1, 2, 3, 4
    pumpkins, left to right"."""
    assert data.CITY_COSTS == (1, 2, 3, 4)
    game = _auction(pumpkins=1)
    h.set_goods(game, "bob", pumpkin=2)
    assert {a for a in h.legal(game) if a.startswith("city")} == {
        f"city {row} {col}" for row in range(1, 5) for col in (1, 2)
    }
    with pytest.raises(IllegalAction, match="column 3 costs 3 pumpkins and you would have 2"):
        game.apply("ann", "city 1 3")
    game.apply("ann", "city 1 1")
    assert _places(game) == {"place 1 2"} | {f"place {r} {c}" for r in (2, 3, 4) for c in (1, 2)}
    with pytest.raises(IllegalAction, match="column 3 costs 3 pumpkins"):
        game.apply("bob", "place 2 3")


def test_the_city_is_not_a_choice_when_even_column_one_is_out_of_reach() -> None:
    """6.3.1 "If the active player cannot afford any space even after the free pumpkin, the
    City is not a legal choice for them.\""""
    game = _auction(pumpkins=0)
    h.set_supply_goods(game, "pumpkin", 0)
    assert "city" not in h.verbs(game)
    with pytest.raises(IllegalAction, match="column 1 costs 1 pumpkins and you would have 0"):
        game.apply("ann", "city 4 1")


def test_entering_an_occupied_row_only_to_the_right() -> None:
    """6.3.3 "Entering a row that already holds another representative is allowed only on a
    free space **to the right** of it.\""""
    game = _auction()
    game.apply("ann", "city 2 3")
    assert {p for p in _places(game) if p.startswith("place 2")} == {"place 2 4"}
    with pytest.raises(IllegalAction, match="only stand to the right"):
        game.apply("bob", "place 2 2")
    with pytest.raises(IllegalAction, match="taken by ann"):
        game.apply("bob", "place 2 3")


def test_rulebook_example_blue_overtaken_in_row_two() -> None:
    """6.3.6 "with Blue in row 2, Red enters row 2 to Blue's right; Blue must move at once
    and may go to any row, or pass; if Blue moves into a row that holds someone, that player
    must move in turn. Standing on a row's rightmost space makes you safe.\""""
    game = _auction()
    blue, yellow, green, red = h.IDS
    assert data.PLAYER_COLOURS == ("blue", "yellow", "green", "red")
    game.apply(blue, "city 2 1")
    game.apply(yellow, "place 3 1")
    game.apply(green, "place 1 4")
    events = game.apply(red, "place 2 2")
    overtaken = h.of_kind(events, "overtaken")
    assert [(e.player, e.data) for e in overtaken] == [(blue, {"by": red, "row": 2})]
    assert game.awaiting == blue and game.pending.kind == "bid"
    assert game.city_grid() == {(3, 1): yellow, (1, 4): green, (2, 2): red}
    # any row (but only to the right of whoever stands there), or pass
    assert _places(game) == {"place 2 3", "place 2 4", "place 3 2", "place 3 3", "place 3 4"} | {
        f"place 4 {c}" for c in (1, 2, 3, 4)
    }
    assert "pass" in h.legal(game)
    events = game.apply(blue, "place 3 2")
    assert [e.player for e in h.of_kind(events, "overtaken")] == [yellow]
    assert game.awaiting == yellow
    # row 1's rightmost space is taken: green there is safe
    assert not any(p.startswith("place 1") for p in _places(game))
    game.apply(yellow, "pass")
    assert game.pending.kind == "reward"  # everyone in a different row: the auction is over
    assert game.representatives == [(3, 2), None, (1, 4), (2, 2)]


def test_displacement_chain_across_rows_with_four_players() -> None:
    """6.3.3 "The representative so overtaken must at once move to another space by the same
    rules (in any row ...) or pass": each move that overtakes someone makes them answer at
    once, across rows, before the next player in turn order."""
    game = _auction()
    ann, bob, cid, dot = h.IDS
    game.apply(ann, "city 1 1")
    game.apply(bob, "place 2 1")
    game.apply(cid, "place 3 1")
    steps = [
        (dot, "place 1 2", ann),
        (ann, "place 2 2", bob),
        (bob, "place 3 2", cid),
    ]
    for mover, move, overtaken in steps:
        events = game.apply(mover, move)
        assert [e.player for e in h.of_kind(events, "overtaken")] == [overtaken]
        assert game.awaiting == overtaken and game.pending.kind == "bid"
    events = game.apply(cid, "pass")
    assert h.of_kind(events, "auction_end")[0].data["city"] == {
        ann: [2, 2],
        bob: [3, 2],
        dot: [1, 2],
    }
    assert [(e.player, e.data["pumpkins"]) for e in h.of_kind(events, "pay")] == [(ann, 2)]


def test_a_player_may_re_place_further_right_in_the_same_row_with_three_players() -> None:
    """6.3.3 "(in any row, including further right in the same row, which overtakes in
    turn)"; 6.3.3 "A player who has passed is out of this auction and stands on the shop
    building"; the active player too may be overtaken and pass."""
    game = _auction(players=3)
    ann, bob, cid = h.IDS[:3]
    game.apply(ann, "city 1 1")
    game.apply(bob, "place 1 2")
    assert game.awaiting == ann
    events = game.apply(ann, "place 1 3")
    assert [e.player for e in h.of_kind(events, "overtaken")] == [bob]
    assert game.city_grid() == {(1, 3): ann}
    assert game.awaiting == bob
    game.apply(bob, "place 1 4")
    assert game.awaiting == ann and _places(game) == {
        f"place {r} {c}" for r in (2, 3, 4) for c in (1, 2, 3, 4)
    }
    game.apply(ann, "pass")
    assert game.representatives[0] is None
    assert game.awaiting == cid  # ann has passed: out of this auction
    events = game.apply(cid, "place 2 1")
    assert [(e.player, e.data["pumpkins"]) for e in h.of_kind(events, "pay")][:1] == [(bob, 4)]
    pumpkins = {p.id: p.goods["pumpkin"] for p in game.players}
    assert pumpkins[ann] == 5  # the free pumpkin, nothing paid


def test_passing_players_are_out_and_the_auction_ends_when_all_answered() -> None:
    """6.3.2 "each other player, one by one clockwise from the active player, either puts
    their representative on a space or passes"; 6.3.4 "When every representative in the
    city stands in a different row (every other player has had their one turn to answer and
    no one is left overtaken), the auction ends."."""
    game = _auction(active=2)
    ann, bob, cid, dot = h.IDS
    game.apply(cid, "city 4 1")
    assert game.awaiting == dot
    game.apply(dot, "pass")
    assert game.awaiting == ann
    game.apply(ann, "place 3 1")
    assert game.awaiting == bob
    with pytest.raises(NotYourTurn):
        game.apply(dot, "place 2 1")
    events = game.apply(bob, "pass")
    assert h.of_kind(events, "auction_end")
    assert next(e.player for e in h.of_kind(events, "pay")) == cid


def test_resolution_active_player_first_then_clockwise_each_paying_their_column() -> None:
    """6.3.4 "The active player pays first, then the others in clockwise order: each pays
    their column's pumpkin cost to the supply and takes their row's reward ... All
    representatives return to the shop building.\""""
    game = _auction(active=2)
    ann, bob, cid, dot = h.IDS
    for pid in h.IDS:
        h.set_goods(game, pid, copper=2, stone=1)
    supply = game.supply.goods["pumpkin"]
    game.apply(cid, "city 1 1")
    game.apply(dot, "place 2 2")
    game.apply(ann, "place 3 3")
    events = game.apply(bob, "place 4 4")
    pays = [(e.player, e.data) for e in h.of_kind(events, "pay")]
    assert pays == [(cid, {"row": 1, "column": 1, "pumpkins": 1})]
    order = [cid]
    expected_rewards = {cid: 1, dot: 2, ann: 3, bob: 4}
    choices = {cid: "upgrade copper copper stone", dot: "goods grain grain grain"}
    choices |= {ann: "upgrade copper stone", bob: "upgrade stone"}
    while game.pending.kind == "reward":
        rewarded = game.awaiting
        assert rewarded is not None and game.pending.row == expected_rewards[rewarded]
        events = game.apply(rewarded, choices[rewarded])
        order += [e.player for e in h.of_kind(events, "pay") if e.player is not None]
    assert order == [cid, dot, ann, bob]
    assert game.supply.goods["pumpkin"] == supply - 1 + 1 + 2 + 3 + 4
    assert [game.player(p).goods["pumpkin"] for p in h.IDS] == [4 - 3, 4 - 4, 4 + 1 - 1, 4 - 2]
    assert game.representatives == [None] * 4
    assert game.city_grid() == {}
    assert game.turn_player == dot and game.pending.kind == "main"
    h.assert_conserved(game)


def test_row_rewards() -> None:
    """6.3.5 "Row 1: 1 cow, and up to 3 upgrades. Row 2: 3 goods, any mix of small stone,
    small copper and grain. Row 3: up to 2 upgrades. Row 4: 2 coins, and up to 1 upgrade.
    An upgrade returns 1 small copper (or stone) to the supply and takes 1 large copper (or
    stone) from it.\""""
    upgrades_by_row = {1: 3, 3: 2, 4: 1}
    for row, limit in upgrades_by_row.items():
        game = _auction()
        h.set_goods(game, "ann", copper=3, stone=3)
        game.apply("ann", f"city {row} 1")
        h.play(game, "pass", "pass", "pass")
        assert game.pending.kind == "reward" and game.pending.row == row
        offered = {a for a in h.legal(game) if a.startswith("upgrade")}
        assert max(len(a.split()) - 1 for a in offered) == limit
        assert "upgrade" in offered
        with pytest.raises(IllegalAction, match=f"up to {limit} upgrade"):
            game.apply("ann", "upgrade " + " ".join(["copper"] * (limit + 1)))
        ann = game.player("ann")
        before = (ann.cows, ann.coins, dict(ann.goods))
        big_supply = game.supply.goods["bigcopper"]
        game.apply("ann", "upgrade " + " ".join(["copper"] * limit))
        assert ann.cows == before[0] + (1 if row == 1 else 0)
        assert ann.coins == before[1] + (2 if row == 4 else 0)
        assert ann.goods["copper"] == 3 - limit
        assert ann.goods["bigcopper"] == limit
        assert game.supply.goods["bigcopper"] == big_supply - limit
        h.assert_conserved(game)
    game = _auction()
    game.apply("ann", "city 2 1")
    h.play(game, "pass", "pass", "pass")
    assert {a for a in h.legal(game) if a.startswith("goods")} == {
        f"goods {x} {y} {z}"
        for x in ("grain", "copper", "stone")
        for y in ("grain", "copper", "stone")
        for z in ("grain", "copper", "stone")
        if ["grain", "copper", "stone"].index(x)
        <= ["grain", "copper", "stone"].index(y)
        <= ["grain", "copper", "stone"].index(z)
    }
    with pytest.raises(IllegalAction, match="expected 'goods G G G'"):
        game.apply("ann", "goods pumpkin grain grain")
    game.apply("ann", "goods stone grain stone")
    assert game.player("ann").goods["stone"] == 3 and game.player("ann").goods["grain"] == 2


def test_upgrades_need_the_small_pieces() -> None:
    """6.3.5 "An upgrade returns 1 small copper (or stone)": only pieces the player owns, and
    with nothing to upgrade (and no cow to trade) the reward is taken without a question."""
    game = _auction()
    h.set_goods(game, "ann", copper=1, stone=0)
    game.apply("ann", "city 3 1")
    h.play(game, "pass", "pass", "pass")
    assert {a for a in h.legal(game) if a.startswith("upgrade")} == {"upgrade", "upgrade copper"}
    game = _auction()
    h.set_goods(game, "ann", copper=0, stone=0)
    h.set_cows(game, "ann", 0)  # no cow to trade for a piece to upgrade either
    game.apply("ann", "city 4 1")
    events = h.play(game, "pass", "pass", "pass")
    assert h.of_kind(events, "reward")[0].data == {
        "row": 4,
        "upgraded": [],
        "gained": {"coins": 2},
    }
    assert game.turn_player == "bob"


def test_cow_trades_only_for_the_active_player_in_the_auction() -> None:
    """7.2 "available only to the player whose turn it is ... also while they answer inside
    their own city auction, never to players answering someone else's auction"."""
    game = _auction()
    game.apply("ann", "city 1 1")
    assert game.awaiting == "bob" and game.player("bob").cows == 1
    assert "trade" not in h.verbs(game)
    with pytest.raises(IllegalAction, match="only in your own turn"):
        game.apply("bob", "trade coins")
    game.apply("bob", "place 1 2")
    assert game.awaiting == "ann" and "trade" in h.verbs(game)
    coins = game.player("ann").coins
    game.apply("ann", "trade coins")
    assert game.player("ann").coins == coins + 3 and game.awaiting == "ann"


def test_an_auction_starts_with_every_row_empty() -> None:
    """6.3.4 "All representatives return to the shop building ... every row is empty when an
    auction starts": a second auction offers every column-1 space again."""
    game = _auction()
    game.apply("ann", "city 1 1")
    h.play(game, "place 2 1", "place 3 1", "place 4 1")
    while game.pending.kind == "reward":
        h.play(game, "upgrade" if "upgrade" in h.legal(game) else "goods grain grain grain")
    assert game.turn_player == "bob" and game.city_grid() == {}
    assert {f"city {r} 1" for r in range(1, 5)} <= h.legal(game)


def test_a_placed_player_never_pays_more_pumpkins_than_they_hold() -> None:
    """6.3.1 "A player may only occupy a space whose cost they can pay right now (they pay
    later)". With today's values nothing takes pumpkins from a placed player before the
    auction ends (the active player's cow trade for a pumpkin with an empty supply, which
    would make every holder return one, is not offered: she holds a pumpkin, so it yields
    her nothing, RULES.md 7.2); should it happen all the same (set here by hand), the
    player goes back to the shop building without a reward (rules/README.md, our ruling)
    and nobody ends with fewer than zero pumpkins."""
    game = _auction(pumpkins=0)
    h.set_goods(game, "bob", pumpkin=2)
    h.set_supply_goods(game, "pumpkin", 1)
    game.apply("ann", "city 1 1")
    game.apply("bob", "place 1 2")
    assert game.supply.goods["pumpkin"] == 0 and "trade pumpkin" not in h.legal(game, "ann")
    h.set_goods(game, "bob", pumpkin=1)
    game.apply("ann", "place 2 1")  # cid and dot, with no pumpkin, pass (RULES.md 7.3)
    assert game.log[-2:] == [("cid", "pass"), ("dot", "pass")]
    events: list[Event] = []
    while game.pending.kind == "reward":
        events += h.play(game, sorted(a for a in h.legal(game) if not a.startswith("trade"))[0])
    assert min(p.goods["pumpkin"] for p in game.players) >= 0
    assert [(e.player, e.data) for e in h.of_kind(events, "cannot_pay")] == [
        ("bob", {"row": 1, "column": 2, "pumpkins": 2})
    ]
    assert "bob" not in {e.player for e in h.of_kind(events, "reward")}
    assert game.player("bob").goods["pumpkin"] == 1


def test_the_active_player_may_trade_a_cow_before_choosing_upgrades() -> None:
    """7.2 "available only to the player whose turn it is ..., also while they answer inside
    their own city auction", 3 "at any moment of your own turn", and 6.3.5 "Row 1: 1 cow,
    and up to 3 upgrades": ann, with no copper or stone, wins row 1; she may trade a cow for
    a small copper and upgrade it."""
    game = _auction()
    h.set_goods(game, "ann", copper=0, stone=0)
    game.apply("ann", "city 1 1")
    h.play(game, "pass", "pass", "pass")
    assert game.pending.kind == "reward" and game.awaiting == "ann"
    game.apply("ann", "trade copper")
    game.apply("ann", "upgrade copper")
    assert game.player("ann").goods["bigcopper"] == 1


def test_answers_in_random_auctions_match_the_rules() -> None:
    """6.3.1-6.3.3 and 7.2 written out independently of the engine: an answering player may
    pass, or stand on any space they can pay whose row holds nobody else or only someone to
    its left; only the turn player (answering in their own auction) may also trade cows.
    7.3: a player who could only pass is never awaited."""
    checked = 0
    for players, seed in ((3, 81), (4, 82), (4, 83), (4, 84)):
        game = Game.new(h.IDS[:players], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.pending.kind == "bid":
                seat = game.pending.seat
                assert seat is not None
                player = game.players[seat]
                rightmost: dict[int, int] = {}
                for other, pos in enumerate(game.representatives):
                    if pos is not None and other != seat:
                        rightmost[pos[0]] = max(rightmost.get(pos[0], 0), pos[1])
                expected = {"pass"} | {
                    f"place {row} {col}"
                    for row in range(1, data.CITY_ROWS + 1)
                    for col, cost in enumerate(data.CITY_COSTS, start=1)
                    if cost <= player.goods["pumpkin"] and col > rightmost.get(row, 0)
                }
                legal = h.legal(game)
                assert {a for a in legal if not a.startswith("trade")} == expected
                may_trade = seat == game.turn and player.cows > 0
                assert ("trade coins" in legal) == may_trade
                assert len(legal) > 1
                checked += 1
            game.apply(*choose_action(game, rng))
    assert checked > 50
