"""How the bot says no: `Refusal`, the request it declines, worded in the asker's
language when it is said; the refusals of a save the database did not take (`NotSaved`)
and of a game whose saved state does not load (`BrokenGame`); and the words of the
game's table (`game_words`) in which the refusals everyone sees are said."""

from __future__ import annotations

from collections.abc import Callable

from bot.core.store import LOBBY, GameRow, StoreError
from i18n import SOURCE_LANGUAGE, Message, Translator, is_language, translatable, translator

NOT_SAVED = translatable(
    "Your move was not made: I could not save it just now ({why}). Nothing changed; "
    "please try again in a moment."
)
BROKEN = translatable(
    "This game's saved state cannot be read; an operator must look at it (game #{game})."
)

Wording = Callable[[Translator], str]
"""Words in the language of the translator given: how a refusal is said to whoever asked."""


class Refusal(Exception):
    """A request the bot declines, said to the player who asked in their language:
    `refusal.text(t)`; `message` is the English (logs, tests, the console in English).

    `Refusal(translatable("..."), **fields)` for a marked sentence, `Refusal(lambda t:
    ...)` for one worded from parts, or `Refusal("...")` for words already in the asker's
    language."""

    def __init__(self, message: str | Message | Wording, /, **fields: object) -> None:
        wording: Wording
        if isinstance(message, str):
            worded = message
            wording = lambda t: worded  # noqa: E731
        elif isinstance(message, Message):
            marked, count = message, fields.pop("n", None)
            n = count if isinstance(count, int) else None
            wording = lambda t: t.translate(marked, n=n, **fields)  # noqa: E731
        else:
            wording = message
        self._wording = wording
        self.marked = message if isinstance(message, Message) else None
        """The marked sentence refused with, if any: `refusal.marked is STALE_WORDS`."""
        english = wording(translator(SOURCE_LANGUAGE))
        super().__init__(english)
        self.message = english

    def text(self, t: Translator) -> str:
        """The refusal in `t`'s language."""
        return self._wording(t)


def game_words(row: GameRow) -> Translator:
    """The words of what everyone at the table sees: the game's language."""
    return translator(row.language if is_language(row.language) else SOURCE_LANGUAGE)


def channel_busy(row: GameRow | None, t: Translator) -> str:
    """The refusal of a second game in a channel, with where the first one is."""
    if row is None:
        return t.gettext(
            "A Montana game is open here already. Finish it, or {/game abandon} "
            "it, before opening another."
        )
    where = f"<#{row.play_channel_id}>"
    if row.status == LOBBY:
        return t.gettext(
            "A Montana game is waiting for players here already ({where}). Finish it, or "
            "{/game abandon} it, before opening another ({/board} here "
            "shows it again, in a new thread if its thread is gone).",
            where=where,
        )
    return t.gettext(
        "A Montana game is under way here already ({where}). Finish it, or "
        "{/game abandon} it, before opening another ({/board} here "
        "shows it again, in a new thread if its thread is gone).",
        where=where,
    )


class NotSaved(Refusal):
    """The database did not take a move (locked beyond the wait, full): nothing of it
    was written, and the player is told to try again."""


class BrokenGame(Refusal):
    """A game whose saved state does not load: it is skipped by the deadline pass and
    the deliveries, and its players are told so (the other games play on)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(BROKEN, game=game_id)
        self.game_id = game_id


def why_not_saved(error: StoreError, t: Translator | None = None) -> str:
    """The database's failure in a few words a player can take (in English unless `t`)."""
    t = t or translator(SOURCE_LANGUAGE)
    text = str(error).lower()
    if "full" in text:
        return t.gettext("the disk is full")
    if "locked" in text or "busy" in text:
        return t.gettext("the database is busy")
    return t.gettext("the database failed")


def not_saved(error: StoreError) -> NotSaved:
    """The refusal of a move the database did not take."""
    return NotSaved(lambda t: t.translate(NOT_SAVED, why=why_not_saved(error, t)))
