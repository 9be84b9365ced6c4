"""The offline console (`python -m bot console`): a terminal game through the bot's service.

In-process tests drive `Console.loop` with an injected input function (and a cheap
renderer, so a whole game takes seconds); process tests run `python -m bot console`
with scripted stdin and the real renderer, and check the pictures, refusals, the end
of input and continuing a saved game.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.console import (
    CONSOLE_CHANNEL_ID,
    CONSOLE_COMMANDS,
    Console,
    ConsoleAnnouncer,
    Options,
    display_width,
    parse_args,
    start_new,
    wrap,
)
from bot.core.assembly import game_service
from bot.core.community.ratings import rating_player
from bot.core.delivery.pictures import BlankRenderer
from bot.core.play import prompts
from bot.core.store import FINISHED, Store
from i18n import translator
from i18n.commands import name_commands_with
from rules import Game
from rules.simulate import choose_action

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PICTURE_LINE = re.compile(r"\[picture: (.+?move-(\d{4})\.png)\]")
PROMPT_LINE = re.compile(r"^>> (\w+), ", re.MULTILINE)


class Session:
    """A console on a fresh game, its output captured, input from `self.answer`."""

    def __init__(self, tmp_path: Path, names: list[str], seed: int) -> None:
        self.output: list[str] = []
        self.runner = asyncio.Runner()
        self.store = self.runner.run(Store.open(str(tmp_path / "console.sqlite3")))
        self.announcer = ConsoleAnnouncer(tmp_path / "pictures", self.output.append)
        self.service = game_service(self.store, renderer=BlankRenderer(), announcer=self.announcer)
        self.game_id = self.runner.run(start_new(self.service, names, seed))
        self.answer: Callable[[str], str] = self.end_of_input
        self.console = Console(
            self.runner,
            self.service,
            self.announcer,
            self.game_id,
            db_path=tmp_path / "console.sqlite3",
            read=lambda prompt: self.answer(prompt),
            write=self.output.append,
        )

    @staticmethod
    def end_of_input(prompt: str) -> str:
        raise EOFError

    def game(self) -> Game:
        return self.console.current()[1]

    def text(self) -> str:
        return "\n".join(self.output)

    def close(self) -> None:
        try:
            self.runner.run(self.console.ai.stop())
            self.runner.run(self.store.close())
        finally:
            self.runner.close()


@pytest.fixture
def new_session(tmp_path: Path) -> Iterator[Callable[[list[str], int], Session]]:
    """Makes the test's console session; closes it (its database thread) whatever happens."""
    made: list[Session] = []

    def make(names: list[str], seed: int) -> Session:
        session = Session(tmp_path, names, seed)
        made.append(session)
        return session

    yield make
    for session in made:
        session.close()


def script(lines: list[str]) -> Callable[[str], str]:
    pending = list(lines)

    def read(prompt: str) -> str:
        if not pending:
            raise EOFError
        return pending.pop(0)

    return read


def test_a_whole_game_by_menu_numbers_and_notation_ends_with_the_ranking(
    tmp_path: Path, new_session: Callable[[list[str], int], Session]
) -> None:
    session = new_session(["ana", "ben"], 5)
    rng = random.Random(5)
    typed = {"number": 0, "notation": 0}
    accepted_versions: list[int] = []

    def player(prompt: str) -> str:
        game = session.game()
        awaited = game.awaiting
        assert awaited is not None
        name = session.console.current()[0].names[awaited]
        assert prompt == f"{name}> ", "the prompt names the awaited player"
        if len(accepted_versions) > 3000:
            raise AssertionError("the game does not end")
        accepted_versions.append(game.version)
        _, action = choose_action(game, rng)
        numbers = {choice.code: n for n, choice in session.console.choices.items()}
        if f"a:{action}" in numbers and rng.random() < 0.7:
            typed["number"] += 1
            return str(numbers[f"a:{action}"])
        typed["notation"] += 1
        return str(action)

    session.answer = player
    assert session.console.loop() == 0
    row, game = session.console.current()
    saved = session.runner.run(session.store.moves(row.id, limit=10_000))
    assert game.is_over and row.status == FINISHED
    assert typed["number"] > 10 and typed["notation"] > 10
    text = session.text()
    assert "Refused" not in text
    assert "Seat order, drawn at random" in text
    # the ranking, in the engine's order, after the last move
    ranking = game.result().ranking
    tail = text[text.rindex("Final ranking") :]
    for standing in ranking:
        assert f"{standing.place}. {row.names[standing.player]} (" in tail
    positions = [tail.index(f". {row.names[s.player]} (") for s in ranking]
    assert positions == sorted(positions)
    # one picture per accepted move, plus the starting position
    pictures = sorted((tmp_path / "pictures").glob("move-*.png"))
    assert len(pictures) == len(accepted_versions) + 1
    assert pictures[-1].name == f"move-{game.version:04d}.png"
    # the saved game is the played game: its log replays to the same state
    assert [(m.player, m.notation) for m in saved] == [tuple(entry) for entry in game.log]
    assert Game.replay(game.record()).to_dict() == game.to_dict()


