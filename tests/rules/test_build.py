"""RULES.md section 7.1: Action C — Build (and the cow trade between builds)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from rules import Event, Game, IllegalAction, data
from rules.board import Field
from rules.simulate import choose_action
from tests.rules import helpers as h


def _lakes_touching(game: Game, f: Field) -> list[Field]:
    return [n for n in h.neighbour_fields(game, f) if n.kind == "lake" and n.canteen]


def _line_position(
    accept: Callable[[int, Field], bool] | None = None,
    axis: tuple[int, int] = data.LINE_AXES[0],
    length: int = 4,
) -> tuple[Game, list[str]]:
    """A game whose landscape has `length` fields in a row along `axis` (free plain fields,
    not doubles unless `accept` says otherwise); ann (seat 0) is to act."""

    def search(game: Game) -> list[str] | None:
        cells = h.line_through(game, axis, length, accept)
        return [c.label for c in cells] if cells else None

    game, labels = h.find_game(search)
    assert isinstance(labels, list)
    return game, labels


def _build_events(game: Game, pid: str, label: str) -> dict[str, Any]:
    h.afford(game, pid, label)
    events = game.apply(pid, f"build {label}")
    return h.of_kind(events, "build")[0].data


# --- the rulebook example


def test_rulebook_example_red_builds_twice_and_takes_one_coin() -> None:
    """7.1 "Rulebook example: Red pays 1 large stone + 1 grain for a field next to a lake,
    takes that field's cow and the lake's canteen; trades the new cow for a small copper;
    pays small stone + grain + pumpkin + small copper for a double field and puts 2
    settlements there; has nothing left, so does not make the 3rd build and takes 1 coin.\""""

    def layout(game: Game) -> tuple[str, str, str] | None:
        for lake in game.fields.values():
            if lake.kind != "lake":
                continue
            for first in h.neighbour_fields(game, lake):
                if (
                    not h.is_free_plain(first, double=None)
                    or len(_lakes_touching(game, first)) != 1
                ):
                    continue
                around = [
                    n for n in h.neighbour_fields(game, first) if h.is_free_plain(n, double=None)
                ]
                dry = [n for n in around if not _lakes_touching(game, n)]
                if len(dry) >= 2:
                    return (dry[0].label, first.label, dry[1].label)
        return None

    probe, found = h.find_game(layout)
    assert isinstance(found, tuple)
    start, first, double = found
    game = h.new_game(4, probe.seed, start_field=start)
    red = h.start_turn(game, 3)
    assert data.PLAYER_COLOURS[3] == "red"
    h.set_cost(game, first, bigstone=1, grain=1)
    h.set_field_cow(game, first, True)
    game.fields[first].double = False
    h.set_cost(game, double, stone=1, grain=1, pumpkin=1, copper=1)
    game.fields[double].double = True
    h.set_field_cow(game, double, False)
    h.clear_goods(game, red)
    h.set_goods(game, red, bigstone=1, grain=2, stone=1, pumpkin=1)
    h.set_cows(game, red, 0)
    coins = game.player(red).coins

    events = game.apply(red, f"build {first}")
    built = h.of_kind(events, "build")[0].data
    assert built["paid"] == {"bigstone": 1, "grain": 1}
    assert built["gained"] == {"cows": 1, "canteens": 1}
    assert game.player(red).cows == 1 and game.player(red).canteens == 1
    assert game.pending.kind == "build"
    assert double not in game.buildable_fields(red)  # copper missing
    game.apply(red, "trade copper")
    assert game.player(red).cows == 0
    events = game.apply(red, f"build {double}")
    built = h.of_kind(events, "build")[0].data
    assert built["settlements"] == 2 and built["bonuses"] == ["double"]
    assert built["build_number"] == 2
    assert h.of_kind(events, "stop")[0].data == {"builds": 2, "coins": 1}
    assert game.player(red).coins == coins + 1
    assert game.fields[first].settlements == [red]
    assert game.fields[double].settlements == [red, red]
    assert sum(game.player(red).goods.values()) == 0
    assert game.pending.kind == "end"  # the new canteen: use it or end the turn
    h.assert_conserved(game)


# --- where to build


def test_a_build_must_touch_the_start_tile_or_a_settlement() -> None:
    """7.1.1 "Choose an empty field that touches a field carrying a tile (the start tile or
    any settlement of any player, including one built earlier this turn).\""""

    def away_from_start(game: Game) -> list[str] | None:
        cells = h.line_through(
            game,
            data.LINE_AXES[0],
            4,
            lambda _i, f: h.is_free_plain(f) and not _touches_start(game, f.label),
        )
        return [c.label for c in cells] if cells else None

    game, labels = h.find_game(away_from_start)
    assert isinstance(labels, list)
    a, b, c, d = labels
    h.settle(game, "bob", a)  # another player's settlement makes b reachable
    for label in (c, d):
        h.afford(game, "ann", label)
        assert label not in game.buildable_fields("ann")
        with pytest.raises(IllegalAction, match="does not touch the start tile or any settlement"):
            game.apply("ann", f"build {label}")
    _build_events(game, "ann", b)
    assert game.pending.kind == "build"  # ann has a cow: she may trade and build again
    h.set_goods(game, "ann", **game.fields[c].cost)
    assert c in game.buildable_fields("ann")  # touches the settlement built this turn
    game.apply("ann", f"build {c}")
    assert game.fields[c].settlements == ["ann"]


def _touches_start(game: Game, label: str) -> bool:
    return any(n.start for n in h.neighbour_fields(game, game.fields[label]))


def test_mountains_lakes_and_the_start_field_are_never_built_on() -> None:
    """7.1.1 "Mountains and lakes are never built on; neither is the start tile's field.\""""

    def water_near_start(game: Game) -> tuple[str, str] | None:
        near = h.neighbour_fields(game, game.fields[game.start_field])
        lakes = [n.label for n in near if n.kind == "lake"]
        hills = [n.label for n in near if n.kind == "mountain"]
        return (lakes[0], hills[0]) if lakes and hills else None

    game, found = h.find_game(water_near_start)
    assert isinstance(found, tuple)
    lake, mountain = found
    frontier = set(game.buildable_fields("ann"))
    h.set_goods(game, "ann", **{g: 5 for g in data.GOODS})
    assert not {lake, mountain, game.start_field} & set(game.buildable_fields("ann"))
    assert frontier <= set(game.buildable_fields("ann"))
    with pytest.raises(IllegalAction, match=f"{lake} is a lake: nobody builds there"):
        game.apply("ann", f"build {lake}")
    with pytest.raises(IllegalAction, match=f"{mountain} is a mountain"):
        game.apply("ann", f"build {mountain}")
    with pytest.raises(IllegalAction, match="carries the start tile"):
        game.apply("ann", f"build {game.start_field}")
    with pytest.raises(IllegalAction, match="there is no field 'Z9'"):
        game.apply("ann", "build z9")


