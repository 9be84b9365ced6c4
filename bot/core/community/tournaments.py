"""Tournaments a server runs itself (issue 40): what the organiser may choose (`Options`,
checked by `plan_of`: every bad option answered with what is allowed, nothing saved),
the record read back as the pure functions' input (`played_of`: the seating and the
standings are `bot.core.community.tournament_pairing`'s), each tournament game's
outcome written in its end's own transaction (`install`), and the words.

What runs a tournament (the rounds seated and opened, the final standing owed once) is
the front end's (`bot.discord_app.community.tournaments`), on these and the store's
statements (`bot.core.store.tournaments`).

Policy (docs/players.md, "Tournaments"):

* a tournament game is a game like any other: rated (`ratings`), counted by the
  server's limit of games under way for later lobbies and `/game find`, but never
  refused by it: its table is started without the lobby's checks;
* a game ended by the vote to end counts with its ranking of that moment, the overdue
  player last (as ratings place them); an abandoned game counts as a table where every
  player shares the last place with no settlement;
* a round has no clock of its own: it lasts as long as its slowest game, and each game
  is kept moving by its pace's deadlines, the server's absence policy and the vote to
  end (`bot.core.clock.deadlines`); the next round is seated when every game has ended;
* a player who drops out is not seated again; their games under way go on by the
  server's absence policy.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.community.ratings import placings
from bot.core.community.tournament_pairing import (
    GROUPS,
    KNOCKOUT,
    SWISS,
    Outcome,
    Plan,
    PlayedRound,
    Seating,
    Standing,
    champion,
    playable,
    seat_round,
    standings,
)
from bot.core.play.service import GameService
from bot.core.store import ABANDONED, GameRow, Tx, stamp_of
from bot.core.store.tournaments import (
    TournamentRecord,
    TournamentRow,
    outcome_json,
    table_outcome_write,
)
from bot.core.wording.refusals import Refusal
from i18n import Translator, translatable
from i18n.messages import Message
from rules import Game

NAME_LENGTH = 60
MAX_ROUNDS = 15
MAX_SIGNUP_HOURS = 30 * 24
MIN_SIZE, MAX_SIZE = 2, 256
MAX_GROUP = 8
TABLE_CHOICES: dict[str, tuple[int, ...]] = {
    "3-4": (3, 4),
    "2": (2,),
    "3": (3,),
    "4": (4,),
    "2-3": (2, 3),
    "2-4": (2, 3, 4),
}
"""The `tables:` option's values and the table sizes each allows (default "3-4")."""


@dataclass(frozen=True)
class Options:
    """What the organiser typed in `/montana-tournament new` (None: the default)."""

    name: str
    format: str = SWISS
    tables: str = "3-4"
    rounds: int | None = None
    advance: int | None = None
    group_size: int | None = None
    signup_hours: int | None = None
    size: int | None = None


NOTHING_CREATED = translatable("Nothing was created.")


def _refuse(message: Message, **fields: object) -> Refusal:
    """A refusal of `new`'s options, saying that nothing was created."""
    return Refusal(
        lambda t: t.pgettext(
            "sentences",
            "{text} {next}",
            text=t.translate(message, n=None, **fields),
            next=t.translate(NOTHING_CREATED),
        )
    )


