"""Readable in Discord: the picture's shape, its text sizes, and what the chat preview
(the picture scaled to fit 550 × 350 before a tap) still shows."""

from __future__ import annotations

import pytest

from render import caches, compose, fonts, landscape, players
from rules import Game

from .helpers import game_at, record_text

PREVIEW = (550, 350)
"""Discord's desktop preview box: a picture is scaled down to fit it before a tap."""
PREVIEW_LETTER = 11
"""Capital letters of the awaited player's name must stay this tall in the preview."""
LONG_NAMES = [
    "Grzegorz Brzęczyszczykiewicz 🐄🐄",
    "さくら 太郎 山田花子さくら",
    "Zażółć gęślą jaźń",
    "A",
]


def preview_scale(width: int, height: int) -> float:
    return min(PREVIEW[0] / width, PREVIEW[1] / height)


def _games() -> list[tuple[str, Game, dict[str, str], dict[str, str]]]:
    cases: list[tuple[str, Game, dict[str, str], dict[str, str]]] = []
    for count in (2, 3, 4):
        for phase in ("start", "mid", "end"):
            game = game_at(count, phase)
            cases.append((f"{count}-{phase}", game, {}, {}))
        game = game_at(count, "mid")
        names = dict(zip(game.player_ids, LONG_NAMES, strict=False))
        notes = {pid: "away until 3 Dec, AI plays meanwhile" for pid in game.player_ids}
        cases.append((f"{count}-long-names", game, names, notes))
    return cases


CASES = _games()


@pytest.mark.parametrize(("case", "game", "names", "notes"), CASES, ids=[c[0] for c in CASES])
def test_a_landscape_picture_at_most_2000_px_wide(case, game, names, notes):
    image = compose.snapshot(game, names=names, seat_notes=notes).image
    assert image.width <= 2000
    assert 1.3 <= image.width / image.height <= 1.8, (case, image.size)


@pytest.mark.parametrize(("case", "game", "names", "notes"), CASES, ids=[c[0] for c in CASES])
def test_no_text_is_smaller_than_18_px(case, game, names, notes, monkeypatch):
    """Opened full size on a phone, every number and label reads with at most one zoom.
    The caches are emptied first, so the static art's words are drawn (and counted) too,
    and so are the letters on the pieces."""
    caches.clear_all()
    with record_text(monkeypatch) as drawn:
        image = compose.snapshot(game, names=names, seat_notes=notes).image
    assert drawn
    small = {(d.text, d.size) for d in drawn if d.size < compose.MIN_TEXT_SIZE}
    assert not small, small
    for d in drawn:
        left, right = d.left_right
        assert left >= 0 and right <= image.width, f"{d.text!r} leaves the picture"


@pytest.mark.parametrize(("case", "game", "names", "notes"), CASES, ids=[c[0] for c in CASES])
def test_the_awaited_players_name_stays_11_px_tall_in_the_preview(
    case, game, names, notes, monkeypatch
):
    with record_text(monkeypatch) as drawn:
        image = compose.snapshot(game, names=names, seat_notes=notes).image
    scale = preview_scale(*image.size)
    (title,) = [d for d in drawn if d.size == compose.TITLE_SIZE]
    awaited = game.awaiting
    if awaited is not None:
        name = names.get(awaited, awaited)
        assert title.text == name or (title.text.endswith("…") and name.startswith(title.text[:-1]))
    assert fonts.cap_height(title.size, bold=True) * scale >= PREVIEW_LETTER, (case, image.size)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_settlements_and_the_last_turns_rings_stay_visible_in_the_preview(count):
    game = game_at(count, "mid")
    snap = compose.snapshot(game)
    scale = preview_scale(*snap.image.size)
    house = round(0.8 * snap.geometry.radius)  # a settlement's width on the landscape
    assert house * scale >= 10, "a settlement's colour is a patch of at least 10 px"
    ring = landscape.MARK_WIDTH + 2 * landscape.MARK_EDGE  # the coloured ring and its edges
    assert ring * scale >= 4, "the last turn's rings stand out in the preview"


def test_long_names_and_notes_stay_inside_the_header_and_their_boards(monkeypatch):
    game = game_at(4, "mid")
    names = dict(zip(game.player_ids, LONG_NAMES, strict=False))
    notes = {pid: "away until 3 Dec, AI plays meanwhile" for pid in game.player_ids}
    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game, names=names, seat_notes=notes)
    header = [d for d in drawn if d.y < compose.HEADER_HEIGHT]
    assert any(d.text.startswith("away until") for d in header), "the awaited player's note"
    for d in header:
        assert d.left_right[1] <= snap.image.width - 20, d.text
    for seat, (x0, y0) in enumerate(snap.player_board_origins):
        inside = [
            d
            for d in drawn
            if x0 <= d.x <= x0 + players.BOARD_WIDTH and y0 <= d.y <= y0 + players.BOARD_HEIGHT
        ]
        assert any(d.text.startswith("away") for d in inside), f"seat {seat}'s note"
        for d in inside:
            assert d.left_right[1] <= x0 + players.BOARD_WIDTH - 8, d.text
