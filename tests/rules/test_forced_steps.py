"""RULES.md 7.3 (forced steps are applied, not asked) and 7.2 (a cow trade is offered
only if it yields something), and the replay of games with forced steps."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules import Event, Game, IllegalAction
from rules.simulate import choose_action
from tests.rules import helpers as h

SCHEMA1_GAME = Path(__file__).parent / "data" / "schema1_game.json"
"""A 3-player game saved after 260 random actions by the engine of schema 1 (which
carried out some forced steps without logging them): its state and its record."""


def _auction(pumpkins: int) -> Game:
    """Ann (no cow) to choose her action; every player holds `pumpkins` pumpkins and a
    small copper and stone."""
    game = h.new_game(4, seed=1)
    for pid in h.IDS:
        h.set_goods(game, pid, pumpkin=pumpkins, copper=1, stone=1)
    h.set_cows(game, "ann", 0)
    h.start_turn(game, 0)
    return game


def _forced(events: list[Event]) -> list[tuple[str | None, dict[str, Any]]]:
    return [(e.player, e.data) for e in h.of_kind(events, "forced")]


def _forced_log(game: Game) -> list[tuple[str, str]]:
    return [game.log[i] for i in game.auto]


# --- 7.3: a decision with exactly one legal option is applied and logged


def test_a_bidder_who_can_only_pass_is_never_awaited() -> None:
    """7.3 "Where a decision has exactly one legal option (a bidder who can afford no space
    and may only pass ...), the engine applies it at once and logs it as that player's
    move." Bob and dot hold no pumpkin; cid holds one and is asked."""
    game = _auction(pumpkins=0)
    h.set_goods(game, "cid", pumpkin=1)
    start = len(game.log)
    events = game.apply("ann", "city 2 1")
    assert game.awaiting == "cid" and game.pending.kind == "bid"
    assert game.log[start:] == [("ann", "city 2 1"), ("bob", "pass")]
    assert game.auto == [start + 1]
    assert _forced(events) == [("bob", {"action": "pass", "decision": "bid"})]
    # the forced event comes just before the events of the step itself
    assert h.kinds(events)[-2:] == ["forced", "pass"] and events[-1].player == "bob"

    events = game.apply("cid", "pass")
    assert game.log[start + 2 :] == [("cid", "pass"), ("dot", "pass")]
    assert game.auto == [start + 1, start + 3]
    assert _forced(events)[0] == ("dot", {"action": "pass", "decision": "bid"})


def test_a_return_with_a_single_combination_is_not_asked() -> None:
    """7.3 "... a return with a single combination ..." and 3 "A player's board holds at
    most 8 workers": ann, holding only copper and no cow, recruits to 9 workers; the one
    possible return is made for her (after the advance she cannot pay for: no grain)."""
    game = h.new_game(4, seed=1)
    ann = h.player_id(game, 0)
    h.set_workers(game, ann, copper=7, stone=0, grain=0, pumpkin=0)
    h.set_goods(game, ann, grain=0)
    h.set_cows(game, ann, 0)
    events = h.recruit(game, 4)  # copper + copper
    assert game.log[-3:] == [(ann, "spin 4"), (ann, "advance 0"), (ann, "return copper")]
    assert _forced_log(game)[-2:] == [(ann, "advance 0"), (ann, "return copper")]
    assert _forced(events) == [
        (ann, {"action": "advance 0", "decision": "advance"}),
        (ann, {"action": "return copper", "decision": "return"}),
    ]
    assert game.player(ann).worker_count == 8
    assert game.turn_player == "bob" and game.pending.kind == "main"


def test_an_overtaken_player_with_no_space_left_passes() -> None:
    """7.3 "... an overtaken player with no space left ...". With today's values an
    overtaken player can always afford column 1 of an empty row, so bob's pumpkins are
    taken away by hand after he placed: overtaken, he has nowhere to go and passes."""
    game = _auction(pumpkins=4)
    game.apply("ann", "city 1 1")
    game.apply("bob", "place 2 1")
    h.set_goods(game, "bob", pumpkin=0)
    events = game.apply("cid", "place 2 2")
    assert ("bob", "pass") in _forced_log(game)
    assert game.log[-1] == ("bob", "pass")
    assert h.kinds(events)[-3:] == ["overtaken", "forced", "pass"]
    assert game.awaiting == "dot" and "bob" not in game.city_grid().values()


