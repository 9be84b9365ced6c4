"""RULES.md section 10: the end of the game and the ranking."""

from __future__ import annotations

import pytest

from rules import Event, Game, IllegalAction, Standing
from tests.rules import helpers as h


def _last_settlement(game: Game, seat: int) -> str:
    """Seat `seat`'s turn with one settlement left (the others stand on a field far from the
    start) and the goods for a plain field beside the start; returns that field."""
    pid = h.start_turn(game, seat)
    start = game.fields[game.start_field]
    far = max(
        (f for f in game.fields.values() if h.is_free_plain(f, double=None)),
        key=lambda f: abs(f.q - start.q) + abs(f.r - start.r),
    )
    h.settle(game, pid, far.label, count=game.player(pid).settlements_left - 1)
    target = next(
        f.label
        for f in h.neighbour_fields(game, start)
        if h.is_free_plain(f, double=None) and not f.settlements
    )
    game.fields[target].double = False
    for lake in h.neighbour_fields(game, game.fields[target]):
        lake.canteen = False  # no canteen from this build: the tests give canteens themselves
    h.afford(game, pid, target)
    return target


def _build_last(game: Game, seat: int) -> list[Event]:
    target = _last_settlement(game, seat)
    pid = game.players[seat].id
    events = game.apply(pid, f"build {target}")
    assert game.player(pid).settlements_left == 0
    return events


def test_the_last_settlement_starts_the_final_round_and_ends_the_build() -> None:
    """10 "When a player places their last settlement, the current round is finished";
    7.1.4/7.1.5: with no settlement left there is nothing more to build (2 coins for the
    two builds left)."""
    game = h.new_game(4, seed=1)
    events = _build_last(game, 0)
    assert h.of_kind(events, "final_round")[0].player == "ann"
    assert h.of_kind(events, "stop")[0].data == {"builds": 1, "coins": 2}
    assert game.final_round and not game.is_over
    assert game.turn_player == "bob"


def test_final_round_triggered_by_a_middle_seat() -> None:
    """10 "the game ends immediately after the turn of the player seated just before the
    start player": bob (seat 2 of 4) triggers; cid and dot play; ann does not."""
    game = h.new_game(4, seed=1)
    _build_last(game, 1)
    assert game.turn_player == "cid"
    h.quiet_turn(game)
    assert game.turn_player == "dot" and not game.is_over
    events = h.quiet_turn(game)
    assert game.is_over and game.awaiting is None
    assert h.kinds(events)[-2:] == ["turn_end", "game_over"]
    assert game.legal_actions("ann") == []
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply("ann", "recruit")


def test_final_round_triggered_by_the_start_player() -> None:
    """10 "the current round is finished": after the start player triggers, every other
    seat has its turn."""
    game = h.new_game(3, seed=1)
    _build_last(game, 0)
    seen = []
    while not game.is_over:
        seen.append(game.turn_player)
        h.quiet_turn(game)
    assert seen == ["bob", "cid"]


def test_final_round_triggered_by_the_last_seat_ends_at_once() -> None:
    """10 "the game ends immediately after the turn of the player seated just before the
    start player" and "that last seat may not" use a canteen: dot holds one, but the game is
    over when the build ends."""
    game = h.new_game(4, seed=1)
    game.player("dot").canteens = 1
    next(f for f in game.fields.values() if f.canteen).canteen = False
    events = _build_last(game, 3)
    assert h.kinds(events)[-1] == "game_over"
    assert game.is_over and game.player("dot").canteens == 1


def test_a_canteen_turn_in_the_final_round() -> None:
    """10 "Our rulings: players before that seat may still use canteens in the final round;
    that last seat may not"; 8 "Not for the last seat's turn in the final round"."""
    game = h.new_game(4, seed=1)
    lakes = [f for f in game.fields.values() if f.canteen]
    for lake, pid in zip(lakes, ("bob", "dot"), strict=False):
        lake.canteen = False
        game.player(pid).canteens = 1
    _build_last(game, 1)
    assert game.pending.kind == "end" and game.awaiting == "bob"
    game.apply("bob", "canteen")
    assert game.turn_player == "bob" and game.pending.kind == "main"
    h.quiet_turn(game)
    assert game.turn_player == "cid"
    h.quiet_turn(game)
    assert game.turn_player == "dot"
    h.set_workers(game, "dot", grain=1)
    events = game.apply("dot", "bank 1 grain")
    assert game.is_over and h.kinds(events)[-1] == "game_over"
    assert game.player("dot").canteens == 1


