"""Finding a table (issue 25 point 5): the server's queue of players waiting for a game,
and which of them make a table now. Pure: the front end reads the queue from the store
(`Store.queued_in`), asks `find_table`, then seats the table's players and starts the
game (`Store.seat_from_queue`, then the lobby's Start path of the service).

A table is players of the same pace and language, as many as every one of them accepts
(`QueuedPlayer.counts`); the largest game possible is preferred, then the players who
queued first. An entry expires `QUEUE_DAYS` days after it was queued; a player at their
server's limit of games under way (`bot.core.server.limits`) is not matched.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.clock.pace import PACES, pace_words
from bot.core.store import QueuedPlayer, moment_of, stamp_of
from i18n import LANGUAGE_NAMES, Translator, is_language, translatable

QUEUE_DAYS = 7
COUNTS = (2, 3, 4)
"""The player counts Montana is played with."""
ANY = "any"
PLAYER_CHOICES: dict[str, tuple[int, ...]] = {
    ANY: COUNTS,
    "2": (2,),
    "3": (3,),
    "4": (4,),
    "2-3": (2, 3),
    "3-4": (3, 4),
}
"""The `players:` option's values and the counts each accepts."""

ALREADY_QUEUED = translatable(
    "You are in this server's queue already (a player waits once per server). Withdraw "
    "below to change what you asked for."
)
NOT_QUEUED = translatable("You are not in this server's queue. Join it with {/game find}.")


@dataclass(frozen=True)
class Table:
    """Players found for one game, first queued first."""

    pace: str
    language: str
    players: tuple[QueuedPlayer, ...]

    @property
    def last_queued(self) -> QueuedPlayer:
        """The player who completed the table (their channel is the fallback)."""
        return max(self.players, key=lambda p: (p.queued_at, p.user_id))


def expiry_cut(moment: datetime) -> str:
    """The stamp before which an entry queued has expired at `moment`."""
    return stamp_of(moment - timedelta(days=QUEUE_DAYS))


def expires_at(entry: QueuedPlayer) -> datetime:
    return moment_of(entry.queued_at) + timedelta(days=QUEUE_DAYS)


def find_table(
    queue: Iterable[QueuedPlayer], *, at: datetime, at_limit: Collection[str] = ()
) -> Table | None:
    """The table to open now from the server's queue, or None.

    Entries expired at `at` and players in `at_limit` (at their limit of games under
    way) are left out. Players of one pace and language, as many as every one of them
    accepts: the largest such game; for one size, the players who queued first; between
    two groups of the same size, the one whose first player queued first."""
    cut = expiry_cut(at)
    waiting = sorted(
        (e for e in queue if e.queued_at >= cut and e.user_id not in at_limit),
        key=lambda e: (e.queued_at, e.user_id),
    )
    groups: dict[tuple[str, str], list[QueuedPlayer]] = {}
    for entry in waiting:
        groups.setdefault((entry.pace, entry.language), []).append(entry)
    best: Table | None = None
    for (pace, language), members in groups.items():
        for size in sorted(COUNTS, reverse=True):
            accepting = [e for e in members if size in e.counts]
            if len(accepting) < size:
                continue
            table = Table(pace, language, tuple(accepting[:size]))
            if best is None or _better(table, best):
                best = table
            break
    return best


def _better(table: Table, than: Table) -> bool:
    if len(table.players) != len(than.players):
        return len(table.players) > len(than.players)
    first, other = table.players[0], than.players[0]
    return (first.queued_at, first.user_id) < (other.queued_at, other.user_id)


# ---------------------------------------------------------------------- words


def counts_words(counts: Sequence[int], t: Translator) -> str:
    if tuple(counts) == COUNTS:
        return t.gettext("2 to 4 players")
    if len(counts) == 1:
        return t.ngettext("{n} player", "{n} players", counts[0])
    return t.gettext("{low} to {high} players", low=min(counts), high=max(counts))


def pace_in_words(pace: str, t: Translator) -> str:
    """A preset with its deadlines: "normal (turn deadline 24 hours, …)"."""
    return pace_words(*PACES[pace].seconds, t)


def language_name(code: str) -> str:
    return LANGUAGE_NAMES[code] if is_language(code) else code


def entry_words(entry: QueuedPlayer, t: Translator) -> str:
    """The asker's own entry, as shown to them alone."""
    return t.gettext(
        "**Your place in this server's queue**: a game of {counts}, pace {pace}, "
        "language: {language}. Queued <t:{since}:R>; it expires <t:{until}:R> unless a "
        "table is found before. When enough players like you are waiting, I open the "
        "game, seat you and mention you.",
        counts=counts_words(entry.counts, t),
        pace=pace_in_words(entry.pace, t),
        language=language_name(entry.language),
        since=int(moment_of(entry.queued_at).timestamp()),
        until=int(expires_at(entry).timestamp()),
    )


def table_found_words(table: Table, where: str, t: Translator) -> str:
    """The public line announcing the table, mentioning its players once."""
    return t.gettext(
        "**Montana** — the queue found a table: {players}. Your game ({n} players, pace "
        "{pace}, language: {language}) has started in {where}. Good game!",
        players=", ".join(f"<@{p.user_id}>" for p in table.players),
        n=len(table.players),
        pace=pace_in_words(table.pace, t),
        language=language_name(table.language),
        where=where,
    )


__all__ = [
    "ALREADY_QUEUED",
    "ANY",
    "COUNTS",
    "NOT_QUEUED",
    "PLAYER_CHOICES",
    "QUEUE_DAYS",
    "Table",
    "counts_words",
    "entry_words",
    "expires_at",
    "expiry_cut",
    "find_table",
    "language_name",
    "pace_in_words",
    "table_found_words",
]
