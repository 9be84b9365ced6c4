"""Logging for operators: every line about a game names it, no line names the token.

`configure_logging` sends the bot's logs to stderr. While a game is being handled
(looked up by the service, or driven by the deadline task), `bind_game` puts its id
and channel in a context variable; every record logged from then on in that task is
prefixed with `[game 12 channel 345]`. The formatter masks the bot token wherever it
would appear — in a message, an argument or a traceback.
"""

from __future__ import annotations

import contextvars
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

FORMAT = "%(asctime)s %(levelname)s %(name)s:%(game_tag)s %(message)s"
MASK = "[token hidden]"

_game: contextvars.ContextVar[tuple[int, int] | None] = contextvars.ContextVar(
    "montana_game", default=None
)


def bind_game(game_id: int, channel_id: int) -> None:
    """Tag the rest of the current task's log lines with this game and channel."""
    _game.set((game_id, channel_id))


@contextmanager
def game_scope(game_id: int, channel_id: int) -> Iterator[None]:
    """Tag log lines with this game only inside the `with` block."""
    token = _game.set((game_id, channel_id))
    try:
        yield
    finally:
        _game.reset(token)


def current_game() -> tuple[int, int] | None:
    return _game.get()


class GameTagFilter(logging.Filter):
    """Adds `game_tag` (" [game G channel C]" or "") to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        bound = _game.get()
        record.game_tag = f" [game {bound[0]} channel {bound[1]}]" if bound else ""
        return True


class SecretMaskingFormatter(logging.Formatter):
    """A formatter that replaces the given secrets in the finished line."""

    def __init__(self, fmt: str, secrets: tuple[str, ...] = ()) -> None:
        super().__init__(fmt)
        self.secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        if not hasattr(record, "game_tag"):
            record.game_tag = ""
        text = super().format(record)
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text


def configure_logging(token: str | None = None, stream: TextIO | None = None) -> logging.Handler:
    """Log INFO and up to `stream` (default stderr) with game tags, masking `token`.

    Replaces a handler installed by an earlier call, so calling it again once the
    token is known (settings are read after logging starts) is the intended use.
    """
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "montana", False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.montana = True  # type: ignore[attr-defined]
    handler.addFilter(GameTagFilter())
    handler.setFormatter(SecretMaskingFormatter(FORMAT, (token,) if token else ()))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("discord").setLevel(logging.WARNING)
    logging.getLogger("discord.gateway").setLevel(logging.WARNING)
    return handler
