"""The full picture: every player count and phase, pieces where they belong, determinism."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import render
from render import caches, compose, icons, landscape, players, workerboard
from render.palette import HIGHLIGHT, LAKE, PLAYER_RGB, PLAYER_TINT, WORKER_RGB, seat_colour
from render.words import ENGLISH
from rules import Game, data
from rules.recent import last_turn
from rules.simulate import choose_action

from .helpers import close, decode, game_at, record_text, rgb

PHASES = ("start", "mid", "end")


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("phase", PHASES)
def test_every_player_count_and_phase_draws_the_whole_game(count, phase, monkeypatch):
    game = game_at(count, phase)
    names = {pid: f"Name{seat}" for seat, pid in enumerate(game.player_ids)}
    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game, names=names)
    texts = [d.text for d in drawn]

    png = render.render_game(game, names=names)
    image = decode(png)
    assert image.size == snap.image.size
    assert image.width <= compose.MAX_WIDTH
    assert len(png) < 600 * 1024
    assert image.height >= compose.HEADER_HEIGHT + workerboard.HEIGHT + players.BOARD_HEIGHT
    assert len(snap.player_board_origins) == count
    for seat in range(count):
        assert any(t.startswith(f"Name{seat}") for t in texts), f"board of seat {seat}"
    for label in game.fields:
        x, y = snap.field_centre(game, label)
        assert 0 <= x < image.width and 0 <= y < image.height

    title, status, _ = snap.header
    if phase == "start":
        assert status.startswith("Setup")
    elif phase == "mid":
        assert status.startswith(f"Turn {game.turn_number}: {names[game.turn_player]}'s turn")
    else:
        winners = [names[pid] for pid in game.result().winners]
        assert title.startswith("Game over: " + " and ".join(winners))
        assert [row[1] for row in snap.results] == [names[s.player] for s in game.result().ranking]
        assert any(t.startswith("Final ranking") for t in texts)
    if game.awaiting is not None:
        assert names[game.awaiting] in texts, "the awaited player's name leads the header"
    for line in snap.header:
        assert any(t == line or (t.endswith("…") and line.startswith(t[:-1])) for t in texts)


def test_header_names_who_must_answer_and_the_last_turn_in_words(monkeypatch):
    game = game_at(4, "mid")
    names = {game.player_ids[0]: "Zażółć", game.player_ids[1]: "さくら"}
    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game, names=names)
    awaited = game.awaiting
    assert awaited is not None
    title, _, turn_line = snap.header
    assert title.startswith("must ")
    (name,) = [d for d in drawn if d.size == compose.TITLE_SIZE]
    assert name.text == names.get(awaited, awaited)
    assert snap.turn is not None
    mover = names.get(snap.turn.player, snap.turn.player)
    assert turn_line.split(": ", 1)[1].startswith(mover)
    for _, notation in game.log[-len(snap.turn.moves) :]:
        if " " in notation and not notation.startswith("build"):
            assert notation not in turn_line, "words, not notation"


def _build_on(game: Game, seat: int, count: int = 1) -> str:
    """Put `count` settlements of `seat` on the first free buildable field; returns it."""
    label = next(
        f.label for f in game.fields.values() if f.buildable and not f.settlements and not f.cow
    )
    game.fields[label].settlements = [game.players[seat].id] * count
    return label


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_built_field_shows_its_builders_colour_at_its_centre(seat):
    game = game_at(4, "start")
    label = _build_on(game, seat)
    snap = compose.snapshot(game)
    pixel = rgb(snap.image, snap.field_centre(game, label))
    assert close(pixel, PLAYER_RGB[seat_colour(seat)])
    # the rest of the hex is washed in the owner's colour (cost no longer shown)
    x, y = snap.field_centre(game, label)
    assert close(rgb(snap.image, (x - 40, y + 10)), PLAYER_TINT[seat_colour(seat)])


def test_a_stack_of_three_settlements_shows_its_count(monkeypatch):
    game = game_at(2, "start")
    label = _build_on(game, 1, count=3)
    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game)
    x, y = snap.field_centre(game, label)
    badges = [d for d in drawn if d.text == "3" and x < d.x < x + 60 and y < d.y < y + 60]
    assert badges, "the stack's count is written beside the settlement"
    assert close(rgb(snap.image, (x, y)), PLAYER_RGB[seat_colour(1)])


def test_the_highlight_rings_the_named_field():
    game = game_at(3, "mid")
    label = next(iter(game.fields))
    plain = compose.snapshot(game).image
    marked = compose.snapshot(game, highlight=label.lower()).image
    snap = compose.snapshot(game)
    f = game.fields[label]
    corners = snap.geometry.corners(f.q, f.r, inset=landscape.MARK_INSET)
    ox, oy = snap.landscape_origin
    mid = ((corners[2][0] + corners[3][0]) / 2 + ox, (corners[2][1] + corners[3][1]) / 2 + oy)
    point = (round(mid[0]), round(mid[1]))
    assert close(rgb(marked, point), HIGHLIGHT)
    assert not close(rgb(plain, point), HIGHLIGHT)


def _canteen_point(snap: compose.Snapshot, game: Game, label: str) -> tuple[int, int]:
    x, y = snap.field_centre(game, label)
    return (x, y + round(0.2 * snap.geometry.radius))


def test_canteens_show_on_lakes_until_taken():
    game = game_at(4, "start")
    lakes = [f.label for f in game.fields.values() if f.kind == "lake"]
    assert len(lakes) >= 2
    with_canteens = compose.snapshot(game)
    for label in lakes:
        assert not close(
            rgb(with_canteens.image, _canteen_point(with_canteens, game, label)), LAKE, tolerance=2
        )
    for label in lakes:
        game.fields[label].canteen = False
    taken = compose.snapshot(game)
    for label in lakes:
        assert close(rgb(taken.image, _canteen_point(taken, game, label)), LAKE, tolerance=2)


def test_every_representative_stands_in_its_city_space():
    game = game_at(4, "mid")
    game.representatives = [(1, 1), (2, 4), (3, 2), (4, 4)]
    snap = compose.snapshot(game)
    ox, oy = snap.worker_board_origin
    cells = workerboard.layout().city_cells
    for seat, position in enumerate(game.representatives):
        assert position is not None
        x, y = cells[position]
        # the pawn's head, above its letter
        head = (round(x + ox), round(y + oy - 9))
        assert close(rgb(snap.image, head), PLAYER_RGB[seat_colour(seat)])
    empty = cells[(1, 2)]
    assert close(rgb(snap.image, (round(empty[0] + ox), round(empty[1] + oy - 9))), (255, 255, 255))


def test_workers_on_the_board_are_drawn_in_their_colours():
    game = game_at(2, "start")
    game.bank[3] = ["copper", "stone", "pumpkin"]
    game.harvest["wheatfield"][2].large = ["grain"]
    snap = compose.snapshot(game)
    ox, oy = snap.worker_board_origin
    spots = workerboard.layout()
    sprite = icons.worker("copper", workerboard.WORKER)
    for (x, y), colour in zip(spots.bank_spots[3], game.bank[3], strict=True):
        # a worker's head sits in the top part of its sprite
        head = (round(x + ox), round(y + oy - sprite.height * 0.3))
        assert close(rgb(snap.image, head), WORKER_RGB[colour], tolerance=16)
    (x, y), _ = spots.harvest_spots[("wheatfield", 3, "large")]
    head = (round(x + ox), round(y + oy - sprite.height * 0.3))
    assert close(rgb(snap.image, head), WORKER_RGB["grain"], tolerance=16)


def _board_texts_fit(
    game: Game, seat: int, monkeypatch: pytest.MonkeyPatch, names=None
) -> list[str]:
    with record_text(monkeypatch) as drawn:
        picture = players.player_board_picture(game, game.players[seat].id, names, None, ENGLISH)
    for d in drawn:
        left, right = d.left_right
        assert left >= 10 and right <= picture.width - 10, f"{d.text!r} leaves the board"
    return [d.text for d in drawn]


def test_extreme_holdings_fit_on_the_player_board(monkeypatch):
    game = game_at(4, "mid")
    player = game.players[2]
    player.coins = 99
    player.cows = 24
    player.canteens = 6
    player.workers = {"copper": 8, "stone": 0, "grain": 0, "pumpkin": 0}
    player.goods = {good: 0 for good in data.GOODS}
    player.settlements_left = 0
    long_name = "Grzegorz Brzęczyszczykiewicz z Chrząszczyżewoszyc 🐄🐄🐄"
    texts = _board_texts_fit(game, 2, monkeypatch, {player.id: long_name})
    assert "99" in texts
    assert "24" in texts
    assert "workers 8/8" in texts
    assert "0 left" in texts
    assert texts.count("0") >= len(data.GOODS) + 3
    assert any(t.startswith("Grzegorz") and t.endswith("…") for t in texts)


def test_the_player_board_marks_start_player_turn_and_who_plays(monkeypatch):
    game = game_at(3, "mid")
    start_texts = _board_texts_fit(game, 0, monkeypatch)
    assert "START" in start_texts
    awaited = game.awaiting
    assert awaited is not None
    awaited_texts = _board_texts_fit(game, game.seat_of(awaited), monkeypatch)
    assert "TO PLAY" in awaited_texts
    others = [s for s in range(3) if game.players[s].id not in (awaited, game.turn_player)]
    for seat in others:
        texts = _board_texts_fit(game, seat, monkeypatch)
        assert "TO PLAY" not in texts and "TURN" not in texts


def test_the_player_board_picture_is_a_png_of_one_board():
    game = game_at(2, "mid")
    image = decode(render.render_player_board(game, game.player_ids[1]))
    assert image.size == (players.BOARD_WIDTH + 20, players.BOARD_HEIGHT + 20)
    # the board's left stripe is the player's colour
    assert close(rgb(image, (16, 100)), PLAYER_RGB[seat_colour(1)])


def test_the_landscape_picture_matches_the_landscape_of_the_snapshot():
    game = game_at(4, "end")
    label = next(f.label for f in game.fields.values() if f.settlements)
    geo = landscape.geometry(game)
    assert decode(render.render_landscape(game, highlight=label)).size == (geo.width, geo.height)
    marks = landscape.field_marks(game, last_turn(game), label)
    alone = landscape.landscape_picture(game, marks, ENGLISH)
    snap = compose.snapshot(game, highlight=label)
    ox, oy = snap.landscape_origin
    crop = snap.image.crop((ox, oy, ox + alone.width, oy + alone.height))
    assert crop.tobytes() == alone.tobytes()


def test_the_png_keeps_the_colours_of_the_drawing():
    game = game_at(3, "mid")
    label = _build_on(game, 2)
    snap = compose.snapshot(game)
    image = decode(render.render_game(game))
    assert image.size == snap.image.size
    centre = snap.field_centre(game, label)
    assert close(rgb(image, centre), PLAYER_RGB[seat_colour(2)], tolerance=6)
    # the palette changes no pixel by more than a few levels on average
    diff = [abs(a - b) for a, b in zip(image.tobytes(), snap.image.tobytes(), strict=True)]
    assert sum(diff) / len(diff) < 2


def test_same_state_same_bytes_and_a_changed_state_changes_them():
    game = game_at(4, "mid")
    first = render.render_game(game, highlight="A1")
    caches.clear_all()
    copy = Game.from_dict(game.to_dict())
    assert render.render_game(copy, highlight="A1") == first
    assert render.render_game(game, highlight="A2") != first
    copy.players[0].coins += 1
    assert render.render_game(copy, highlight="A1") != first


def test_the_supply_strip_counts_what_is_left_to_take(monkeypatch):
    game = game_at(4, "mid")
    game.supply.goods["bigstone"] = 0
    game.supply.cows = 17
    game.supply.workers["pumpkin"] = 3
    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game)
    x0, y0 = snap.supply_origin
    strip = [
        d for d in drawn if y0 < d.y < y0 + players.SUPPLY_HEIGHT and d.x < snap.geometry.width
    ]
    texts = [d.text for d in strip]
    assert texts[0] == "Supply"
    expected = [str(game.supply.goods[g]) for g in data.GOODS]
    expected += [str(game.supply.cows)] + [str(game.supply.workers[c]) for c in data.COLOURS]
    assert texts[1:] == expected
    assert max(d.left_right[1] for d in strip) < x0 + snap.geometry.width - 10


def test_every_kind_of_decision_is_drawn_with_who_must_answer():
    seen: set[str] = set()
    for seed in (1, 2):
        game = Game.new(["ana", "ben", "cleo"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            kind = game.pending.kind
            if kind not in seen:
                seen.add(kind)
                snap = compose.snapshot(game)
                assert snap.header[0].startswith("must ")
                assert "(" + kind + ")" not in snap.header[0], "a decision without words"
            player_id, action = choose_action(game, rng)
            game.apply(player_id, action)
    assert {"take", "main", "bid", "reward", "build"} <= seen


def test_renders_from_several_threads_at_once_give_the_same_bytes():
    games = [game_at(4, "mid"), game_at(2, "end")]
    expected = [render.render_game(g) for g in games]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda i: render.render_game(games[i % 2]), range(6)))
    assert results == [expected[i % 2] for i in range(6)]
