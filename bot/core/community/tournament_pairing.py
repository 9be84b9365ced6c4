"""Tournaments' seating and standings (issue 40): pure functions of a tournament's record.

Nothing here reads a store or a clock and nothing is random: the same record gives the
same round, so seating a round again after a crash finds the tables already opened
(the store keys each table by tournament, round and table number).

A player is a user id (`str`). The record is the plan, the entrants in sign-up order,
the rounds played or under way and who dropped out; `seat_round` gives the next round's
tables and byes (or `None` when the tournament is over), `standings` the ranking at any
moment, finished tables counted and unfinished ones not.

Points. Inside a game the place is Montana's own final ranking (RULES.md 10, in
`Outcome.places`; a complete tie shares a place). Across games of 2, 3 or 4 players a
game is worth the share of the other players beaten, a shared place counting half:
`(beaten + tied / 2) / (n - 1)`, so a win is 1 and the last place 0 at every size, and
every table gives out on average half a point a player. A bye is worth that average,
half a point (`BYE_POINTS`), and meets nobody. Standings rank by points, then opponents'
points (Buchholz: the sum of the points of everyone met, once a game), then settlements
built, then sign-up order; a rank is shared when all but the sign-up order are equal. A
player who dropped out keeps their line, flagged; they are never seated again, never
champion.

Tables (`tournament_seating`): a round seats as many as it can at tables of the plan's
sizes, largest tables first when there is a choice (10 at 3-4: 4 + 3 + 3; 10 at 4:
4 + 4 and two byes). Players come in rank order (round 1: sign-up order); the tables
then have the fewest repeated meetings that the search finds (it tries every seating of
up to about 12 players, and the tests find no repeat where one is surely avoidable: when
every player has met fewer than there are tables), then equal points together as far as
swaps between neighbouring tables find. Each table lists its players best first; who
starts is for the game's start to draw.

Swiss: `plan.rounds` rounds, each as above; the byes go to those with the fewest byes,
the lowest-ranked first, so nobody has a second while someone has none. It ends early
if too few are left to seat a table. Champion: the first of the standings still in.

Groups then a final: `ceil(n / group_size)` groups as even as possible, snake-seeded by
sign-up order (p1 p2 p3 | p3' p2' p1'...). Round robin: each group plays rounds seated as
above (byes inside the group) until every two of its players have met once: a group that
fits one table plays one game; at tables of 2 a group of 4 plays 3 rounds, of 3 three
rounds with a bye each. Groups play side by side; one done waits. The final is one table
of the largest size the plan allows: every group's winner, then every group's second,
and so on, a row that does not fit all taken best points first. Its best place is
champion (a shared win: the standings decide). With one group there is no final.

Knockout by tables: the field still in is seated as above, the byes to those with the
fewest byes, best-ranked first; from each table the top `min(advance, size - 1)` go on
(a tie at the cut: the standings as that round ended), and every bye. A field that fits
one table plays the final; its winner is champion. The round is planned so that those
going on can still come down to one table (`knockout_rounds`, `playable`): the fewest
byes, then the largest tables, among those rounds. A player who dropped out is out, and
the next of their table goes on in their place. Standings: those who went further first,
then by their place at the table where they went out, then as above.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from bot.core.community.tournament_seating import arrange, knockout_rounds, table_sizes

SWISS = "swiss"
GROUPS = "groups"
KNOCKOUT = "knockout"
FORMATS = (SWISS, GROUPS, KNOCKOUT)


@dataclass(frozen=True)
class Plan:
    """What the organiser chose. `table_sizes`: the sizes a table may have, e.g. (3, 4);
    `rounds`: a Swiss's number of rounds (other formats derive theirs); `advance`: how
    many of each knockout table go on; `group_size`: the groups' size before the final."""

    format: str
    table_sizes: tuple[int, ...]
    rounds: int = 3
    advance: int = 1
    group_size: int = 4