def test_refusals_commands_and_menus_change_nothing(
    tmp_path: Path, new_session: Callable[[list[str], int], Session]
) -> None:
    session = new_session(["ana", "ben", "cleo"], 1)
    start = session.game()
    assert start.pending.kind == "main", "this seed starts on the first menu"
    session.answer = script(
        ["build Z9", "fly away", "99", "help", "moves", "status", "log", "board", "2", "back"]
    )
    assert session.console.loop() == 0
    after = session.game()
    assert after.to_dict() == start.to_dict(), "nothing typed here is a move"
    text = session.text()
    assert text.count("Refused: ") == 2
    refusal = text[text.index("Refused: ") :].splitlines()[0]
    assert "You may now:" in refusal  # the refusal says what is allowed, in words
    assert "There is no choice 99 in this menu" in text
    assert "quit" in text and "log [N]" in text  # help
    assert "recruit: recruit" in text  # moves lists the notation by kind
    assert "Standings so far" in text
    assert "Move log, page 1 of 1" in text
    # "2" on the first menu opens "Work…" (a menu of places, no move), "back" returns
    assert "Work where?" in text and "back  the first menu" in text
    assert text.rstrip().endswith(
        f"\n    bash scripts/run-bot.sh console --db {tmp_path / 'console.sqlite3'}"
    )


def test_a_choice_keeps_its_number_from_step_to_step(
    new_session: Callable[[list[str], int], Session],
) -> None:
    """Issue 12.4: "stop" came first in "build again", so a field's number changed from
    one build to the next. Every move here is tapped through the numbered menus."""
    session = new_session(["ana", "ben", "cleo"], 4)
    rng = random.Random(4)
    shown: list[tuple[str, str | None, dict[str, int]]] = []
    """(the awaited decision, the open sub-menu, code -> number) of every menu shown"""
    plan: list[str] = []
    tried_disabled: list[tuple[int, int]] = []

    def player(prompt: str) -> str:
        game = session.game()
        console = session.console
        numbers = {choice.code: n for n, choice in console.choices.items()}
        shown.append((game.pending.kind, console.panel_code, numbers))
        if len(shown) > 4000:
            raise AssertionError("the game does not end")
        disabled = [n for n, c in console.choices.items() if c.disabled]
        if disabled and not plan and len(tried_disabled) < 3:
            tried_disabled.append((disabled[0], game.version))
            return str(disabled[0])
        if not plan:
            pid, action = choose_action(game, rng)
            names = console.current()[0].names
            path = prompts.tap_path(game, pid, names, list(numbers), f"a:{action}")
            if path is None:
                return str(action)
            plan.extend(path)
        return str(numbers[plan.pop(0)])

    session.answer = player
    assert session.console.loop() == 0
    assert session.game().is_over
    text = session.text()
    assert "Refused" not in text
    # a disabled choice keeps its number, is listed, and choosing it changes nothing
    assert tried_disabled and text.count("is not open to you now") == len(tried_disabled)
    assert "— not now" in text
    main = [
        {code: n for code, n in numbers.items() if code != prompts.UNDO}  # comes and goes last
        for kind, sub, numbers in shown
        if kind == "main" and sub is None
    ]
    assert main and all(
        numbers == {"a:recruit": 1, "p:work": 2, "p:build": 3, "p:trade": 4, "board": 5}
        for numbers in main
    )
    declining = {f"a:{notation}" for notation in prompts.DECLINING}
    zeros = [code for _, _, numbers in shown for code, n in numbers.items() if n == 0]
    assert {"a:stop", "a:pass", "a:end"} <= set(zeros) <= declining
    assert all(
        n == 0 for _, _, numbers in shown for code, n in numbers.items() if code in declining
    )
    city = [numbers for kind, _, numbers in shown if kind == "bid"]
    assert city and all(
        numbers[f"a:place {row} {column}"] == 4 * (row - 1) + column
        for numbers in city
        for row in range(1, 5)
        for column in range(1, 5)
    )
    # the fields of "Build…" and of every "build again" menu: numbered from 1, cheapest
    # first, so a field keeps its number while the fields before it stay on offer
    builds = [
        numbers
        for kind, sub, numbers in shown
        if (kind == "main" and sub == "p:build") or (kind == "build" and sub is None)
    ]
    assert len([n for kind, _, n in shown if kind == "build"]) > 3
    assert any(sub == "p:build" for _, sub, _ in shown)
    for numbers in builds:
        fields = sorted((n, code) for code, n in numbers.items() if code.startswith("a:build "))
        assert [n for n, _ in fields] == list(range(1, len(fields) + 1))


