"""`python -m bot web` (`bash scripts/run-bot.sh web`): the web pages in a process of
their own, on the bot's database (MONTANA_DB), at MONTANA_WEB_HOST:MONTANA_WEB_PORT."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from aiohttp import web

from ..core.errors import StartupError
from ..core.settings import SettingsError, load_settings
from ..core.store import open_store
from .app import make_app

log = logging.getLogger("bot.web")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080


def web_port(text: str | None, default: int | None = DEFAULT_PORT) -> int | None:
    """MONTANA_WEB_PORT read: a port from 1 to 65535 (None or empty: `default`)."""
    if text is None or not text.strip():
        return default
    if not text.strip().isdigit() or not 0 < int(text) < 65536:
        raise SettingsError(f"MONTANA_WEB_PORT must be a port from 1 to 65535, not {text!r}")
    return int(text)


async def start_site(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Serve `app` at host:port until the returned runner is cleaned up."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        raise StartupError(f"the web pages cannot listen on {host}:{port}: {error}") from error
    return runner


async def serve(database: str, host: str, port: int) -> None:
    store = await open_store(database)
    try:
        runner = await start_site(make_app(store), host, port)
        log.info("web pages at http://%s:%s/", host, port)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="bash scripts/run-bot.sh web",
        description="Serve the games' web pages from the bot's database (MONTANA_DB).",
    )
    parser.add_argument("--host", default=os.environ.get("MONTANA_WEB_HOST") or DEFAULT_HOST)
    parser.add_argument("--port", default=os.environ.get("MONTANA_WEB_PORT"))
    options = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = load_settings()
        port = web_port(options.port)
    except SettingsError as error:
        print(f"Setting error: {error}", file=sys.stderr)
        return 2
    assert port is not None
    try:
        asyncio.run(serve(settings.db_path, options.host, port))
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0
