"""Every press belongs to its message, and no internals reach a user.

**Where a press may act.** A component's custom_id names its game, and discord.py hands
the press to its `DynamicItem` whatever message it comes from; Discord itself checks
that the id is on the message, but a tampered client, an old message or a bug must
not reach a game from elsewhere. So every press of ours goes through `run_press`, which
reads the game once and checks, from the store, which of the game's messages was
pressed (`place_of`): its lobby message, its current prompt, another public message
of it (an earlier prompt, an overdue notice, a vote), or an ephemeral one (a player's
panel, hint, receipt or log page) — in the game's channel or thread. Each kind of
component names the places it is shown on (`Offer`, the table below); a press
anywhere else is refused to the presser alone, in words, and changes nothing.

**Presses of messages that are no game's.** The queue's Withdraw, a leaderboard's
pages, the forget confirmation and the moderators' buttons name no game: each is checked
against the kind of message it was pressed on (`Kind`, `check_kind`): the presser's own
ephemeral answer or not, the pressed component shown on it, and the message's other
components of the same feature. A
game's button pressed on such a message, or theirs on a game's, is refused to the
presser alone (`NOT_THIS_MESSAGE`) and changes nothing.

**Unexpected errors.** Whatever no refusal foresaw, in a command (`group.tracked`,
`tree.on_error`) or a press (`run_press`), is answered by `went_wrong`: "something
went wrong (error `a1b2c3`); the operators can look it up", the log line carrying
that id and the traceback (`bot.core.runtime.incidents`).

**Counted.** Every answer, to a command or a press, is counted by its kind and outcome
(`counted`) for the operators' metrics (`server.monitoring` serves them).
"""

from __future__ import annotations

import contextlib
import enum
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.play.prompts import UnknownChoice
from bot.core.play.service import STALE_WORDS, Refusal
from bot.core.runtime import incidents, metrics
from i18n import Message, translatable

from ..core.store import LOBBY, OPEN_STATUSES, GameRow, StoreError
from .components import (
    UNKNOWN_BUTTON,
    bot_of,
    database_trouble,
    reply,
    service_of,
    state_key,
    user_t,
)

log = logging.getLogger(__name__)

PROMPT_PREFIXES = ("mt:", "ms:")
"""The custom ids of a prompt's buttons and selects: `mt:<game>:<state>:<code>`."""


class Place(enum.Enum):
    """Which of its game's messages a press came from."""

    LOBBY = "lobby"
    """The lobby message, in the channel the game was opened in."""
    PROMPT = "prompt"
    """The current prompt, where the game plays."""
    OTHER = "other"
    """Another public message in the game's channel or thread: an earlier prompt, an
    overdue notice, a vote."""
    OWN = "own"
    """An ephemeral message in the game's channel or thread (only the presser sees it):
    a step panel, a hint, a receipt, a log page."""


@dataclass(frozen=True)
class Offer:
    """The places a kind of component is shown on, and what a press of it anywhere else
    (in the game's channel or thread) is told; `earlier`: the words for another public
    message of the game, when they differ."""

    on: frozenset[Place]
    elsewhere: Message
    earlier: Message | None = None
    once_over: bool = False
    """Shown only under a game that is over (finished, ended or abandoned): a press on
    a game still open is told `elsewhere` too."""


