"""Taking back one's own last moves (issue 11 point 2): "A player may take back their
own last move(s) while no other player has acted since and no random result (a wheel
spin) has been revealed since. The engine offers this as an operation on the game
record (the record stays exactly replayable)." Forced steps (RULES.md 7.3) that a move
caused are taken back with it; they are not another player acting."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from rules import Game, IllegalAction
from rules.simulate import choose_action
from tests.rules import helpers as h


def _snapshot(game: Game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def _truncated_replay(game: Game, entries: int) -> Game:
    record = game.record()
    record["actions"] = record["actions"][:entries]
    return Game.replay(record)


def test_an_undo_restores_the_exact_state_before_the_move() -> None:
    """In complete random games, after a move still in the window, `undo` gives the
    state saved just before that move (log, forced steps, generator and all), which is
    the replay of the record without the move's entries (checked after every 7th such
    move: each undo replays the game). A move followed by a spin (a recruit) cannot be
    taken back."""
    undone = refused = 0
    for players, seed in ((2, 21), (4, 22)):
        game = Game.new(h.IDS[:players], seed=seed)
        rng = random.Random(seed)
        undoable_moves = 0
        while not game.is_over:
            before, entries = _snapshot(game), len(game.log)
            pid, action = choose_action(game, rng)
            game.apply(pid, action)
            followed_by_spin = len(game.log) > entries + 1 and game.log[entries + 1][1].startswith(
                "spin"
            )
            if game.is_over or followed_by_spin:
                assert game.undoable(pid) == 0
                refused += 1
                continue
            assert game.undoable(pid) >= 1
            undoable_moves += 1
            if undoable_moves % 7 == 0:
                back = game.undo(pid)
                assert _snapshot(back) == before
                assert back == _truncated_replay(game, entries)
                undone += 1
    assert undone > 40 and refused > 20


def _first_position(predicate: Callable[[Game], object], seeds: range = range(30, 60)) -> Game:
    """The first position of seeded random 4-player games where `predicate` holds. Undo
    replays the record, so positions must come from real play, not be set by hand."""
    for seed in seeds:
        game = Game.new(h.IDS, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if predicate(game):
                return game
            game.apply(*choose_action(game, rng))
    raise AssertionError("no random game reaches the position this test needs")


def _legal_of(game: Game, verb: str) -> str:
    pid = game.awaiting
    assert pid is not None
    return next(str(a) for a in game.legal_actions(pid) if a.verb == verb)


def test_refused_after_another_player_acted() -> None:
    """ "while no other player has acted since": ann's bank move is hers to take back until
    bob, whose turn follows, makes his own move."""
    game = h.new_game(4, seed=1)
    game.apply("ann", _legal_of(game, "bank"))
    assert game.awaiting == "bob" and game.undoable("ann") == 1
    game.apply("bob", _legal_of(game, "bank"))
    assert game.undoable("ann") == 0
    with pytest.raises(IllegalAction, match="nothing to take back: bob has moved since"):
        game.undo("ann")
    assert game.undoable("bob") == 1


def test_refused_across_a_spin_but_the_wild_choice_after_it_can_be_taken_back() -> None:
    """ "... and no random result (a wheel spin) has been revealed since": a recruit is
    followed by its spin and cannot be taken back; the colours chosen for the wild
    segment after it can, and the same segment is shown again."""
    game = h.new_game(4, seed=1)
    h.recruit(game, 3)  # a wild segment (the spin is logged as `spin 3`)
    assert game.pending.kind == "take" and game.undoable("ann") == 0
    with pytest.raises(IllegalAction, match="the wheel has been spun since"):
        game.undo("ann")
    before = _snapshot(game)
    game.apply("ann", "take stone stone")
    assert game.undoable("ann") == 1
    back = game.undo("ann")
    assert _snapshot(back) == before
    assert back.pending.kind == "take" and back.wheel == 3
    back.apply("ann", "take copper grain")
    assert back.player("ann").workers["copper"] == game.player("ann").workers["copper"] + 1


def _main_action(verb: str, leads_to: Callable[[Game, str], bool]) -> Callable[[Game], str | None]:
    """What `_first_position` looks for: a main action `verb` of the awaited player after
    which `leads_to(game after it, player)` holds (tried on a copy); gives its notation."""

    def find(game: Game) -> str | None:
        pid = game.awaiting
        if game.pending.kind != "main" or pid is None:
            return None
        for action in game.legal_actions(pid):
            if action.verb == verb:
                trial = game.copy()
                trial.apply(pid, action)
                if leads_to(trial, pid):
                    return str(action)
        return None

    return find


def _next_player(game: Game, pid: str) -> str:
    return game.players[(game.seat_of(pid) + 1) % len(game.players)].id


_city_with_a_forced_pass = _main_action(
    "city",
    lambda after, pid: (
        after.log[-1] == (_next_player(after, pid), "pass") and after.pending.kind == "bid"
    ),
)
"""A city choice after which the next player passes by force and a later one is asked."""

_build_ending_the_turn = _main_action(
    "build", lambda after, pid: after.log[-1] == (pid, "stop") and after.turn_player != pid
)
"""A build after which the Build action stops by force and the next player's turn begins."""


