"""The picture's sentences say what happened the way players do, not in notation."""

from __future__ import annotations

import random

import pytest

from render import words
from render.__main__ import play
from render.words import ENGLISH
from rules import Game
from rules.recent import last_turn
from rules.simulate import choose_action

from .helpers import game_at


@pytest.mark.parametrize(
    ("notation", "sentence"),
    [
        ("build C4", "Ana built on C4"),
        ("harvest mine 2 copper", "Ana worked the mine, place 2: paid 3 coins for 2 small copper"),
        (
            "harvest wheatfield 3 grain",
            "Ana worked the grain field, place 3: paid 6 coins for 4 grain",
        ),
        (
            "bank 3 copper grain",
            "Ana put a copper worker and a grain worker on bank space 3 (+8 coins)",
        ),
        ("bank 1 stone", "Ana put a stone worker on bank space 1 (+3 coins)"),
        ("advance 0", "Ana did not move the arrow"),
        ("advance 2", "Ana paid 2 grain to move the arrow 2 segments"),
        ("spin 3", "Ana got segment 3 of the wheel (2 wild workers)"),
        ("spin 1", "Ana got segment 1 of the wheel (a stone worker and a pumpkin worker)"),
        ("extra copper", "Ana also filled the extra box with a copper worker"),
        ("stop", "Ana stopped building"),
        ("take pumpkin pumpkin", "Ana took 2 pumpkin workers"),
        ("pass", "Ana passed in the city auction"),
        ("upgrade", "Ana took no upgrade"),
        ("upgrade copper copper stone", "Ana upgraded 2 small copper + 1 small stone to large"),
        ("goods grain copper copper", "Ana took 1 grain + 2 small copper from the city"),
        ("trade coins", "Ana traded a cow for 3 coins"),
        ("trade worker grain", "Ana traded a cow for a grain worker"),
        ("trade pumpkin", "Ana traded a cow for 1 pumpkin"),
        ("canteen", "Ana used a canteen: another turn"),
    ],
)
def test_actions_in_words(notation, sentence):
    game = game_at(2, "start")
    pid = game.player_ids[0]
    assert words.describe_action(game, pid, notation, {pid: "Ana"}) == sentence


def test_every_action_of_whole_games_is_put_in_words():
    for players in (2, 4):
        game, _ = play(players, 21, 0, final=True)
        for player_id, notation in game.log:
            sentence = words.describe_action(game, player_id, notation)
            assert not sentence.endswith(f": {notation}"), notation


def test_a_player_without_a_name_is_shown_by_id():
    assert words.display_name("1234", {"999": "Ben"}) == "1234"
    assert words.display_name("1234", None) == "1234"
    assert words.display_name("999", {"999": "Ben"}) == "Ben"


def _until(game: Game, kind: str, rng: random.Random) -> Game:
    for _ in range(3000):
        if game.pending.kind == kind:
            return game
        pid, action = choose_action(game, rng)
        game.apply(pid, action)
    raise AssertionError(f"no {kind} decision reached")


def test_the_header_names_who_must_answer_during_a_city_auction():
    game = Game.new(["ana", "ben", "cleo"], seed=2)
    rng = random.Random(4)
    game = _until(game, "bid", rng)
    names = {"ana": "Ana", "ben": "Ben", "cleo": "Cleo"}
    lines = words.header_lines(game, last_turn(game), names)
    assert game.awaiting != game.turn_player, "another player answers in the auction"
    turn = names[game.turn_player]
    assert lines[0] == "must take a city space or pass (city auction)"
    assert lines[1] == f"Turn {game.turn_number}: {turn}'s turn"
    assert lines[2].startswith(f"Turn {game.turn_number} so far: {turn} went to the city")


def test_a_seat_note_follows_the_turn_players_name():
    game = game_at(3, "mid")
    lines = words.header_lines(game, last_turn(game), None, {game.turn_player: "AI plays"})
    assert lines[1].startswith(f"Turn {game.turn_number}: {game.turn_player}'s turn (AI plays)")


def test_the_final_ranking_lists_tie_break_figures_in_order():
    game = game_at(3, "end")
    rows = words.result_lines(game)
    ranking = game.result().ranking
    assert [row[0] for row in rows] == [s.place for s in ranking]
    for row, standing in zip(rows, ranking, strict=True):
        assert row[2].startswith(f"{standing.settlements} settlements · ")
        cows = "cow or canteen" if standing.cows_and_canteens == 1 else "cows and canteens"
        assert f"{standing.cows_and_canteens} {cows} · " in row[2]
        assert row[2].endswith(f"{standing.holdings} goods, coins and workers")


def test_counts_of_one_read_as_a_person_writes_them():
    """Issue 12.7: "1 cows + canteens" reads "1 cow or canteen"; a lone worker is "a"."""
    game = game_at(3, "end")
    ones = [row[2] for row in words.result_lines(game) if "1 cow" in row[2]]
    assert all("1 cow or canteen" in figures for figures in ones)
    assert words.workers_phrase(("stone", "stone", "grain"), ENGLISH) == (
        "2 stone workers and a grain worker"
    )
    assert words.joined(["Ana", "Ben", "Cleo"], ENGLISH) == "Ana, Ben and Cleo"
