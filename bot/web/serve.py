"""`python -m bot web` (`bash scripts/run-bot.sh web`): the web pages in a process of
their own, on the bot's database (MONTANA_DB) opened read-only, at
MONTANA_WEB_HOST:MONTANA_WEB_PORT. A database the bot has not made, or not migrated to
this code's schema, stops it at start with a line saying so (exit status 1).

It runs at a lower CPU priority than the bot (`--nice`, 10 by default): on a machine the
two share, the drawing and wording each move costs the web (for every open page at once)
then never delays a player's answer from the bot (`python -m bot.webbench`: the bot's
press -> picture p99 with 500 pages open rose by ~25 ms at equal priority, ~10 ms at 10).
On a machine of its own, `--nice 0`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from aiohttp import web

from bot.core.runtime.errors import StartupError
from bot.core.server.settings import SettingsError, load_settings

from ..core.delivery.kept_pictures import PictureShelf
from ..core.store import open_store
from .app import make_app

log = logging.getLogger("bot.web")

DEFAULT_PORT = 8080
NICENESS = 10
"""How much lower than the bot's the web's CPU priority is, by default."""


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


async def serve(
    database: str, host: str, port: int, picture_bound: int, *, draw_all: bool = False
) -> None:
    # the bot owns the database (its schema, its writes): the pages only read it, and
    # keep the pictures they draw beside the bot's (`drawn_pictures`, bounded alike)
    store = await open_store(database, read_only=True)
    try:
        shelf = PictureShelf(store, bound=picture_bound, kept=not draw_all)
        runner = await start_site(make_app(store, shelf=shelf), host, port)
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
    parser.add_argument(
        "--nice",
        type=int,
        default=NICENESS,
        help=f"lower the web's CPU priority by this much (default {NICENESS}: the bot first)",
    )
    parser.add_argument(
        "--draw-all",
        action="store_true",
        help="draw every picture here, never the kept ones (`python -m bot.webbench` "
        "measures what the kept pictures save)",
    )
    options = parser.parse_args(argv)
    if options.nice < 0:
        parser.error("--nice must be 0 or more: the web never goes before the bot")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"Setting error: {error}", file=sys.stderr)
        return 2
    os.nice(options.nice)
    host = options.host or settings.web_host
    port = options.port or settings.web_port or DEFAULT_PORT
    try:
        asyncio.run(
            serve(
                settings.db_path,
                host,
                port,
                settings.picture_store_bytes,
                draw_all=options.draw_all,
            )
        )
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0