ANOTHER_PLACE = translatable(
    "That button belongs to a game in another channel or thread ({where}). Nothing was changed."
)
LOBBY_OFFER = Offer(
    frozenset({Place.LOBBY}),
    translatable(
        "Join, Leave, Start and the AI buttons work only on the game's lobby message "
        "(or use {/game join}, {/game leave} or {/game start}). Nothing was changed."
    ),
)
PROMPT_OFFER = Offer(
    frozenset({Place.PROMPT, Place.OWN}),
    translatable(
        "That button is not on this message: use the buttons of the game's newest "
        "message (or {/board}). Nothing was changed."
    ),
    earlier=STALE_WORDS,
)
"""Moves, step panels, the board, Undo, Hint and passing in advance: on the current
prompt and the presser's own panels (an earlier prompt's buttons are out of date)."""
LOG_PAGE_OFFER = Offer(
    frozenset({Place.OWN}),
    translatable("Log pages turn only on your own {/game log} answer. Nothing was changed."),
)
VOTE_OFFER = Offer(
    frozenset({Place.OTHER}),
    translatable(
        "Vote with the button of the vote's own message, or with {/game vote-end} "
        "or {/game takeover}. Nothing was changed."
    ),
)
"""The end vote and the takeover vote: on the overdue notice and the vote messages."""
REPLAY_OFFER = Offer(
    frozenset({Place.PROMPT, Place.OWN}),
    translatable(
        "The Replay button works under the message that ends a game and on "
        "{/game history}; to watch a game under way, use {/game replay}. "
        "Nothing was changed."
    ),
    once_over=True,
)
"""Replay: under the message that ends a game (its last prompt) and on the lines of the
presser's own {/game history} answer."""
TURN_BY_TURN_OFFER = Offer(
    frozenset({Place.PROMPT}),
    translatable(
        "The Turn by turn button works under the message that ends a game; otherwise use "
        "{/game replay} ({/game replay:step=True}). Nothing was changed."
    ),
    once_over=True,
)
"""Turn by turn: under the message that ends a game."""
STEP_OFFER = Offer(
    frozenset({Place.OWN}),
    translatable(
        "The replay's step buttons work only on your own step view "
        "({/game replay} ({/game replay:step=True})). Nothing was changed."
    ),
)
"""⏮ ◀ ▶ ⏭ and "go to turn": on the presser's own step view."""


@dataclass(frozen=True)
class Kind:
    """The kind of message a feature's components (not bound to a game) are shown on:
    the custom-id prefixes of its components, whether it is the presser's own ephemeral
    answer, and whether it may show the pressed component alone (else another
    component of its kind is beside it). A press whose message is of another kind (a
    tampered client pressing the queue's Withdraw on a game's prompt, say) is refused
    to the presser alone, in words (`NOT_THIS_MESSAGE`), and changes nothing."""

    prefixes: tuple[str, ...]
    own: bool
    alone: bool = True
    bound: bool = False
    """Its components carry the id of the interaction whose answer shows them (`answer`
    in `check_kind`): a kind that may show one button alone, on the presser's own
    answer, is told from their other answers (an export, the rules) by it, since the
    message's components themselves are what a tampered client sends."""


NOT_THIS_MESSAGE = translatable(
    "That button is not on this message: use the buttons of the message that shows "
    "it. Nothing was changed."
)
QUEUE_KIND = Kind(("mq:",), own=True, bound=True)
"""Withdraw: under the asker's own {/game find} answer."""
LEADERBOARD_KIND = Kind(("lb:",), own=False, alone=False)
"""◀ Previous and Next ▶: on a leaderboard's page, the asker's own or posted."""
FORGET_KIND = Kind(("mf:",), own=True, alone=False)
"""Forget me and Cancel: on the asker's own {/me forget} question."""
SERVER_GAMES_KIND = Kind(("sv:ask:",), own=True, bound=True)
"""Abandon #n / Close lobby #n: on the moderator's own {/server games} list."""
SERVER_END_KIND = Kind(("sv:end:",), own=True, bound=True)
"""Yes, end it: on the moderator's own confirmation question."""
FEATURE_PREFIXES = ("mq:", "lb:", "mf:", "sv:")
"""The custom ids of the components of messages that are no game's."""


def custom_ids(message: discord.Message) -> list[str]:
    """The custom ids of the components `message` shows, in order (rows, containers,
    sections' accessories)."""
    found: list[str] = []

    def walk(item: Any) -> None:
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            found.append(custom_id)
        for child in getattr(item, "children", None) or ():
            walk(child)
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            walk(accessory)

    for component in message.components:
        walk(component)
    return found


