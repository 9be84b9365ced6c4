"""The last turn: read back from the log (rules.recent), ringed in the mover's colour on
the picture and said in words in its header.

RULES.md 3 (a turn: one action, cow trades, the turn ends by itself), 6.3 (other players
answer the city auction inside the active player's turn), 7.1.4 (up to 3 builds, coins
for the unused ones), 7.3 (forced steps are logged as the awaited player's move) and 8
(a canteen ends the turn and starts a new one).
"""

from __future__ import annotations

import random

import pytest

from render import compose, landscape, workerboard
from render.palette import PANEL_EDGE, PLAYER_RGB, WORKER_RGB, seat_colour
from rules import Game, data
from rules.recent import last_turn
from rules.simulate import choose_action
from tests.rules import helpers as h

from .helpers import close, record_text, rgb


def _build_twice_and_stop(game: Game) -> tuple[str, list[str]]:
    """Seat 0 builds on two fields, then stops building; returns (player, fields)."""
    pid = h.start_turn(game, 0)
    h.set_goods(game, pid, **{good: 4 for good in data.GOODS})
    built = []
    for _ in range(2):
        action = next(a for a in game.legal_actions(pid) if a.verb == "build")
        game.apply(pid, action)
        built.append(action.args[0])
    game.apply(pid, "stop")
    if game.pending.kind == "end":  # a canteen was taken next to a lake
        game.apply(pid, "end")
    return pid, built


def _ring_pixel(snap: compose.Snapshot, game: Game, label: str) -> tuple[int, int, int]:
    """A pixel of the ring drawn inside field `label`'s edge (middle of its bottom side)."""
    f = game.fields[label]
    inset = landscape.MARK_INSET
    corners = snap.geometry.corners(f.q, f.r, inset=inset)
    ox, oy = snap.landscape_origin
    x = (corners[1][0] + corners[2][0]) / 2 + ox
    y = (corners[1][1] + corners[2][1]) / 2 + oy
    return rgb(snap.image, (x, y))


def test_every_field_built_stays_marked_after_stop_building(monkeypatch):
    """7.1.4: two builds then "stop" (+1 coin); the next player has not moved yet."""
    game = h.new_game(3, seed=2)
    pid, built = _build_twice_and_stop(game)
    assert game.turn_player != pid, "the next player's turn has begun"

    turn = last_turn(game)
    assert turn is not None
    assert turn.player == pid and not turn.in_progress
    assert turn.builds == built
    assert turn.unused_build_coins == data.UNUSED_BUILD_COINS[2] == 1
    assert turn.number == game.turn_number - 1

    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game, names={pid: "Ana"})
    blue = PLAYER_RGB[seat_colour(0)]
    for label in built:
        assert close(_ring_pixel(snap, game, label), blue), f"{label} ringed in Ana's colour"
    others = [f.label for f in game.fields.values() if f.settlements and f.label not in built]
    for label in others:
        assert not close(_ring_pixel(snap, game, label), blue)
    turn_line = snap.header[2]
    assert turn_line == (
        f"Last turn ({turn.number}): Ana built on {built[0]} and {built[1]}, "
        "stopped building (+1 coin)"
    )
    assert any(d.text == turn_line for d in drawn), "the header says it in words"


def test_a_turn_in_progress_shows_what_was_done_so_far():
    game = h.new_game(2, seed=3)
    pid = h.start_turn(game, 1)
    h.set_goods(game, pid, **{good: 4 for good in data.GOODS})
    action = next(a for a in game.legal_actions(pid) if a.verb == "build")
    game.apply(pid, action)
    turn = last_turn(game)
    assert turn is not None and turn.in_progress
    assert turn.builds == [action.args[0]] and turn.unused_build_coins is None
    snap = compose.snapshot(game)
    assert snap.header[2] == f"Turn {game.turn_number} so far: {pid} built on {action.args[0]}"
    assert close(_ring_pixel(snap, game, action.args[0]), PLAYER_RGB[seat_colour(1)])


def _game_with_log(players: int, log: list[tuple[str, str]], turn_seat: int) -> Game:
    """A game whose log is `log` (as the engine writes it) and whose turn is `turn_seat`'s."""
    game = h.new_game(players, seed=1)
    game.log = list(log)
    game.turn = turn_seat
    return game


def test_answers_and_forced_moves_of_other_players_stay_inside_the_turn():
    """6.3 and 7.3: in ann's auction bob and cid answer (bob's pass forced, logged as
    his); bob's reward answer belongs to ann's turn, his own turn starts with his recruit."""
    before = [("dot", "recruit"), ("dot", "spin 4")]
    auction = [
        ("ann", "city 2 1"),
        ("bob", "pass"),
        ("cid", "place 2 3"),
        ("ann", "place 1 2"),
        ("dot", "place 3 1"),
        ("ann", "upgrade copper"),
        ("cid", "goods grain grain stone"),
    ]
    game = _game_with_log(4, before + auction, turn_seat=1)
    turn = last_turn(game)
    assert turn is not None and turn.player == "ann"
    assert [(m.player, str(m.action)) for m in turn.moves] == auction
    assert turn.auction_result == {"ann": (1, 2), "cid": (2, 3), "dot": (3, 1)}
    assert turn.city_spaces[0] == ("ann", 2, 1)

    game = _game_with_log(4, [*before, *auction, ("bob", "recruit"), ("bob", "spin 2")], 1)
    turn = last_turn(game)
    assert turn is not None and turn.player == "bob" and turn.in_progress
    assert [str(m.action) for m in turn.moves] == ["recruit", "spin 2"]
    assert turn.wheel_stops == [2]


