"""What the store keeps, as the rest of the bot sees it: statuses, row types, errors and
how moments are written (the same for every database)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.core.runtime.names import clean_name

LOBBY = "lobby"
ACTIVE = "active"
FINISHED = "finished"
ABANDONED = "abandoned"
ENDED = "ended"
"""Stopped early by a vote of the other players; the standings then are its `result`."""
OPEN_STATUSES = (LOBBY, ACTIVE)
DEFAULT_TURN_SECONDS = 48 * 3600
"""A game's turn deadline unless set otherwise (`bot.core.clock.deadlines`)."""
DEFAULT_AUCTION_SECONDS = 24 * 3600
"""A game's deadline to answer the city auction unless set otherwise."""
WRITE_WAIT_SECONDS = 2.0
"""Longest wait for the database's write lock (another write of this process, or of
another program holding the file): past it a write fails with `StoreError`. Short
enough that an interaction not yet answered can still say so within Discord's 3 s."""
READ_WAIT_SECONDS = 1.0

POST = "post"
"""An owed message: a move (or a fresh prompt) shown in the game's channel or thread."""
DM = "dm"
"""An owed message: "the game waits for you" to a player who asked for direct messages."""
NOTICE = "notice"
"""An owed message: a line for the players that is no move (a heads-up, someone away or
back; `bot.core.delivery.presence.Notice` is its body)."""
AWAY_PAUSE = "pause"
"""An away player's mode: their decisions wait, with their deadlines paused."""
AWAY_AI = "ai"
"""An away player's mode: the AI plays their seats (`GameRow.taken_over`, recorded in
`away_seats`) and their deadlines are paused."""
AI_PREFIX = "ai:"
"""The engine's player id of an AI seat is `ai:<n>` (the normal level) or
`ai:<n>:<level>`: never a Discord id (digits only)."""
AI_LEVELS = ("easy", "normal", "hard")
"""The AI's levels (`ai.LEVEL_NAMES`), weakest first."""
DEFAULT_AI_LEVEL = "normal"
ABSENT_WAIT, ABSENT_AI_MOVE, ABSENT_AI_SEAT = "wait", "ai-move", "ai-seat"
ABSENT_MODES = (ABSENT_WAIT, ABSENT_AI_MOVE, ABSENT_AI_SEAT)
"""A game's `absent` setting: what happens when a player's deadline passes (nothing
more than the reminders; the AI plays that one decision; the AI takes the seat)."""
PICTURES_EVERY_MOVE, PICTURES_END_OF_TURN, PICTURES_ON_REQUEST = (
    "every-move",
    "end-of-turn",
    "on-request",
)
PICTURE_MODES = (PICTURES_EVERY_MOVE, PICTURES_END_OF_TURN, PICTURES_ON_REQUEST)
"""A game's `pictures` setting: when its messages carry the game's picture
(`bot.core.delivery.picture_modes`)."""


def is_ai_seat(player_id: str) -> bool:
    """Whether the engine's player id is an AI seat (never a Discord user)."""
    return player_id.startswith(AI_PREFIX)


def ai_seat_id(number: int, level: str = DEFAULT_AI_LEVEL) -> str:
    """The player id of the `number`-th AI seat playing `level`."""
    if level not in AI_LEVELS:
        raise ValueError(f"unknown AI level {level!r}: choose {', '.join(AI_LEVELS)}")
    return f"{AI_PREFIX}{number}" if level == DEFAULT_AI_LEVEL else f"{AI_PREFIX}{number}:{level}"


def ai_seat_number(player_id: str) -> int:
    """The number of an AI seat (`ai:2:hard` -> 2)."""
    return int(player_id.removeprefix(AI_PREFIX).partition(":")[0])


def ai_seat_level(player_id: str) -> str:
    """The level an AI seat plays (`ai:2:hard` -> hard; `ai:2` -> normal)."""
    level = player_id.removeprefix(AI_PREFIX).partition(":")[2]
    return level if level in AI_LEVELS else DEFAULT_AI_LEVEL


class StoreError(Exception):
    """The database could not do what was asked just now (locked beyond the wait, full,
    damaged): nothing of it was written. The message says which, for the logs."""


class StaleVersion(Exception):
    """The game moved on since the caller read it: nothing was written."""


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or under way."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"channel already has game {game_id}")
        self.game_id = game_id