def test_a_build_returns_exactly_the_printed_goods() -> None:
    """7.1.2 "Return exactly the goods printed on the field to the supply; put one of your
    settlements on it." A field the player cannot pay is refused with what is missing."""
    game = h.new_game(4, seed=3)
    label = h.next_to_start(game)
    h.set_cost(game, label, grain=1, bigcopper=2)
    game.fields[label].double = False
    h.clear_goods(game, "ann")
    h.set_goods(game, "ann", grain=1, bigcopper=1)
    with pytest.raises(IllegalAction, match=f"{label} costs 1 grain \\+ 2 bigcopper; you lack 1"):
        game.apply("ann", f"build {label}")
    h.set_goods(game, "ann", grain=3, bigcopper=2)
    supply = dict(game.supply.goods)
    left = game.player("ann").settlements_left
    game.apply("ann", f"build {label}")
    ann = game.player("ann")
    assert ann.goods["grain"] == 2 and ann.goods["bigcopper"] == 0
    assert game.supply.goods["grain"] == supply["grain"] + 1
    assert game.supply.goods["bigcopper"] == supply["bigcopper"] + 2
    assert ann.settlements_left == left - 1
    with pytest.raises(IllegalAction):
        game.apply("ann", f"build {label}")


# --- bonuses


@pytest.mark.parametrize("axis", data.LINE_AXES)
def test_a_line_of_exactly_four_on_each_axis_gives_a_bonus_settlement(
    axis: tuple[int, int],
) -> None:
    """7.1.3 "if the new settlement completes a straight line of **exactly 4** fields holding
    your settlements (along any of the three hex axes), put one more settlement on the field
    just built"; placed automatically ("the bonuses are placed automatically")."""
    game, (a, b, c, d) = _line_position(axis=axis)
    for label in (a, b, c):
        h.settle(game, "ann", label)
    built = _build_events(game, "ann", d)
    assert built["bonuses"] == ["line"] and built["settlements"] == 2
    assert game.fields[d].settlements == ["ann", "ann"]
    assert h.settlements_of(game, "ann") == 5
    assert game.player("ann").settlements_left == 8 - 5


