"""The AI's levels (ai/README.md "The levels"): each answers every kind of decision
with a legal move, the same one for the same seed, and the levels differ."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import ai
from ai.search import SearchPolicy
from rules import Game

from .helpers import play_through
from .test_play import DECISION_KINDS, SometimesRandomMain, moves_of, positions

LEVELS = ("easy", "normal", "hard")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_makes_only_legal_moves_in_every_kind_of_decision(level: str) -> None:
    kinds: Counter[str] = Counter()
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        ids = [f"p{i}" for i in range(players)]
        game = Game.new(ids, seed=seed)
        mixed = SometimesRandomMain(ai.get(level))
        # the other seats play the level too, so its answers to them are met as well
        policies = {pid: mixed if pid == "p0" else ai.get(level) for pid in ids}
        for position, pid, decision in play_through(game, policies, seed):
            assert decision.action in position.legal_actions(pid), (level, position.log[-3:])
            if pid == "p0" and len(position.log) not in mixed.forced:
                kinds[position.pending.kind] += 1
        assert game.is_over
    assert set(kinds) == DECISION_KINDS, kinds


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_gives_the_same_moves_for_the_same_seed(level: str) -> None:
    assert moves_of(5, level) == moves_of(5, level)


def test_the_easy_level_is_steered_by_its_seed() -> None:
    """Its noise comes from the policy's generator: another seed, another game."""
    assert moves_of(5, "easy") != moves_of(6, "easy")


@pytest.mark.parametrize("level", LEVELS)
def test_deciding_at_any_level_never_changes_the_game(level: str) -> None:
    for game in positions(7):
        pid = game.awaiting
        assert pid is not None
        before = game.to_dict()
        ai.get(level).decide(game, pid, random.Random(1))
        assert game.to_dict() == before


def test_ai_is_the_normal_level_and_the_levels_are_ordered_by_work() -> None:
    assert ai.LEVEL_NAMES == ("easy", "normal", "hard")
    normal, plain = ai.get("normal"), ai.get("ai")
    assert isinstance(normal, SearchPolicy) and isinstance(plain, SearchPolicy)
    assert (plain.nodes, plain.top, plain.samples, plain.noise) == (
        normal.nodes,
        normal.top,
        normal.samples,
        normal.noise,
    )
    easy, hard = ai.get("easy"), ai.get("hard")
    assert isinstance(easy, SearchPolicy) and isinstance(hard, SearchPolicy)
    assert easy.nodes < normal.nodes < hard.nodes
    assert hard.turns > normal.turns == 1
    assert easy.noise > 0 == normal.noise == hard.noise


def build_position() -> Game:
    """A position of a 2-player game where a main action may build."""
    game = Game.new(["ana", "ben"], seed=8)
    rng = random.Random(8)
    greedy = ai.get("greedy")
    while not game.is_over:
        pid = game.awaiting
        assert pid is not None
        legal = game.legal_actions(pid)
        if game.pending.kind == "main" and any(a.verb == "build" for a in legal):
            return game
        game.apply(pid, greedy.decide(game, pid, rng).action)
    raise AssertionError("no build became possible")


def test_the_easy_level_builds_whenever_it_can_whatever_its_noise() -> None:
    game = build_position()
    pid = game.awaiting
    assert pid is not None
    chosen = {ai.get("easy").decide(game, pid, random.Random(seed)).action for seed in range(12)}
    assert all(action.verb == "build" for action in chosen), chosen


def test_the_levels_take_options_and_refuse_unknown_ones() -> None:
    hard = ai.get("hard:nodes=300")
    assert isinstance(hard, SearchPolicy) and hard.nodes == 300 and hard.turns == 2
    with pytest.raises(ValueError, match="unknown easy option"):
        ai.get("easy:depth=3")
    with pytest.raises(ValueError, match="choose easy, normal, hard"):
        ai.get("expert")


def test_a_level_answers_from_a_saved_state() -> None:
    game = Game.new(["ana", "ben"], seed=2)
    pid = game.awaiting
    assert pid is not None
    decision = ai.decide_from_state(game.to_dict(), pid, "hard", seed=3)
    assert decision.action in game.legal_actions(pid)
