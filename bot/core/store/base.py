"""The store's interface, written once for both databases: `Store`, composed of the
store's parts, one per group of tables with its statements beside it — a game's row
(`games`), its lobby and start (`lobbies`), its moves (`moves`), the messages it owes
(`outbox`), players away (`away`), deadlines (`deadlines`), AI seats (`aiseats`),
servers' settings (`guilds`), ratings, seasons, the queue, my games (`mine`), quiet hours,
pictures, the pictures drawn (`drawn`), the web pages, votes, players' wishes
(`prefs`), tournaments, the operators' reads — each on `parts.StoreParts`; its methods are the
only SQL of the bot.

A database is reached through three primitives each store provides
(`sqlite.SqliteStore`, `postgres.PostgresStore`): `_read` (rows of one statement),
`_writing` (a transaction, `Tx`, committed at the end of the block or rolled back) and
`_failure` (which errors are the database's weather, raised as `StoreError`).
Statements use `?` placeholders and SQLite's words; `dialect` translates them for
PostgreSQL, so a method added to a part works on both without more code.

`commit_move` checks the version it expects (`UPDATE ... WHERE version = ?`) so two
processes or two presses can never both apply a move to the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from .aiseats import AiSeatTables
from .away import AwayTables
from .deadlines import DeadlineTables
from .drawn import DrawnTables
from .games import GameTables
from .guilds import GuildTables
from .hours import HoursTables
from .lobbies import LobbyTables
from .mine import SeatTables
from .moves import MoveTables
from .operators import OperatorQueries
from .outbox import OutboxTables
from .parts import Shards, StoreParts
from .pictures import PictureTables
from .prefs import PlayerTables
from .queue import QueueTables
from .ratings import RatingTables
from .seasons import SeasonTables
from .sessions import SessionTables
from .tournaments import TournamentTables
from .votes import VoteTables
from .web import WebTables


class Store(
    GameTables,
    LobbyTables,
    MoveTables,
    OutboxTables,
    AwayTables,
    DeadlineTables,
    AiSeatTables,
    GuildTables,
    RatingTables,
    SeasonTables,
    OperatorQueries,
    PictureTables,
    DrawnTables,
    SeatTables,
    QueueTables,
    HoursTables,
    WebTables,
    SessionTables,
    VoteTables,
    PlayerTables,
    TournamentTables,
    StoreParts,
):
    """Open with `await Store.open(database)` (`open_store`); close with
    `await store.close()`. The statements are its parts'; the connection is the
    subclass's."""

    backends: ClassVar[list[type[Store]]] = []
    read_only = False
    """Opened to read only (the web process): every write raises `StoreError`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Store.backends.append(cls)

    @classmethod
    def handles(cls, database: str) -> bool:
        """Whether this store is the one for the database setting `database`."""
        return False

    @classmethod
    async def open(
        cls,
        database: str,
        *,
        exclusive: bool = False,
        shards: Shards | None = None,
        read_only: bool = False,
    ) -> Store:
        """Open (creating and migrating) the database named by `database`: a SQLite file
        path, or a `postgresql://` URL. `exclusive`: this process is the bot serving
        `shards` (all games if None); another process serving any of them is refused
        (`StartupError`). `read_only`: no migration, and every write fails (`readonly`)."""
        if cls is not Store:
            raise NotImplementedError
        chosen = next((b for b in reversed(Store.backends) if b.handles(database)), None)
        if chosen is None:
            raise ValueError(f"no store for {database!r}")
        return await chosen.open(database, exclusive=exclusive, shards=shards, read_only=read_only)

    async def close(self) -> None:
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def tables(self) -> list[str]:
        """The bot's tables (`schema_version` aside), `games` first: the others refer
        to it."""
        raise NotImplementedError

    async def after_copy(self) -> None:
        """Make the database ready for new rows after `copy.copy_database` wrote rows
        with their ids (PostgreSQL: move the identity columns past them)."""


class AiTables:
    """The store's part of the AI players
    (`bot.core.ai_players.ai_seats`), as named store methods."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def active_games(self) -> list[int]:
        """Every game under way of this process's shards (at start-up: those waiting
        for an AI go on)."""
        return await self.store.active_game_ids()

    async def games_taken_over(self) -> list[int]:
        return await self.store.games_with_seats_taken_over()

    async def set_absent(self, game_id: int, mode: str) -> None:
        await self.store.set_absent(game_id, mode)

    async def set_taken_over(
        self, game_id: int, seats: Sequence[str], *, expected: Sequence[str]
    ) -> bool:
        return await self.store.set_taken_over(game_id, seats, expected=expected)

    async def add_takeover_vote(self, game_id: int, player: str, voter: str, at: str) -> list[str]:
        return await self.store.add_takeover_vote(game_id, player, voter, at)

    async def lapse_takeover_votes(self, game_id: int, player: str, before: str) -> None:
        await self.store.lapse_takeover_votes(game_id, player, before)

    async def takeover_voters(self, game_id: int, player: str) -> list[str]:
        return await self.store.takeover_voters(game_id, player)
