"""A stored game as a game record (issue 23 points 3 and 5): `rules.record.dumps` with
the tags, moments, notes and moves taken back the store keeps. Works for every game
that has started, under way or past, including those finished before records existed:
the store's move log is all it needs."""

from __future__ import annotations

from bot.core.play.service import GameService
from bot.core.store import ABANDONED, ENDED, FINISHED, GameRow, Store
from rules.record import Undone, dumps, ranking_text

ENDED_RESULT = "ended by a vote"
ABANDONED_RESULT = "abandoned"
MOVES_AT_ONCE = 100_000
"""More log entries than any game has (a 4-player game has about 350)."""


def duration(seconds: int) -> str:
    """A deadline as a tag writes it: `48h`, `90m`, `45s`."""
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def file_name(row: GameRow) -> str:
    """The attachment's name: `montana-<game>.txt`."""
    return f"montana-{row.id}.txt"


async def record_text(store: Store, row: GameRow, *, server: str | None = None) -> str:
    """The record of a started game (`Refusal` for a lobby): `server` is the name of
    the Discord server it is played on (None outside one, e.g. the console)."""
    game = GameService.game_of(row)
    moves = await store.moves(row.id, limit=MOVES_AT_ONCE)
    notes = await store.move_notes(row.id)
    undone = await store.undone_moves(row.id)
    tags = {"Game": str(row.id)}
    if server:
        tags["Server"] = server  # written with its control characters blanked
    tags["Language"] = row.language
    tags["TurnDeadline"] = duration(row.turn_seconds)
    tags["AuctionDeadline"] = duration(row.auction_seconds)
    if moves:
        tags["Started"] = moves[0].at
    if row.status in (FINISHED, ENDED, ABANDONED):
        tags["Ended"] = row.updated_at
    if row.status == ENDED:
        tags["Result"] = ENDED_RESULT
        tags["Ranking"] = ranking_text(game)
    elif row.status == ABANDONED:
        tags["Result"] = ABANDONED_RESULT
    return dumps(
        game,
        tags,
        names=row.seat_names,  # cleaned by `Seat`
        moments=[move.at for move in moves],
        notes={version - 1: note for version, note in notes.items()},
        undone=[
            Undone(u.version, u.player, u.notation, u.at, u.note, u.undone_by, u.undone_at)
            for u in undone
        ],
    )
