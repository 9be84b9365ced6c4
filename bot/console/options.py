"""The console's command line (`--players`, `--db`, `--record` ...) and where its games
and pictures go."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.core.runtime.names import clean_name
from bot.core.store import AI_LEVELS, DEFAULT_AI_LEVEL
from i18n import LANGUAGE_NAMES, LANGUAGES, Language, is_language

CONSOLE_CHANNEL_ID = 0
"""The 'channel' of console games in the store (Discord ids are never 0), so a database
file can hold console games beside Discord ones without mixing them up."""
PLAYER_ID_PREFIX = "console-"
"""Console players get ids `console-1`...: never a word the engine's messages use, so the
service's replacing of ids by names in refusals cannot touch anything else."""
CONSOLE_HOME = Path("out", "console")
"""Where console games and their pictures go, under the working directory (git ignores
`out/`)."""
CONSOLE_COMMAND = "bash scripts/run-bot.sh console"
"""How to start the console (and continue a game): works from the repository root,
with or without the .venv active."""


def player_ids(names: Sequence[str]) -> list[str]:
    return [f"{PLAYER_ID_PREFIX}{index}" for index in range(1, len(names) + 1)]


@dataclass(frozen=True)
class Options:
    players: list[str] | None
    seed: int | None
    out: Path | None
    db: Path | None
    language: Language | None = None
    """`--lang`: the words of the console and the pictures (None: a new game's are
    English, a continued game keeps its own)."""
    record: Path | None = None
    """`--record`: a game record to start from."""
    turn: int | None = None
    """`--turn`: the record's turn to start from (None: its end)."""


AI_NAME = "ai"
"""A player named `ai` in `--players` is an AI seat (`--players ana,ai,ai`), playing
the normal level; `ai:easy`, `ai:hard` name the level (`--players ana,ai:hard,ai:easy`)."""


def ai_name_level(name: str) -> str | None:
    """The level of the AI seat `name` stands for in `--players`, None for a person."""
    text = name.casefold()
    if text == AI_NAME:
        return DEFAULT_AI_LEVEL
    prefix, colon, level = text.partition(":")
    return level if prefix == AI_NAME and colon and level in AI_LEVELS else None


def ai_name(level: str) -> str:
    """How `--players` names an AI seat of `level` (`ai`, `ai:hard`)."""
    return AI_NAME if level == DEFAULT_AI_LEVEL else f"{AI_NAME}:{level}"


def is_ai_name(name: str) -> bool:
    return ai_name_level(name) is not None


def parse_players(text: str) -> list[str]:
    names = [clean_name(part) for part in text.split(",") if part.strip()]
    if not 2 <= len(names) <= 4:
        raise argparse.ArgumentTypeError(
            f"Montana is for 2 to 4 players; give 2 to 4 names separated by commas, "
            f"not {len(names)}"
        )
    for name in names:
        prefix, colon, asked = name.casefold().partition(":")
        if prefix == AI_NAME and colon and asked not in AI_LEVELS:
            raise argparse.ArgumentTypeError(
                f"unknown AI level '{asked}' in '{name}': choose "
                + ", ".join(ai_name(known) for known in AI_LEVELS)
            )
    humans = [n for n in names if not is_ai_name(n)]
    if not humans:
        raise argparse.ArgumentTypeError(
            "at least one player must be a person: name them beside the AI seats (ana,ai,ai)"
        )
    if len({n.casefold() for n in humans}) != len(humans):
        raise argparse.ArgumentTypeError("the players' names must differ")
    levels = [ai_name_level(n) for n in names]
    return [n if level is None else ai_name(level) for n, level in zip(names, levels, strict=True)]


def parse_args(argv: Sequence[str]) -> Options:
    parser = argparse.ArgumentParser(
        prog=CONSOLE_COMMAND,
        description=(
            "Play Montana in this terminal, without Discord, through the bot's own game "
            "service. Pictures are written after every move; the game is saved so it can "
            "be continued with --db."
        ),
    )
    parser.add_argument(
        "--players",
        type=parse_players,
        help=(
            "2 to 4 names separated by commas, e.g. ana,ben (the seat order is drawn); "
            "'ai' is an AI seat that plays itself (ana,ai,ai), 'ai:easy' and 'ai:hard' "
            "one of that level (ana,ai:hard,ai:easy)"
        ),
    )
    parser.add_argument(
        "--seed",
        type=int,
        help=(
            "deal and draw from this seed (repeatable games); with --record of a game under "
            "way, the seed its wheel spins from (such a record has none: by default afresh)"
        ),
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=(
            "folder for the pictures (default: beside the game's file, named like it: "
            f"{CONSOLE_HOME}/game-<time>/ for a new game)"
        ),
    )
    parser.add_argument(
        "--db",
        type=Path,
        help=(
            f"SQLite file keeping the game (default: a new {CONSOLE_HOME}/game-<time>.sqlite3); "
            "an unfinished console game in it is continued"
        ),
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language of the game's words and pictures: "
        + ", ".join(f"{code} ({name})" for code, name in LANGUAGE_NAMES.items())
        + " (default: English, or a continued game's own)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        help="a game record (/montana game export) to go on from, in a new game file",
    )
    parser.add_argument(
        "--turn",
        type=int,
        help="with --record: start as this turn of the record began (default: its end)",
    )
    parsed = parser.parse_args(list(argv))
    if parsed.record is not None:
        if parsed.players is not None or parsed.db is not None:
            parser.error("--record starts a new game from the record: leave out --players and --db")
    elif parsed.turn is not None:
        parser.error("--turn goes with --record FILE")
    elif parsed.players is None and parsed.db is None:
        parser.error(
            "name the players (--players ana,ben), a game to continue (--db FILE) "
            "or a record to start from (--record FILE)"
        )
    language = parsed.lang if is_language(parsed.lang) else None
    return Options(
        players=parsed.players,
        seed=parsed.seed,
        out=parsed.out,
        db=parsed.db,
        language=language,
        record=parsed.record,
        turn=parsed.turn,
    )


def fresh_database(home: Path) -> Path:
    """A new file name `home/game-<time>.sqlite3` (with a suffix if that is taken)."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    candidate = home / f"game-{stamp}.sqlite3"
    suffix = 2
    while candidate.exists() or candidate.with_suffix("").exists():
        candidate = home / f"game-{stamp}-{suffix}.sqlite3"
        suffix += 1
    return candidate


def picture_folder(options: Options, db_path: Path) -> Path:
    """Where a game's pictures go: `--out`, else a folder beside the game's file, named
    like it (`game-<time>.sqlite3` -> `game-<time>/`): the same folder whether the game is
    new or continued, from whichever folder the console is started."""
    return options.out if options.out is not None else db_path.with_suffix("")


def continue_command(db_path: Path, options: Options) -> str:
    """The command that continues this game from the repository root."""
    command = f"{CONSOLE_COMMAND} --db {shlex.quote(str(db_path))}"
    if options.out is not None:
        command += f" --out {shlex.quote(str(options.out.resolve()))}"
    return command
