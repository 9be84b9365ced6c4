"""The store's statements about tournaments (issue 40), mixed into `base.Store`: a
server's tournaments, their entrants in sign-up order, each round's seating (its tables
and byes, recorded once), each table opened as a game once, and each table's outcome,
written by the game's end in its own transaction (`table_outcome_write`).

Seating a round is two steps, each idempotent, so that a crash between them or two
processes at once never open a table twice nor lose one: `record_round` writes the
round's tables and byes in one transaction (a second call for the same round changes
nothing: the round's row is its key), then `open_tournament_table` opens one table's
game in one transaction, only while the table has none (`tournament_tables` is keyed by
tournament, round and table; its game id is unique). A table opened and not yet started
is found in its lobby by the next pass, which starts it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .lobbies import insert_lobby
from .model import GameRow, Seat, now
from .parts import AtEnd, Row, StoreParts, Tx, guarded

SIGNUP, RUNNING, DONE, CANCELLED = "signup", "running", "finished", "cancelled"
"""A tournament's statuses: sign-up open, rounds under way, over, called off."""
TOURNAMENT_END = "tournament_end"
"""The outbox kind of a tournament's final standing and champion (owed once, on the game
whose end finished it; body: the tournament's id, channel and words' data)."""

JOINED, ALREADY, FULL, CLOSED = "joined", "already", "full", "closed"
"""What a sign-up gives (`join_tournament`)."""


@dataclass(frozen=True)
class TournamentRow:
    """One tournament as the organiser set it up, and where it stands."""

    id: int
    guild_id: int
    name: str
    format: str
    table_sizes: tuple[int, ...]
    rounds: int
    advance: int
    group_size: int
    pace: str
    language: str
    signup_until: str | None
    max_players: int | None
    status: str
    organiser_id: str
    channel_id: int
    message_id: int | None
    created_at: str
    started_at: str | None
    ended_at: str | None
    champion_id: str | None
    round_days: int | None = None
    """Each round's deadline in days after it was seated (None: a round waits for its
    games)."""


@dataclass(frozen=True)
class Entrant:
    user_id: str
    name: str
    joined_at: str
    dropped: bool


@dataclass(frozen=True)
class TournamentTable:
    """One table of a round: its players in seat order, its game once opened (and the
    game's status), its outcome once the game ended (`{"places": [...],
    "settlements": [...]}`, in the players' order)."""

    round: int
    number: int
    players: tuple[str, ...]
    game_id: int | None
    game_status: str | None
    outcome: dict[str, Any] | None


@dataclass(frozen=True)
class TournamentRecord:
    """Everything the pure functions read: entrants in sign-up order, the rounds seated
    (round number -> its tables, in table order), the byes by round."""

    tournament: TournamentRow
    entrants: tuple[Entrant, ...]
    tables: dict[int, tuple[TournamentTable, ...]]
    byes: dict[int, tuple[str, ...]]

    @property
    def last_round(self) -> int:
        return max([*self.tables, *self.byes], default=0)


class _Taken(Exception):
    """The table was opened meanwhile (or the round recorded): the transaction is undone."""


