"""RULES.md sections 1 (components) and 2 (setup)."""

from __future__ import annotations

import pytest

from rules import Game, data
from tests.rules import helpers as h


@pytest.mark.parametrize("players", [2, 3, 4])
def test_component_counts_are_conserved_after_setup(players: int) -> None:
    """1. "workers 72 | 18 of each colour", "cows 24", "goods 120 | 24 grain, 24 pumpkin,
    24 small copper, 12 large copper, 24 small stone, 12 large stone"."""
    assert data.WORKERS_PER_COLOUR * len(data.COLOURS) == 72
    assert data.COWS_TOTAL == 24
    assert sum(data.GOODS_TOTAL.values()) == 120
    assert data.GOODS_TOTAL == {
        "grain": 24,
        "pumpkin": 24,
        "copper": 24,
        "stone": 24,
        "bigcopper": 12,
        "bigstone": 12,
    }
    h.assert_conserved(h.new_game(players, seed=7))


def test_a_large_piece_never_stands_in_for_a_small_one() -> None:
    """1. "Small and large copper (and stone) are different goods. A large one never stands
    in for a small one or the reverse.\""""
    game = h.new_game(4, seed=2)
    ann = h.player_id(game, 0)
    target = next(f for f in h.neighbour_fields(game, game.fields[game.start_field]) if f.buildable)
    h.set_cost(game, target.label, stone=1)
    h.clear_goods(game, ann)
    h.set_goods(game, ann, bigstone=1)
    assert target.label not in game.buildable_fields(ann)
    h.set_cost(game, target.label, bigcopper=1)
    h.clear_goods(game, ann)
    h.set_goods(game, ann, copper=3)
    assert target.label not in game.buildable_fields(ann)
    h.set_goods(game, ann, bigcopper=1)
    assert target.label in game.buildable_fields(ann)


@pytest.mark.parametrize(("players", "tiles"), [(2, 7), (3, 9), (4, 10)])
def test_landscape_has_the_tile_count_for_the_player_count(players: int, tiles: int) -> None:
    """2.1 "7 tiles for 2 players, 9 for 3, 10 for 4" of the 12, each a cluster of 7
    fields (1. "each a cluster of 7 hex fields")."""
    game = h.new_game(players, seed=3)
    assert len(game.tiles) == tiles
    assert len({t.tile_index for t in game.tiles}) == tiles
    assert all(0 <= t.tile_index < 12 and 0 <= t.rotation < 6 for t in game.tiles)
    assert len(game.fields) == 7 * tiles


def test_the_seed_draws_tiles_and_rotations() -> None:
    """2.1 "randomly drawn tiles ... Each tile may be turned to any of its 6 orientations":
    the same seed deals the same landscape, other seeds deal others, and every
    orientation occurs."""
    same = [Game.new(h.IDS, seed=11).tiles for _ in range(2)]
    assert same[0] == same[1]
    layouts = {
        tuple((t.tile_index, t.rotation) for t in Game.new(h.IDS, seed=s).tiles) for s in range(30)
    }
    assert len(layouts) == 30
    rotations = {t.rotation for s in range(30) for t in Game.new(h.IDS, seed=s).tiles}
    assert rotations == set(range(6))
    drawn = {t.tile_index for s in range(30) for t in Game.new(h.IDS, seed=s).tiles}
    assert drawn == set(range(12))


def test_start_tile_defaults_to_the_buildable_field_nearest_the_centre() -> None:
    """2.2 "Put the start tile on a field (... default: the buildable field nearest the
    centre of the landscape). It is no longer buildable.\""""
    from rules.board import hex_centre

    game = h.new_game(4, seed=5)
    centres = {label: hex_centre(f.q, f.r) for label, f in game.fields.items()}
    mid_x = sum(x for x, _ in centres.values()) / len(centres)
    mid_y = sum(y for _, y in centres.values()) / len(centres)

    def distance(label: str) -> float:
        x, y = centres[label]
        return (x - mid_x) ** 2 + (y - mid_y) ** 2

    start = game.fields[game.start_field]
    assert start.start and start.kind == "plain" and not start.buildable
    plains = [label for label, f in game.fields.items() if f.kind == "plain"]
    assert distance(game.start_field) <= min(distance(label) for label in plains) + 1e-9
    assert [f for f in game.fields.values() if f.start] == [start]
    assert game.start_field not in {
        a.args[0] for a in game.legal_actions("ann") if a.verb == "build"
    }


def test_players_may_choose_the_start_field() -> None:
    """2.2 "Put the start tile on a field (the players' choice ...)": a chosen plain field
    takes it; a lake or mountain cannot."""
    probe = Game.new(h.IDS, seed=5)
    chosen = next(f.label for f in probe.fields.values() if f.kind == "plain" and not f.start)
    game = Game.new(h.IDS, seed=5, start_field=chosen.lower())
    assert game.start_field == chosen and game.fields[chosen].start
    water = next(f.label for f in probe.fields.values() if f.kind != "plain")
    with pytest.raises(ValueError):
        Game.new(h.IDS, seed=5, start_field=water)
    with pytest.raises(ValueError):
        Game.new(h.IDS, seed=5, start_field="Z9")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_canteens_on_lakes_and_cows_on_cow_fields(players: int) -> None:
    """2.3 "Put a canteen on every lake that shows a canteen symbol, and a cow on every field
    that shows a cow symbol. Unused canteens leave the game; all other cows form the general
    supply.\""""
    game = h.new_game(players, seed=4)
    lakes = [f for f in game.fields.values() if f.kind == "lake"]
    assert lakes and all(f.canteen for f in lakes)
    assert not any(f.canteen for f in game.fields.values() if f.kind != "lake")
    printed_cows = sum(
        1 for t in game.tiles for spec in data.TILES[t.tile_index] if spec.endswith("*")
    )
    on_board = [f for f in game.fields.values() if f.cow]
    covered = 1 if _start_covers_a_cow(game) else 0
    assert len(on_board) == printed_cows - covered
    assert all(f.kind == "plain" and not f.start for f in on_board)
    assert game.supply.cows == 24 - len(on_board) - players * data.START_COWS