def test_other_steps_without_a_choice_are_logged_too() -> None:
    """7.3 applies to every decision, not only to the examples it names: the small box
    when no workers fit it ("noextra"), a city reward with nothing to choose ("upgrade"),
    building on when nothing more can be built ("stop"); each is logged as the player's
    move."""
    game = h.new_game(4, seed=1)
    h.clear_workers(game, "ann")
    h.set_workers(game, "ann", copper=1)
    h.set_cows(game, "ann", 0)
    game.apply("ann", "harvest mine 1 copper")
    assert game.log[-1] == ("ann", "noextra") and _forced_log(game)[-1] == ("ann", "noextra")

    game = _auction(pumpkins=4)
    h.set_goods(game, "ann", copper=0, stone=0)
    for pid in ("bob", "cid", "dot"):
        h.set_goods(game, pid, pumpkin=0)
    events = game.apply("ann", "city 4 1")
    assert _forced_log(game)[-1] == ("ann", "upgrade")
    assert h.of_kind(events, "reward")[0].data == {
        "row": 4,
        "upgraded": [],
        "gained": {"coins": 2},
    }

    game = h.new_game(4, seed=1)
    label = h.next_to_start(game)
    h.afford(game, "ann", label)
    h.set_cows(game, "ann", 0)
    events = game.apply("ann", f"build {label}")
    assert game.log[-1] == ("ann", "stop") and _forced_log(game)[-1] == ("ann", "stop")
    assert h.of_kind(events, "stop")[0].data == {"builds": 1, "coins": 2}


def test_a_player_holding_a_cow_is_asked() -> None:
    """7.3 "A step in which the player could still trade a cow is not forced": the same
    recruit without grain is a choice for a player with a cow (a trade for grain would let
    her advance), and a step without it for a player without one."""
    for cows, asked in ((1, True), (0, False)):
        game = h.new_game(4, seed=1)
        h.set_goods(game, "ann", grain=0)
        h.set_cows(game, "ann", cows)
        h.recruit(game, 2)
        if asked:
            assert game.pending.kind == "advance" and game.awaiting == "ann"
            assert {"advance 0", "trade grain", "trade coins"} <= h.legal(game)
            game.apply("ann", "trade grain")
            assert "advance 1" in h.legal(game)
        else:
            assert game.log[-1] == ("ann", "advance 0") and game.turn_player == "bob"


