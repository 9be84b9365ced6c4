"""A game's `pictures` setting (issue 25.3): when its messages carry the game's picture.

* `every-move` (the default): every prompt carries the picture of the game as it is;
* `end-of-turn`: the steps inside a turn update the message in words alone, and the
  picture is drawn once the turn ends (the next turn's player is awaited, or the game
  is over) — a busy channel gets one picture a turn;
* `on-request`: no message carries a picture; a **🖼 Board** button shows the current
  one to whoever presses it, alone.

The words of every message (what happened, whom the game awaits, the last-turn marking)
are the same in every mode. Deciding is pure (`wants_picture`); the delivery asks it
for each post (`bot.core.delivery.outbox`).
"""

from __future__ import annotations

from bot.core.store import (
    PICTURE_MODES,
    PICTURES_END_OF_TURN,
    PICTURES_EVERY_MOVE,
    PICTURES_ON_REQUEST,
)
from bot.core.wording import words
from i18n import Translator, translatable, translatable_in
from rules import Game

PICTURES_MESSAGES = {
    PICTURES_EVERY_MOVE: translatable("a picture with every move"),
    PICTURES_END_OF_TURN: translatable("a picture at the end of each turn"),
    PICTURES_ON_REQUEST: translatable("a picture on request (the 🖼 Board button)"),
}
"""What each `pictures` setting does, in words (`pictures_words` in a language)."""
PICTURES_LABELS = {
    PICTURES_EVERY_MOVE: translatable_in("option choice", "every move"),
    PICTURES_END_OF_TURN: translatable_in("option choice", "end of turn: words inside a turn"),
    PICTURES_ON_REQUEST: translatable_in("option choice", "on request: a Board button"),
}
"""Each setting's label among the `pictures:` option's choices (`PICTURES_CHOICES` of the
Discord adapter shows the same words)."""
# Translators: {modes} lists the labels of the pictures option's choices, each quoted:
# “every move”, “end of turn: words inside a turn”, or “on request: a Board button”.
WRONG_PICTURES = translatable(
    "“{value}” is not a pictures setting: choose {modes} in {/game settings:pictures}. "
    "Nothing was changed."
)
"""The answer to a `pictures:` value no setting has (a tampered client); `modes` from
`pictures_choices`."""


def pictures_choices(t: Translator) -> str:
    """The `pictures:` option's choices in `t`'s language, as a refusal offers them."""
    return words.choices_worded((t.translate(label) for label in PICTURES_LABELS.values()), t)


def wants_picture(mode: str, *, turn_ended: bool) -> bool:
    """Whether a game's prompt is posted with its picture, in `pictures` mode `mode`;
    `turn_ended`: the move it shows ended a turn (or started or ended the game, or the
    prompt was asked for again). An unknown mode draws, as the default does."""
    if mode == PICTURES_ON_REQUEST:
        return False
    if mode == PICTURES_END_OF_TURN:
        return turn_ended
    return True


def ends_turn(game: Game, turn_player_before: str | None) -> bool:
    """Whether a move leading to `game` ended a turn: the game starts or is over, or
    another player's turn began (`turn_player_before`: the turn's player before the
    move; None at the start). Answers inside a turn (a bid in the city auction, a
    reward) are not the end of it."""
    return turn_player_before is None or game.is_over or game.turn_player != turn_player_before


def pictures_words(mode: str, t: Translator) -> str:
    message = PICTURES_MESSAGES.get(mode)
    return t.translate(message) if message is not None else mode


def is_pictures_mode(value: str) -> bool:
    return value in PICTURE_MODES


__all__ = [
    "PICTURES_LABELS",
    "PICTURES_MESSAGES",
    "WRONG_PICTURES",
    "ends_turn",
    "is_pictures_mode",
    "pictures_choices",
    "pictures_words",
    "wants_picture",
]