def plan_of(options: Options) -> Plan:
    """The plan the options make, or a `Refusal` naming the option and what is allowed."""
    name = options.name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise _refuse(
            translatable("A tournament's name has 1 to {most} characters."), most=NAME_LENGTH
        )
    sizes = TABLE_CHOICES.get(options.tables)
    if sizes is None:
        raise _refuse(
            translatable("{/montana-tournament new:tables} is one of {allowed}."),
            allowed=", ".join(TABLE_CHOICES),
        )
    rounds = options.rounds if options.rounds is not None else 3
    if options.format != SWISS and options.rounds is not None:
        raise _refuse(
            translatable(
                "{/montana-tournament new:rounds} is for a Swiss tournament only: groups and "
                "knockouts take as many rounds as their tables need."
            )
        )
    if not 1 <= rounds <= MAX_ROUNDS:
        raise _refuse(
            translatable("{/montana-tournament new:rounds} is 1 to {most}."), most=MAX_ROUNDS
        )
    advance = options.advance if options.advance is not None else 1
    if options.format != KNOCKOUT and options.advance is not None:
        raise _refuse(translatable("{/montana-tournament new:advance} is for a knockout only."))
    if not 1 <= advance < min(sizes):
        raise _refuse(
            translatable(
                "{/montana-tournament new:advance} (how many of each table go on) is 1 to "
                "{most} with tables of {tables}."
            ),
            most=min(sizes) - 1,
            tables=options.tables,
        )
    group_size = options.group_size if options.group_size is not None else max(sizes)
    if options.format != GROUPS and options.group_size is not None:
        raise _refuse(translatable("{/montana-tournament new:group_size} is for groups only."))
    if not max(2, min(sizes)) <= group_size <= MAX_GROUP:
        raise _refuse(
            translatable(
                "{/montana-tournament new:group_size} is {least} to {most} with tables of {tables}."
            ),
            least=max(2, min(sizes)),
            most=MAX_GROUP,
            tables=options.tables,
        )
    if options.signup_hours is not None and not 1 <= options.signup_hours <= MAX_SIGNUP_HOURS:
        raise _refuse(
            translatable("{/montana-tournament new:signup_hours} is 1 to {most}."),
            most=MAX_SIGNUP_HOURS,
        )
    least = min(sizes) if options.format == SWISS else 2 * min(sizes)
    if options.size is not None and not max(MIN_SIZE, least) <= options.size <= MAX_SIZE:
        raise _refuse(
            translatable("{/montana-tournament new:size} is {least} to {most} for this format."),
            least=max(MIN_SIZE, least),
            most=MAX_SIZE,
        )
    return Plan(options.format, sizes, rounds=rounds, advance=advance, group_size=group_size)


def plan_from(row: TournamentRow) -> Plan:
    return Plan(
        row.format,
        row.table_sizes,
        rounds=row.rounds,
        advance=row.advance,
        group_size=row.group_size,
    )


def signup_until(options: Options, moment: datetime) -> str | None:
    if options.signup_hours is None:
        return None
    return stamp_of(moment + timedelta(hours=options.signup_hours))


def can_be_played(row: TournamentRow, count: int) -> bool:
    """Whether `count` entrants can play the tournament to its end (`playable`)."""
    return playable(plan_from(row), count)


def least_entrants(plan: Plan) -> int:
    """How many entrants a tournament needs to start."""
    return min(plan.table_sizes) if plan.format == SWISS else 2 * min(plan.table_sizes)


# ------------------------------------------------------------------ the record


def abandoned_outcome(players: Sequence[str]) -> str:
    """An abandoned table's outcome: every player shares the last place, no settlement."""
    return outcome_json([len(players)] * len(players), [0] * len(players))


def played_of(record: TournamentRecord) -> list[PlayedRound]:
    """The rounds seated, as the pure functions read them (an unfinished table: None)."""
    played = []
    for number in sorted(set(record.tables) | set(record.byes)):
        tables = record.tables.get(number, ())
        outcomes: list[Outcome | None] = []
        for table in tables:
            if table.outcome is None:
                outcomes.append(None)
                continue
            outcomes.append(
                Outcome(
                    table.players,
                    tuple(int(p) for p in table.outcome["places"]),
                    tuple(int(s) for s in table.outcome["settlements"]),
                )
            )
        played.append(
            PlayedRound(
                number,
                tuple(t.players for t in tables),
                tuple(outcomes),
                record.byes.get(number, ()),
            )
        )
    return played


def entrants_of(record: TournamentRecord) -> tuple[list[str], set[str]]:
    """The entrants in sign-up order and those who dropped out."""
    return (
        [e.user_id for e in record.entrants],
        {e.user_id for e in record.entrants if e.dropped},
    )