def test_filling_the_gap_of_a_line_of_four_gives_the_bonus() -> None:
    """7.1.3 "completes a straight line of **exactly 4** fields": the new settlement may join
    two shorter lines (2 + new + 1)."""
    game, (a, b, c, d) = _line_position(axis=data.LINE_AXES[1])
    for label in (a, b, d):
        h.settle(game, "ann", label)
    assert _build_events(game, "ann", c)["bonuses"] == ["line"]


def test_a_line_of_five_gives_nothing() -> None:
    """7.1.3 "Extending a line that already gave its bonus never pays again (rulebook). Our
    ruling ... any line of 5 or more gives nothing, including one joined from two shorter
    lines.\""""
    game, (a, b, c, d, e) = _line_position(axis=data.LINE_AXES[2], length=5)
    for label in (a, b, c, d):
        h.settle(game, "ann", label)
    assert _build_events(game, "ann", e)["bonuses"] == []
    game, (a, b, c, d, e) = _line_position(axis=data.LINE_AXES[0], length=5)
    for label in (a, b, d, e):
        h.settle(game, "ann", label)
    built = _build_events(game, "ann", c)
    assert built["bonuses"] == [] and game.fields[c].settlements == ["ann"]


def test_other_players_settlements_do_not_make_your_line() -> None:
    """7.1.3 "fields holding **your** settlements": bob's settlement breaks ann's line."""
    game, (a, b, c, d) = _line_position(axis=data.LINE_AXES[0])
    h.settle(game, "ann", a)
    h.settle(game, "bob", b)
    h.settle(game, "ann", c)
    assert _build_events(game, "ann", d)["bonuses"] == []


def test_a_double_field_completing_a_line_ends_with_three_settlements() -> None:
    """7.1.3 "a field showing 2 settlement symbols takes a second settlement" and "A double
    field that completes a line of 4 ends with 3 of your settlements (rulebook example).\""""
    game, (a, b, c, d) = _line_position(accept=lambda i, f: h.is_free_plain(f, double=(i == 3)))
    for label in (a, b, c):
        h.settle(game, "ann", label)
    built = _build_events(game, "ann", d)
    assert sorted(built["bonuses"]) == ["double", "line"]
    assert game.fields[d].settlements == ["ann"] * 3


def test_each_axis_completed_gives_its_own_bonus() -> None:
    """7.1.3 "Our rulings: each axis on which a line of exactly 4 is completed gives its own
    bonus"."""

    def corner(game: Game) -> tuple[str, list[str]] | None:
        for f in game.fields.values():
            if not h.is_free_plain(f):
                continue
            arms = []
            for direction in data.HEX_DIRECTIONS:
                cells = [h.at(game, h.step(f.hex, direction, k)) for k in (1, 2, 3)]
                if all(h.is_free_plain(c) for c in cells):
                    arms.append((direction, [c.label for c in cells if c is not None]))
            for d1, cells1 in arms:
                for d2, cells2 in arms:
                    if d2 not in (d1, (-d1[0], -d1[1])):
                        return f.label, cells1 + cells2
        return None

    game, found = h.find_game(corner, players=3)  # 10 settlements: 6 + 1 + 2 bonuses
    assert isinstance(found, tuple)
    centre, arms = found
    for label in arms:
        h.settle(game, "ann", label)
    built = _build_events(game, "ann", centre)
    assert built["bonuses"] == ["line", "line"]
    assert game.fields[centre].settlements == ["ann"] * 3


