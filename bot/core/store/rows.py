"""A game's row as it is written and read back: its seats and the seats the AI plays
as JSON, its state saved without the move log (the `moves` table holds that, appended,
never rewritten) and put back whole when read (`game_row`). Rows are as the driver
gives them (`parts.Row`: by column name)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from .model import ACTIVE, GameRow, Seat


def seats_json(players: Iterable[Seat]) -> str:
    return json.dumps([{"id": s.user_id, "name": s.name} for s in players])


def taken_over_json(seats: Iterable[str]) -> str:
    """`games.taken_over` as stored (sorted, so that equal sets compare equal in SQL)."""
    return json.dumps(sorted(seats))


def taken_over_update(
    game_id: int, seats: Iterable[str], expected: Iterable[str]
) -> tuple[str, tuple[Any, ...]]:
    """The seats the AI plays in a game under way, if they are still `expected` (the
    statement touches no row otherwise)."""
    return (
        "UPDATE games SET taken_over = ? WHERE id = ? AND taken_over = ? AND status = ?",
        (taken_over_json(seats), game_id, taken_over_json(expected), ACTIVE),
    )


_LOG_START = ', "log": ['
_LOG_END = '], "auto": '


def stored_state(state: dict[str, Any] | str) -> str:
    """The engine's state as stored: without its move log, which the `moves` table
    holds already (appended, never rewritten); `with_log` puts it back when read.
    A state's JSON as `json.dumps(Game.to_dict())` writes it is cut without parsing;
    any other text is stored whole (it is read back as it is)."""
    if not isinstance(state, str):
        return json.dumps({key: value for key, value in state.items() if key != "log"})
    start = state.find(_LOG_START)
    end = state.find(_LOG_END, start + 1)
    if start < 0 or end < 0 or state.find(_LOG_START, start + 1) >= 0:
        return state
    return state[:start] + state[end + 1 :]


def with_log(state: str, lines: Sequence[Any]) -> str:
    """A stored state with its move log (the `moves` rows up to its version) back in."""
    log = json.dumps([[line["player"], line["notation"]] for line in lines])
    return f'{state[:-1]}, "log": {log}}}'


def lacks_log(row: Any) -> bool:
    state = row["state"]
    return state is not None and '"log": ' not in state


def game_row(row: Any, lines: Sequence[Any] | None = None) -> GameRow:
    """A `games` row as a `GameRow`; `lines`: its move log, for a state saved without."""
    state = row["state"]
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        creator_id=row["creator_id"],
        status=row["status"],
        players=tuple(Seat(p["id"], p["name"]) for p in json.loads(row["players"])),
        state_json=state if lines is None else with_log(state, lines),
        version=row["version"],
        message_id=row["message_id"],
        lobby_message_id=row["lobby_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        turn_events=json.loads(row["turn_events"]),
        turn_seconds=row["turn_seconds"],
        auction_seconds=row["auction_seconds"],
        prompt_version=row["prompt_version"],
        undo_epoch=row["undo_epoch"],
        result_json=row["result"],
        absent=row["absent"],
        taken_over=tuple(json.loads(row["taken_over"])),
        language=row["language"],
        pictures=row["pictures"],
    )


__all__ = [
    "game_row",
    "lacks_log",
    "seats_json",
    "stored_state",
    "taken_over_json",
    "taken_over_update",
    "with_log",
]