def _ranked(game: Game, table: dict[str, tuple[int, int, int, int]]) -> list[Standing]:
    """Set each player's (settlements on the landscape, cows, canteens, coins) with no goods
    or workers, and rank."""
    fields = [f for f in game.fields.values() if h.is_free_plain(f, double=None)]
    for i, (pid, (settlements, cows, canteens, coins)) in enumerate(table.items()):
        h.settle(game, pid, fields[i].label, count=settlements)
        h.set_cows(game, pid, cows)
        game.player(pid).canteens = canteens
        h.clear_goods(game, pid)
        h.clear_workers(game, pid)
        game.player(pid).coins = coins
    return game.result().ranking


def test_most_settlements_on_the_landscape_wins() -> None:
    """10 "Most settlements on the landscape wins.\""""
    game = h.new_game(3, seed=1)
    ranking = _ranked(game, {"ann": (3, 9, 0, 50), "bob": (5, 0, 0, 0), "cid": (4, 0, 0, 0)})
    assert [(s.player, s.place, s.settlements) for s in ranking] == [
        ("bob", 1, 5),
        ("cid", 2, 4),
        ("ann", 3, 3),
    ]
    assert not game.result().finished and game.result().winners == ["bob"]


def test_first_tie_break_cows_and_canteens() -> None:
    """10 "Ties: most cows + canteens held": canteens count like cows, and this comes before
    the goods + coins + workers."""
    game = h.new_game(3, seed=1)
    ranking = _ranked(game, {"ann": (4, 1, 1, 30), "bob": (4, 1, 2, 0), "cid": (4, 4, 0, 0)})
    assert [(s.player, s.place, s.cows_and_canteens) for s in ranking] == [
        ("cid", 1, 4),
        ("bob", 2, 3),
        ("ann", 3, 2),
    ]


def test_second_tie_break_goods_coins_and_workers() -> None:
    """10 "then most goods + coins + workers on the player board\""""
    game = h.new_game(3, seed=1)
    ranking = _ranked(game, {"ann": (4, 2, 0, 5), "bob": (4, 1, 1, 3), "cid": (4, 2, 0, 2)})
    h.set_goods(game, "bob", grain=1, bigstone=1)
    h.set_workers(game, "cid", copper=2)
    h.set_goods(game, "cid", pumpkin=1)
    ranking = game.result().ranking
    assert [(s.player, s.place, s.holdings) for s in ranking] == [
        ("ann", 1, 5),
        ("bob", 1, 5),
        ("cid", 1, 5),
    ]
    game.player("cid").coins += 1
    ranking = game.result().ranking
    assert [(s.player, s.place) for s in ranking] == [("cid", 1), ("ann", 2), ("bob", 2)]


def test_a_full_tie_is_a_shared_win() -> None:
    """10 "then (our ruling) a shared win" — tied players share their place and the next
    place is skipped."""
    game = h.new_game(4, seed=1)
    ranking = _ranked(
        game,
        {"ann": (2, 1, 0, 4), "bob": (2, 0, 1, 4), "cid": (2, 1, 0, 3), "dot": (1, 5, 5, 50)},
    )
    assert [(s.player, s.place) for s in ranking] == [
        ("ann", 1),
        ("bob", 1),
        ("cid", 3),
        ("dot", 4),
    ]
    assert game.result().winners == ["ann", "bob"]


def test_the_final_result_names_the_winners() -> None:
    """10: once the final round is over, `result()` is finished and `game_over` names the
    winner(s)."""
    game = h.new_game(2, seed=1)
    _build_last(game, 1)
    assert game.is_over
    result = game.result()
    assert result.finished and result.winners == ["bob"]
    assert result.ranking[0].settlements == 12
