"""A stand-in for the pure seating and standings functions while they are not built
(`tournament_pairing` raises NotImplementedError): the tournament runtime's tests check
what the bot opened against whichever functions the bot calls, so they run on this one
until the real ones land, then on those unchanged."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.core.community import tournament_pairing as pairing
from bot.core.community.tournament_pairing import (
    GROUPS,
    KNOCKOUT,
    Plan,
    PlayedRound,
    Seating,
    Standing,
)


def built() -> bool:
    try:
        pairing.standings(Plan(pairing.SWISS, (2,)), ["a", "b"], [])
    except NotImplementedError:
        return False
    return True


def _split(players: list[str], sizes: tuple[int, ...]) -> tuple[list[tuple[str, ...]], list[str]]:
    """The most players seatable at tables of `sizes`, fewest tables; the rest sit out."""
    n = len(players)
    for seated in range(n, 0, -1):
        best: list[int] | None = None
        for big in range(seated // max(sizes) + 1):
            rest = seated - big * max(sizes)
            small = [s for s in sizes if s != max(sizes)]
            if rest == 0:
                best = [max(sizes)] * big
                break
            for size in small:
                if rest % size == 0:
                    best = [max(sizes)] * big + [size] * (rest // size)
                    break
            if best is not None:
                break
        if best is not None:
            tables, at = [], 0
            for size in best:
                tables.append(tuple(players[at : at + size]))
                at += size
            return tables, players[seated:]
    return [], players


def _points(played: Sequence[PlayedRound]) -> dict[str, float]:
    points: dict[str, float] = {}
    for r in played:
        for outcome in r.outcomes:
            if outcome is None:
                continue
            for player, place in zip(outcome.players, outcome.places, strict=True):
                points[player] = points.get(player, 0) + len(outcome.players) - place
        for bye in r.byes:
            points[bye] = points.get(bye, 0) + 1
    return points


def _advancing(plan: Plan, last: PlayedRound, dropped: Collection[str]) -> list[str]:
    going = list(last.byes)
    for outcome in last.outcomes:
        assert outcome is not None
        ranked = sorted(zip(outcome.places, outcome.players, strict=True))
        going += [p for place, p in ranked if place <= plan.advance]
    return [p for p in going if p not in dropped]


def seat_round(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> Seating | None:
    number = len(played) + 1
    active = [e for e in entrants if e not in dropped]
    if plan.format == KNOCKOUT:
        if played:
            if len(played[-1].seated) == 1 and not played[-1].byes:
                return None
            active = _advancing(plan, played[-1], dropped)
        if len(active) <= max(plan.table_sizes):
            return Seating(number, (tuple(active),), ())
        tables, byes = _split(active, plan.table_sizes)
        return Seating(number, tuple(tables), tuple(byes))
    if plan.format == GROUPS:
        if not played:
            tables, byes = _split(active, (plan.group_size, *plan.table_sizes))
            return Seating(number, tuple(tables), tuple(byes))
        if len(played) == 1:
            winners = _advancing(Plan(KNOCKOUT, plan.table_sizes), played[-1], dropped)
            return Seating(number, (tuple(winners[: max(plan.table_sizes)]),), ())
        return None
    if len(played) >= plan.rounds:
        return None
    points = _points(played)
    had_bye = {b for r in played for b in r.byes}
    order = sorted(active, key=lambda p: (-points.get(p, 0), entrants.index(p)))
    _, out = _split(order, plan.table_sizes)
    byes = []
    for player in reversed(order):
        if len(byes) == len(out):
            break
        if player not in had_bye:
            byes.append(player)
    byes += [p for p in reversed(order) if p not in byes][: len(out) - len(byes)]
    tables, _ = _split([p for p in order if p not in byes], plan.table_sizes)
    return Seating(number, tuple(tables), tuple(byes))


def standings(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> list[Standing]:
    points = _points(played)
    settled: dict[str, int] = {}
    games: dict[str, int] = {}
    for r in played:
        for outcome in r.outcomes:
            if outcome is None:
                continue
            for player, built_ in zip(outcome.players, outcome.settlements, strict=True):
                settled[player] = settled.get(player, 0) + built_
                games[player] = games.get(player, 0) + 1
    order = sorted(entrants, key=lambda p: (-points.get(p, 0), -settled.get(p, 0), p))
    return [
        Standing(
            p,
            i + 1,
            points.get(p, 0),
            0.0,
            settled.get(p, 0),
            games.get(p, 0),
            sum(p in r.byes for r in played),
            p in dropped,
            False,
        )
        for i, p in enumerate(order)
    ]


def champion(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> str | None:
    if seat_round(plan, entrants, played, dropped) is not None:
        return None
    if plan.format in (KNOCKOUT, GROUPS) and played:
        outcome = played[-1].outcomes[0]
        assert outcome is not None
        return min(zip(outcome.places, outcome.players, strict=True))[1]
    return standings(plan, entrants, played, dropped)[0].user_id
