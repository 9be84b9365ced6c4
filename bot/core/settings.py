"""The bot's settings: read from the environment, or from a `.env` file beside it.

Every setting is listed with a comment in `.env.example`. Values already in the
environment win over the file. The token is kept out of `repr` so it never reaches
a log line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DB = "./montana.sqlite3"


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    token: str | None = field(repr=False)
    db_path: str = DEFAULT_DB
    guild_id: int | None = None
    """Sync the commands to this server only (instant), instead of globally."""
    api_base: str | None = None
    """Tests only: where discord.py sends REST requests (a fake Discord)."""
    gateway: str | None = None
    """Tests only: the gateway URL discord.py connects to (a fake Discord)."""
    turn_hours: int = 48
    """Default turn deadline of a new game (`/montana new` or `/montana settings` change it)."""
    auction_hours: int = 24
    """Default time to answer the city auction before the bot passes."""
    deadline_poll_seconds: float = 60.0
    """Longest sleep of the deadline task between checks."""


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a `.env` file; blank lines and `#` comments are skipped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def _optional_int(name: str, text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    try:
        return int(text.strip())
    except ValueError:
        raise SettingsError(f"{name} must be a number (a Discord id), not {text!r}") from None


def _positive(name: str, text: str | None, default: float) -> float:
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {text!r}") from None
    if not 0 < value <= 24 * 365:
        raise SettingsError(f"{name} must be above 0 (and below a year), not {text!r}")
    return value


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
) -> Settings:
    """The settings from `environ` (default: the process environment) over `dotenv`."""
    values: dict[str, str] = read_dotenv(dotenv) if dotenv is not None else {}
    values.update(os.environ if environ is None else environ)

    def get(name: str) -> str | None:
        value = values.get(name, "").strip()
        return value or None

    return Settings(
        token=get("DISCORD_TOKEN"),
        db_path=get("MONTANA_DB") or DEFAULT_DB,
        guild_id=_optional_int("MONTANA_GUILD_ID", get("MONTANA_GUILD_ID")),
        api_base=get("MONTANA_DISCORD_API_BASE"),
        gateway=get("MONTANA_DISCORD_GATEWAY"),
        turn_hours=round(_positive("MONTANA_TURN_HOURS", get("MONTANA_TURN_HOURS"), 48)),
        auction_hours=round(_positive("MONTANA_AUCTION_HOURS", get("MONTANA_AUCTION_HOURS"), 24)),
        deadline_poll_seconds=_positive(
            "MONTANA_DEADLINE_POLL_SECONDS", get("MONTANA_DEADLINE_POLL_SECONDS"), 60
        ),
    )
