"""A tournament's standings as a picture (issue 40.4): each player's points after each
round played to its end, the leaders in colour (`render.charts.standings_chart`), for
`/montana-tournament standings` once at least two rounds are complete.

The points after round k are the pure standings' (`tournament_pairing.standings`) over
the first k rounds; they are computed and the picture drawn in a thread, so the event
loop does not wait for them (the standings' read itself is unchanged).
"""

from __future__ import annotations

import asyncio

from bot.core.community.tournament_pairing import standings
from bot.core.community.tournaments import entrants_of, plan_from, played_of
from bot.core.store.tournaments import TournamentRecord
from i18n import Translator
from render.charts import StandingsChartWords, standings_chart

MIN_ROUNDS = 2
"""Rounds complete before the chart is shown (one round is a single step)."""
MOST_LINES = 8
"""The players drawn: the leaders (the others are in the table)."""


def complete_rounds(record: TournamentRecord) -> int:
    """How many rounds, from the first, have every table's outcome (the chart's rounds)."""
    complete = 0
    for number in sorted(set(record.tables) | set(record.byes)):
        if number != complete + 1 or any(t.outcome is None for t in record.tables.get(number, ())):
            break
        complete = number
    return complete


def has_picture(record: TournamentRecord) -> bool:
    """Whether the standings come with a chart (`MIN_ROUNDS` rounds complete)."""
    return complete_rounds(record) >= MIN_ROUNDS


def points_by_round(record: TournamentRecord) -> list[tuple[str, list[float]]]:
    """The current leaders (at most `MOST_LINES`, best first) and their points after
    each complete round; empty with fewer than `MIN_ROUNDS` complete rounds."""
    played = played_of(record)
    complete = complete_rounds(record)
    if complete < MIN_ROUNDS:
        return []
    plan = plan_from(record.tournament)
    entrants, dropped = entrants_of(record)
    after = [
        {s.user_id: s.points for s in standings(plan, entrants, played[:k], dropped)}
        for k in range(1, complete + 1)
    ]
    leaders = standings(plan, entrants, played[:complete], dropped)[:MOST_LINES]
    return [(s.user_id, [points.get(s.user_id, 0.0) for points in after]) for s in leaders]


def chart_words(record: TournamentRecord, rounds: int, t: Translator) -> StandingsChartWords:
    return StandingsChartWords(
        title=t.gettext("{name}: points after each round", name=record.tournament.name),
        subtitle=t.ngettext(
            "The leaders among {n} player after round {round}.",
            "The leaders among {n} players after round {round}.",
            len(record.entrants),
            round=rounds,
        ),
        round_word=t.gettext("round"),
    )


def _picture(record: TournamentRecord, t: Translator) -> bytes | None:
    lines = points_by_round(record)
    if not lines:
        return None
    names = {e.user_id: e.name for e in record.entrants}
    words = chart_words(record, len(lines[0][1]), t)
    return standings_chart([(names.get(user, user), points) for user, points in lines], words)


async def standings_picture(record: TournamentRecord, t: Translator) -> bytes | None:
    """The chart of the points after each complete round, in `t`'s language; None before
    two rounds are complete. Computed and drawn in a thread (for a 200-player Swiss of 7
    rounds, about 25 ms of standings and 15 ms of drawing): the event loop goes on."""
    return await asyncio.to_thread(_picture, record, t)


__all__ = [
    "MOST_LINES",
    "chart_words",
    "complete_rounds",
    "has_picture",
    "points_by_round",
    "standings_picture",
]