def test_bonus_settlements_only_while_the_stock_lasts() -> None:
    """7.1.5 "A bonus settlement is placed only while the player has settlements left.\""""
    game, (a, b, c, d) = _line_position(accept=lambda i, f: h.is_free_plain(f, double=(i == 3)))
    for label in (a, b, c):
        h.settle(game, "ann", label)
    ann = game.player("ann")
    h.settle(game, "ann", a, count=ann.settlements_left - 2)  # keep two in stock
    built = _build_events(game, "ann", d)
    assert built["bonuses"] == ["double"] and built["settlements"] == 2
    assert ann.settlements_left == 0
    assert game.fields[d].settlements == ["ann", "ann"]
    h.assert_conserved(game)


def test_a_cow_on_the_field_goes_to_the_builder() -> None:
    """7.1.3 "a cow on the field goes to the builder"."""
    game = h.new_game(4, seed=2)
    label = h.next_to_start(game)
    h.set_field_cow(game, label, True)
    cows = game.player("ann").cows
    built = _build_events(game, "ann", label)
    assert built["gained"].get("cows") == 1
    assert game.player("ann").cows == cows + 1 and not game.fields[label].cow
    h.assert_conserved(game)


def test_a_lakes_canteen_goes_to_the_first_builder_beside_it() -> None:
    """7.1.3 "a canteen on a lake touching the field goes to the builder (the first to build
    next to that lake; later builders get nothing)"."""

    def two_by_one_lake(game: Game) -> tuple[str, str, str, str, str] | None:
        """A lake, two shore fields touching only it, and a dry field beside each."""
        for lake in game.fields.values():
            if lake.kind != "lake":
                continue
            shore = [
                n
                for n in h.neighbour_fields(game, lake)
                if h.is_free_plain(n, double=None) and len(_lakes_touching(game, n)) == 1
            ]
            for first in shore:
                for second in shore:
                    inland = [
                        [
                            n.label
                            for n in h.neighbour_fields(game, f)
                            if h.is_free_plain(n, double=None) and n not in (first, second)
                        ]
                        for f in (first, second)
                    ]
                    if first != second and inland[0] and inland[1]:
                        return lake.label, first.label, second.label, inland[0][0], inland[1][0]
        return None

    game, found = h.find_game(two_by_one_lake)
    assert isinstance(found, tuple)
    lake, first, second, *inland = found
    for label in inland:  # dot's settlements make both shore fields reachable
        if not game.fields[label].settlements:
            h.settle(game, "dot", label)
    built = _build_events(game, "ann", first)
    assert built["gained"].get("canteens") == 1
    assert game.player("ann").canteens == 1 and not game.fields[lake].canteen
    bob = h.start_turn(game, 1)
    built = _build_events(game, bob, second)
    assert "canteens" not in built["gained"]
    assert game.player(bob).canteens == 0


def test_a_field_touching_two_lakes_takes_both_canteens() -> None:
    """7.1.3 "Our ruling: a field touching two lakes with canteens takes both.\""""

    def between_lakes(game: Game) -> str | None:
        for f in game.fields.values():
            if h.is_free_plain(f, double=None) and len(_lakes_touching(game, f)) >= 2:
                reach = [n for n in h.neighbour_fields(game, f) if h.is_free_plain(n, double=None)]
                if reach:
                    return f.label
        return None

    game, label = h.find_game(between_lakes)
    assert isinstance(label, str)
    f = game.fields[label]
    lakes = _lakes_touching(game, f)
    helper = next(n for n in h.neighbour_fields(game, f) if h.is_free_plain(n, double=None))
    h.settle(game, "bob", helper.label)
    built = _build_events(game, "ann", label)
    assert built["gained"]["canteens"] == len(lakes)
    assert game.player("ann").canteens == len(lakes)
    assert not any(lake.canteen for lake in lakes)


# --- how many builds


def _three_reachable(game: Game) -> list[str] | None:
    cells = h.line_through(game, data.LINE_AXES[0], 3)
    return [c.label for c in cells] if cells else None


