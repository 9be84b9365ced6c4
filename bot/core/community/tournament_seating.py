"""How many tables of which sizes, and who sits at which (issue 40): the search behind
`tournament_pairing.seat_round`. Pure and deterministic: no clock, no randomness, and the
exhaustive search is bounded by a count of steps (`SEARCH_STEPS`), never by time.

A seating's cost is compared in order: first the repeated meetings (each pair at one table
counted once per earlier meeting of theirs), then the spread of points at the tables (the
sum over every pair at a table of the difference of their points), so that players of
equal points meet. The players come in rank order; ties everywhere go to the better rank.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import pairwise

SEARCH_STEPS = 40_000
"""Players tried at a table by the exhaustive search once the repairs leave a repeated
meeting: enough to try every seating of a field of 12 (at most about 36,000 were needed
in the fields tried), a bound beyond (at most about 0.1 s of CPU a seating
in Swisses of 6 to 40 players over 7 rounds)."""
TIGHTEN_PASSES = 8
"""Passes of swaps between neighbouring tables that bring equal points together."""


def partitions(count: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The ways to seat exactly `count` players at tables of `sizes`, largest tables
    first: the most tables of the largest size, then of the next size, and so on."""
    ordered = sorted(set(sizes), reverse=True)

    def ways(rest: int, at: int) -> Iterator[tuple[int, ...]]:
        if rest == 0:
            yield ()
            return
        if at == len(ordered):
            return
        size = ordered[at]
        for many in range(rest // size, -1, -1):
            for tail in ways(rest - many * size, at + 1):
                yield (size,) * many + tail

    yield from ways(count, 0)


@lru_cache(maxsize=1024)
def table_sizes(count: int, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The tables for `count` players with the fewest byes, largest tables first when
    there is a choice; `((), count)` when no table can be seated."""
    for byes in range(count + 1):
        for way in partitions(count - byes, sizes):
            if way:
                return way, byes
    return (), count


@lru_cache(maxsize=256)
def knockout_rounds(
    count: int, sizes: tuple[int, ...], advance: int
) -> tuple[tuple[tuple[int, ...], int] | None, ...]:
    """For every field of 0..`count` players of a knockout, its round's tables and byes
    (`None` when no final table can be reached from it): one table of everyone when the
    field fits one (the final), else the fewest byes, then the largest tables, among the
    rounds whose players going on (`min(advance, size - 1)` a table, and the byes) can
    still reach a final table."""
    plans: list[tuple[tuple[int, ...], int] | None] = [None, ((), 0)]
    for field in range(2, count + 1):
        plan: tuple[tuple[int, ...], int] | None = None
        if field in sizes:
            plan = ((field,), 0)
        for byes in range(field + 1):
            if plan is not None:
                break
            for way in partitions(field - byes, sizes):
                if not way:
                    continue
                going_on = sum(min(advance, size - 1) for size in way) + byes
                if going_on < field and plans[going_on] is not None:
                    plan = (way, byes)
                    break
        plans.append(plan)
    return tuple(plans[: count + 1])


def pair_cost(table: Sequence[int], met: list[list[int]], score: list[int]) -> tuple[int, int]:
    repeats = spread = 0
    for i, a in enumerate(table):
        row = met[a]
        for b in table[i + 1 :]:
            repeats += row[b]
            spread += abs(score[a] - score[b])
    return repeats, spread


def arrange(
    count: int, sizes: Sequence[int], met: list[list[int]], score: list[int]
) -> list[list[int]]:
    """Players 0..count-1 (in rank order) at tables of `sizes` (largest first), with the
    fewest repeated meetings, then the smallest spread of points, as far as the search
    goes: rank-order slices, then swaps that remove repeats (the nearest rank first),
    then an exhaustive search bounded by `SEARCH_STEPS` if a repeat is left, then swaps
    between neighbouring tables that narrow their points. Tables come best rank first,
    each in rank order."""
    tables: list[list[int]] = []
    start = 0
    for size in sorted(sizes, reverse=True):
        tables.append(list(range(start, start + size)))
        start += size
    where = [0] * count
    for number, table in enumerate(tables):
        for player in table:
            where[player] = number
    _repair(tables, where, met, score)
    if sum(pair_cost(t, met, score)[0] for t in tables) > 0:
        tables = _search(count, sizes, met, score, tables)
        for number, table in enumerate(tables):
            for player in table:
                where[player] = number
    _tighten(tables, where, met, score)
    return sorted((sorted(t) for t in tables), key=lambda t: t[0])


def _swap_delta(
    a: int,
    b: int,
    tables: list[list[int]],
    where: list[int],
    met: list[list[int]],
    score: list[int],
) -> tuple[int, int]:
    """What swapping `a` and `b` (at different tables) changes: repeats, spread."""
    at_a, at_b = tables[where[a]], tables[where[b]]
    row_a, row_b = met[a], met[b]
    sa, sb = score[a], score[b]
    repeats = spread = 0
    for x in at_a:
        if x != a:
            repeats += row_b[x] - row_a[x]
            spread += abs(sb - score[x]) - abs(sa - score[x])
    for y in at_b:
        if y != b:
            repeats += row_a[y] - row_b[y]
            spread += abs(sa - score[y]) - abs(sb - score[y])
    return repeats, spread


def _apply(a: int, b: int, tables: list[list[int]], where: list[int]) -> None:
    ta, tb = where[a], where[b]
    tables[ta][tables[ta].index(a)] = b
    tables[tb][tables[tb].index(b)] = a
    where[a], where[b] = tb, ta


def _repair(
    tables: list[list[int]], where: list[int], met: list[list[int]], score: list[int]
) -> None:
    """Swaps that remove repeated meetings, each the best for one player who has a repeat
    (fewest repeats, then the least spread, then the nearest rank), until none helps."""
    count = len(where)
    for _ in range(4 * count):
        improved = False
        for a in range(count):
            row = met[a]
            if not any(row[x] for x in tables[where[a]] if x != a):
                continue
            best: tuple[int, int, int, int] | None = None
            for b in range(count):
                if where[b] == where[a]:
                    continue
                repeats, spread = _swap_delta(a, b, tables, where, met, score)
                if repeats < 0:
                    key = (repeats, spread, abs(a - b), b)
                    if best is None or key < best:
                        best = key
            if best is not None:
                _apply(a, best[3], tables, where)
                improved = True
        if not improved:
            return


def _tighten(
    tables: list[list[int]], where: list[int], met: list[list[int]], score: list[int]
) -> None:
    """Swaps between tables next in rank that narrow the points without adding a repeat."""
    ordered = sorted(range(len(tables)), key=lambda n: min(tables[n]))
    for _ in range(TIGHTEN_PASSES):
        improved = False
        for first, second in pairwise(ordered):
            for a in list(tables[first]):
                for b in list(tables[second]):
                    if where[a] != first or where[b] != second:
                        continue
                    repeats, spread = _swap_delta(a, b, tables, where, met, score)
                    if repeats < 0 or (repeats == 0 and spread < 0):
                        _apply(a, b, tables, where)
                        improved = True
        if not improved:
            return


def _search(
    count: int,
    sizes: Sequence[int],
    met: list[list[int]],
    score: list[int],
    found: list[list[int]],
) -> list[list[int]]:
    """The seating of least (repeats, spread) among those tried, `found` to beat: the
    best-ranked free player heads the next table, its others taken in rank order."""
    best_cost = [sum(pair_cost(t, met, score)[i] for t in found) for i in (0, 1)]
    best = [list(t) for t in found]
    free = [True] * count
    left: dict[int, int] = {}
    for size in sizes:
        left[size] = left.get(size, 0) + 1
    chosen: list[list[int]] = []
    steps = [0]

    def seat(repeats: int, spread: int) -> None:
        head = next((p for p in range(count) if free[p]), None)
        if head is None:
            if repeats < best_cost[0]:
                best_cost[0], best_cost[1] = repeats, spread
                best[:] = [list(t) for t in chosen]
            return
        free[head] = False
        for size in sorted(left, reverse=True):
            if left[size] == 0:
                continue
            left[size] -= 1
            fill([head], size, head + 1, repeats, spread)
            left[size] += 1
        free[head] = True

    def fill(table: list[int], size: int, start: int, repeats: int, spread: int) -> None:
        if len(table) == size:
            chosen.append(list(table))
            seat(repeats, spread)
            chosen.pop()
            return
        for p in range(start, count):
            if not free[p]:
                continue
            steps[0] += 1
            if steps[0] > SEARCH_STEPS:
                return
            more_r = sum(met[p][x] for x in table)
            more_s = sum(abs(score[p] - score[x]) for x in table)
            r, s = repeats + more_r, spread + more_s
            if r >= best_cost[0]:
                continue
            free[p] = False
            table.append(p)
            fill(table, size, p + 1, r, s)
            table.pop()
            free[p] = True

    seat(0, 0)
    return best
