"""The notation, the public API, refusals, saving (`to_dict`/`from_dict`) and replay
(issue 2 "Public API" and "Notation"; ARCHITECTURE.md "rules/")."""

from __future__ import annotations

import inspect
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import rules
from rules import SCHEMA_VERSION, Action, Game, IllegalAction, NotYourTurn, parse_action
from rules.simulate import choose_action
from tests.rules import helpers as h

NOTATION = re.compile(r"[a-z]+( [a-z0-9]+| [A-J][1-7])*")


def _random_positions(players: int, seed: int, steps: int) -> Iterator[Game]:
    """The positions of one random game (the simulator's policy), one per action."""
    game = Game.new(h.IDS[:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        yield game
        pid, action = choose_action(game, rng)
        game.apply(pid, action)


def _snapshot(game: Game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def test_public_api_names() -> None:
    """Issue 2 "Public API (other code and outside tests rely on exactly this)"."""
    for name in ("Game", "Action", "IllegalAction", "NotYourTurn", "parse_action", "Event"):
        assert name in rules.__all__ and hasattr(rules, name)
    for name in ("Result", "Standing", "data"):
        assert hasattr(rules, name)
    assert issubclass(NotYourTurn, IllegalAction) and issubclass(IllegalAction, ValueError)
    params = inspect.signature(Game.new).parameters
    assert params["seed"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["start_field"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["start_field"].default is None


def test_every_legal_action_writes_and_reads_back() -> None:
    """Issue 2 "Notation": "Lowercase words separated by single spaces"; "`str(action)` is its
    notation and `parse_action(text) -> Action` its inverse". Also: at every moment exactly
    one player is awaited, with a non-empty list of legal actions ("Who decides now")."""
    checked = 0
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        for game in _random_positions(players, seed, 250):
            awaited = game.awaiting
            assert awaited is not None
            legal = game.legal_actions(awaited)
            assert legal
            for pid in game.player_ids:
                if pid != awaited:
                    assert game.legal_actions(pid) == []
            for action in legal:
                text = str(action)
                assert NOTATION.fullmatch(text), text
                assert parse_action(text) == action
                checked += 1
    assert checked > 5000


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("bank 3 stone copper", "bank 3 copper stone"),
        ("  Recruit  ", "recruit"),
        ("build c4", "build C4"),
        ("harvest Garden 2 PUMPKIN grain", "harvest garden 2 grain pumpkin"),
        ("goods stone grain copper", "goods grain copper stone"),
        ("upgrade stone copper", "upgrade copper stone"),
        ("return pumpkin copper copper", "return copper copper pumpkin"),
        ("trade worker Grain", "trade worker grain"),
        ("advance 03", "advance 3"),
        ("city 2   4", "city 2 4"),
    ],
)
def test_notation_has_one_canonical_spelling(written: str, canonical: str) -> None:
    """actions.py: "lists of workers or goods are kept in a canonical order ... so
    `bank 3 stone copper` and `bank 3 copper stone` are the same action"."""
    assert str(parse_action(written)) == canonical
    assert parse_action(written) == parse_action(canonical)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("fly away", "unknown action 'fly'"),
        ("recruit now", "expected 'recruit'"),
        ("spin 9", "the segment must be a number from 1 to 8"),
        ("take copper", "expected 2 worker colour"),
        ("take copper gold", "'gold' is not a worker colour"),
        ("advance 8", "the steps must be a number from 0 to 7"),
        ("bank 5 copper", "the bank space must be a number from 1 to 4"),
        ("bank 1 copper copper copper copper", "expected 1 to 3 worker colour"),
        ("harvest forest 1 copper", "'forest' is not an area"),
        ("harvest mine 4 copper", "the place must be a number from 1 to 3"),
        ("city 5 1", "the row must be a number from 1 to 4"),
        ("place 1 0", "the column must be a number from 1 to 4"),
        ("upgrade grain", "only copper or stone can be upgraded"),
        ("goods copper copper", "expected 'goods G G G'"),
        ("trade bigstone", "expected 'trade GOOD'"),
        ("build", "expected 'build LABEL'"),
    ],
)
def test_malformed_notation_is_refused_in_plain_words(text: str, message: str) -> None:
    """Issue 2 "Notation" / actions.py: `parse_action` "raises `IllegalAction` when it is not
    notation", saying why."""
    with pytest.raises(IllegalAction, match=re.escape(message)):
        parse_action(text)


def test_apply_takes_an_action_or_its_notation_and_logs_it() -> None:
    """Issue 2: "`game.apply(player_id, action)` — accepts an action object or its notation";
    `version` is bumped by every accepted action (the log's length), chance steps included."""
    game = h.new_game(4, seed=1)
    h.set_workers(game, "ann", grain=1)
    before = game.version
    assert before == len(game.log)
    game.apply("ann", Action("bank", ("1", "grain")))
    assert game.version == before + 1 and game.log[-1] == ("ann", "bank 1 grain")
    h.set_goods(game, "bob", grain=0)
    h.set_cows(game, "bob", 0)
    game.apply("bob", "recruit")
    assert game.log[before + 1] == ("bob", "recruit")
    assert re.fullmatch(r"spin [1-8]", game.log[before + 2][1])
    assert game.log[before + 2][0] == "bob"
    assert game.version == len(game.log)


def test_a_player_cannot_spin_the_wheel() -> None:
    """Issue 2: "`game.apply(pid, "spin 3")` is refused except through `Game.replay`"."""
    game = h.new_game(4, seed=1)
    before = _snapshot(game)
    with pytest.raises(IllegalAction, match="spun by the game"):
        game.apply("ann", "spin 3")
    assert _snapshot(game) == before


def test_not_your_turn() -> None:
    """Issue 2: `NotYourTurn` "when `player_id` is not awaited" — also for someone who is not
    playing; the message names who the game waits for."""
    game = h.new_game(4, seed=1)
    before = _snapshot(game)
    with pytest.raises(NotYourTurn, match="the game is waiting for ann"):
        game.apply("bob", "recruit")
    with pytest.raises(NotYourTurn, match="'zed' is not playing"):
        game.apply("zed", "recruit")
    game.apply("ann", "city 1 1")
    with pytest.raises(NotYourTurn, match="waiting for bob"):
        game.apply("ann", "pass")
    assert game.awaiting == "bob"
    assert _snapshot(game) != before


def test_refusals_say_why_and_list_what_is_allowed() -> None:
    """Issue 2: "raises `IllegalAction` (a `ValueError`) whose message says in plain words
    why" — the message ends with the verbs allowed now."""
    game = h.new_game(4, seed=1)
    h.clear_workers(game, "ann")
    with pytest.raises(IllegalAction) as refused:
        game.apply("ann", "bank 1 copper")
    message = str(refused.value)
    assert "you do not have the workers copper (you have no workers)" in message
    allowed = message.split("Allowed now: ")[1].split(", ")
    assert allowed == sorted(h.verbs(game), key=allowed.index)
    assert "recruit" in allowed and "bank" not in allowed


def test_a_failed_apply_changes_nothing() -> None:
    """Issue 2: "validates before it changes anything ... A failed apply leaves the game
    exactly as it was" — for refusals at every kind of decision met in random games."""
    bad_moves = [
        "recruit",
        "bank 4 copper copper copper",
        "harvest wheatfield 3 grain",
        "city 1 4",
        "place 1 1",
        "build A1",
        "stop",
        "upgrade copper copper copper copper",
        "goods grain grain grain",
        "advance 7",
        "return copper copper copper copper copper",
        "extra pumpkin",
        "trade coins",
        "canteen",
        "end",
        "pass",
        "take copper copper",
        "spin 2",
    ]
    kinds_seen = set()
    for players, seed in ((3, 21), (4, 22)):
        for game in _random_positions(players, seed, 200):
            awaited = game.awaiting
            assert awaited is not None
            legal = {str(a) for a in game.legal_actions(awaited)}
            before = _snapshot(game)
            for move in bad_moves:
                if move in legal:
                    continue
                with pytest.raises(IllegalAction):
                    game.apply(awaited, move)
                assert game.version == len(game.log)
            other = next(p for p in game.player_ids if p != awaited)
            with pytest.raises(NotYourTurn):
                game.apply(other, sorted(legal)[0])
            assert _snapshot(game) == before
            kinds_seen.add(game.pending.kind)
    assert {"main", "advance", "bid", "reward", "build"} <= kinds_seen


def test_the_saved_state_has_the_documented_keys() -> None:
    """Issue 2 `to_dict`: "JSON-safe, with a schema `version` ... at least these keys:
    `players` (list, seat order) each with `id`, `coins`, `cows`, `canteens`,
    `settlements_left`, `goods` and `workers`; `supply` with `goods`, `workers`, `cows`;
    `board` with `fields` keyed by label (kind, cost, cow, canteen, settlements as a list of
    player ids); `log`"."""
    game = h.new_game(3, seed=4)
    h.settle(game, "bob", h.next_to_start(game))
    d = game.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["version"] == SCHEMA_VERSION
    assert [p["id"] for p in d["players"]] == ["ann", "bob", "cid"]
    for p in d["players"]:
        assert {"id", "coins", "cows", "canteens", "settlements_left", "goods", "workers"} <= set(p)
        assert set(p["goods"]) == set(rules.data.GOODS)
        assert set(p["workers"]) == set(rules.data.COLOURS)
    assert {"goods", "workers", "cows"} <= set(d["supply"])
    fields: dict[str, Any] = d["board"]["fields"]
    assert set(fields) == set(game.fields)
    for label, f in fields.items():
        assert {"kind", "cost", "cow", "canteen", "settlements"} <= set(f)
        assert f["settlements"] == game.fields[label].settlements
    assert any(f["settlements"] == ["bob"] for f in fields.values())
    assert d["log"] == [[pid, text] for pid, text in game.log]


def test_saved_states_round_trip_exactly_at_every_decision() -> None:
    """Issue 2: "`game.to_dict()` / `Game.from_dict(d)`: JSON-safe ... exact round trip",
    including in the middle of an auction, a recruit or a build; the restored game then
    plays on identically, wheel spins included."""
    for players, seed in ((2, 31), (4, 32)):
        for game in _random_positions(players, seed, 300):
            if game.version % 7:
                continue
            d = json.loads(json.dumps(game.to_dict()))
            restored = Game.from_dict(d)
            assert restored == game and restored.to_dict() == game.to_dict()
            rng_a, rng_b = random.Random(game.version), random.Random(game.version)
            original = game.copy()
            for _ in range(20):
                if original.is_over:
                    break
                pid, action = choose_action(original, rng_a)
                original.apply(pid, action)
                pid_b, action_b = choose_action(restored, rng_b)
                restored.apply(pid_b, action_b)
            assert restored == original


def test_a_copy_plays_on_alone_and_leaves_the_original_untouched() -> None:
    """Issue 14: `Game.copy()` is what AI players simulate from; a copy equals the
    game, plays on exactly as the game itself would (same wheel spins), and nothing
    done to the copy (builds, auctions, harvests, trades, the wheel) reaches the
    original."""
    for players, seed in ((2, 41), (4, 42)):
        for game in _random_positions(players, seed, 400):
            if game.version % 11:
                continue
            before = _snapshot(game)
            copy = game.copy()
            assert copy == game
            twin = Game.from_dict(game.to_dict())
            rng_copy, rng_twin = random.Random(game.version), random.Random(game.version)
            while not copy.is_over:
                copy.apply(*choose_action(copy, rng_copy))
                twin.apply(*choose_action(twin, rng_twin))
            assert copy == twin, "a copy plays on like the saved and restored game"
            assert _snapshot(game) == before, "the original did not change"


def test_an_unknown_schema_version_is_refused() -> None:
    """Issue 2: "with a schema `version`": a state saved under another schema is not read."""
    d = h.new_game(2, seed=1).to_dict()
    d["version"] = SCHEMA_VERSION + 1
    with pytest.raises(ValueError, match="schema version"):
        Game.from_dict(d)


def test_a_record_replays_to_the_identical_state() -> None:
    """Issue 2: "`game.record()` and `Game.replay(record) -> Game`: setup + actions, replayed
    without the random generator" — and the replayed game goes on drawing the same spins."""
    for players, seed in ((2, 41), (3, 42), (4, 43)):
        last = None
        for game in _random_positions(players, seed, 400):
            last = game
        assert last is not None
        record = json.loads(json.dumps(last.record()))
        assert set(record) >= {"players", "seed", "start_field", "actions"}
        replayed = Game.replay(record)
        assert replayed == last
        rng_a, rng_b = random.Random(1), random.Random(1)
        for _ in range(30):
            if last.is_over:
                break
            last.apply(*choose_action(last, rng_a))
            replayed.apply(*choose_action(replayed, rng_b))
        assert replayed == last


def test_replay_takes_the_spins_from_the_record() -> None:
    """Issue 2: "the spin result is logged as an action, so a record (setup + actions)
    replays"; replay uses the logged `spin N`, not the generator, and refuses an action that
    is illegal at its place in the record, naming it."""
    forced: dict[str, Any] = {
        "version": SCHEMA_VERSION,
        "players": ["ann", "bob"],
        "seed": 5,
        "start_field": None,
        "actions": [
            ["ann", "spin 4"],
            ["ann", "spin 4"],
            ["bob", "spin 6"],
            ["bob", "spin 6"],
            ["ann", "recruit"],
            ["ann", "spin 8"],
        ],
    }
    replayed = Game.replay(forced)
    assert replayed.player("ann").workers == {"copper": 4, "stone": 0, "grain": 2, "pumpkin": 0}
    assert replayed.player("bob").workers["stone"] == 4
    assert replayed.wheel == 8 and replayed.pending.kind == "advance"
    broken = dict(forced, actions=[*forced["actions"][:4], ["bob", "recruit"]])
    with pytest.raises(IllegalAction, match="record action 5 'bob: recruit'"):
        Game.replay(broken)


def test_a_finished_game_replays_to_the_same_result() -> None:
    """10 and issue 2: a complete game's record gives the same final ranking."""
    game = Game.new(h.IDS[:2], seed=77)
    rng = random.Random(77)
    while not game.is_over:
        game.apply(*choose_action(game, rng))
    replayed = Game.replay(game.record())
    assert replayed.is_over and replayed.result() == game.result()
    assert game.result().finished and game.awaiting is None


EVENT_DATA = {
    "recruit": set(),
    "spin": {"segment", "shows"},
    "workers": {"workers"},
    "advance": {"steps", "grain", "segment", "shows"},
    "return": {"workers"},
    "bank": {"space", "workers", "coins"},
    "harvest": {"area", "place", "workers", "coins", "goods"},
    "extra": {"area", "place", "workers", "goods"},
    "city": {"row", "column", "free_pumpkin"},
    "place": {"row", "column"},
    "overtaken": {"by", "row"},
    "pass": set(),
    "auction_end": {"city"},
    "pay": {"row", "column", "pumpkins"},
    "cannot_pay": {"row", "column", "pumpkins"},
    "reward": {"row", "upgraded", "gained"},
    "build": {"field", "paid", "settlements", "bonuses", "gained", "build_number"},
    "final_round": set(),
    "stop": {"builds", "coins"},
    "trade": {"gained", "worker"},
    "shortage": {"pool", "name", "needed", "returned"},
    "cleanup": {"cleared"},
    "canteen": {"canteens_left"},
    "turn_end": set(),
    "turn": {"number"},
    "game_over": {"winners"},
    "forced": {"action", "decision"},
}


def test_events_carry_the_documented_data() -> None:
    """Issue 2: "Apply returns events (what happened, for whom)" — the bot and the pictures
    read them, so every event of complete random games has a documented kind and exactly
    the documented data keys, and names a player of the game (or nobody)."""
    seen: set[str] = set()
    for players, seed in ((2, 51), (3, 52), (4, 53)):
        game = Game.new(h.IDS[:players], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            pid, action = choose_action(game, rng)
            for event in game.apply(pid, action):
                assert event.kind in EVENT_DATA, event
                assert set(event.data) == EVENT_DATA[event.kind], event
                assert event.player is None or event.player in game.player_ids
                if event.kind == "build":
                    assert set(event.data["gained"]) <= {"cows", "canteens"}
                seen.add(event.kind)
        assert json.loads(json.dumps(game.to_dict())) == game.to_dict()
    assert {"spin", "workers", "build", "stop", "turn", "turn_end", "game_over"} <= seen


def test_a_nested_decision_survives_saving() -> None:
    """Issue 2 "exact round trip" for the deepest state: the active player, overtaken in
    their own auction (6.3.3), trades a cow for a ninth worker (7.2) and must return one
    before answering; saved and restored there, the game goes on the same way."""
    game = h.new_game(3, seed=6)
    for pid in h.IDS[:3]:
        h.set_goods(game, pid, pumpkin=3)
    h.clear_workers(game, "ann")
    h.set_workers(game, "ann", stone=8)
    game.apply("ann", "city 2 1")
    game.apply("bob", "place 2 2")
    game.apply("ann", "trade worker grain")
    assert game.pending.kind == "return" and game.pending.resume is not None
    assert game.pending.resume.kind == "bid"
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored == game
    for copy in (game, restored):
        copy.apply("ann", "return stone")
        assert copy.pending.kind == "bid" and copy.awaiting == "ann"
        copy.apply("ann", "place 3 1")
        copy.apply("cid", "pass")
    assert restored == game
    assert game.player("ann").workers == {"copper": 0, "stone": 7, "grain": 1, "pumpkin": 0}


def test_a_hand_built_action_in_any_worker_order_is_the_same_move() -> None:
    """Notation: "lists of workers or goods are kept in a canonical order", so an Action
    built by hand with its colours in another order is the same move as the parsed one."""
    game = h.new_game(players=2, seed=3)
    pid = h.start_turn(game, 0)
    h.set_workers(game, pid, copper=1, stone=1)
    events = game.apply(pid, Action("bank", ("3", "stone", "copper")))
    assert h.kinds(events)[0] == "bank"
    assert game.bank[2] == ["copper", "stone"]