@dataclass(frozen=True)
class Seat:
    """A player as the store keeps them: Discord user id (the engine's player id) and name."""

    user_id: str
    name: str
    """Cleaned on the way in (`bot.core.runtime.names.clean_name`), whoever made the seat: a
    name saved before a cleaning rule existed is shown clean as well."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name))

    @property
    def is_ai(self) -> bool:
        """An AI seat (`ai:<n>`), added in the lobby: nobody is pinged for it."""
        return is_ai_seat(self.user_id)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: str
    status: str
    players: tuple[Seat, ...]
    state_json: str | None
    """The engine's state as saved (`Game.to_dict` in JSON); see `state`."""
    version: int
    message_id: int | None
    """The message carrying the current prompt's buttons (None before the first)."""
    lobby_message_id: int | None
    created_at: str
    updated_at: str
    turn_events: dict[str, Any] = field(default_factory=dict)
    """What the current prompt message tells, as engine events (JSON): "header", the
    moves that led to it, and "own", what the awaited player did since."""
    turn_seconds: int = DEFAULT_TURN_SECONDS
    auction_seconds: int = DEFAULT_AUCTION_SECONDS
    prompt_version: int | None = None
    """The version whose prompt `message_id` carries (behind `version` while the newest
    move's message is still owed; None after an undo until the earlier state's prompt
    is posted)."""
    undo_epoch: int = 0
    """How many times moves were taken back in this game. The version goes down at an
    undo and later up again along another line of play, so a button carries the epoch
    beside the version: one made before an undo never matches again."""
    result_json: str | None = None
    """The standings of a game ended early by a vote (JSON), else None."""
    absent: str = ABSENT_WAIT
    """What happens when a player's deadline passes (`ABSENT_MODES`)."""
    taken_over: tuple[str, ...] = ()
    """The human seats the AI plays for now (handed over by a vote or a deadline)."""
    language: str = "en"
    """The language of the game's public messages and pictures (`i18n.LANGUAGES`)."""
    pictures: str = PICTURES_EVERY_MOVE
    """When the game's messages carry its picture (`PICTURE_MODES`)."""

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine's state (None in the lobby), parsed afresh at each use.

        Most rows are read for their version, status or players: parsing only when asked
        spares the thousands of small lists and dicts a state with its move log makes.
        """
        return json.loads(self.state_json) if self.state_json is not None else None

    @property
    def play_channel_id(self) -> int:
        """Where the game's messages go: its thread if it has one, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def names(self) -> dict[str, str]:
        """Each seat's name; a seat the AI plays for its owner says so ("Ana (AI)")."""
        return {
            seat.user_id: f"{seat.name} (AI)" if seat.user_id in self.taken_over else seat.name
            for seat in self.players
        }

    @property
    def seat_names(self) -> dict[str, str]:
        """Each seat's name alone (the picture marks a seat taken over by a note)."""
        return {seat.user_id: seat.name for seat in self.players}

    def ai_level(self, player_id: str) -> str:
        """The level the AI plays for this seat: an AI seat's own; for a seat taken over
        (the `absent` setting, a vote) the level the opener gave every AI seat of the
        game, normal when they chose none or several."""
        if is_ai_seat(player_id):
            return ai_seat_level(player_id)
        levels = {ai_seat_level(seat.user_id) for seat in self.players if seat.is_ai}
        return levels.pop() if len(levels) == 1 else DEFAULT_AI_LEVEL

    def ai_plays(self, player_id: str) -> bool:
        """Whether the AI answers for this seat: an AI seat, or a seat taken over."""
        return is_ai_seat(player_id) or player_id in self.taken_over

    @property
    def humans(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in self.players if not seat.is_ai)

    def has_player(self, user_id: str) -> bool:
        return any(seat.user_id == user_id for seat in self.players)


@dataclass(frozen=True)
class DeadlineClock:
    """What the deadline driver needs of an active game (`Store.clocks`)."""

    game_id: int
    guild_id: int | None
    version: int
    undo_epoch: int
    turn_seconds: int
    auction_seconds: int
    moved_at: str
    """When its current version was reached (the move's time, else the game's update)."""
    sent: int
    """Deadline steps already taken for this version."""


@dataclass(frozen=True)
class MoveRow:
    version: int
    player: str
    notation: str
    at: str


@dataclass(frozen=True)
class UndoneMove:
    """A move taken back: it left the move log for the audit table (`undone_moves`)."""

    undo_epoch: int
    """The game's epoch the undo started (1 for the first undo of a game)."""
    version: int
    player: str
    notation: str
    at: str
    note: str | None
    undone_by: str
    undone_at: str


@dataclass(frozen=True)
class OwedMessage:
    """A message a move owes the players, written in the same transaction as the move."""

    kind: str
    """`POST` or `DM`."""
    version: int
    """The game's version the message is about."""
    body: dict[str, Any]
    """What the front end needs to say it (JSON): words, whom to ping or DM, ..."""


@dataclass(frozen=True)
class Owed:
    """A message of the outbox not delivered yet."""

    id: int
    game_id: int
    kind: str
    version: int
    body: dict[str, Any]
    created_at: datetime
    attempts: int
    """Failed attempts so far (an attempt may still have reached Discord)."""
    next_at: datetime
    last_error: str | None
    failing_since: datetime | None = None
    """When its first attempt failed (None: no attempt failed so far)."""
    looks_failing_since: datetime | None = None
    """When a retry's look for an earlier attempt at it first failed, since its last
    attempt that could look (None: none failed so); kept so that the bound on posting
    without looking (`bot.core.delivery.problems.CannotLook`) survives a restart."""


@dataclass(frozen=True)
class Away:
    """A player away from all their games (a holiday), as stored (table `away`)."""

    user_id: str
    since: datetime
    until: datetime
    """When the away time ends by itself (at most 14 days after `since`)."""
    mode: str = AWAY_PAUSE
    """`AWAY_PAUSE` or `AWAY_AI`."""

    @property
    def ai_plays(self) -> bool:
        """Whether the AI plays for the player while they are away."""
        return self.mode == AWAY_AI

    def active_at(self, moment: datetime) -> bool:
        """Still away at `moment` (a row whose time is up stays until it is ended)."""
        return moment < self.until


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def stamp_of(moment: datetime) -> str:
    """How the outbox writes a moment (ISO 8601, UTC, milliseconds): such stamps sort
    like the moments they stand for."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def moment_of(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
