"""`python -m bot console`: play Montana in a terminal, without Discord.

    bash scripts/run-bot.sh console --players ana,ben[,cleo,dan] [--seed S] [--out DIR] [--db FILE]
    bash scripts/run-bot.sh console --players ana,ai,ai     (ai: an AI seat, "AI 1" ...)
    bash scripts/run-bot.sh console --record montana-42.txt [--turn N]

The console is one more front end of `bot.core.play.service.GameService`, like the Discord
layer: the lobby, the seat draw, every move, the saving and the pictures go through
the same service code, and the numbered menus are the Discord panels of
`bot.core.play.prompts`. Players share the keyboard: whoever the game awaits answers the
prompt, with a menu number or the move's notation (`build C4`).

A new game goes under `out/console/` of the folder the console is started in (the
repository root with `scripts/run-bot.sh`; git ignores `out/`): a SQLite file
`game-<time>.sqlite3`, and its pictures in a folder of the same name beside it (or the
folder `--out` names). A game left with `quit` or the end of the input continues with
`--db FILE`, adding its pictures to the same folder beside that file.

`--record FILE` starts a new game file from a game record (`/montana game export`,
`rules/record.py`) at its end, or as turn N began with `--turn N`: to play on from
there (another line) or just to look. Its people become console players under their
names, its AI seats stay AI seats. A record of a game under way has no seed: played on,
its wheel spins afresh (`--seed S` chooses how), never as the real game's will.

The parts: `options` (the command line, where games go), `start` (setting a game up,
`run_console`, `main`), `prompt` (the prompt loop and its menus), `text` (terminal
text). Every name is importable from `bot.console` itself.
"""

from __future__ import annotations

from bot.console.options import (
    AI_NAME,
    CONSOLE_CHANNEL_ID,
    CONSOLE_COMMAND,
    CONSOLE_HOME,
    PLAYER_ID_PREFIX,
    Options,
    ai_name,
    ai_name_level,
    continue_command,
    fresh_database,
    is_ai_name,
    parse_args,
    parse_players,
    picture_folder,
    player_ids,
)
from bot.console.prompt import (
    CONSOLE_COMMANDS,
    HELP,
    HELP_TEXT,
    LOG_PAGE,
    NOTATION_COLUMN,
    Console,
    ConsoleAnnouncer,
    InputFunction,
    numbered,
)
from bot.console.start import (
    BadRecord,
    Loaded,
    load_record,
    main,
    open_or_continue,
    run_console,
    start_new,
)
from bot.console.text import (
    COMMAND_INDENT,
    COMMAND_LINE,
    HANGING,
    WORDS,
    display_width,
    plain,
    terminal_width,
    wrap,
)

__all__ = [
    "AI_NAME",
    "COMMAND_INDENT",
    "COMMAND_LINE",
    "CONSOLE_CHANNEL_ID",
    "CONSOLE_COMMAND",
    "CONSOLE_COMMANDS",
    "CONSOLE_HOME",
    "HANGING",
    "HELP",
    "HELP_TEXT",
    "LOG_PAGE",
    "NOTATION_COLUMN",
    "PLAYER_ID_PREFIX",
    "WORDS",
    "BadRecord",
    "Console",
    "ConsoleAnnouncer",
    "InputFunction",
    "Loaded",
    "Options",
    "ai_name",
    "ai_name_level",
    "continue_command",
    "display_width",
    "fresh_database",
    "is_ai_name",
    "load_record",
    "main",
    "numbered",
    "open_or_continue",
    "parse_args",
    "parse_players",
    "picture_folder",
    "plain",
    "player_ids",
    "run_console",
    "start_new",
    "terminal_width",
    "wrap",
]
