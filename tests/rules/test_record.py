"""Game records (issue 23 point 3): `rules.record.dumps` writes a game as text,
`loads` reads it back to the identical state, checking every move by replaying it."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from render.replay import turn_states
from rules import Game, data
from rules.record import FORCED, RecordError, Undone, dumps, loads, parse
from rules.simulate import choose_action

IDS = ("111", "ai:1", "333", "444")


@dataclass
class Played:
    """A random game as the bot would keep it: moments and notes per log entry, and
    the moves taken back."""

    game: Game
    moments: list[str] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)
    undone: list[Undone] = field(default_factory=list)


def play(players: int, seed: int, *, stop_at: int | None = None) -> Played:
    """A random game (to its end, or `stop_at` moves) in which players now and then
    take their last move back, and some passes are noted as given in advance."""
    rng = random.Random(seed)
    played = Played(Game.new(IDS[:players], seed=seed))
    game = played.game
    played.moments = ["2026-11-01T09:00:00+00:00"] * len(game.log)  # the setup spins
    moves = 0
    while not game.is_over and (stop_at is None or moves < stop_at):
        player, action = choose_action(game, rng)
        before = len(game.log)
        game.apply(player, action)
        moves += 1
        for index in range(before, len(game.log)):
            played.moments.append(f"2026-11-{1 + index // 100:02d}T10:{index % 60:02d}:00+00:00")
            if game.log[index][1] == "pass" and index not in game.auto and rng.random() < 0.5:
                played.notes[index] = "advance"
        if rng.random() < 0.02 and game.undoable(player):
            earlier = game.undo(player)
            kept = len(earlier.log)
            played.undone += [
                Undone(i + 1, pid, notation, played.moments[i], None, player, "2026-12-01")
                for i, (pid, notation) in enumerate(game.log[kept:], start=kept)
            ]
            played.game = game = earlier
            del played.moments[kept:]
            played.notes = {i: n for i, n in played.notes.items() if i < kept}
    return played


def dumped(played: Played) -> str:
    return dumps(
        played.game,
        {"Game": "7", "Server": 'Prairie "Club"', "Language": "fr"},
        names={"111": "Ana Łoś", "333": "Ben"},
        moments=played.moments,
        notes=played.notes,
        undone=played.undone,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_reads_back_to_the_identical_game(players: int) -> None:
    """Issue 23: "`loads(dumps(game))` gives the identical state for 200 random games of
    2, 3 and 4 players (including undone moves, forced steps and passes in advance)".
    RULES.md 7.3: "the engine applies it at once and logs it as that player's move" —
    the forced steps are in the record, noted, and replay to the same `auto`."""
    seen = {"undone": 0, "forced": 0, "advance": 0, "under way": 0}
    for seed in range(67 if players < 4 else 66):
        played = play(players, 1000 * players + seed, stop_at=60 if seed % 5 == 0 else None)
        text = dumped(played)
        record = parse(text)
        game, tags = loads(text)
        if played.game.is_over:
            assert record.game == played.game  # the whole state: log, auto, generator, board
            assert game == played.game and tags["Seed"] == str(played.game.seed)
        else:
            # under way: the whole state but what decides the spins to come (issue 35.3)
            assert record.game.visible_dict() == played.game.visible_dict()
            assert game.visible_dict() == played.game.visible_dict()
            assert "Seed" not in tags and str(played.game.seed) not in text.split("\n1. ")[0]
        assert tags["Server"] == 'Prairie "Club"' and tags["Seat1"] == "Ana Łoś"
        assert tags["Result"] == ("finished" if game.is_over else "under way")
        assert [m.at for m in record.moves] == played.moments
        assert {i: m.note for i, m in enumerate(record.moves) if m.note not in (None, FORCED)} == (
            played.notes
        )
        assert {i for i, m in enumerate(record.moves) if m.note == FORCED} == set(game.auto)
        # each undo's run of moves stands where it began: the same moves, maybe reordered
        assert sorted(record.undone, key=repr) == sorted(played.undone, key=repr)
        seen["undone"] += bool(played.undone)
        seen["forced"] += bool(game.auto)
        seen["advance"] += bool(played.notes)
        seen["under way"] += not game.is_over
    assert all(count > 0 for count in seen.values()), seen


def spins_to_come(game: Game, count: int) -> list[str]:
    """The next `count` spins of `game` played on by the random policy (seeded alike
    for every game it is asked of)."""
    rng = random.Random(9)
    start = len(game.log)
    while sum(n.startswith("spin ") for _, n in game.log[start:]) < count:
        game.apply(*choose_action(game, rng))
    return [n for _, n in game.log[start:] if n.startswith("spin ")][:count]


def test_a_record_under_way_does_not_foretell_the_wheel() -> None:
    """Issue 35.3. RULES.md 5.1: "Spin: the arrow stops on one of the 8 segments
    uniformly at random" — a record of a game under way carries its spins made (it
    replays exactly: RULES.md 2.1's landscape "from randomly drawn tiles" is written out)
    but no seed: played on, its wheel spins afresh, not as the real game's will. Seeds
    5 (the game) and 77 (the offline wheel) give different next spins; with the seed in
    the record (before this issue) they were the real game's, whatever the pair."""
    played = play(3, 5, stop_at=80)
    text = dumped(played)
    assert "[Seed " not in text and "[Landscape " in text
    assert "the wheel spins afresh" in text.split("\n1. ")[0]  # said in the header
    game, _ = loads(text, fresh_seed=77)
    assert game.visible_dict() == played.game.visible_dict()  # replayed exactly
    real = spins_to_come(played.game.copy(), 10)
    offline = spins_to_come(game, 10)
    assert offline != real
    # the fresh seed alone decides the continuation: the same seed, the same spins
    assert spins_to_come(loads(text, fresh_seed=77)[0], 10) == offline
    # finished, the record has its seed: the spins can be checked against it
    whole = play(3, 5)
    finished = dumped(whole)
    assert f'[Seed "{whole.game.seed}"]' in finished and "afresh" not in finished
    assert loads(finished)[0] == whole.game