def test_players_are_named_and_seated_by_the_service() -> None:
    options = parse_args(["--players", " ana , ben,cleo ", "--seed", "4"])
    assert options == Options(players=["ana", "ben", "cleo"], seed=4, out=None, db=None)


# ---------------------------------------------------------------------- as a process


def run_console(
    args: list[str], lines: list[str], cwd: Path, *, columns: int = 1000
) -> subprocess.CompletedProcess[str]:
    """`python -m bot console` in a terminal `columns` wide (wide: no line is wrapped)."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", *args],
        input="".join(line + "\n" for line in lines),
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT), "COLUMNS": str(columns)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def pictures_of(output: str) -> list[tuple[Path, int]]:
    return [(Path(path), int(version)) for path, version in PICTURE_LINE.findall(output)]


def assert_valid_png(path: Path) -> None:
    assert path.read_bytes().startswith(PNG_SIGNATURE)
    with Image.open(path) as image:
        image.verify()


def saved_game(db: Path) -> tuple[Game, int, dict[str, str]]:
    async def read() -> tuple[Game, int, dict[str, str]]:
        store = await Store.open(str(db))
        try:
            row = await store.latest_game_in(CONSOLE_CHANNEL_ID)
            assert row is not None and row.state is not None
            return Game.from_dict(row.state), row.version, row.names
        finally:
            await store.close()

    return asyncio.run(read())


def test_the_process_refuses_helps_stops_at_end_of_input_and_continues(tmp_path: Path) -> None:
    db = tmp_path / "saved.sqlite3"
    first = run_console(
        ["--players", "ana,ben", "--seed", "8", "--out", "first", "--db", str(db)],
        ["help", "build Z9", "board"],
        cwd=tmp_path,
    )
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "Seat order, drawn at random: 1. " in out
    awaited_first = PROMPT_LINE.findall(out)
    assert awaited_first and awaited_first[-1] in ("ana", "ben")
    assert re.search(rf"^>> {awaited_first[0]}, your turn: recruit, work or build\.$", out, re.M)
    assert "log [N]" in out  # help
    assert "Refused: " in out
    ((start_picture, start_version),) = set(pictures_of(out))
    assert start_picture == tmp_path / "first" / f"move-{start_version:04d}.png"
    assert_valid_png(start_picture)
    # the refused move changed nothing: saved at the starting version
    assert f"saved in {db} at move {start_version}." in out
    assert (
        "Continue it with:\n"
        f"    bash scripts/run-bot.sh console --db {db} --out {tmp_path / 'first'}\n"
    ) in out
    game_before, version_before, _ = saved_game(db)
    assert version_before == start_version

    second = run_console(["--db", str(db), "--out", "second"], ["1", "1", "1", "log"], tmp_path)
    assert second.returncode == 0, second.stderr
    out = second.stdout
    assert f"Continuing the unfinished game in {db} (" in out
    assert f"at move {start_version}." in out
    # the same player is awaited on the same state
    assert PROMPT_LINE.findall(out)[0] == awaited_first[-1]
    shown = pictures_of(out)
    assert shown[0][1] == start_version
    assert len(shown) == 4, "the position continued from, then one picture per move"
    versions = [version for _, version in shown]
    assert versions == sorted(set(versions))
    for path, _ in shown:
        assert path.parent == tmp_path / "second"
        assert_valid_png(path)
    assert sorted(p.name for p in (tmp_path / "second").glob("*.png")) == [p.name for p, _ in shown]
    game_after, version_after, _ = saved_game(db)
    assert version_after == versions[-1]
    assert game_after.log[:version_before] == game_before.log
    assert "Move log, page 1 of 1" in out
    assert f"saved in {db} at move {version_after}." in out


def test_the_process_plays_a_saved_game_to_its_end(tmp_path: Path) -> None:
    """Most of a game is played through the service; the console plays its last moves."""
    db = tmp_path / "near-end.sqlite3"
    last_moves = asyncio.run(_play_all_but_the_end(db, remaining=4, seed=3))
    done = run_console(["--db", str(db), "--out", "end"], last_moves, tmp_path)
    assert done.returncode == 0, done.stderr
    game, version, names = saved_game(db)
    assert game.is_over
    out = done.stdout
    assert out.count("Refused") == 0
    assert "The game is over: " in out
    ranking = out[out.index("Final ranking") :]
    for standing in game.result().ranking:
        assert f"{standing.place}. {names[standing.player]} (" in ranking
    shown = pictures_of(out)
    assert len(shown) == 1 + len(last_moves)
    assert shown[-1][1] == version
    for path, _ in shown:
        assert_valid_png(path)
    assert "Continue it with" not in out
    assert f"The game is over. Its pictures are in {tmp_path / 'end'}/" in out


async def _play_all_but_the_end(db: Path, *, remaining: int, seed: int) -> list[str]:
    """A console game in `db`, stopped `remaining` moves before its end; those moves."""
    store = await Store.open(str(db))
    try:
        service = game_service(store, renderer=BlankRenderer())
        game_id = await start_new(service, ["ana", "ben"], seed)
        row = await service.get(game_id)
        preview = service.game_of(row)
        rng = random.Random(seed)
        plan: list[tuple[str, str]] = []
        while not preview.is_over:
            player, action = choose_action(preview, rng)
            preview.apply(player, action)
            plan.append((player, str(action)))
        for player, move in plan[:-remaining]:
            await service.play(game_id, player, move)
        return [move for _, move in plan[-remaining:]]
    finally:
        await store.close()


def test_without_players_or_a_saved_game_it_says_what_to_do(tmp_path: Path) -> None:
    done = run_console(["--db", str(tmp_path / "empty.sqlite3")], [], tmp_path)
    assert done.returncode == 1
    assert "Start a new one with --players" in done.stdout
    assert not (tmp_path / "out").exists(), "no picture folder for no game"


def _read_until_closed(fd: int, deadline: float) -> bytes:
    """What a process writes to `fd` until it closes it (it has ended), or the deadline."""
    shown = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        shown += chunk
    return shown


def test_ctrl_c_at_the_prompt_stops_cleanly_and_keeps_the_game(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--players", "ana,ben", "--out", "pics"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "COLUMNS": "1000"},
    )
    assert process.stdout is not None
    shown = b""
    deadline = time.monotonic() + 60
    while not re.search(rb"\n(ana|ben)> $", shown) and time.monotonic() < deadline:
        chunk = os.read(process.stdout.fileno(), 4096)
        if not chunk:
            break
        shown += chunk
    assert re.search(rb"\n(ana|ben)> $", shown), shown.decode()
    # stdin stays open until the process has ended: closing it (as communicate() does at
    # once) raced the interrupt with the end of input, "No more input" on a busy machine.
    # input() writes its prompt before it starts reading: an interrupt that falls between
    # the two waits until the read returns (a person's Ctrl-C comes later than that), so
    # the interrupt is sent again while the console has shown nothing of handling it.
    fd = process.stdout.fileno()
    for _ in range(10):
        process.send_signal(signal.SIGINT)
        ready, _, _ = select.select([fd], [], [], 3.0)
        if ready:
            break
    rest = _read_until_closed(fd, deadline=time.monotonic() + 60)
    process.wait(timeout=60)
    assert process.stdin is not None and process.stderr is not None
    process.stdin.close()
    errors = process.stderr.read()
    assert process.returncode == 0, errors.decode()
    assert b"Stopped. The game is saved in " in rest
    (db,) = (tmp_path / "out" / "console").glob("game-*.sqlite3")
    assert f"--db {db} --out {tmp_path / 'pics'}\n".encode() in rest


def test_long_lines_wrap_between_words_to_the_width() -> None:
    """Issue 12.8: lines are broken at spaces, never inside a word, to the terminal's width."""
    sentence = (
        "Seat order, drawn at random: 1. Ana — blue, starts, 3 coins; 2. Ben — yellow, "
        "4 coins; 3. Cleo — green, 5 coins."
    )
    wrapped = wrap(sentence, 30).split("\n")
    assert len(wrapped) > 3
    assert all(display_width(line) <= 30 for line in wrapped)
    assert " ".join(wrapped) == sentence
    menu = wrap("  12. Bank space 4: 3 workers → 11 coins" + " " * 8 + "[bank 4 copper]", 30)
    lines = menu.split("\n")
    assert lines[0].startswith("  12. Bank") and all(
        line.startswith("      ") for line in lines[1:]
    )
    assert "[bank 4 copper]" in menu
    # a word wider than the line is not cut; a command to copy stays whole
    assert wrap("see /a/very/long/path/to/a/picture.png now", 12).split("\n") == [
        "see",
        "/a/very/long/path/to/a/picture.png",
        "now",
    ]
    command = "    bash scripts/run-bot.sh console --db /some/where/game.sqlite3"
    assert wrap(command, 20) == command


