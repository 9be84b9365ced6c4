"""`python -m bot` (or `montana-bot`, or `bash scripts/run-bot.sh`): run the Montana
Discord bot.

    python -m bot [--debug]          the bot (--debug: tracebacks and debug lines on stderr)
    python -m bot console ...        the offline console (`python -m bot console --help`)
    python -m bot backup --to FILE   a consistent copy of the SQLite database, while it runs
    python -m bot restored           ready a database restored with pg_restore (bot stopped)
    python -m bot web [--port N]     the games' web pages (MONTANA_WEB_HOST, MONTANA_WEB_PORT)

Reads DISCORD_TOKEN (and the other settings in `.env.example`) from the environment
or the `.env` of the folder it is started in. Without a token it explains how to get
one and exits with status 2; a setting it cannot use also stops it with status 2. A
failure to start (Discord unreachable, the database unusable ...) is said in one line
on stderr, exit status 1; its traceback is logged at DEBUG (shown with --debug).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

from bot.core.runtime.errors import StartupError
from bot.core.server.settings import DOTENV, Settings, SettingsError, load_settings

log = logging.getLogger("bot.start")

PERMISSIONS = 309237763072
"""View Channels, Send Messages, Send Messages in Threads, Create Public Threads, Attach
Files, Embed Links, Read Message History (as listed in docs/server-admins.md)."""


def how_to_get_a_token() -> str:
    """The guide printed when DISCORD_TOKEN is not set (it names the .env read here)."""
    return f"""\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and press "New Application".
  2. In "Bot", press "Reset Token" and copy the token (keep it secret).
  3. In "OAuth2" -> "URL Generator", tick the scopes "bot" and "applications.commands"
     and the bot permissions
         View Channels, Send Messages, Send Messages in Threads, Create Public Threads,
         Attach Files, Embed Links, Read Message History
     then open the generated link to invite the bot to your server. The same link:
         https://discord.com/oauth2/authorize?client_id=<APPLICATION_ID>&scope=bot+applications.commands&permissions={PERMISSIONS}
     (<APPLICATION_ID>: "General Information" -> "Application ID").
  4. Put the token in this file (the bot reads the .env of the folder it is started in;
     scripts/run-bot.sh starts it in the repository root):
         {DOTENV.resolve()}
     as the line
         DISCORD_TOKEN=your-token-here
     (cp .env.example .env gives the file with every other setting), or export
     DISCORD_TOKEN in your shell.
  5. Run the bot again: bash scripts/run-bot.sh

No privileged intent is needed (leave "Message Content", "Server Members" and
"Presence" off).

No token yet? Play a game in this terminal instead, through the same game service:
    bash scripts/run-bot.sh console --players ana,ben