def test_a_tampered_landscape_is_refused_with_its_line() -> None:
    """RULES.md 2.1: "7 tiles for 2 players", each "turned to any of its 6 orientations":
    a landscape with a tile missing, laid twice or turned too far is refused by line."""
    text = dumped(play(2, 3, stop_at=20))
    line = line_of_tag(text, "Landscape")
    tiles = text.splitlines()[line - 1].split('"')[1].split()
    assert len(tiles) == 7
    for wrong, why in (
        (tiles[:6], "a landscape of 2 players has 7 tiles, not 6"),
        ([*tiles[:6], "G=" + tiles[0].split("=")[1]], "is laid twice"),
        ([*tiles[:6], "G=11/6"], "a tile turns 0 to 5 steps, not 6"),
        ([*tiles[:6], "H=1/1"], "expected 'G=TILE/ROTATION'"),
    ):
        with pytest.raises(RecordError, match=rf"line {line}: Landscape: .*{why}"):
            loads(replaced(text, line, f'[Landscape "{" ".join(wrong)}"]'))


def line_of(text: str, number: int) -> int:
    """The line number (1-based) of move `number` in a record."""
    return next(
        i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(f"{number}. ")
    )


def replaced(text: str, line: int, new: str) -> str:
    lines = text.splitlines()
    lines[line - 1] = new
    return "\n".join(lines) + "\n"


def test_a_tampered_move_is_refused_with_its_line_number() -> None:
    """Issue 23: "a record with a tampered move is refused with its line number".
    RULES.md 3: "On your turn you **must** take exactly one action" — a second player's
    move put in the turn player's place is refused, and so is a build on a mountain."""
    text = dumped(play(2, 11))
    line = line_of(text, 30)
    number, colour, *_ = text.splitlines()[line - 1].split()
    other = "yellow" if colour == "blue" else "blue"
    with pytest.raises(RecordError) as refused:
        loads(replaced(text, line, f"{number} {other} recruit"))
    assert refused.value.line == line
    assert str(refused.value).startswith(f"line {line}: 'recruit' is refused: ")
    assert refused.value.reason is not None

    with pytest.raises(RecordError) as unreadable:
        loads(replaced(text, line, f"{number} {colour} dig for gold"))
    assert unreadable.value.line == line
    assert "'dig for gold' is refused" in str(unreadable.value)


def test_a_record_that_lies_about_a_forced_step_or_its_order_is_refused() -> None:
    """RULES.md 7.3: a step is forced only "where a decision has exactly one legal
    option"; a move noted forced that was a choice is refused, as are moves out of
    order, unknown seats and a finished result whose moves stop early."""
    played = play(3, 21)
    text = dumped(played)
    game = played.game
    chosen = next(i for i in range(10, len(game.log)) if i not in game.auto)
    line = line_of(text, chosen + 1)
    with pytest.raises(RecordError, match=rf"line {line}: .* noted forced"):
        loads(replaced(text, line, text.splitlines()[line - 1].split("#")[0] + " # note=forced"))
    with pytest.raises(RecordError, match=rf"line {line}: move number 99 out of order"):
        loads(replaced(text, line, "99." + text.splitlines()[line - 1].split(".", 1)[1]))
    with pytest.raises(RecordError, match=rf"line {line}: 'red' is no seat of this game"):
        loads(replaced(text, line, f"{chosen + 1}. red recruit"))
    last = line_of(text, len(game.log))
    truncated = "\n".join(text.splitlines()[: last - 1]) + "\n"
    with pytest.raises(RecordError, match="the result says finished but the moves stop early"):
        loads(truncated)


