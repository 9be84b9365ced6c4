"""The console's prompt loop: whoever the game awaits answers with a menu number (the
Discord panels of `bot.core.play.prompts`, numbered), a move's notation or a command;
each outcome is shown in the terminal and its picture written."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from bot.console.options import CONSOLE_COMMAND
from bot.console.text import COMMAND_INDENT, display_width, plain, terminal_width
from bot.core.ai_players.ai_seats import AiPlayers
from bot.core.play import prompts
from bot.core.play.service import GameService, Outcome, Refusal
from bot.core.store import ACTIVE, GameRow
from bot.core.wording import icons, words
from bot.core.wording.commands import ConsoleCommands
from bot.core.wording.refusals import game_words
from i18n import Translator, translatable
from render.words import ENGLISH
from rules import Game

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
        icon = f"{icons.unicode_of(choice.icon)} " if choice.icon else ""
        line = f"  {number:>2}. {icon}{choice.label}"
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
