"""RULES.md section 9: board values, the 12 landscape tiles, the landscape shapes, and the
field labels (issue 2 "Board data")."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rules import Game, data
from rules.board import build_fields, deal_tiles, neighbours, parse_field_spec, tile_origin
from tests.rules import helpers as h

SPECS = [[parse_field_spec(spec) for spec in tile] for tile in data.TILES]
PLAINS = [spec for tile in SPECS for spec in tile if spec[0] == "plain"]


def test_twelve_tiles_of_seven_fields() -> None:
    """1 "landscape tiles | 12 | each a cluster of 7 hex fields (a centre and its 6
    neighbours)"."""
    assert len(data.TILES) == 12
    assert all(len(tile) == 7 for tile in data.TILES)


def test_six_lakes_with_canteens_on_six_different_tiles() -> None:
    """9 "6 lakes, each with a canteen symbol, on 6 different tiles"; 1 "canteens | 6"."""
    lakes_per_tile = [sum(1 for kind, *_ in tile if kind == "lake") for tile in SPECS]
    assert sum(lakes_per_tile) == 6 == data.CANTEENS_TOTAL
    assert max(lakes_per_tile) == 1
    game = h.new_game(4, seed=1)
    assert all(f.canteen for f in game.fields.values() if f.kind == "lake")


def test_six_to_eight_mountains() -> None:
    """9 "6–8 mountains"."""
    assert 6 <= sum(1 for tile in SPECS for kind, *_ in tile if kind == "mountain") <= 8


def test_twelve_cows_one_per_tile_on_buildable_fields() -> None:
    """9 "12 cow symbols (1 per tile)"."""
    assert [sum(1 for *_, cow in tile if cow) for tile in SPECS] == [1] * 12
    assert all(kind == "plain" for tile in SPECS for kind, _cost, _double, cow in tile if cow)


def test_eight_double_fields_each_costing_at_least_three_goods() -> None:
    """9 "8 double-settlement fields ... every double field costs at least 3 goods"."""
    doubles = [cost for kind, cost, double, _cow in PLAINS if double]
    assert len(doubles) == 8
    assert all(sum(cost.values()) >= 3 for cost in doubles)


def test_every_other_field_costs_one_to_four_goods_using_all_six() -> None:
    """9 "every other field buildable for 1–4 goods ... using all six goods"."""
    assert len(PLAINS) == 12 * 7 - 6 - sum(
        1 for tile in SPECS for kind, *_ in tile if kind == "mountain"
    )
    assert all(1 <= sum(cost.values()) <= 4 for _kind, cost, *_ in PLAINS)
    used = Counter(good for _kind, cost, *_ in PLAINS for good in cost)
    assert set(used) == set(data.GOODS)


def test_costs_average_about_two_and_a_half_goods() -> None:
    """9 "every other field buildable for 1–4 goods (about 2.5 on average)": the mean cost
    rounds to 2.5 to the nearest half good."""
    average = sum(sum(cost.values()) for _kind, cost, *_ in PLAINS) / len(PLAINS)
    assert 2.25 <= average < 2.75


def test_large_pieces_in_about_a_quarter_of_the_costs() -> None:
    """9 "large copper or stone in about a quarter of the costs": between a fifth and
    three tenths of the buildable fields' costs include a large piece."""
    with_large = sum(1 for _kind, cost, *_ in PLAINS if {"bigcopper", "bigstone"} & set(cost))
    assert 0.2 <= with_large / len(PLAINS) <= 0.3


def test_board_values_of_section_nine() -> None:
    """9 "bank spaces | 1 worker → 3 coins; 1 worker → 4 coins; 2 workers → 8 coins; 3 workers
    → 11 coins"; "harvest places per area | 3"; "large box ... pay 1 → 1; pay 3 → 2; pay 6 →
    3 ... grain field ... pay 6 → 4 grain"; "small box, every place | +1"; "city columns |
    4 columns costing 1, 2, 3, 4 pumpkins"; 6.3.5 row rewards."""
    assert data.BANK == ((1, 3), (1, 4), (2, 8), (3, 11))
    for area in data.AREAS:
        top = 4 if area == "wheatfield" else 3
        assert data.HARVEST_PLACES[area] == ((1, 1), (3, 2), (6, top))
    assert data.SMALL_BOX_YIELD == 1
    assert data.CITY_COSTS == (1, 2, 3, 4) and data.CITY_ROWS == 4
    assert data.CITY_REWARDS == {
        1: {"cows": 1, "upgrades": 3, "coins": 0, "goods": 0},
        2: {"cows": 0, "upgrades": 0, "coins": 0, "goods": 3},
        3: {"cows": 0, "upgrades": 2, "coins": 0, "goods": 0},
        4: {"cows": 0, "upgrades": 1, "coins": 2, "goods": 0},
    }
    assert set(data.AREA_GOOD.values()) == {"copper", "stone", "grain", "pumpkin"}


