"""The part of a game a replay shows, as a member types it (`/montana game replay
turns:`, issue 35.6): FROM-TO or one turn, within the turns the game has (0 is the
setup). Checked here, not trusted to Discord's schema: anything else is refused with
the turns one may ask for."""

from __future__ import annotations

from bot.core.wording.refusals import Refusal
from i18n import translatable
from render.replay import parse_turns

NOT_A_PART = translatable(
    "“{text}” is not a part of this game: write turns as FROM-TO, e.g. 10-20 "
    "(0 is the setup; this game has turns 0 to {last})."
)
SHOWN = 40
"""At most this many characters of what was typed are quoted back."""


def turns_refusal(text: str, last: int) -> Refusal:
    return Refusal(NOT_A_PART, text=text[:SHOWN], last=last)


def read_turns(text: str | None, last: int) -> tuple[int, int] | None:
    """The `turns:` option as (FROM, TO) within a game of turns 0 to `last` (TO beyond
    the last turn reads as the last); None for the whole game; a `Refusal` for anything
    else (not FROM-TO, FROM after the last turn)."""
    if text is None or not text.strip():
        return None
    try:
        first, until = parse_turns(text[:SHOWN])
    except ValueError:
        raise turns_refusal(text, last) from None
    if first > last:
        raise turns_refusal(text, last)
    return first, min(until, last)


__all__ = ["NOT_A_PART", "read_turns", "turns_refusal"]
