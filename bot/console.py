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
names, its AI seats stay AI seats.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import shlex
import shutil
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from bot.core.ai_players.ai_seats import AiPlayers
from bot.core.ai_players.assembly import game_service
from bot.core.play import prompts
from bot.core.play.service import GameService, Outcome, Refusal, Renderer
from bot.core.runtime.names import clean_name
from bot.core.wording import words
from bot.core.wording.commands import ConsoleCommands
from bot.core.wording.refusals import game_words
from i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    Language,
    Translator,
    is_language,
    translatable,
    translator,
)
from i18n.commands import name_commands_with
from render.words import ENGLISH
from rules import Game
from rules.record import RecordError, parse, renamed

from .core.store import (
    ACTIVE,
    AI_LEVELS,
    DEFAULT_AI_LEVEL,
    FINISHED,
    LOBBY,
    GameRow,
    Seat,
    Store,
    ai_seat_level,
    is_ai_seat,
)

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
LOG_PAGE = 20
NOTATION_COLUMN = 58
"""Where a menu line's notation (`[build C4]`) starts, when the terminal is wide enough."""

InputFunction = Callable[[str], str]
"""Like `input`: shows the prompt, returns a line, raises EOFError when input ends."""

HELP_TEXT = translatable("""\
At the prompt, whoever the game awaits answers with:
  a number        a choice of the menu (choices ending in '…' open a smaller menu);
                  a choice keeps its number from step to step, and 0 is always the
                  "no" of the step: stop building, pass, no extra box, end the turn
  a move          the move's notation, e.g. recruit, build C4, bank 2 copper grain,
                  harvest mine 1 copper, city 2 3, place 1 2, pass, stop, end
Commands:
  help            this text          rules     the rules in a nutshell
  moves           every legal move now, in notation
  back            the first menu again
  undo            take back the last move (while nobody else has moved since
                  and the wheel has not been spun since)
  board           write the latest picture again and print its path
  status          everyone's coins, goods, workers and the standings
  log [N]         the move log (page N, 1 = the latest moves)
  quit            stop here (the game is saved; continue it with --db)""")
"""The console's help; its command words (help, moves, back...) stay English, like the
notation."""
HELP = HELP_TEXT.id
CONSOLE_COMMANDS = ConsoleCommands(
    {"board": "board", "status": "status", "undo": "undo", "game rules": "rules", "game log": "log"}
)
"""What a message naming a slash command says in the console: the console's own command
for those it understands (HELP_TEXT), the slash command's path for the others."""


def plain(text: str) -> str:
    """Discord markdown made terminal-friendly."""
    return text.replace("**", "").replace("`", "")


