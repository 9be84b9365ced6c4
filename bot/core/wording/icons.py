"""The game's icons inside words, without any front end's syntax.

A word that shows an icon carries a neutral token, `token("grain")`; each front end
replaces the tokens as it can show them: Discord by its application emoji
(`bot.discord_app.emojis`), the console and the web by the icon's Unicode stand-in
(`plain`). The icons and their stand-ins are the renderer's (`render.icon_set`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from render.icon_set import ICONS

OPEN = "\ue000"
CLOSE = "\ue001"
"""Private-use characters around an icon's name: no language writes them, no font draws
them, so a token never meets the words around it."""
TOKEN = re.compile(OPEN + r"([a-z_]{1,32})" + CLOSE)


def token(name: str) -> str:
    """The neutral token of icon `name` (one of `render.icon_set.ICONS`)."""
    if name not in ICONS:
        raise KeyError(f"no icon is named {name!r}")
    return f"{OPEN}{name}{CLOSE}"


def replace(text: str, shown: Callable[[str], str]) -> str:
    """`text` with each token replaced by `shown(name)` (an unknown name by nothing)."""
    if OPEN not in text:
        return text
    return TOKEN.sub(lambda found: shown(found[1]) if found[1] in ICONS else "", text)


def unicode_of(name: str) -> str:
    """The Unicode stand-in of icon `name`."""
    return ICONS[name].unicode


def plain(text: str) -> str:
    """`text` with its icons as their Unicode stand-ins (the console, the web)."""
    return replace(text, unicode_of)


__all__ = ["CLOSE", "OPEN", "TOKEN", "plain", "replace", "token", "unicode_of"]
