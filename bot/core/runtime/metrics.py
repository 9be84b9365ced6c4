"""The bot's Prometheus metrics, defined once here and updated where things happen.

With `MONTANA_METRICS_PORT` set the front end serves them (`bot.discord_app.server.monitoring`).
Everything about a game carries the label `shard`: the Discord shard of its server,
`(guild_id >> 22) % shard_count` (0 when the bot is not sharded), so one dashboard
splits a sharded bot by shard, whichever process runs it. What belongs to a process as a
whole (the database, Discord's HTTP errors) carries no shard: Prometheus tells processes
apart by their `instance`, and `montana_info` names the shards each one runs.

The counters and histograms are updated at the choke points (a command or press
answered, a move saved, a post delivered, an AI decision, a database call); the gauges
read from the store when scraped (`read_from_store`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Coroutine, Iterable
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from prometheus_client import Counter, Gauge, Histogram

P = ParamSpec("P")
T = TypeVar("T")

_shard_count = 1
_served: tuple[str, ...] = ("0",)
"""The shard labels of this process: a gauge reads 0 for those with nothing."""

INFO = Gauge(
    "montana_info",
    "1, labelled with the shards this process runs and the database it uses",
    ["shards", "database"],
)
HEALTHY = Gauge(
    "montana_healthy",
    "1 when /healthz would answer 200 (connected to Discord, the database answers), else 0",
)
GAMES_ACTIVE = Gauge("montana_games_active", "Games under way (started, not over)", ["shard"])
MOVES = Counter("montana_moves", "Moves accepted and saved, by who made them", ["shard", "by"])
INTERACTIONS = Counter(
    "montana_interactions",
    "Slash commands and presses answered, by kind (the command, or press) and outcome "
    "(ok, refused, database_error, error)",
    ["shard", "kind", "outcome"],
)
PRESS_TO_PICTURE = Histogram(
    "montana_press_to_picture_seconds",
    "From a press that makes a move reaching the bot until the move's picture is posted",
    ["shard"],
    buckets=(0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0),
)
OUTBOX_BACKLOG = Gauge(
    "montana_outbox_backlog", "Messages owed to the players and not delivered yet", ["shard"]
)
OUTBOX_OLDEST_AGE = Gauge(
    "montana_outbox_oldest_age_seconds",
    "Age of the oldest message still owed (0 when nothing is owed)",
    ["shard"],
)
DISCORD_ERRORS = Counter(
    "montana_discord_errors",
    "Requests to Discord's API that failed, by HTTP status (network: no answer at all)",
    ["status"],
)
AI_DECISIONS = Histogram(
    "montana_ai_decision_seconds",
    "AI decisions (its moves and hints) and how long each took",
    ["shard"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
DATABASE_SECONDS = Histogram(
    "montana_database_seconds",
    "Database calls and how long each took, by the store's operation",
    ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)

OK, REFUSED, DATABASE_ERROR, ERROR = "ok", "refused", "database_error", "error"


def configure(shard_count: int | None, shard_ids: Iterable[int] | None, database: str) -> None:
    """Set up for this process: the bot's shard count (None: not sharded), the shards it
    runs, and its database kind (`sqlite` or `postgresql`)."""
    global _shard_count, _served
    _shard_count = shard_count or 1
    _served = tuple(map(str, shard_ids if shard_ids is not None else range(_shard_count)))
    INFO.clear()
    INFO.labels(",".join(_served), database).set(1)


def shard_of(guild_id: int | None) -> str:
    """The shard label of a game's (or an interaction's) server."""
    return str(0 if guild_id is None else (guild_id >> 22) % _shard_count)


def move_saved(guild_id: int | None, *, by_ai: bool) -> None:
    MOVES.labels(shard_of(guild_id), "ai" if by_ai else "person").inc()


def interaction_answered(guild_id: int | None, kind: str, outcome: str) -> None:
    INTERACTIONS.labels(shard_of(guild_id), kind, outcome).inc()


def picture_posted(guild_id: int | None, pressed_at: float) -> None:
    """A move's picture is posted; `pressed_at` is the `clock()` when its press arrived."""
    PRESS_TO_PICTURE.labels(shard_of(guild_id)).observe(clock() - pressed_at)


def ai_decided(guild_id: int | None, seconds: float) -> None:
    AI_DECISIONS.labels(shard_of(guild_id)).observe(seconds)


def discord_error(status: int | str) -> None:
    DISCORD_ERRORS.labels(str(status)).inc()


clock = time.perf_counter


def database_timed(
    method: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """`method` (a store's operation), its time observed in `DATABASE_SECONDS`."""
    observed = DATABASE_SECONDS.labels(method.__name__)

    @functools.wraps(method)
    async def timed(*args: P.args, **kwargs: P.kwargs) -> T:
        started = clock()
        try:
            return await method(*args, **kwargs)
        finally:
            observed.observe(clock() - started)

    return timed


def set_store_gauges(
    active: Iterable[tuple[int | None, int]],
    owed: Iterable[tuple[int | None, int, datetime]],
    now: datetime,
) -> None:
    """The gauges read at a scrape: active games per guild, and per guild the messages
    owed and when the oldest of them was owed. A shard with none reads 0."""
    games = dict.fromkeys(_served, 0)
    for guild_id, count in active:
        shard = shard_of(guild_id)
        games[shard] = games.get(shard, 0) + count
    backlog = dict.fromkeys(_served, 0)
    oldest = dict.fromkeys(_served, 0.0)
    for guild_id, count, since in owed:
        shard = shard_of(guild_id)
        backlog[shard] = backlog.get(shard, 0) + count
        oldest[shard] = max(oldest.get(shard, 0.0), (now - since).total_seconds())
    for gauge, values in ((GAMES_ACTIVE, games), (OUTBOX_BACKLOG, backlog)):
        gauge.clear()
        for shard, value in values.items():
            gauge.labels(shard).set(value)
    OUTBOX_OLDEST_AGE.clear()
    for shard, age in oldest.items():
        OUTBOX_OLDEST_AGE.labels(shard).set(max(0.0, age))


__all__ = [
    "AI_DECISIONS",
    "DATABASE_ERROR",
    "DATABASE_SECONDS",
    "DISCORD_ERRORS",
    "ERROR",
    "GAMES_ACTIVE",
    "HEALTHY",
    "INFO",
    "INTERACTIONS",
    "MOVES",
    "OK",
    "OUTBOX_BACKLOG",
    "OUTBOX_OLDEST_AGE",
    "PRESS_TO_PICTURE",
    "REFUSED",
    "ai_decided",
    "clock",
    "configure",
    "database_timed",
    "discord_error",
    "interaction_answered",
    "move_saved",
    "picture_posted",
    "set_store_gauges",
    "shard_of",
]
