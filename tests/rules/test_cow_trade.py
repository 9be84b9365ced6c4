"""RULES.md section 7.2: the free cow trade."""

from __future__ import annotations

import pytest

from rules import Game, IllegalAction, NotYourTurn, data
from tests.rules import helpers as h

TRADES = {
    "trade grain",
    "trade pumpkin",
    "trade copper",
    "trade stone",
    "trade coins",
    "trade worker copper",
    "trade worker stone",
    "trade worker grain",
    "trade worker pumpkin",
}


def _trader(cows: int = 2) -> Game:
    game = h.new_game(4, seed=1)
    h.set_cows(game, "ann", cows)
    return game


def test_a_cow_buys_one_small_good_three_coins_or_one_worker() -> None:
    """7.2 "Return 1 cow to the supply and take one of: 1 good among small stone, small
    copper, grain, pumpkin; or 3 coins; or 1 worker of any colour"."""
    game = _trader(cows=4)
    assert {a for a in h.legal(game) if a.startswith("trade")} == TRADES
    with pytest.raises(IllegalAction, match="expected 'trade GOOD'"):
        game.apply("ann", "trade bigstone")
    ann = game.player("ann")
    supply_cows = game.supply.cows
    copper = ann.goods["copper"]
    game.apply("ann", "trade copper")
    assert ann.goods["copper"] == copper + 1 and ann.cows == 3
    coins = ann.coins
    game.apply("ann", "trade coins")
    assert ann.coins == coins + data.COW_TRADE_COINS == coins + 3
    stone_workers = ann.workers["stone"]
    events = game.apply("ann", "trade worker stone")
    assert ann.workers["stone"] == stone_workers + 1
    assert h.of_kind(events, "trade")[0].data == {"gained": {"stone": 1}, "worker": True}
    assert ann.cows == 1 and game.supply.cows == supply_cows + 3
    assert game.pending.kind == "main" and game.awaiting == "ann"  # trades are free
    h.assert_conserved(game)


def test_any_number_of_trades_until_the_cows_run_out() -> None:
    """7.2 "any number of times" — while the player has a cow."""
    game = _trader(cows=2)
    game.apply("ann", "trade grain")
    game.apply("ann", "trade grain")
    assert game.player("ann").cows == 0
    assert "trade" not in h.verbs(game)
    with pytest.raises(IllegalAction, match="you have no cow to trade"):
        game.apply("ann", "trade grain")


def test_only_in_your_own_turn() -> None:
    """7.2 "It is available only to the player whose turn it is (all three texts say 'in
    your turn')"."""
    game = _trader()
    h.set_cows(game, "bob", 3)
    assert game.legal_actions("bob") == []
    with pytest.raises(NotYourTurn):
        game.apply("bob", "trade coins")
    assert game.player("bob").cows == 3


def test_not_during_the_setup_spins() -> None:
    """2.7 / 7.2: setup is not anyone's turn, so the wild choice of a setup spin offers no
    cow trade."""
    record = {
        "version": 1,
        "players": ["ann", "bob"],
        "seed": 1,
        "start_field": None,
        "actions": [["ann", "spin 3"]],
    }
    game = Game.replay(record)
    assert game.pending.kind == "take" and game.player("ann").cows == 1
    assert h.verbs(game) == {"take"}


def test_a_worker_by_trade_follows_the_shortage_rule() -> None:
    """7.2 "or 1 worker of any colour (shortage rule)": with none of that colour in the
    supply, every holder returns one, then the trader takes one."""
    game = _trader()
    for pid in h.IDS:
        h.clear_workers(game, pid)
    h.set_workers(game, "bob", pumpkin=2)
    h.set_workers(game, "cid", pumpkin=1)
    h.set_supply_workers(game, "pumpkin", 0, parking="mine")
    events = game.apply("ann", "trade worker pumpkin")
    assert h.of_kind(events, "shortage")[0].data["returned"] == {"bob": 1, "cid": 1}
    assert [game.player(p).workers["pumpkin"] for p in h.IDS] == [1, 1, 0, 0]
    h.assert_conserved(game)


def test_with_eight_workers_a_traded_worker_sends_one_back() -> None:
    """7.2 "Our ruling: a player with 8 workers may still take one and then returns any one
    worker, as when recruiting." The turn then goes on where it was."""
    game = _trader()
    h.clear_workers(game, "ann")
    h.set_workers(game, "ann", copper=8)
    assert "trade worker grain" in h.legal(game)
    game.apply("ann", "trade worker grain")
    assert game.pending.kind == "return" and game.awaiting == "ann"
    assert h.legal(game) >= {"return copper", "return grain"}
    game.apply("ann", "return copper")
    assert game.player("ann").workers == {"copper": 7, "stone": 0, "grain": 1, "pumpkin": 0}
    assert game.pending.kind == "main" and game.awaiting == "ann"
    h.assert_conserved(game)


def test_trades_at_any_moment_of_the_own_turn() -> None:
    """3 "at any moment of your own turn, as often as you like, you may trade cows": also
    while deciding the small box, the canteen and the city reward."""
    game = _trader(cows=3)
    h.set_workers(game, "ann", copper=3)
    game.apply("ann", "harvest mine 1 copper")
    assert game.pending.kind == "extra" and "trade" in h.verbs(game)
    game.apply("ann", "trade coins")
    game.apply("ann", "noextra")
    game = _trader(cows=3)
    game.player("ann").canteens = 1
    h.set_workers(game, "ann", grain=1)
    game.apply("ann", "bank 1 grain")
    assert game.pending.kind == "end" and "trade" in h.verbs(game)
    game = _trader(cows=3)
    h.set_goods(game, "ann", copper=1)
    game.apply("ann", "city 3 1")
    h.play(game, "pass", "pass", "pass")
    assert game.pending.kind == "reward" and "trade" in h.verbs(game)
    game.apply("ann", "trade copper")
    assert "upgrade copper copper" in h.legal(game)


def test_any_number_of_excess_workers_can_be_returned() -> None:
    """3 "A player's board holds at most **8 workers**", 5.3 "they return the excess to the
    supply", 7.2 "any number of times" and "a player with 8 workers may still take one and
    then returns any one worker": a player holding many cows trades 7 of them for workers
    while deciding to advance, then must return all 9 over the limit."""
    game = _trader(cows=9)
    h.clear_workers(game, "ann")
    h.set_workers(game, "ann", copper=8)
    h.set_goods(game, "ann", grain=1)
    h.recruit(game, 2)  # copper + grain: 10 workers
    for _ in range(7):
        game.apply("ann", "trade worker stone")
    assert game.player("ann").worker_count == 17
    game.apply("ann", "advance 0")
    assert game.pending.kind == "return"
    assert "return copper copper stone stone stone stone stone stone stone" in h.legal(game)
    game.apply("ann", "return copper copper stone stone stone stone stone stone stone")
    assert game.player("ann").worker_count == 8
    assert game.turn_player == "bob"