def test_random_games_never_await_a_forced_step() -> None:
    """7.3 "Nobody is pinged or waits for a deadline to make a choice that is not a
    choice": in complete random games every awaited decision has at least two options,
    and forced steps were applied along the way."""
    forced = 0
    for players, seed in ((2, 91), (3, 92), (4, 93)):
        game = Game.new(h.IDS[:players], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            assert len(h.legal(game)) > 1, game.pending
            game.apply(*choose_action(game, rng))
        forced += len(game.auto)
    assert forced > 20


# --- 7.2: a cow trade only if it yields something


def test_no_trade_for_a_good_or_colour_the_supply_lacks() -> None:
    """7.2 "A trade is offered only if it yields something: no worker colour whose supply
    is empty, no good whose supply is empty" when the trader holds that piece herself:
    the shortage rule (4) would make her return one and take it back."""
    game = h.new_game(4, seed=1)
    h.set_cows(game, "ann", 1)
    h.set_goods(game, "ann", stone=1)
    h.set_supply_goods(game, "stone", 0)
    h.set_workers(game, "ann", grain=1)
    h.set_supply_workers(game, "grain", 0, parking="mine")
    trades = {a for a in h.legal(game) if a.startswith("trade")}
    assert "trade stone" not in trades and "trade worker grain" not in trades
    assert {"trade coins", "trade copper", "trade worker copper"} <= trades
    with pytest.raises(IllegalAction):
        game.apply("ann", "trade stone")


def test_a_trade_from_an_empty_supply_that_the_shortage_rule_fills() -> None:
    """4 (applied to cow trades, 7.2) and our reading of 7.2's "yields something": with no
    stone in the supply, a trader holding none still gets one, since every other holder
    returns one first; so the trade is offered. Nobody holding any: not offered."""
    game = h.new_game(4, seed=1)
    h.set_cows(game, "ann", 1)
    for pid in h.IDS:
        h.set_goods(game, pid, stone=0)
    h.set_goods(game, "bob", stone=2)
    h.set_supply_goods(game, "stone", 0)
    assert "trade stone" in h.legal(game)
    events = game.apply("ann", "trade stone")
    assert h.of_kind(events, "shortage")[0].data["returned"] == {"bob": 1}
    assert game.player("ann").goods["stone"] == 1 and game.player("bob").goods["stone"] == 1

    game = h.new_game(4, seed=1)
    h.set_cows(game, "ann", 1)
    for pid in h.IDS:
        h.set_goods(game, pid, copper=0)
    h.set_supply_goods(game, "copper", 0)
    assert "trade copper" not in h.legal(game)


# --- replay of forced steps


def _random_game(players: int, seed: int) -> Game:
    game = Game.new(h.IDS[:players], seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(*choose_action(game, rng))
    return game


def test_replay_of_games_with_forced_steps_is_exact() -> None:
    """7.3 "... logs it as that player's move" and issue 2 (a record replays exactly): the
    record holds the forced steps; replaying applies each once, marks the same entries
    as forced, and rebuilds the identical game; so does every prefix of the record."""
    game = _random_game(3, 71)
    record = game.record()
    assert game.auto and all(record["actions"][i] == list(game.log[i]) for i in game.auto)
    assert Game.replay(record) == game
    for cut in range(0, len(game.log), 37):
        prefix = Game.replay({**record, "actions": record["actions"][:cut]})
        again = Game.replay(prefix.record())
        assert again == prefix and len(prefix.log) >= cut


def test_a_record_contradicting_a_forced_step_is_refused() -> None:
    """Replay stays exact: where the game applied a forced step, the record must hold that
    same step, not another action."""
    game = _random_game(2, 72)
    record = game.record()
    index = game.auto[0]
    pid, _notation = game.log[index]
    actions = [list(a) for a in record["actions"]]
    actions[index] = [pid, "trade coins"]
    with pytest.raises(IllegalAction, match=f"record action {index + 1} .*forced step"):
        Game.replay({**record, "actions": actions})


def test_a_game_saved_under_schema_1_loads_plays_on_and_replays() -> None:
    """Saved states of schema 1 (no `auto`) still load; the game plays on with forced steps
    logged; its record, whose early part lacks the forced steps schema 1 did not log,
    replays to the same position (the replayed log gaining those steps)."""
    saved = json.loads(SCHEMA1_GAME.read_text())
    assert saved["state"]["version"] == 1 and "auto" not in saved["state"]
    game = Game.from_dict(saved["state"])
    assert game.auto == [] and game.schema1_moves == len(saved["record"]["actions"])
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game

    def position(g: Game) -> dict[str, Any]:
        d = g.to_dict()
        for key in ("log", "auto", "schema1_moves"):
            del d[key]
        return d

    replayed = Game.replay(saved["record"])
    assert position(replayed) == position(game)
    # the old log is the replayed one without some forced steps
    old_log = iter(game.log)
    expected = next(old_log, None)
    added = []
    for index, entry in enumerate(replayed.log):
        if entry == expected:
            expected = next(old_log, None)
        else:
            added.append(index)
    assert expected is None and added and set(added) <= set(replayed.auto)
    rng = random.Random(5)
    while not game.is_over:
        game.apply(*choose_action(game, rng))
    assert game.auto and min(game.auto) >= game.schema1_moves
    assert position(Game.replay(game.record())) == position(game)
