"""RULES.md section 8: canteens (and 3.2, the canteen at the end of a turn)."""

from __future__ import annotations

import pytest

from rules import Game, IllegalAction
from tests.rules import helpers as h


def _with_canteens(count: int) -> Game:
    """Ann holds `count` canteens (taken off lakes, as builders do) and is to act."""
    game = h.new_game(4, seed=1)
    lakes = [f for f in game.fields.values() if f.kind == "lake" and f.canteen]
    assert len(lakes) >= count
    for lake in lakes[:count]:
        lake.canteen = False
    game.player("ann").canteens = count
    return h.refresh(game)


def _canteens_in_play(game: Game) -> int:
    on_lakes = sum(1 for f in game.fields.values() if f.canteen)
    return on_lakes + sum(p.canteens for p in game.players)


def test_without_a_canteen_the_turn_ends_by_itself() -> None:
    """3 "The turn then ends ... 3. Otherwise the next player clockwise takes their turn":
    nothing to decide without a canteen."""
    game = h.new_game(4, seed=1)
    h.set_workers(game, "ann", grain=1)
    game.apply("ann", "bank 1 grain")
    assert game.turn_player == "bob"


def test_a_canteen_gives_a_full_new_turn_at_once() -> None:
    """8 "At the end of one of your own turns, after the clean-up, you may return a canteen to
    the box and take a new turn at once (a full turn: one action, cow trades, its own
    clean-up). A canteen used is gone for the game.\""""
    game = _with_canteens(1)
    h.set_workers(game, "ann", grain=2)
    game.apply("ann", "bank 1 grain")
    assert game.pending.kind == "end" and game.awaiting == "ann"
    assert h.legal(game) - {a for a in h.legal(game) if a.startswith("trade")} == {
        "canteen",
        "end",
    }
    with pytest.raises(IllegalAction, match="choose 'canteen' for another turn or 'end'"):
        game.apply("ann", "recruit")
    number = game.turn_number
    in_play = _canteens_in_play(game)
    events = game.apply("ann", "canteen")
    assert h.of_kind(events, "canteen")[0].data == {"canteens_left": 0}
    assert h.of_kind(events, "turn")[0].data == {"number": number + 1}
    assert game.turn_player == "ann" and game.pending.kind == "main"
    assert game.player("ann").canteens == 0
    assert _canteens_in_play(game) == in_play - 1  # gone for the game, not back on a lake
    assert "trade" in h.verbs(game) and "recruit" in h.verbs(game)
    game.apply("ann", "bank 2 grain")
    assert game.turn_player == "bob"  # no canteen left: the turn ends by itself


def test_the_new_turn_starts_after_the_clean_up() -> None:
    """3.2 "The player may spend a canteen for a new turn at once (section 8); that new turn
    starts after the clean-up": the bank filled by this turn is empty in the next."""
    game = _with_canteens(1)
    for space in (0, 1, 2):
        game.bank[space] = ["copper"] * (space // 2 + 1)
        game.supply.workers["copper"] -= space // 2 + 1
    h.set_workers(game, "ann", grain=3)
    events = game.apply("ann", "bank 4 grain grain grain")
    assert h.of_kind(events, "cleanup")[0].data["cleared"] == ["bank"]
    assert game.pending.kind == "end" and game.bank == [[], [], [], []]
    game.apply("ann", "canteen")
    h.set_workers(game, "ann", grain=3)
    game.apply("ann", "bank 4 grain grain grain")
    assert game.bank[3] == ["grain"] * 3
    h.assert_conserved(game)


def test_canteens_chain() -> None:
    """8 "several can be chained"."""
    game = _with_canteens(2)
    h.set_workers(game, "ann", grain=3)
    turns = [game.turn_number]
    for space in (1, 2):
        game.apply("ann", f"bank {space} grain")
        game.apply("ann", "canteen")
        turns.append(game.turn_number)
    assert game.turn_player == "ann" and game.player("ann").canteens == 0
    assert turns == [turns[0], turns[0] + 1, turns[0] + 2]
    h.quiet_turn(game)
    assert game.turn_player == "bob"


def test_end_keeps_the_canteen_for_a_later_turn() -> None:
    """8 "you **may** return a canteen": `end` passes the turn and keeps it."""
    game = _with_canteens(1)
    h.set_workers(game, "ann", grain=1)
    game.apply("ann", "bank 1 grain")
    game.apply("ann", "end")
    assert game.turn_player == "bob" and game.player("ann").canteens == 1
