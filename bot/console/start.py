"""Setting a console game up and running it: a new game, one continued from its file,
or one started from a game record (`--record`), then the prompt loop (`run_console`,
`main`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.console.options import (
    CONSOLE_CHANNEL_ID,
    CONSOLE_COMMAND,
    CONSOLE_HOME,
    Options,
    ai_name,
    ai_name_level,
    continue_command,
    fresh_database,
    is_ai_name,
    parse_args,
    picture_folder,
    player_ids,
)
from bot.console.prompt import CONSOLE_COMMANDS, Console, ConsoleAnnouncer, InputFunction
from bot.console.text import plain, terminal_width, wrap
from bot.core.assembly import game_service
from bot.core.play.service import GameService, Refusal, Renderer
from bot.core.runtime.names import clean_name
from bot.core.store import FINISHED, LOBBY, Seat, Store, ai_seat_level, is_ai_seat
from bot.core.wording import words
from bot.core.wording.refusals import game_words
from i18n import Language, is_language, translator
from i18n.commands import name_commands_with
from rules import Game
from rules.record import RecordError, parse, renamed


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


def load_record(path: Path, turn: int | None, seed: int | None = None) -> Loaded:
    """The record at `path` (as turn `turn` began); `BadRecord` says what is wrong in
    words: the file unreadable, the record's line and fault, a turn it does not have.
    A record of a game under way has no seed: played on, its wheel spins from `seed`
    (`--seed`), or from a seed drawn afresh, never as the real game's will."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BadRecord(f"cannot read {path}: {error}") from error
    try:
        record = parse(text, fresh_seed=seed)
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
            loaded = load_record(options.record, options.turn, options.seed)
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
