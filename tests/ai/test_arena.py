"""The arena's report: the lines the coordinator reads, seats rotated over games."""

from __future__ import annotations

import re

import pytest

from ai.arena import main, seat_policies

TINY_AI = "ai:nodes=20,top=2,samples=1"


def test_the_arena_prints_the_win_rate_decision_times_and_the_clock(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--players", "2", "--games", "2", "--seed", "3", TINY_AI, "random"]) == 0
    out = capsys.readouterr().out.splitlines()
    rate = next(line for line in out if line.startswith("win rate of"))
    assert re.fullmatch(rf"win rate of {re.escape(TINY_AI)}: [01]\.\d\d", rate)
    assert float(rate.rsplit(" ", 1)[1]) in (0.0, 0.25, 0.5, 0.75, 1.0)
    times = next(line for line in out if line.startswith("decision ms:"))
    assert re.fullmatch(r"decision ms: median \d+, p99 \d+", times)
    assert any(re.fullmatch(r"wall time: [\d.]+ s, CPU time: [\d.]+ s .*", line) for line in out)


def test_the_subject_takes_every_seat_in_turn() -> None:
    specs = ["ai", "random", "greedy"]
    seats = [seat_policies(specs, 4, game) for game in range(4)]
    assert [s.index("ai") for s in seats] == [0, 1, 2, 3]
    assert seats[0] == ["ai", "random", "greedy", "random"]
    assert all(sorted(s) == ["ai", "greedy", "random", "random"] for s in seats)


def test_the_arena_refuses_an_unknown_policy() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        main(["--games", "1", "ai", "clever"])


def test_the_ladder_prints_one_line_per_adjacent_pair(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import ai.arena

    assert [pair for pair in ai.arena.LADDER] == [
        ("hard", "normal"),
        ("normal", "easy"),
        ("easy", "random"),
        ("easy", "greedy"),
    ]
    # the real levels take minutes per game pair; small budgets show the report's form
    monkeypatch.setattr(ai.arena, "LADDER", ((TINY_AI, "random"), ("easy:nodes=20", "greedy")))
    assert main(["--ladder", "--games", "2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    pattern = (
        r"(?P<a>\S+) vs (?P<b>\S+): win rate of (?P=a) [01]\.\d\d, "
        r"decision ms of (?P=a): median \d+, p99 \d+ \(wall \d+ s\)"
    )
    matches = [re.fullmatch(pattern, line) for line in lines]
    assert [(m["a"], m["b"]) for m in matches if m] == [
        (TINY_AI, "random"),
        ("easy:nodes=20", "greedy"),
    ]


def test_the_ladder_names_no_policy() -> None:
    with pytest.raises(SystemExit):
        main(["--ladder", "ai", "random"])