def _pressed_id(interaction: discord.Interaction[Any]) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    return custom_id if isinstance(custom_id, str) else ""


def _beside(interaction: discord.Interaction[Any], message: discord.Message) -> list[str]:
    """The custom ids on the pressed message beside the pressed component (one of its
    occurrences taken out)."""
    ids = custom_ids(message)
    pressed = _pressed_id(interaction)
    if pressed in ids:
        ids.reverse()
        ids.remove(pressed)
        ids.reverse()
    return ids


def is_own(interaction: discord.Interaction[Any], message: discord.Message) -> bool:
    """Whether `message` is an ephemeral answer to the presser."""
    if not message.flags.ephemeral:
        return False
    metadata = message.interaction_metadata
    return metadata is None or metadata.user.id == interaction.user.id


def check_kind(
    interaction: discord.Interaction[Any], kind: Kind, answer: int | None = None
) -> None:
    """Refuse a press whose message is not of `kind` (`Refusal`). A `bound` kind's
    component names in `answer` the interaction whose answer shows it: the pressed
    message must be that answer (Discord writes which interaction a message answers;
    a forged Withdraw on the presser's own answer without buttons is no queue entry's)."""
    message = interaction.message
    if message is None or (kind.own and not is_own(interaction, message)):
        raise Refusal(NOT_THIS_MESSAGE)
    if kind.bound:
        metadata = message.interaction_metadata
        if answer is None or metadata is None or metadata.id != answer:
            raise Refusal(NOT_THIS_MESSAGE)
    if not kind.own and message.flags.ephemeral and not is_own(interaction, message):
        raise Refusal(NOT_THIS_MESSAGE)
    beside = _beside(interaction, message)
    if any(not custom_id.startswith(kind.prefixes) for custom_id in beside):
        raise Refusal(NOT_THIS_MESSAGE)
    if not kind.alone and not beside:
        raise Refusal(NOT_THIS_MESSAGE)


def place_of(interaction: discord.Interaction[Any], row: GameRow) -> Place | None:
    """Which of `row`'s messages was pressed (None: no message of this game, being in
    another channel or thread)."""
    message, channel = interaction.message, interaction.channel_id
    if message is None or channel is None:
        return None
    if message.id == row.message_id and not message.flags.ephemeral:
        # the prompt the bot recorded, wherever it stands: a game that went on in its
        # channel (its thread refusing the bot) after this prompt was posted in the thread
        return Place.PROMPT
    if channel not in (row.channel_id, row.play_channel_id):
        return None
    if message.flags.ephemeral:
        return Place.OWN
    if message.id == row.lobby_message_id or (row.lobby_message_id is None and row.status == LOBBY):
        return Place.LOBBY if channel == row.channel_id else None
    if message.id == row.message_id or _carries_current_state(interaction, row):
        return Place.PROMPT if channel == row.play_channel_id else None
    return Place.OTHER


