"""The console from a game record (issue 23 point 4): `console --record FILE [--turn N]`
goes on from the record's end or from turn N, in a new game file; a bad record is
refused with the line `rules.record.loads` names."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.console import Options, parse_args, run_console
from bot.core.delivery.pictures import BlankRenderer
from rules import Game
from rules.record import dumps, parse, renamed
from rules.simulate import choose_action
from tests.bot.test_console import run_console as console_process
from tests.bot.test_console import saved_game


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # no line wrapped


def played(seed: int, *, moves: int | None = None) -> Game:
    """A random 3-player game between two people and an AI seat (to its end, or
    `moves` log entries)."""
    game = Game.new(["301", "ai:1", "302"], seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (moves is None or len(game.log) < moves):
        game.apply(*choose_action(game, rng))
    return game


def write_record(path: Path, game: Game, **tags: str) -> Path:
    path.write_text(
        dumps(game, {"Game": "42", **tags}, names={"301": "Ana", "302": "Ben"}), encoding="utf-8"
    )
    return path


def console(tmp_path: Path, args: list[str], lines: list[str]) -> tuple[int, str]:
    """`console ARGS` in process (blank pictures), its answers from `lines`."""
    answers: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    status = run_console(
        parse_args(args), read=read, out=out, renderer=BlankRenderer(), home=tmp_path / "home"
    )
    return status, out.getvalue()


def the_game_file(tmp_path: Path) -> Path:
    (db,) = (tmp_path / "home").glob("game-*.sqlite3")
    return db


def test_a_record_goes_on_from_the_turn_asked(tmp_path: Path) -> None:
    """Issue 23.4: "loads a record into the offline console … at turn N, to continue the
    game from there": the console's game is the record's as turn N began, its people
    under their names and its AI seat an AI seat, and the next move is saved."""
    game = played(4, moves=200)
    record = write_record(tmp_path / "montana-42.txt", game)
    at_twelve = parse(record.read_text()).at_turn(12)
    status, output = console(tmp_path, ["--record", str(record), "--turn", "12"], ["1"])
    assert status == 0
    assert "Starting from the record" in output and "at turn 12: Ana, AI, Ben." in output
    saved, version, names = saved_game(the_game_file(tmp_path))
    assert names == {"console-1": "Ana", "ai:1": "AI 1", "console-2": "Ben"}
    ids = ["console-1", "ai:1", "console-2"]
    # the move typed at the prompt ("1") is the next entry of the log
    assert saved.log[: len(at_twelve.log)] == renamed(at_twelve, ids).log
    assert version > len(at_twelve.log) and saved.turn_number >= 12


def test_a_record_opens_at_its_end_by_default(tmp_path: Path) -> None:
    """Without --turn the console stands where the record ends; a finished game shows
    its final ranking and asks nothing."""
    finished = played(6)
    record = write_record(tmp_path / "done.txt", finished)
    status, output = console(tmp_path, ["--record", str(record)], [])
    assert status == 0
    assert "Final ranking" in output and "The game is over." in output
    saved, _, _ = saved_game(the_game_file(tmp_path))
    assert saved == renamed(finished, ["console-1", "ai:1", "console-2"])


def test_a_bad_record_is_refused_with_its_line_and_no_game_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tampered record: the loads error (line and what is wrong) and exit status 2;
    a turn the record does not have is refused the same way."""
    game = played(8, moves=120)
    text = write_record(tmp_path / "r.txt", game).read_text().splitlines()
    line = next(i for i, t in enumerate(text) if t.startswith("40. "))
    colour = text[line].split()[1]
    text[line] = f"40. {colour} build A0"
    (tmp_path / "bad.txt").write_text("\n".join(text) + "\n")
    status, _ = console(tmp_path, ["--record", str(tmp_path / "bad.txt")], [])
    assert status == 2
    err = capsys.readouterr().err
    assert f"bad.txt, line {line + 1}: 'build A0' is refused" in err
    status, _ = console(tmp_path, ["--record", str(tmp_path / "r.txt"), "--turn", "500"], [])
    assert status == 2
    assert "turn 500 is not in the record" in capsys.readouterr().err
    assert not (tmp_path / "home").exists()


def test_record_options_go_together() -> None:
    assert parse_args(["--record", "x.txt", "--turn", "3"]) == Options(
        players=None, seed=None, out=None, db=None, record=Path("x.txt"), turn=3
    )
    for wrong in (["--turn", "3", "--players", "a,b"], ["--record", "x", "--db", "y"]):
        with pytest.raises(SystemExit):
            parse_args(wrong)


def test_the_process_starts_from_a_record_in_the_records_language(tmp_path: Path) -> None:
    """`python -m bot console --record FILE --turn N` in a terminal: the record's
    language (its Language tag) is the console's."""
    record = write_record(tmp_path / "fr.txt", played(9, moves=90), Language="fr")
    done = console_process(["--record", str(record), "--turn", "8"], ["quit"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Reprenez-la avec" in done.stdout
    assert "tour 8" in done.stdout