def test_a_canteen_ends_the_turn_and_the_next_one_starts_with_the_same_player():
    """8: a canteen is spent at the end of a turn for a new turn at once."""
    first = [("ann", "bank 1 stone"), ("ann", "canteen")]
    game = _game_with_log(2, first, turn_seat=0)
    turn = last_turn(game)
    assert turn is not None and not turn.in_progress
    assert [str(m.action) for m in turn.moves] == ["bank 1 stone", "canteen"]
    game = _game_with_log(2, [*first, ("ann", "trade coins"), ("ann", "bank 2 copper")], 0)
    turn = last_turn(game)
    assert turn is not None and turn.in_progress
    assert [str(m.action) for m in turn.moves] == ["trade coins", "bank 2 copper"]


def test_the_setup_spins_are_the_last_turn_until_the_first_move():
    game = Game.new(["ann", "bob"], seed=4)
    turn = last_turn(game)
    assert turn is not None and turn.setup and turn.number is None
    assert {m.action.verb for m in turn.moves} <= {"spin", "take"}
    assert {m.player for m in turn.moves} == {turn.player}


def test_an_advance_marks_the_second_segment_too():
    """5.2: pay K grain to move the arrow K segments and take that segment's workers."""
    log = [("ann", "recruit"), ("ann", "spin 7"), ("ann", "advance 3")]
    turn = last_turn(_game_with_log(2, log, 0))
    assert turn is not None and turn.wheel_stops == [7, 2]


def _bank_cell_pixel(snap: compose.Snapshot, space: int) -> tuple[int, int, int]:
    """A pixel of the ring inside bank space `space`'s top edge."""
    cell = workerboard.layout().bank_cells[space - 1]
    ox, oy = snap.worker_board_origin
    return rgb(snap.image, ((cell[0] + cell[2]) / 2 + ox, cell[1] + 1 + oy))


@pytest.mark.parametrize("cleared", [False, True])
def test_workers_placed_on_the_bank_are_ringed_and_shown_pale_once_cleared(cleared):
    """6.1 and 3.1: the bank space used is marked; if the clean-up emptied the bank, the
    workers that stood there are drawn pale."""
    game = h.new_game(2, seed=5)
    pid = h.start_turn(game, 1)
    h.set_workers(game, pid, stone=3)
    if cleared:  # every other space occupied: this placement fills the bank
        for space in range(3):
            game.bank[space] = ["copper"] * data.BANK[space][0]
    game.apply(pid, "bank 4 stone stone stone")
    if game.pending.kind == "end":
        game.apply(pid, "end")
    assert (game.bank[3] == []) is cleared
    snap = compose.snapshot(game)
    assert close(_bank_cell_pixel(snap, 4), PLAYER_RGB[seat_colour(1)])
    assert not close(_bank_cell_pixel(snap, 3), PLAYER_RGB[seat_colour(1)])
    x, y = workerboard.layout().bank_spots[3][0]
    ox, oy = snap.worker_board_origin
    head = rgb(snap.image, (x + ox, y + oy - workerboard.WORKER * 0.3))
    if cleared:  # pale: between the stone colour and the white box
        assert not close(head, WORKER_RGB["stone"], tolerance=16)
        assert head[0] > WORKER_RGB["stone"][0]
    else:
        assert close(head, WORKER_RGB["stone"], tolerance=16)


def test_the_auction_result_stays_on_the_city_after_the_representatives_went_home():
    """6.3.4: after payment every representative returns to the shop building; the
    picture still shows where each winner stood, ringed in their colour."""
    log = [("ann", "city 4 1"), ("bob", "place 3 2"), ("ann", "upgrade")]
    game = _game_with_log(2, log, turn_seat=1)
    game.representatives = [None, None]
    snap = compose.snapshot(game)
    ox, oy = snap.worker_board_origin
    for seat, cell in ((0, (4, 1)), (1, (3, 2))):
        x, y = workerboard.layout().city_cells[cell]
        top = y - workerboard.CITY_CELL[1] / 2 + 1
        assert close(rgb(snap.image, (x + ox, top + oy)), PLAYER_RGB[seat_colour(seat)])
    x, y = workerboard.layout().city_cells[(1, 1)]
    top = y - workerboard.CITY_CELL[1] / 2 + 1
    assert close(rgb(snap.image, (x + ox, top + oy)), PANEL_EDGE, tolerance=40)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_the_last_turn_matches_the_engines_turns_through_whole_games(players, seed):
    """At every moment of random games, the turn read back from the log is exactly the
    entries made during the engine's most recent turn that has any (3, 8)."""
    game = Game.new(h.IDS[:players], seed=seed)
    rng = random.Random(seed)
    turn_of_entry: list[object] = ["setup"] * len(game.log)
    while not game.is_over:
        player, action = choose_action(game, rng)
        number = game.turn_number if not game.in_setup else "setup"
        game.apply(player, action)
        turn_of_entry += [number] * (len(game.log) - len(turn_of_entry))
        keys = [
            (key, entry[0]) if key == "setup" else (key, None)
            for key, entry in zip(turn_of_entry, game.log, strict=True)
        ]
        expected_start = len(keys) - 1
        while expected_start > 0 and keys[expected_start - 1] == keys[-1]:
            expected_start -= 1
        turn = last_turn(game)
        assert turn is not None
        assert [(m.player, str(m.action)) for m in turn.moves] == game.log[expected_start:]
        assert turn.setup == (keys[-1][0] == "setup")
        if not turn.setup:
            assert turn.number == keys[-1][0]
            assert turn.in_progress == (game.turn_number == turn.number and not game.is_over)