def _tournament_of(row: Row) -> TournamentRow:
    return TournamentRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        format=str(row["format"]),
        table_sizes=tuple(int(n) for n in str(row["table_sizes"]).split(",") if n),
        rounds=int(row["rounds"]),
        advance=int(row["advance"]),
        group_size=int(row["group_size"]),
        pace=str(row["pace"]),
        language=str(row["language"]),
        signup_until=row["signup_until"],
        max_players=None if row["max_players"] is None else int(row["max_players"]),
        status=str(row["status"]),
        organiser_id=str(row["organiser_id"]),
        channel_id=int(row["channel_id"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        created_at=str(row["created_at"]),
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        champion_id=row["champion_id"],
        round_days=None if row["round_days"] is None else int(row["round_days"]),
    )


def outcome_json(places: Sequence[int], settlements: Sequence[int]) -> str:
    return json.dumps({"places": list(places), "settlements": list(settlements)})


def table_outcome_write(game_id: int, outcome: str) -> AtEnd:
    """What a tournament game's end writes in its own transaction (`hooks.at_end`): the
    table's outcome, once (an outcome written already is kept)."""

    async def write(tx: Tx) -> None:
        await tx.execute(
            "UPDATE tournament_tables SET outcome = ? WHERE game_id = ? AND outcome IS NULL",
            (outcome, game_id),
        )

    return write


class TournamentTables(StoreParts):
    """Mixed into `Store`: these use its `query`, `transaction` and `_writing`."""

    @guarded
    async def create_tournament(self, tournament: TournamentRow) -> int:
        """Save a new tournament (its `id` is ignored); its id."""
        t = tournament
        async with self._writing() as tx:
            made = await tx.fetch(
                "INSERT INTO tournaments (guild_id, name, format, table_sizes, rounds, advance, "
                "group_size, pace, language, signup_until, max_players, status, organiser_id, "
                "channel_id, created_at, round_days) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "RETURNING id",
                (
                    t.guild_id,
                    t.name,
                    t.format,
                    ",".join(str(n) for n in t.table_sizes),
                    t.rounds,
                    t.advance,
                    t.group_size,
                    t.pace,
                    t.language,
                    t.signup_until,
                    t.max_players,
                    SIGNUP,
                    t.organiser_id,
                    t.channel_id,
                    t.created_at,
                    t.round_days,
                ),
            )
        return int(made[0][0])

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self.query("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return _tournament_of(rows[0]) if rows else None

    async def tournaments_of(
        self, guild_id: int, statuses: Sequence[str] = (SIGNUP, RUNNING, DONE)
    ) -> list[TournamentRow]:
        """The server's tournaments of these statuses, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self.query(
            f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC",
            (guild_id, *statuses),
        )
        return [_tournament_of(row) for row in rows]

    async def running_tournaments(self) -> list[int]:
        """The tournaments under way of this process's shards (a pass at start-up
        carries each on)."""
        rows = await self.query(
            "SELECT id FROM tournaments WHERE status = ?" + self._shard_filter() + " ORDER BY id",
            (RUNNING,),
        )
        return [int(row["id"]) for row in rows]

    async def round_deadlines(self) -> list[tuple[int, str, int]]:
        """(tournament, its current round's `seated_at`, its round days) of the running
        tournaments with a round deadline, of this process's shards: the deadline of a
        round is computed from what is stored, so a restart keeps it."""
        rows = await self.query(
            "SELECT t.id, r.seated_at, t.round_days FROM tournaments t "
            "JOIN tournament_rounds r ON r.tournament_id = t.id "
            "WHERE t.status = ? AND t.round_days IS NOT NULL AND r.round = "
            "(SELECT MAX(round) FROM tournament_rounds WHERE tournament_id = t.id)"
            + self._shard_filter("t.guild_id")
            + " ORDER BY t.id",
            (RUNNING,),
        )
        return [(int(row[0]), str(row[1]), int(row[2])) for row in rows]

    async def round_seated_at(self, tournament_id: int, number: int) -> str | None:
        rows = await self.query(
            "SELECT seated_at FROM tournament_rounds WHERE tournament_id = ? AND round = ?",
            (tournament_id, number),
        )
        return str(rows[0][0]) if rows else None

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        await self.transaction(
            [("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))]
        )

    @guarded
    async def join_tournament(self, tournament_id: int, seat: Seat, at: str) -> str:
        """Sign `seat` up: `JOINED`, or `ALREADY` (signed up before), `FULL` (the size
        is reached) or `CLOSED` (not in sign-up, or past its deadline `at`), nothing
        changed."""
        async with self._writing() as tx:
            # the tournament's row first: two sign-ups at once take turns on it
            open_ = await tx.execute(
                "UPDATE tournaments SET status = status WHERE id = ? AND status = ? "
                "AND (signup_until IS NULL OR signup_until > ?)",
                (tournament_id, SIGNUP, at),
            )
            if not open_:
                return CLOSED
            known = await tx.fetch(
                "SELECT dropped_at FROM tournament_entrants WHERE tournament_id = ? "
                "AND user_id = ?",
                (tournament_id, seat.user_id),
            )
            if known:
                return ALREADY
            room = await tx.fetch(
                "SELECT t.max_players, (SELECT COUNT(*) FROM tournament_entrants e "
                "WHERE e.tournament_id = t.id) FROM tournaments t WHERE t.id = ?",
                (tournament_id,),
            )
            if room[0][0] is not None and int(room[0][1]) >= int(room[0][0]):
                return FULL
            await tx.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) "
                "VALUES (?, ?, ?, ?)",
                (tournament_id, seat.user_id, seat.name, at),
            )
        return JOINED

    @guarded
    async def leave_tournament(self, tournament_id: int, user_id: str) -> bool:
        """Take back a sign-up while the sign-up is open; False if nothing changed."""
        async with self._writing() as tx:
            open_ = await tx.execute(
                "UPDATE tournaments SET status = status WHERE id = ? AND status = ?",
                (tournament_id, SIGNUP),
            )
            if not open_:
                return False
            return (
                await tx.execute(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
                > 0
            )

    async def drop_out(self, tournament_id: int, user_id: str, at: str) -> bool:
        """Mark an entrant of a running tournament dropped out (never seated again);
        False if they were not an entrant still in it."""
        counts = await self.transaction(
            [
                (
                    "UPDATE tournament_entrants SET dropped_at = ? WHERE tournament_id = ? "
                    "AND user_id = ? AND dropped_at IS NULL AND tournament_id IN "
                    "(SELECT id FROM tournaments WHERE status = ?)",
                    (at, tournament_id, user_id, RUNNING),
                )
            ]
        )
        return counts[0] > 0

    async def set_tournament_status(
        self, tournament_id: int, status: str, *, only_from: Sequence[str], at: str
    ) -> bool:
        """Move the tournament to `status` (started: `started_at`; ended:
        `ended_at`) if it is in one of `only_from`; whether it moved."""
        column = "started_at" if status == RUNNING else "ended_at"
        marks = ", ".join("?" for _ in only_from)
        counts = await self.transaction(
            [
                (
                    f"UPDATE tournaments SET status = ?, {column} = ? WHERE id = ? "
                    f"AND status IN ({marks})",
                    (status, at, tournament_id, *only_from),
                )
            ]
        )
        return counts[0] > 0

    async def tournament_record(self, tournament_id: int) -> TournamentRecord | None:
        tournament = await self.tournament(tournament_id)
        if tournament is None:
            return None
        entrants = await self.query(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY joined_at, user_id",
            (tournament_id,),
        )
        tables = await self.query(
            "SELECT t.round, t.table_number, t.players, t.game_id, t.outcome, g.status "
            "FROM tournament_tables t LEFT JOIN games g ON g.id = t.game_id "
            "WHERE t.tournament_id = ? ORDER BY t.round, t.table_number",
            (tournament_id,),
        )
        byes = await self.query(
            "SELECT round, user_id FROM tournament_byes WHERE tournament_id = ? "
            "ORDER BY round, user_id",
            (tournament_id,),
        )
        by_round: dict[int, list[TournamentTable]] = {}
        for row in tables:
            by_round.setdefault(int(row[0]), []).append(
                TournamentTable(
                    round=int(row[0]),
                    number=int(row[1]),
                    players=tuple(json.loads(row[2])),
                    game_id=None if row[3] is None else int(row[3]),
                    outcome=None if row[4] is None else json.loads(row[4]),
                    game_status=None if row[5] is None else str(row[5]),
                )
            )
        byes_of: dict[int, list[str]] = {}
        for row in byes:
            byes_of.setdefault(int(row[0]), []).append(str(row[1]))
        return TournamentRecord(
            tournament=tournament,
            entrants=tuple(
                Entrant(
                    str(row["user_id"]),
                    str(row["name"]),
                    str(row["joined_at"]),
                    row["dropped_at"] is not None,
                )
                for row in entrants
            ),
            tables={n: tuple(ts) for n, ts in by_round.items()},
            byes={n: tuple(bs) for n, bs in byes_of.items()},
        )

    @guarded
    async def record_round(
        self,
        tournament_id: int,
        number: int,
        tables: Sequence[Sequence[str]],
        byes: Sequence[str],
    ) -> bool:
        """Write round `number`'s seating (tables in order, byes) in one transaction,
        once: False (nothing changed) if the round was recorded already."""
        try:
            async with self._writing() as tx:
                made = await tx.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, seated_at) "
                    "VALUES (?, ?, ?) ON CONFLICT (tournament_id, round) DO NOTHING",
                    (tournament_id, number, now()),
                )
                if not made:
                    raise _Taken
                for index, players in enumerate(tables, start=1):
                    await tx.execute(
                        "INSERT INTO tournament_tables (tournament_id, round, table_number, "
                        "players) VALUES (?, ?, ?, ?)",
                        (tournament_id, number, index, json.dumps(list(players))),
                    )
                for user_id in byes:
                    await tx.execute(
                        "INSERT INTO tournament_byes (tournament_id, round, user_id) "
                        "VALUES (?, ?, ?)",
                        (tournament_id, number, user_id),
                    )
        except _Taken:
            return False
        return True

    @guarded
    async def open_tournament_table(
        self,
        guild_id: int,
        tournament_id: int,
        number: int,
        table: int,
        players: Sequence[Seat],
        *,
        channel_id: int,
        thread_id: int | None,
        language: str,
        turn_seconds: int,
        auction_seconds: int,
    ) -> GameRow | None:
        """In one transaction: open the game of table `table` of round `number` with
        `players` seated (in this order; the first is its opener), in its lobby until
        the service starts it, and note it on the table. None (nothing changed) if the
        table has its game already (another process, or a pass before a crash, opened
        it); `ChannelBusy` if the channel has a game already."""
        try:
            async with self._writing() as tx:
                # the table's row first: a second process waits here, then finds it taken
                free = await tx.execute(
                    "UPDATE tournament_tables SET players = players WHERE tournament_id = ? "
                    "AND round = ? AND table_number = ? AND game_id IS NULL",
                    (tournament_id, number, table),
                )
                if not free:
                    raise _Taken
                game_id = await insert_lobby(
                    tx,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    thread_id=thread_id,
                    players=players,
                    language=language,
                    deadlines=(turn_seconds, auction_seconds),
                )
                await tx.execute(
                    "UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ? "
                    "AND round = ? AND table_number = ?",
                    (game_id, tournament_id, number, table),
                )
        except _Taken:
            return None
        return await self.get(game_id)

    async def tournament_of_game(self, game_id: int) -> tuple[int, tuple[str, ...]] | None:
        """(tournament, the table's players in seating order) of a tournament's game;
        None for any other game."""
        rows = await self.query(
            "SELECT tournament_id, players FROM tournament_tables WHERE game_id = ?",
            (game_id,),
        )
        return (int(rows[0][0]), tuple(json.loads(rows[0][1]))) if rows else None

    async def set_table_outcome(self, game_id: int, outcome: str) -> bool:
        """A table's outcome written outside its game's end (an abandoned game's);
        False if it had one."""
        counts = await self.transaction(
            [
                (
                    "UPDATE tournament_tables SET outcome = ? WHERE game_id = ? "
                    "AND outcome IS NULL",
                    (outcome, game_id),
                )
            ]
        )
        return counts[0] > 0

    @guarded
    async def finish_tournament(
        self, tournament_id: int, champion: str | None, game_id: int, body: dict[str, Any]
    ) -> bool:
        """In one transaction: the tournament over with its champion, and its final
        standing owed once through the outbox (on `game_id`, its last game). False
        (nothing changed) if it was over already."""
        stamp = now()
        try:
            async with self._writing() as tx:
                ended = await tx.execute(
                    "UPDATE tournaments SET status = ?, ended_at = ?, champion_id = ? "
                    "WHERE id = ? AND status = ?",
                    (DONE, stamp, champion, tournament_id, RUNNING),
                )
                if not ended:
                    raise _Taken
                version = await tx.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
                await tx.execute(
                    "INSERT INTO outbox (game_id, version, kind, body, created_at, next_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        int(version[0][0]),
                        TOURNAMENT_END,
                        json.dumps(body),
                        stamp,
                        stamp,
                    ),
                )
        except _Taken:
            return False
        return True


__all__ = [
    "ALREADY",
    "CANCELLED",
    "CLOSED",
    "DONE",
    "FULL",
    "JOINED",
    "RUNNING",
    "SIGNUP",
    "TOURNAMENT_END",
    "Entrant",
    "TournamentRecord",
    "TournamentRow",
    "TournamentTable",
    "TournamentTables",
    "outcome_json",
    "table_outcome_write",
]