def display_width(text: str) -> int:
    """Columns `text` takes in a terminal (emoji such as the pumpkin take two)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def terminal_width() -> int:
    return shutil.get_terminal_size().columns


HANGING = re.compile(r" *(?:\d+\.|•|>>|\[)? *")
"""The start of a line that its continuation lines are indented to: the indentation and
a menu number, bullet or prompt mark."""


WORDS = re.compile(r"\[[^\]]*\]|\S+|\s+")
"""What `wrap` keeps together: a bracketed notation or picture path, a word, a gap."""
COMMAND_INDENT = "    "
COMMAND_LINE = re.compile(COMMAND_INDENT + r"(?:bash|python|\.venv/bin/python) ")
"""A command to copy, alone on its line: `wrap` leaves it whole."""


def wrap(text: str, width: int) -> str:
    """`text` with every line wider than `width` columns broken between words (a word, or
    a `[...]` group, wider than a whole line stays whole); continuation lines are indented
    to the text."""
    wrapped: list[str] = []
    for line in text.split("\n"):
        if display_width(line) <= width or COMMAND_LINE.match(line):
            wrapped.append(line)
            continue
        hang = HANGING.match(line)
        indent = " " * min(display_width(hang.group()) if hang else 0, width // 2)
        current, gap = "", ""
        for piece in WORDS.findall(line):
            if piece.isspace():
                gap = piece
                continue
            if not current.strip() or display_width(current + gap + piece) <= width:
                current += gap + piece
            else:
                wrapped.append(current)
                current = indent + piece
            gap = ""
        wrapped.append(current)
    return "\n".join(wrapped)


def numbered(panel: prompts.Panel) -> dict[int, prompts.Choice]:
    """The console's numbers for a panel's choices, in the order Discord shows them (a
    select above the buttons): a choice keeps its number from step to step, because a
    disabled one keeps its number too (it is listed, not choosable) and the "no" of the
    step (stop, pass ...), which would otherwise come and go before other choices, is 0."""
    listed = [option for menu in panel.menus for option in menu.options]
    listed += [b for b in panel.buttons if not prompts.declines(b)]
    numbers = dict(enumerate(listed, start=1))
    for button in panel.buttons:
        if prompts.declines(button):
            numbers[0] = button
    return numbers


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
    parser.add_argument("--seed", type=int, help="deal and draw from this seed (repeatable games)")
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


class ConsoleAnnouncer:
    """Shows each outcome in the terminal and writes its picture (`move-<version>.png`).

    Pictures are numbered by the game's version, the same number as the move's line
    in `log`, so a continued game keeps adding to the sequence.
    """

    def __init__(self, folder: Path, write: Callable[[str], None], t: Translator = ENGLISH) -> None:
        self.folder = folder
        self.write = write
        self.t = t
        """The console's words (the game's language, once it is known)."""
        self.latest_path: Path | None = None
        self.latest_picture: bytes | None = None
        self._folder_named = False

    def name_folder(self) -> None:
        """Create the picture folder and say where it is (once, before the first picture)."""
        if not self._folder_named:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.write(
                self.t.gettext(
                    "Pictures go to {folder}/ (move-NNNN.png, numbered like the log).",
                    folder=self.folder,
                )
            )
            self._folder_named = True

    def picture_path(self, version: int) -> Path:
        return self.folder / f"move-{version:04d}.png"

    async def announce(self, outcome: Outcome) -> int | None:
        t = self.t = game_words(outcome.row)
        self.name_folder()
        path = self.picture_path(outcome.version)
        await asyncio.to_thread(path.write_bytes, outcome.picture)
        self.latest_path, self.latest_picture = path, outcome.picture
        names = outcome.row.names
        if outcome.text:
            self.write(plain(outcome.text))
        self.write(t.gettext("[picture: {path}]", path=path))
        if outcome.finished or outcome.row.status != ACTIVE:
            self.write(plain(words.results(outcome.game, names, t)))
        else:
            line = words.prompt_line(outcome.game, lambda pid: names.get(pid, pid), t)
            self.write(">> " + line)
        return None

    def rewrite_latest(self) -> Path | None:
        if self.latest_path is None or self.latest_picture is None:
            return None
        self.latest_path.write_bytes(self.latest_picture)
        return self.latest_path


class Console:
    """The prompt loop for one game; all game work goes through `service`.

    Synchronous on purpose: input is read outside the event loop (so Ctrl-C and the
    end of input behave as in any terminal program) and each service call runs on
    `runner`, one long-lived event loop.
    """

    def __init__(
        self,
        runner: asyncio.Runner,
        service: GameService,
        announcer: ConsoleAnnouncer,
        game_id: int,
        *,
        db_path: Path,
        read: InputFunction,
        write: Callable[[str], None],
        continue_with: str | None = None,
    ) -> None:
        self.runner = runner
        self.service = service
        self.announcer = announcer
        self.game_id = game_id
        self.db_path = db_path
        self.read = read
        self.write = write
        self.continue_with = continue_with or f"{CONSOLE_COMMAND} --db {shlex.quote(str(db_path))}"
        self.panel_code: str | None = None
        """The follow-up panel open (a `p:` code of
        `bot.core.play.prompts`), None for the first one."""
        self.choices: dict[int, prompts.Choice] = {}
        """The numbered choices last shown (see `numbered`)."""
        self.t = announcer.t
        """The console's words: the game's language (read with the game)."""
        self.ai = AiPlayers(service, delay=0)
        """Moves for the AI seats, when the game awaits one (the loop asks it)."""

    # ------------------------------------------------------------------ state

    def row(self) -> GameRow:
        return self.runner.run(self.service.get(self.game_id))

    def current(self) -> tuple[GameRow, Game]:
        row = self.row()
        self.t = game_words(row)
        return row, self.service.game_of(row)

    # ------------------------------------------------------------------ the loop

    def loop(self) -> int:
        """Prompt until the game ends, `quit` or the end of input; returns the exit status."""
        show_menu = True
        while True:
            row, game = self.current()
            awaited = game.awaiting
            if row.status != ACTIVE or awaited is None:
                self.write(
                    self.t.gettext(
                        "The game is over. Its pictures are in {folder}/; its move log is "
                        "kept in {path}.",
                        folder=self.announcer.folder,
                        path=self.db_path,
                    )
                )
                return 0
            names = row.names
            if row.ai_plays(awaited):
                self.runner.run(self.ai.play_once(self.game_id))
                show_menu = True
                continue
            if show_menu:
                self.show_menu(game, awaited, names)
            show_menu = False
            try:
                line = self.read(f"{names.get(awaited, awaited)}> ")
            except EOFError:
                self.write("")
                self.leave(self.t.gettext("No more input."))
                return 0
            except KeyboardInterrupt:
                self.write("")
                self.leave(self.t.gettext("Stopped."))
                return 0
            text = " ".join(line.split())
            command, _, rest = text.partition(" ")
            command = command.lower()
            if not text:
                show_menu = True
            elif command in ("quit", "exit") and not rest:
                self.leave(self.t.gettext("Stopped."))
                return 0
            elif command in ("help", "?") and not rest:
                self.write(self.t.translate(HELP_TEXT))
            elif command == "rules" and not rest:
                self.write(plain("\n".join(words.rules_lines(self.t)[:-1])))
            elif command == "moves" and not rest:
                self.show_moves(game, awaited)
            elif command == "undo" and not rest:
                show_menu = self.undo()
            elif command == "back" and not rest:
                self.panel_code = None
                show_menu = True
            elif command == "board" and not rest:
                path = self.announcer.rewrite_latest()
                self.write(
                    self.t.gettext("[picture: {path}]", path=path)
                    if path
                    else self.t.gettext("No picture yet.")
                )
            elif command == "status" and not rest:
                self.write(plain(words.status(game, names, self.t)))
            elif command == "log" and (not rest or rest.isdigit()):
                self.show_log(int(rest) if rest else 1)
            elif text.isdigit():
                show_menu = self.choose(int(text), row, game, awaited)
            else:
                show_menu = self.play(awaited, text, expected_version=None)

    def leave(self, why: str) -> None:
        row, game = self.current()
        t = self.t
        self.write(
            why
            + " "
            + t.gettext(
                "The game is saved in {path} at move {version}.",
                path=self.db_path,
                version=row.version,
            )
        )
        self.write(plain(words.waiting_for(game, row.names, t)))
        self.write(t.gettext("Continue it with:") + f"\n{COMMAND_INDENT}{self.continue_with}")

    def play(self, player_id: str, move: str, *, expected_version: int | None) -> bool:
        """Send a move to the service; True when it was accepted (a new menu is due)."""
        try:
            self.runner.run(
                self.service.play(self.game_id, player_id, move, expected_version=expected_version)
            )
        except Refusal as refusal:
            self.write(self.t.gettext("Refused: {why}", why=plain(refusal.text(self.t))))
            self.write(self.t.gettext("(Type a menu number, a move, or 'help'.)"))
            return False
        self.panel_code = None
        return True

    def undo(self) -> bool:
        """Take back the last move (the players share the keyboard: whoever made it);
        True when it was taken back (a new menu is due)."""
        row, game = self.current()
        mover = prompts.last_mover(game) or game.awaiting
        if mover is None:
            self.write(self.t.gettext("Refused: the game is over."))
            return False
        try:
            self.runner.run(self.service.undo(row, mover))
        except Refusal as refusal:
            self.write(self.t.gettext("Refused: {why}", why=plain(refusal.text(self.t))))
            return False
        self.panel_code = None
        return True

    def choose(self, number: int, row: GameRow, game: Game, player_id: str) -> bool:
        choice = self.choices.get(number)
        if choice is None:
            highest = max(self.choices, default=0)
            lowest = min(self.choices, default=0)
            if self.choices:
                self.write(
                    self.t.gettext(
                        "There is no choice {number} in this menu ({lowest} to {highest}).",
                        number=number,
                        lowest=lowest,
                        highest=highest,
                    )
                )
            else:
                self.write(
                    self.t.gettext("There is no choice {number} in this menu.", number=number)
                )
            return False
        if choice.disabled:
            self.write(
                self.t.gettext(
                    "Choice {number} is not open to you now: {label}.",
                    number=number,
                    label=plain(choice.label),
                )
            )
            return False
        code = choice.code
        if code.startswith("a:"):
            return self.play(player_id, code[2:], expected_version=row.version)
        if code.startswith("p:"):
            self.panel_code = code
            return True
        if code == prompts.BOARD:
            self.write_board(row, player_id)
            return False
        if code == prompts.UNDO:
            return self.undo()
        self.write(
            self.t.gettext("That choice ({code}) is not something the console can do.", code=code)
        )
        return False

    # ------------------------------------------------------------------ showing

    def panel(self, game: Game, player_id: str, names: Mapping[str, str]) -> prompts.Panel:
        if self.panel_code is not None:
            try:
                panel = prompts.sub_panel(game, player_id, self.panel_code, names, self.t)
            except prompts.UnknownChoice:
                panel = None
            if panel is not None and panel.choices:
                return panel
            if panel is not None and panel.text:
                self.write(panel.text)
            self.panel_code = None
        panel = prompts.public_panel(game, names, self.t)
        # the players share the keyboard: each answers the auction when it reaches them
        buttons = tuple(b for b in panel.buttons if b.code != prompts.IN_ADVANCE)
        return replace(panel, buttons=buttons)

    def show_menu(self, game: Game, player_id: str, names: Mapping[str, str]) -> None:
        panel = self.panel(game, player_id, names)
        self.write(plain(panel.text))
        self.choices = numbered(panel)
        menu_starts = {menu.options[0].code: menu for menu in panel.menus if menu.options}
        # the "no" of the step (number 0) is listed last, like its button in Discord
        for number, choice in sorted(self.choices.items(), key=lambda item: item[0] == 0):
            if choice.code in menu_starts:
                self.write(f"  {menu_starts[choice.code].placeholder}")
            self.write(self.menu_line(number, choice, self.t))
        if not any(not choice.disabled for choice in self.choices.values()):
            # every panel offers something; should one not, the notation still works
            self.write(
                "  " + self.t.gettext("(no menu here: type a move, or 'moves' to list them)")
            )
        if self.panel_code is not None:
            self.write("  back  " + self.t.gettext("the first menu"))

    @staticmethod
    def menu_line(number: int, choice: prompts.Choice, t: Translator = ENGLISH) -> str:
        line = f"  {number:>2}. {choice.label}"
        if choice.description:
            line += f" ({choice.description})"
        if choice.disabled:
            return f"{line} — " + t.gettext("not now")
        if choice.code.startswith("a:"):
            notation = f"[{choice.code[2:]}]"
            # a narrow terminal moves the column left; a long notation then wraps below
            column = min(NOTATION_COLUMN, max(30, terminal_width() - 24))
            padding = " " * max(1, column - display_width(line))
            line = f"{line}{padding}{notation}"
        return line

    def show_moves(self, game: Game, player_id: str) -> None:
        by_verb: dict[str, list[str]] = {}
        for action in game.legal_actions(player_id):
            by_verb.setdefault(action.verb, []).append(str(action))
        for verb, moves in by_verb.items():
            said = (
                self.t.translate(words.VERB_MESSAGES[verb]) if verb in words.VERB_MESSAGES else verb
            )
            self.write(f"{said}: {', '.join(moves)}")

    def show_log(self, page: int) -> None:
        lines, pages = self.runner.run(self.service.log_page(self.game_id, page, LOG_PAGE))
        page = min(max(page, 1), pages)
        self.write(
            self.t.gettext(
                "Move log, page {page} of {pages} (1 = the latest moves):", page=page, pages=pages
            )
        )
        for line in lines:
            self.write(f"  {line}")

    def write_board(self, row: GameRow, player_id: str) -> None:
        picture = self.runner.run(self.service.board_picture(row, player_id, self.t.language))
        name = row.names.get(player_id, player_id)
        safe = "".join(c if c.isalnum() else "-" for c in name)
        path = self.announcer.folder / f"board-{safe}-{row.version:04d}.png"
        path.write_bytes(picture)
        self.write(self.t.gettext("[{who}'s board: {path}]", who=name, path=path))


# ---------------------------------------------------------------------- setting up


async def start_new(
    service: GameService,
    names: Sequence[str],
    seed: int | None,
    language: Language = "en",
    *,
    dealt: Game | None = None,
) -> int:
    """Open a lobby, seat the players (`ai`: an AI seat, added by the first person) and
    start: the service draws the order and says so (in `language`, the game's).
    `dealt`: a game from a record, its seats in the order of `names`, goes on instead."""
    humans = [n for n in names if not is_ai_name(n)]
    seats = [Seat(pid, name) for pid, name in zip(player_ids(humans), humans, strict=True)]
    row = await service.open_lobby(
        guild_id=None,
        channel_id=CONSOLE_CHANNEL_ID,
        thread_id=None,
        creator=seats[0],
        language=language,
    )
    for seat in seats[1:]:
        await service.join(row.id, seat)
    for name in names:
        level = ai_name_level(name)
        if level is not None:
            row = await service.add_ai(row.id, seats[0].user_id, level)
    if dealt is not None:
        people = iter(seat.user_id for seat in seats)
        ais = iter(seat.user_id for seat in row.players if seat.is_ai)
        ids = [next(ais) if is_ai_name(name) else next(people) for name in names]
        dealt = renamed(dealt, ids)
    await service.start(row.id, seats[0].user_id, seed=seed, dealt=dealt)
    return row.id


@dataclass(frozen=True)
class Loaded:
    """A game record read for the console: the game and its seats' names in seat order
    (`ai` for an AI seat), its language."""

    game: Game
    names: list[str]
    language: Language


class BadRecord(ValueError):
    """A record the console cannot start from; the message says why."""


def load_record(path: Path, turn: int | None) -> Loaded:
    """The record at `path` (as turn `turn` began); `BadRecord` says what is wrong in
    words: the file unreadable, the record's line and fault, a turn it does not have."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BadRecord(f"cannot read {path}: {error}") from error
    try:
        record = parse(text)
        game = record.game if turn is None else record.at_turn(turn)
    except RecordError as error:
        raise BadRecord(f"{path}, {error}") from error
    except ValueError as error:  # a turn the record does not have
        raise BadRecord(f"{path}: {error}") from error
    names: list[str] = []
    for seat, player_id in enumerate(game.player_ids, start=1):
        if is_ai_seat(player_id):
            names.append(ai_name(ai_seat_level(player_id)))
            continue
        name = clean_name(record.tags.get(f"Seat{seat}", player_id))
        taken = {n.casefold() for n in names}
        if name.casefold() in taken or is_ai_name(name):
            name = f"{name} {seat}"
        names.append(name)
    language = record.tags.get("Language", "en")
    return Loaded(game, names, language if is_language(language) else "en")


def open_or_continue(
    runner: asyncio.Runner,
    service: GameService,
    options: Options,
    db_path: Path,
    write: Callable[[str], None],
    loaded: Loaded | None = None,
) -> int | None:
    """The id of the game to play (continued or new, or `loaded` from a record), or None
    when there is none."""
    store = service.store
    row = runner.run(store.open_game_in(CONSOLE_CHANNEL_ID))
    if row is not None and row.status == LOBBY:
        # a start cut short before the deal: begin again
        runner.run(service.abandon(row.id, row.creator_id, may_manage=True))
        row = None
    t = translator(options.language or "en")
    if row is not None:
        if options.language is not None and options.language != row.language:
            row = runner.run(
                service.set_language(row, row.creator_id, options.language, may_manage=True)
            )
        t = game_words(row)
        names = ", ".join(seat.name for seat in row.players)
        write(
            t.gettext(
                "Continuing the unfinished game in {path} ({names}), at move {version}.",
                path=db_path,
                names=names,
                version=row.version,
            )
        )
        if options.players is not None and [s.name for s in row.players] != options.players:
            write(t.gettext("(--players is ignored: the saved game keeps its own players.)"))
        runner.run(service.repost(row.id))
        return row.id
    if loaded is not None:
        language = options.language or loaded.language
        t = translator(language)
        write(
            t.gettext(
                "Starting from the record {path} at turn {turn}: {names}.",
                path=options.record,
                turn=loaded.game.turn_number,
                names=", ".join("AI" if is_ai_name(n) else n for n in loaded.names),
            )
        )
        return runner.run(start_new(service, loaded.names, None, language, dealt=loaded.game))
    if options.players is None:
        last = runner.run(store.latest_game_in(CONSOLE_CHANNEL_ID))
        if last is not None and last.status == FINISHED and last.state_json is not None:
            write(t.gettext("The game in {path} is over.", path=db_path))
            write(plain(words.results(GameService.game_of(last), last.names, t)))
        else:
            write(t.gettext("There is no unfinished console game in {path}.", path=db_path))
        write(t.gettext("Start a new one with --players ana,ben (2 to 4 names)."))
        return None
    return runner.run(start_new(service, options.players, options.seed, options.language or "en"))


def run_console(
    options: Options,
    *,
    read: InputFunction = input,
    out: TextIO | None = None,
    renderer: Renderer | None = None,
    home: Path | None = None,
) -> int:
    """Play (or continue) a console game; returns the exit status."""
    stream = out if out is not None else sys.stdout

    def write(text: str) -> None:
        print(wrap(text, terminal_width()), file=stream, flush=True)

    loaded = None
    if options.record is not None:
        try:
            loaded = load_record(options.record, options.turn)
        except BadRecord as error:
            t = translator(options.language or "en")
            print(t.gettext("The record cannot be loaded: {why}", why=error), file=sys.stderr)
            return 2
    home = (home or CONSOLE_HOME).resolve()
    if options.db is None:
        home.mkdir(parents=True, exist_ok=True)
    db_path = (options.db or fresh_database(home)).resolve()
    announcer = ConsoleAnnouncer(
        picture_folder(options, db_path).resolve(), write, translator(options.language or "en")
    )
    previous_namer = name_commands_with(CONSOLE_COMMANDS)
    with asyncio.Runner() as runner, contextlib.ExitStack() as restore:
        restore.callback(name_commands_with, previous_namer)
        store = runner.run(Store.open(str(db_path)))
        try:
            service = game_service(store, renderer=renderer, announcer=announcer)
            game_id = open_or_continue(runner, service, options, db_path, write, loaded)
            if game_id is None:
                return 1
            write(announcer.t.gettext("Type a menu number or a move; 'help' lists the commands."))
            console = Console(
                runner,
                service,
                announcer,
                game_id,
                db_path=db_path,
                read=read,
                write=write,
                continue_with=continue_command(db_path, options),
            )
            try:
                return console.loop()
            finally:
                runner.run(console.ai.stop())
        finally:
            runner.run(store.close())


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(sys.argv[2:] if argv is None else argv)
    logging.basicConfig(
        level=logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        return run_console(options)
    except Refusal as refusal:
        print(plain(refusal.text(translator(options.language or "en"))), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # Ctrl-C while a move was being saved or drawn: a saved move stays saved
        print(f"\nStopped. Continue the game with: {CONSOLE_COMMAND} --db FILE", file=sys.stderr)
        return 130
