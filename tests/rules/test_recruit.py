"""RULES.md section 5: Action A — Recruit."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import Game, IllegalAction, data
from tests.rules import helpers as h


def _recruiter(grain: int = 0, cows: int = 0, **workers: int) -> Game:
    """Ann to act, with exactly these workers, grain and cows."""
    game = h.new_game(4, seed=1)
    h.clear_workers(game, "ann")
    h.set_workers(game, "ann", **workers)
    h.set_goods(game, "ann", grain=grain)
    h.set_cows(game, "ann", cows)
    return game


def test_rulebook_example_grey_and_orange_then_two_steps_for_two_orange() -> None:
    """5 "Rulebook example: the spin gives grey + orange; the player pays 2 grain to move 2
    segments and takes 2 more orange workers." (Segment 1 shows stone + pumpkin; two steps
    on is the wild segment 3, where the player chooses orange.)"""
    game = _recruiter(grain=2)
    grain_supply = game.supply.goods["grain"]
    events = h.recruit(game, 1)
    assert h.of_kind(events, "workers")[0].data["workers"] == {"stone": 1, "pumpkin": 1}
    assert game.pending.kind == "advance"
    events = game.apply("ann", "advance 2")
    assert h.of_kind(events, "advance")[0].data == {
        "steps": 2,
        "grain": 2,
        "segment": 3,
        "shows": ["wild", "wild"],
    }
    assert game.pending.kind == "take" and game.awaiting == "ann"
    events = game.apply("ann", "take pumpkin pumpkin")
    ann = game.player("ann")
    assert ann.workers == {"copper": 0, "stone": 1, "grain": 0, "pumpkin": 3}
    assert ann.goods["grain"] == 0
    assert game.supply.goods["grain"] == grain_supply + 2
    assert game.turn_player == "bob"
    h.assert_conserved(game)


def test_the_spin_takes_the_two_workers_shown() -> None:
    """5.1 "Spin: the arrow stops on one of the 8 segments ... Take the 2 workers shown.\""""
    for segment, shown in enumerate(data.WHEEL, start=1):
        if data.WILD in shown:
            continue
        game = _recruiter()
        h.recruit(game, segment)
        assert game.wheel == segment
        assert +Counter(game.player("ann").workers) == Counter(shown)


def test_the_wheel_segments_are_those_of_section_9() -> None:
    """9 "wheel segments, clockwise | 1 stone+pumpkin, 2 copper+grain, 3 wild+wild,
    4 copper+copper, 5 pumpkin+pumpkin, 6 stone+stone, 7 wild+wild, 8 grain+grain"."""
    assert data.WHEEL == (
        ("stone", "pumpkin"),
        ("copper", "grain"),
        ("wild", "wild"),
        ("copper", "copper"),
        ("pumpkin", "pumpkin"),
        ("stone", "stone"),
        ("wild", "wild"),
        ("grain", "grain"),
    )


def test_the_game_spins_every_segment_and_logs_it() -> None:
    """5.1 "the arrow stops on one of the 8 segments uniformly at random": the game's own
    generator draws every segment, and each draw is logged as `spin N`."""
    seen: Counter[int] = Counter()
    for seed in range(60):
        game = Game.new(h.IDS, seed=seed)
        spins = [int(n.split()[1]) for _pid, n in game.log if n.startswith("spin")]
        seen.update(spins)
    assert set(seen) == set(range(1, 9))
    assert min(seen.values()) > sum(seen.values()) / 8 / 2


def test_a_wild_segment_lets_the_player_choose_any_two_colours() -> None:
    """5.1 "A wild segment lets the player choose any 2 colours (equal or not).\""""
    game = _recruiter()
    h.recruit(game, 7)
    assert game.pending.kind == "take" and game.pending.context == "recruit"
    assert len(h.legal(game)) == 10  # 4 equal pairs + 6 mixed pairs
    game.apply("ann", "take grain copper")
    assert game.player("ann").workers == {"copper": 1, "stone": 0, "grain": 1, "pumpkin": 0}


