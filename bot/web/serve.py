"""`python -m bot web` (`bash scripts/run-bot.sh web`): the web pages in a process of
their own, on the bot's database (MONTANA_DB) opened read-only, at
MONTANA_WEB_HOST:MONTANA_WEB_PORT. A database the bot has not made, or not migrated to
this code's schema, stops it at start with a line saying so (exit status 1)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from aiohttp import web

from ..core.errors import StartupError
from ..core.settings import SettingsError, load_settings
from ..core.store import open_store
from .app import make_app

log = logging.getLogger("bot.web")

DEFAULT_PORT = 8080


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
    # the bot owns the database (its schema, its writes): the pages only read it
    store = await open_store(database, read_only=True)
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
    parser.add_argument("--host", help="default: MONTANA_WEB_HOST, else 127.0.0.1")
    parser.add_argument("--port", type=int, help=f"default: MONTANA_WEB_PORT, else {DEFAULT_PORT}")
    options = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"Setting error: {error}", file=sys.stderr)
        return 2
    host = options.host or settings.web_host
    port = options.port or settings.web_port or DEFAULT_PORT
    try:
        asyncio.run(serve(settings.db_path, host, port))
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0