def test_a_header_that_is_not_a_record_is_refused_by_line() -> None:
    with pytest.raises(RecordError, match="line 1: not a Montana game record"):
        loads('[Event "Chess"]\n\n1. e4 e5\n')
    text = dumped(play(2, 3))
    seed_line = line_of_tag(text, "Seed")
    with pytest.raises(RecordError, match=rf"line {seed_line}: Seed must be a whole number"):
        loads(replaced(text, seed_line, '[Seed "seven"]'))
    with pytest.raises(RecordError, match=rf"line {seed_line}: expected a tag"):
        loads(replaced(text, seed_line, '[Seed "7]'))


def line_of_tag(text: str, tag: str) -> int:
    return next(
        i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(f"[{tag} ")
    )


def test_a_record_opens_at_any_turn() -> None:
    """The console's `--record FILE --turn N`: the game as turn N began."""
    played = play(4, 8)
    text = dumped(played)
    record = parse(text)
    at_ten = record.at_turn(10)
    # the record marks where turn 10 begins: the moves above that line are played
    above = text.split("\n; turn 10: ", 1)[0].splitlines()
    assert sum(1 for line in above if line[:1].isdigit()) == record.turn_starts[10]
    assert at_ten.turn_number == 10 and not at_ten.is_over
    assert at_ten.log == played.game.log[: len(at_ten.log)]
    for missing in (0, 999):
        with pytest.raises(
            ValueError, match=f"turn {missing} is not in the record: it has turns 1 to"
        ):
            record.at_turn(missing)


def test_a_game_begun_under_schema_1_reads_back_as_its_replay() -> None:
    """Issue 23.5, games saved before forced steps were logged (schema 1, rules/README.md
    "Saved state"): the record reads back as `Game.replay` of the game's record does
    (the forced steps schema 1 left out applied, RULES.md 7.3), and from there on its
    record reads back identically."""
    saved = json.loads((Path(__file__).parent / "data" / "schema1_game.json").read_text())
    old = Game.from_dict(saved["state"])
    text = dumps(old)
    assert f'[Schema1Moves "{len(old.log)}"]' in text
    game, _ = loads(text)
    # under way: the same but for the secret seed (issue 35.3)
    assert not old.is_over
    assert game.visible_dict() == Game.replay(old.record()).visible_dict()
    assert len(game.log) > len(old.log)
    assert loads(dumps(game))[0].visible_dict() == game.visible_dict()


def turn_comments(text: str) -> list[tuple[int, str, int]]:
    """Each `; turn N: COLOUR` line of a record: N, the colour, and how many moves the
    record lists above it (moves taken back left out: they are not played)."""
    comments, played = [], 0
    for line in text.splitlines():
        if line.startswith("; turn "):
            number, colour = line.removeprefix("; turn ").split(": ")
            comments.append((int(number), colour, played))
        elif line[:1].isdigit():
            played += 1
    return comments


def test_the_records_turns_are_the_replays_frames() -> None:
    """Issue 23: the record's `; turn N` lines and the replay's frames (one per turn,
    `render.replay.turn_states`) split a game the same way. RULES.md 7.3: a forced
    step "is logged as that player's move": one that ends a turn belongs to that turn,
    not to the next one (a turn begins with its own player's entry, RULES.md 3)."""
    after_forced = 0
    for players in (2, 3, 4):
        for seed in range(12):
            played = play(players, 100 * players + seed, stop_at=90 if seed % 4 == 0 else None)
            game = played.game
            frames = []
            for state in turn_states(game):  # each taken as yielded: the game folds on
                frames.append((state.frame, len(state.game.log)))
            colour = {p.id: data.PLAYER_COLOURS[seat] for seat, p in enumerate(game.players)}
            expected = [
                (frame.turn, colour[frame.player or ""], begun)
                for (frame, _), (_, begun) in zip(frames[1:], frames, strict=False)
            ]
            assert [frame.turn for frame, _ in frames] == list(range(len(frames)))
            assert turn_comments(dumped(played)) == expected, (players, seed)
            after_forced += sum(begun - 1 in game.auto for _, _, begun in expected)
    assert after_forced > 0, "some turn ends with a forced step"