def _hexes(shape: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    cells = []
    for a, b in shape:
        centre = tile_origin(a, b)
        cells += [centre, *neighbours(centre)]
    return cells


@pytest.mark.parametrize(("players", "tiles"), [(2, 7), (3, 9), (4, 10)])
def test_landscape_shapes_are_connected_without_overlaps_or_holes(players: int, tiles: int) -> None:
    """9 "landscape shapes | 2 players: 7 tiles, a centre tile with 6 around it; 3 players:
    9 tiles; 4 players: 10 tiles; compact, connected, no holes"."""
    shape = data.SHAPES[players]
    assert len(shape) == len(set(shape)) == tiles
    cells = _hexes(shape)
    assert len(cells) == len(set(cells)) == 7 * tiles  # no two tiles overlap
    landscape = set(cells)
    # connected: every field reachable from the first through neighbouring fields
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for n in neighbours(todo.pop()):
            if n in landscape and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == landscape
    # no holes: every empty hex inside the bounding box is reachable from outside it
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    box = {(q, r) for q in range(min(qs) - 1, max(qs) + 2) for r in range(min(rs) - 1, max(rs) + 2)}
    outside = {(min(qs) - 1, min(rs) - 1)}
    todo = list(outside)
    while todo:
        for n in neighbours(todo.pop()):
            if n in box and n not in landscape and n not in outside:
                outside.add(n)
                todo.append(n)
    assert box - landscape - outside == set()
    # compact: every tile touches at least two others (no tile hangs on by one side)
    for a, b in shape:
        touching = sum(1 for da, db in data.HEX_DIRECTIONS if (a + da, b + db) in set(shape))
        assert touching >= 2


def test_the_two_player_landscape_is_a_centre_tile_with_six_around() -> None:
    """9 "2 players: 7 tiles, a centre tile with 6 around it"."""
    shape = set(data.SHAPES[2])
    centres = [
        (a, b)
        for a, b in shape
        if {(a + da, b + db) for da, db in data.HEX_DIRECTIONS} == shape - {(a, b)}
    ]
    assert len(shape) == 7 and len(centres) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_dealt_tile_keeps_its_fields_turned_as_a_whole(players: int) -> None:
    """2.1 "Each tile may be turned to any of its 6 orientations": a placed tile shows the
    printed centre in the middle and the printed ring turned by its rotation, clockwise."""
    for seed in range(5):
        game = Game.new(h.IDS[:players], seed=seed)
        for placement in game.tiles:
            printed = data.TILES[placement.tile_index]
            fields = {f.hex: f for f in game.fields.values() if f.tile == placement.letter}
            centre = fields[placement.centre]
            assert (centre.kind, centre.cost, centre.double) == parse_field_spec(printed[0])[:3]
            for i, spec in enumerate(printed[1:]):
                dq, dr = data.HEX_DIRECTIONS[(i + placement.rotation) % 6]
                f = fields[(placement.centre[0] + dq, placement.centre[1] + dr)]
                kind, cost, double, cow = parse_field_spec(spec)
                assert (f.kind, f.cost, f.double) == (kind, cost, double)
                assert f.cow == (cow and not f.start)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_labels_are_tile_letter_and_reading_position(players: int) -> None:
    """Issue 2 "Every field has a short label ...: the tile's letter and the field's position
    (for example `C4`)"; board.py: tiles A, B, ... and fields 1-7 in reading order (top row
    first, left to right), 4 being the tile's centre."""
    game = Game.new(h.IDS[:players], seed=3)
    letters = [chr(ord("A") + i) for i in range(len(game.tiles))]
    assert [t.letter for t in game.tiles] == letters
    assert sorted(game.fields) == sorted(f"{x}{n}" for x in letters for n in range(1, 8))
    for label, f in game.fields.items():
        assert re.fullmatch(r"[A-J][1-7]", label) and f.label == label and f.tile == label[0]
    for t in game.tiles:
        centre = game.fields[f"{t.letter}4"]
        assert (centre.q, centre.r) == t.centre
        order = [game.fields[f"{t.letter}{n}"] for n in range(1, 8)]
        rows = [f.r for f in order]
        assert rows == sorted(rows)
        assert [f.r - t.centre[1] for f in order] == [-1, -1, 0, 0, 0, 1, 1]
        assert order[2].q < order[3].q < order[4].q
    # tiles read top row first, then left to right
    from rules.board import hex_centre

    keys = [(hex_centre(*t.centre)[1], hex_centre(*t.centre)[0]) for t in game.tiles]
    assert keys == sorted(keys)


def test_dealing_uses_the_games_generator_only() -> None:
    """2.1 randomly drawn tiles: the deal depends only on the seed (replayable), and the
    fields built from it are the same each time."""
    import random

    first = deal_tiles(4, random.Random(42))
    again = deal_tiles(4, random.Random(42))
    assert first == again
    assert {k: v.to_dict() for k, v in build_fields(first).items()} == {
        k: v.to_dict() for k, v in build_fields(again).items()
    }
