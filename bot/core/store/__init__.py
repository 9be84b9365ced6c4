"""Where the games are kept: one interface (`Store`), two databases.

`open_store(database)` picks by the database setting: a file path (or nothing: the
default file) keeps the embedded SQLite store (`sqlite.SqliteStore`); a
`postgresql://` URL uses a PostgreSQL server (`postgres.PostgresStore`, asyncpg).
Both run the same statements (`base.Store`, composed of a part per group of tables),
with the same guarantees: one transaction per move with the optimistic version (and
undo epoch) check, the append-only move log, migrations with a schema version, and a
refusal of a database made by a newer bot. Nothing outside this package writes SQL.
"""

from __future__ import annotations

from .base import AiTables, Store
from .deadlines import reminder_step
from .dialect import is_postgres, masked
from .drawn import Drawn, DrawnKey
from .model import (
    ABANDONED,
    ABSENT_AI_MOVE,
    ABSENT_AI_SEAT,
    ABSENT_MODES,
    ABSENT_WAIT,
    ACTIVE,
    AI_LEVELS,
    AI_PREFIX,
    AWAY_AI,
    AWAY_PAUSE,
    DEFAULT_AI_LEVEL,
    DEFAULT_AUCTION_SECONDS,
    DEFAULT_TURN_SECONDS,
    DM,
    ENDED,
    FINISHED,
    LOBBY,
    NOTICE,
    OPEN_STATUSES,
    PICTURE_MODES,
    PICTURES_END_OF_TURN,
    PICTURES_EVERY_MOVE,
    PICTURES_ON_REQUEST,
    POST,
    READ_WAIT_SECONDS,
    WRITE_WAIT_SECONDS,
    Away,
    ChannelBusy,
    DeadlineClock,
    GameRow,
    MoveRow,
    Owed,
    OwedMessage,
    Seat,
    StaleVersion,
    StoreError,
    UndoneMove,
    ai_seat_id,
    ai_seat_level,
    ai_seat_number,
    is_ai_seat,
    moment_of,
    now,
    stamp_of,
)
from .parts import AtEnd, Row, Shards, Statement, Tx
from .postgres import PostgresStore
from .queue import QueuedPlayer
from .ratings import (
    AI_LEVEL_PREFIX,
    FORGOTTEN_NAME,
    PlayerRating,
    RatedGame,
    RatingInputs,
    RatingTx,
    SeatResult,
    ServerRecord,
)
from .schema import MIGRATIONS, SCHEMA_VERSION, Native
from .seasons import Season, SeasonSeat
from .sqlite import ProcessLock, SqliteStore


async def open_store(
    database: str,
    *,
    exclusive: bool = False,
    shards: Shards | None = None,
    read_only: bool = False,
) -> Store:
    """The store named by the database setting: a `postgresql://` URL or a SQLite file
    path (see the module's docstring); `read_only` for a process that only reads (the
    web pages: no migration, writes refused, see `readonly`)."""
    chosen: type[Store] = PostgresStore if is_postgres(database) else SqliteStore
    return await chosen.open(database, exclusive=exclusive, shards=shards, read_only=read_only)


__all__ = [
    "ABANDONED",
    "ABSENT_AI_MOVE",
    "ABSENT_AI_SEAT",
    "ABSENT_MODES",
    "ABSENT_WAIT",
    "ACTIVE",
    "AI_LEVELS",
    "AI_LEVEL_PREFIX",
    "AI_PREFIX",
    "AWAY_AI",
    "AWAY_PAUSE",
    "DEFAULT_AI_LEVEL",
    "DEFAULT_AUCTION_SECONDS",
    "DEFAULT_TURN_SECONDS",
    "DM",
    "ENDED",
    "FINISHED",
    "FORGOTTEN_NAME",
    "LOBBY",
    "MIGRATIONS",
    "NOTICE",
    "OPEN_STATUSES",
    "PICTURES_END_OF_TURN",
    "PICTURES_EVERY_MOVE",
    "PICTURES_ON_REQUEST",
    "PICTURE_MODES",
    "POST",
    "READ_WAIT_SECONDS",
    "SCHEMA_VERSION",
    "WRITE_WAIT_SECONDS",
    "AiTables",
    "AtEnd",
    "Away",
    "ChannelBusy",
    "DeadlineClock",
    "Drawn",
    "DrawnKey",
    "GameRow",
    "MoveRow",
    "Native",
    "Owed",
    "OwedMessage",
    "PlayerRating",
    "PostgresStore",
    "ProcessLock",
    "QueuedPlayer",
    "RatedGame",
    "RatingInputs",
    "RatingTx",
    "Row",
    "Season",
    "SeasonSeat",
    "Seat",
    "SeatResult",
    "ServerRecord",
    "Shards",
    "SqliteStore",
    "StaleVersion",
    "Statement",
    "Store",
    "StoreError",
    "Tx",
    "UndoneMove",
    "ai_seat_id",
    "ai_seat_level",
    "ai_seat_number",
    "is_ai_seat",
    "is_postgres",
    "masked",
    "moment_of",
    "now",
    "open_store",
    "reminder_step",
    "stamp_of",
]
