"""What the delivery hands the front end and how the front end answers: the `Outcome` of
a move to show (with its `Ticket`, which owed message it delivers), the `Posted` answer,
and the front end's parts (`Announcer`, `Prober`, `TurnNotifier`, `NoticeSender`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from bot.core.delivery.presence import Notice
from bot.core.delivery.problems import DeliveryProblem
from bot.core.store import Away, GameRow
from i18n import Translator, translatable
from rules import Event, Game


@dataclass(frozen=True)
class Ticket:
    """Which owed message an `Outcome` delivers."""

    key: str
    """The same at every attempt at this message, and unique to it (a nonce)."""
    since: datetime
    """When the message was owed: nothing posted for it can be older."""
    retry: bool
    """An earlier attempt may have reached the players: look before posting again."""
    owed_id: int = 0
    """The owed message's id in the outbox: its identity, the same at every attempt and
    unique to it (two messages with the same words never share it)."""
    version: int = 0
    """The game's version the message is about."""
    looks_failing_since: datetime | None = None
    """When an earlier retry's look for an earlier attempt first failed (`CannotLook`,
    kept in the outbox): the front end's bound on waiting for a look counts from it."""


NOT_POSTED_YET = translatable("the message could not be posted yet; I keep trying")


@dataclass(frozen=True)
class Outcome:
    """An accepted move (or the start of a game, or a fresh prompt) and what to show."""

    row: GameRow
    """The game's row after the move."""
    game: Game
    actor: str | None
    """Who moved (None for the start of the game or a fresh prompt)."""
    events: list[Event]
    text: str
    """What happened, in words."""
    picture: bytes
    """The picture of the game (b"" when the message carries none)."""
    previous_message_id: int | None
    """The message holding the game's prompt so far (its buttons go stale once a new
    prompt is posted)."""
    awaited_changed: bool = True
    """Whether someone else must act now (they are pinged); False while the same player
    goes on deciding (`text` is then the running account of their moves)."""
    message_id: int | None = field(default=None, compare=False)
    announced: bool = True
    """False when showing the move failed so far (it is saved all the same)."""
    prompt: bool = True
    """The message carries the game's current prompt: picture, the awaited player's
    mention and buttons. An older move still owed is shown as words only."""
    in_place: bool = False
    """Update `previous_message_id` (the same player's prompt) instead of posting."""
    ticket: Ticket | None = None
    notes: tuple[str, ...] = ()
    """What the message had to leave out, or where it had to go instead, in words."""
    away: Mapping[str, Away] = field(default_factory=dict)
    """The game's players away now (the prompt says so for the awaited one)."""
    quiet: Mapping[str, datetime] = field(default_factory=dict)
    """The awaited player, when inside their quiet hours now, and when those end: the
    prompt says so and does not ping them (a `YOUR_TURN` notice is owed for then)."""
    problem: str = ""
    """Why the move is not shown yet (when `announced` is False), in English words."""
    problem_words: DeliveryProblem | None = field(default=None, compare=False)
    """The same, to be said in a reader's language (`problem_in`)."""

    def problem_in(self, t: Translator) -> str:
        """Why the move is not shown yet, in `t`'s language."""
        if self.problem_words is not None:
            return self.problem_words.text(t)
        if self.problem == NOT_POSTED_YET.id:
            return t.translate(NOT_POSTED_YET)
        return self.problem

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def finished(self) -> bool:
        return self.game.is_over

    @property
    def awaited(self) -> str | None:
        return self.game.awaiting


@dataclass(frozen=True)
class Posted:
    """A delivered message, as the front end reports it."""

    message_id: int | None
    moved_to: int | None = None
    """The channel or thread the game plays in from now on, when the message had to go
    elsewhere (its thread was deleted, or refuses the bot)."""
    notes: tuple[str, ...] = ()
    unchecked: bool = False
    """Posted without knowing whether an earlier attempt went out (looking failed for
    too long, `announce.BLIND_AFTER`): the core owes a `RECHECK`, which removes a
    duplicate once a look succeeds."""
    buttons_left: bool = False
    """A message posted as words only that still shows buttons: an earlier attempt that
    went out as the prompt back then, whose buttons Discord would not take off now. The
    core owes a `CLEAR` for it, as for a stale prompt."""


class Announcer(Protocol):
    async def announce(self, outcome: Outcome) -> int | Posted | None:
        """Show the outcome; return the id of the message now holding it (or `Posted`).
        Raise a `DeliveryProblem` to say how it failed."""
        ...


class Prober(Protocol):
    """What a front end's `Announcer` may also do: say whether Discord answers again."""

    async def probe(self, row: GameRow) -> bool:
        """Whether Discord answers a cheap request about the game's place now (it may
        still refuse a post there: the attempt then says how)."""
        ...


class Clearer(Protocol):
    """What a front end's `Announcer` may also do: take the buttons off a stale prompt
    (outbox kind `CLEAR`)."""

    async def clear(self, row: GameRow, channel_id: int, message_id: int) -> None:
        """Remove the buttons of `message_id` in `channel_id` (the channel or thread it
        was posted in). Raise `Dropped` when Discord says it is gone there, another
        `DeliveryProblem` to be tried again."""
        ...


class Rechecker(Protocol):
    """What a front end's `Announcer` may also do: find and remove a duplicate of a
    message posted without looking first (outbox kind `RECHECK`)."""

    async def carrying(
        self, row: GameRow, channel_id: int, owed_id: int, since: datetime
    ) -> list[int]:
        """The bot's messages in `channel_id` delivering outbox message `owed_id` (its
        identity), oldest first. Raise a `DeliveryProblem` when it cannot look."""
        ...

    async def delete(self, row: GameRow, channel_id: int, message_id: int) -> None:
        """Delete the bot's message (gone already: done). Raise a `DeliveryProblem`."""
        ...


class SilentAnnouncer:
    async def announce(self, outcome: Outcome) -> int | None:
        return None


class TurnNotifier(Protocol):
    """The front end's direct messages: "the game waits for you"."""

    async def notify_turn(
        self, user_id: str, row: GameRow, game: Game, message_id: int | None, key: str
    ) -> None:
        """Tell `user_id` (`message_id`: the game's message to link, if any).
        Raise a `DeliveryProblem` to say how it failed."""
        ...


class NoticeSender(Protocol):
    """The front end's notices: a line in the game's thread, or a direct message."""

    async def send_notice(
        self, notice: Notice, row: GameRow, game: Game, ticket: Ticket
    ) -> int | Posted | None:
        """Say `notice` for the game; the id of the message posted where the game plays,
        if any (`Posted.unchecked`: posted without a look for an earlier attempt, a
        `RECHECK` is owed). Raise a `DeliveryProblem` to say how it failed."""
        ...