def next_seating(record: TournamentRecord) -> Seating | None:
    """The next round's tables and byes from the record, or None when it is over."""
    entrants, dropped = entrants_of(record)
    return seat_round(plan_from(record.tournament), entrants, played_of(record), dropped)


def standings_of(record: TournamentRecord) -> list[Standing]:
    """Every entrant's standing now (finished tables counted), best first."""
    entrants, dropped = entrants_of(record)
    return standings(plan_from(record.tournament), entrants, played_of(record), dropped)


def champion_of(record: TournamentRecord) -> str | None:
    """The winner once the tournament is over, else None."""
    entrants, dropped = entrants_of(record)
    return champion(plan_from(record.tournament), entrants, played_of(record), dropped)


def outcome_of(row: GameRow, game: Game, quitter: str | None, players: Sequence[str]) -> str:
    """A finished table's outcome, in its seating's order (`players`): each one's place
    (RULES.md 10; a quitter of a vote to end last alone) and settlements."""
    by_player = {p.seat.user_id: p for p in placings(row, game, quitter)}
    return outcome_json(
        [by_player[p].place for p in players], [by_player[p].settlements for p in players]
    )


def install(service: GameService) -> None:
    """Write a tournament game's outcome on its table in the transaction of its end (the
    last move, or the vote that ends it): a crash never loses a result nor counts one
    twice."""
    store = service.store

    async def at_end(
        row: GameRow, game: Game, ended_at: str, quitter: str | None
    ) -> Callable[[Tx], Awaitable[None]] | None:
        if row.guild_id is None:
            return None
        table = await store.tournament_of_game(row.id)
        if table is None:
            return None
        return table_outcome_write(row.id, outcome_of(row, game, quitter, table[1]))

    service.hooks.at_end.append(at_end)


def is_abandoned(status: str | None) -> bool:
    return status == ABANDONED


# ------------------------------------------------------------------ words

FORMAT_WORDS = {
    SWISS: translatable("Swiss"),
    GROUPS: translatable("groups, then a final table"),
    KNOCKOUT: translatable("knockout by tables"),
}


def format_words(row: TournamentRow, t: Translator) -> str:
    words = t.translate(FORMAT_WORDS[row.format])
    if row.format == SWISS:
        return t.ngettext("{format}, {n} round", "{format}, {n} rounds", row.rounds, format=words)
    if row.format == KNOCKOUT:
        return t.ngettext(
            "{format}: the top {n} of each table goes on",
            "{format}: the top {n} of each table go on",
            row.advance,
            format=words,
        )
    return t.gettext("{format}: groups of {n}", format=words, n=row.group_size)


def sizes_words(sizes: Sequence[int]) -> str:
    return "–".join(str(n) for n in (min(sizes), max(sizes))) if len(sizes) > 1 else str(sizes[0])


def standing_line(s: Standing, name: str) -> str:
    marks = (" ✗" if s.dropped else "") + (" ⤓" if s.eliminated else "")
    points = f"{s.points:g}"
    return (
        f"{s.rank:>3}. {name[:20]:<20} {points:>5} {s.opponents_points:>6g} "
        f"{s.settlements:>4} {s.games:>3}{marks}"
    )


def standings_header(t: Translator) -> str:
    return t.gettext("  #  player               points  opp.  sett. games")


def tie_breaks_words(t: Translator) -> str:
    return t.gettext(
        "Ranked by points for the places at each table (inside a game, Montana's own "
        "final ranking), then opponents' points (Buchholz), then settlements built. "
        "✗ dropped out, ⤓ out of the knockout."
    )


__all__ = [
    "FORMAT_WORDS",
    "NAME_LENGTH",
    "TABLE_CHOICES",
    "Options",
    "abandoned_outcome",
    "can_be_played",
    "champion_of",
    "entrants_of",
    "format_words",
    "install",
    "is_abandoned",
    "least_entrants",
    "next_seating",
    "outcome_of",
    "plan_from",
    "plan_of",
    "played_of",
    "signup_until",
    "sizes_words",
    "standing_line",
    "standings_header",
    "standings_of",
    "tie_breaks_words",
]
