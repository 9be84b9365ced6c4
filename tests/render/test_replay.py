"""The animated replay (issue 23.1): one frame per turn, folded from the move log, at
most 8 MB whatever the game's length, a part of a game with `turns`.

RULES.md 3 (a turn), 8 (a canteen turn is a turn of its own): the frames follow the
turns as `rules.recent` reads them from the log.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from render import replay
from render.replay import MAX_BYTES, parse_turns, render_replay, turn_states
from rules import Game
from rules.recent import last_turn, turn_starts
from rules.record import dumps

from .helpers import game_at


def _frames(gif: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(image.convert("RGB"))
    return frames


def test_one_state_per_turn_each_the_game_at_that_turns_end() -> None:
    game = game_at(3, "end")
    # each state is taken as it is yielded: the game is folded forward afterwards
    turns = [(s, json.loads(json.dumps(s.game.to_dict()))) for s in turn_states(game)]
    states = [(s.frame, state) for s, state in turns]
    assert [frame.turn for frame, _ in states] == list(range(game.turn_number + 1))
    assert states[-1][1] == game.to_dict()
    assert all(s.events for s, _ in turns), "every turn did something"
    # what happened in a turn starts with its player's own action
    assert all(s.events[0].player == s.frame.player for s, _ in turns[1:])
    starts = turn_starts(game)
    assert len(starts) == len(states)
    for (frame, state), start in zip(states, [*starts[1:], len(game.log)], strict=True):
        # the state at the end of a turn is the game replayed up to the next turn's start
        record = game.record()
        record["actions"] = record["actions"][:start]
        replayed = Game.replay(record)
        assert state["log"] == replayed.to_dict()["log"]
        turn = last_turn(replayed)
        assert turn is not None
        if turn.setup:
            assert (frame.turn, frame.player) == (0, None)
        else:
            assert (turn.number, turn.player) == (frame.turn, frame.player)


def test_a_whole_long_game_fits_8_mb_with_one_frame_per_turn_and_the_ranking_last() -> None:
    game = game_at(4, "end", seed=3)
    assert game.turn_number > 200, "an unusually long game (most last about 100 turns)"
    result = render_replay(game)
    assert len(result.gif) <= MAX_BYTES
    frames = _frames(result.gif)
    assert len(frames) == result.frames == game.turn_number + 1
    assert result.turns == (0, game.turn_number)
    # the last frame is the final snapshot (the ranking) and is held longest
    drawn = replay._draw_frames(game, {}, {}, "en", (game.turn_number, game.turn_number), 2, None)
    expected = replay._same_size(drawn.images)[0].convert("RGB")
    last = frames[-1].crop((0, 0, expected.width, expected.height))
    assert ImageChops.difference(last, expected).getbbox() is None


def test_every_frame_decodes_to_its_turn_picture_despite_the_delta_encoding() -> None:
    game = game_at(2, "end", seed=7)
    drawn = replay._draw_frames(game, {}, {}, "en", (0, 12), 2, None)
    expected = [image.convert("RGB") for image in replay._same_size(drawn.images)]
    decoded = _frames(replay._encode(drawn.images))
    assert len(decoded) == len(expected) == 13
    for index, (got, want) in enumerate(zip(decoded, expected, strict=True)):
        assert ImageChops.difference(got, want).getbbox() is None, f"frame {index}"


def test_too_large_a_replay_is_drawn_smaller_then_with_fewer_frames_never_failing() -> None:
    game = game_at(4, "end")
    limit = 400_000
    result = render_replay(game, max_bytes=limit)
    assert len(result.gif) <= limit
    assert result.scale < 0.5
    assert result.frames < game.turn_number + 1
    assert result.turns == (0, game.turn_number)  # the start and the end are kept
    assert len(_frames(result.gif)) == result.frames


def test_a_part_of_the_game_has_the_frames_of_those_turns() -> None:
    game = game_at(3, "end")
    seen: list[float] = []
    result = render_replay(game, turns=(10, 20), progress=seen.append)
    assert result.turns == (10, 20)
    assert result.frames == 11 == len(_frames(result.gif))
    assert seen == sorted(seen) and seen[-1] == 1.0


def test_a_range_past_the_end_stops_at_the_last_turn_and_a_game_under_way_replays_up_to_now() -> (
    None
):
    game = game_at(2, "mid")
    turn = last_turn(game)
    assert turn is not None and turn.number is not None
    result = render_replay(game, turns=(turn.number - 2, 999))
    assert result.turns == (turn.number - 2, turn.number)
    assert result.frames == 3


def test_a_range_with_no_turn_is_refused() -> None:
    with pytest.raises(ValueError):
        render_replay(game_at(2, "mid"), turns=(500, 600))


@pytest.mark.parametrize(
    ("text", "turns"), [("10-20", (10, 20)), (" 3 - 7 ", (3, 7)), ("5", (5, 5)), ("4–9", (4, 9))]
)
def test_turns_are_read_as_from_to(text: str, turns: tuple[int, int]) -> None:
    assert parse_turns(text) == turns


@pytest.mark.parametrize("text", ["", "20-10", "a-b", "1-2-3", "-4"])
def test_other_turns_texts_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_turns(text)


def test_the_command_replays_a_game_record_with_its_names_and_refuses_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_at(2, "mid")
    record = tmp_path / "montana-7.txt"
    record.write_text(dumps(game, {"Language": "fr"}, names={game.player_ids[0]: "Zoé"}))
    out = tmp_path / "replay.gif"
    assert replay.main(["--record", str(record), "--turns", "1-3", "--out", str(out)]) == 0
    assert "3 frames (turns 1-3)" in capsys.readouterr().out
    assert len(_frames(out.read_bytes())) == 3
    assert replay._from_record(record)[1:] == ({"ana": "Zoé", "ben": "ben"}, "fr")

    lines = record.read_text().splitlines()
    first_move = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[first_move] = lines[first_move].replace("spin", "build A1", 1)
    record.write_text("\n".join(lines) + "\n")
    with pytest.raises(SystemExit):
        replay.main(["--record", str(record), "--out", str(out)])
    assert f"line {first_move + 1}" in capsys.readouterr().err