def test_undo_of_a_city_choice_while_the_first_bidder_has_not_answered() -> None:
    """Issue 11: the turn player chooses the city; the next player, who can afford no
    space, passed by force (RULES.md 7.3: not another player acting); the one after has
    not answered. The city choice is taken back: the free pumpkin goes back, nobody
    stands in the city, the turn player chooses again."""
    game = _first_position(_city_with_a_forced_pass)
    city = _city_with_a_forced_pass(game)
    assert city is not None
    pid, before = game.turn_player, _snapshot(game)
    game.apply(pid, city)
    answering = game.awaiting
    assert answering is not None and answering != pid
    assert game.undoable(pid) == 1 and game.undoable(answering) == 0
    back = game.undo(pid)
    assert _snapshot(back) == before
    assert back.city_grid() == {} and back.awaiting == pid and back.pending.kind == "main"


def test_undo_of_the_last_build_after_the_turn_passed_on() -> None:
    """A player builds; nothing more can be built and they hold no cow, so the Build
    action stops by force and the turn passes to the next player, who has not acted:
    the build can still be taken back. The wheel's generator is where it was: a recruit
    now spins what it would have spun before the build."""
    game = _first_position(_build_ending_the_turn)
    build = _build_ending_the_turn(game)
    assert build is not None
    pid, before = game.turn_player, game.copy()
    game.apply(pid, build)
    assert game.turn_player != pid and game.awaiting == game.turn_player
    back = game.undo(pid)
    assert back == before and back.fields[build.split()[1]].settlements == []
    assert back.apply(pid, "recruit") == before.apply(pid, "recruit")


def test_each_undo_takes_back_one_more_move_while_in_the_window() -> None:
    """ "One undo takes back one real move (plus the forced entries that followed it); a
    second call takes back the one before if still in the window": ann trades her cow,
    then banks; two undos lead back to before the trade, a third is refused (before it
    lies the last setup spin)."""
    game = h.new_game(4, seed=1)
    states = [_snapshot(game)]
    game.apply("ann", "trade coins")
    states.append(_snapshot(game))
    game.apply("ann", _legal_of(game, "bank"))
    assert game.awaiting == "bob" and game.undoable("ann") == 2
    for expected in reversed(states):
        game = game.undo("ann")
        assert _snapshot(game) == expected
    assert game.undoable("ann") == 0
    with pytest.raises(IllegalAction, match="nothing to take back"):
        game.undo("ann")


def test_nothing_is_taken_back_once_the_game_is_over() -> None:
    """Issue 11: "nothing after the game is over"."""
    game = Game.new(h.IDS[:2], seed=23)
    rng = random.Random(23)
    while not game.is_over:
        game.apply(*choose_action(game, rng))
    for pid in game.player_ids:
        assert game.undoable(pid) == 0
        with pytest.raises(IllegalAction, match="the game is over"):
            game.undo(pid)


def test_a_stranger_cannot_undo() -> None:
    game = h.new_game(2, seed=1)
    with pytest.raises(IllegalAction, match="not playing"):
        game.undoable("zed")
