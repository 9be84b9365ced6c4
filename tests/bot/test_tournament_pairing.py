"""Tournaments' seating and standings (issue 40), the pure part: the tables each round
seats, its byes, the standings and the champion, written out by hand for small fields,
and the promises held over many fields (no repeated meeting while it can be avoided, no
second bye while it can be avoided, nobody who dropped out seated).

RULES.md 10 decides the place inside one game: "Most settlements on the landscape wins.
Ties: most cows + canteens held; then most goods + coins + workers on the player board;
then (our ruling) a shared win." An `Outcome` carries those places; a shared place is
worth half a win against each player it is shared with.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from bot.core.community.tournament_pairing import (
    GROUPS,
    KNOCKOUT,
    SWISS,
    Outcome,
    Plan,
    PlayedRound,
    Seating,
    champion,
    game_points,
    playable,
    seat_round,
    standings,
)
from bot.tourneybench import outcome_of

P = [f"p{n:02}" for n in range(1, 13)]


def played_as(
    seating: Seating | None, places: Sequence[tuple[int, ...] | None], settlements: int = 10
) -> PlayedRound:
    """`seating` played: each table's places in seat order (None: still being played);
    settlements `settlements - place`, so that a better place built more."""
    assert seating is not None
    return PlayedRound(
        seating.number,
        seating.tables,
        tuple(
            None if p is None else Outcome(t, p, tuple(settlements - x for x in p))
            for t, p in zip(seating.tables, places, strict=True)
        ),
        seating.byes,
    )


def line(
    plan: Plan, entrants: Sequence[str], played: list[PlayedRound], dropped: Sequence[str] = ()
) -> list[tuple[str, int, float, float]]:
    return [
        (s.user_id, s.rank, round(s.points, 3), round(s.opponents_points, 3))
        for s in standings(plan, entrants, played, dropped)
    ]


def test_a_games_points_are_the_share_of_the_table_beaten_a_shared_place_half() -> None:
    # RULES.md 10: "... then (our ruling) a shared win": a tie shares the place.
    assert game_points((1, 2, 3, 4)) == [1, pytest.approx(2 / 3), pytest.approx(1 / 3), 0]
    assert game_points((2, 1, 3)) == [0.5, 1, 0]
    assert game_points((1, 2)) == [1, 0]
    assert game_points((1, 1)) == [0.5, 0.5]
    assert game_points((1, 1, 3)) == [0.75, 0.75, 0]
    assert game_points((1, 2, 2, 4)) == [1, 0.5, 0.5, 0]


def test_a_swiss_of_10_over_3_rounds_at_tables_of_3_and_4_with_a_drop_out() -> None:
    plan = Plan(SWISS, (3, 4), rounds=3)
    entrants = P[:10]
    # round 1: sign-up order, 10 = 4 + 3 + 3 (largest tables first, no bye)
    first = seat_round(plan, entrants, [])
    assert first == Seating(
        1, (("p01", "p02", "p03", "p04"), ("p05", "p06", "p07"), ("p08", "p09", "p10")), ()
    )
    played = [played_as(first, [(1, 2, 3, 4), (2, 1, 3), (3, 2, 1)])]
    # a win 1, second of 4 2/3, second of 3 1/2...; opponents' points: p01 met p02, p03,
    # p04 (2/3 + 1/3 + 0); p10 and p06 tie on points and opponents: more settlements first
    assert line(plan, entrants, played)[:6] == [
        ("p01", 1, 1.0, 1.0),
        ("p06", 2, 1.0, 0.5),
        ("p10", 2, 1.0, 0.5),
        ("p02", 4, 0.667, 1.333),
        ("p05", 5, 0.5, 1.0),
        ("p09", 5, 0.5, 1.0),
    ]
    # p07 drops out: 9 left, three tables of 3 by standings. p01-p04 all met at table 1
    # and three tables cannot part four players, so one pair meets again: the lowest.
    second = seat_round(plan, entrants, played, dropped={"p07"})
    assert second == Seating(
        2, (("p01", "p06", "p10"), ("p02", "p05", "p09"), ("p03", "p04", "p08")), ()
    )
    played.append(played_as(second, [(2, 3, 1), (1, 2, 2), (1, 3, 2)]))
    table = standings(plan, entrants, played, dropped={"p07"})
    assert [s.user_id for s in table] == [
        "p10", "p02", "p01", "p03", "p06", "p09", "p05", "p08", "p04", "p07"
    ]  # fmt: skip
    assert [s.points for s in table][:3] == [2.0, pytest.approx(5 / 3), 1.5]
    assert [(s.games, s.dropped) for s in table][-2:] == [(2, False), (1, True)]
    # round 3: again one repeat is forced (four of p01-p04 left, three tables)
    third = seat_round(plan, entrants, played, dropped={"p07"})
    assert third == Seating(
        3, (("p10", "p02", "p04"), ("p01", "p05", "p08"), ("p03", "p06", "p09")), ()
    )
    assert champion(plan, entrants, played, dropped={"p07"}) is None
    played.append(played_as(third, [(2, 1, 3), (1, 2, 3), (3, 2, 1)]))
    assert seat_round(plan, entrants, played, dropped={"p07"}) is None
    assert champion(plan, entrants, played, dropped={"p07"}) == "p02"
    assert "p07" not in {p for r in played[1:] for t in r.seated for p in t}


def test_a_swiss_at_tables_of_4_gives_byes_to_the_lowest_never_twice() -> None:
    """Tables of 3-4 seat every field of 6 or more: a bye arises at tables of one size
    (here 4) or with 5 players or fewer. 10 at tables of 4: two byes, then 9 after a
    drop-out: one bye a round, to the lowest-ranked who had none."""
    plan = Plan(SWISS, (4,), rounds=3)
    entrants = P[:10]
    first = seat_round(plan, entrants, [])
    assert first == Seating(
        1, (("p01", "p02", "p03", "p04"), ("p05", "p06", "p07", "p08")), ("p09", "p10")
    )
    played = [played_as(first, [(1, 2, 3, 4), (4, 3, 2, 1)])]
    # a bye is worth half a win and meets nobody; complete ties share their rank
    assert line(plan, entrants, played) == [
        ("p01", 1, 1.0, 1.0),
        ("p08", 1, 1.0, 1.0),
        ("p02", 3, 0.667, 1.333),
        ("p07", 3, 0.667, 1.333),
        ("p09", 5, 0.5, 0.0),
        ("p10", 5, 0.5, 0.0),
        ("p03", 7, 0.333, 1.667),
        ("p06", 7, 0.333, 1.667),
        ("p04", 9, 0.0, 2.0),
        ("p05", 9, 0.0, 2.0),
    ]
    # p03 drops out: 9 = 8 seated + 1 bye, to p05 (last: tied with p04, signed up later)
    second = seat_round(plan, entrants, played, dropped={"p03"})
    assert second == Seating(
        2, (("p01", "p08", "p02", "p07"), ("p09", "p10", "p06", "p04")), ("p05",)
    )
    played.append(played_as(second, [(1, 2, 3, 4), (1, 2, 3, 4)]))
    # p04 is now the lowest who had no bye (p05, below, had one)
    third = seat_round(plan, entrants, played, dropped={"p03"})
    assert third is not None and third.byes == ("p04",)
    assert third.tables == (("p01", "p08", "p09", "p06"), ("p10", "p02", "p07", "p05"))
    played.append(played_as(third, [(1, 2, 3, 4), (1, 2, 3, 4)]))
    assert seat_round(plan, entrants, played, dropped={"p03"}) is None
    assert champion(plan, entrants, played, dropped={"p03"}) == "p01"
    byes = {s.user_id: s.byes for s in standings(plan, entrants, played, {"p03"})}
    assert {p for p, n in byes.items() if n} == {"p09", "p10", "p05", "p04"}


def test_standings_leave_unfinished_tables_out() -> None:
    plan = Plan(SWISS, (3,), rounds=2)
    first = seat_round(plan, P[:6], [])
    played = [played_as(first, [(1, 2, 3), None])]
    table = {s.user_id: s for s in standings(plan, P[:6], played)}
    assert (table["p01"].points, table["p01"].games) == (1.0, 1)
    assert (table["p04"].points, table["p04"].games) == (0.0, 0)
    assert champion(plan, P[:6], played) is None
    with pytest.raises(ValueError, match="still has a table being played"):
        seat_round(plan, P[:6], played)


def test_a_knockout_of_8_at_tables_of_4_two_going_on() -> None:
    plan = Plan(KNOCKOUT, (4,), advance=2)
    entrants = P[:8]
    first = seat_round(plan, entrants, [])
    assert first == Seating(1, (("p01", "p02", "p03", "p04"), ("p05", "p06", "p07", "p08")), ())
    played = [played_as(first, [(1, 2, 3, 4), (4, 3, 2, 1)])]
    # the top two of each table go on and make the final table
    final = seat_round(plan, entrants, played)
    assert final == Seating(2, (("p01", "p08", "p02", "p07"),), ())
    out = {s.user_id for s in standings(plan, entrants, played) if s.eliminated}
    assert out == {"p03", "p04", "p05", "p06"}
    played.append(played_as(final, [(2, 1, 4, 3)]))
    assert seat_round(plan, entrants, played) is None
    assert champion(plan, entrants, played) == "p08"
    # the final's places first, then those out in round 1 by their place there
    assert [s.user_id for s in standings(plan, entrants, played)][:4] == [
        "p08", "p01", "p07", "p02"
    ]  # fmt: skip


def test_a_knockout_of_8_in_pairs_and_a_drop_out() -> None:
    plan = Plan(KNOCKOUT, (2,))
    entrants = P[:8]
    first = seat_round(plan, entrants, [])
    assert first is not None
    assert first.tables == (("p01", "p02"), ("p03", "p04"), ("p05", "p06"), ("p07", "p08"))
    played = [played_as(first, [(1, 2), (1, 2), (1, 2), (1, 2)])]
    # p05 won but dropped out: eliminated, and the best of the rest of that table, p06,
    # goes on in their place
    second = seat_round(plan, entrants, played, dropped={"p05"})
    assert second == Seating(2, (("p01", "p03"), ("p07", "p06")), ())
    assert {s.user_id for s in standings(plan, entrants, played, {"p05"}) if s.eliminated} == {
        "p02", "p04", "p05", "p08"
    }  # fmt: skip
    played.append(played_as(second, [(2, 1), (2, 1)]))
    final = seat_round(plan, entrants, played, dropped={"p05"})
    assert final == Seating(3, (("p03", "p06"),), ())
    played.append(played_as(final, [(1, 1)]))
    # a shared win at the final (RULES.md 10, "a shared win"): the standings decide,
    # here the points (p03 won both earlier games, p06 lost to p05 and beat p07)
    assert champion(plan, entrants, played, dropped={"p05"}) == "p03"


def test_a_knockout_of_10_at_tables_of_4_gives_byes_that_go_on() -> None:
    plan = Plan(KNOCKOUT, (4,))
    entrants = P[:10]
    # 10 = two tables and two byes: 2 winners + 2 byes make the final table of 4
    first = seat_round(plan, entrants, [])
    assert first == Seating(
        1, (("p03", "p04", "p05", "p06"), ("p07", "p08", "p09", "p10")), ("p01", "p02")
    )
    played = [played_as(first, [(1, 2, 3, 4), (4, 3, 2, 1)])]
    final = seat_round(plan, entrants, played)
    assert final == Seating(2, (("p03", "p10", "p01", "p02"),), ())
    played.append(played_as(final, [(3, 1, 2, 4)]))
    assert champion(plan, entrants, played) == "p10"
    # 8 at tables of 4 where one goes on cannot come down to one table
    assert (
        not playable(plan, 8)
        and playable(plan, 10)
        and playable(Plan(KNOCKOUT, (4,), advance=2), 8)
    )


def test_groups_then_a_final_table() -> None:
    plan = Plan(GROUPS, (3, 4), group_size=4)
    entrants = P[:8]
    # two groups snake-seeded by sign-up: p01 p04 p05 p08 | p02 p03 p06 p07; a group that
    # fits one table plays one game: everyone in it meets everyone
    first = seat_round(plan, entrants, [])
    assert first == Seating(1, (("p01", "p04", "p05", "p08"), ("p02", "p03", "p06", "p07")), ())
    played = [played_as(first, [(1, 2, 3, 4), (2, 1, 4, 3)])]
    # the final seats 4: both winners, then both seconds
    final = seat_round(plan, entrants, played)
    assert final == Seating(2, (("p01", "p03", "p02", "p04"),), ())
    played.append(played_as(final, [(4, 3, 2, 1)]))
    assert seat_round(plan, entrants, played) is None
    assert champion(plan, entrants, played) == "p04"
    table = standings(plan, entrants, played)
    assert [(s.user_id, s.eliminated) for s in table][:5] == [
        ("p04", False), ("p02", False), ("p03", False), ("p01", False), ("p05", True)
    ]  # fmt: skip


def test_groups_of_10_send_the_winners_and_the_best_second() -> None:
    plan = Plan(GROUPS, (3, 4), group_size=4)
    first = seat_round(plan, P[:10], [])
    assert first == Seating(
        1, (("p01", "p06", "p07"), ("p02", "p05", "p08"), ("p03", "p04", "p09", "p10")), ()
    )
    played = [played_as(first, [(1, 2, 3), (1, 2, 3), (1, 2, 3, 4)])]
    # three winners, and of the seconds p04 (2/3 of a point, the others 1/2)
    final = seat_round(plan, P[:10], played)
    assert final == Seating(2, (("p03", "p01", "p02", "p04"),), ())


def test_groups_in_pairs_meet_every_pair_of_the_group_once() -> None:
    plan = Plan(GROUPS, (2,), group_size=4)
    entrants = P[:8]
    played: list[PlayedRound] = []
    expected = [
        (("p01", "p04"), ("p05", "p08"), ("p02", "p03"), ("p06", "p07")),
        (("p01", "p05"), ("p04", "p08"), ("p02", "p06"), ("p03", "p07")),
        (("p01", "p08"), ("p04", "p05"), ("p02", "p07"), ("p03", "p06")),
    ]
    for number, tables in enumerate(expected, start=1):
        seating = seat_round(plan, entrants, played)
        assert seating == Seating(number, tables, ())
        played.append(played_as(seating, [(1, 2)] * 4 if number < 3 else [(2, 1)] * 4))
    final = seat_round(plan, entrants, played)
    assert final == Seating(4, (("p01", "p02"),), ())


def test_groups_of_3_in_pairs_give_each_a_bye_once() -> None:
    plan = Plan(GROUPS, (2,), group_size=3)
    entrants = P[:6]  # groups p01 p04 p05 | p02 p03 p06
    played: list[PlayedRound] = []
    expected = [
        Seating(1, (("p01", "p04"), ("p02", "p03")), ("p05", "p06")),
        Seating(2, (("p01", "p05"), ("p02", "p06")), ("p04", "p03")),
        Seating(3, (("p04", "p05"), ("p03", "p06")), ("p01", "p02")),
        Seating(4, (("p01", "p02"),), ()),
    ]
    for seating in expected:
        assert seat_round(plan, entrants, played) == seating
        played.append(played_as(seating, [(1, 2)] * len(seating.tables)))
    assert champion(plan, entrants, played) == "p01"


def test_a_knockout_of_8_at_tables_of_3_and_4_plans_a_bye_to_reach_one_final_table() -> None:
    # 4 + 4 would leave two winners, no table: 4 + 3 and a bye leave three, the final
    plan = Plan(KNOCKOUT, (3, 4))
    first = seat_round(plan, P[:8], [])
    assert first == Seating(1, (("p02", "p03", "p04", "p05"), ("p06", "p07", "p08")), ("p01",))
    played = [played_as(first, [(2, 1, 3, 4), (3, 2, 1)])]
    assert seat_round(plan, P[:8], played) == Seating(2, (("p03", "p08", "p01"),), ())


def met_before(played: Sequence[PlayedRound]) -> dict[frozenset[str], int]:
    met: dict[frozenset[str], int] = {}
    for one in played:
        for table in one.seated:
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    return met


def repeats(tables: Sequence[Sequence[str]], met: dict[frozenset[str], int]) -> int:
    return sum(met.get(frozenset(p), 0) for t in tables for p in itertools.combinations(t, 2))


def fewest_repeats(players: list[str], sizes: list[int], met: dict[frozenset[str], int]) -> int:
    """Every way to seat `players` at tables of `sizes`, the least repeats among them."""
    if not players:
        return 0
    head, rest = players[0], players[1:]
    best = None
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            table = (head, *others)
            cost = repeats([table], met)
            if best is not None and cost >= best:
                continue
            tail = fewest_repeats([p for p in rest if p not in others], left, met)
            best = cost + tail if best is None else min(best, cost + tail)
    assert best is not None
    return best


@pytest.mark.parametrize("count", range(6, 41))
def test_nobody_meets_the_same_player_twice_while_it_can_be_avoided(count: int) -> None:
    """Each round of Swisses of 7 rounds at tables of 3-4 with random outcomes (a Swiss
    of 3 to 6 rounds is seated as their first rounds: the plan's rounds only say when
    it ends): up to 10 players, no seating of that round's players has fewer repeats
    (all tried); at any size, none when each player has met at most as many as there
    are tables less one (a seating without a repeat then exists: Hajnal and
    Szemeredi's theorem on equitable colourings)."""
    entrants = P + [f"q{n:02}" for n in range(count - len(P))] if count > len(P) else P[:count]
    for rounds, seed in ((7, count), (7, -count)):
        rng = random.Random(seed)
        plan = Plan(SWISS, (3, 4), rounds=rounds)
        played: list[PlayedRound] = []
        while (seating := seat_round(plan, entrants, played)) is not None:
            met = met_before(played)
            made = repeats(seating.tables, met)
            seated = [p for t in seating.tables for p in t]
            if made and count <= 10:
                sizes = [len(t) for t in seating.tables]
                assert made == fewest_repeats(seated, sizes, met), (rounds, seating)
            met_most = max(sum(1 for pair in met if p in pair) for p in seated)
            if met_most <= len(seating.tables) - 1:
                assert made == 0, (rounds, seating)
            played.append(
                PlayedRound(
                    seating.number,
                    seating.tables,
                    tuple(outcome_of(rng, t) for t in seating.tables),
                    seating.byes,
                )
            )
        assert len(played) == rounds


@pytest.mark.parametrize("count", range(5, 24))
def test_no_second_bye_while_it_can_be_avoided_and_the_dropped_never_seated(count: int) -> None:
    rng = random.Random(count)
    entrants = P + [f"q{n:02}" for n in range(count - len(P))] if count > len(P) else P[:count]
    plan = Plan(SWISS, (4,), rounds=6)
    played: list[PlayedRound] = []
    dropped: set[str] = set()
    had: dict[str, int] = dict.fromkeys(entrants, 0)
    while (seating := seat_round(plan, entrants, played, dropped)) is not None:
        everyone = [p for t in seating.tables for p in t] + list(seating.byes)
        assert sorted(everyone) == sorted(set(entrants) - dropped)
        assert len(seating.byes) == (len(everyone) % 4)
        if seating.byes:
            fewest = min(had[p] for p in everyone)
            given = sorted(had[p] for p in seating.byes)
            waiting = sorted(had[p] for p in everyone if p not in seating.byes)
            assert given[-1] <= waiting[0] and given[0] >= fewest, (seating, had)
        for p in seating.byes:
            had[p] += 1
        played.append(
            PlayedRound(
                seating.number,
                seating.tables,
                tuple(outcome_of(rng, t) for t in seating.tables),
                seating.byes,
            )
        )
        if seating.number == 2 and count > 5:
            dropped.add(rng.choice(sorted(set(entrants) - dropped)))
    assert len(played) == 6


def test_a_record_that_cannot_be_read_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        seat_round(Plan("league", (3, 4)), P[:6], [])
    with pytest.raises(ValueError, match="table sizes"):
        seat_round(Plan(SWISS, (5,)), P[:6], [])
    with pytest.raises(ValueError, match="listed twice"):
        standings(Plan(SWISS, (3,)), ["p01", "p01", "p02"], [])
    seating = seat_round(Plan(SWISS, (3,)), P[:6], [])
    wrong = PlayedRound(
        1,
        seating.tables if seating else (),
        (Outcome(("p01", "p02", "p04"), (1, 2, 3), (3, 2, 1)), None),
    )
    with pytest.raises(ValueError, match="not its table's"):
        standings(Plan(SWISS, (3,)), P[:6], [wrong])
