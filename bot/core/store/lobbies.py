"""A game before it starts: its lobby made (one open game per channel), its seats,
the lobby's message, and the start that turns it into a game under way with its first
moves and the messages they owe (mixed into `base.Store`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .mine import seat_statements
from .model import ACTIVE, LOBBY, ChannelBusy, GameRow, OwedMessage, Seat, now, stamp_of
from .outbox import owed_inserts
from .parts import Statement, StoreParts, Tx, guarded
from .rows import seats_json, stored_state


async def insert_lobby(
    tx: Tx,
    *,
    guild_id: int | None,
    channel_id: int,
    thread_id: int | None,
    players: Sequence[Seat],
    language: str,
    deadlines: tuple[int, int] | None = None,
) -> int:
    """In transaction `tx`: a new game in its lobby with `players` seated (in this order;
    the first is its opener), and their seats (`mine.py`); its id. `deadlines`: its turn
    and auction seconds (None: the table's defaults). `ChannelBusy` if the channel or
    thread has a game open already. One statement for every way a lobby is made: a
    player's `/game new`, a table the queue found, a tournament's table."""
    busy = await tx.fetch(
        "SELECT id FROM games WHERE status IN ('lobby', 'active') "
        "AND (channel_id = ? OR thread_id = ?)",
        (channel_id, channel_id),
    )
    if busy:
        raise ChannelBusy(int(busy[0][0]))
    stamp = now()
    players_json = seats_json(players)
    columns = "guild_id, channel_id, thread_id, creator_id, status, players, version, "
    columns += "created_at, updated_at, language"
    values: list[Any] = [
        guild_id,
        channel_id,
        thread_id,
        players[0].user_id,
        LOBBY,
        players_json,
        0,
        stamp,
        stamp,
        language,
    ]
    if deadlines is not None:
        columns += ", turn_seconds, auction_seconds"
        values += list(deadlines)
    marks = ", ".join("?" for _ in values)
    made = await tx.fetch(
        f"INSERT INTO games ({columns}) VALUES ({marks}) RETURNING id", tuple(values)
    )
    game_id = int(made[0][0])
    for sql, params in seat_statements(game_id, players_json):
        await tx.execute(sql, params)  # each player's games (`mine.py`)
    return game_id


class LobbyTables(StoreParts):
    """Mixed into `base.Store`: lobbies and the start of a game."""

    @guarded
    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        creator: Seat,
        language: str = "en",
    ) -> GameRow:
        """A new game in its lobby, the creator seated; `ChannelBusy` if one is open here."""
        async with self._writing() as tx:
            game_id = await insert_lobby(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                players=[creator],
                language=language,
            )
        row = await self.get(game_id)
        assert row is not None
        return row

    async def set_players(
        self,
        game_id: int,
        players: Sequence[Seat],
        *,
        expected: Sequence[Seat] | None = None,
        creator: str | None = None,
    ) -> None:
        """Seat list of a game still in its lobby (and, if `expected` is given, still
        seating exactly those players); `StaleVersion` when it is not. `creator`: the
        lobby's opener from now on (None: unchanged)."""
        opener = ""
        params: list[object] = [seats_json(players), now()]
        if creator is not None:
            opener = ", creator_id = ?"
            params.append(creator)
        guard = ""
        params += [game_id, LOBBY]
        if expected is not None:
            guard = " AND players = ?"
            params.append(seats_json(expected))
        update = (
            "UPDATE games SET players = ?, updated_at = ?"
            + opener
            + " WHERE id = ? AND status = ?"
            + guard,
            tuple(params),
        )
        await self._checked(
            [update, *seat_statements(game_id, seats_json(players))],
            f"game {game_id} is no longer in its lobby with those players",
        )

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self.transaction(
            [("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id))]
        )

    async def start(
        self,
        game_id: int,
        players: Sequence[Seat],
        state: dict[str, Any] | str,
        moves: Sequence[tuple[str, str]],
        *,
        turn_events: dict[str, Any] | None = None,
        at: str | None = None,
        owed: Sequence[OwedMessage] = (),
    ) -> None:
        """Lobby -> active with the seated players and the engine's first state (a dict,
        or its JSON already made), stamped `at` (default: now), with the messages the
        start owes the players (`owed`)."""
        version = len(moves)
        stamp = at or now()
        statements: list[Statement] = [
            (
                "UPDATE games SET status = ?, players = ?, state = ?, version = ?, updated_at = ?, "
                "turn_events = ? WHERE id = ? AND status = ?",
                (
                    ACTIVE,
                    seats_json(players),
                    stored_state(state),
                    version,
                    stamp,
                    json.dumps(turn_events or {}),
                    game_id,
                    LOBBY,
                ),
            )
        ]
        statements += [
            (
                "INSERT INTO moves (game_id, version, player, notation, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, index + 1, player, notation, stamp),
            )
            for index, (player, notation) in enumerate(moves)
        ]
        statements += owed_inserts(game_id, owed, stamp_of(datetime.now(UTC)))
        statements += seat_statements(game_id, seats_json(players))
        await self._checked(statements, f"game {game_id} is no longer in its lobby")


__all__ = ["LobbyTables"]
