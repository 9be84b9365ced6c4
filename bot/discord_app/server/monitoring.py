"""Metrics and health for operators (`MONTANA_METRICS_PORT`): a small aiohttp server
beside the bot, serving

* `/metrics`: the Prometheus metrics of `bot.core.runtime.metrics`, the gauges read from the
  store at each scrape (a failing database leaves them as last read, and says so in
  the log);
* `/healthz`: 200 `ok` when the bot is connected to Discord's gateway (every shard it
  runs) and the database answers a trivial query; otherwise 503 and one line per reason.

Also the statuses of Discord's failed HTTP answers (`discord_trace`, on discord.py's HTTP
session), an instrument only the Discord side sees; every interaction's kind and outcome
is counted where each is answered (`guard.counted`, at `group.tracked` and `run_press`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.core.runtime import metrics
from bot.core.runtime.errors import StartupError
from bot.core.store import Store, is_postgres
from bot.discord_app.app import MontanaApp

log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 2.0
"""Seconds the database has to answer the health check (and the scrape's reads)."""


def discord_trace() -> aiohttp.TraceConfig:
    """Counts Discord's error answers by status (a 429 too, though discord.py waits and
    retries it) and requests that got no answer (`network`)."""

    async def on_end(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if params.response.status >= 400:
            metrics.discord_error(params.response.status)

    async def on_exception(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        metrics.discord_error("network")

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_exception)
    return trace


def gateway_connected(client: discord.Client) -> bool:
    """Whether the client is logged in and its gateway connection (every shard's) is up."""
    if client.is_closed() or not client.is_ready():
        return False
    if isinstance(client, discord.AutoShardedClient):
        shards = client.shards.values()
        return bool(shards) and not any(shard.is_closed() for shard in shards)
    websocket = client.ws
    return websocket is not None and websocket.open


async def read_from_store(store: Store) -> None:
    """Set the gauges of `metrics` from the store (games under way, what is owed)."""
    active = await store.active_games_by_guild()
    owed = await store.owed_by_guild()
    metrics.set_store_gauges(active, owed, datetime.now(UTC))


class MonitoringServer:
    """`/metrics` and `/healthz` for `client` on `host`:`port` (`port` 0: any free port,
    `bound_port` says which)."""

    def __init__(self, client: MontanaApp, host: str, port: int) -> None:
        self.client = client
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self.bound_port: int | None = None

    async def start(self) -> None:
        settings = self.client.settings
        metrics.configure(
            settings.shard_count,
            settings.shard_ids,
            "postgresql" if is_postgres(settings.db_path) else "sqlite",
        )
        app = web.Application()
        app.router.add_get("/metrics", self.serve_metrics)
        app.router.add_get("/healthz", self.serve_health)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise StartupError(
                f"Cannot serve the metrics on {self.host}:{self.port} ({error.strerror or error}); "
                "choose another MONTANA_METRICS_PORT (or MONTANA_METRICS_HOST), or stop what "
                "uses it."
            ) from error
        self._runner = runner
        sockets = [s for server in runner.sites for s in _sockets(server)]
        self.bound_port = int(sockets[0].getsockname()[1]) if sockets else self.port
        log.info("serving metrics and health on %s:%s", self.host, self.bound_port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _store(self) -> Store | None:
        return getattr(self.client, "store", None)

    async def serve_metrics(self, request: web.Request) -> web.Response:
        store = self._store()
        if store is not None:
            try:
                await asyncio.wait_for(read_from_store(store), HEALTH_TIMEOUT)
            except Exception as error:
                log.warning("metrics: the games and outbox gauges were not read: %r", error)
        metrics.HEALTHY.set(0 if await self.problems() else 1)
        return web.Response(
            body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def serve_health(self, request: web.Request) -> web.Response:
        problems = await self.problems()
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ok\n")

    async def problems(self) -> list[str]:
        """Why the bot is not healthy, one line each (none: healthy)."""
        problems = []
        client = self.client  # a discord.py client (the protocol does not say how it connects)
        if not (isinstance(client, discord.Client) and gateway_connected(client)):
            problems.append("not connected to Discord's gateway")
        store = self._store()
        if store is None:
            problems.append("the database is not open yet")
        else:
            try:
                await asyncio.wait_for(store.ping(), HEALTH_TIMEOUT)
            except TimeoutError:
                problems.append(f"the database did not answer within {HEALTH_TIMEOUT:g} s")
            except Exception as error:
                reason = " ".join(str(error).split()) or type(error).__name__
                problems.append(f"the database does not answer: {reason}")
        return problems


def _sockets(site: web.BaseSite) -> list[Any]:
    server = getattr(site, "_server", None)
    return list(getattr(server, "sockets", None) or [])


__all__ = [
    "HEALTH_TIMEOUT",
    "MonitoringServer",
    "discord_trace",
    "gateway_connected",
    "read_from_store",
]
