"""The console's terminal text: Discord markdown made plain, and lines wrapped to the
terminal's width (emoji two columns wide, a notation or a command kept whole)."""

from __future__ import annotations

import re
import shutil
import unicodedata

from bot.core.wording import icons


def plain(text: str) -> str:
    """Discord markdown made terminal-friendly, the game's icons as their Unicode."""
    return icons.plain(text.replace("**", "").replace("`", ""))


def display_width(text: str) -> int:
    """Columns `text` takes in a terminal (emoji such as the pumpkin take two)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def terminal_width() -> int:
    return shutil.get_terminal_size().columns


HANGING = re.compile(r" *(?:\d+\.|•|>>|\[)? *")
"""The start of a line that its continuation lines are indented to: the indentation and
a menu number, bullet or prompt mark."""


WORDS = re.compile(r"\[[^\]]*\]|\S+|\s+")
"""What `wrap` keeps together: a bracketed notation or picture path, a word, a gap."""
COMMAND_INDENT = "    "
COMMAND_LINE = re.compile(COMMAND_INDENT + r"(?:bash|python|\.venv/bin/python) ")
"""A command to copy, alone on its line: `wrap` leaves it whole."""


def wrap(text: str, width: int) -> str:
    """`text` with every line wider than `width` columns broken between words (a word, or
    a `[...]` group, wider than a whole line stays whole); continuation lines are indented
    to the text."""
    wrapped: list[str] = []
    for line in text.split("\n"):
        if display_width(line) <= width or COMMAND_LINE.match(line):
            wrapped.append(line)
            continue
        hang = HANGING.match(line)
        indent = " " * min(display_width(hang.group()) if hang else 0, width // 2)
        current, gap = "", ""
        for piece in WORDS.findall(line):
            if piece.isspace():
                gap = piece
                continue
            if not current.strip() or display_width(current + gap + piece) <= width:
                current += gap + piece
            else:
                wrapped.append(current)
                current = indent + piece
            gap = ""
        wrapped.append(current)
    return "\n".join(wrapped)