(bash scripts/run-bot.sh console --help lists the options.)
"""


def configure_logging(token: str | None = None, *, debug: bool = False) -> None:
    """INFO and up on stderr (the bot's DEBUG too with --debug), lines about a game tagged
    with it, the token masked."""
    from bot.core.runtime.logs import configure_logging as configure

    configure(token)
    if debug:
        logging.getLogger("bot").setLevel(logging.DEBUG)


def unreachable(error: BaseException, settings: Settings) -> StartupError | None:
    """The one line for a failure to reach Discord at all (None for any other error)."""
    import aiohttp
    import discord

    api_base = settings.api_base or discord.http.Route.BASE
    host = urlsplit(api_base).hostname or api_base
    check = "check this machine's network connection, DNS and any firewall or proxy"
    if settings.api_base:
        check += ", and MONTANA_DISCORD_API_BASE"
    if isinstance(error, aiohttp.ClientConnectorError):
        if isinstance(error.os_error, socket.gaierror):
            return StartupError(
                f"Cannot reach Discord: the name {host} cannot be resolved (DNS); {check}."
            )
        os_error = error.os_error
        refused = isinstance(os_error, ConnectionRefusedError)
        reason = "connection refused" if refused else os_error.strerror or str(os_error)
        return StartupError(f"Cannot reach Discord at {api_base} ({reason}); {check}.")
    if isinstance(error, TimeoutError):  # aiohttp's timeouts are TimeoutErrors too
        return StartupError(f"Discord at {api_base} did not answer in time; {check}.")
    if isinstance(error, aiohttp.ClientError | OSError):
        return StartupError(f"Cannot talk to Discord at {api_base} ({error}); {check}.")
    if isinstance(error, discord.GatewayNotFound):
        return StartupError(
            "Discord's gateway cannot be found, usually a Discord outage; "
            "check https://discordstatus.com and start the bot again later."
        )
    if isinstance(error, discord.DiscordServerError):
        return StartupError(
            f"Discord answered {error.status} at start-up (its servers are in trouble); "
            "check https://discordstatus.com and start the bot again later."
        )
    return None


def run_bot(settings: Settings) -> None:
    """Run until a stop signal; a failure to start raises `StartupError`."""
    import discord

    from .discord_app.run import run

    # the bot has no voice: discord.py's warnings about voice libraries would only puzzle
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        raise StartupError(
            "Discord refused the token (DISCORD_TOKEN). Reset it in the developer portal "
            f"(Bot -> Reset Token) and put the new one in {DOTENV.resolve()}."
        ) from None
    except Exception as error:
        failure = unreachable(error, settings)
        if failure is None:
            raise
        raise failure from error


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bash scripts/run-bot.sh",
        description=(
            "Run the Montana Discord bot (settings: .env.example). "
            "'console' plays offline instead: bash scripts/run-bot.sh console --help"
        ),
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="log the bot's debug lines and the traceback of a failure to start on stderr",
    )
    return parser.parse_args(argv)


def migrate_main(argv: list[str]) -> int:
    """`python -m bot migrate --from FILE --to URL`: copy every game into PostgreSQL."""
    import asyncio

    from .core.store import masked, open_store
    from .core.store.copy import TargetNotEmpty, copy_database

    parser = argparse.ArgumentParser(
        prog="bash scripts/run-bot.sh migrate",
        description=(
            "Copy every game, move, owed message and preference from one database into "
            "another (a SQLite file into PostgreSQL), ids kept. Stop the bot first."
        ),
    )
    parser.add_argument("--from", dest="source", required=True, help="the SQLite file")
    parser.add_argument(
        "--to", dest="target", required=True, help="postgresql://user:password@host/db"
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="delete what the target already holds (by default a target with games is refused)",
    )
    options = parser.parse_args(argv)
    if not Path(options.source).is_file() and options.source != ":memory:":
        print(f"No database file at {options.source}.", file=sys.stderr)
        return 2

    async def copy() -> dict[str, int]:
        source = await open_store(options.source, exclusive=True)
        try:
            target = await open_store(options.target, exclusive=True)
            try:
                return await copy_database(source, target, replace=options.replace)
            finally:
                await target.close()
        finally:
            await source.close()

    try:
        copied = asyncio.run(copy())
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1
    except TargetNotEmpty as error:
        print(
            f"Nothing copied: {error} ({masked(options.target)}). Add --replace to "
            "delete them and copy anyway.",
            file=sys.stderr,
        )
        return 1
    rows = ", ".join(f"{count} {table}" for table, count in copied.items())
    print(f"Copied {options.source} into {masked(options.target)}: {rows}.")
    print(f"Now set MONTANA_DB={masked(options.target)} and start the bot.")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["console"]:
        from .console import main as console_main

        return console_main(args[1:])
    if args[:1] == ["migrate"]:
        return migrate_main(args[1:])
    if args[:1] == ["backup"]:
        from .backup import main as backup_main

        return backup_main(args[1:])
    if args[:1] == ["restored"]:
        from .backup import restored_main

        return restored_main(args[1:])
    if args[:1] == ["web"]:
        from .web.serve import main as web_main

        return web_main(args[1:])
    options = parse_args(args)
    configure_logging(debug=options.debug)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"Setting error: {error}", file=sys.stderr)
        return 2
    for warning in settings.warnings:
        log.warning("%s", warning)
    if not settings.token:
        print(how_to_get_a_token(), file=sys.stderr)
        return 2
    configure_logging(settings.token, debug=options.debug)
    try:
        run_bot(settings)
    except StartupError as error:
        log.debug("the bot could not start", exc_info=True)
        details = "" if options.debug else " Run with --debug for the details."
        print(f"{error}{details}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