@dataclass(frozen=True)
class Outcome:
    """A finished table: its players in seat order and each one's place (1 is best, a
    complete tie shares a place: RULES.md 10) and settlements built."""

    players: tuple[str, ...]
    places: tuple[int, ...]
    settlements: tuple[int, ...]


@dataclass(frozen=True)
class PlayedRound:
    """A round seated: its tables in table order (`None` for one still being played,
    with its players in `seated`), and its byes."""

    number: int
    seated: tuple[tuple[str, ...], ...]
    outcomes: tuple[Outcome | None, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seating:
    """The tables of the next round (each a tuple of players in seat order) and its byes."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    """One player's line: rank (shared by complete ties), points, the tie-breaks in the
    order they apply, games finished, byes had, and whether they dropped out or are
    out of a knockout."""

    user_id: str
    rank: int
    points: float
    opponents_points: float
    settlements: int
    games: int
    byes: int
    dropped: bool
    eliminated: bool


UNIT = 12
"""Points are counted in twelfths inside, exact for tables of 2-4 and shared places."""
BYE_UNITS = UNIT // 2
BYE_POINTS = BYE_UNITS / UNIT
"""What a bye is worth: half a win's, the average a game gives."""
TABLE_SIZES = (2, 3, 4)
"""The table sizes a plan may use: Montana's player counts."""


def game_units(places: Sequence[int]) -> list[int]:
    """Each seat's points of one game, in twelfths: the share of the other players it
    beat, a tie counting half, `(beaten + tied / 2) / (n - 1)`."""
    if not 2 <= len(places) <= max(TABLE_SIZES):
        raise ValueError(f"a game of {len(places)} players: Montana is for 2 to 4")
    return list(_units(tuple(places)))


@lru_cache(maxsize=4096)
def _units(places: tuple[int, ...]) -> tuple[int, ...]:
    per = UNIT // (2 * (len(places) - 1))
    return tuple(
        per * sum(2 if other > mine else 1 if other == mine else 0 for other in places) - per
        for mine in places
    )


def game_points(places: Sequence[int]) -> list[float]:
    """Each seat's points of one game (1 for a win, 0 for the last place)."""
    return [units / UNIT for units in game_units(places)]


@dataclass
class _Line:
    """One entrant's record, counted from the rounds."""

    index: int
    units: int = 0
    settlements: int = 0
    games: int = 0
    byes: int = 0
    last_round: int = 0
    last_units: int = -1
    opponents: list[str] = field(default_factory=list)


class _Record:
    """The record read once: every entrant's line, who met whom, and the ranking."""

    def __init__(
        self,
        plan: Plan,
        entrants: Sequence[str],
        played: Sequence[PlayedRound],
        dropped: Collection[str],
    ) -> None:
        _check(plan, entrants, played, dropped)
        self.plan = plan
        self.entrants = list(entrants)
        self.played = list(played)
        self.dropped = frozenset(dropped)
        self.lines = _tally(entrants, played)
        units = {p: line.units for p, line in self.lines.items()}
        self.opponents = {
            p: sum(units[o] for o in line.opponents) for p, line in self.lines.items()
        }
        self.ranking = sorted(entrants, key=self.key)

    @cached_property
    def met(self) -> dict[str, dict[str, int]]:
        """How many times each two players sat at one table (seating only needs it)."""
        met: dict[str, dict[str, int]] = {p: {} for p in self.entrants}
        for one in self.played:
            for table in one.seated:
                for a in table:
                    row = met[a]
                    for b in table:
                        if b != a:
                            row[b] = row.get(b, 0) + 1
        return met

    def key(self, player: str) -> tuple[int, int, int, int]:
        """Points, opponents' points, settlements (more is better), then sign-up order."""
        line = self.lines[player]
        return (-line.units, -self.opponents[player], -line.settlements, line.index)

    def active(self, players: Collection[str]) -> list[str]:
        """`players` still playing, in rank order."""
        wanted = set(players) - self.dropped
        return [p for p in self.ranking if p in wanted]

    def finished(self) -> bool:
        return not self.played or all(o is not None for o in self.played[-1].outcomes)

    def seat(
        self, players: list[str], sizes: tuple[int, ...], byes: int, lowest: bool
    ) -> tuple[list[tuple[str, ...]], list[str]]:
        """`players` (rank order) at tables of `sizes`, `byes` of them given a bye: those
        with the fewest byes, the lowest-ranked (`lowest`) or the best-ranked first."""
        position = {p: n for n, p in enumerate(players)}
        given = set(
            sorted(
                players,
                key=lambda p: (self.lines[p].byes, -position[p] if lowest else position[p]),
            )[:byes]
        )
        seated = [p for p in players if p not in given]
        at = {p: n for n, p in enumerate(seated)}
        met = [[0] * len(seated) for _ in seated]
        for a in seated:
            row = met[at[a]]
            for b, times in self.met[a].items():
                if b in at:
                    row[at[b]] = times
        score = [self.lines[p].units for p in seated]
        tables = arrange(len(seated), sizes, met, score)
        return [tuple(seated[i] for i in t) for t in tables], [p for p in players if p in given]


def _tally(entrants: Sequence[str], played: Sequence[PlayedRound]) -> dict[str, _Line]:
    lines = {p: _Line(n) for n, p in enumerate(entrants)}
    for one in played:
        for player in one.byes:
            line = lines[player]
            line.units += BYE_UNITS
            line.byes += 1
            line.last_round, line.last_units = one.number, BYE_UNITS
        for table, outcome in zip(one.seated, one.outcomes, strict=True):
            for player in table:
                lines[player].last_round, lines[player].last_units = one.number, -1
            if outcome is None:
                continue
            players = outcome.players
            for seat, units in enumerate(_units(tuple(outcome.places))):
                line = lines[players[seat]]
                line.units += units
                line.settlements += outcome.settlements[seat]
                line.games += 1
                line.last_units = units
                line.opponents += players[:seat] + players[seat + 1 :]
    return lines


def _check(
    plan: Plan, entrants: Sequence[str], played: Sequence[PlayedRound], dropped: Collection[str]
) -> None:
    """A clear error for a record these functions cannot read (a caller's mistake)."""
    if plan.format not in FORMATS:
        raise ValueError(f"unknown format {plan.format!r}: one of {FORMATS}")
    sizes = plan.table_sizes
    if not sizes or len(set(sizes)) != len(sizes) or not set(sizes) <= set(TABLE_SIZES):
        raise ValueError(f"table sizes {sizes!r}: distinct sizes among {TABLE_SIZES}")
    if plan.rounds < 1 or plan.advance < 1 or plan.group_size < 2:
        raise ValueError(f"rounds, advance >= 1 and group_size >= 2: {plan!r}")
    known = set(entrants)
    if len(known) != len(entrants):
        raise ValueError("an entrant is listed twice")
    if not set(dropped) <= known:
        raise ValueError("a player dropped out who is not an entrant")
    for number, one in enumerate(played, start=1):
        if one.number != number:
            raise ValueError(f"round {one.number} where round {number} was expected")
        if len(one.outcomes) != len(one.seated):
            raise ValueError(
                f"round {number}: {len(one.seated)} tables, outcomes for another count"
            )
        everyone = [p for t in one.seated for p in t] + list(one.byes)
        if len(set(everyone)) != len(everyone) or not set(everyone) <= known:
            raise ValueError(f"round {number}: a player seated twice or not an entrant")
        for table, outcome in zip(one.seated, one.outcomes, strict=True):
            if not 2 <= len(table) <= max(TABLE_SIZES):
                raise ValueError(f"round {number}: a table of {len(table)}")
            if outcome is None:
                continue
            if sorted(outcome.players) != sorted(table) or not (
                len(outcome.places) == len(outcome.settlements) == len(table)
            ):
                raise ValueError(f"round {number}: an outcome that is not its table's")
            if min(outcome.places) < 1:
                raise ValueError(f"round {number}: places start at 1")


def _groups(entrants: Sequence[str], group_size: int) -> list[list[str]]:
    """`ceil(n / group_size)` groups, snake-seeded in sign-up order (1, 2, 3, 3, 2, 1...)."""
    count = max(1, -(-len(entrants) // group_size))
    groups: list[list[str]] = [[] for _ in range(count)]
    for position, player in enumerate(entrants):
        lap, at = divmod(position, count)
        groups[at if lap % 2 == 0 else count - 1 - at].append(player)
    return groups


def _mixes(seated: tuple[tuple[str, ...], ...], group_of: dict[str, int]) -> bool:
    return any(len({group_of[p] for p in t}) > 1 for t in seated)


def _going_on(record: _Record, number: int) -> list[str]:
    """Who goes on from knockout round `number` (finished): the byes and the top
    `min(advance, size - 1)` of each table, one of the final's; a tie at the cut is
    broken by the standings as that round ended; a player who dropped out never."""
    one = record.played[number - 1]
    final = len(one.seated) == 1 and not one.byes
    ended: _Record | None = None
    going = [p for p in one.byes if p not in record.dropped]
    for table, outcome in zip(one.seated, one.outcomes, strict=True):
        assert outcome is not None
        room = 1 if final else min(record.plan.advance, len(table) - 1)
        place = dict(zip(outcome.players, outcome.places, strict=True))
        staying = sorted((p for p in table if p not in record.dropped), key=lambda p: place[p])
        if len(staying) > room and place[staying[room - 1]] == place[staying[room]]:
            if ended is None:
                ended = _Record(
                    record.plan, record.entrants, record.played[:number], record.dropped
                )
            staying.sort(key=lambda p: (place[p], ended.key(p)) if ended else place[p])
        going.extend(staying[:room])
    return going


def _knockout_field(record: _Record) -> tuple[list[str], bool]:
    """Who is still in (rank order), and whether the final has been played."""
    field = record.active(record.entrants)
    for one in record.played:
        if any(o is None for o in one.outcomes):
            field = record.active([p for t in one.seated for p in t] + list(one.byes))
            return field, False
        field = record.active(_going_on(record, one.number))
    last = record.played[-1] if record.played else None
    return field, last is not None and len(last.seated) == 1 and not last.byes


def _seat_knockout(record: _Record) -> Seating | None:
    field, final_played = _knockout_field(record)
    if final_played or len(field) <= 1:
        return None
    sizes = record.plan.table_sizes
    chosen = knockout_rounds(len(field), tuple(sorted(sizes)), record.plan.advance)[len(field)]
    if chosen is None:
        chosen = table_sizes(len(field), sizes)
        if not chosen[0]:
            return None
    tables, byes = record.seat(field, chosen[0], chosen[1], lowest=False)
    return Seating(len(record.played) + 1, tuple(tables), tuple(byes))


def _final_index(record: _Record, group_of: dict[str, int]) -> int | None:
    return next((n for n, one in enumerate(record.played) if _mixes(one.seated, group_of)), None)


def _seat_groups(record: _Record) -> Seating | None:
    plan = record.plan
    groups = _groups(record.entrants, plan.group_size)
    group_of = {p: n for n, g in enumerate(groups) for p in g}
    if _final_index(record, group_of) is not None:
        return None
    number = len(record.played) + 1
    members = [record.active(g) for g in groups]
    if len(record.played) < plan.group_size**2:
        tables: list[tuple[str, ...]] = []
        byes: list[str] = []
        for group in members:
            unmet = any(b not in record.met[a] for a in group for b in group if a != b)
            sizes, bye_count = table_sizes(len(group), plan.table_sizes)
            if unmet and sizes:
                seated, given = record.seat(group, sizes, bye_count, lowest=True)
                tables += seated
                byes += given
        if tables:
            return Seating(number, tuple(tables), tuple(byes))
    present = [g for g in members if g]
    fitting = [s for s in plan.table_sizes if s <= sum(len(g) for g in present)]
    if len(present) < 2 or not fitting:
        return None
    room = max(fitting)
    finalists: list[str] = []
    for tier in range(max(len(g) for g in present)):
        row = sorted((g[tier] for g in present if len(g) > tier), key=record.key)
        finalists += row[: room - len(finalists)]
    return Seating(number, (tuple(sorted(finalists, key=record.key)),), ())


def seat_round(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> Seating | None:
    """The next round's seating, or `None` when the tournament is over. Only called once
    every table of the last round in `played` is finished."""
    record = _Record(plan, entrants, played, dropped)
    if not record.finished():
        raise ValueError(f"round {len(played)} still has a table being played")
    if plan.format == KNOCKOUT:
        return _seat_knockout(record)
    if plan.format == GROUPS:
        return _seat_groups(record)
    if len(played) >= plan.rounds:
        return None
    field = record.active(entrants)
    sizes, bye_count = table_sizes(len(field), plan.table_sizes)
    if not sizes:
        return None
    tables, byes = record.seat(field, sizes, bye_count, lowest=True)
    return Seating(len(played) + 1, tuple(tables), tuple(byes))


def standings(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> list[Standing]:
    """Every entrant's standing, best first."""
    record = _Record(plan, entrants, played, dropped)
    lines = record.lines
    out: set[str] = set()
    stage: dict[str, tuple[int, ...]] = {}
    if plan.format == KNOCKOUT:
        field, _ = _knockout_field(record)
        alive = set(field)
        out = set(entrants) - alive
        for p in entrants:
            stage[p] = (-lines[p].last_round, p not in alive, -lines[p].last_units)
    elif plan.format == GROUPS:
        groups = _groups(entrants, plan.group_size)
        final = _final_index(record, {p: n for n, g in enumerate(groups) for p in g})
        if final is not None:
            finalists = {p for t in record.played[final].seated for p in t}
            out = set(entrants) - finalists
            for p in entrants:
                stage[p] = (p not in finalists, -lines[p].last_units if p in finalists else 0)
    keyed = sorted(entrants, key=lambda p: (stage.get(p, ()), record.key(p)))
    table: list[Standing] = []
    previous: tuple[object, ...] | None = None
    for position, player in enumerate(keyed, start=1):
        whole = (stage.get(player, ()), record.key(player)[:3])
        rank = table[-1].rank if whole == previous else position
        previous = whole
        line = lines[player]
        table.append(
            Standing(
                user_id=player,
                rank=rank,
                points=line.units / UNIT,
                opponents_points=record.opponents[player] / UNIT,
                settlements=line.settlements,
                games=line.games,
                byes=line.byes,
                dropped=player in record.dropped,
                eliminated=player in out,
            )
        )
    return table


def champion(
    plan: Plan,
    entrants: Sequence[str],
    played: Sequence[PlayedRound],
    dropped: Collection[str] = (),
) -> str | None:
    """The winner once the tournament is over (`seat_round` gives `None`), else `None`."""
    record = _Record(plan, entrants, played, dropped)
    if not record.finished() or seat_round(plan, entrants, played, dropped) is not None:
        return None
    return next(
        (
            s.user_id
            for s in standings(plan, entrants, played, dropped)
            if not s.dropped and not s.eliminated
        ),
        None,
    )


def playable(plan: Plan, count: int) -> bool:
    """Whether `count` entrants can play `plan` to its end: a table can be seated and, in
    a knockout, the players going on can come down to one final table (a knockout of 8
    at tables of 4 where one goes on cannot: its two winners make no table). When
    drop-outs make a knockout unplayable later, its rounds are seated with the fewest
    byes until no table can be, and the first of the standings still in is champion."""
    _check(plan, [], [], ())
    if not table_sizes(count, plan.table_sizes)[0]:
        return False
    if plan.format != KNOCKOUT:
        return True
    return knockout_rounds(count, tuple(sorted(plan.table_sizes)), plan.advance)[count] is not None