def test_in_a_narrow_terminal_no_line_is_wider_than_it(tmp_path: Path) -> None:
    done = run_console(
        ["--players", "ana,ben,cleo", "--seed", "3", "--out", "p"],
        ["help", "status", "rules"],
        tmp_path,
        columns=44,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) > 40
    for shown in lines:
        line = re.sub(r"^(?:\w+> )+", "", shown)  # piped input leaves no newline after a prompt
        if display_width(line) > 44:  # only one long word or [picture: path], or a command
            whole = len(line.split()) == 1 or re.fullmatch(r" *\[[^\]]*\]", line)
            assert line.startswith("    bash ") or whole, line


def test_the_printed_command_continues_the_game_from_the_repository_root(tmp_path: Path) -> None:
    """Issue 12.1-2: the hint works outside the virtual environment, and a continued game
    adds its pictures to the same git-ignored folder as when it was new."""
    if not (ROOT / ".venv" / "bin" / "python").exists():
        pytest.skip("scripts/run-bot.sh would first install the .venv")
    first = run_console(["--players", "ana,ben", "--seed", "6"], [], tmp_path)
    assert first.returncode == 0, first.stderr
    (db,) = (tmp_path / "out" / "console").glob("game-*.sqlite3")
    pictures = db.with_suffix("")
    assert f"Pictures go to {pictures}/" in first.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"], "nothing outside out/"
    hint = first.stdout.split("Continue it with:\n", 1)[1].splitlines()[0]
    assert hint == f"    bash scripts/run-bot.sh console --db {db}"
    # run it as printed, from the repository root, with no virtual environment active
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "DISCORD_TOKEN")}
    path = [p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p]
    continued = subprocess.run(
        ["bash", "-c", hint.strip()],
        input="1\n",
        cwd=ROOT,
        env={**env, "PATH": os.pathsep.join(path), "COLUMNS": "1000"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert continued.returncode == 0, continued.stderr
    assert f"Continuing the unfinished game in {db}" in continued.stdout
    shown = pictures_of(continued.stdout)
    assert len(shown) == 2 and all(path.parent == pictures for path, _ in shown)
    assert len(list(pictures.glob("move-*.png"))) == 2 + len(pictures_of(first.stdout)) - 1


def test_undo_takes_back_the_last_move_at_the_shared_keyboard(
    new_session: Callable[[list[str], int], Session],
) -> None:
    """Issue 11.2 in the console: `undo` (or its menu number) takes back the last move
    of whoever made it, while no other player has moved since."""
    session = new_session(["ana", "ben"], 3)
    game = session.game()
    while game.pending.kind != "main":
        pid = game.awaiting
        assert pid is not None
        session.runner.run(session.service.play(session.game_id, pid, game.legal_actions(pid)[0]))
        game = session.game()
    before = game.to_dict()
    mover = game.awaiting
    assert mover is not None
    bank = next(str(a) for a in game.legal_actions(mover) if a.verb == "bank")
    session.answer = script([bank, "undo", "undo"])
    assert session.console.loop() == 0
    assert session.game().to_dict() == before
    text = session.text()
    assert "took back: put " in text
    # the second undo: the earlier moves were the setup's spins, which cannot be taken back
    assert "Refused: Nothing to take back: the wheel has been spun since." in text


def test_ai_seats_play_themselves_at_the_console(
    tmp_path: Path, new_session: Callable[[list[str], int], Session]
) -> None:
    """`console --players ana,ai,ai`: the keyboard answers ana only; the AI seats move
    by themselves (legal moves, saved and shown like any other)."""
    with pytest.raises(SystemExit):
        parse_args(["--players", "ai,AI"])  # a table of AI seats alone is refused
    assert parse_args(["--players", "ana,AI,ai"]).players == ["ana", "ai", "ai"]
    session = new_session(["ana", "ai", "ai"], 4)
    rng = random.Random(4)
    prompts_seen: set[str] = set()

    def ana(prompt: str) -> str:
        prompts_seen.add(prompt)
        game = session.game()
        if len(game.log) > 3000:
            raise AssertionError("the game does not end")
        return str(choose_action(game, rng)[1])

    session.answer = ana
    assert session.console.loop() == 0
    row, game = session.console.current()
    assert game.is_over and row.status == FINISHED
    assert prompts_seen == {"ana> "}
    assert sorted(s.name for s in row.players) == ["AI 1", "AI 2", "ana"]
    players = {pid for pid, _ in game.log}
    assert {"ai:1", "ai:2"} <= players
    assert Game.replay(game.record()).to_dict() == game.to_dict()
    text = session.text()
    assert "Refused" not in text and "AI 1" in text and "Final ranking" in text


def test_the_console_names_its_own_commands_and_the_others_as_slash_commands() -> None:
    """Issue 24.1: a message naming `/montana board` says `board` in the console (a
    command it understands); one it does not have stays the slash command, in the
    reader's language."""
    previous = name_commands_with(CONSOLE_COMMANDS)
    try:
        t = translator("fr")
        assert t.gettext("{/board} {/game rules} {/undo}") == "`board` `rules` `undo`"
        assert t.gettext("{/me away}") == "`/montana moi absent`"
    finally:
        name_commands_with(previous)


def test_the_console_seats_ai_players_of_the_levels_named(
    new_session: Callable[[list[str], int], Session],
) -> None:
    """`console --players ana,ai:hard,ai:easy` (issue 27.3): each AI seat plays its level
    and is rated as that level's pseudo-player; an unknown level is refused by name."""
    assert parse_args(["--players", "ana,AI:Hard,ai:easy,ai"]).players == [
        "ana",
        "ai:hard",
        "ai:easy",
        "ai",
    ]
    with pytest.raises(SystemExit):
        parse_args(["--players", "ana,ai:expert"])
    session = new_session(["ana", "ai:hard", "ai:easy"], 4)
    row, _ = session.console.current()
    ais = [seat for seat in row.players if seat.is_ai]
    assert sorted((s.user_id, s.name) for s in ais) == [
        ("ai:1:hard", "AI 1 (hard)"),
        ("ai:2:easy", "AI 2 (easy)"),
    ]
    assert {s.user_id: session.console.ai.policy_for(row, s.user_id, hint=False) for s in ais} == {
        "ai:1:hard": "hard",
        "ai:2:easy": "easy",
    }
    assert sorted(rating_player(row, s) for s in ais) == ["ai-level:easy", "ai-level:hard"]
