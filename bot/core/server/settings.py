"""The bot's settings: read from the environment, or from the `.env` file of the folder
the bot is started in (the repository root with `scripts/run-bot.sh`).

Every setting is listed with a comment in `.env.example`. Values already in the
environment win over the file. Each is checked when the bot starts: a value it cannot
use stops it with one line naming the setting and what it accepts. The token is kept
out of `repr` so it never reaches a log line.
"""

from __future__ import annotations

import difflib
import ipaddress
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

from bot.core.store import Shards

T = TypeVar("T")

DEFAULT_DB = "./montana.sqlite3"
DOTENV = Path(".env")
"""Relative to the working directory: `scripts/run-bot.sh` starts the bot in the
repository root, so its `.env` is the one read."""
PREFIX = "MONTANA_"
MAX_HOURS = 720.0
"""The longest deadline, as `/montana game new` and `/montana game settings` allow (30 days)."""
MIN_HOURS = 0.1
"""The shortest deadline (6 minutes): shorter than the deadline task's checks is no use."""


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    token: str | None = field(repr=False)
    db_path: str = DEFAULT_DB
    """Where the games are kept: a SQLite file path, or a `postgresql://` URL."""
    shard_count: int | None = None
    """How many shards the bot runs as a whole (over every process), if sharded."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (default: every shard of `shard_count`)."""
    guild_id: int | None = None
    """Sync the commands to this server only (instant), instead of globally."""
    api_base: str | None = None
    """Tests only: where discord.py sends REST requests (a fake Discord)."""
    gateway: str | None = None
    """Tests only: the gateway URL discord.py connects to (a fake Discord)."""
    web_host: str = "127.0.0.1"
    """Where `bash scripts/run-bot.sh web` listens (`MONTANA_WEB_HOST`)."""
    web_port: int | None = None
    """Its port (`MONTANA_WEB_PORT`; None: 8080)."""
    web_url: str | None = None
    """Where the games' web pages are served (`MONTANA_WEB_URL`, issue 28): set, game
    links carry an "Open the live board" button; None, nothing in Discord changes."""
    oauth_client_id: str | None = None
    """The application's id, for signing in on the web pages with Discord
    (`MONTANA_OAUTH_CLIENT_ID`, issue 38.3; with the secret and the redirect, or none)."""
    oauth_client_secret: str | None = field(default=None, repr=False)
    """Its client secret (`MONTANA_OAUTH_CLIENT_SECRET`), never logged."""
    oauth_redirect: str | None = None
    """Where Discord sends the browser back (`MONTANA_OAUTH_REDIRECT`): MONTANA_WEB_URL
    followed by /signin/callback, as set in the Developer Portal's OAuth2 redirects."""
    oauth_base: str | None = None
    """Tests only: where Discord's OAuth2 pages are (`MONTANA_OAUTH_BASE`)."""
    turn_hours: float = 48.0
    """Default turn deadline of a new game, in hours, fractions allowed (0.5 = 30 min);
    `/montana game new` or `/montana game settings` change it per game."""
    auction_hours: float = 24.0
    """Default time to answer the city auction before the bot passes, in hours."""
    deadline_poll_seconds: float = 60.0
    """Longest sleep of the deadline task between checks."""
    ai_delay_seconds: float = 1.5
    """How long an AI player waits before its move, so the players see the picture first."""
    picture_processes: int = 0
    """Worker processes drawing the pictures (0: a thread of the bot's process). Settings
    built in code draw in a thread; the bot started from the environment uses
    `MONTANA_PICTURE_PROCESSES`, default `DEFAULT_PICTURE_PROCESSES`."""
    picture_store_mb: int = 256
    """The pictures drawn for game versions, kept beside the games (issue 37.3), in MiB
    in all (`MONTANA_PICTURE_STORE_MB`): past it the least used are evicted."""
    ai_processes: int = 1
    """Worker processes deciding the AI seats' moves (`MONTANA_AI_PROCESSES`); hints
    have one more of their own, at a lower priority."""
    metrics_port: int | None = None
    """Serve Prometheus metrics (`/metrics`) and a health check (`/healthz`) on this TCP
    port (None: not served)."""
    metrics_host: str = "127.0.0.1"
    """The address the metrics port listens on (0.0.0.0: every interface)."""
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def picture_store_bytes(self) -> int:
        return self.picture_store_mb * 1024 * 1024

    @property
    def shards(self) -> Shards | None:
        """The shards of this process (None: not sharded, one process runs them all)."""
        if self.shard_count is None:
            return None
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        return Shards(self.shard_count, tuple(ids))

    """One line each about a name in the environment or `.env` that looks like a setting
    but is none (a typo): the bot starts anyway and logs them."""


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