@pytest.mark.parametrize(("builds", "coins"), [(1, 2), (2, 1), (3, 0)])
def test_unused_builds_pay_coins(builds: int, coins: int) -> None:
    """7.1.4 "Build up to **3** times in one Build action (at least once). For each of the 3
    builds left unused, take 1 coin: 1 build → 2 coins, 2 builds → 1 coin, 3 → none.\""""
    game, labels = h.find_game(_three_reachable)
    assert isinstance(labels, list)
    h.settle(game, "bob", labels[0])
    targets = labels[1:] + [
        n.label
        for n in h.neighbour_fields(game, game.fields[labels[2]])
        if h.is_free_plain(n, double=False) and n.label not in labels
    ]
    h.clear_goods(game, "ann")
    for label in targets[:3]:
        h.set_cost(game, label, grain=1)
        game.fields[label].double = False
    h.set_goods(game, "ann", grain=3)
    coins_before = game.player("ann").coins
    assert "stop" not in h.legal(game)
    events: list[Event] = []
    for label in targets[:builds]:
        events += game.apply("ann", f"build {label}")
    if builds < 3:
        assert game.pending.kind == "build"
        events += game.apply("ann", "stop")
    assert h.of_kind(events, "stop")[0].data == {"builds": builds, "coins": coins}
    assert game.player("ann").coins == coins_before + coins
    # the action is over: next player, or ann's canteen question if she took one
    assert game.turn_player == "bob" or game.pending.kind == "end"


def test_builds_are_counted_not_settlements() -> None:
    """7.1.4 "Builds are counted, not settlements: bonus settlements change nothing here":
    one build placing 2 settlements (a double field) then stopping earns 2 coins."""
    game = h.new_game(4, seed=1)
    label = h.next_to_start(game)
    game.fields[label].double = True
    h.set_cost(game, label, pumpkin=1)
    coins = game.player("ann").coins
    events = game.apply("ann", f"build {label}")
    assert h.of_kind(events, "build")[0].data["settlements"] == 2
    assert game.pending.kind == "build"  # ann holds a cow: she could trade and build on
    events = game.apply("ann", "stop")
    assert h.of_kind(events, "stop")[0].data == {"builds": 1, "coins": 2}
    assert game.player("ann").coins == coins + 2


def _expected_bonuses(before: Game, pid: str, label: str) -> list[str]:
    """7.1.3 and 7.1.5 counted directly on the landscape as it was before the build."""
    f = before.fields[label]
    left = before.player(pid).settlements_left - 1
    bonuses = []
    if f.double and left > 0:
        bonuses.append("double")
        left -= 1
    for axis in data.LINE_AXES:
        length = 1
        for sign in (1, -1):
            k = 1
            while (n := h.at(before, h.step(f.hex, (sign * axis[0], sign * axis[1]), k))) and (
                pid in n.settlements
            ):
                length += 1
                k += 1
        if length == 4 and left > 0:
            bonuses.append("line")
            left -= 1
    return bonuses


def test_bonuses_in_random_games_match_a_direct_count() -> None:
    """7.1.3 bonuses (double, exactly-4 lines on each axis, the field's cow, every touching
    lake's canteen) and 7.1.5 (only while the stock lasts), checked on every build of
    complete random games against a count made here from the landscape before the build."""
    lines = games = 0
    for seed in range(100):
        if games >= 6 and lines >= 3:
            break  # enough games, and lines among them
        players = 2 + seed % 3
        games += 1
        game = Game.new(h.IDS[:players], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            pid, action = choose_action(game, rng)
            before = game.copy() if action.verb == "build" else game
            for event in game.apply(pid, action):
                if event.kind != "build":
                    continue
                label = event.data["field"]
                f = before.fields[label]
                assert event.data["bonuses"] == _expected_bonuses(before, pid, label)
                assert event.data["settlements"] == 1 + len(event.data["bonuses"])
                canteens = len(_lakes_touching(before, f))
                assert event.data["gained"].get("canteens", 0) == canteens
                assert event.data["gained"].get("cows", 0) == (1 if f.cow else 0)
                lines += event.data["bonuses"].count("line")
    assert lines >= 3  # random games complete lines now and then
