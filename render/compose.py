"""The full snapshot: header, results (when over), landscape, worker board, player boards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from rules import Game

from . import fonts, icons, landscape, players, workerboard
from .palette import GOLD, INK, PAPER, WHITE, seat_colour
from .words import header_lines, result_lines

WIDTH = workerboard.WIDTH
GAP = 10
TITLE_SIZE = 34
LINE_SIZE = 26
RESULT_SIZE = 26


@dataclass
class Snapshot:
    """A rendered picture and what was written on it, for the caller and for tests."""

    image: Image.Image
    header: list[str]
    results: list[tuple[int, str, str]] = field(default_factory=list)
    landscape_origin: tuple[int, int] = (0, 0)
    worker_board_origin: tuple[int, int] = (0, 0)
    player_board_origins: list[tuple[int, int]] = field(default_factory=list)

    def field_centre(self, game: Game, label: str) -> tuple[int, int]:
        """Pixel centre of field `label` on this picture."""
        return landscape.field_centres(game, self.landscape_origin)[label]


def _header_height(lines: list[str]) -> int:
    return 18 + 46 + 38 * (len(lines) - 1) + 14


def _draw_header(
    picture: Image.Image, game: Game, lines: list[str], names: Mapping[str, str] | None
) -> None:
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 0, WIDTH, _header_height(lines)), fill=INK)
    y = 18 + 23
    for i, line in enumerate(lines):
        size = TITLE_SIZE if i == 0 else LINE_SIZE
        x = 24
        if line.startswith("Now:") and game.awaiting is not None:
            seat = game.seat_of(game.awaiting)
            icons.paste(picture, icons.house(seat_colour(seat), 34), (x + 17, y))
            x += 44
        text = fonts.fit(line, size, WIDTH - x - 20, bold=i == 0)
        fonts.draw_text(
            draw, (x, y), text, size, fill=GOLD if i == 0 else WHITE, bold=i < 2, anchor="lm"
        )
        y += 46 if i == 0 else 38


def _draw_results(picture: Image.Image, top: int, rows: list[tuple[int, str, str]]) -> int:
    draw = ImageDraw.Draw(picture)
    height = 58 + 40 * len(rows) + 12
    draw.rounded_rectangle(
        (GAP, top, WIDTH - GAP, top + height), radius=12, fill=(255, 246, 214), outline=INK, width=3
    )
    fonts.draw_text(
        draw, (30, top + 30), "Final ranking", TITLE_SIZE - 2, fill=INK, bold=True, anchor="lm"
    )
    y = top + 58 + 20
    for place, name, figures in rows:
        winner = place == 1
        if winner:
            icons.paste(picture, icons.star(32, GOLD), (46, y))
        fonts.draw_text(draw, (70, y), f"{place}.", RESULT_SIZE, fill=INK, bold=True, anchor="lm")
        fonts.draw_text(
            draw,
            (106, y),
            fonts.fit(name, RESULT_SIZE, 340, bold=True),
            RESULT_SIZE,
            fill=INK,
            bold=True,
            anchor="lm",
        )
        figures = fonts.fit(figures, RESULT_SIZE - 2, WIDTH - 2 * GAP - 20 - 460)
        fonts.draw_text(draw, (460, y), figures, RESULT_SIZE - 2, fill=INK, anchor="lm")
        y += 40
    return height


def snapshot(
    game: Game, *, highlight: str | None = None, names: Mapping[str, str] | None = None
) -> Snapshot:
    """Draw the whole game."""
    lines = header_lines(game, names)
    results = result_lines(game, names) if game.is_over else []
    geo = landscape.geometry(game)
    board_rows = (len(game.players) + 1) // 2
    header_height = _header_height(lines)
    results_height = 58 + 40 * len(results) + 12 + GAP if results else 0
    height = (
        header_height
        + GAP
        + results_height
        + geo.height
        + GAP
        + workerboard.HEIGHT
        + board_rows * (players.BOARD_HEIGHT + GAP)
        + players.SUPPLY_HEIGHT
        + GAP
    )
    picture = Image.new("RGB", (WIDTH, height), PAPER)
    _draw_header(picture, game, lines, names)
    y = header_height + GAP
    if results:
        y += _draw_results(picture, y, results) + GAP
    land_origin = ((WIDTH - geo.width) // 2, y)
    picture.paste(landscape.static_base(landscape.layout_key(game)), land_origin)
    landscape.draw_pieces(picture, game, geo, land_origin, highlight)
    y += geo.height + GAP
    board_origin = (0, y)
    picture.paste(workerboard.static_board(), board_origin)
    workerboard.draw_pieces(picture, game, board_origin)
    y += workerboard.HEIGHT
    origins = []
    for seat in range(len(game.players)):
        origin = (
            GAP + (seat % 2) * (players.BOARD_WIDTH + GAP),
            y + (seat // 2) * (players.BOARD_HEIGHT + GAP),
        )
        players.draw_player_board(picture, game, seat, origin, names)
        origins.append(origin)
    y += board_rows * (players.BOARD_HEIGHT + GAP)
    players.draw_supply(picture, game, (GAP, y), WIDTH - 2 * GAP)
    return Snapshot(picture, lines, results, land_origin, board_origin, origins)