# ---------------------------------------------------------------------- one check each


def _text(name: str, text: str) -> str:
    return text


def _discord_id_text(name: str, text: str) -> str:
    if not text.isdigit() or not 0 < int(text) < 2**64:
        raise SettingsError(
            f"{name} must be the application's id, a whole number (Developer Portal -> "
            f"the application -> OAuth2 -> Client ID), not {text!r}"
        )
    return text


def _token(name: str, text: str) -> str:
    if any(char.isspace() for char in text) or any(char in text for char in "'\"<>"):
        # the value itself is never repeated: it is a secret
        raise SettingsError(
            f"{name} must be the bot token exactly as the developer portal shows it "
            "(Bot -> Reset Token), with no spaces, quotes or <>"
        )
    return text


def _discord_id(name: str, text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 2**64:
        raise SettingsError(
            f"{name} must be a server id, a whole number (Discord: Developer Mode, then "
            f"right-click the server -> Copy Server ID), not {text!r}"
        )
    return int(text)


def _url(*schemes: str) -> Callable[[str, str], str]:
    def check(name: str, text: str) -> str:
        parts = urlsplit(text)
        if parts.scheme not in schemes or not parts.netloc:
            examples = " or ".join(f"{scheme}://…" for scheme in schemes)
            raise SettingsError(f"{name} must be a URL starting {examples}, not {text!r}")
        return text

    return check


def _number(low: float, high: float, unit: str, example: str) -> Callable[[str, str], float]:
    def check(name: str, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # also refuses nan and inf
            raise SettingsError(
                f"{name} must be a number of {unit} from {low:g} to {high:g} "
                f"(fractions allowed, e.g. {example}), not {text!r}"
            )
        return value

    return check


MAX_SHARDS = 4096


def _shard_count(name: str, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_SHARDS:
        raise SettingsError(
            f"{name} must be the number of shards of the whole bot, a whole number from 1 "
            f"to {MAX_SHARDS} (Discord asks for one shard per 1,000-2,500 servers), "
            f"not {text!r}"
        )
    return int(text)


def _shard_ids(name: str, text: str) -> tuple[int, ...]:
    ids: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if (
            not low.isdigit()
            or (dash and not high.isdigit())
            or int(high if dash else low) >= MAX_SHARDS
        ):
            raise SettingsError(
                f"{name} must list this process's shards as numbers and ranges, "
                f"e.g. 0,1 or 0-3, not {text!r}"
            )
        ids.update(range(int(low), int(high if dash else low) + 1))
    return tuple(sorted(ids))


_hours = _number(MIN_HOURS, MAX_HOURS, "hours", "0.5 = 30 minutes")
_poll_seconds = _number(1, 3600, "seconds", "1.5")
_ai_delay = _number(0, 60, "seconds", "1.5")
MAX_PICTURE_PROCESSES = 16
DEFAULT_PICTURE_PROCESSES = 2
"""Two workers draw while the bot's process answers: on 2 cores the press -> picture
posted p99 of 20 games at once falls from about 800 ms (a thread) to about 400 ms."""


def _processes(name: str, text: str) -> int:
    if not text.isdigit() or int(text) > MAX_PICTURE_PROCESSES:
        raise SettingsError(
            f"{name} must be a whole number of worker processes from 0 (draw in a thread "
            f"of the bot) to {MAX_PICTURE_PROCESSES}, not {text!r}"
        )
    return int(text)


MAX_PICTURE_STORE_MB = 1024 * 1024
"""A terabyte: beyond, a typo."""


def _store_mb(name: str, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_PICTURE_STORE_MB:
        raise SettingsError(
            f"{name} must be a whole number of MiB from 1 to {MAX_PICTURE_STORE_MB} (the "
            f"pictures kept beside the games, e.g. 256), not {text!r}"
        )
    return int(text)


MAX_AI_PROCESSES = 16


def _ai_processes(name: str, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_AI_PROCESSES:
        raise SettingsError(
            f"{name} must be a whole number of worker processes for the AI seats, from 1 "
            f"to {MAX_AI_PROCESSES}, not {text!r}"
        )
    return int(text)


def _port(name: str, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise SettingsError(
            f"{name} must be a TCP port number from 1 to 65535 (e.g. 9464), not {text!r}"
        )
    return int(text)


def _address(name: str, text: str) -> str:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        if text != "localhost":
            raise SettingsError(
                f"{name} must be an IP address to listen on (127.0.0.1: this machine only; "
                f"0.0.0.0: every interface), not {text!r}"
            ) from None
    return text


def _or(value: float | None, default: float) -> float:
    """The value read, or the default when the setting is not given (0 is a value)."""
    return default if value is None else value


def _not_settings(names: list[str], known: list[str]) -> tuple[str, ...]:
    lines = []
    for name in names:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"{name} is not a setting of the bot and is ignored{hint}")
    return tuple(lines)


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = DOTENV
) -> Settings:
    """The settings from `environ` (default: the process environment) over `dotenv`,
    each checked (`SettingsError` for the first one the bot cannot use)."""
    from_file = read_dotenv(dotenv) if dotenv is not None else {}
    values = {**from_file, **(os.environ if environ is None else environ)}
    known: list[str] = []

    def read(name: str, check: Callable[[str, str], T]) -> T | None:
        known.append(name)
        text = values.get(name, "").strip()
        return check(name, text) if text else None

    settings = Settings(
        token=read("DISCORD_TOKEN", _token),
        db_path=read("MONTANA_DB", _text) or DEFAULT_DB,
        shard_count=read("MONTANA_SHARD_COUNT", _shard_count),
        shard_ids=read("MONTANA_SHARDS", _shard_ids),
        guild_id=read("MONTANA_GUILD_ID", _discord_id),
        api_base=read("MONTANA_DISCORD_API_BASE", _url("http", "https")),
        gateway=read("MONTANA_DISCORD_GATEWAY", _url("ws", "wss")),
        web_host=read("MONTANA_WEB_HOST", _text) or Settings.web_host,
        web_port=read("MONTANA_WEB_PORT", _port),
        web_url=read("MONTANA_WEB_URL", _url("http", "https")),
        oauth_client_id=read("MONTANA_OAUTH_CLIENT_ID", _discord_id_text),
        oauth_client_secret=read("MONTANA_OAUTH_CLIENT_SECRET", _text),
        oauth_redirect=read("MONTANA_OAUTH_REDIRECT", _url("http", "https")),
        oauth_base=read("MONTANA_OAUTH_BASE", _url("http", "https")),
        turn_hours=read("MONTANA_TURN_HOURS", _hours) or Settings.turn_hours,
        auction_hours=read("MONTANA_AUCTION_HOURS", _hours) or Settings.auction_hours,
        deadline_poll_seconds=(
            read("MONTANA_DEADLINE_POLL_SECONDS", _poll_seconds) or Settings.deadline_poll_seconds
        ),
        ai_delay_seconds=_or(
            read("MONTANA_AI_DELAY_SECONDS", _ai_delay), Settings.ai_delay_seconds
        ),
        picture_processes=int(
            _or(read("MONTANA_PICTURE_PROCESSES", _processes), DEFAULT_PICTURE_PROCESSES)
        ),
        picture_store_mb=read("MONTANA_PICTURE_STORE_MB", _store_mb) or Settings.picture_store_mb,
        ai_processes=read("MONTANA_AI_PROCESSES", _ai_processes) or Settings.ai_processes,
        metrics_port=read("MONTANA_METRICS_PORT", _port),
        metrics_host=read("MONTANA_METRICS_HOST", _address) or Settings.metrics_host,
    )
    oauth = (settings.oauth_client_id, settings.oauth_client_secret, settings.oauth_redirect)
    if any(oauth) and not all(oauth):
        raise SettingsError(
            "signing in on the web pages needs MONTANA_OAUTH_CLIENT_ID, "
            "MONTANA_OAUTH_CLIENT_SECRET and MONTANA_OAUTH_REDIRECT together (the "
            "Developer Portal's OAuth2 page gives all three); set all or none"
        )
    if settings.shard_ids is not None:
        if settings.shard_count is None:
            raise SettingsError(
                "MONTANA_SHARDS needs MONTANA_SHARD_COUNT, the number of shards of the "
                "whole bot (over every process)"
            )
        beyond = [shard for shard in settings.shard_ids if shard >= settings.shard_count]
        if beyond or not settings.shard_ids:
            raise SettingsError(
                f"MONTANA_SHARDS must name shards from 0 to {settings.shard_count - 1} "
                f"(MONTANA_SHARD_COUNT is {settings.shard_count}), not "
                f"{values.get('MONTANA_SHARDS', '').strip()!r}"
            )
    unknown = [n for n in values if n.startswith(PREFIX) and n not in known]
    unknown += [n for n in from_file if not n.startswith(PREFIX) and n not in known]
    return replace(settings, warnings=_not_settings(sorted(set(unknown)), known))