def test_advance_costs_one_grain_per_segment_up_to_seven() -> None:
    """5.2 "pay K grain (1 ≤ K ≤ 7) to move the arrow K segments clockwise": the choices are
    0 (decline) to the grain held, at most 7."""
    game = _recruiter(grain=3)
    h.recruit(game, 4)
    assert h.legal(game) == {"advance 0", "advance 1", "advance 2", "advance 3"}
    game = _recruiter(grain=12)
    h.recruit(game, 4)
    assert {a for a in h.legal(game) if a.startswith("advance")} == {
        f"advance {k}" for k in range(8)
    }
    with pytest.raises(IllegalAction, match="from 0 to 7"):
        game.apply("ann", "advance 8")


def test_advance_moves_clockwise_around_the_wheel() -> None:
    """5.2 "move the arrow K segments clockwise, and take the 2 workers of that segment as
    well": from segment 8, one step reaches segment 1 (stone + pumpkin)."""
    game = _recruiter(grain=1)
    h.recruit(game, 8)
    game.apply("ann", "advance 1")
    assert game.wheel == 1
    assert game.player("ann").workers == {"copper": 0, "stone": 1, "grain": 2, "pumpkin": 1}
    assert game.player("ann").goods["grain"] == 0


def test_advance_is_optional_and_once_per_turn() -> None:
    """5.2 "Then, optionally and once per turn": `advance 0` declines and ends the recruit;
    after one advance the action is over."""
    game = _recruiter(grain=5)
    h.recruit(game, 2)
    game.apply("ann", "advance 0")
    assert game.player("ann").goods["grain"] == 5
    assert game.turn_player == "bob"
    game = _recruiter(grain=5)
    h.recruit(game, 2)
    game.apply("ann", "advance 2")
    assert game.turn_player == "bob" and game.pending.kind == "main"


def test_no_advance_question_without_grain_or_cow() -> None:
    """5.2 "pay K grain": a player with no grain (and no cow to trade for one) cannot pay,
    so the turn goes on at once."""
    game = _recruiter()
    h.recruit(game, 2)
    assert game.turn_player == "bob"


def test_a_cow_may_be_traded_for_the_grain_to_advance() -> None:
    """3 "at any moment of your own turn ... you may trade cows" with 5.2: without grain but
    with a cow, the player may trade it for a grain and then advance."""
    game = _recruiter(cows=1)
    h.recruit(game, 2)
    assert game.pending.kind == "advance"
    assert "trade grain" in h.legal(game) and "advance 1" not in h.legal(game)
    game.apply("ann", "trade grain")
    assert "advance 1" in h.legal(game)
    game.apply("ann", "advance 1")
    assert game.wheel == 3 and game.pending.kind == "take"


def test_over_eight_workers_the_player_returns_any_of_new_or_old() -> None:
    """5.3 "If the player now has more than 8 workers, they return the excess to the supply,
    choosing freely among new and old workers.\""""
    game = _recruiter(grain=1, copper=7)
    h.recruit(game, 5)  # pumpkin + pumpkin: 9 workers; the excess waits for the advance
    assert game.pending.kind == "advance"
    game.apply("ann", "advance 1")  # segment 6, stone + stone: 11 workers
    assert game.pending.kind == "return" and game.awaiting == "ann"
    assert "return copper copper copper" in h.legal(game)
    assert "return stone stone pumpkin" in h.legal(game)
    assert "return copper copper" not in h.legal(game)
    with pytest.raises(IllegalAction, match="return exactly 3"):
        game.apply("ann", "return grain grain grain")
    game.apply("ann", "return copper stone pumpkin")
    assert game.player("ann").workers == {"copper": 6, "stone": 1, "grain": 0, "pumpkin": 1}
    assert game.turn_player == "bob"
    h.assert_conserved(game)