def _carries_current_state(interaction: discord.Interaction[Any], row: GameRow) -> bool:
    """Whether the pressed prompt component carries the game's current state: the prompt
    itself, even before its delivery is recorded (a bot killed between posting a move's
    message and saving its id finds it again only when the outbox retries; meanwhile its
    buttons are the game's newest and must work)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id.startswith(PROMPT_PREFIXES):
        return False
    parts = custom_id.split(":")
    return (
        len(parts) >= 3
        and parts[1] == str(row.id)
        and parts[2] == state_key(row.version, row.undo_epoch)
    )


def check_place(interaction: discord.Interaction[Any], row: GameRow, offer: Offer) -> None:
    """Refuse a press that the pressed message does not offer (`Refusal`)."""
    message = interaction.message
    if message is not None and any(
        # a message of another feature (a queue entry, a leaderboard page) is no game's
        custom_id.startswith(FEATURE_PREFIXES)
        for custom_id in _beside(interaction, message)
    ):
        raise Refusal(NOT_THIS_MESSAGE)
    place = place_of(interaction, row)
    if place is None:
        raise Refusal(ANOTHER_PLACE, where=f"<#{row.play_channel_id}>")
    if place not in offer.on:
        raise Refusal(offer.earlier if place is Place.OTHER and offer.earlier else offer.elsewhere)
    if offer.once_over and row.status in OPEN_STATUSES:
        raise Refusal(offer.elsewhere)


async def run_press(
    interaction: discord.Interaction[Any],
    game_id: int,
    offer: Offer,
    act: Callable[[GameRow], Awaitable[None]],
) -> None:
    """Serve a press of one of game `game_id`'s components shown on `offer`'s places:
    the game read once (with the prompt its delivery last recorded), the place checked,
    then `act(row)`; a refusal, a failing database or an unexpected error is answered to
    the presser alone."""
    try:
        async with bot_of(interaction).busy():
            await bot_of(interaction).remember_locale(interaction)
            service = service_of(interaction)

            async def answering() -> None:
                row = service.delivery.latest(await service.get(game_id))
                check_place(interaction, row, offer)
                await act(row)

            await counted(interaction, answering())
    except Refusal as refusal:
        await reply(interaction, refusal.text(user_t(interaction)))
    except UnknownChoice:
        await reply(interaction, user_t(interaction).translate(UNKNOWN_BUTTON))
    except StoreError as error:
        log.warning("a press found the database failing: %s", error)
        await reply(interaction, database_trouble(error, user_t(interaction)))
    except Exception as error:
        await went_wrong(interaction, error)


def kind_of(interaction: discord.Interaction[Any]) -> str:
    """What an interaction was, as the metrics tell it: the command, or `press`."""
    if interaction.type is discord.InteractionType.component:
        return "press"
    command = interaction.command
    return command.qualified_name if command is not None else "command"


async def counted(interaction: discord.Interaction[Any], answering: Awaitable[None]) -> None:
    """Await the answer to `interaction`, counting it by kind and outcome."""
    outcome = metrics.ERROR
    try:
        await answering
        outcome = metrics.OK
    except (Refusal, UnknownChoice):
        outcome = metrics.REFUSED
        raise
    except StoreError:
        outcome = metrics.DATABASE_ERROR
        raise
    finally:
        metrics.interaction_answered(interaction.guild_id, kind_of(interaction), outcome)


async def went_wrong(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Log an unexpected error under a new id, with its traceback, and tell the user
    alone that id — never the error itself."""
    data: dict[str, Any] = dict(interaction.data or {})
    command = interaction.command
    what = f"/{command.qualified_name}" if command else str(data.get("custom_id", "?"))
    incident = incidents.record(
        log,
        error,
        f"{what!r} by user {interaction.user.id} in channel {interaction.channel_id} failed",
    )
    text = incidents.went_wrong(incident, user_t(interaction))
    with contextlib.suppress(discord.HTTPException):
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # the "thinking…" answer becomes the words (ephemeral, but for a replay being
            # posted for everyone: then the table sees the error id, and no more)
            await interaction.edit_original_response(content=text, attachments=[], view=None)
        else:
            await interaction.followup.send(text, ephemeral=True)


__all__ = [
    "FEATURE_PREFIXES",
    "FORGET_KIND",
    "LEADERBOARD_KIND",
    "LOBBY_OFFER",
    "LOG_PAGE_OFFER",
    "NOT_THIS_MESSAGE",
    "PROMPT_OFFER",
    "QUEUE_KIND",
    "REPLAY_OFFER",
    "SERVER_END_KIND",
    "SERVER_GAMES_KIND",
    "STEP_OFFER",
    "TURN_BY_TURN_OFFER",
    "VOTE_OFFER",
    "Kind",
    "Offer",
    "Place",
    "check_kind",
    "check_place",
    "counted",
    "custom_ids",
    "is_own",
    "kind_of",
    "place_of",
    "run_press",
    "went_wrong",
]