def _start_covers_a_cow(game: Game) -> bool:
    """Whether the start tile lies on a printed cow symbol (that cow stays in the supply)."""
    from rules.board import build_fields

    return build_fields(game.tiles)[game.start_field].cow


@pytest.mark.parametrize(
    ("players", "supply"),
    [
        (2, {"grain": 10, "pumpkin": 10, "copper": 10, "bigcopper": 6, "stone": 10, "bigstone": 6}),
        (3, {"grain": 15, "pumpkin": 15, "copper": 15, "bigcopper": 9, "stone": 15, "bigstone": 9}),
        (
            4,
            {
                "grain": 20,
                "pumpkin": 20,
                "copper": 20,
                "bigcopper": 12,
                "stone": 20,
                "bigstone": 12,
            },
        ),
    ],
)
def test_supply_goods_by_player_count_and_start_goods_from_the_box(
    players: int, supply: dict[str, int]
) -> None:
    """2.5 the supply table by player count; 2.6 "1 grain, 1 pumpkin, 1 small copper,
    1 small stone **from the box, not from the supply**"."""
    game = Game.new(h.IDS[:players], seed=9)
    assert game.supply.goods == supply
    for p in game.players:
        assert p.goods == {
            "grain": 1,
            "pumpkin": 1,
            "copper": 1,
            "stone": 1,
            "bigcopper": 0,
            "bigstone": 0,
        }
    for good in data.GOODS:
        start = players if good in data.START_GOODS else 0
        assert game.box[good] == data.GOODS_TOTAL[good] - supply[good] - start


@pytest.mark.parametrize(("players", "settlements"), [(2, 12), (3, 10), (4, 8)])
def test_each_player_gets_settlements_a_cow_and_coins_by_seat(
    players: int, settlements: int
) -> None:
    """2.6 "settlements — 12 each with 2 players, 10 with 3, 8 with 4; 1 cow from the supply"
    and 2.8 "Coins: start player 3, then clockwise 4, 5, 6"; representatives on the shop."""
    game = Game.new(h.IDS[:players], seed=1)
    assert [p.id for p in game.players] == list(h.IDS[:players])
    assert [p.settlements_left for p in game.players] == [settlements] * players
    assert [p.cows for p in game.players] == [1] * players
    assert [p.canteens for p in game.players] == [0] * players
    assert [p.coins for p in game.players] == [3, 4, 5, 6][:players]
    assert game.representatives == [None] * players
    assert all(not f.settlements for f in game.fields.values())


def test_setup_spins_two_per_player_in_seat_order() -> None:
    """2.7 "Each player spins the wheel twice and takes the 2 workers shown each time (wild:
    any 2 colours, chosen by the player): 4 workers each." 2.8: the start player begins."""
    record = {
        "version": 1,
        "players": ["ann", "bob", "cid"],
        "seed": 1,
        "start_field": None,
        "actions": [
            ["ann", "spin 1"],
            ["ann", "spin 2"],
            ["bob", "spin 3"],
            ["bob", "take copper stone"],
            ["bob", "spin 7"],
            ["bob", "take pumpkin pumpkin"],
            ["cid", "spin 8"],
            ["cid", "spin 4"],
        ],
    }
    game = Game.replay(record)
    workers = {p.id: p.workers for p in game.players}
    assert workers["ann"] == {"copper": 1, "stone": 1, "grain": 1, "pumpkin": 1}
    assert workers["bob"] == {"copper": 1, "stone": 1, "grain": 0, "pumpkin": 2}
    assert workers["cid"] == {"copper": 2, "stone": 0, "grain": 2, "pumpkin": 0}
    assert not game.in_setup
    assert game.awaiting == "ann" and game.turn_player == "ann" and game.pending.kind == "main"
    h.assert_conserved(game)


def test_a_wild_setup_spin_awaits_the_spinning_player() -> None:
    """2.7 "(wild: any 2 colours, chosen by the player)": the choice belongs to whoever
    spun, and any pair of colours, equal or not, may be chosen."""
    record = {
        "version": 1,
        "players": ["ann", "bob"],
        "seed": 1,
        "start_field": None,
        "actions": [["ann", "spin 1"], ["ann", "spin 2"], ["bob", "spin 7"]],
    }
    game = Game.replay(record)
    assert game.in_setup and game.awaiting == "bob" and game.pending.kind == "take"
    assert h.legal(game) == {
        f"take {a} {b}" for i, a in enumerate(data.COLOURS) for b in data.COLOURS[i:]
    }
    assert game.legal_actions("ann") == []


@pytest.mark.parametrize("ids", [["solo"], ["a", "b", "c", "d", "e"], ["a", "a"], ["a b", "c"]])
def test_two_to_four_distinct_players(ids: list[str]) -> None:
    """Title: "Montana ... for 2–4 players"; ids are distinct words (issue 2 API)."""
    with pytest.raises(ValueError):
        Game.new(ids, seed=1)
