"""Running the Discord bot until a stop signal: `python -m bot` calls `run`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import discord.gateway
import discord.http
import yarl

from bot.core.server.settings import Settings
from bot.discord_app.server.monitoring import MonitoringServer

from .client import MontanaBot, make_bot


def apply_discord_overrides(settings: Settings) -> None:
    """Point discord.py at a fake Discord when the test-only settings are present."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway)


async def run(settings: Settings) -> None:
    apply_discord_overrides(settings)
    bot = make_bot(settings)
    monitoring = None
    if settings.metrics_port is not None:
        monitoring = MonitoringServer(bot, settings.metrics_host, settings.metrics_port)
        await monitoring.start()
    try:
        await _run(bot, settings)
    finally:
        if monitoring is not None:
            await monitoring.close()


async def _run(bot: MontanaBot, settings: Settings) -> None:
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def request_stop() -> None:
        logging.getLogger("bot").info("stopping (signal received)")
        stopping.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, request_stop)
    assert settings.token is not None
    runner = asyncio.create_task(bot.start(settings.token))
    waiter = asyncio.create_task(stopping.wait())
    done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if runner in done:
        waiter.cancel()
        await bot.close()
        runner.result()  # re-raise a login failure
        return
    await bot.shutdown()
    with contextlib.suppress(TimeoutError, asyncio.CancelledError):
        await asyncio.wait_for(runner, timeout=10)


__all__ = ["apply_discord_overrides", "run"]
