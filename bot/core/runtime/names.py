"""The one cleaning of a person's name before the bot writes it anywhere.

A Discord display name is chosen by its owner, and the bot writes names into public
messages, DMs, log pages, thread names and pictures. `clean_name` keeps what a reader
needs to tell players apart and drops whatever would act on Discord's side instead of
reading as a name:

- mention syntax (`<@…>`, `<@!…>`, `<@&…>`, `<#…>`, `</…:…>`, custom emoji and
  timestamps in angle brackets) and `@everyone` / `@here`;
- links: masked ones `[text](url)` keep their text, bare ones (`https://…`,
  `www.…`, `discord.gg/…`) go;
- markdown that changes layout or looks: newlines, headings and subtext (`#`, `-#`),
  block quotes (`>`), code (`` ` ``), bold/italic/strike/spoiler (`* _ ~ |`), list
  markers at the start (`- `, `+ `, `1. `), and control or direction-override
  characters.

`Seat` applies it to every name the store keeps or reads (so games saved before a
rule was added are shown clean too); the Discord adapter applies it to a name it
writes that is no seat's (`components.shown_name`).
"""

from __future__ import annotations

import re
import unicodedata

LONGEST = 32
"""Discord's own limit for a display name."""
FALLBACK = "player"

_ANGLED = re.compile(r"<(?:@[!&]?|#|/|a?:|t:|id:)[^<>]*>")
_EVERYONE = re.compile(r"@(?:everyone|here)", re.IGNORECASE)
_MASKED_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_BARE_LINK = re.compile(
    r"(?:\b[a-z][a-z0-9+.\-]*://|\bwww\.|\bdiscord(?:app)?\.(?:gg|com/invite)/)\S*",
    re.IGNORECASE,
)
_MARKUP = str.maketrans("", "", "*_`~|>@#[]\\")
_LEADING_MARKER = re.compile(r"^(?:[-+•]|\d{1,9}[.)])(?:\s+|$)")
_INVISIBLE = frozenset({"\u200b", "\u2060", "\ufeff"} | {chr(c) for c in range(0x202A, 0x202F)})
_INVISIBLE |= {chr(c) for c in range(0x2066, 0x206A)}


def _visible(text: str) -> str:
    """Without control characters (a line break or tab becomes a space), zero-width
    spaces and direction overrides."""
    return "".join(
        " " if c.isspace() else c
        for c in text
        if c not in _INVISIBLE and (c.isspace() or unicodedata.category(c) not in ("Cc", "Cs"))
    )


def _once(text: str) -> str:
    text = _visible(text)
    text = _ANGLED.sub("", text)
    text = _EVERYONE.sub("", text)
    text = _MASKED_LINK.sub(r"\1", text)
    text = _BARE_LINK.sub("", text)
    text = " ".join(text.translate(_MARKUP).split())
    while True:
        stripped = _LEADING_MARKER.sub("", text).lstrip()
        if stripped == text:
            return text
        text = stripped


def clean_name(name: str) -> str:
    """`name` safe to write in any message, DM, thread name or picture (see the module);
    at most 32 characters, never empty. Cleaning a clean name changes nothing."""
    text = name
    for _ in range(4):  # a removal can join pieces into something new: clean again
        cleaned = _once(text)[:LONGEST].strip()
        if cleaned == text:
            break
        text = cleaned
    return text or FALLBACK


__all__ = ["FALLBACK", "LONGEST", "clean_name"]
