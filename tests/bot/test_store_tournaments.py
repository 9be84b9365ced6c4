"""The store's tournaments (issue 40) on SQLite and PostgreSQL: sign-up until the size or
the deadline, a round recorded once, a table opened once even by two stores (two
processes) at once, a table's outcome written by its game's end in the same transaction,
and the final standing owed once through the outbox."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

from bot.core.store import Seat, Store, open_store, stamp_of
from bot.core.store.tournaments import (
    ALREADY,
    CLOSED,
    DONE,
    FULL,
    JOINED,
    RUNNING,
    SIGNUP,
    TOURNAMENT_END,
    TournamentRow,
    outcome_json,
    table_outcome_write,
)

GUILD = 1 << 22


def a_tournament(**changes: object) -> TournamentRow:
    fields: dict[str, object] = {
        "id": 0,
        "guild_id": GUILD,
        "name": "Cup",
        "format": "swiss",
        "table_sizes": (3, 4),
        "rounds": 3,
        "advance": 1,
        "group_size": 4,
        "pace": "normal",
        "language": "en",
        "signup_until": None,
        "max_players": None,
        "status": SIGNUP,
        "organiser_id": "1",
        "channel_id": 50,
        "message_id": None,
        "created_at": stamp_of(datetime.now(UTC)),
        "started_at": None,
        "ended_at": None,
        "champion_id": None,
    }
    fields.update(changes)
    return TournamentRow(**fields)  # type: ignore[arg-type]


def seat(n: int) -> Seat:
    return Seat(str(100 + n), f"p{n}")


def now() -> str:
    return stamp_of(datetime.now(UTC))


async def test_sign_up_until_the_size_or_the_deadline(store: Store) -> None:
    full = await store.create_tournament(a_tournament(max_players=2))
    assert await store.join_tournament(full, seat(1), now()) == JOINED
    assert await store.join_tournament(full, seat(1), now()) == ALREADY
    assert await store.join_tournament(full, seat(2), now()) == JOINED
    assert await store.join_tournament(full, seat(3), now()) == FULL
    assert await store.leave_tournament(full, seat(1).user_id)
    assert await store.join_tournament(full, seat(3), now()) == JOINED
    record = await store.tournament_record(full)
    assert record is not None
    assert [e.user_id for e in record.entrants] == [seat(2).user_id, seat(3).user_id]
    past = stamp_of(datetime.now(UTC) - timedelta(hours=1))
    closed = await store.create_tournament(a_tournament(signup_until=past))
    assert await store.join_tournament(closed, seat(1), now()) == CLOSED
    # once started: no sign-up, no leaving; a drop-out instead
    assert await store.set_tournament_status(full, RUNNING, only_from=(SIGNUP,), at=now())
    assert await store.join_tournament(full, seat(4), now()) == CLOSED
    assert not await store.leave_tournament(full, seat(2).user_id)
    assert await store.drop_out(full, seat(2).user_id, now())
    assert not await store.drop_out(full, seat(2).user_id, now())
    record = await store.tournament_record(full)
    assert record is not None and [e.dropped for e in record.entrants] == [True, False]


async def running_with_a_round(store: Store) -> int:
    tournament = await store.create_tournament(a_tournament())
    for n in range(7):
        await store.join_tournament(tournament, seat(n), now())
    await store.set_tournament_status(tournament, RUNNING, only_from=(SIGNUP,), at=now())
    tables = [[seat(n).user_id for n in range(4)], [seat(n).user_id for n in range(4, 7)]]
    assert await store.record_round(tournament, 1, tables, [])
    assert not await store.record_round(tournament, 1, [tables[0]], [seat(6).user_id])
    return tournament


async def open_table(store: Store, tournament: int, table: int, channel: int) -> int | None:
    players = [seat(n) for n in (range(4) if table == 1 else range(4, 7))]
    row = await store.open_tournament_table(
        GUILD,
        tournament,
        1,
        table,
        players,
        channel_id=channel,
        thread_id=channel,
        language="en",
        turn_seconds=3600,
        auction_seconds=1800,
    )
    return None if row is None else row.id


async def test_a_round_is_recorded_once_and_each_table_opened_once(store: Store) -> None:
    tournament = await running_with_a_round(store)
    record = await store.tournament_record(tournament)
    assert record is not None and record.last_round == 1
    assert [len(t.players) for t in record.tables[1]] == [4, 3] and record.byes == {}
    first = await open_table(store, tournament, 1, 900)
    assert first is not None
    assert await open_table(store, tournament, 1, 901) is None  # a second pass: nothing
    second = await open_table(store, tournament, 2, 902)
    record = await store.tournament_record(tournament)
    assert record is not None
    assert [t.game_id for t in record.tables[1]] == [first, second]
    assert [t.game_status for t in record.tables[1]] == ["lobby", "lobby"]
    assert await store.tournament_of_game(first) == (tournament, record.tables[1][0].players)
    rows = await store.query("SELECT COUNT(*) FROM games")
    assert int(rows[0][0]) == 2


async def test_two_processes_opening_the_same_table_open_it_once(database: str) -> None:
    stores = [await open_store(database) for _ in range(2)]
    try:
        tournament = await running_with_a_round(stores[0])
        opened = await asyncio.gather(
            *(open_table(s, tournament, 1, 900 + i) for i, s in enumerate(stores)),
            open_table(stores[1], tournament, 2, 910),
            open_table(stores[0], tournament, 2, 911),
        )
        assert sum(game is not None for game in opened[:2]) == 1
        assert sum(game is not None for game in opened[2:]) == 1
        rows = await stores[0].query("SELECT COUNT(*) FROM games")
        assert int(rows[0][0]) == 2
    finally:
        for s in stores:
            await s.close()


async def test_the_outcome_is_written_once_and_the_end_owed_once(store: Store) -> None:
    tournament = await running_with_a_round(store)
    game = await open_table(store, tournament, 1, 900)
    assert game is not None
    outcome = outcome_json([1, 2, 3, 4], [5, 4, 3, 2])
    await store.in_transaction(table_outcome_write(game, outcome))  # type: ignore[arg-type]
    await store.in_transaction(
        table_outcome_write(game, outcome_json([4, 3, 2, 1], [0] * 4))  # type: ignore[arg-type]
    )
    record = await store.tournament_record(tournament)
    assert record is not None and record.tables[1][0].outcome == json.loads(outcome)
    assert not await store.set_table_outcome(game, outcome_json([1] * 4, [0] * 4))
    body = {"tournament_id": tournament, "channel_id": 50}
    assert await store.finish_tournament(tournament, seat(0).user_id, game, body)
    assert not await store.finish_tournament(tournament, seat(1).user_id, game, body)
    row = await store.tournament(tournament)
    assert row is not None and row.status == DONE and row.champion_id == seat(0).user_id
    owed = [o for o in await store.owed(game) if o.kind == TOURNAMENT_END]
    assert len(owed) == 1 and owed[0].body == body
