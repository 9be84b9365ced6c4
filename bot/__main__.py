"""`python -m bot` (or `montana-bot`): run the Montana Discord bot.

Reads DISCORD_TOKEN (and the other settings in `.env.example`) from the environment
or `.env`. Without a token it explains how to get one and exits with status 2.
"""

from __future__ import annotations

import asyncio
import sys

from .core.errors import StartupError
from .core.settings import SettingsError, load_settings

HOW_TO_GET_A_TOKEN = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and press "New Application".
  2. In "Bot", press "Reset Token" and copy the token (keep it secret).
  3. In "OAuth2" -> "URL Generator", tick the scopes "bot" and "applications.commands",
     and the bot permissions Send Messages, Send Messages in Threads, Create Public
     Threads, Attach Files, Embed Links and Read Message History; open the generated
     link to invite the bot to your server.
  4. Put the token in a file named .env next to where you run the bot:
         DISCORD_TOKEN=your-token-here
     (see .env.example for the other settings), or export it in your shell.
  5. Run the bot again: bash scripts/run-bot.sh  (or: python -m bot)

No privileged intent is needed (leave "Message Content", "Server Members" and
"Presence" off).

No token yet? Play a game in this terminal instead, through the same game service:
    bash scripts/run-bot.sh console --players ana,ben
(python -m bot console --help lists the options.)
"""


def configure_logging(token: str | None = None) -> None:
    """INFO and up on stderr, lines about a game tagged with it, the token masked."""
    from .core.logs import configure_logging as configure

    configure(token)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["console"]:
        from .console import main as console_main

        return console_main(args[1:])
    configure_logging()
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"Setting error: {error}", file=sys.stderr)
        return 2
    if not settings.token:
        print(HOW_TO_GET_A_TOKEN, file=sys.stderr)
        return 2
    configure_logging(settings.token)
    import discord

    from .discord_app.run import run

    try:
        asyncio.run(run(settings))
    except StartupError as error:
        print(" ".join(str(error).split()), file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(
            "Discord refused the token (DISCORD_TOKEN). Reset it in the developer portal "
            "(Bot -> Reset Token) and put the new one in .env.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
